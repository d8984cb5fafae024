# prod's gradient when an element is zero, as PyTorch's
# prod_safe_zeros_backward computes it: for each element the product of those
# before it (a cumprod of a one and the elements but the last, CatBackward0,
# CumprodBackward0) times that of those after it (the same on the reversed
# rest, FlipBackward0), where minigrad multiplied each element's others
# along a new dim (PermuteBackward0, ProdBackward1...); the full prod()
# through a view(-1). Graphs under create_graph with their saved attributes,
# gradients, and second derivatives (to 12 digits: cumprod's own gradient
# rounds apart in the last bit).
import torch

torch.manual_seed(0)


def values(t):
    return [float(f"{v:.12g}") for v in t.reshape(-1).tolist()]


def saved(fn):
    return {
        k: (
            list(getattr(fn, k).shape)
            if isinstance(getattr(fn, k), torch.Tensor)
            else getattr(fn, k)
        )
        for k in dir(fn)
        if k.startswith("_saved_")
    }


def graph(fn, seen):
    if fn is None or fn in seen:
        return []
    seen.add(fn)
    out = [f"    {type(fn).__name__} {saved(fn)}"]
    for n, _ in fn.next_functions:
        out += graph(n, seen)
    return out


base = torch.rand(2, 3, 4, dtype=torch.float64)
z1 = base.clone()
z1[0, 1, 2] = 0
z2 = base.clone()
z2[0, 1, 2] = 0
z2[1, 0, 0] = 0
z2[1, 2, 0] = 0
for name, data, fn in [
    ("prod(1) zero", z1, lambda t: t.prod(1)),
    ("prod(-1) zero", z1, lambda t: t.prod(-1)),
    ("prod(0) zeros", z2, lambda t: t.prod(0, keepdim=True)),
    ("prod() zero", z1, lambda t: t.prod()),
    ("prod() zeros", z2, lambda t: t.prod()),
    ("prod(1) no zero", base, lambda t: t.prod(1)),
    ("prod(-2) zeros", z2, lambda t: t.prod(-2)),
    (
        "1-d prod zero",
        torch.tensor([2.0, 0.0, 3.0], dtype=torch.float64),
        lambda t: t.prod(0),
    ),
    ("size-1 dim", z1[:, :1], lambda t: t.prod(1)),
]:
    x = data.clone().requires_grad_()
    y = fn(x)
    go = torch.rand(y.shape, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(y, x, go, create_graph=True)
    print(name)
    print("\n".join(graph(g.grad_fn, set())))
    print("   ", values(g))
    g2 = torch.autograd.grad((g * g).sum(), [x, go])
    print("   ", [values(t) for t in g2])
    x2 = data.clone().requires_grad_()
    fn(x2).backward(go.detach())
    print("    first order", values(x2.grad))

# a zero in a size-1 reduced dim: prod_safe_zeros_backward returns the incoming
# gradient itself, so a constant one gives a constant gradient (no graph)
for shape, fn in [
    ((1,), lambda t: t.prod()),
    ((1, 1), lambda t: t.prod()),
    ((1, 3), lambda t: t.prod(0)),
    ((3, 1), lambda t: t.prod(-1, keepdim=True)),
]:
    x = torch.zeros(shape, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(fn(x).sum(), x, create_graph=True)
    print(shape, values(g), g.requires_grad, g.grad_fn)
    go = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(fn(x).sum(), x, go, create_graph=True)
    print("\n".join(graph(g.grad_fn, set())))
