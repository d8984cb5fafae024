"""Views, reshapes, indexing, copies and dtype casts."""

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
    check_gradcheck,
    differential,
    small_shapes,
    torch,
)

FAST = settings(max_examples=20, deadline=None)


# ------------------------------------------------------------------ gradcheck
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


@FAST
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
    "list": ((4, 3), lambda T, a: a[[0, 2, 0]]),
    "list_neg": ((4,), lambda T, a: a[[-1, 1]]),
    "tensor_index": ((4, 3), lambda T, a: a[T.tensor([3, 1])]),
    "tensor_index_2d": ((4,), lambda T, a: a[T.tensor([[0, 1], [3, 3]])]),
    "mask": ((2, 3), lambda T, a: a[a > 0]),
    "mask_rows": ((3, 2), lambda T, a: a[T.tensor([True, False, True])]),
    "slice_list": ((4, 3), lambda T, a: a[:, [0, 2]]),
    "two_lists": ((4, 3), lambda T, a: a[[0, 1], [2, 2]]),
    "clone": ((2, 3), lambda T, a: a.clone()),
    "contiguous_contig": ((2, 3), lambda T, a: a.contiguous()),
    "contiguous_noncontig": ((2, 3), lambda T, a: a.t().contiguous()),
    "to_float64": ((2, 3), lambda T, a: a.to(T.float64)),
    "to_float32": ((2, 3), lambda T, a: a.to(T.float32)),
    "to_kwarg": ((2, 3), lambda T, a: a.to(dtype=T.float64)),
    "to_tensor": ((2, 3), lambda T, a: a.to(T.zeros(1, dtype=T.float64))),
    "double": ((2, 3), lambda T, a: a.double()),
    "float": ((2, 3), lambda T, a: a.float()),
    "to_cpu": ((2, 3), lambda T, a: a.to("cpu", T.float64)),
    "chain": ((2, 3, 4), lambda T, a: a.permute(2, 0, 1)[1:, 0].t().reshape(-1)[2]),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", sorted(CASES))
def test_shape_ops_vs_torch(name: str, dtype: Any) -> None:
    shape, fn = CASES[name]
    x = np.random.default_rng(0).normal(size=shape)
    differential(fn, [x], dtype)


def test_same_dtype_to_returns_self() -> None:
    for lib in (torch, __import__("minigrad")):
        a = lib.ones(2, requires_grad=True)
        assert a.to(lib.float32) is a and a.float() is a
        b = a.t() if a.dim() == 2 else a
        assert b.contiguous() is b


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


def test_root_gradient_cast_to_output_dtype() -> None:
    import minigrad

    grads = []
    for lib in (torch, minigrad):
        x = lib.ones(2, dtype=lib.float64, requires_grad=True)
        x.float().backward(lib.tensor([1 / 3, 1 / 3], dtype=lib.float64))
        grads.append(x.grad.tolist())
    assert grads[0] == grads[1]


def test_only_saved_slots_look_like_saved_attributes() -> None:
    import minigrad

    a = minigrad.ones(2, requires_grad=True)
    saved = {n for n in dir((a * 2).grad_fn) if n.startswith("_saved_")}
    assert saved == {"_saved_self", "_saved_other"}
