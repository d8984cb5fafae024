# Modifying a saved tensor in place makes backward fail (exact message).
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
s = a.sigmoid()
y = s.sum() * 1
s.mul_(2)  # SigmoidBackward0 saved its result s
print(s._version)
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)

e = a.exp()
z = e * 1
e.add_(1)
try:
    z.sum().backward()
except RuntimeError as err:
    print("RuntimeError:", err)

x = torch.ones(3, 4)
w = torch.ones(3, 4, requires_grad=True)
p = w * x  # saves x (a plain tensor: no grad_fn clause in the message)
x.add_(1)
try:
    p.sum().backward()
except RuntimeError as err:
    print("RuntimeError:", err)

m = a * 2
q = m * m
m.add_(1)
try:
    q.sum().backward()
except RuntimeError as err:
    print("RuntimeError:", err)
print(a.grad)
