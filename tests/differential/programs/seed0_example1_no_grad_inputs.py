# Seed 0, example 1: neither input requires grad, so nothing is recorded.
import torch

a = torch.tensor(2.0)
b = torch.tensor(3.0)
c = a * b
print(c)
print(c.requires_grad, c.is_leaf, c.grad_fn)
print(a.requires_grad, b.requires_grad)
