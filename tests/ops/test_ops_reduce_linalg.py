"""sum / mean (all, dim, keepdim, tuple and negative dims) and the matrix
products (dot, mv, mm, bmm, ``@`` in every rank combination)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import arrays, check_gradcheck, differential, small_shapes

pytest.importorskip("torch")

FAST = settings(max_examples=20, deadline=None)


# ------------------------------------------------------------------ reductions
@st.composite
def dims_for(draw: Any, ndim: int) -> Any:
    """An int dim, or a tuple of distinct dims, any of them negative."""
    n = max(ndim, 1)
    picks = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    signed = tuple(d - n if draw(st.booleans()) else d for d in picks)
    return signed[0] if len(signed) == 1 and draw(st.booleans()) else signed


@pytest.mark.parametrize("op", ["sum", "mean"])
@FAST
@given(data=st.data(), shape=small_shapes, keepdim=st.booleans())
def test_reduction_gradcheck(op: str, data: st.DataObject, shape: Any, keepdim: bool):
    x = data.draw(arrays(shape))
    dim = data.draw(st.none() | dims_for(len(shape)))
    if dim is None:
        check_gradcheck(lambda T, a: getattr(a, op)(), x)
    else:
        check_gradcheck(lambda T, a: getattr(a, op)(dim, keepdim=keepdim), x)


REDUCTIONS = [
    ((2, 3), None, False),
    ((), None, False),
    ((2, 3), 0, False),
    ((2, 3), 1, True),
    ((2, 3), -1, False),
    ((2, 3, 4), (0, 2), False),
    ((2, 3, 4), (-1, 0), True),
    ((2, 3, 4), [1], False),
    ((2, 3), (), False),
    ((2, 3), (), True),
    ((), 0, False),
    ((), -1, True),
    ((1, 3), 0, False),
]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("case", REDUCTIONS, ids=str)
@pytest.mark.parametrize("op", ["sum", "mean"])
def test_reduction_vs_torch(op: str, case: tuple, dtype: Any) -> None:
    shape, dim, keepdim = case
    x = np.random.default_rng(0).normal(size=shape)
    if dim is None:
        differential(lambda T, a: getattr(a, op)(), [x], dtype)
    else:
        differential(lambda T, a: getattr(T, op)(a, dim, keepdim=keepdim), [x], dtype)


def test_sum_dtype_kwarg_vs_torch() -> None:
    x = np.random.default_rng(0).normal(size=(2, 3))
    differential(lambda T, a: a.sum(dtype=T.float64), [x], np.float32)
    differential(lambda T, a: a.mean(1, dtype=T.float64), [x], np.float32)


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


@FAST
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


@FAST
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
