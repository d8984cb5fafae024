"""Flip, roll, repeat, tile (ops/rearrange.py).

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
    FAST,
    arrays,
    check_gradcheck,
    check_one_input_op,
    differential,
    family_tests,
    small_shapes,
)

FLIP = {
    "one": (lambda T, a: a.flip(1), (2, 3)),
    "list": (lambda T, a: a.flip([0, -1]), (2, 3)),
    "varargs": (lambda T, a: a.flip(0, 2), (2, 3, 2)),
    "none": (lambda T, a: a.flip([]), (2, 3)),
    "function": (lambda T, a: T.flip(a, (-1,)), (4,)),
    "0d": (lambda T, a: a.flip(0), ()),
}


@pytest.mark.parametrize("name", sorted(FLIP))
def test_flip(name: str) -> None:
    check_one_input_op(*FLIP[name])


MORE_SHAPE_OPS = {
    "roll": (lambda T, a: a.roll(1, 1), (2, 3)),
    "roll_dims": (lambda T, a: T.roll(a, (1, -2), (0, -1)), (2, 3)),
    "roll_flat": (lambda T, a: a.roll(-4), (2, 3)),
    "tile": (lambda T, a: a.tile(2, 1), (2, 3)),
    "tile_more": (lambda T, a: T.tile(a, (2, 1, 2)), (3,)),
}


@settings(max_examples=25, deadline=None)
@given(a=arrays(small_shapes.filter(lambda s: len(s) >= 1)), data=st.data())
def test_flip_and_cumsum_drawn(a: np.ndarray, data: Any) -> None:
    """flip along a drawn dim, and cumsum, whose gradient is a flipped cumsum
    (FlipBackward0, CumsumBackward0, FlipBackward0 under create_graph)."""
    d = data.draw(st.integers(-a.ndim, a.ndim - 1))
    check_gradcheck(lambda T, x: x.flip(d), a)
    differential(lambda T, x: x.flip(d).cumsum(d), [a])


@FAST
@given(data=st.data(), shape=small_shapes)
def test_repeat_gradcheck(data: Any, shape: tuple) -> None:
    extra = data.draw(st.integers(0, 2))
    reps = tuple(data.draw(st.integers(1, 3)) for _ in range(len(shape) + extra))
    check_gradcheck(lambda T, a: a.repeat(reps), data.draw(arrays(shape)))


# the elementwise suite over this family's tables (op_harness.family_tests)
globals().update(family_tests(one_input=MORE_SHAPE_OPS))
