# Seed 0, section 3: which tensors are leaves (random values are not printed).
import torch

a = torch.rand(10, requires_grad=True)
print(a.is_leaf)
# a was created by user
b = torch.rand(10, requires_grad=False)
print(b.is_leaf)
c = torch.rand(10, requires_grad=True) + 2
print(c.is_leaf)
# c was created by the addition operation
print(a.shape, b.requires_grad, c.requires_grad, c.grad_fn.name())
