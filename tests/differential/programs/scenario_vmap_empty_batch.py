# vmap over a batch of size 0 returns PyTorch's empty results: every output
# with the batch dim (size 0) put at its out_dim, of the dtype the function
# gives, for mapped and unmapped inputs and outputs, nested vmaps, grad under
# vmap, in_dims other than 0, and a backward through an empty result (an
# empty gradient). Also the Jacobians of an empty input, and PyTorch's
# errors on what the function returns. (The mapped function is not printed
# from: PyTorch runs it once, minigrad twice for a batch of one or none.)
import warnings

import torch
from torch.func import grad, jacfwd, jacrev, vmap

# PyTorch's jacfwd warns of torch.jit.script inside its own code, once per op.
warnings.filterwarnings("ignore", category=DeprecationWarning)


def show(label, out):
    for o in out if isinstance(out, tuple) else (out,):
        print(label, tuple(o.shape), o.dtype, o.requires_grad)


def attempt(label, fn):
    try:
        show(label, fn())
    except Exception as e:
        print(label, type(e).__name__, e)


x = torch.zeros(0, 3)
w = torch.ones(3, 4)
attempt("sin", lambda: vmap(torch.sin)(x))
attempt("sum", lambda: vmap(lambda t: t.sum())(x))
attempt("sum(0)", lambda: vmap(lambda t: t.sum(0))(torch.zeros(0, 3, 2)))
attempt("out_dims=1", lambda: vmap(lambda t: t * 2, out_dims=1)(x))
attempt("out_dims=(1,)", lambda: vmap(lambda t: t.exp(), out_dims=(1,))(x))
attempt("in_dims=1", lambda: vmap(lambda t: t * 2, in_dims=1)(torch.zeros(3, 0)))
attempt("unmapped w", lambda: vmap(lambda t, m: t @ m, in_dims=(0, None))(x, w))
attempt("returns w", lambda: vmap(lambda t, m: m, in_dims=(0, None))(x, w))
attempt("outer", lambda: vmap(torch.outer, in_dims=(0, None))(x, torch.ones(2)))
attempt("pair", lambda: vmap(lambda t: (t, t.sum()))(x))
attempt("long", lambda: vmap(lambda t: t + 1)(torch.zeros(0, 2, dtype=torch.long)))
attempt("new tensor", lambda: vmap(lambda t: torch.ones(2))(x))
attempt("nested", lambda: vmap(vmap(lambda t: t * 2))(torch.zeros(2, 0, 3)))
attempt("nested outer", lambda: vmap(vmap(lambda t: t * 2))(torch.zeros(0, 2, 3)))
attempt("grad", lambda: vmap(grad(lambda t: (t**2).sum()))(x))
attempt("out_dims=3", lambda: vmap(lambda t: t.sin(), out_dims=3)(x))
attempt("int", lambda: vmap(lambda t: 3)(x))
attempt("out_dims=None", lambda: vmap(lambda t: t * 2, out_dims=None)(x))
attempt("sizes", lambda: vmap(lambda a, b: a + b)(x, torch.zeros(2, 3)))
attempt("jacrev", lambda: jacrev(lambda t: t * 2)(torch.zeros(0)))
attempt("jacfwd", lambda: jacfwd(lambda t: t * 2)(torch.zeros(0)))
attempt("jacfwd sum", lambda: jacfwd(lambda t: t.sum())(torch.zeros(0, 2)))

leaf = torch.zeros(0, 3, requires_grad=True)
out = vmap(lambda t: (t * 2).sin())(leaf)
print(out.shape, out.requires_grad)
out.sum().backward()
print(leaf.grad)
print(vmap(lambda t: t.sin(), out_dims=1)(leaf).shape)
