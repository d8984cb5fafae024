"""Arithmetic (ops/arithmetic.py): square, addcmul, addcdiv, lerp, remainder,
% and fmod (drawn dtypes too), pow's gradients at zero.

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
    ANY,
    NONZERO,
    differential,
    family_tests,
    second_order,
    torch,
)

import minigrad

# --------------------------------------------------------------- elementwise
# name -> (expression, element domain)
UNARY: dict[str, tuple[Any, Any]] = {
    "square": (lambda T, a: a.square(), ANY),
}


# two inputs that broadcast: (expression, domains)
BINARY: dict[str, tuple[Any, tuple]] = {
    "addcmul": (lambda T, a, b: a.addcmul(b, a * b, value=-1.5), (ANY, ANY)),
    "addcdiv": (lambda T, a, b: T.addcdiv(a, b, a * a + 1, value=2), (ANY, ANY)),
    "lerp": (lambda T, a, b: a.lerp(b, 0.25), (ANY, ANY)),
    "lerp_tensor": (lambda T, a, b: T.lerp(a, b, (a * b).sigmoid()), (ANY, ANY)),
    "remainder": (lambda T, a, b: T.remainder(a, b), (ANY, NONZERO)),
    "mod_operator": (lambda T, a, b: (a * 3) % b, (ANY, NONZERO)),
    "fmod": (lambda T, a, b: T.fmod(a * 3, b), (ANY, NONZERO)),
    "remainder_": (lambda T, a, b: (a + b * 0).remainder_(b * 1), (ANY, NONZERO)),
}
# remainders jump where a / b is a whole number: gradcheck stays away from there
STEPS = {"remainder": 1, "mod_operator": 3, "fmod": 3, "remainder_": 1}


def test_pow_gradients_at_zero_like_pytorch() -> None:
    """0 ** b and a ** 0: PyTorch's formulas give 0 there (not 0 * inf = nan),
    for tensor exponents, for a scalar base of 0, and for the exponent 0."""
    a = np.array([0.0, 0.0, 2.0, 0.0])
    b = np.array([0.0, 2.0, 0.0, -1.0])
    differential(lambda T, x, y: x**y, [a, b])
    differential(lambda T, y: 0.0**y, [b])
    differential(lambda T, x: x**0, [a])
    second_order(lambda T, x, y: (x + 1) ** y, [a, b])


@settings(max_examples=60, deadline=None)
@given(
    op=st.sampled_from(["%", "//", "fmod", "div_floor", "div_trunc"]),
    dtypes=st.sampled_from(
        [("f", "f"), ("i", "i"), ("i", "f"), ("f", "i"), ("i", "n")]
    ),
    data=st.data(),
)
def test_remainder_and_floor_division_random(op: str, dtypes: tuple, data: Any) -> None:
    """Signs, integer and float operands, numbers, zero divisors: the same values,
    dtypes and errors as PyTorch's."""
    rng = np.random.default_rng(data.draw(st.integers(0, 999)))
    a = rng.integers(-9, 10, size=(2, 3)).astype(np.int64)
    b = rng.integers(-4, 5, size=(3,)).astype(np.int64)
    if dtypes[0] == "f":
        a = a / 2.0
    number = dtypes[1] == "n"
    if dtypes[1] == "f":
        b = b / 2.0

    def fn(T: Any) -> Any:
        x = T.tensor(a)
        y = 3 if number else T.tensor(b)
        if op == "%":
            return x % y
        if op == "//":
            return x // y
        if op == "fmod":
            return T.fmod(x, y)
        return T.div(x, y, rounding_mode=op[4:])

    try:
        want = fn(torch)
    except RuntimeError as e:
        with pytest.raises(RuntimeError) as mine:
            fn(minigrad)
        assert str(mine.value) == str(e)
        return
    got = fn(minigrad)
    assert str(got.dtype).replace("minigrad", "torch") == str(want.dtype)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


# the elementwise suite over this family's tables (op_harness.family_tests)
globals().update(family_tests(unary=UNARY, binary=BINARY, steps=STEPS))
