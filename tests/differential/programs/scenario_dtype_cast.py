# .double()/.to(float64) make a non-leaf ToCopyBackward0; same-dtype casts
# return self; the leaf's grad keeps the leaf's dtype.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
d = a.double()
print(d, d.is_leaf, type(d.grad_fn).__name__, d.dtype)
e = a.to(torch.float64)
print(type(e.grad_fn).__name__, e.is_leaf)
print(a.float() is a, a.to(torch.float32) is a)
print([(type(f).__name__ if f else None, nr) for f, nr in d.grad_fn.next_functions])
(d * d).sum().backward()
print(a.grad, a.grad.dtype)
back = d.float()
print(back.dtype, type(back.grad_fn).__name__)

x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
y = (x * 3).sum()
y.backward()
print(x.grad, y.dtype)

n = torch.tensor([1, 2]).double()
print(n, n.requires_grad)
m = torch.tensor([1, 2]) * a
print(m, m.dtype)
f = torch.tensor([1.0, 2.0]).to(torch.float64)
print(f.is_leaf, f.grad_fn)
