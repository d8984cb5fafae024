# zero_, fill_ and copy_ give their overwritten input constant zeros under
# create_graph, as PyTorch's ZeroBackward0 / FillBackward2 / FillBackward3 /
# CopyBackwards do (zeros_like(grad)): the gradient does not require grad, a
# second derivative through it has nothing to flow through.
import torch


def chain(f):
    if f is None:
        return None
    return [type(f).__name__, [chain(g) for g, _ in f.next_functions]]


a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
s = torch.tensor(2.0, requires_grad=True)
t = torch.tensor([1.0, -1.0, 0.5], requires_grad=True)
ops = {
    "zero_": lambda x: x.zero_(),
    "fill_(2.0)": lambda x: x.fill_(2.0),
    "fill_(s)": lambda x: x.fill_(s * 1),
    "copy_(t)": lambda x: x.copy_(t * 1),
    "x[:] = 1.0": lambda x: x.__setitem__(slice(None), 1.0),
    "x[...] = t": lambda x: x.__setitem__(Ellipsis, t * 1),
    "x[0].zero_()": lambda x: x[0].zero_(),
    "x[1:].fill_(s)": lambda x: x[1:].fill_(s * 1),
}
for name, op in ops.items():
    x = a * 1
    op(x)
    y = (x * x * a).sum()
    gs = torch.autograd.grad(y, [a, s, t], create_graph=True, allow_unused=True)
    print(name, chain(x.grad_fn))
    print("  ", [None if g is None else (g.tolist(), g.requires_grad) for g in gs])
    ga = gs[0]
    if ga.requires_grad:
        print("  second", torch.autograd.grad(ga.sum(), a)[0].tolist())
    try:
        x2 = a * 1
        op(x2)
        (g,) = torch.autograd.grad(x2.sum(), a, create_graph=True)
        print("  alone", g.tolist(), g.requires_grad, g.grad_fn)
        g.sum().backward()
    except RuntimeError as e:
        print("  ", e)
