"""Elementwise choices (ops/selection.py): clamp (number and tensor bounds),
where, masked_fill, maximum/minimum, masked_select/masked_scatter; ties.

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py, split by family.)
"""

from __future__ import annotations

from typing import Any

from op_harness import (
    ANY,
    NONZERO,
    family_tests,
)

# --------------------------------------------------------------- elementwise
# name -> (expression, element domain)
UNARY: dict[str, tuple[Any, Any]] = {
    "clamp_min": (lambda T, a: a.clamp(min=0.123), NONZERO),
    "clamp_max": (lambda T, a: a.clamp(max=-0.123), NONZERO),
    "clamp_both": (lambda T, a: T.clamp(a, -0.777, 0.777), NONZERO),
    "clip": (lambda T, a: a.clip(-0.777, 0.777), NONZERO),
    "clamp_min_fn": (lambda T, a: a.clamp_min(0.123), NONZERO),
    "clamp_max_fn": (lambda T, a: T.clamp_max(a, 0.123), NONZERO),
    "masked_fill": (lambda T, a: a.masked_fill(a > 0, 2.5), NONZERO),
    "masked_fill_0d": (lambda T, a: a.masked_fill(a < 0, T.tensor(-1.5)), NONZERO),
    "where_scalar": (lambda T, a: T.where(a > 0, a, 0.0), NONZERO),
    "where_scalar_first": (lambda T, a: T.where(a > 0, 1.5, a), NONZERO),
    "where_method": (lambda T, a: a.where(a < 0, 2), NONZERO),
}


# two inputs that broadcast: (expression, domains)
BINARY: dict[str, tuple[Any, tuple]] = {
    "maximum": (lambda T, a, b: T.maximum(a, b), (ANY, ANY)),
    "minimum": (lambda T, a, b: a.minimum(b), (ANY, ANY)),
    "max_ab": (lambda T, a, b: T.max(a, b), (ANY, ANY)),
    "min_ab": (lambda T, a, b: a.min(b), (ANY, ANY)),
    "where": (lambda T, a, b: T.where(a > 0, a, b), (NONZERO, ANY)),
    "clamp_tensor_min": (lambda T, a, b: a.clamp(min=b), (ANY, ANY)),
    "clamp_tensor_max": (lambda T, a, b: T.clamp(a, max=b), (ANY, ANY)),
    "clamp_min_tensor": (lambda T, a, b: a.clamp_min(b), (ANY, ANY)),
    "clamp_max_tensor": (lambda T, a, b: a.clamp_max(b), (ANY, ANY)),
    "clamp_tensor_both": (lambda T, a, b: a.clamp(b, b + 0.5), (ANY, ANY)),
    "masked_fill_0d_grad": (
        lambda T, a, b: a.masked_fill(a > 0, b.sum()),
        (NONZERO, ANY),
    ),
}


TIE_CASES = {
    # equal values: PyTorch halves maximum's gradient, shares max()'s evenly
    "maximum": (lambda T, a, b: T.maximum(a, b), ([1.0, 2.0, 3.0], [1.0, 0.0, 3.0])),
    "minimum": (lambda T, a, b: T.minimum(a, b), ([1.0, 2.0, 3.0], [1.0, 5.0, 3.0])),
    "clamp_at_bounds": (lambda T, a: a.clamp(-1, 1), ([-1.0, 0.0, 1.0, 2.0],)),
    "clamp_min_gt_max": (lambda T, a: a.clamp(1, -1), ([-2.0, 0.0, 2.0],)),
    "clamp_tensor_crossed": (
        lambda T, a, lo, hi: a.clamp(lo, hi),
        ([-2.0, 0.5, 2.0, 1.0], [1.0, 0.0, 1.0, 1.0], [-1.0, 1.0, -1.0, 1.0]),
    ),
    "clamp_min_tie": (lambda T, a, b: a.clamp_min(b), ([1.0, 2.0], [1.0, 3.0])),
}


MORE_SHAPE_OPS = {
    "masked_select": (lambda T, a: a.masked_select(a > 0.1), (2, 3)),
    "masked_scatter": (lambda T, a: a.masked_scatter(a < 0.2, a.flip(0) * 2), (2, 3)),
}


# the elementwise suite over this family's tables (op_harness.family_tests)
globals().update(
    family_tests(
        unary=UNARY, binary=BINARY, tie_cases=TIE_CASES, one_input=MORE_SHAPE_OPS
    )
)
