# Top-level in-place functions (torch.sin_(x), ...), sum_to_size, and a
# gradient given as a list of numbers (backward([1.0, 1.0])), refused as
# PyTorch refuses it.
import numpy as np
import torch


def step(name, f):
    try:
        y = f()
        print(name, y, y._version, type(y.grad_fn).__name__)
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")


w = torch.tensor([0.25, -0.5, 0.75], requires_grad=True)
for name in (
    "abs_ acos_ arccos_ arcsin_ arctan_ asin_ atan_ ceil_ cos_ "
    "cosh_ erf_ exp2_ exp_ expm1_ fix_ floor_ frac_ neg_ negative_ relu_ round_ "
    "sigmoid_ sin_ sinh_ square_ tan_ tanh_ trunc_ zero_ selu_ celu_"
).split():
    step(name, lambda name=name: getattr(torch, name)(w * 1))
pos = torch.tensor([0.5, 2.0, 4.0], requires_grad=True)
for name in "log10_ log1p_ log2_ log_ reciprocal_ rsqrt_ sqrt_".split():
    step(name, lambda name=name: getattr(torch, name)(pos * 4))
step("clip_", lambda: torch.clip_(w * 1, -0.3, 0.3))
step("fill_", lambda: torch.fill_(w * 1, 2.0))
step("celu_ alpha", lambda: torch.celu_(w * 1, 2.0))
step("dropout_ p=0", lambda: torch.dropout_(w * 1, 0.0, True))
step("dropout_ eval", lambda: torch.dropout_(w * 1, 0.5, False))
y = w * 2
torch.sin_(y).sum().backward()
print(w.grad)
step("leaf", lambda: torch.sin_(w))
step("list", lambda: torch.sin_([1.0]))
d = w * 1
print(torch.detach_(d) is d, d.requires_grad, d.grad_fn)

x = torch.arange(6.0).reshape(2, 3).requires_grad_()
for size in [(1, 3), ((1, 3),), (3,), (2, 1), (1,), (torch.Size([1, 1]),), ([1, 3],)]:
    step(f"sum_to_size{size}", lambda size=size: x.sum_to_size(*size))
s = x.sum_to_size(2, 1)
print(s.grad_fn._saved_dim, s.grad_fn._saved_keepdim, s.grad_fn._saved_self_sym_sizes)
print(x.sum_to_size(3).grad_fn.next_functions[0][0].name(), x.sum_to_size(2, 3) is x)
s.sum().backward()
print(x.grad, torch.zeros(2, 1).sum_to_size(1, 1))
for size in [(4,), (1, 2, 3), (2,), (1.5,), ()]:
    step(f"sum_to_size{size}", lambda size=size: x.sum_to_size(*size))

v = torch.ones(2, requires_grad=True)
for name, f in [
    ("list", lambda: (v * 2).backward([1.0, 1.0])),
    ("gradient=list", lambda: (v * 2).backward(gradient=[1.0, 1.0])),
    ("tuple", lambda: (v * 2).backward((1.0, 1.0))),
    ("number", lambda: (v * 2).sum().backward(1.0)),
    ("str", lambda: (v * 2).backward("a")),
    ("numpy", lambda: (v * 2).backward(np.ones(2))),
    ("autograd.backward", lambda: torch.autograd.backward(v * 2, [1.0, 1.0])),
    ("grad", lambda: torch.autograd.grad(v * 2, v, [1.0, 1.0])),
    ("nested list", lambda: torch.autograd.backward([v * 2], [[1.0, 1.0]])),
    ("None first", lambda: torch.autograd.grad([v * 2], [v], [None, 1.0])),
    ("extra dropped", lambda: (v * 2).backward([torch.ones(2), 1.0])),
]:
    try:
        f()
        print(name, "no error", v.grad)
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}", v.grad)
