# Seed 4: y2 computed under no_grad is an untracked leaf; y3.backward()
# ignores it, and y2.backward() raises.
import torch

x = torch.tensor(1.0, requires_grad=True)
y1 = x**2
# the block below is not tracked
with torch.no_grad():
    y2 = x**3

y3 = y1 + y2
y3.backward()
print(x, x.requires_grad, x.is_leaf)
print(y1, y1.requires_grad, y1.is_leaf)
print(y2, y2.requires_grad, y2.is_leaf)
print(y3, y3.requires_grad, y3.is_leaf)
print(x.grad)
print(y2.grad)

try:
    y2.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
