# Seed 1: x and w are reshape results (not leaves); retain_grad() before
# backward() makes them keep their grads.
import torch

x = torch.arange(10, dtype=torch.float32, requires_grad=True).reshape(10, 1)
w = torch.arange(10, dtype=torch.float32, requires_grad=True).reshape(1, 10)
y = w @ x
x.retain_grad()
w.retain_grad()
y.backward()
print(x.is_leaf)
print(w.is_leaf)
print(x.grad)
print(w.grad)
print(y, x.retains_grad, w.retains_grad)
