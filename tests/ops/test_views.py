"""Views (ops/views.py): view, reshape, flatten, transposes, permute, expand,
(un)squeeze, select, basic indexing (ints, slices, None, ellipsis), movedim,
narrow and the other reshapes; views share their base's version.

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py and test_ops_shape.py, split by family.)
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import (
    arrays,
    away_from_zero,
    cases_vs_torch,
    check_gradcheck,
    differential,
    second_order,
    small_shapes,
    torch,
)

import minigrad

# ------------------------------------------------------------ shape: others
OTHERS = {
    "flatten": (lambda T, a: a.flatten(), (2, 3, 2)),
    "flatten_1": (lambda T, a: a.flatten(1), (2, 3, 2)),
    "flatten_0_1": (lambda T, a: T.flatten(a, 0, 1), (2, 3, 2)),
    "flatten_noncontig": (lambda T, a: a.transpose(0, 1).flatten(1), (2, 3, 2)),
    "flatten_0d": (lambda T, a: a.flatten(), ()),
    "flatten_1d": (lambda T, a: (a * 2).flatten(), (3,)),
    "contiguous_t": (lambda T, a: a.t().contiguous(), (2, 3)),
    "contiguous": (lambda T, a: (a * 2).contiguous(), (2, 3)),
    "repeat": (lambda T, a: a.repeat(2, 1, 3), (2, 3)),
    "repeat_same": (lambda T, a: a.repeat(2, 3), (2, 3)),
    "repeat_tuple": (lambda T, a: a.repeat((2, 2)), (3,)),
    "repeat_0d": (lambda T, a: a.repeat(3), ()),
    "narrow": (lambda T, a: a.narrow(1, 1, 2), (2, 4)),
    "narrow_neg": (lambda T, a: T.narrow(a, -1, -3, 2), (2, 4)),
    "narrow_full": (lambda T, a: a.narrow(0, 0, 2), (2, 4)),
    "view_as": (lambda T, a: a.view_as(T.zeros(3, 2)), (2, 3)),
    "reshape_as": (lambda T, a: a.t().reshape_as(T.zeros(6)), (2, 3)),
    "movedim": (lambda T, a: a.movedim(0, 2), (2, 3, 4)),
    "movedim_many": (lambda T, a: T.movedim(a, (0, 1), (2, 0)), (2, 3, 4)),
    "movedim_same": (lambda T, a: a.movedim(-1, -1), (2, 3)),
    "moveaxis": (lambda T, a: T.moveaxis(a, 1, 0), (2, 3)),
    "swapaxes": (lambda T, a: a.swapaxes(0, 2), (2, 3, 4)),
    "swapdims": (lambda T, a: T.swapdims(a, 0, -1), (2, 3)),
}


@pytest.mark.parametrize("name", sorted(OTHERS))
def test_shape_ops(name: str) -> None:
    fn, shape = OTHERS[name]
    x = np.random.default_rng(14).normal(size=shape)
    check_gradcheck(fn, x)
    differential(fn, [x])
    differential(fn, [x], dtype=np.float32)
    second_order(lambda T, a: fn(T, a) ** 2, [x])


def test_flatten_and_contiguous_return_self() -> None:
    for lib in (minigrad, torch):
        x = lib.ones(2, 3, requires_grad=True)
        v = lib.ones(3, requires_grad=True)
        assert x.contiguous() is x and v.flatten() is v and x.flatten(1, 1) is x


SHAPE_FAST = settings(max_examples=20, deadline=None)


# ------------------------------------- drawn shape ops (indexing and copies too)
@st.composite
def shape_op(draw: Any) -> tuple:
    """A shape and one shape/indexing op that is valid on it (dtype casts are left
    to the differential tests: float32 rounding defeats finite differences)."""
    shape = draw(small_shapes)
    n = len(shape)
    dim = st.integers(-max(n, 1), max(n, 1) - 1)
    ops: list = [
        lambda T, a: a.view(tuple(reversed(shape))),
        lambda T, a: a.reshape(-1),
        lambda T, a: a.flatten(),
        lambda T, a: a.clone(),
        lambda T, a: a.contiguous(),
        lambda T, a: a.squeeze(),
        lambda T, a: a[...],
        lambda T, a: a[None],
        lambda T, a: a.expand((2,) + tuple(2 if s == 1 else s for s in shape)),
        lambda T, a: a.unsqueeze(draw(st.integers(-n - 1, n))),
    ]
    if n:
        d, d2 = draw(dim), draw(dim)
        perm = draw(st.permutations(range(n)))
        i = draw(st.integers(-shape[d], shape[d] - 1))
        start = draw(st.integers(-shape[0], shape[0]))
        step = draw(st.integers(1, 2))
        ops += [
            lambda T, a: a.transpose(d, d2),
            lambda T, a: a.permute(*perm),
            lambda T, a: a.transpose(0, -1).reshape(-1),  # reshape of non-contiguous
            lambda T, a: a.squeeze(d),
            lambda T, a: a.squeeze((d, d2) if d % n != d2 % n else (d,)),
            lambda T, a: a.select(d, i),
            lambda T, a: a[start::step],
            lambda T, a: a[..., i if d == n - 1 else 0],
            lambda T, a: a[[0, -1, 0]],  # repeated index: gradients add up
            lambda T, a: a[a > 0],
            lambda T, a: a.T,
        ]
    if n <= 2:
        ops.append(lambda T, a: a.t())
    if n >= 2:
        ops += [lambda T, a: a.mT, lambda T, a: a[:, [1, 0] if shape[1] > 1 else [0]]]
    return shape, draw(st.sampled_from(ops))


@SHAPE_FAST
@given(data=st.data(), case=shape_op())
def test_shape_ops_gradcheck(data: st.DataObject, case: tuple) -> None:
    shape, fn = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # x.T of non-2-D tensors is deprecated
        # values away from 0 so that ``a[a > 0]`` keeps its mask under the
        # finite-difference perturbations
        check_gradcheck(fn, data.draw(arrays(shape, away_from_zero())))


# --------------------------------------------------------------- vs PyTorch
CASES: dict[str, tuple[tuple, Any]] = {
    "view": ((2, 3), lambda T, a: a.view(3, 2)),
    "view_infer": ((2, 3), lambda T, a: a.view(-1, 1)),
    "view_tuple": ((2, 3), lambda T, a: a.view((6,))),
    "view_0d": ((), lambda T, a: a.view(1, 1)),
    "view_as": ((2, 3), lambda T, a: a.view_as(T.ones(3, 2))),
    "reshape": ((2, 3), lambda T, a: a.reshape(3, -1)),
    "reshape_noncontig": ((2, 3), lambda T, a: a.t().reshape(-1)),
    "reshape_noncontig_view_ok": ((2, 3), lambda T, a: a.t().reshape(3, 2)),
    "flatten": ((2, 3, 2), lambda T, a: a.flatten()),
    "flatten_noncontig": ((2, 3), lambda T, a: a.t().flatten()),
    "t": ((2, 3), lambda T, a: a.t()),
    "t_1d": ((3,), lambda T, a: a.t()),
    "T": ((2, 3), lambda T, a: a.T),
    "mT": ((2, 2, 3), lambda T, a: a.mT),
    "transpose": ((2, 3, 4), lambda T, a: a.transpose(0, 2)),
    "transpose_neg": ((2, 3, 4), lambda T, a: a.transpose(-1, 1)),
    "permute": ((2, 3, 4), lambda T, a: a.permute(2, 0, 1)),
    "permute_neg": ((2, 3, 4), lambda T, a: a.permute((-1, 0, 1))),
    "expand": ((3, 1), lambda T, a: a.expand(2, 3, 4)),
    "expand_minus1": ((3, 1), lambda T, a: a.expand(-1, 4)),
    "expand_0d": ((), lambda T, a: a.expand(2, 2)),
    "expand_as": ((1, 3), lambda T, a: a.expand_as(T.ones(2, 3))),
    "unsqueeze": ((2, 3), lambda T, a: a.unsqueeze(1)),
    "unsqueeze_neg": ((2, 3), lambda T, a: a.unsqueeze(-1)),
    "unsqueeze_0d": ((), lambda T, a: a.unsqueeze(0)),
    "squeeze": ((1, 3, 1), lambda T, a: a.squeeze()),
    "squeeze_dim": ((1, 3, 1), lambda T, a: a.squeeze(-1)),
    "squeeze_dim_not1": ((1, 3, 1), lambda T, a: a.squeeze(1)),
    "squeeze_0d": ((), lambda T, a: a.squeeze()),
    "squeeze_dims": ((1, 3, 1), lambda T, a: a.squeeze((0, -1))),
    "squeeze_dims_some_not1": ((1, 3, 1), lambda T, a: a.squeeze((-1, 1))),
    "squeeze_dims_list": ((2, 1, 1), lambda T, a: a.squeeze([-2])),
    "squeeze_dims_none": ((1, 3), lambda T, a: a.squeeze(())),
    "squeeze_dims_0d": ((), lambda T, a: a.squeeze((0,))),
    "squeeze_dims_inplace": ((1, 3, 1), lambda T, a: (a * 1).squeeze_((-3, 2))),
    "select": ((2, 3), lambda T, a: a.select(1, 2)),
    "select_neg": ((2, 3), lambda T, a: a.select(-1, -1)),
    "int": ((2, 3), lambda T, a: a[1]),
    "int_neg": ((2, 3), lambda T, a: a[-1]),
    "int_int": ((2, 3), lambda T, a: a[0, 1]),
    "int_tensor": ((3,), lambda T, a: a[T.tensor(1)]),
    "slice": ((4, 3), lambda T, a: a[1:]),
    "slice_step": ((4, 3), lambda T, a: a[::2]),
    "slice_neg": ((4, 3), lambda T, a: a[-3:-1]),
    "slice_dim1": ((4, 3), lambda T, a: a[:, 1:]),
    "slice_full": ((4, 3), lambda T, a: a[:]),
    "slice_int": ((4, 3), lambda T, a: a[1:3, 0]),
    "none": ((2, 3), lambda T, a: a[None]),
    "none_mid": ((2, 3), lambda T, a: a[:, None, 1]),
    "ellipsis": ((2, 3), lambda T, a: a[...]),
    "ellipsis_int": ((2, 3, 4), lambda T, a: a[..., 1]),
    "ellipsis_mid": ((2, 3, 4), lambda T, a: a[0, ..., 1:]),
    "chain": ((2, 3, 4), lambda T, a: a.permute(2, 0, 1)[1:, 0].t().reshape(-1)[2]),
}
test_shape_ops_vs_torch = cases_vs_torch(CASES)


def test_views_share_version_and_base() -> None:
    """A view bumps with its base and reports ``_is_view`` like PyTorch."""
    import minigrad

    results = []
    for lib in (torch, minigrad):
        a = lib.ones(2, 3)
        views = [a.view(6), a.t(), a[0], a[:, 1:], a[None], a.expand(2, 2, 3), a[...]]
        copies = [a[[0, 1]], a.clone(), a.t().reshape(6)]
        a.add_(1)
        results.append(
            (
                [(v._version, v._is_view()) for v in views],
                [(c._version, c._is_view()) for c in copies],
            )
        )
    assert results[0] == results[1]
