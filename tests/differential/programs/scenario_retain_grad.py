# Non-leaf .grad warning, retain_grad() and retains_grad.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 3
c = b * b
print(a.retains_grad, b.retains_grad, c.retains_grad)
b.retain_grad()
a.retain_grad()  # no-op on a leaf
print(a.retains_grad, b.retains_grad)
print(b.grad)  # retained but not computed yet: no warning
c.sum().backward()
print(b.grad)
print(c.grad)
print(a.grad)
b.retain_grad()  # calling twice is fine
print(b.retains_grad)
try:
    torch.tensor([1.0]).retain_grad()
except RuntimeError as e:
    print("RuntimeError:", e)
d = torch.tensor([1.0])
print(d.grad, d.retains_grad)
