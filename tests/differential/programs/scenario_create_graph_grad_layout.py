# After backward(create_graph=True) through sum(), .grad is a real tensor
# (_version 1): the next backward accumulates into it.  autograd.grad returns
# the expanded grad itself, which rejects in-place writes (internal overlap).
import torch

a = torch.ones(2, 3, requires_grad=True)
a.sum().backward(create_graph=True)
print(a.grad, a.grad._version)
try:
    a.sum().backward()
    print(a.grad)
except Exception as e:
    print(f"{type(e).__name__}: {e}")
b = torch.ones(2, requires_grad=True)
(g,) = torch.autograd.grad(b.sum(), [b])
try:
    g.mul_(2)
    print(g)
except Exception as e:
    print(f"{type(e).__name__}: {e}")
