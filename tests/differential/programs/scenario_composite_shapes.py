# Composite shape functions recorded with PyTorch's views: hstack/vstack/
# dstack/column_stack, atleast_*d, broadcast_to/broadcast_tensors, unflatten,
# repeat_interleave, tensor_split, meshgrid (and its indexing warning), plus
# nonzero, count_nonzero and unique.
import warnings

import torch

x = torch.tensor([[0.5, -1.0, 2.0], [-0.25, 1.5, -2.5]], requires_grad=True)


def chain(y):
    out, n = [], y.grad_fn
    while n is not None:
        out.append(n.name())
        n = n.next_functions[0][0] if n.next_functions else None
    return out


cases = {
    "hstack": lambda: torch.hstack([x, x * 2]),
    "hstack1d": lambda: torch.hstack((x[0], x[1])),
    "vstack": lambda: torch.vstack([x[0], x[1]]),
    "row_stack": lambda: torch.row_stack([x, x[0]]),
    "column_stack": lambda: torch.column_stack([x[0], x[1]]),
    "dstack": lambda: torch.dstack([x, x]),
    "dstack1d": lambda: torch.dstack([x[0], x[1]]),
    "broadcast_to": lambda: x.broadcast_to(3, 2, 3),
    "unflatten": lambda: x.unflatten(1, (3, 1)),
    "unflatten_fn": lambda: torch.unflatten(x, -1, (1, 3)),
    "ri": lambda: x.repeat_interleave(2, dim=1),
    "ri_flat": lambda: x.repeat_interleave(2),
    "ri_fn": lambda: torch.repeat_interleave(x, 3, 0),
    "ri_tensor": lambda: x.repeat_interleave(torch.tensor([1, 0, 2]), dim=1),
    "tsplit": lambda: x.tensor_split(2, dim=1)[1],
    "tsplit_idx": lambda: x.tensor_split((1, 5), dim=1)[1],
    "mesh_ij": lambda: torch.meshgrid(x[0], x[1, :2], indexing="ij")[1],
    "mesh_xy": lambda: torch.meshgrid(x[0], x[1, :2], indexing="xy")[0],
    "atleast_2d": lambda: torch.atleast_2d(x[0]),
    "atleast_3d": lambda: torch.atleast_3d(x),
    "broadcast_tensors": lambda: torch.broadcast_tensors(x, x[0])[1],
}
for k, f in cases.items():
    y = f()
    print(k, tuple(y.shape), chain(y))
    (g,) = torch.autograd.grad((y * y).sum(), x)
    print(g)
print(
    [tuple(t.shape) for t in x.tensor_split(4, dim=1)],
    [tuple(t.shape) for t in torch.atleast_1d(x[0, 0], x)],
)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    torch.meshgrid(x[0], x[1])
print([str(m.message).split(" (Triggered")[0] for m in w])
print(
    torch.nonzero(x > 0),
    x.nonzero(as_tuple=True),
    torch.count_nonzero(x > 0),
    x.count_nonzero(dim=1),
)
print(
    torch.unique(torch.tensor([3, 1, 3, 2])),
    torch.unique(torch.tensor([3, 1, 3, 2]), return_inverse=True, return_counts=True),
)
a = torch.ones(2, 1, 3).expand(2, 3, 3).clone()
b = torch.ones(3, 2).t().unsqueeze(1).expand(2, 4, 3).clone()
print(a.stride(), b.stride(), a.is_contiguous(), x.t().stride(), x.element_size())
