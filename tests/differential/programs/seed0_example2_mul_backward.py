# Seed 0, example 2: c = a*b with only a requiring grad; next_functions holds
# AccumulateGrad for a and None for b, and a.grad becomes 3.
import torch

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0)
c = a * b
print(c)
print(c.requires_grad, c.is_leaf)
print(c.grad_fn)
print([(type(f).__name__ if f else None, nr) for f, nr in c.grad_fn.next_functions])
print(c.grad_fn.next_functions[0][0].variable is a)
c.backward()
print(a.grad)
print(b.grad)
