# Seed 2, method 2: change a leaf's values under torch.no_grad().
import torch

a = torch.tensor([10.0, 5.0, 2.0, 3.0], requires_grad=True)
print(a, a.is_leaf)

with torch.no_grad():
    a[:] = 10.0
print(a, a.is_leaf)
print(a._version, a.grad_fn)

loss = (a * a).mean()
loss.backward()
print(a.grad)
