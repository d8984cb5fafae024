# requires_grad_() and .requires_grad on leaves, ints and non-leaves.
import torch

a = torch.tensor([1.0, 2.0])
print(a.requires_grad_() is a, a.requires_grad)
a.requires_grad_(False)
print(a.requires_grad)
a.requires_grad = True
print(a.requires_grad, a.is_leaf)

try:
    torch.tensor([1, 2, 3], requires_grad=True)
except RuntimeError as e:
    print("RuntimeError:", e)
i = torch.tensor([1, 2, 3])
try:
    i.requires_grad_()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    i.requires_grad = True
except RuntimeError as e:
    print("RuntimeError:", e)
print(i.requires_grad, i.dtype)

b = a * 2
try:
    b.requires_grad = False
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    b.requires_grad = True  # even a no-op change is refused, with a short text
except RuntimeError as e:
    print("RuntimeError:", e)
print(b.requires_grad)
try:
    b.requires_grad_(False)
except RuntimeError as e:
    print("RuntimeError:", e)
h = torch.tensor([1.0], dtype=torch.float64, requires_grad=True)
print(h, (i * h[0]).dtype, (i * h[0]).requires_grad)
