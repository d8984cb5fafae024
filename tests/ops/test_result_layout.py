"""The memory layout of new results against PyTorch: ``stride()``,
``is_contiguous()`` and whether ``view(-1)`` is accepted.

A seeded sweep builds operands with size-1 and size-0 dims, permuted, sliced,
expanded, unsqueezed, or the keepdim result of a sum, and runs the same op on
them under PyTorch and minigrad: ops of one tensor (PyTorch's TensorIterator
copies a dense input's strides, size-1 dims included), ops of a tensor and a
number (a 0-d operand: the result's dims are ordered by the input's strides),
binary and ``where`` operands that broadcast (ordered by the inputs' strides,
the first deciding), in place and out of place, chains of two ops,
reductions with and without keepdim (row-major), copies that keep the
layout (``clone``, ``to``), and ``view`` / ``reshape`` into shapes with size-1
dims (PyTorch's ``computeStride``; a copy when no view exists).  A result with
no element compares only its shape and contiguity: minigrad gives those
row-major strides (numpy keeps no strides for them), where PyTorch's follow
its operands.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import pytest

import minigrad

torch = pytest.importorskip("torch")
# a std over one element warns in both libraries, which is not the question here
pytestmark = pytest.mark.filterwarnings("ignore:std():UserWarning")

Spec = tuple  # (base shape, [(transform, argument), ...])


def build(lib: Any, spec: Spec) -> Any:
    """The operand ``spec`` describes, made the same way in both libraries."""
    shape, transforms = spec
    n = math.prod(shape)
    t = lib.arange(n, dtype=lib.float64).reshape(shape) if n else lib.zeros(shape)
    for kind, arg in transforms:
        if kind == "permute":
            t = t.permute(*arg)
        elif kind == "slice":  # every other element along dim arg
            key = [slice(None)] * t.dim()
            key[arg] = slice(None, None, 2)
            t = t[tuple(key)]
        elif kind == "expand":
            t = t.expand(*arg)
        elif kind == "unsqueeze":
            t = t.unsqueeze(arg)
        else:  # a keepdim reduction's result
            t = t.sum(arg, keepdim=True)
    return t


def draw_shape(rng: random.Random) -> tuple:
    sizes = [0, 1, 1, 2, 3, 4] if rng.random() < 0.15 else [1, 1, 2, 3, 4]
    return tuple(rng.choice(sizes) for _ in range(rng.randint(1, 4)))


def draw_operand(rng: random.Random, shape: tuple) -> Spec:
    """An operand of ``shape`` with one of the layouts above."""
    nd, base, transforms = len(shape), list(shape), []
    r = rng.random()
    if nd == 0 or r < 0.25:
        pass
    elif r < 0.45 and nd > 1:
        perm = list(range(nd))
        rng.shuffle(perm)
        base = [shape[perm.index(i)] for i in range(nd)]
        transforms.append(("permute", tuple(perm)))
    elif r < 0.6:
        d = rng.randrange(nd)
        base[d] *= 2
        transforms.append(("slice", d))
    elif r < 0.75:
        wide = [i for i, n in enumerate(shape) if n != 1]
        if wide:
            base[rng.choice(wide)] = 1
            transforms.append(("expand", shape))
    elif r < 0.9:
        ones = [i for i, n in enumerate(shape) if n == 1]
        if ones:
            d = rng.choice(ones)
            base[d] = rng.choice([2, 3])
            transforms.append(("sumkeep", d))
    elif nd > 1 and shape[0] == 1:
        base = base[1:]
        transforms.append(("unsqueeze", 0))
    return tuple(base), transforms


def broadcastable(rng: random.Random, shape: tuple) -> tuple:
    """A shape that broadcasts with ``shape``: some dims 1, maybe fewer dims."""
    out = tuple(1 if rng.random() < 0.3 else n for n in shape)
    return out[rng.randint(0, len(out)) :] if rng.random() < 0.3 else out


ONE = {  # ops of one tensor (and of a tensor and a number)
    "exp": lambda T, x: x.exp(),
    "neg": lambda T, x: -x,
    "abs": lambda T, x: x.abs(),
    "relu": lambda T, x: x.relu(),
    "tanh": lambda T, x: x.tanh(),
    "sigmoid": lambda T, x: x.sigmoid(),
    "sqrt": lambda T, x: x.sqrt(),
    "clamp": lambda T, x: x.clamp(min=0.5),
    "pow": lambda T, x: x**2,
    "mul_number": lambda T, x: x * 2,
    "radd_number": lambda T, x: 1 + x,
    "gt_number": lambda T, x: x > 0,
    "clone": lambda T, x: x.clone(),
    "to_float32": lambda T, x: x.to(T.float32),
    "float": lambda T, x: x.float(),
}
TWO = {  # ops of two tensors that broadcast
    "add": lambda T, x, y: x + y,
    "mul": lambda T, x, y: x * y,
    "rsub": lambda T, x, y: y - x,
    "div": lambda T, x, y: x / (y + 1),
    "maximum": lambda T, x, y: T.maximum(x, y),
    "where": lambda T, x, y: T.where(x > 1, x, y),
    "pow": lambda T, x, y: x**y,
    "lt": lambda T, x, y: x < y,
    "add_": lambda T, x, y: (x * 1).add_(y),  # (y broadcasts to x)
}
REDUCE = {
    "sum": lambda x, dims, keep: x.sum(dims, keepdim=keep),
    "mean": lambda x, dims, keep: x.mean(dims, keepdim=keep),
    "amax": lambda x, dims, keep: x.amax(dims, keepdim=keep),
    "std": lambda x, dims, keep: x.std(dims, keepdim=keep),
    "logsumexp": lambda x, dims, keep: x.logsumexp(dims, keepdim=keep),
    "norm": lambda x, dims, keep: x.norm(dim=dims, keepdim=keep),
    "prod": lambda x, dims, keep: x.prod(dims[0], keepdim=keep),
    "argmax": lambda x, dims, keep: x.argmax(dims[0], keepdim=keep),
    "max": lambda x, dims, keep: x.max(dims[0], keepdim=keep)[0],
}


def draw_case(rng: random.Random) -> tuple[str, Callable[[Any], Any]]:
    shape = draw_shape(rng)
    a = draw_operand(rng, shape)
    kind = rng.choice(["one", "two", "two", "reduce", "reduce", "chain", "view"])
    if kind == "view":  # into a random factoring of its size, size-1 dims added
        numel, dims = math.prod(shape), []
        for p in (2, 3, 2, 3):
            if numel % p == 0 and rng.random() < 0.5:
                dims.append(p)
                numel //= p
        dims.append(numel)
        for _ in range(rng.randint(0, 2)):
            dims.insert(rng.randint(0, len(dims)), 1)
        rng.shuffle(dims)
        how = rng.choice(["view", "reshape"])
        return f"{how}{tuple(dims)} {a}", lambda T: getattr(build(T, a), how)(*dims)
    if kind == "one":
        name = rng.choice(sorted(ONE))
        return f"{name} {a}", lambda T: ONE[name](T, build(T, a))
    if kind in ("two", "chain"):
        b = draw_operand(rng, broadcastable(rng, shape))
        if rng.random() < 0.5:
            a, b = b, a
        name = rng.choice(sorted(TWO))
        if kind == "two":
            return f"{name} {a} {b}", lambda T: TWO[name](T, build(T, a), build(T, b))
        then = rng.choice(["exp", "neg", "mul_number", "radd_number", "clone", "relu"])
        return (
            f"{name} then {then} {a} {b}",
            lambda T: ONE[then](T, TWO[name](T, build(T, a), build(T, b))),
        )
    name = rng.choice(sorted(REDUCE))
    nd = len(shape)
    one_dim = name in ("argmax", "max", "prod")
    dims = tuple(sorted(rng.sample(range(nd), 1 if one_dim else rng.randint(1, nd))))
    keep = rng.random() < 0.6
    return (
        f"{name} dims={dims} keepdim={keep} {a}",
        lambda T: REDUCE[name](build(T, a), dims, keep),
    )


def layout(t: Any) -> tuple:
    try:
        t.view(-1)
        flat = True
    except RuntimeError:
        flat = False
    strides = t.stride() if t.numel() else "(no element)"
    return tuple(t.shape), strides, t.is_contiguous(), flat


CASES = 1500
SEEDS = range(6)  # each seed draws CASES // len(SEEDS) cases


@pytest.mark.parametrize("seed", SEEDS)
def test_results_are_laid_out_as_pytorchs(seed: int) -> None:
    rng = random.Random(seed)
    compared, wrong = 0, []
    for _ in range(CASES // len(SEEDS)):
        name, make = draw_case(rng)
        try:
            expected = layout(make(torch))
        except (RuntimeError, IndexError):  # (PyTorch refuses it: no layout)
            continue
        got = layout(make(minigrad))
        compared += 1
        if got != expected:
            wrong.append(f"{name}: PyTorch {expected}, minigrad {got}")
    assert compared > CASES // len(SEEDS) * 0.8
    assert not wrong, "\n".join(wrong[:20])


def test_the_sweep_reaches_every_layout_rule() -> None:
    """The drawn cases include each kind of operand the rules tell apart."""
    names = ""
    for seed in SEEDS:
        rng = random.Random(seed)
        names += " ".join(draw_case(rng)[0] for _ in range(CASES // len(SEEDS)))
    needles = ("permute", "slice", "expand", "sumkeep", "unsqueeze", "then", "view(")
    for needle in (*needles, "reshape("):
        assert needle in names
    assert [op for op in [*ONE, *TWO, *REDUCE] if f"{op} " not in names] == []


LEAVES = {  # leaves of other layouts than row-major, made the same way in both
    "transposed": lambda T: T.arange(12.0).reshape(3, 4).t(),
    "permuted": lambda T: T.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1),
    "channels_last": lambda T: T.arange(120.0).reshape(2, 4, 5, 3).permute(0, 3, 1, 2),
    "size1": lambda T: T.arange(12.0).reshape(3, 1, 4).permute(2, 1, 0),
    "sliced": lambda T: T.arange(24.0).reshape(3, 8)[:, ::2],  # (not dense)
    "expanded": lambda T: T.arange(3.0).reshape(3, 1).expand(3, 4),
}
GRADS = {  # the gradient reaching the leaf: row-major, the leaf's layout, other
    "x * c": lambda T, x: x * T.ones(x.shape),
    "c * x": lambda T, x: T.ones(x.shape) * x,
    "x.exp()": lambda T, x: (x / 100).exp(),
    "x.sign()": lambda T, x: x.sign(),  # (a zero gradient)
    "x.floor()": lambda T, x: x.floor(),
    "x.contiguous()": lambda T, x: x.contiguous() * 2,
}


@pytest.mark.parametrize("graph", [False, True])
@pytest.mark.parametrize("leaf", sorted(LEAVES))
def test_a_leafs_first_grad_keeps_its_layout(leaf: str, graph: bool) -> None:
    """AccumulateGrad's layout contract: the first ``.grad`` of a dense leaf has
    the leaf's strides (the gradient is taken as it is when it has them), of
    another leaf row-major; with ``create_graph`` too (a copy into a buffer
    laid out like the leaf)."""
    for name, op in GRADS.items():
        got, values = [], []
        for T in (torch, minigrad):
            x = LEAVES[leaf](T).detach().requires_grad_(True)
            op(T, x).sum().backward(create_graph=graph)
            got.append((x.grad.stride(), x.grad.is_contiguous()))
            values.append(x.grad.detach().numpy())
        assert got[1] == got[0], f"{name}: PyTorch {got[0]}, minigrad {got[1]}"
        assert values[1] == pytest.approx(values[0], rel=1e-6), name
