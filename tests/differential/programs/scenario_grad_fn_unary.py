# Node names, next_functions and grads of unary ops.
import torch

a = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
for name, fn in [
    ("exp", torch.exp),
    ("log", torch.log),
    ("tanh", torch.tanh),
    ("sigmoid", torch.sigmoid),
    ("relu", torch.relu),
    ("neg", torch.neg),
]:
    y = fn(a)
    nf = [(type(f).__name__ if f else None, nr) for f, nr in y.grad_fn.next_functions]
    print(name, type(y.grad_fn).__name__, y.grad_fn.name(), nf)
    a.grad = None
    y.sum().backward()
    print(a.grad)
print(type(a.exp().grad_fn).__name__, type((-a).grad_fn).__name__)
print(type(a.sigmoid().grad_fn).__name__, type(a.relu().grad_fn).__name__)
print(type(a.log().grad_fn).__name__, type(a.tanh().grad_fn).__name__)
print(torch.tensor([-1.0, 0.0, 2.0]).relu())
