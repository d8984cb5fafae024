"""Batch and layer normalization (ops/norm.py), training and eval.

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py, split by family.)
"""

from __future__ import annotations

from op_harness import (
    family_tests,
)

MORE_SHAPE_OPS = {
    "batch_norm_train": (
        lambda T, a: T.nn.functional.batch_norm(
            a, None, None, a[0, :, 0] * 0 + 1.5, None, training=True
        ),
        (3, 2, 2),
    ),
    "batch_norm_eval": (
        lambda T, a: T.nn.functional.batch_norm(
            a, T.zeros(2, dtype=a.dtype), T.ones(2, dtype=a.dtype), a[0] + 1, a[1]
        ),
        (3, 2),
    ),
    "layer_norm": (lambda T, a: T.nn.functional.layer_norm(a, (3,)), (2, 3)),
    "layer_norm_affine": (
        lambda T, a: T.nn.functional.layer_norm(a, (2,), a[0] + 1, a[1] * 3),
        (3, 2),
    ),
}


# the elementwise suite over this family's tables (op_harness.family_tests)
globals().update(family_tests(one_input=MORE_SHAPE_OPS))
