# Seed 2 (prose): an in-place op on a leaf that requires grad is rejected.
import torch

a = torch.tensor([1.0, 3.0], requires_grad=True)
try:
    a.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    a[0] = 1000.0
except RuntimeError as e:
    print("RuntimeError:", e)
print(a, a._version)
