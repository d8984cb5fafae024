"""Join and split (ops/join.py): cat and stack (drawn, promoting dtypes),
split, chunk, unbind (views: their in-place errors), with PyTorch's nodes.

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py, split by family.)
"""

from __future__ import annotations

from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from op_harness import (
    FAST,
    arrays,
    check_gradcheck,
    differential,
    second_order,
    small_shapes,
    torch,
)

import minigrad


# ------------------------------------------------------------- shape: joins
@st.composite
def join_case(draw: Any) -> tuple:
    """Shapes equal except along ``dim`` (cat) and the dim to join along."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3))
    d = draw(st.integers(0, len(shape) - 1))
    sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    shapes = [shape[:d] + (n,) + shape[d + 1 :] for n in sizes]
    return shapes, d - len(shape) if draw(st.booleans()) else d


@FAST
@given(data=st.data(), case=join_case())
def test_cat_gradcheck(data: Any, case: tuple) -> None:
    shapes, dim = case
    arrs = [data.draw(arrays(s)) for s in shapes]
    check_gradcheck(lambda T, *xs: T.cat(xs, dim) * 1.5, *arrs)


@FAST
@given(data=st.data(), shape=small_shapes, n=st.integers(1, 3))
def test_stack_gradcheck(data: Any, shape: tuple, n: int) -> None:
    dim = data.draw(st.integers(-len(shape) - 1, len(shape)))
    arrs = [data.draw(arrays(shape)) for _ in range(n)]
    check_gradcheck(lambda T, *xs: T.stack(xs, dim) * 1.5, *arrs)


JOINS = {
    "cat0": (lambda T, a, b: T.cat([a, b]), ((2, 3), (1, 3))),
    "cat1": (lambda T, a, b: T.cat((a, b), 1), ((2, 3), (2, 1))),
    "cat_neg": (lambda T, a, b: T.cat([a, b, a], dim=-1), ((2, 3), (2, 2))),
    "cat_view": (lambda T, a, b: T.cat([a.t(), b]), ((3, 2), (1, 3))),
    "concat": (lambda T, a, b: T.concat([a, b]), ((3,), (2,))),
    "stack0": (lambda T, a, b: T.stack([a, b]), ((2, 3), (2, 3))),
    "stack_neg": (lambda T, a, b: T.stack([a, b], -1), ((2, 3), (2, 3))),
    "stack_0d": (lambda T, a, b: T.stack([a, b]), ((), ())),
}


@pytest.mark.parametrize("needs", [(True, True), (True, False)])
@pytest.mark.parametrize("name", sorted(JOINS))
def test_joins_vs_torch(name: str, needs: tuple) -> None:
    fn, shapes = JOINS[name]
    rng = np.random.default_rng(12)
    arrs = [rng.normal(size=s) for s in shapes]
    differential(fn, arrs, requires_grad=needs)
    differential(fn, arrs, dtype=np.float32)
    second_order(lambda T, a, b: fn(T, a, b) ** 2, arrs)


def test_cat_promotes_dtype() -> None:
    outs = []
    for lib in (minigrad, torch):
        a = lib.ones(2, requires_grad=True)
        b = lib.ones(2, dtype=lib.float64, requires_grad=True)
        y = lib.cat([a, b])
        (y * lib.arange(4.0, dtype=lib.float64)).sum().backward()
        outs.append((str(y.dtype).split(".")[1], a.grad.tolist(), b.grad.dtype))
    assert outs[0][:2] == outs[1][:2]


# --------------------------------------------------- shape: several outputs
SPLITS = {
    "split": (lambda T, a: a.split(2, 1), (3, 5)),
    "split_sizes": (lambda T, a: a.split([1, 3, 1], -1), (2, 5)),
    "split_even": (lambda T, a: T.split(a, 1), (3, 2)),
    "chunk": (lambda T, a: a.chunk(2, 1), (2, 3)),
    "chunk_more_than_size": (lambda T, a: T.chunk(a, 5), (3,)),
    "unbind": (lambda T, a: a.unbind(1), (2, 3)),
    "unbind_neg": (lambda T, a: T.unbind(a, -1), (2, 3)),
    "iter": (lambda T, a: tuple(a), (3, 2)),
}


def _combine(T: Any, outs: tuple, skip: int | None = None) -> Any:
    """A scalar using every output but ``skip`` (its gradient comes as zeros)."""
    return sum(((o * (i + 1.5)) ** 2).sum() for i, o in enumerate(outs) if i != skip)


@pytest.mark.parametrize("name", sorted(SPLITS))
def test_multi_output_views(name: str) -> None:
    fn, shape = SPLITS[name]
    x = np.random.default_rng(13).normal(size=shape)
    check_gradcheck(fn, x)
    for skip in (None, 0):
        differential(lambda T, a, s=skip: _combine(T, fn(T, a), s), [x])
    second_order(lambda T, a: _combine(T, fn(T, a)), [x])
    # one node shared by every output, numbered 0, 1, ...
    for lib in (minigrad, torch):
        outs = fn(lib, lib.tensor(x, requires_grad=True))
        assert len({id(o.grad_fn) for o in outs}) == 1
        assert [o.output_nr for o in outs] == list(range(len(outs)))
        assert all(o._is_view() for o in outs)
    mine = fn(minigrad, minigrad.tensor(x, requires_grad=True))
    theirs = fn(torch, torch.tensor(x, requires_grad=True))
    assert [tuple(o.shape) for o in mine] == [tuple(o.shape) for o in theirs]


def _inplace_error(lib: Any, case: str) -> str:
    x = lib.ones(4, 2, requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError) as info:
        if case == "split":
            y.split(2)[1].add_(1)
        elif case == "split_sizes":
            y.split([1, 3])[0].mul_(2)
        elif case == "chunk":
            y.chunk(2, 1)[1].zero_()
        elif case == "unbind":
            y.unbind(1)[1].clamp_(0, 1)
        elif case == "iter":
            list(y)[2][0] = 5.0
        elif case == "leaf":
            x.split(1)[0].add_(1)
        elif case == "no_grad_base":
            lib.ones(4).split(2)[0].add_(lib.ones(2, requires_grad=True))
        elif case == "made_in_no_grad":
            with lib.no_grad():
                piece = y.unbind()[0]
            piece.add_(1)
    return str(info.value).replace("torch", "minigrad")


@pytest.mark.parametrize(
    "case",
    [
        "split",
        "split_sizes",
        "chunk",
        "unbind",
        "iter",
        "leaf",
        "no_grad_base",
        "made_in_no_grad",
    ],
)
def test_multi_output_view_inplace_error(case: str) -> None:
    assert _inplace_error(minigrad, case) == _inplace_error(torch, case)


def test_multi_output_view_inplace_allowed_without_grad() -> None:
    for lib in (minigrad, torch):
        z = lib.zeros(4)
        z.split(2)[1].add_(1)
        with lib.no_grad():
            y = lib.ones(4, requires_grad=True) * 1
            y.split(2)[0].mul_(3)
        assert z.tolist() == [0.0, 0.0, 1.0, 1.0] and y.tolist()[:2] == [3.0, 3.0]
