"""Matrix products (ops/linalg.py): dot, mv, mm, bmm, ``@`` in every rank
combination (the ``matmul`` dispatch), the saved strides of transposed
operands, outer; addmm, addmv, baddbmm, addbmm with beta and alpha; tensordot
and inner (PyTorch's permutes, reshapes and mm).

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
    same_error,
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


# ---------------------------------------- addmm and kin, tensordot, inner
PRODUCTS: dict[str, tuple[Any, tuple]] = {
    "addmm": (lambda T, b, m, n: T.addmm(b, m, n), ((3,), (2, 4), (4, 3))),
    "addmm_scaled": (
        lambda T, b, m, n: b.addmm(m, n, beta=2, alpha=0.5),
        ((2, 1), (2, 4), (4, 3)),
    ),
    "addmm_beta0": (
        lambda T, b, m, n: T.addmm(b, m.t(), n, beta=0),
        ((2, 3), (4, 2), (4, 3)),
    ),
    "addmv": (lambda T, b, m, v: T.addmv(b, m, v, alpha=3), ((2,), (2, 3), (3,))),
    "addmv_scaled": (
        lambda T, b, m, v: b.addmv(m, v, beta=-1, alpha=2),
        ((), (2, 3), (3,)),
    ),
    "baddbmm": (
        lambda T, a, x, y: T.baddbmm(a, x, y, beta=2),
        ((2, 3), (2, 2, 4), (2, 4, 3)),
    ),
    "addbmm": (
        lambda T, a, x, y: a.addbmm(x, y, alpha=2),
        ((3,), (2, 2, 4), (2, 4, 3)),
    ),
    "tensordot_int": (lambda T, a, b: T.tensordot(a, b, 1), ((2, 3), (3, 4))),
    "tensordot_two": (lambda T, a, b: T.tensordot(a, b), ((2, 3, 4), (3, 4, 2))),
    "tensordot_lists": (
        lambda T, a, b: T.tensordot(a, b, dims=([1, 2], [1, 0])),
        ((2, 3, 4), (4, 3, 5)),
    ),
    "tensordot_vectors": (lambda T, a, b: T.tensordot(a, b, 1), ((3,), (3,))),
    "tensordot_size1": (
        lambda T, a, b: T.tensordot(a, b, dims=([0, 1], [0, 1])),
        ((2, 1), (2, 3)),
    ),
    "tensordot_outer": (lambda T, a, b: T.tensordot(a, b, 0), ((2, 2), (3,))),
    "inner": (lambda T, a, b: T.inner(a, b), ((2, 3), (4, 3))),
    "inner_vectors": (lambda T, a, b: a.inner(b), ((3,), (3,))),
    "inner_3d": (lambda T, a, b: T.inner(a, b), ((2, 2, 3), (3,))),
    "inner_0d": (lambda T, a, b: T.inner(a, b), ((), (2, 3))),
}


@pytest.mark.parametrize("name", sorted(PRODUCTS))
def test_products(name: str) -> None:
    """Values, gradients, nodes (the permutes, reshapes and mm PyTorch records
    for tensordot), saved alpha and beta, and second order, against PyTorch."""
    fn, shapes = PRODUCTS[name]
    rng = np.random.default_rng(12)
    arrs = [rng.normal(size=s) for s in shapes]
    check_gradcheck(fn, *arrs)
    differential(fn, arrs)
    differential(fn, arrs, np.float32, requires_grad=[False] + [True] * (len(arrs) - 1))
    second_order(lambda T, *xs: fn(T, *xs) ** 2, arrs)


def test_addmm_beta0_ignores_nan_input() -> None:
    b = np.array([[np.nan, 1.0], [np.inf, 0.0]])
    m = np.ones((2, 3))
    differential(lambda T, x, y: T.addmm(x, y, y.t(), beta=0), [b, m])


@pytest.mark.parametrize(
    "fn",
    [
        lambda T, a: T.addmm(a[0], a, a),
        lambda T, a: T.addmm(a[0], a[0], a.t()),
        lambda T, a: T.addmm(a[0, :2], a, a.t()[0]),
        lambda T, a: T.addmm(a[0], a, a.t()),
        lambda T, a: T.addmm(a.double()[0, :2], a, a.t()),
        lambda T, a: T.addmv(a[0], a, a[0]),
        lambda T, a: T.addmv(a[:, 0], a[0], a[0]),
        lambda T, a: T.baddbmm(a, a[None], a[None]),
        lambda T, a: T.addbmm(a[0], a[None], a[None]),
        lambda T, a: T.addbmm(a[0], a[None], a.t().expand(2, 3, 2)),
        lambda T, a: T.tensordot(a, a, dims=([1], [1, 0])),
        lambda T, a: T.tensordot(a, a, 1),
        lambda T, a: T.tensordot(a, a, 3),
        lambda T, a: T.tensordot(a, a, -1),
        lambda T, a: T.tensordot(a, a.double(), 1),
        lambda T, a: T.tensordot(a, a, dims=([1], [2])),
        lambda T, a: T.inner(a, a.t()),
        lambda T, a: T.inner(a[0], a[0].double()),
    ],
)
def test_product_errors(fn: Any) -> None:
    same_error(fn, np.ones((2, 3)))
