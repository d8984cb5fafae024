# In-place under no_grad: allowed on a leaf (bumps _version, later backward of
# a graph that saved it fails); on a non-leaf it keeps grad_fn.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = (w * w).sum()
with torch.no_grad():
    w.add_(1)
print(w, w._version, w.is_leaf, w.grad_fn)
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)

v = torch.tensor([1.0, 2.0], requires_grad=True)
z = (v * 3).sum()  # saves no tensor that requires the old v
with torch.no_grad():
    v.mul_(10)
z.backward()
print(v, v.grad)

a = torch.tensor([1.0, 2.0], requires_grad=True)
h = a * 2
with torch.no_grad():
    h.add_(100)
print(h, type(h.grad_fn).__name__, h._version)
h.sum().backward()
print(a.grad)
