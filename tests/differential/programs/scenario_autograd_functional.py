# torch.autograd.functional: Jacobians, Hessians and vector products.
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def f(x):
    return x**2 * 3


x = torch.tensor([1.0, 2.0])
print(jacobian(f, x))
print(jacobian(lambda a, b: a * b, (x, torch.tensor([3.0, 4.0]))))
print(jacobian(lambda x: x.sum(), x), jacobian(lambda x: x * 2, torch.tensor(3.0)))
print(jacobian(lambda x: (x, x * 2), x))
print(jacobian(lambda m: m @ m, torch.tensor([[1.0, 2.0], [3.0, 4.0]])).shape)
print(hessian(lambda x: (x**3).sum(), x))
print(hessian(lambda a, b: (a * b * b).sum(), (x, torch.tensor([3.0, 4.0]))))
print(vjp(f, x, torch.ones(2)))
print(vjp(lambda x: (x**2).sum(), x))
print(jvp(f, x, torch.ones(2)))
print(hvp(lambda x: (x**3).sum(), x, torch.ones(2)))
print(vhp(lambda x: (x**3).sum(), x, torch.tensor([1.0, 0.0])))
print(x.requires_grad, x.grad)
y = torch.tensor([0.5, -1.0], requires_grad=True)
j = jacobian(lambda t: t.tanh(), y, create_graph=True)
print(j.requires_grad, j.grad_fn is not None)
try:
    vjp(f, x)
except RuntimeError as e:
    print("RuntimeError:", e)
