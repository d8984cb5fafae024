"""Matrix products (ops/linalg.py): dot, mv, mm, bmm, ``@`` in every rank
combination (the ``matmul`` dispatch), the saved strides of transposed
operands, outer.

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
    arrays,
    check_gradcheck,
    differential,
    second_order,
)

PRODUCTS_FAST = settings(max_examples=20, deadline=None)


# --------------------------------------------------------------- matrix products
# (shape of a, shape of b) for each rank combination ``a @ b`` accepts
MATMUL = {
    "1D@1D": ((3,), (3,)),
    "2D@1D": ((2, 3), (3,)),
    "1D@2D": ((3,), (3, 4)),
    "2D@2D": ((2, 3), (3, 4)),
    "3D@1D": ((2, 2, 3), (3,)),
    "1D@3D": ((3,), (2, 3, 4)),
    "3D@2D": ((2, 2, 3), (3, 4)),
    "2D@3D": ((2, 3), (5, 3, 4)),
    "3D@3D": ((5, 2, 3), (5, 3, 4)),
    "4D@3D": ((2, 1, 2, 3), (5, 3, 4)),
    "4D@4D": ((2, 1, 2, 3), (1, 5, 3, 4)),
    "size1": ((1, 1), (1, 1)),
}


@st.composite
def matmul_shapes(draw: Any) -> tuple:
    n, k, m = (draw(st.integers(1, 3)) for _ in range(3))
    ra, rb = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    batch = draw(st.lists(st.integers(1, 2), min_size=2, max_size=2))
    ba = tuple(draw(st.sampled_from([1, b])) for b in batch)
    bb = tuple(draw(st.sampled_from([1, b])) for b in batch)
    a = (k,) if ra == 1 else ba[: ra - 2] + (n, k)
    b = (k,) if rb == 1 else bb[: rb - 2] + (k, m)
    return a, b


@PRODUCTS_FAST
@given(data=st.data(), shapes=matmul_shapes())
def test_matmul_gradcheck(data: st.DataObject, shapes: tuple) -> None:
    sa, sb = shapes
    check_gradcheck(lambda T, a, b: a @ b, data.draw(arrays(sa)), data.draw(arrays(sb)))


NAMED = {
    "dot": (lambda T, a, b: T.dot(a, b), ((3,), (3,))),
    "mv": (lambda T, a, b: a.mv(b), ((2, 3), (3,))),
    "mm": (lambda T, a, b: T.mm(a, b), ((2, 3), (3, 4))),
    "bmm": (lambda T, a, b: a.bmm(b), ((2, 2, 3), (2, 3, 4))),
    "matmul_fn": (lambda T, a, b: T.matmul(a, b), ((2, 3), (3,))),
    "method": (lambda T, a, b: a.matmul(b), ((3,), (2, 3, 4))),
}


@PRODUCTS_FAST
@given(data=st.data(), name=st.sampled_from(sorted(NAMED)))
def test_named_products_gradcheck(data: st.DataObject, name: str) -> None:
    fn, (sa, sb) = NAMED[name]
    check_gradcheck(fn, data.draw(arrays(sa)), data.draw(arrays(sb)))


@pytest.mark.parametrize("needs", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("case", sorted(MATMUL))
def test_matmul_vs_torch(case: str, dtype: Any, needs: tuple) -> None:
    rng = np.random.default_rng(1)
    arrs = [rng.normal(size=s) for s in MATMUL[case]]
    differential(lambda T, a, b: a @ b, arrs, dtype, requires_grad=needs)


@pytest.mark.parametrize("needs", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", sorted(NAMED))
def test_named_products_vs_torch(name: str, dtype: Any, needs: tuple) -> None:
    fn, shapes = NAMED[name]
    rng = np.random.default_rng(2)
    differential(fn, [rng.normal(size=s) for s in shapes], dtype, requires_grad=needs)


def test_mm_of_transposed_saves_strides() -> None:
    """``_saved_*_sym_strides`` follow the operands' layout (here a transpose)."""
    rng = np.random.default_rng(3)
    arrs = [rng.normal(size=(3, 2)), rng.normal(size=(4, 3))]
    differential(lambda T, a, b: a.t().mm(b.t()), arrs)


# -------------------------------------------------------------------- outer
def test_outer() -> None:
    rng = np.random.default_rng(11)
    a, b = rng.normal(size=3), rng.normal(size=4)
    check_gradcheck(lambda T, x, y: T.outer(x, y), a, b)
    differential(lambda T, x, y: T.outer(x, y), [a, b])
    differential(lambda T, x, y: x.outer(y), [a, b], requires_grad=(False, True))
    differential(lambda T, x, y: x[::2].outer(y), [a, b])
    second_order(lambda T, x, y: T.outer(x, y) ** 2, [a, b])
