"""Ops that pick values by their order: max and min (over everything, along
a dim, or amax/amin over dims), argmax, sort, topk, kthvalue, median, and the
running cummax and cummin. Their
gradients put ``g`` back where each value came from
(``value_selecting_backward``), or spread it evenly over ties (amax, amin,
max and min over everything).

Classes (and the node each records):

    MaxAll      MaxBackward1
    MinAll      MinBackward1
    MaxDim      MaxBackward0
    MinDim      MinBackward0
    Amax        AmaxBackward0
    Amin        AminBackward0
    _Selecting  (base: values picked from the input, and their indices)
    Sort        SortBackward0
    SortStable  SortBackward1
    Topk        TopkBackward0
    Kthvalue    KthvalueBackward0
    MedianDim   MedianBackward1
    MedianAll   MedianBackward0
    Cummax      CummaxBackward0
    Cummin      CumminBackward0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from ._common import Ctx, Grad, Op, constant
from ._dims import (
    along_key,
    as_saved,
    normalize_dims,
    reduce_dims,
    restore_dims,
    return_type,
)
from ._layout import preserve_layout, row_major


class MaxAll(Op):
    """d max(a) = g shared evenly by the elements equal to the max"""

    node_name, saved = "MaxBackward1", ("self", "result")
    np_fn, op = staticmethod(np.max), "max"

    @classmethod
    def _forward(cls, ctx: Ctx, a: Any) -> Any:
        x = a._data
        if x.size == 0:
            raise RuntimeError(
                f"{cls.op}(): Expected reduction dim to be specified for input.numel()"
                " == 0. Specify the reduction dim with the 'dim' argument."
            )
        out = np.asarray(cls.np_fn(x))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        return MaxAll._forward(ctx, a)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        a, result = ctx.saved_tensors
        x, r = f.data(a), f.data(result)
        mask = np.isnan(x) if np.isnan(r) else x == r
        # PyTorch: zeros.masked_fill_(mask, grad / mask.sum())
        share = f.div_count(g, np.asarray(mask.sum()))
        return f.masked_fill_zeros(x.shape, mask, share)


class MinAll(MaxAll):
    """d min(a) = g shared evenly by the elements equal to the min"""

    node_name, saved = "MinBackward1", ("self", "result")
    np_fn, op = staticmethod(np.min), "min"

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        return MinAll._forward(ctx, a)


class MaxDim(Op):
    """d max(a, dim).values = g placed at the indices of the maxima"""

    node_name = "MaxBackward0"
    saved, saved_attrs = ("indices",), ("dim", "keepdim", "self_sym_sizes")
    arg_fn, op = staticmethod(np.argmax), "max"

    @classmethod
    def _forward(cls, ctx: Ctx, a: Any, dim: int, keepdim: bool) -> tuple:
        x = a._data
        (d,) = normalize_dims(dim, x.ndim)
        if x.ndim and x.shape[d] == 0:
            raise IndexError(
                f"{cls.op}(): Expected reduction dim {d} to have non-zero size."
            )
        ctx.dim, ctx.keepdim, ctx.self_sym_sizes = f.u64(dim), keepdim, x.shape
        ctx.d, ctx.dim_arg = d, dim
        if x.ndim == 0:
            idx = np.zeros((), np.int64)
        else:
            idx = np.expand_dims(cls.arg_fn(x, axis=d), d)
        values = np.take_along_axis(x, idx, d) if x.ndim else x.copy()
        if not keepdim and x.ndim:
            values, idx = values.squeeze(d), idx.squeeze(d)
        values = row_major(np.asarray(values))
        indices = constant(row_major(np.asarray(idx, np.int64)))
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return values, indices

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int, keepdim: bool) -> tuple:
        return MaxDim._forward(ctx, a, dim, keepdim)

    @staticmethod
    def backward(ctx: Ctx, g: Grad, _: Any) -> tuple:
        (indices,) = ctx.saved_tensors
        grad = value_selecting_backward(
            g, ctx.dim_arg, ctx.d, indices, ctx.self_sym_sizes, ctx.keepdim
        )
        return grad, None, None


def value_selecting_backward(
    g: Any, dim: int, d: int, indices: Any, sizes: tuple, keepdim: bool
) -> Any:
    """The gradient of an op that picks values at ``indices`` along ``dim`` (max,
    sort, topk, ...), as PyTorch's value_selecting_reduction_backward:
    ``zeros(sizes).scatter(dim, indices, g)``, with the reduced dim put back into
    g and indices first (``dim`` as the user gave it, ``d`` normalized)."""
    if not keepdim and sizes:
        g, indices = f.unsqueeze(g, dim), f.unsqueeze(indices, dim)
    idx = f.data(indices)
    key = along_key(idx.reshape(idx.shape or (1,)), d)
    return f.scatter_zeros(g, sizes, dim, indices, key)


class MinDim(MaxDim):
    """d min(a, dim).values = g placed at the indices of the minima"""

    node_name = "MinBackward0"
    saved, saved_attrs = ("indices",), ("dim", "keepdim", "self_sym_sizes")
    arg_fn, op = staticmethod(np.argmin), "min"

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int, keepdim: bool) -> tuple:
        return MinDim._forward(ctx, a, dim, keepdim)


class Amax(Op):
    """d amax(a, dim) = g shared evenly by the elements equal to their slice's max"""

    node_name, saved = "AmaxBackward0", ("self", "result")
    saved_attrs = ("dim", "keepdim")
    np_fn = staticmethod(np.amax)

    @classmethod
    def _forward(cls, ctx: Ctx, a: Any, dim: Any, keepdim: bool) -> Any:
        x = a._data
        dims = (
            reduce_dims(dim, x.ndim) if x.ndim else reduce_dims(dim, 0)[:0]
        )  # 0-d: check only
        ctx.dim, ctx.keepdim = (
            as_saved((dim,) if isinstance(dim, int) else dim),
            keepdim,
        )
        ctx.dims = dims if dim != () else tuple(range(x.ndim))
        out = row_major(np.asarray(cls.np_fn(x, axis=ctx.dims, keepdims=keepdim)))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: Any, keepdim: bool) -> Any:
        return Amax._forward(ctx, a, dim, keepdim)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, result = ctx.saved_tensors
        x = f.data(a)
        r = restore_dims(f.data(result), ctx.dims, x.ndim, ctx.keepdim)
        mask = x == r
        # PyTorch: (restore_reduced_dims(grad) / mask.sum(dims, True)) * mask,
        # where restoring the dims is a reshape (ViewBackward0)
        g = g if ctx.keepdim else f.reshape(g, r.shape)
        count = mask.sum(axis=ctx.dims, keepdims=True)
        return f.div_count(g, count) * f.constant(mask, g), None, None


class Amin(Amax):
    """d amin(a, dim) = g shared evenly by the elements equal to their slice's min"""

    node_name, saved = "AminBackward0", ("self", "result")
    saved_attrs = ("dim", "keepdim")
    np_fn = staticmethod(np.amin)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: Any, keepdim: bool) -> Any:
        return Amin._forward(ctx, a, dim, keepdim)


def argmax(a: Any, dim: Any, keepdim: bool, fn: Any = np.argmax) -> Any:
    """Indices of the maxima: integers, never part of a graph."""
    x = a._data
    if dim is None:
        out = fn(x, axis=None, keepdims=keepdim) if x.ndim else np.zeros((), int)
    else:
        (d,) = normalize_dims(dim, x.ndim)
        out = fn(x, axis=d, keepdims=keepdim) if x.ndim else np.zeros((), int)
    return constant(row_major(np.asarray(out, np.int64)))


SortResult, TopkResult = return_type("sort"), return_type("topk")
KthvalueResult, MedianResult = return_type("kthvalue"), return_type("median")
CummaxResult, CumminResult = return_type("cummax"), return_type("cummin")


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
        indices = constant(row_major(np.asarray(idx, np.int64)))
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return row_major(np.asarray(values)), indices

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


# ------------------------------------------------------------- cummax, cummin
def _running(ctx: Ctx, a: Any, dim: int, np_fn: Any, name: str) -> tuple:
    """The running extreme along ``dim`` and where it was last reached: a tie
    or a nan takes over the index, as in PyTorch's kernel (nan propagates)."""
    x = a._data
    if x.ndim == 0 and dim not in (0, -1):
        raise IndexError(
            f"{name}(): Expected reduction dim -1 or 0 for scalar but got {dim}"
        )
    (d,) = normalize_dims(dim, x.ndim)
    ctx.dim, ctx.d, ctx.dim_arg = f.u64(dim), d, dim
    if x.ndim == 0 or x.size == 0:
        values, idx = x.copy(), np.zeros(x.shape, np.int64)
    else:
        values = np_fn.accumulate(x, axis=d)
        reached = values == x
        if x.dtype.kind == "f":
            reached |= np.isnan(x)
        steps = np.arange(x.shape[d]).reshape(
            [-1 if i == d else 1 for i in range(x.ndim)]
        )
        idx = np.maximum.accumulate(np.where(reached, steps, 0), axis=d)
    indices = constant(np.asarray(idx, np.int64))
    ctx.mark_non_differentiable(indices)
    ctx.save_for_backward(a, indices)
    return np.asarray(values), indices


def _running_grad(ctx: Ctx, g: Grad) -> tuple:
    """``g`` added into zeros like the input at the indices (PyTorch's
    cummaxmin_backward: ``zeros.scatter_add_(dim, indices, g)``)."""
    a, indices = ctx.saved_tensors
    x, idx = f.data(a), f.data(indices)
    if x.size == 0 or x.ndim == 0:
        return g, None
    key = along_key(idx, ctx.d)
    # (along the dim as given: PyTorch's nodes save -1 for cummax(-1))
    return f.scatter_add_zeros(g, x.shape, ctx.dim_arg, indices, key), None


class Cummax(Op):
    """d cummax(a, dim).values = g added at the index of each running max"""

    node_name, saved = "CummaxBackward0", ("self", "indices")
    saved_attrs = ("dim",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int) -> tuple:
        return _running(ctx, a, dim, np.maximum, "cummax")

    @staticmethod
    def backward(ctx: Ctx, g: Grad, _: Any) -> tuple:
        return _running_grad(ctx, g)


class Cummin(Op):
    """d cummin(a, dim).values = g added at the index of each running min"""

    node_name, saved = "CumminBackward0", ("self", "indices")
    saved_attrs = ("dim",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int) -> tuple:
        return _running(ctx, a, dim, np.minimum, "cummin")

    @staticmethod
    def backward(ctx: Ctx, g: Grad, _: Any) -> tuple:
        return _running_grad(ctx, g)
