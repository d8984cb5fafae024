"""arange and linspace give PyTorch 2.13's float values to the last bit.

A lesson's ``x = torch.arange(-8.0, 8.0, 0.1)`` has a value near 0 (PyTorch:
4.4e-16, numpy's arange: -2.8e-14) whose sign decides ``relu``'s gradient
there, and ``linspace(-pi, pi, 2000)`` feeds the polynomial-fitting tutorial.
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad

torch = pytest.importorskip("torch")

DTYPES = ["float32", "float64"]


def _same(mine: minigrad.Tensor, theirs: object) -> None:
    assert mine.dtype.name == str(theirs.dtype).removeprefix("torch.")
    np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


def test_relu_gradient_at_arange_s_value_near_zero() -> None:
    # d2l's activation-function lesson prints these gradients
    grads = []
    for lib in (minigrad, torch):
        x = lib.arange(-8.0, 8.0, 0.1, requires_grad=True)
        lib.relu(x).backward(lib.ones_like(x))
        grads.append(x.grad[75:85].tolist())
    assert grads[0] == grads[1] == [0.0] * 5 + [1.0] * 5


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "args",
    [(-8.0, 8.0, 0.1), (0, 1, 0.01), (-3.14, 3.14, 0.05), (0, 3, 0.1), (5.0, 0, -0.3),
     (2.5, 100.0, 0.7), (-1, 1, 0.001), (1.5, 10), (7,), (0, 1, 1 / 3)],
)  # fmt: skip
def test_arange_values(args: tuple, dtype: str) -> None:
    _same(
        minigrad.arange(*args, dtype=getattr(minigrad, dtype)),
        torch.arange(*args, dtype=getattr(torch, dtype)),
    )


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "args",
    [(-math.pi, math.pi, 2000), (-3.14, 3.14, 7), (0, 1, 5), (1, 10, 33), (0, 1, 100),
     (-5, 5, 1001), (3.0, -2.0, 11), (0.1, 0.7, 2), (2.0, 2.0, 4)],
)  # fmt: skip
def test_linspace_values(args: tuple, dtype: str) -> None:
    _same(
        minigrad.linspace(*args, dtype=getattr(minigrad, dtype)),
        torch.linspace(*args, dtype=getattr(torch, dtype)),
    )


@settings(
    max_examples=int(os.environ.get("MINIGRAD_RANGE_EXAMPLES", 150)), deadline=None
)
@given(
    start=st.floats(-50, 50),
    step=st.floats(0.001, 5) | st.floats(-5, -0.001),
    n=st.integers(1, 300),
    dtype=st.sampled_from(DTYPES),
)
def test_arange_random(start: float, step: float, n: int, dtype: str) -> None:
    end = start + step * (n - 0.5)  # (n values, away from an end's rounding)
    _same(
        minigrad.arange(start, end, step, dtype=getattr(minigrad, dtype)),
        torch.arange(start, end, step, dtype=getattr(torch, dtype)),
    )


@settings(
    max_examples=int(os.environ.get("MINIGRAD_RANGE_EXAMPLES", 150)), deadline=None
)
@given(
    start=st.floats(-100, 100),
    end=st.floats(-100, 100),
    steps=st.integers(0, 700),
    dtype=st.sampled_from(DTYPES),
)
def test_linspace_random(start: float, end: float, steps: int, dtype: str) -> None:
    _same(
        minigrad.linspace(start, end, steps, dtype=getattr(minigrad, dtype)),
        torch.linspace(start, end, steps, dtype=getattr(torch, dtype)),
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.arange(5, 0, 1),
        lambda lib: lib.arange(0, 5.0, -0.5),
        lambda lib: lib.arange(0, 1, 0),
        lambda lib: lib.linspace(0, 1, -1),
    ],
)
def test_range_errors(call: object) -> None:
    with pytest.raises(RuntimeError) as theirs:
        call(torch)
    with pytest.raises(RuntimeError, match=f"^{theirs.value}$"):
        call(minigrad)
