# Seed 0, example 3: e = (a*b)*d; both grad_fns are MulBackward0, the chain rule
# gives a.grad = 12, b.grad = 8; the intermediate c keeps no grad.
import torch

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a * b
d = torch.tensor(4.0, requires_grad=True)
e = c * d
e.backward()
print(e.grad_fn, c.grad_fn)
print([(type(f).__name__ if f else None, nr) for f, nr in e.grad_fn.next_functions])
print(e.grad_fn.next_functions[0][0] is c.grad_fn)
print(c.is_leaf)
print(c.grad)
print(a.grad)
print(b.grad)
print(d.grad)
