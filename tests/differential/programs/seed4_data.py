# Seed 4: changing x.data is not tracked; the saved x of x**2 now holds 100.
import torch

x = torch.ones(1, requires_grad=True)
# x.data is a tensor outside the graph
print(x.data, x.data.requires_grad)
y = x**2
x.data *= 100
y.backward()
# the change affects the original tensor
print(x)
print(x.grad)
# x.data.grad is not affected
print(x.data.grad)
print(x._version)
