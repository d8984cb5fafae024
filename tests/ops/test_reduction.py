"""Reductions (ops/reduction.py): sum and mean (all, dim, keepdim, tuple and
negative dims), var, std, prod, logsumexp, norms, cumsum and cumprod over drawn
dims; zeros and ties; var's correction and warning. (max, min, amax and amin,
which reduce like them, are in test_ordering.py with the rest of
ops/ordering.py.)

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
    dims_for,
    distinct,
    family_tests,
    reduction_tests,
    same_error,
    second_order,
    small_shapes,
    torch,
)

import minigrad

TIE_CASES = {
    "norm_inf": (lambda T, a: a.norm(float("inf")), ([3.0, -3.0, 1.0],)),
    "norm_zero": (lambda T, a: a.norm(dim=1), ([[0.0, 0.0], [3.0, 4.0]],)),
    "norm3_zero": (lambda T, a: a.norm(3, dim=1), ([[0.0, 0.0], [3.0, 4.0]],)),
    "std_zero": (lambda T, a: a.std(1), ([[1.0, 1.0], [3.0, 4.0]],)),
    "prod_one_zero": (lambda T, a: a.prod(), ([2.0, 0.0, 3.0],)),
    "prod_two_zeros": (lambda T, a: a.prod(), ([0.0, 2.0, 0.0],)),
    "prod_dim_zero": (lambda T, a: a.prod(1), ([[2.0, 0.0, 3.0], [1.0, 2.0, 3.0]],)),
    "prod_dim_zeros": (lambda T, a: a.prod(0, True), ([[0.0, 0.0], [0.0, 2.0]],)),
}


# ------------------------------------------------------------------ sum, mean
SUM_MEAN_FAST = settings(max_examples=20, deadline=None)


@pytest.mark.parametrize("op", ["sum", "mean"])
@SUM_MEAN_FAST
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


# ------------------------------------------------------------ zeros and ties
@pytest.mark.parametrize("name", [n for n in sorted(TIE_CASES) if "prod" in n])
def test_prod_with_zeros_second_order(name: str) -> None:
    fn, arrs = TIE_CASES[name]
    second_order(fn, [np.array(a) for a in arrs])


# ------------------------------------------------------------------ reductions
# name -> (expression builder taking (dim, keepdim), element strategy factory,
#          whether the dim is a single int); max/min/amax/amin: test_ordering.py
REDUCE: dict[str, tuple[Any, Any, bool]] = {
    "var": (lambda d, k: lambda T, a: a.var(d, keepdim=k), arrays, False),
    "var_c0": (
        lambda d, k: lambda T, a: a.var(d, keepdim=k, correction=0),
        arrays,
        False,
    ),
    "std": (
        lambda d, k: lambda T, a: a.std(d, unbiased=False, keepdim=k),
        distinct,
        False,
    ),
    "prod": (lambda d, k: lambda T, a: a.prod(d, k), arrays, True),
    "logsumexp": (lambda d, k: lambda T, a: a.logsumexp(d, k), arrays, False),
    "norm": (lambda d, k: lambda T, a: a.norm(dim=d, keepdim=k), distinct, False),
    "norm1": (lambda d, k: lambda T, a: a.norm(1, d, k), distinct, False),
    "norm_inf": (lambda d, k: lambda T, a: a.norm(float("inf"), d, k), distinct, False),
    "norm3": (lambda d, k: lambda T, a: T.norm(a, 3, d, k), distinct, False),
    "cumsum": (lambda d, k: lambda T, a: a.cumsum(d), arrays, True),
    "nansum": (lambda d, k: lambda T, a: a.nansum(d, k), arrays, False),
    "nanmean": (lambda d, k: lambda T, a: T.nanmean(a, d, keepdim=k), arrays, False),
}
FULL: dict[str, Any] = {
    "var": (lambda T, a: a.var(), arrays),
    "var_unbiased_false": (lambda T, a: a.var(unbiased=False), arrays),
    "std": (lambda T, a: T.std(a), distinct),
    "prod": (lambda T, a: a.prod(), arrays),
    "norm": (lambda T, a: a.norm(), distinct),
    "norm_p1": (lambda T, a: a.norm(p=1), distinct),
    "nansum": (lambda T, a: T.nansum(a), arrays),
    "nanmean": (lambda T, a: a.nanmean(), arrays),
}

# the reductions' suite over these tables (op_harness.reduction_tests)
globals().update(
    reduction_tests(
        REDUCE, FULL, ["var", "std", "prod", "logsumexp", "norm", "norm3", "cumsum"]
    )
)


def test_var_correction_values_and_dof_warning() -> None:
    x = np.array([[1.0, 2.0, 4.0], [0.5, 0.5, 3.0]])
    for fn in (
        lambda T, a: a.var(1, True),
        lambda T, a: a.var(correction=2),
        lambda T, a: a.std(dim=[0, 1], correction=0, keepdim=True),
        lambda T, a: a.var(dim=[]),
    ):
        differential(fn, [x])
    msgs = []
    for lib in (minigrad, torch):
        with pytest.warns(UserWarning) as rec:
            y = lib.tensor([2.0], requires_grad=True).std()
        msgs.append(str(rec[0].message).split(" (Triggered")[0])
        assert np.isnan(float(y.detach()))
    assert msgs[0] == msgs[1]


NAN = float("nan")


@pytest.mark.parametrize(
    "fn",
    [
        lambda T, a: T.nansum(a),
        lambda T, a: a.nansum(1),
        lambda T, a: a.nansum((0, -1), keepdim=True),
        lambda T, a: T.nansum(a, dim=[]),
        lambda T, a: T.nanmean(a),
        lambda T, a: a.nanmean(-1, keepdim=True),
        lambda T, a: T.nanmean(a * a, 0),
    ],
)
def test_nansum_nanmean_with_nans(fn: Any) -> None:
    """nan counts as zero (nansum) or not at all (nanmean: an all-nan slice is
    nan); no gradient reaches a nan; the graph is PyTorch's (nanmean is
    NansumBackward0 divided by the count, DivBackward0)."""
    x = np.array([[1.5, NAN, -0.5], [NAN, NAN, NAN]])
    differential(fn, [x])
    second_order(lambda T, a: fn(T, a) ** 2, [np.array([[1.5, NAN], [0.5, 2.0]])])


@pytest.mark.parametrize(
    "fn",
    [
        lambda T, a: T.nanmean(a.long()),
        lambda T, a: a.long().nanmean(dtype=T.float32),
        lambda T, a: a.nansum(2),
        lambda T, a: a.nansum((0, 0)),
    ],
)
def test_nansum_nanmean_errors(fn: Any) -> None:
    same_error(fn, np.ones((2, 3)))


def test_nansum_dtypes() -> None:
    """Integer and bool sums are int64; ``dtype=`` casts inside the op."""
    x = np.array([[1.5, NAN, -0.5], [NAN, 2.0, NAN]])
    differential(lambda T, a: a.nansum(0, dtype=T.float32), [x])
    for lib in (minigrad, torch):
        for dtype in (lib.int32, lib.int64, lib.bool):
            assert lib.nansum(lib.ones(3, dtype=dtype)).dtype is lib.int64


MORE_SHAPE_OPS = {
    "cumprod": (lambda T, a: a.cumprod(1), (2, 4)),
    "cumprod_zero": (lambda T, a: (a * T.tensor([1.0, 0.0, 1.0])).cumprod(-1), (2, 3)),
}


# the elementwise suite over this family's tables (op_harness.family_tests)
globals().update(family_tests(tie_cases=TIE_CASES, one_input=MORE_SHAPE_OPS))
