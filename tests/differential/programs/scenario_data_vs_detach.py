# .data and detach(): both share storage; detach() shares the version
# counter, .data gets a fresh one; detach_() turns a non-leaf into a leaf.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
d = a.detach()
print(d, d.requires_grad, d.is_leaf, d.grad_fn)
d.add_(1)
print(a, a._version, d._version)

t = a.data
print(t, t.requires_grad, t.is_leaf, t._version)
t.mul_(2)
print(a, a._version, t._version)

b = torch.tensor([1.0, 2.0], requires_grad=True)
y = b.exp()
yd = y.detach()
yd.zero_()
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

c = torch.tensor([1.0, 2.0], requires_grad=True)
y = c.exp()
y.data.zero_()
y.sum().backward()
print(c.grad)

e = torch.tensor([3.0], requires_grad=True)
f = e * 2
r = f.detach_()
print(r is f, f, f.requires_grad, f.is_leaf, f.grad_fn)
