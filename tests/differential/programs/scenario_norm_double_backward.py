# The gradient of a p-norm, drawn under create_graph: p = 1 and p = inf take
# sgn(a) (SgnBackward0), p = 2 a masked a / norm.
import torch


def chain(fn):
    names = []
    while fn is not None:
        names.append(type(fn).__name__)
        nxt = [n for n, _ in fn.next_functions if n is not None]
        fn = nxt[0] if nxt else None
    return names


x = torch.tensor([1.0, -2.0, 3.0, -3.0], dtype=torch.float64, requires_grad=True)
for p in (1, float("inf"), 2):
    for kw in ({}, {"dim": 0}):
        n = x.norm(p=p, **kw)
        (g,) = torch.autograd.grad(n, x, create_graph=True)
        (gg,) = torch.autograd.grad(g.sum(), x, allow_unused=True)
        print(p, kw, type(n.grad_fn).__name__, chain(g.grad_fn), g, gg)
