# torch.func transforms: grad (argnums, has_aux, nesting, an input that
# requires grad), grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap.
import warnings

import torch
from torch.func import grad, grad_and_value, hessian, jacfwd, jacrev, jvp, vjp, vmap

warnings.filterwarnings("ignore", category=DeprecationWarning)
x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)


def f(v):
    return (v.sin() * v).sum()


g = grad(f)(x)
print(g, g.grad_fn, g.requires_grad)
print(
    grad(lambda t: t.sin())(torch.tensor(0.5)),
    grad(grad(lambda t: t**3))(torch.tensor(2.0)),
)
print(grad_and_value(f)(x))
print(grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(x, x * 2))
print(grad(lambda a: ((a**2).sum(), a.mean()), has_aux=True)(x))
try:
    grad(lambda t: t.sin())(x)
except RuntimeError as e:
    print("RuntimeError:", e)
out, fn = vjp(lambda t: t.sin(), x)
print(out, fn(torch.ones(3, dtype=torch.float64)))
print(jvp(lambda t: t.sin(), (x,), (torch.ones(3, dtype=torch.float64),)))
print(jacrev(lambda t: t.sin() * t[0])(x))
print(jacfwd(lambda t: t.sin() * t[0])(x))
print(torch.allclose(hessian(f)(x), jacrev(jacrev(f))(x)), hessian(f)(x).diagonal())
print(vmap(lambda v: v.dot(v))(torch.arange(6.0).view(2, 3)))
print(
    vmap(torch.mul, in_dims=(0, None))(torch.arange(6.0).view(2, 3), torch.tensor(2.0))
)
xr = x.clone().requires_grad_()
gg = grad(f)(xr)
print(gg.grad_fn is not None, gg.requires_grad)
gg.sum().backward()
print(xr.grad)
print(vmap(grad(lambda v: (v**2).sum()))(torch.arange(6.0).view(2, 3)))
print(jacrev(lambda a, b: a * b, argnums=(0, 1))(x, x * 2)[1])
print(vmap(lambda a: (a.sum(), a * 2))(torch.ones(2, 3)))
