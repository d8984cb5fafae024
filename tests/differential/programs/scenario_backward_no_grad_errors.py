# Backward of tensors that do not require grad.
import torch

t = torch.tensor([1.0, 2.0])
try:
    t.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

a = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    s = (a * 2).sum()
try:
    s.backward()
except RuntimeError as e:
    print("RuntimeError:", e)

d = (a * 2).sum().detach()
try:
    d.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.autograd.grad(d, a)
except RuntimeError as e:
    print("RuntimeError:", e)
print(a.grad)
