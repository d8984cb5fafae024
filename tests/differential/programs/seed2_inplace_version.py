# Seed 2: _version counts in-place changes; b is saved by b*b, so modifying
# it afterwards makes backward fail with the version-mismatch error.
import torch

a = torch.tensor([1.0, 3.0], requires_grad=True)
b = a + 2
print(b._version)  # 0

loss = (b * b).mean()
b[0] = 1000.0
print(b._version)  # 1
print(b, b.grad_fn.name())

try:
    loss.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(a.grad)
