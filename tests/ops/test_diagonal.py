"""Diagonals and triangles (ops/diagonal.py): tril, triu, diagonal (and a
write through it), diag, diag_embed, trace.

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py, split by family.)
"""

from __future__ import annotations

from typing import Any

from op_harness import (
    family_tests,
)

MORE_SHAPE_OPS = {
    "tril": (lambda T, a: a.tril(), (3, 3)),
    "tril_offset": (lambda T, a: T.tril(a, -1), (2, 3, 4)),
    "triu": (lambda T, a: a.triu(1), (3, 2)),
    "triu_": (lambda T, a: (a * 1).triu_(), (3, 3)),
    "diagonal": (lambda T, a: a.diagonal(), (2, 3)),
    "diagonal_3d": (lambda T, a: T.diagonal(a, -1, 2, 0), (2, 3, 4)),
    "diag_matrix": (lambda T, a: a.diag(1), (3, 3)),
    "diag_vector": (lambda T, a: T.diag(a, -1), (3,)),
    "diag_embed": (lambda T, a: a.diag_embed(1, 0, 2), (2, 3)),
    "trace": (lambda T, a: a.trace(), (3, 2)),
    "diagonal_written": (lambda T, a: _diagonal_zeroed(a), (3, 3)),
}


def _diagonal_zeroed(a: Any) -> Any:
    y = a * 1
    y.diagonal().mul_(3)  # through the view: CopySlices on y
    return y


# the elementwise suite over this family's tables (op_harness.family_tests)
globals().update(family_tests(one_input=MORE_SHAPE_OPS))
