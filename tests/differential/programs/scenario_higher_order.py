# create_graph=True: second and third derivatives of x**3 and tanh.
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x**3
(g1,) = torch.autograd.grad(y, x, create_graph=True)
print(g1, type(g1.grad_fn).__name__)
print([(type(f).__name__ if f else None, nr) for f, nr in g1.grad_fn.next_functions])
(g2,) = torch.autograd.grad(g1, x, create_graph=True)
print(g2)
(g3,) = torch.autograd.grad(g2, x)
print(g3, g3.requires_grad)

t = torch.tensor([0.5, -1.0], requires_grad=True)
(d1,) = torch.autograd.grad(t.tanh().sum(), t, create_graph=True)
# PyTorch records fused kernels here (TanhBackwardBackward0); minigrad records
# the formula's own ops, so compare values and requires_grad, not node names.
print(d1.detach(), d1.requires_grad)
(d2,) = torch.autograd.grad(d1.sum(), t)
print(d2)

u = torch.tensor(3.0, requires_grad=True)
(gu,) = torch.autograd.grad(u**3, u)
print(gu, gu.requires_grad)
try:
    gu.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
