"""Pooling (ops/pool.py): max, average and adaptive, 1-d and 2-d.

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py, split by family.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import (
    family_tests,
    torch,
)

import minigrad

MORE_SHAPE_OPS = {
    "max_pool2d": (lambda T, a: T.nn.functional.max_pool2d(a, 2), (1, 2, 4, 4)),
    "max_pool2d_pad_ceil": (
        lambda T, a: T.nn.functional.max_pool2d(a, 3, 2, 1, ceil_mode=True),
        (2, 1, 5, 4),
    ),
    "avg_pool2d": (lambda T, a: T.nn.functional.avg_pool2d(a, 2), (1, 2, 4, 4)),
    "max_pool1d": (lambda T, a: T.nn.functional.max_pool1d(a, 3, 2, 1), (2, 2, 7)),
    "avg_pool1d": (lambda T, a: T.nn.functional.avg_pool1d(a, 2), (2, 5)),
    "adaptive_avg_pool2d": (
        lambda T, a: T.nn.functional.adaptive_avg_pool2d(a, (2, 3)),
        (1, 2, 5, 4),
    ),
    "adaptive_max_pool2d": (
        lambda T, a: T.nn.functional.adaptive_max_pool2d(a, (2, 3)),
        (1, 2, 5, 7),
    ),
    "adaptive_max_pool2d_none": (
        lambda T, a: T.nn.functional.adaptive_max_pool2d(a, (None, 2)),
        (2, 3, 4),
    ),
    "adaptive_max_pool1d": (
        lambda T, a: T.nn.functional.adaptive_max_pool1d(a, 3),
        (2, 2, 7),
    ),
    "adaptive_avg_pool1d": (
        lambda T, a: T.nn.functional.adaptive_avg_pool1d(a, 4),
        (2, 2, 7),
    ),
    "avg_pool2d_pad": (
        lambda T, a: T.nn.functional.avg_pool2d(
            a, 3, 2, 1, ceil_mode=True, count_include_pad=False
        ),
        (2, 5, 4),
    ),
}


# the elementwise suite over this family's tables (op_harness.family_tests)
globals().update(family_tests(one_input=MORE_SHAPE_OPS))


# ---------------------------------------------------- max pooling, exactly
NAN, INF = float("nan"), float("inf")


def _max_pool_both(x: np.ndarray, g: np.ndarray | None = None, **kw: Any) -> tuple:
    """max_pool2d with indices in both libraries, then backward of ``g`` (random
    when not given): (values, indices, input grad) of each."""
    results = []
    for lib in (minigrad, torch):
        a = lib.tensor(x, requires_grad=True)
        values, indices = lib.nn.functional.max_pool2d(a, return_indices=True, **kw)
        if g is None:
            g = np.random.default_rng(3).standard_normal(tuple(values.shape))
            g = g.astype(x.dtype)
        values.backward(lib.tensor(g))
        results.append(
            (values.detach().numpy(), indices.numpy(), a.grad.detach().numpy())
        )
    return results[0], results[1]


def _assert_identical(mine: np.ndarray, theirs: np.ndarray) -> None:
    """Equal shape, dtype, NaN positions, values and signs of zero."""
    assert mine.shape == theirs.shape and mine.dtype == theirs.dtype
    np.testing.assert_array_equal(mine, theirs)  # (NaN equals NaN here)
    np.testing.assert_array_equal(np.signbit(mine), np.signbit(theirs))


POOL_GEOMETRIES = [  # keyword arguments of max_pool2d
    {"kernel_size": 2},
    {"kernel_size": 2, "padding": 1},
    {"kernel_size": 3, "stride": 1, "padding": 1},
    {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True},
    {"kernel_size": (2, 3), "stride": (1, 2), "dilation": (2, 1), "padding": (1, 1)},
    {"kernel_size": 2, "stride": 2, "dilation": 2, "padding": 1},
    {"kernel_size": 2, "stride": 3, "ceil_mode": True},
]

SPECIAL_PLANES = {  # (1, 1, 4, 5) inputs with what max pooling must get right
    "ties": [[1, 3, 3, 0, 0], [3, 3, 1, 1, 0], [2, 2, 2, 2, 2], [2, 2, 5, 5, 2]],
    "nan": [
        [1, NAN, 2, NAN, 4],
        [NAN, 3, 3, 3, 1],
        [0, NAN, 5, 5, 2],
        [1, 2, 5, 0, NAN],
    ],
    "-inf": [[-INF] * 5, [-INF] * 5, [-INF, -INF, 1, -INF, -INF], [-INF] * 5],
    "signed zeros": [
        [0, -0.0, -0.0, 0, 0],
        [-0.0, 0, 0, -0.0, -1],
        [0] * 5,
        [-0.0] * 5,
    ],
    "inf and nan": [
        [INF, NAN, -INF, INF, 1],
        [NAN, INF, INF, NAN, 1],
        [1] * 5,
        [2] * 5,
    ],
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("plane", sorted(SPECIAL_PLANES))
@pytest.mark.parametrize("geometry", range(len(POOL_GEOMETRIES)))
def test_max_pool2d_exactly_as_pytorch(plane: str, geometry: int, dtype: Any) -> None:
    """Values, indices and input gradients identical to PyTorch's (not just
    close): a tie goes to the window's first maximum, a NaN is the maximum (the
    window's last NaN, as PyTorch scans), an all -inf window points at its first
    element inside the input (never at the padding); overlapping windows add
    their gradients in PyTorch's order."""
    x = np.array(SPECIAL_PLANES[plane], dtype)[None, None]
    x = np.concatenate([x, x[..., ::-1, ::-1]], axis=1)  # two channels
    mine, theirs = _max_pool_both(x, **POOL_GEOMETRIES[geometry])
    for m, t in zip(mine, theirs):
        _assert_identical(m, t)


@settings(max_examples=40, deadline=None)
@given(
    kernel=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    stride=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    dilation=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    padding=st.tuples(st.integers(0, 1), st.integers(0, 1)),
    ceil_mode=st.booleans(),
    size=st.tuples(st.integers(3, 7), st.integers(3, 7)),
    levels=st.integers(2, 6),
    seed=st.integers(0, 2**16),
)
def test_max_pool2d_random_geometry(
    kernel: tuple,
    stride: tuple,
    dilation: tuple,
    padding: tuple,
    ceil_mode: bool,
    size: tuple,
    levels: int,
    seed: int,
) -> None:
    """Random geometry on float32 inputs with few distinct values (many ties,
    some NaN and -inf): identical to PyTorch's, or PyTorch's error."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, levels, (2, 3) + size).astype(np.float32)
    x[rng.random(x.shape) < 0.05] = NAN
    x[rng.random(x.shape) < 0.1] = -INF
    kw = dict(
        kernel_size=kernel,
        stride=stride,
        padding=padding,
        dilation=dilation,
        ceil_mode=ceil_mode,
    )
    try:
        torch.nn.functional.max_pool2d(torch.tensor(x), **kw)
    except RuntimeError as e:
        with pytest.raises(RuntimeError) as mine:
            minigrad.nn.functional.max_pool2d(minigrad.tensor(x), **kw)
        assert str(mine.value) == str(e)
        return
    mine, theirs = _max_pool_both(x, **kw)
    for m, t in zip(mine, theirs):
        _assert_identical(m, t)


def test_max_pool2d_overlapping_gradients_add_in_pytorch_order() -> None:
    """A 3x3 window with stride 1 reaches each input from up to 9 outputs; the
    float32 sums are bit-identical to PyTorch's (its order of additions)."""
    x = np.random.default_rng(5).standard_normal((4, 3, 9, 9)).astype(np.float32)
    x[:, :, 3:6, 3:6] = 10.0  # one maximum shared by many windows
    g = np.random.default_rng(6).standard_normal((4, 3, 7, 7)).astype(np.float32)
    mine, theirs = _max_pool_both(x, g, kernel_size=3, stride=1)
    for m, t in zip(mine, theirs):
        _assert_identical(m, t)
