# Old lesson code wraps tensors in Variable (PyTorch before 0.4). It still runs:
# Variable(t, requires_grad=True) is a new leaf sharing t's data and version
# counter, every tensor is a Variable, and volatile only warns.
import torch
from torch.autograd import Variable

t = torch.ones(2)
v = Variable(t, requires_grad=True)
print(v is t, v.requires_grad, t.requires_grad, v.is_leaf, v)
print(
    isinstance(t, Variable), isinstance(3, Variable), issubclass(torch.Tensor, Variable)
)
w = Variable(t)
print(w.requires_grad, w is t, w.is_leaf)
z = Variable(v * 2)
print(z.grad_fn, z.requires_grad, z.is_leaf)
t.add_(1)
print(v, t._version, v._version)
x = Variable(torch.tensor([1.0, 2.0]), requires_grad=True)
loss = (x**2).sum()
loss.backward()
print(x.grad.data, x.data)
x.grad.data.zero_()
print(x.grad)
print(Variable())
print(Variable(torch.ones(1), volatile=True))
try:
    Variable([1.0, 2.0])
except TypeError as e:
    print("TypeError:", e)
