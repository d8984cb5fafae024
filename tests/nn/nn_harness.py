"""Run a functional expression on minigrad and on PyTorch and compare values,
input gradients, the graph (node names, next_functions) and ``_saved_*``.

An expression is ``fn(lib, *tensors)``. Unlike the per-op harness, inputs keep
their own dtype (class targets stay int64) and only the ones marked require grad.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from op_harness import _numpy, compare_graphs

import minigrad

torch = pytest.importorskip("torch")

TOL = {np.dtype(np.float64): 1e-10, np.dtype(np.float32): 2e-5}


def make(lib: Any, a: np.ndarray, requires_grad: bool) -> Any:
    t = lib.tensor(np.array(a))
    return t.requires_grad_() if requires_grad else t


def compare(
    fn: Callable[..., Any],
    arrs: Sequence[np.ndarray],
    requires_grad: Sequence[bool],
    seed: int = 0,
    check_graph: bool = True,
) -> tuple:
    xs_mg = [make(minigrad, a, r) for a, r in zip(arrs, requires_grad)]
    xs_th = [make(torch, a, r) for a, r in zip(arrs, requires_grad)]
    y_mg, y_th = fn(minigrad, *xs_mg), fn(torch, *xs_th)
    ref = _numpy(y_th)
    tol = TOL[ref.dtype]
    assert tuple(y_mg.shape) == tuple(y_th.shape)
    assert str(y_mg.dtype).replace("minigrad", "torch") == str(y_th.dtype)
    np.testing.assert_allclose(_numpy(y_mg), ref, rtol=tol, atol=tol)
    assert y_mg.requires_grad == y_th.requires_grad
    if y_th.grad_fn is None:
        assert y_mg.grad_fn is None
        return y_mg, y_th
    if check_graph:
        compare_graphs(y_mg, y_th, xs_mg, xs_th)
    g = np.random.default_rng(seed).standard_normal(tuple(y_th.shape)).astype(ref.dtype)
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


def second_order(
    fn: Callable[..., Any], arrs: Sequence[np.ndarray], requires_grad: Sequence[bool]
) -> None:
    """grad(create_graph=True), then the gradient of a random projection of that
    gradient: values compared with PyTorch (the recorded nodes may differ)."""
    results = []
    for lib in (minigrad, torch):
        rng = np.random.default_rng(1)
        xs = [make(lib, a, r) for a, r in zip(arrs, requires_grad)]
        diff = [x for x, r in zip(xs, requires_grad) if r]
        y = fn(lib, *xs)
        v = lib.tensor(rng.standard_normal(tuple(y.shape)))
        g1 = lib.autograd.grad(y, diff, v, create_graph=True)
        total = sum(
            (g * lib.tensor(rng.standard_normal(tuple(g.shape)))).sum() for g in g1
        )
        g2 = lib.autograd.grad(total, diff, allow_unused=True)
        results.append(
            [np.zeros(x.shape) if g is None else _numpy(g) for x, g in zip(diff, g2)]
        )
    for m, t in zip(*results):
        np.testing.assert_allclose(m, t, rtol=1e-8, atol=1e-9)


def same_error(fn: Callable[..., Any], *arrs: np.ndarray, warn: bool = False) -> str:
    """Both libraries raise the same exception type and text (``minigrad`` for
    ``torch``); returns the message."""
    errors = []
    for lib in (minigrad, torch):
        xs = [make(lib, a, False) for a in arrs]
        with pytest.raises(Exception) as info:
            fn(lib, *xs)
        errors.append(info.value)
    mine, theirs = errors
    assert type(mine).__name__ == type(theirs).__name__, (mine, theirs)
    assert str(mine) == str(theirs).replace("torch", "minigrad")
    return str(mine)
