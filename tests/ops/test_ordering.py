"""Max, min, sort (ops/ordering.py): max, min, amax and amin over drawn dims
and whole (the reductions' suite), sort, argsort, topk, kthvalue, median,
msort; argmax/argmin; max's return type; ties against PyTorch; cummax and
cummin (ties, nan, return type, errors).

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py, split by family.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from op_harness import (
    FAST,
    check_gradcheck,
    differential,
    distinct,
    family_tests,
    reduction_tests,
    same_error,
    second_order,
    torch,
)

import minigrad

TIE_CASES = {
    "max_all": (lambda T, a: a.max(), ([3.0, 1.0, 3.0, 3.0],)),
    "min_all": (lambda T, a: a.min(), ([[0.0, 1.0], [0.0, 4.0]],)),
    "max_dim": (lambda T, a: a.max(1).values, ([[3.0, 1.0, 3.0], [2.0, 2.0, 0.0]],)),
    "amax": (lambda T, a: a.amax(1), ([[3.0, 1.0, 3.0], [2.0, 2.0, 2.0]],)),
    "amin_all": (lambda T, a: a.amin(), ([[3.0, 1.0, 1.0], [2.0, 1.0, 2.0]],)),
}


def test_argmax_argmin_vs_torch() -> None:
    x = np.array([[1.0, 5.0, 5.0], [7.0, -1.0, 0.0]])
    for fn in (
        lambda T, a: a.argmax(),
        lambda T, a: a.argmax(1),
        lambda T, a: T.argmin(a, 0, keepdim=True),
        lambda T, a: a.argmax(keepdim=True),
        lambda T, a: a[0, 0].argmax(),
    ):
        y_mg, y_th = differential(fn, [x])
        assert y_mg.dtype is minigrad.int64 and y_mg.grad_fn is None


def test_max_dim_return_type() -> None:
    out = []
    for lib in (minigrad, torch):
        x = lib.tensor([[1.0, 4.0], [3.0, 2.0]], requires_grad=True)
        r = x.max(1)
        values, indices = r
        assert r.values is values and r.indices is indices
        assert indices.grad_fn is None and not indices.requires_grad
        assert values.output_nr == 0
        out.append(repr(r).replace("torch", "minigrad"))
        out.append(repr(x.min(dim=0, keepdim=True)).replace("torch", "minigrad"))
    assert out[:2] == out[2:]


ORDERING = {
    "sort": lambda T, a: a.sort().values,
    "sort_dim0_desc": lambda T, a: T.sort(a, 0, descending=True)[0],
    "sort_stable": lambda T, a: a.sort(dim=-1, stable=True).values,
    "msort": lambda T, a: a.msort(),
    "topk": lambda T, a: a.topk(2).values,
    "topk_smallest": lambda T, a: T.topk(a, 1, 0, largest=False).values,
    "kthvalue": lambda T, a: a.kthvalue(2).values,
    "kthvalue_keepdim": lambda T, a: T.kthvalue(a, 1, 0, keepdim=True).values,
    "median": lambda T, a: a.median(),
    "median_dim": lambda T, a: T.median(a, 1).values,
    "median_0d": lambda T, a: a.sum().median(0).values,
    "cummax": lambda T, a: a.cummax(1).values,
    "cummin_neg_dim": lambda T, a: T.cummin(a, -2)[0],
    "cummax_0d": lambda T, a: a.sum().cummax(0).values,
}

NAN = float("nan")


@pytest.mark.parametrize("name", ["cummax", "cummin"])
def test_cummax_cummin_ties_and_nan(name: str) -> None:
    """A tie takes the later index (PyTorch's >=), a nan takes over and stays;
    the indices, the return type and its printout are PyTorch's."""
    x = np.array([[1.0, 3.0, 3.0, 2.0, 5.0, 5.0], [0.0, NAN, 1.0, NAN, 2.0, 0.0]])
    for xs in (x, -x, x.T):
        differential(lambda T, a: getattr(a, name)(-1).values, [xs])
    seen = []
    for lib in (minigrad, torch):
        for v in (lib.tensor(x), lib.tensor([1, 3, 3, 2]), lib.tensor([True, False])):
            r = getattr(lib, name)(v, 0)
            assert r.indices.dtype is lib.int64 and r.values.dtype is v.dtype
            seen.append(repr(r).replace("torch", "minigrad"))
    assert seen[:3] == seen[3:]


@pytest.mark.parametrize(
    "fn",
    [
        lambda T, a: a.sort(0, stable=True),
        lambda T, a: a.sort(0, stable=None),
        lambda T, a: a.sort(0, True, stable=False),
        lambda T, a: a.sort(1, descending=True, stable=True),
        lambda T, a: T.sort(a, 0, descending=True, stable=True),
        lambda T, a: T.sort(a, 0, True, stable=True),
        lambda T, a: T.sort(a, 0, stable=True, dim=0),
        lambda T, a: a.argsort(0, stable=True),
        lambda T, a: a.argsort(0, True, stable=True),
        lambda T, a: T.argsort(a, 0, stable=True),
        lambda T, a: T.argsort(a, 0, descending=True, stable=True),
    ],
)
def test_sort_stable_takes_keywords_only(fn: Any) -> None:
    """PyTorch 2.13's sort(*, stable, dim, descending) overload: ``stable``
    beside a positional dim or descending is refused in its parser's words."""
    same_error(fn, np.ones((2, 3)))


def test_sort_stable_descending_keywords() -> None:
    x = np.array([[3.0, 1.0, 2.0, 3.0], [0.5, 0.5, -1.0, 2.0]])
    for fn in (
        lambda T, a: a.sort(stable=True, descending=True).values,
        lambda T, a: T.sort(a, dim=0, stable=True, descending=True)[0],
        lambda T, a: a.sort(0, True).values,
    ):
        differential(fn, [x])
    for lib in (minigrad, torch):
        t = lib.tensor(x)
        assert t.argsort(stable=True, descending=True).tolist() == [
            [0, 3, 2, 1],
            [3, 0, 1, 2],
        ]
        assert lib.argsort(t, 1, True).tolist()[0][:2] == [0, 3]


@pytest.mark.parametrize(
    "fn",
    [
        lambda T, a: a.cummax(2),
        lambda T, a: T.cummin(a[0, 0], 1),
    ],
)
def test_cummax_cummin_errors(fn: Any) -> None:
    same_error(fn, np.ones((2, 3)))


@pytest.mark.parametrize("name", sorted(ORDERING))
@FAST
@given(perm=st.permutations([-1.7, -0.9, -0.2, 0.4, 1.1, 1.8]))
def test_ordering_ops(name: str, perm: list) -> None:
    """Values, indices and nodes as PyTorch's; the gradient goes back where each
    value came from (values well apart: ties are PyTorch's implementation's
    choice, and gradcheck's steps must not reorder them)."""
    fn, a = ORDERING[name], np.array(perm).reshape(2, 3)
    check_gradcheck(fn, a)
    differential(fn, [a])
    second_order(lambda T, x: fn(T, x) ** 2, [a])


# ----------------------------------------------- reducing like the reductions
# name -> (expression builder taking (dim, keepdim), element strategy factory,
#          whether the dim is a single int)
REDUCE = {
    "max_dim": (lambda d, k: lambda T, a: a.max(d, keepdim=k)[0], distinct, True),
    "min_dim": (lambda d, k: lambda T, a: T.min(a, d, k).values, distinct, True),
    "amax": (lambda d, k: lambda T, a: a.amax(d, k), distinct, False),
    "amin": (lambda d, k: lambda T, a: T.amin(a, d, keepdim=k), distinct, False),
}
FULL = {
    "max": (lambda T, a: a.max(), distinct),
    "min": (lambda T, a: T.min(a), distinct),
    "amax": (lambda T, a: a.amax(), distinct),
}
# the reductions' suite over these tables (op_harness.reduction_tests)
globals().update(reduction_tests(REDUCE, FULL, ["amax"]))

# the elementwise suite over this family's tables (op_harness.family_tests)
globals().update(family_tests(tie_cases=TIE_CASES))
