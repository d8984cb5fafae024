# autograd.grad(..., is_grads_batched=True): the first dim of each grad_output
# is a batch, one gradient per element (the Jacobian tutorials' rows of the
# identity); its errors; allow_unused and materialize_grads; create_graph (the
# batched gradient is differentiable); and the functional Jacobians that use it
# (vectorize=True) or forward mode (strategy="forward-mode"), with their errors.
import warnings

import torch
from torch.autograd.functional import hessian, jacobian

# (PyTorch's forward-mode Jacobian loads its vmap decompositions with jit.script)
warnings.filterwarnings("ignore", "`torch.jit.script` is deprecated")


def attempt(name, f):
    try:
        print(name, "->", f())
    except (
        RuntimeError,
        ValueError,
        IndexError,
        NotImplementedError,
        AssertionError,
    ) as e:
        print(name, type(e).__name__ + ":", e)


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], requires_grad=True)
unused = torch.ones(3, requires_grad=True)
y = (w @ x).tanh()
eye = torch.eye(2)


def grad(*a, **k):
    return torch.autograd.grad(*a, retain_graph=True, is_grads_batched=True, **k)


attempt("rows of the Jacobian", lambda: grad(y, (w, x), eye))
attempt("two outputs", lambda: grad([y, x.sum()], x, [eye, torch.ones(2)]))
attempt("a scalar output", lambda: grad(x.pow(2).sum(), x, torch.arange(4.0)))
attempt("float64 rows", lambda: grad(y, x, eye.double()))
attempt("unused", lambda: grad(y, [x, unused], eye))
attempt("allow_unused", lambda: grad(y, [x, unused], eye, allow_unused=True))
attempt("materialize", lambda: grad(y, [x, unused], eye, materialize_grads=True))
attempt("shape", lambda: grad(y, x, torch.ones(2, 3)))
attempt("0-d grad", lambda: grad(x.sum(), x, torch.ones(())))
attempt("implicit", lambda: grad(y, x))
attempt("implicit scalar", lambda: grad(x.sum(), x))
attempt("sizes", lambda: grad([y, x], x, [eye, torch.eye(3)]))

# create_graph: each row is differentiable (a Hessian row by row)
(g,) = torch.autograd.grad(x.pow(3).sum(), x, create_graph=True)
(h,) = torch.autograd.grad(g, x, torch.eye(3), create_graph=True, is_grads_batched=True)
print(h.detach(), h.requires_grad)  # (its node: the last op of PyTorch's vmapped pass)
(t,) = torch.autograd.grad(h.sum(), x)
print(t)
v = torch.ones(2, 2, requires_grad=True)
(gv,) = torch.autograd.grad(y, x, v, retain_graph=True, is_grads_batched=True)
print(gv, gv.requires_grad)
attempt(
    "freed",
    lambda: torch.autograd.grad(y, x, eye, is_grads_batched=True) and grad(y, x, eye),
)


def f(a, b):
    return a.sin() * b.sum(), (a * b).sum()


a, b = torch.tensor([0.5, -1.0, 2.0]), torch.tensor([1.0, 2.0, 3.0])
for vec in (False, True):
    print("vectorize", vec)
    print(jacobian(lambda t: t.exp() * t.sum(), a, vectorize=vec))
    print(jacobian(f, (a, b), vectorize=vec))
    print(jacobian(lambda s, t: s * 2, (a, b), vectorize=vec))
    j = jacobian(lambda t: t.sin(), a, vectorize=vec, create_graph=True)
    print(j, j.requires_grad)
    print(hessian(lambda t: t.pow(3).sum() * t.prod(), a, vectorize=vec))
print(jacobian(f, (a, b), vectorize=True, strategy="forward-mode"))
print(jacobian(lambda t: t.exp() * t.sum(), a, vectorize=True, strategy="forward-mode"))
print(
    hessian(
        lambda t: t.pow(3).sum(),
        a,
        vectorize=True,
        outer_jacobian_strategy="forward-mode",
    ).detach()
)
attempt("forward, not vectorized", lambda: jacobian(f, (a, b), strategy="forward-mode"))
attempt(
    "forward, create_graph",
    lambda: jacobian(f, (a, b), create_graph=True, strategy="forward-mode"),
)
attempt(
    "forward, strict",
    lambda: jacobian(f, (a, b), strict=True, vectorize=True, strategy="forward-mode"),
)
attempt("vectorized, strict", lambda: jacobian(f, (a, b), strict=True, vectorize=True))
attempt("strategy", lambda: jacobian(f, (a, b), strategy="sideways"))
attempt(
    "hessian strategy",
    lambda: hessian(lambda t: t.sum(), a, outer_jacobian_strategy="x"),
)
attempt(
    "hessian forward",
    lambda: hessian(lambda t: t.sum(), a, outer_jacobian_strategy="forward-mode"),
)
