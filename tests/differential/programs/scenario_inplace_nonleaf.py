# In-place on a non-leaf rewires its grad_fn; gradients stay correct.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
x = a * 2
old = x.grad_fn
x.add_(1)
print(x, x._version, type(x.grad_fn).__name__)
print(x.grad_fn.next_functions[0][0] is old)
x.mul_(b)
print(x, x._version, type(x.grad_fn).__name__)
print([(type(f).__name__ if f else None, nr) for f, nr in x.grad_fn.next_functions])
x += 1
x -= a
print(x, x._version, type(x.grad_fn).__name__)
x.sum().backward()
print(a.grad, b.grad)

c = torch.tensor([1.0, 2.0], requires_grad=True)
y = c + 0
y.zero_()
print(y, type(y.grad_fn).__name__)
z = c + 0
z.fill_(3.0)
print(z, type(z.grad_fn).__name__)
(y.sum() + z.sum()).backward()
print(c.grad)
