# A view made under no_grad of a tensor that requires grad: PyTorch's rules.
import torch

a = torch.ones(3, requires_grad=True) * 1
with torch.no_grad():
    v = a[:2]
print(v.requires_grad, v.grad_fn, v._version)
try:
    v.mul_(2)
except RuntimeError as e:
    print("RuntimeError:", e)
print(a, v._version)
with torch.no_grad():
    v.mul_(2)
print(a, a.grad_fn, v._version)
leaf = torch.ones(3, requires_grad=True)
with torch.no_grad():
    lv = leaf[:2]
try:
    lv.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
c = torch.ones(3)
with torch.no_grad():
    cv = c[:2]
cv.add_(1)
print(c, cv._version)
x = torch.ones(3, requires_grad=True)
b = x * 1
with torch.no_grad():
    nv = b[:2]
print(nv.is_leaf, nv.requires_grad)
y = (nv * 2).sum()
y.backward()
print(x.grad)
