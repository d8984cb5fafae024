# copy_'s gradient for its source under create_graph, as PyTorch's
# CopyBackwards gives it: cast to the source's dtype first (ToCopyBackward0),
# summed to the source's shape by the engine after (SumBackward1, ViewBackward0),
# and not summed at all when the shapes agree (a 0-d source: no SumBackward0).
import warnings

import torch

warnings.simplefilter("ignore")


def chain(f):
    if f is None:
        return None
    return [type(f).__name__, [chain(g) for g, _ in f.next_functions]]


x = torch.tensor(2.0, requires_grad=True)
(x * x).backward(create_graph=True)
print(x.grad, chain(x.grad.grad_fn))

b = torch.tensor(2.0, requires_grad=True)
v = torch.ones(1, requires_grad=True)
y = b * 1
y.copy_(v[0] * 3)
(g,) = torch.autograd.grad(y * y, [v], create_graph=True)
print(g, chain(g.grad_fn))

t = torch.ones(3, requires_grad=True)
for src in (lambda: t * 2, lambda: t.double() * 2, lambda: (t * 2).view(1, 3)):
    z = torch.zeros(2, 3)
    z.copy_(src())
    (g,) = torch.autograd.grad((z * z).sum(), [t], create_graph=True)
    print(g, chain(g.grad_fn))
    print(torch.autograd.grad(g.sum(), [t]))
    z = torch.zeros(2, 3)
    z.copy_(src())
    (z * torch.arange(6.0).view(2, 3)).sum().backward()
    print(t.grad)
    t.grad = None
