"""Losses of a broadcast pair (ops/loss.py): l1, smooth_l1, huber.

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


def _pair(a: Any, b: Any) -> tuple:
    """``a`` and ``b`` broadcast against each other (by ops that record)."""
    return a + b * 0, b * 0.5 + a * 0


# two inputs that broadcast: (expression, domains)
BINARY: dict[str, tuple[Any, tuple]] = {
    # (losses of the broadcast pair: a target of another size would warn)
    "l1_loss": (lambda T, a, b: T.nn.functional.l1_loss(*_pair(a, b)), (ANY, NONZERO)),
    "smooth_l1": (
        lambda T, a, b: T.nn.functional.smooth_l1_loss(*_pair(a, b), beta=0.37),
        (ANY, ANY),
    ),
    "huber": (
        lambda T, a, b: T.nn.functional.huber_loss(*_pair(a, b), "sum", 0.61),
        (ANY, ANY),
    ),
}


# the elementwise suite over this family's tables (op_harness.family_tests)
globals().update(family_tests(binary=BINARY))
