"""Indexing by tensors of indices: ``x[idx]`` and ``index_put``, gather,
scatter (plain, add, reduce), index_select, index_add, index_fill, take and
put (indices into the flattened tensor), and embedding. The indices are
constants: no gradient flows to them.

Classes (and the node each records):

    Embedding               EmbeddingBackward0
    EmbeddingDenseBackward  EmbeddingDenseBackwardBackward0
    Index                   IndexBackward0
    IndexPut                IndexPutBackward0
    IndexPutImpl            IndexPutImplBackward0
    Gather                  GatherBackward0
    Scatter                 ScatterBackward0
    ScatterValue            ScatterBackward1
    ScatterAdd              ScatterAddBackward0
    ScatterReduce           ScatterReduceBackward0
    IndexSelect             IndexSelectBackward0
    IndexAdd                IndexAddBackward0
    IndexFill               IndexFillBackward1
    IndexFillScalar         IndexFillBackward0
    Take                    TakeBackward0
    Put                     PutBackward0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from .._dtype import from_numpy_dtype
from ..node import register
from ._common import Ctx, Grad, Op, constant, dtype_name
from ._dims import along_key, normalize_dims
from ._layout import index_layout


# ---------------------------------------------------------------- embedding
class Embedding(Op):
    """d weight[indices] = g added into zeros like weight at the looked-up rows
    (not at padding_idx; divided by each row's count with scale_grad_by_freq)"""

    node_name, saved = "EmbeddingBackward0", ("indices",)
    saved_attrs = (
        "padding_idx",
        "scale_grad_by_freq",
        "sparse",
        "weight_sym_argsize_0",
    )

    @staticmethod
    def forward(
        ctx: Ctx, weight: Any, consts: tuple, padding_idx: int, by_freq: bool
    ) -> Any:
        (indices,) = consts
        w, idx = weight._data, indices._data
        if w.ndim != 2:
            raise RuntimeError("'weight' must be 2-D")
        if idx.dtype.kind not in "iu":
            raise RuntimeError(
                "Expected tensor for argument #1 'indices' to have one of the "
                "following scalar types: Long, Int; but got "
                f"minigrad.{from_numpy_dtype(idx.dtype)._legacy} instead (while "
                "checking arguments for embedding)"
            )
        if idx.size and (idx.min() < 0 or idx.max() >= w.shape[0]):
            raise IndexError("index out of range in self")
        ctx.padding_idx = f.u64(padding_idx)
        ctx.pad, ctx.scale_grad_by_freq, ctx.sparse = padding_idx, by_freq, False
        ctx.weight_sym_argsize_0 = w.shape[0]
        ctx.save_for_backward(indices)
        return np.take(w, idx, axis=0)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (indices,) = ctx.saved_tensors
        n, pad, by_freq = ctx.weight_sym_argsize_0, ctx.pad, ctx.scale_grad_by_freq
        return embedding_dense_backward(g, indices, n, pad, by_freq), None, None, None

    @staticmethod
    def fw_tangent(args: tuple, tangents: list) -> Any:
        """Forward mode: the looked-up rows of the weight's tangent (padding_idx
        and scale_grad_by_freq change only the backward, not the derivative)."""
        (indices,) = args[1]
        return tangents[0][indices]


def embedding_dense_backward(
    g: Any, indices: Any, n: int, pad: int, by_freq: bool
) -> Any:
    """embedding's gradient for its weight; on Tensors one node,
    EmbeddingDenseBackwardBackward0 (PyTorch's fused kernel)."""
    if not isinstance(g, f.ndarray):
        return EmbeddingDenseBackward.apply(g, (indices,), n, pad, by_freq)
    idx = f.data(indices).reshape(-1)
    rows = g.reshape(idx.size, -1)
    if by_freq:
        counts = np.bincount(idx, minlength=n)
        rows = rows / counts[idx, None].astype(g.dtype)
    if pad >= 0:
        rows = np.where((idx == pad)[:, None], 0, rows).astype(g.dtype, copy=False)
    out = np.zeros((n, rows.shape[1]), g.dtype)
    np.add.at(out, idx, rows)
    return out


class EmbeddingDenseBackward(Op):
    """d embedding_dense_backward(g) = gg[indices] (0 at padding_idx)"""

    node_name, saved = "EmbeddingDenseBackwardBackward0", ("indices",)
    saved_attrs = ("padding_idx",)

    @staticmethod
    def forward(
        ctx: Ctx, g: Any, consts: tuple, n: int, pad: int, by_freq: bool
    ) -> Any:
        (indices,) = consts
        ctx.padding_idx, ctx.pad = f.u64(pad), pad
        ctx.save_for_backward(indices)
        return embedding_dense_backward(g._data, indices._data, n, pad, by_freq)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        (indices,) = ctx.saved_tensors
        idx = f.data(indices)
        picked = f.index_select(gg, 0, 0, f.reshape(indices, (-1,)))
        if ctx.pad >= 0:  # (PyTorch leaves out scale_grad_by_freq here too)
            picked = f.masked_fill(picked, (idx == ctx.pad).reshape(-1, 1), 0)
        return f.reshape(picked, idx.shape + (-1,)), None, None, None, None


def index_tensors(key: Any) -> tuple:
    """An advanced-indexing key as PyTorch saves it: a tensor per indexed dim,
    None for a sliced one."""
    items = key if isinstance(key, tuple) else (key,)
    return tuple(
        None if isinstance(k, slice) else constant(np.asarray(k)) for k in items
    )


class Index(Op):
    """d a[indices] = g scattered (added) at those indices of zeros like a"""

    node_name, saved_attrs = "IndexBackward0", ("indices", "self_sym_sizes")
    saved_tensor_lists = ("indices",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, key: Any, indices: tuple) -> Any:
        ctx.key, ctx.indices, ctx.self_sym_sizes = key, indices, a._data.shape
        # the index tensors are saved, so backward frees them like any other
        ctx.save_for_backward(*[t for t in indices if t is not None])
        try:
            out = a._data[key]
        except IndexError as e:  # numpy says "axis" where PyTorch says "dimension"
            raise IndexError(str(e).replace(" axis ", " dimension ")) from None
        return index_layout(out, a._data, indices)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        ctx.saved_tensors  # noqa: B018 - raises if an earlier backward freed them
        return f.index_add(g, ctx.self_sym_sizes, ctx.key), None, None


class IndexPut(Op):
    """d index_put(a, key, v) = (g with the written places zeroed, g[key])"""

    node_name, saved_attrs = "IndexPutBackward0", ("accumulate", "indices")

    @staticmethod
    def forward(ctx: Ctx, a: Any, v: Any, key: Any, accumulate: bool) -> Any:
        if v._data.dtype != a._data.dtype and not v._wrapped_number:
            raise RuntimeError(
                "Index put requires the source and destination dtypes match, got "
                f"{dtype_name(a._data)} for the destination and "
                f"{dtype_name(v._data)} for the source."
            )
        out = np.array(a._data, copy=True)
        ctx.key, ctx.accumulate, ctx.vshape = key, accumulate, v._data.shape
        ctx.indices = index_tensors(key)
        try:
            if accumulate:
                np.add.at(out, key, v._data)
            else:
                out[key] = v._data
        except IndexError as e:  # numpy says "axis" where PyTorch says "dimension"
            raise IndexError(str(e).replace(" axis ", " dimension ")) from None
        except ValueError:
            raise RuntimeError(
                f"shape mismatch: value tensor of shape {list(v._data.shape)} cannot "
                f"be broadcast to indexing result of shape {list(a._data[key].shape)}"
            ) from None
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        ga = g
        if not ctx.accumulate:  # zeros written where the values went
            if isinstance(g, np.ndarray):
                ga = np.array(g, copy=True)
                ga[ctx.key] = 0
            else:  # as PyTorch's formula: g.index_put(indices, zeros_like(values))
                zeros = constant(np.zeros(ctx.vshape, f.data(g).dtype))
                ga = IndexPut.apply(g, zeros, ctx.key, False)
        gv = g[ctx.key]
        return ga, f.sum_to(gv, ctx.vshape), None, None


class IndexPutImpl(IndexPut):
    """``index_put_`` as PyTorch's formulas call it (``_index_put_impl_``): what
    the gradient of indexing records under create_graph"""

    node_name, saved_attrs = "IndexPutImplBackward0", ("accumulate", "indices")


class Gather(Op):
    """d a.gather(d, index) = g added into zeros like a at the gathered places"""

    node_name, saved = "GatherBackward0", ("self", "index")
    saved_attrs = ("dim", "sparse_grad")

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int, consts: tuple) -> Any:
        (index,) = consts
        x, idx = a._data, index._data
        (d,) = normalize_dims(dim, x.ndim)
        if idx.dtype not in (np.int64, np.int32):
            raise RuntimeError("gather(): Expected dtype int32/int64 for index")
        if max(idx.ndim, 1) != max(x.ndim, 1):
            raise RuntimeError(
                "Index tensor must have the same number of dimensions as input tensor"
            )
        xs, ids = x.reshape(x.shape or (1,)), idx.reshape(idx.shape or (1,))
        for i, (n, m) in enumerate(zip(xs.shape, ids.shape)):
            if i != d and m > n:
                raise RuntimeError(
                    f"Size does not match at dimension {i} expected index "
                    f"{list(idx.shape)} to be no larger than self {list(x.shape)} "
                    f"apart from dimension {d}"
                )
        bad = (ids < 0) | (ids >= xs.shape[d])
        if bad.any():
            raise RuntimeError(
                f"index {int(ids[bad][0])} is out of bounds for dimension {d} with "
                f"size {xs.shape[d]}"
            )
        ctx.dim, ctx.sparse_grad, ctx.d, ctx.dim_arg = f.u64(dim), False, d, dim
        ctx.save_for_backward(a, index)
        return xs[along_key(ids, d)].reshape(idx.shape)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, index = ctx.saved_tensors
        shape, idx = tuple(f.data(a).shape), f.data(index)
        key = along_key(idx.reshape(idx.shape or (1,)), ctx.d)
        # (along the dim as given: PyTorch's nodes save -1 for gather(-1, ...))
        return f.scatter_add_zeros(g, shape, ctx.dim_arg, index, key), None, None


def _scatter_target(x: np.ndarray, dim: int, index: Any, src: Any) -> tuple:
    """Check ``self.scatter(dim, index, src)`` (or scatter_add) as PyTorch does,
    in its words; returns the dim and the key of the written places."""
    idx = index._data
    (d,) = normalize_dims(dim, x.ndim)
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if src is not None and src._data.dtype != x.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if max(idx.ndim, 1) != max(x.ndim, 1):
        raise RuntimeError(
            "Index tensor must have the same number of dimensions as self tensor"
        )
    xs, ids = x.shape or (1,), idx.reshape(idx.shape or (1,))
    ss = (src._data.shape or (1,)) if src is not None else None
    for i, m in enumerate(ids.shape):
        if (i != d and m > xs[i]) or (ss is not None and m > ss[i]):
            also = (
                ""
                if src is None
                else f" and to be no larger size than src {list(src._data.shape)}"
            )
            raise RuntimeError(
                f"Expected index {list(idx.shape)} to be no larger than self "
                f"{list(x.shape)} apart from dimension {d}{also}"
            )
    bad = (ids < 0) | (ids >= xs[d])
    if bad.any():
        raise RuntimeError(
            f"index {int(ids[bad][0])} is out of bounds for dimension {d} with "
            f"size {xs[d]}"
        )
    return d, along_key(ids, d)


def _scatter(
    ctx: Ctx, a: Any, dim: int, consts: tuple, src: Any, value: Any, add: bool
) -> np.ndarray:
    """What the scatter ops share: checks, saved ``dim`` and ``index``, and a copy
    of ``a`` into which ``src`` (the part the index covers) or the number
    ``value`` is written (or added, for scatter_add)."""
    (index,) = consts
    x = a._data
    ctx.d, ctx.key = _scatter_target(x, dim, index, src)
    ctx.dim, ctx.dim_arg = f.u64(dim), dim
    # only src's gradient needs the index when scatter_add's self takes g as is
    keep = not add or ctx.needs_input_grad[3]
    ctx.save_for_backward(index if keep else None)
    out = np.array(x.reshape(x.shape or (1,)), copy=True)  # 0-d as 1-d
    if src is not None:
        value = _src_part(src, ctx.key[ctx.d].shape)
    if add:
        np.add.at(out, ctx.key, value)  # repeated indices add up
    else:
        out[ctx.key] = value
    return out.reshape(x.shape)


def _src_part(src: Any, index_shape: tuple) -> np.ndarray:
    """The part of ``src`` the index covers: its leading corner in every dim."""
    x = src._data.reshape(src._data.shape or (1,))
    return x[tuple(slice(0, n) for n in index_shape)]


class Scatter(Op):
    """d a.scatter(d, index, src) = (g with the written places zeroed,
    g gathered at index)"""

    node_name, saved, saved_attrs = "ScatterBackward0", ("index",), ("dim",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int, consts: tuple, src: Any) -> Any:
        return _scatter(ctx, a, dim, consts, src, None, False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (index,) = ctx.saved_tensors
        need_a, _, _, need_src = ctx.needs_input_grad
        # (along the dim as given, as Gather's)
        ga = f.scatter_value(g, ctx.dim_arg, index, ctx.key, 0) if need_a else None
        gs = f.gather(g, ctx.dim_arg, index, ctx.key) if need_src else None
        return ga, None, None, gs


class ScatterValue(Op):
    """d a.scatter(d, index, value) = g with the written places zeroed"""

    node_name, saved, saved_attrs = "ScatterBackward1", ("index",), ("dim",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int, consts: tuple, value: Any) -> Any:
        return _scatter(ctx, a, dim, consts, None, value, False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (index,) = ctx.saved_tensors
        return f.scatter_value(g, ctx.dim_arg, index, ctx.key, 0), None, None, None


class ScatterAdd(Op):
    """d a.scatter_add(d, index, src) = (g, g gathered at index)"""

    node_name, saved, saved_attrs = "ScatterAddBackward0", ("index",), ("dim",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int, consts: tuple, src: Any) -> Any:
        return _scatter(ctx, a, dim, consts, src, None, True)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (index,) = ctx.saved_tensors
        need_src = ctx.needs_input_grad[3]
        gs = f.gather(g, ctx.dim_arg, index, ctx.key) if need_src else None
        return g, None, None, gs


_REDUCE_AT = {"sum": np.add, "mean": np.add, "prod": np.multiply}
_REDUCE_AT.update(amax=np.maximum, amin=np.minimum)


def scatter_reduce_values(
    x: np.ndarray, key: tuple, src: np.ndarray, reduce: str, include_self: bool
) -> np.ndarray:
    """``x`` with ``src``'s values combined into it at ``key`` by ``reduce``
    (``include_self=False``: the places written start from the first value)."""
    ufunc = _REDUCE_AT[reduce]
    out = np.array(x.reshape(x.shape or (1,)), copy=True)
    if not include_self:  # start each written place from the reduction's identity
        start = {"prod": 1, "amax": -np.inf, "amin": np.inf}.get(reduce, 0)
        if out.dtype.kind != "f" and reduce in ("amax", "amin"):
            info = np.iinfo(out.dtype)
            start = info.min if reduce == "amax" else info.max
        out[key] = start
    ufunc.at(out, key, src)
    if reduce == "mean":
        count = np.full(out.shape, 1 if include_self else 0, out.dtype)
        np.add.at(count, key, 1)
        count[count == 0] = 1
        out = out // count if out.dtype.kind != "f" else out / count
    return out.reshape(x.shape)


class ScatterReduce(Op):
    """d a.scatter_reduce(d, index, src, reduce) = PyTorch's formulas: sum and
    mean pass g (divided by the counts), amax/amin share g among the places that
    hold the result, prod multiplies g by the product of the others"""

    node_name = "ScatterReduceBackward0"
    saved = ("self", "index", "src", "result")
    saved_attrs = ("dim", "include_self", "reduce")

    @staticmethod
    def forward(
        ctx: Ctx, a: Any, dim: int, consts: tuple, src: Any, reduce: str, incl: bool
    ) -> Any:
        kind = {"max": "amax", "min": "amin"}.get(reduce, reduce)  # (old names)
        if kind not in _REDUCE_AT:
            raise RuntimeError(
                "reduce argument must be either sum, prod, mean, amax or amin, got "
                f"{reduce}"
            )
        (index,) = consts
        ctx.d, ctx.key = _scatter_target(a._data, dim, index, src)
        ctx.dim, ctx.reduce, ctx.include_self = f.u64(dim), reduce, incl
        part = _src_part(src, ctx.key[ctx.d].shape)
        out = scatter_reduce_values(a._data, ctx.key, part, kind, incl)
        ctx.save_for_backward(a, index, src, out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, index, src, result = ctx.saved_tensors
        d, key, reduce = ctx.d, ctx.key, ctx.reduce
        if reduce not in _REDUCE_AT:  # "max"/"min" compute, but have no gradient
            raise RuntimeError(
                "Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' "
                f"but got {reduce}."
            )
        x, y, res = f.data(a), f.data(src), f.data(result)
        grad_self = grad_src = None
        if reduce == "sum":
            grad_self, grad_src = g, f.gather(g, d, index, key)
        elif reduce == "mean":
            count = np.full(x.shape, 1 if ctx.include_self else 0, x.dtype)
            np.add.at(count.reshape(x.shape or (1,)), key, 1)
            count[count == 0] = 1
            grad_self = g / f.constant(count, g)
            n_src = f.constant(_flat_at(count, key, y.shape), g)
            grad_src = f.gather(g, d, index, key) / n_src
        elif reduce in ("amax", "amin"):
            self_is = (x == res).astype(x.dtype)
            src_is = (y == _flat_at(res, key, y.shape)).astype(x.dtype)
            shares = np.array(self_is.reshape(x.shape or (1,)), copy=True)
            np.add.at(shares, key, src_is)
            spread = g / f.constant(shares.reshape(x.shape), g)
            grad_self = f.constant(self_is, g) * spread
            grad_src = f.constant(src_is, g) * f.gather(spread, d, index, key)
        else:  # prod: the product of the others, with PyTorch's care for zeros
            incl = ctx.include_self
            masked_self = f.masked_fill(a, x == 0, 1)
            others = _scatter_prod(masked_self, d, index, key, src, incl)
            grad_self = g * others / masked_self
            zero = y == 0
            counts = np.zeros(x.shape or (1,), x.dtype)
            np.add.at(counts, key, zero.astype(x.dtype))
            single = zero & (_flat_at(counts, key, y.shape) == 1)
            masked_src = f.masked_fill(src, single, 1)
            others = _scatter_prod(a, d, index, key, masked_src, incl)
            grad_src = f.where(
                single,
                f.gather(g * others, d, index, key),
                f.gather(g * result, d, index, key) / f.masked_fill(src, zero, 1),
            )
        if not ctx.include_self:  # the written places did not read self
            grad_self = f.scatter_value(grad_self, d, index, key, 0)
        needs = ctx.needs_input_grad
        return (
            grad_self if needs[0] else None,
            None,
            None,
            grad_src if needs[3] else None,
            None,
            None,
        )


def _flat_at(x: np.ndarray, key: tuple, shape: tuple) -> np.ndarray:
    """``x.gather(dim, index)`` on arrays: the values at ``key``."""
    return x.reshape(x.shape or (1,))[key].reshape(shape)


def _scatter_prod(x: Any, d: int, index: Any, key: tuple, src: Any, incl: bool) -> Any:
    """``x.scatter_reduce(d, index, src, "prod")`` of arrays or Tensors."""
    if isinstance(x, np.ndarray):
        y = f.data(src)
        part = y.reshape(y.shape or (1,))[tuple(slice(0, n) for n in key[d].shape)]
        return scatter_reduce_values(x, key, part, "prod", incl)
    return ScatterReduce.apply(x, d, (index,), src, "prod", incl)


class IndexSelect(Op):
    """d a.index_select(d, index) = zeros like a with g added at index"""

    node_name, saved = "IndexSelectBackward0", ("index",)
    saved_attrs = ("dim", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int, consts: tuple) -> Any:
        (index,) = consts
        x, idx = a._data, index._data
        if idx.ndim > 1:
            raise IndexError("index_select(): Index is supposed to be a vector")
        if idx.dtype not in (np.int64, np.int32):
            raise RuntimeError(
                "index_select(): Expected dtype int32 or int64 for index"
            )
        (d,) = normalize_dims(dim, x.ndim)
        idx = idx.reshape(-1)  # a 0-d index picks as a vector of one
        n = x.shape[d] if x.ndim else 1
        bad = (idx < 0) | (idx >= n)
        if bad.any():
            # PyTorch's CPU kernel words it by path: a vector's loop, a matrix
            # with no element (an empty dim is refused whatever the index), the
            # fast path of dim 1, and the general loop
            if x.ndim > 1 and x.size == 0 and n == 0:
                raise RuntimeError(
                    "index_select(): self indexing axis dim should be positive"
                )
            if x.ndim > 1 and (x.size == 0 or d == 1):
                raise RuntimeError(
                    f"INDICES element is out of DATA bounds, id={int(idx[bad][0])} "
                    f"axis_dim={n}"
                )
            raise IndexError("index out of range in self")
        ctx.dim, ctx.dim_arg, ctx.d, ctx.self_sym_sizes = f.u64(dim), dim, d, x.shape
        ctx.save_for_backward(index)
        return np.take(x, idx, axis=d) if x.ndim else x.copy()  # 0-d stays 0-d

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (index,) = ctx.saved_tensors
        shape = ctx.self_sym_sizes
        return f.index_add_zeros(g, shape, ctx.dim_arg, ctx.d, index), None, None


class IndexAdd(Op):
    """d a.index_add(d, index, s, alpha) = (g, alpha * g.index_select(d, index))"""

    node_name, saved = "IndexAddBackward0", ("index", "source")
    saved_attrs = ("alpha", "dim", "source_dim")

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int, consts: tuple, src: Any, alpha: Any) -> Any:
        (index,) = consts
        x, idx, v = a._data, index._data, src._data
        (d,) = normalize_dims(dim, x.ndim)
        if idx.ndim > 1:
            raise IndexError(
                "index_add_(): Index is supposed to be a vector, but got dim: "
                f"{idx.ndim} with type: {dtype_name(idx)} and size: {list(idx.shape)}"
            )
        if idx.dtype not in (np.int64, np.int32):
            raise RuntimeError(
                "index_add_(): Expected dtype int32/int64 for index but got: "
                f"{dtype_name(idx)}"
            )
        if v.dtype != x.dtype:
            raise RuntimeError(
                f"index_add_(): self ({dtype_name(x)}) and source "
                f"({dtype_name(v)}) must have the same scalar type"
            )
        count = v.shape[d] if v.ndim else 1
        if idx.size != count:
            raise RuntimeError(
                f"index_add_(): Number of indices ({idx.size}) should be equal to "
                f"source.size(dim): ({count}), for dim: {d}"
            )
        rest, src_rest = list(x.shape), list(v.shape)
        if x.ndim and v.ndim:  # the sizes apart from dim must agree
            del rest[d], src_rest[d]
        if rest != src_rest:
            raise RuntimeError(
                "source tensor shape must match self tensor shape, excluding the "
                f"specified dimension. Got self.shape = {list(x.shape)} "
                f"source.shape = {list(v.shape)}"
            )
        n = x.shape[d] if x.ndim else 1
        bad = (idx < 0) | (idx >= n)
        # a matrix with no element, or no index, is returned unchecked; PyTorch
        # words the rest by path: an int64 index along the first or last dim
        # goes through scatter_add, the others through a loop
        if bad.any() and (x.ndim <= 1 or x.size):
            if x.ndim > 1 and idx.dtype == np.int64 and d in (0, x.ndim - 1):
                raise RuntimeError(
                    f"index {int(idx[bad][0])} is out of bounds for dimension {d} "
                    f"with size {n}"
                )
            raise IndexError("index out of range in self")
        ctx.dim, ctx.dim_arg, ctx.d = f.u64(dim), dim, d
        ctx.alpha, ctx.source_dim = alpha, v.ndim
        ctx.save_for_backward(index, src if ctx.needs_input_grad[3] else None)
        out = np.array(x, copy=True)
        flat = out.reshape(x.shape or (1,))  # a view: 0-d as 1-d
        key = (slice(None),) * d + (idx.reshape(-1),)
        if x.size:  # (an empty matrix takes no index, even a wrong one)
            np.add.at(flat, key, v.reshape(flat[key].shape) * alpha)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        index, src = ctx.saved_tensors
        gs = None
        if ctx.needs_input_grad[3]:
            picked = f.index_select(g, ctx.dim_arg, ctx.d, index)
            gs = (
                f.expand(picked, tuple(f.data(src).shape))
                if ctx.source_dim
                else (f.reshape(picked, ()))
            )
            gs = gs if ctx.alpha == 1 else f.scale(gs, ctx.alpha)
        return g, None, None, gs, None


class IndexFill(Op):
    """d a.index_fill(d, index, v) = (g with the filled places zeroed,
    sum of g at them for a tensor v)"""

    node_name, saved = "IndexFillBackward1", ("index",)
    saved_attrs = ("dim",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int, consts: tuple, value: Any) -> Any:
        (index,) = consts
        x, idx = a._data, index._data
        v = value._data if hasattr(value, "_data") else value
        if np.ndim(v):
            raise RuntimeError(
                "index_fill_ only supports a 0-dimensional value tensor, but got "
                f"tensor with {np.ndim(v)} dimension(s)."
            )
        (d,) = normalize_dims(dim, x.ndim)
        ctx.dim, ctx.dim_arg, ctx.d = f.u64(dim), dim, d
        ctx.save_for_backward(index)
        out = np.array(x, copy=True)
        key = (slice(None),) * d + (idx.reshape(-1),)
        out.reshape(x.shape or (1,))[key] = v
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (index,) = ctx.saved_tensors
        need_a, need_v = ctx.needs_input_grad[0], ctx.needs_input_grad[3]
        idx = f.data(index).reshape(-1)
        ga = gv = None
        if need_a:
            ga = f.index_fill(g, ctx.dim_arg, ctx.d, idx, 0.0)
        if need_v:
            gv = f.index_select(g, ctx.d, ctx.d, index).sum()
        return ga, None, None, gv


class IndexFillScalar(IndexFill):
    """d a.index_fill(d, index, number) = g with the filled places zeroed"""

    node_name, saved = "IndexFillBackward0", ("index",)
    saved_attrs = ("dim",)


# what the core and _formula's helpers record (they import no op family):
# AccumulateGrad's first .grad under create_graph is a recorded copy
register(
    IndexPutImpl=IndexPutImpl.apply,
)


# ------------------------------------------------------------------ take, put
def _flat_index(x: np.ndarray, idx: np.ndarray, fn: str) -> np.ndarray:
    """``idx`` as positions in ``x`` flattened (row-major), checked as PyTorch
    checks them (negative indices count from the end)."""
    if idx.dtype != np.int64:
        raise RuntimeError(
            f"{fn}(): Expected a long tensor for index, but got {dtype_name(idx)}"
        )
    if fn == "take" and x.size == 0 and idx.size:
        raise IndexError("take(): tried to take from an empty tensor")
    bad = (idx < -x.size) | (idx >= x.size)
    if bad.any():
        raise IndexError(
            f"out of range: tried to access index {int(idx[bad].flat[0])} on a "
            f"tensor of {x.size} elements."
        )
    return idx.reshape(-1) % max(x.size, 1)


def _put_values(x: np.ndarray, idx: np.ndarray, src: np.ndarray, add: bool) -> Any:
    """A copy of ``x`` with ``src`` written (or added) at the flat ``idx``."""
    out = np.array(x, order="C", copy=True)
    flat = out.reshape(-1)  # a view of the fresh row-major copy
    if add:
        np.add.at(flat, idx, src.reshape(-1))
    else:
        flat[idx] = src.reshape(-1)
    return out


def _tensor(x: Any) -> Any:
    return constant(x) if isinstance(x, f.ndarray) else x


def _take(x: Any, index: Any) -> Any:
    """``x.take(index)`` (TakeBackward0 on Tensors)."""
    if isinstance(x, f.ndarray):
        idx = f.data(index)
        return x.reshape(-1)[idx.reshape(-1) % max(x.size, 1)].reshape(idx.shape)
    return Take.apply(x, (_tensor(index),))


def _put(x: Any, index: Any, src: Any, add: bool) -> Any:
    """``x.put(index, src, add)`` (PutBackward0 when either is a Tensor)."""
    if isinstance(x, f.ndarray) and isinstance(src, f.ndarray):
        flat = f.data(index).reshape(-1) % max(x.size, 1)
        return _put_values(x, flat, src, add)
    return Put.apply(_tensor(x), (_tensor(index),), _tensor(src), add)


class Take(Op):
    """d a.take(index) = zeros like a with g added at index (a put, accumulating)"""

    node_name, saved = "TakeBackward0", ("self", "index")

    @staticmethod
    def forward(ctx: Ctx, a: Any, consts: tuple) -> Any:
        (index,) = consts
        x, idx = a._data, index._data
        flat = _flat_index(x, idx, "take")
        ctx.save_for_backward(a, index)
        return np.array(x.reshape(-1)[flat].reshape(idx.shape))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, index = ctx.saved_tensors
        x = f.data(a)
        return _put(np.zeros(x.shape, x.dtype), index, g, True), None


class Put(Op):
    """d a.put(index, s, accumulate) = (g, 0 at index unless accumulating;
    g.take(index) shaped like s)"""

    node_name, saved = "PutBackward0", ("index", "source")
    saved_attrs = ("accumulate",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, consts: tuple, source: Any, accumulate: bool) -> Any:
        (index,) = consts
        x, idx, src = a._data, index._data, source._data
        if idx.dtype == np.int64 and x.dtype != src.dtype:
            raise RuntimeError(
                "put_(): self and source expected to have the same dtype, but got "
                f"self.dtype = {dtype_name(x)} and source.dtype = {dtype_name(src)}"
            )
        if idx.size != src.size:
            raise IndexError(
                "put_(): Expected source and index to have the same number of "
                f"elements, but got source.numel() = {src.size}, index.numel() = "
                f"{idx.size}"
            )
        flat = _flat_index(x, idx, "put_")
        ctx.accumulate = accumulate
        ctx.save_for_backward(index, source)
        return _put_values(x, flat, src, accumulate)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        index, source = ctx.saved_tensors
        need_a, _, need_s, _ = ctx.needs_input_grad
        ga = gs = None
        if need_a:
            ga = g
            if not ctx.accumulate:
                ga = _put(g, index, np.zeros_like(f.data(source)), False)
        if need_s:
            gs = f.reshape(_take(g, index), tuple(f.data(source).shape))
        return ga, None, gs, None
