# Seed 4: requires_grad_() switches tracking on for a tensor (random values
# are not printed).
import torch

a = torch.randn((2, 2))
a = (a * 3) / (a - 1)
print(a.requires_grad)  # False
a.requires_grad_(True)
print(a.requires_grad)  # True
print(a.is_leaf, a.grad_fn, a.shape)
