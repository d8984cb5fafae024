# func.vmap's inputs and outputs as PyTorch takes them: tuples, lists, dicts
# and namedtuples of tensors (pytrees), in_dims shaped like the arguments,
# keyword arguments passed unmapped, out_dims per output; and PyTorch's
# errors for in_dims, out_dims, batch sizes and non-tensor inputs/outputs.
import collections
import functools

import torch
from torch.func import vmap

x = torch.arange(6.0).reshape(3, 2)
y = torch.arange(4.0).reshape(2, 2)
Pair = collections.namedtuple("Pair", "left right")


def attempt(name, f):
    try:
        print(name, "->", f())
    except (ValueError, RuntimeError, IndexError) as e:
        print(name, type(e).__name__ + ":", e)


def scale(t, factor=1.0, *, shift):
    return t * factor + shift


attempt("tuple input", lambda: vmap(lambda p: p[0] * p[1])((x, x + 1)))
attempt(
    "dict in_dims",
    lambda: vmap(lambda d: d["a"] @ d["b"], in_dims=({"a": 0, "b": None},))(
        {"a": x, "b": y}
    ),
)
attempt(
    "list inside",
    lambda: vmap(lambda p, q: p[0] + p[1] * q, in_dims=([0, 1], None))([x, x.t()], 2.0),
)
attempt("namedtuple", lambda: vmap(lambda p: p.left - p.right)(Pair(x, x * x)))
attempt("kwargs unmapped", lambda: vmap(scale)(x, shift=torch.ones(2)))
attempt("kwargs default", lambda: vmap(scale, in_dims=(0, None))(x, 3.0, shift=1.0))
attempt(
    "dict output",
    lambda: vmap(
        lambda t: {"a": t, "b": [t * 2, t.sum()]}, out_dims={"a": 1, "b": [0, 0]}
    )(x),
)
attempt("tuple output", lambda: vmap(lambda t: (t, t.sum()), out_dims=(1, 0))(x))
attempt("out_dims -1", lambda: vmap(lambda t: t * 2, in_dims=1, out_dims=-1)(x))
attempt("unmapped output", lambda: vmap(lambda t: (t, y), out_dims=(0, None))(x))
attempt("expanded output", lambda: vmap(lambda t: y[0])(x))
attempt("number out None", lambda: vmap(lambda t: (t, 3), out_dims=(0, None))(x))
attempt(
    "nested vmap",
    lambda: vmap(vmap(lambda a, b: a * b, in_dims=(0, None)), in_dims=(1, None))(
        x, torch.tensor(2.0)
    ),
)
attempt("partial", lambda: vmap(functools.partial(scale, shift=0.5))(x))

attempt("sizes", lambda: vmap(lambda a, b: a + b)(x, y))
attempt("sizes in a dict", lambda: vmap(lambda d: d["a"])({"a": x, "b": y}))
attempt("in_dims too short", lambda: vmap(lambda a, b: a + b, in_dims=(0,))(x, x))
attempt("in_dims a list", lambda: vmap(lambda a, b: a + b, in_dims=[0, None])(x, y[0]))
attempt("in_dims None", lambda: vmap(lambda a: a, in_dims=None)(x))
attempt("in_dims a string", lambda: vmap(lambda a: a, in_dims="0")(x))
attempt("in_dim a float", lambda: vmap(lambda a: a, in_dims=(0.5,))(x))
attempt("in_dim too big", lambda: vmap(lambda a: a, in_dims=2)(x))
attempt("in_dim too small", lambda: vmap(lambda a: a, in_dims=-3)(x))
attempt("0-d input", lambda: vmap(lambda a: a)(torch.tensor(3.0)))
attempt("a number", lambda: vmap(lambda a, n: a * n)(x, 2))
attempt("a string", lambda: vmap(lambda a, s: a, in_dims=(0, 0))(x, "s"))
attempt(
    "dict keys", lambda: vmap(lambda d: d["a"], in_dims=({"a": 0},))({"a": x, "b": y})
)
attempt("nested structure", lambda: vmap(lambda p: p[0], in_dims=((0, 0, 0),))((x, x)))
attempt("all None", lambda: vmap(lambda a, b: a * b, in_dims=(None, None))(x, x))
attempt("no inputs", lambda: vmap(lambda: x)())
attempt("out_dims structure", lambda: vmap(lambda a: a, out_dims=(0, 1))(x))
attempt("out_dims a string", lambda: vmap(lambda a: a, out_dims="0")(x))
attempt("out_dim too big", lambda: vmap(lambda a: a, out_dims=2)(x))
attempt("batched with None", lambda: vmap(lambda a: a.sum(), out_dims=None)(x))
attempt("a float output", lambda: vmap(lambda a: 3.0)(x))
attempt("None output", lambda: vmap(lambda a: None)(x))
attempt("randomness", lambda: vmap(lambda a: a, randomness="sometimes"))
attempt("chunk_size", lambda: vmap(lambda a: a, chunk_size=0))
attempt("chunk_size 2", lambda: vmap(lambda a: a * 2, chunk_size=2)(x))
print(vmap(scale).__name__)

# the batch itself comes back when the function returns its input
w = x.clone().requires_grad_()
print(vmap(lambda a: a)(w) is w, type(vmap(lambda a: a, in_dims=1)(w).grad_fn).__name__)
out = vmap(lambda d: (d["w"] * d["v"]).sum(), in_dims=({"w": 0, "v": None},))(
    {"w": w, "v": torch.tensor([1.0, -1.0])}
)
out.sum().backward()
print(out.detach(), w.grad)
