# Seed 3, section 1.2: a tensor that does not require grad is a leaf; the
# reshape of a requires-grad arange is not.
import torch

x_ = torch.arange(10, dtype=torch.float32).reshape(10, 1)
print(x_.is_leaf)  # True
xx = torch.arange(10, dtype=torch.float32, requires_grad=True).reshape(10, 1)
print(xx.is_leaf)  # False
print(xx.grad_fn, xx.requires_grad, x_.requires_grad)
