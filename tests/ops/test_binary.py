"""Elementwise math of two tensors (ops/binary.py): atan2, logaddexp, hypot,
xlogy (with numbers), fmax and fmin (ties and nan, errors).

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py, split by family.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from op_harness import (
    NONZERO,
    family_tests,
    same_error,
    torch,
)

import minigrad

# two inputs that broadcast: (expression, domains)
BINARY: dict[str, tuple[Any, tuple]] = {
    "atan2": (lambda T, a, b: T.atan2(a, b), (NONZERO, NONZERO)),
    "arctan2": (lambda T, a, b: a.arctan2(b), (NONZERO, NONZERO)),
    "fmax": (lambda T, a, b: T.fmax(a, b), (NONZERO, NONZERO)),
    "fmin": (lambda T, a, b: a.fmin(b), (NONZERO, NONZERO)),
}

NAN = float("nan")
# a tie gives the whole gradient to the first input; nan loses to a number
TIE_CASES = {
    "fmax_ties_nan": (
        lambda T, a, b: T.fmax(a, b),
        ([1.0, 2.0, NAN, NAN, 3.0], [1.0, NAN, 2.0, NAN, 4.0]),
    ),
    "fmin_ties_nan": (
        lambda T, a, b: T.fmin(a, b),
        ([[1.0, 2.0, NAN], [NAN, 3.0, 0.5]], [1.0, NAN, 2.0]),
    ),
}


@pytest.mark.parametrize(
    "fn",
    [
        lambda T, a, b: T.fmax(a, 2.0),
        lambda T, a, b: a.fmin(2.0),
        lambda T, a, b: T.fmin(a, [1.0, 2.0]),
        lambda T, a, b: T.fmax(a, b),
    ],
    ids=["number", "method_number", "list", "broadcast"],
)
def test_fmax_fmin_errors(fn: Any) -> None:
    same_error(fn, np.ones(2), np.ones(3))


def test_fmax_fmin_dtypes_promote() -> None:
    """Integer, bool and mixed operands: PyTorch's values and result dtype."""
    pairs = [([1, 2], [0, 3]), ([True, False], [False, False]), ([1, 2], [1.5, 1.0])]
    for a, b in pairs:
        for name in ("fmax", "fmin"):
            mine = getattr(minigrad, name)(minigrad.tensor(a), minigrad.tensor(b))
            theirs = getattr(torch, name)(torch.tensor(a), torch.tensor(b))
            assert str(mine.dtype) == str(theirs.dtype).replace("torch", "minigrad")
            np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


MORE_SHAPE_OPS = {
    "logaddexp": (lambda T, a: T.logaddexp(a, a.flip(0) * 2), (2, 3)),
    "hypot": (lambda T, a: a.hypot(a * a + 1), (2, 3)),
    "xlogy": (lambda T, a: a.xlogy(a * a + 1), (2, 3)),
    "xlogy_number": (lambda T, a: a.xlogy(2.5), (2, 3)),
    "xlogy_number_self": (lambda T, a: T.xlogy(2, a * a + 1), (2, 3)),
}


# the elementwise suite over this family's tables (op_harness.family_tests)
globals().update(
    family_tests(binary=BINARY, tie_cases=TIE_CASES, one_input=MORE_SHAPE_OPS)
)
