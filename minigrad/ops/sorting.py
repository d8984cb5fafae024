"""Ops that order values: sort, argsort, topk, kthvalue, median. Their gradients
put ``g`` back where each value came from (``value_selecting_backward``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from ._common import Ctx, Grad, Op, constant, preserve_layout
from .reduction import (
    MaxAll,
    _return_type,
    normalize_dims,
    value_selecting_backward,
)

SortResult, TopkResult = _return_type("sort"), _return_type("topk")
KthvalueResult, MedianResult = _return_type("kthvalue"), _return_type("median")


def order(x: np.ndarray, d: int, descending: bool) -> np.ndarray:
    """Indices that sort ``x`` along ``d``, stable, NaN counted as the largest
    value (as PyTorch sorts). Descending: sort the reversed slice, so equal
    values still keep their original order."""
    if not descending:
        return np.argsort(x, axis=d, kind="stable")
    n = x.shape[d]
    return n - 1 - np.flip(np.argsort(np.flip(x, d), axis=d, kind="stable"), d)


class _Selecting(Op):
    """An op that returns values picked from its input and their indices."""

    _abstract = True

    @staticmethod
    def _pick(ctx: Ctx, a: Any, dim: int, idx: np.ndarray, keepdim: bool) -> tuple:
        """The values at ``idx`` along ``dim``, the indices as a tensor without
        gradient, and what backward needs (indices, dim, sizes)."""
        x = a._data
        (d,) = normalize_dims(dim, x.ndim)
        ctx.d, ctx.dim_arg, ctx.dim = d, dim, f.u64(dim)
        ctx.self_sym_sizes, ctx.keepdim = x.shape, keepdim
        values = np.take_along_axis(x, idx, d) if x.ndim else x.copy()
        if not keepdim and x.ndim:
            values, idx = values.squeeze(d), idx.squeeze(d)
        indices = constant(np.asarray(idx, np.int64, order="C"))
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return np.asarray(values, order="C"), indices

    @staticmethod
    def backward(ctx: Ctx, g: Grad, _: Any) -> tuple:
        (indices,) = ctx.saved_tensors
        sizes, keepdim = ctx.self_sym_sizes, ctx.keepdim
        grad = value_selecting_backward(g, ctx.dim_arg, ctx.d, indices, sizes, keepdim)
        return (grad,) + (None,) * (ctx._n_args - 1)


def _sorted_indices(x: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    (d,) = normalize_dims(dim, x.ndim)
    return order(x, d, descending) if x.ndim else np.zeros((), np.int64)


class Sort(_Selecting):
    """d sort(a).values = g put back where each value came from"""

    node_name, saved = "SortBackward0", ("indices",)
    saved_attrs = ("dim", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int, descending: bool) -> tuple:
        idx = _sorted_indices(a._data, dim, descending)
        values, indices = _Selecting._pick(ctx, a, dim, idx, True)
        # both in the input's memory order, as PyTorch lays them out
        indices._data = preserve_layout(indices._data, a._data)
        return preserve_layout(values, a._data), indices


class SortStable(Sort):
    """``sort(..., stable=...)``: PyTorch's other overload, same gradient"""

    node_name, saved = "SortBackward1", ("indices",)
    saved_attrs = ("dim", "self_sym_sizes")  # (each node class declares its own)


class Topk(_Selecting):
    """d topk(a, k).values = g put back where each value came from"""

    node_name, saved = "TopkBackward0", ("indices",)
    saved_attrs = ("dim", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Ctx, a: Any, k: int, dim: int, largest: bool) -> tuple:
        x = a._data
        n = x.shape[normalize_dims(dim, x.ndim)[0]] if x.ndim else 1
        if not 0 <= k <= n:
            raise RuntimeError("selected index k out of range")
        idx = _sorted_indices(x, dim, largest)
        if x.ndim:
            idx = np.take(idx, np.arange(k), axis=normalize_dims(dim, x.ndim)[0])
        return _Selecting._pick(ctx, a, dim, idx, True)


def _kth(x: np.ndarray, dim: int, position: Any, keepdim: bool) -> np.ndarray:
    """The index of the value at ``position`` (per slice) in ascending order."""
    if not x.ndim:
        return np.zeros((), np.int64)
    (d,) = normalize_dims(dim, x.ndim)
    return np.take_along_axis(order(x, d, False), position, d)


class Kthvalue(_Selecting):
    """d kthvalue(a, k).values = g put back where each value came from"""

    node_name, saved = "KthvalueBackward0", ("indices",)
    saved_attrs = ("dim", "keepdim", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Ctx, a: Any, k: int, dim: int, keepdim: bool) -> tuple:
        x = a._data
        (d,) = normalize_dims(dim, x.ndim)
        n = x.shape[d] if x.ndim else 1
        if not 1 <= k <= n:
            raise RuntimeError(
                f"kthvalue(): selected number k out of range for dimension {d}"
            )
        position = np.full(x.shape[:d] + (1,) + x.shape[d + 1 :], k - 1)
        return _Selecting._pick(ctx, a, dim, _kth(x, dim, position, True), keepdim)


class MedianDim(_Selecting):
    """d median(a, dim).values = g put back where each value came from"""

    node_name, saved = "MedianBackward1", ("indices",)
    saved_attrs = ("dim", "keepdim", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int, keepdim: bool) -> tuple:
        x = a._data
        (d,) = normalize_dims(dim, x.ndim)
        if x.ndim and x.shape[d] == 0:
            raise IndexError(
                f"median(): Expected reduction dim {d} to have non-zero size."
            )
        if x.ndim:  # the lower median; a slice with NaN gives its (first) NaN
            n = x.shape[d]
            nans = np.isnan(x).sum(axis=d, keepdims=True)
            position = np.where(nans > 0, n - nans, (n - 1) // 2)
        else:
            position = None
        return _Selecting._pick(ctx, a, dim, _kth(x, dim, position, True), keepdim)


def lower_median(x: np.ndarray) -> Any:
    """The median of all elements, the lower one of an even count; NaN if any."""
    flat = np.sort(x, axis=None)
    if flat.size == 0 or np.isnan(flat[-1]):
        return np.asarray(np.nan, x.dtype)
    return flat[(flat.size - 1) // 2]


class MedianAll(MaxAll):
    """d median(a) = g shared evenly by the elements equal to the median"""

    node_name, saved = "MedianBackward0", ("self", "result")

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        out = np.asarray(lower_median(a._data))
        ctx.save_for_backward(a, out)
        return out
