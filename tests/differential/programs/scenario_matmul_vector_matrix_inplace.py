# Writing into v @ M (PyTorch computes it as a matrix product squeezed in
# place: SqueezeBackward4) rebases it on CopySlices; values, graphs and
# gradients agree. The sign of a zero gradient (0 * -1 in an outer product) is
# the BLAS kernel's (-0. in PyTorch's, 0. in numpy's): zeros print as 0.
import torch


def fn(t):
    g = t.grad_fn
    return type(g).__name__, [
        (None if f is None else type(f).__name__, nr) for f, nr in g.next_functions
    ]


def unsigned(values):
    return [v + 0.0 for v in values]


v = torch.arange(3.0, requires_grad=True)
m = torch.arange(6.0, requires_grad=True)
for write in (
    lambda y: y.__setitem__(0, 5.0),
    lambda y: y.mul_(2),
    lambda y: y[1:].copy_(v[:1] * 2),
    lambda y: y.add_(v[1:]),
):
    y = v @ m.view(3, 2)
    write(y)
    print(fn(y), y._version, y)
    (y * torch.tensor([1.0, -1.0])).sum().backward()
    print(unsigned(v.grad.tolist()), unsigned(m.grad.tolist()))
    v.grad = m.grad = None
