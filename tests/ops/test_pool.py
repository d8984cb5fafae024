"""Pooling (ops/pool.py): max, average and adaptive, 1-d and 2-d.

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py, split by family.)
"""

from __future__ import annotations

from op_harness import (
    family_tests,
)

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
