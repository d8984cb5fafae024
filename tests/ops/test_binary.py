"""Elementwise math of two tensors (ops/binary.py): atan2, logaddexp, hypot,
xlogy (with numbers).

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py, split by family.)
"""

from __future__ import annotations

from typing import Any

from op_harness import (
    NONZERO,
    family_tests,
)

# two inputs that broadcast: (expression, domains)
BINARY: dict[str, tuple[Any, tuple]] = {
    "atan2": (lambda T, a, b: T.atan2(a, b), (NONZERO, NONZERO)),
    "arctan2": (lambda T, a, b: a.arctan2(b), (NONZERO, NONZERO)),
}


MORE_SHAPE_OPS = {
    "logaddexp": (lambda T, a: T.logaddexp(a, a.flip(0) * 2), (2, 3)),
    "hypot": (lambda T, a: a.hypot(a * a + 1), (2, 3)),
    "xlogy": (lambda T, a: a.xlogy(a * a + 1), (2, 3)),
    "xlogy_number": (lambda T, a: a.xlogy(2.5), (2, 3)),
    "xlogy_number_self": (lambda T, a: T.xlogy(2, a * a + 1), (2, 3)),
}


# the elementwise suite over this family's tables (op_harness.family_tests)
globals().update(family_tests(binary=BINARY, one_input=MORE_SHAPE_OPS))
