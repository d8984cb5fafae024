"""Elementwise math of one tensor (ops/unary.py): exp, log, sqrt, reciprocal,
abs, sign, sin and cos (over the wider elementwise suite), rsqrt,
log1p/log2/log10, exp2, expm1, erf, trigonometric and hyperbolic functions and
their inverses, rounding, frac, nan_to_num, logit, deg2rad; predicates and
logical ops (no gradient).

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py and test_ops_elementwise.py, split by
family.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from op_harness import (
    ABOVE_1,
    ABOVE_M1,
    ANY,
    ELEMENTWISE,
    NONZERO,
    OFF_STEPS,
    POS,
    UNIT,
    differential,
    family_tests,
)

# --------------------------------------------------------------- elementwise
# name -> (expression, element domain)
UNARY: dict[str, tuple[Any, Any]] = {
    "rsqrt": (lambda T, a: a.rsqrt(), POS),
    "log1p": (lambda T, a: a.log1p(), ABOVE_M1),
    "log2": (lambda T, a: T.log2(a), POS),
    "log10": (lambda T, a: a.log10(), POS),
    "exp2": (lambda T, a: a.exp2(), ANY),
    "expm1": (lambda T, a: T.expm1(a), ANY),
    "erf": (lambda T, a: a.erf(), ANY),
    "tan": (lambda T, a: a.tan(), UNIT),
    "asin": (lambda T, a: a.asin(), UNIT),
    "arcsin": (lambda T, a: T.arcsin(a), UNIT),
    "acos": (lambda T, a: T.acos(a), UNIT),
    "atan": (lambda T, a: a.arctan(), ANY),
    "sinh": (lambda T, a: a.sinh(), ANY),
    "cosh": (lambda T, a: T.cosh(a), ANY),
    "asinh": (lambda T, a: a.asinh(), ANY),
    "acosh": (lambda T, a: a.acosh(), ABOVE_1),
    "atanh": (lambda T, a: T.atanh(a), UNIT),
    "floor": (lambda T, a: a.floor(), OFF_STEPS),
    "ceil": (lambda T, a: T.ceil(a), OFF_STEPS),
    "round": (lambda T, a: a.round(), OFF_STEPS),
    "round_decimals": (lambda T, a: T.round(a * 10, decimals=-1), OFF_STEPS),
    "trunc": (lambda T, a: a.trunc(), OFF_STEPS),
    "fix": (lambda T, a: T.fix(a), OFF_STEPS),
    "frac": (lambda T, a: a.frac() * a, OFF_STEPS),
    "nan_to_num": (lambda T, a: (a.log() * 2).nan_to_num(), NONZERO),
    "nan_to_num_args": (lambda T, a: T.nan_to_num(a.log(), 1.5, 9.0, -9.0), NONZERO),
}


def test_predicates_and_logical_ops() -> None:
    """Boolean results without history, as PyTorch's (values and dtypes)."""
    x = np.array([0.0, np.nan, np.inf, -np.inf, -1.5, 2.0])
    y = np.array([1.0, 0.0, 0.0, 2.0, np.nan, 0.0])
    for fn in (
        lambda T, a, b: a.isnan(),
        lambda T, a, b: T.isinf(a),
        lambda T, a, b: a.isfinite(),
        lambda T, a, b: a.isposinf(),
        lambda T, a, b: T.isneginf(a),
        lambda T, a, b: a.logical_not(),
        lambda T, a, b: a.logical_and(b),
        lambda T, a, b: T.logical_or(a, b),
        lambda T, a, b: a.logical_xor(b),
        lambda T, a, b: a.nan_to_num(),
        lambda T, a, b: T.nan_to_num(a, nan=1.0, posinf=2.0),
        lambda T, a, b: a.floor().long(),
        lambda T, a, b: a.long().round(),
    ):
        differential(fn, [x, y], requires_grad=(False, False))


MORE_SHAPE_OPS = {
    "logit": (lambda T, a: a.sigmoid().logit(), (2, 3)),
    "logit_eps": (lambda T, a: T.logit(a * 0.1 + 0.5, 0.01), (2, 3)),
    "deg2rad": (lambda T, a: a.deg2rad(), (2, 3)),
    "rad2deg": (lambda T, a: T.rad2deg(a), (2, 3)),
}


# the elementwise suite over this family's tables (op_harness.family_tests)
globals().update(family_tests(unary=UNARY, one_input=MORE_SHAPE_OPS))

# ------------------------------------------------ the wider elementwise suite
# name -> (expression, element domain), over op_harness.ELEMENTWISE's shapes
ELEMENTWISE_UNARY: dict[str, tuple[Any, Any]] = {
    "exp": (lambda T, a: a.exp(), ANY),
    "log": (lambda T, a: a.log(), POS),
    "reciprocal": (lambda T, a: a.reciprocal(), NONZERO),
    "sqrt": (lambda T, a: a.sqrt(), POS),
    "abs": (lambda T, a: a.abs(), NONZERO),
    "sin": (lambda T, a: a.sin(), ANY),
    "cos": (lambda T, a: T.cos(a), ANY),
    "sign": (lambda T, a: a.sign(), NONZERO),
}
globals().update(family_tests(unary=ELEMENTWISE_UNARY, **ELEMENTWISE))
