"""Reductions (ops/reduction.py; max, min, amax and amin of ops/ordering.py
too, which reduce like them): var, std, prod, logsumexp, norms, cumsum and
cumprod over drawn dims; zeros and ties; var's correction and warning.

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py, split by family.)
"""

from __future__ import annotations

from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from op_harness import (
    FAST,
    NONZERO,
    arrays,
    check_gradcheck,
    differential,
    family_tests,
    floats,
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


@pytest.mark.parametrize("name", [n for n in sorted(TIE_CASES) if "prod" in n])
def test_prod_with_zeros_second_order(name: str) -> None:
    fn, arrs = TIE_CASES[name]
    second_order(fn, [np.array(a) for a in arrs])


# ------------------------------------------------------------------ reductions
@st.composite
def dims_for(draw: Any, ndim: int, single: bool = False) -> Any:
    """An int dim (possibly negative), or a tuple of distinct dims."""
    n = max(ndim, 1)
    if single:
        d = draw(st.integers(0, n - 1))
        return d - n if draw(st.booleans()) else d
    picks = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    signed = tuple(d - n if draw(st.booleans()) else d for d in picks)
    return signed[0] if len(signed) == 1 and draw(st.booleans()) else signed


def distinct(shape: tuple, lo: float = -2, hi: float = 2) -> Any:
    """Arrays of distinct values (no ties: max/min/prod are smooth there)."""
    return hnp.arrays(
        np.float64,
        shape,
        elements=floats(lo, hi).map(lambda v: round(v, 3)),
        unique=True,
    ).filter(lambda a: a.size < 2 or np.diff(np.sort(a.ravel())).min() > 1e-2)


# name -> (expression builder taking (dim, keepdim), element strategy factory,
#          whether the dim is a single int)
REDUCE: dict[str, tuple[Any, Any, bool]] = {
    "max_dim": (lambda d, k: lambda T, a: a.max(d, keepdim=k)[0], distinct, True),
    "min_dim": (lambda d, k: lambda T, a: T.min(a, d, k).values, distinct, True),
    "amax": (lambda d, k: lambda T, a: a.amax(d, k), distinct, False),
    "amin": (lambda d, k: lambda T, a: T.amin(a, d, keepdim=k), distinct, False),
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
    "max": (lambda T, a: a.max(), distinct),
    "min": (lambda T, a: T.min(a), distinct),
    "amax": (lambda T, a: a.amax(), distinct),
    "var": (lambda T, a: a.var(), arrays),
    "var_unbiased_false": (lambda T, a: a.var(unbiased=False), arrays),
    "std": (lambda T, a: T.std(a), distinct),
    "prod": (lambda T, a: a.prod(), arrays),
    "norm": (lambda T, a: a.norm(), distinct),
    "norm_p1": (lambda T, a: a.norm(p=1), distinct),
    "nansum": (lambda T, a: T.nansum(a), arrays),
    "nanmean": (lambda T, a: a.nanmean(), arrays),
}


def _needs_spread(name: str, shape: tuple) -> bool:
    """var/std need two or more elements; norms need a nonzero slice."""
    return ("var" in name or "std" in name) and int(np.prod(shape)) < 2


@pytest.mark.parametrize("name", sorted(REDUCE))
@FAST
@given(data=st.data(), shape=small_shapes, keepdim=st.booleans())
def test_reduction_dim_gradcheck(name: str, data: Any, shape: tuple, keepdim: bool):
    build, elems, single = REDUCE[name]
    dim = data.draw(dims_for(len(shape), single))
    n = int(np.prod([shape[d] for d in np.atleast_1d(dim)])) if shape else 1
    if ("var" in name or "std" in name) and n < 2:
        return
    x = data.draw(elems(shape) if elems is distinct else arrays(shape, NONZERO))
    check_gradcheck(build(dim, keepdim), x)


@pytest.mark.parametrize("name", sorted(FULL))
@FAST
@given(data=st.data(), shape=small_shapes)
def test_reduction_full_gradcheck(name: str, data: Any, shape: tuple) -> None:
    fn, elems = FULL[name]
    if _needs_spread(name, shape):
        return
    x = data.draw(elems(shape) if elems is distinct else arrays(shape, NONZERO))
    check_gradcheck(fn, x)


DIM_CASES = [
    ((2, 3), 0, False),
    ((2, 3), 1, True),
    ((2, 3), -1, False),
    ((2, 3, 4), (0, 2), False),
    ((2, 3, 4), (-1, 0), True),
    ((2, 3, 4), -2, True),
    ((4,), 0, False),
    ((), 0, False),
]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("case", DIM_CASES, ids=str)
@pytest.mark.parametrize("name", sorted(REDUCE))
def test_reduction_dim_vs_torch(name: str, case: tuple, dtype: Any) -> None:
    shape, dim, keepdim = case
    build, _, single = REDUCE[name]
    if single and isinstance(dim, tuple):
        dim = dim[0]
    if name.startswith(("var", "std")) and shape == ():
        return  # one element: NaN (with a warning); see test_var_dof_warning
    x = np.random.default_rng(7).permutation(np.arange(1, np.prod(shape) + 1))
    x = (x.reshape(shape) * 0.37 - 0.6).astype(np.float64)
    differential(build(dim, keepdim), [x], dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 1, 3)], ids=str)
@pytest.mark.parametrize("name", sorted(FULL))
def test_reduction_full_vs_torch(name: str, shape: tuple, dtype: Any) -> None:
    fn, _ = FULL[name]
    if _needs_spread(name, shape):
        return
    x = np.random.default_rng(8).permutation(np.arange(1, np.prod(shape) + 1))
    differential(fn, [(x.reshape(shape) * 0.41 - 0.9).astype(np.float64)], dtype)


@pytest.mark.parametrize(
    "name", ["var", "std", "prod", "logsumexp", "norm", "norm3", "cumsum", "amax"]
)
def test_reduction_second_order(name: str) -> None:
    build, _, single = REDUCE[name]
    x = np.random.default_rng(9).permutation(np.arange(1.0, 7.0)).reshape(2, 3) * 0.3
    second_order(build(1 if single else (1,), False), [x - 0.8])


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
