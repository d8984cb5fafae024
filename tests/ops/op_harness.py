"""Shared machinery of the per-op tests: run one expression on minigrad and on
PyTorch with the same inputs and compare everything autograd exposes.

An expression is ``fn(lib, *tensors)`` where ``lib`` is ``minigrad`` or ``torch``,
so one lambda describes the op for both libraries.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import strategies as st

import minigrad

torch = pytest.importorskip("torch")

Expr = Callable[..., Any]

TOL = {np.float64: 1e-10, np.float32: 1e-5}


# ------------------------------------------------------------------ strategies
def floats(lo: float, hi: float) -> st.SearchStrategy:
    """Finite float64 elements in ``[lo, hi]``."""
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False, width=64)


def away_from_zero(lo: float = 0.2, hi: float = 2.0) -> st.SearchStrategy:
    """Elements with ``lo <= |x| <= hi``: keeps abs/sign-like ops differentiable."""
    return st.tuples(floats(lo, hi), st.booleans()).map(
        lambda p: -p[0] if p[1] else p[0]
    )


small_shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3)


def arrays(shape: Any, elements: st.SearchStrategy | None = None) -> Any:
    if elements is None:
        elements = floats(-2, 2)
    return hnp.arrays(np.float64, shape, elements=elements)


broadcast_pairs = hnp.mutually_broadcastable_shapes(
    num_shapes=2, min_dims=0, max_dims=3, min_side=1, max_side=3
)


# ------------------------------------------------------------------- gradcheck
def leaves(*arrs: np.ndarray) -> list:
    return [
        minigrad.tensor(a, dtype=minigrad.float64, requires_grad=True) for a in arrs
    ]


def check_gradcheck(fn: Expr, *arrs: np.ndarray) -> None:
    """``minigrad.autograd.gradcheck`` of ``fn(minigrad, *inputs)`` in float64."""
    xs = leaves(*arrs)
    assert minigrad.autograd.gradcheck(lambda *t: fn(minigrad, *t), tuple(xs))


# ------------------------------------------------------------- differential
def make(lib: Any, a: np.ndarray, dtype: Any, requires_grad: bool) -> Any:
    t = lib.tensor(np.array(a, dtype=dtype))
    return t.requires_grad_() if requires_grad else t


def describe(node: Any, inputs: Sequence[Any], memo: dict | None = None) -> Any:
    """A library-neutral picture of the graph below ``node``: names, output_nr
    of every edge, and for AccumulateGrad which input it feeds."""
    if node is None:
        return None
    memo = {} if memo is None else memo
    if id(node) in memo:
        return ("seen", memo[id(node)])
    memo[id(node)] = len(memo)
    name = type(node).__name__
    if name == "AccumulateGrad":
        idx = [i for i, x in enumerate(inputs) if x is node.variable]
        return (name, idx)
    edges = tuple((describe(n, inputs, memo), nr) for n, nr in node.next_functions)
    return (name, edges)


def graph_nodes(node: Any) -> list:
    """Every node reachable from ``node`` (in a fixed order), AccumulateGrad aside."""
    out, stack, seen = [], [node], set()
    while stack:
        n = stack.pop()
        if n is None or id(n) in seen or type(n).__name__ == "AccumulateGrad":
            continue
        seen.add(id(n))
        out.append(n)
        stack.extend(reversed([m for m, _ in n.next_functions]))
    return out


_INTERNAL: set[str] = set()  # no internal attribute may look like a saved slot


def saved_names(node: Any) -> set[str]:
    return {n for n in dir(node) if n.startswith("_saved_")} - _INTERNAL


def _numpy(t: Any) -> np.ndarray:
    if getattr(t, "_is_zerotensor", lambda: False)():  # PyTorch's symbolic zeros
        return np.zeros(tuple(t.shape))
    return t.detach().numpy() if hasattr(t, "detach") else np.asarray(t)


def _same_saved(mine: Any, theirs: Any, inputs: tuple, where: str) -> None:
    """Equal non-tensor values; tensors equal in value and, when PyTorch saved an
    input object itself, minigrad saved that same input."""
    if isinstance(theirs, (tuple, list)) and any(
        isinstance(x, torch.Tensor) or x is None for x in theirs
    ):
        assert isinstance(mine, (tuple, list)) and len(mine) == len(theirs), where
        for m, t in zip(mine, theirs):
            _same_saved(m, t, inputs, where)
        return
    if isinstance(theirs, torch.Tensor):
        assert isinstance(mine, minigrad.Tensor), (where, mine)
        np.testing.assert_allclose(  # (float64 rounding near zero: 1e-12)
            _numpy(mine), _numpy(theirs), rtol=1e-6, atol=1e-12, err_msg=where
        )
        th_in, mg_in = inputs
        for t_in, m_in in zip(th_in, mg_in):
            if theirs is t_in:
                assert mine is m_in, f"{where}: PyTorch saves the input object itself"
        return
    assert mine == theirs, f"{where}: minigrad {mine!r} != torch {theirs!r}"


def compare_graphs(y_mg: Any, y_th: Any, xs_mg: list, xs_th: list) -> None:
    """Node names, next_functions structure and ``_saved_*`` of the whole graph."""
    assert describe(y_mg.grad_fn, xs_mg) == describe(y_th.grad_fn, xs_th)
    for n_mg, n_th in zip(graph_nodes(y_mg.grad_fn), graph_nodes(y_th.grad_fn)):
        name = type(n_th).__name__
        assert saved_names(n_mg) == saved_names(n_th), (
            name,
            saved_names(n_mg),
            saved_names(n_th),
        )
        for attr in sorted(saved_names(n_th)):
            _same_saved(
                getattr(n_mg, attr),
                getattr(n_th, attr),
                (xs_th, xs_mg),
                f"{name}.{attr}",
            )


def differential(
    fn: Expr,
    arrs: Sequence[Any],
    dtype: Any = np.float64,
    requires_grad: Sequence[bool] | None = None,
    seed: int = 0,
    check_graph: bool = True,
) -> tuple:
    """Run ``fn`` on both libraries and compare values, graph, saved attributes
    and the gradients of every input for a random upstream gradient."""
    rg = [True] * len(arrs) if requires_grad is None else list(requires_grad)
    xs_mg = [make(minigrad, a, dtype, r) for a, r in zip(arrs, rg)]
    xs_th = [make(torch, a, dtype, r) for a, r in zip(arrs, rg)]
    y_mg, y_th = fn(minigrad, *xs_mg), fn(torch, *xs_th)
    tol = TOL[dtype]
    assert tuple(y_mg.shape) == tuple(y_th.shape)
    assert str(y_mg.dtype).replace("minigrad", "torch") == str(y_th.dtype)
    np.testing.assert_allclose(_numpy(y_mg), _numpy(y_th), rtol=tol, atol=tol)
    assert y_mg.is_leaf == y_th.is_leaf
    assert y_mg.requires_grad == y_th.requires_grad
    if y_th.grad_fn is None:
        assert y_mg.grad_fn is None
        return y_mg, y_th
    if check_graph:
        compare_graphs(y_mg, y_th, xs_mg, xs_th)
    # upstream gradient in the output's dtype (an op may change the dtype)
    g = np.random.default_rng(seed).standard_normal(tuple(y_th.shape))
    g = g.astype(_numpy(y_th).dtype)
    y_mg.backward(minigrad.tensor(g))
    y_th.backward(torch.tensor(g))
    for i, (x_mg, x_th) in enumerate(zip(xs_mg, xs_th)):
        if x_th.grad is None:
            assert x_mg.grad is None, f"input {i}"
            continue
        assert x_mg.grad is not None, f"input {i} got no grad"
        assert x_mg.grad.dtype is x_mg.dtype
        np.testing.assert_allclose(
            _numpy(x_mg.grad), _numpy(x_th.grad), rtol=tol, atol=tol, err_msg=f"{i}"
        )
    return y_mg, y_th


def second_order(fn: Expr, arrs: Sequence[np.ndarray], seed: int = 1) -> None:
    """``grad(create_graph=True)`` then grad again, values compared with PyTorch."""
    rng = np.random.default_rng(seed)
    results = []
    for lib in (minigrad, torch):
        rng = np.random.default_rng(seed)
        xs = [make(lib, a, np.float64, True) for a in arrs]
        y = fn(lib, *xs)
        v = lib.tensor(rng.standard_normal(tuple(y.shape)))
        g1 = lib.autograd.grad(y, xs, v, create_graph=True)
        total = sum(
            ((g * lib.tensor(rng.standard_normal(tuple(g.shape)))).sum()) for g in g1
        )
        if not total.requires_grad:  # e.g. a linear op: second derivative is zero
            results.append([np.zeros(a.shape) for a in arrs])
            continue
        g2 = lib.autograd.grad(total, xs, allow_unused=True)
        results.append(
            [np.zeros(a.shape) if g is None else _numpy(g) for a, g in zip(arrs, g2)]
        )
    for m, t in zip(*results):
        np.testing.assert_allclose(m, t, rtol=1e-9, atol=1e-9)


def same_error(fn: Expr, *arrs: Any, exc: type = Exception) -> str:
    """Both libraries raise the same exception type with the same text (with
    ``minigrad`` for ``torch``); returns the message."""
    errors = []
    for lib in (minigrad, torch):
        xs = [make(lib, a, np.float32, False) for a in arrs]
        with pytest.raises(exc) as info:
            fn(lib, *xs)
        errors.append(info.value)
    mine, theirs = errors
    expected = str(theirs).replace("torch", "minigrad")
    assert str(mine) == expected, f"\n minigrad: {mine}\n expected: {expected}"
    assert type(mine).__name__ == type(theirs).__name__, (mine, theirs)
    return str(mine)
