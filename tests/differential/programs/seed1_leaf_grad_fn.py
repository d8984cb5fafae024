# Seed 1: only leaves get .grad, only non-leaves have a grad_fn.
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x**2
z = y + 1
z.backward()
print(x.grad)
print(y.grad)
print(x.is_leaf)
print(y.is_leaf)
print(x.grad_fn)
print(y.grad_fn)
