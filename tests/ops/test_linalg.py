"""Matrix products (ops/linalg.py): outer.

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py, split by family.)
"""

from __future__ import annotations

import numpy as np
from op_harness import (
    check_gradcheck,
    differential,
    second_order,
)


# -------------------------------------------------------------------- outer
def test_outer() -> None:
    rng = np.random.default_rng(11)
    a, b = rng.normal(size=3), rng.normal(size=4)
    check_gradcheck(lambda T, x, y: T.outer(x, y), a, b)
    differential(lambda T, x, y: T.outer(x, y), [a, b])
    differential(lambda T, x, y: x.outer(y), [a, b], requires_grad=(False, True))
    differential(lambda T, x, y: x[::2].outer(y), [a, b])
    second_order(lambda T, x, y: T.outer(x, y) ** 2, [a, b])
