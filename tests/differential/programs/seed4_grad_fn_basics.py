# Seed 4, 2.3.2: grad_fn of a created tensor and of op results, is_leaf.
import torch

a = torch.ones((2, 2), requires_grad=True)
print(a)
print(a.grad_fn)
b = a + 2
print(b)
print(b.grad_fn)

print(a.is_leaf)  # True
print(b.is_leaf)  # False

c = b * b * 3
d = c.mean()
print(c)
print(d)
