# Writing into a view of a non-leaf: CopySlices on the base, shared versions.
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = a * 2
y[0] = 5.0
print(y, y._version)
print(type(y.grad_fn).__name__, y.grad_fn.name())
print([(type(f).__name__ if f else None, nr) for f, nr in y.grad_fn.next_functions])
y.sum().backward()
print(a.grad)

a.grad = None
y = a * 2
v = y[1:]
print(type(v.grad_fn).__name__, v._version, y._version)
v.mul_(3)
print(y, v, y._version, v._version)
print(type(y.grad_fn).__name__, type(v.grad_fn).__name__)
print(v.grad_fn.next_functions[0][0] is y.grad_fn)
y.sum().backward()
print(a.grad)

z = torch.zeros(3)
z[0] = a[0] * 2
print(z, z.is_leaf, z.requires_grad, type(z.grad_fn).__name__)
a.grad = None
z.sum().backward()
print(a.grad)

w = torch.zeros(3)
w.copy_(a)
print(w, type(w.grad_fn).__name__, w.grad_fn.name())
print([(type(f).__name__ if f else None, nr) for f, nr in w.grad_fn.next_functions])
