"""Shape and indexing ops. Most are views: they share data (and the version
counter) with their input; ``Tensor._view`` records how to re-derive them."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from .._dtype import from_numpy_dtype, result_type
from ..function import BackwardCFunction
from ..node import register
from ._common import Ctx, Grad, Op, _Qualified, constant, stride_order
from .reduction import along_key, checked_dims, normalize_dims, reduce_dims


def view_shape(shape: Any, numel: int) -> tuple[int, ...]:
    """Resolve one ``-1`` in a requested shape, with PyTorch's error."""
    shape = tuple(int(s) for s in shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if -1 in shape:
        known = int(np.prod([s for s in shape if s != -1]))
        if known == 0 or numel % known:
            raise RuntimeError(
                f"shape '{list(shape)}' is invalid for input of size {numel}"
            )
        shape = tuple(numel // known if s == -1 else s for s in shape)
    if int(np.prod(shape)) != numel:
        raise RuntimeError(
            f"shape '{list(shape)}' is invalid for input of size {numel}"
        )
    return shape


class View(Op):
    """d view(a, shape) = g viewed back to a's shape"""

    node_name, saved_attrs = "ViewBackward0", ("self_sym_sizes",)

    @staticmethod
    def view_fn(x: np.ndarray, shape: tuple) -> np.ndarray:
        return x.reshape(shape)

    @staticmethod
    def forward(ctx: Ctx, a: Any, shape: tuple) -> Any:
        ctx.self_sym_sizes = a._data.shape
        out = a._data.reshape(shape)
        if out.size and not np.shares_memory(out, a._data):
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at "
                "least one dimension spans across two contiguous subspaces). Use "
                ".reshape(...) instead."
            )
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.reshape(g, ctx.self_sym_sizes), None


class ReshapeAlias(View):
    """d reshape(a) = g reshaped back (a non-contiguous tensor that reshapes
    without a copy: PyTorch's ``_reshape_alias``)"""

    node_name, saved_attrs = "ReshapeAliasBackward0", ("self_sym_sizes",)


class UnsafeView(Op):
    """d reshape(copy) = g reshaped back"""

    node_name, saved_attrs = "UnsafeViewBackward0", ("self_sym_sizes",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, shape: tuple) -> Any:
        ctx.self_sym_sizes = a._data.shape
        return a._data.reshape(shape)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.reshape(g, ctx.self_sym_sizes), None


class Clone(Op):
    """d clone(a) = g"""

    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx: Ctx, a: Any, order: str = "K") -> Any:
        # "K" keeps the strides (PyTorch's preserve_format); contiguous() asks "C"
        x = a._data
        if order == "K" and any(st == 0 and n > 1 for st, n in zip(x.strides, x.shape)):
            return dense_like(x)  # an expanded tensor: numpy's "K" differs here
        return np.array(x, copy=True, order=order)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return g, None


def dense_like(x: np.ndarray) -> np.ndarray:
    """A copy laid out as PyTorch lays out a clone of an overlapping tensor:
    dims ordered by stride (fastest first), 0-stride dims left where they are
    (c10's infer_dense_strides)."""
    ndim, sizes = x.ndim, x.shape
    perm = stride_order([x.strides], sizes)  # perm[0]: the fastest dim
    out_strides = [0] * ndim
    step = 1
    for d in perm:
        out_strides[d] = step * x.itemsize
        step *= max(sizes[d], 1) if sizes[d] > 1 else 1
    buffer = np.empty(max(step, 1), x.dtype)
    out = np.lib.stride_tricks.as_strided(buffer, sizes, out_strides)
    out[...] = x
    return out


class ToCopy(Op):
    """d a.to(dtype) = g (cast back to a's dtype by the engine)"""

    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx: Ctx, a: Any, np_dtype: Any) -> Any:
        return a._data.astype(np_dtype)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return g, None


class Alias(Op):
    """d a[...] = g"""

    node_name = "AliasBackward0"

    @staticmethod
    def view_fn(x: np.ndarray) -> np.ndarray:
        return x.view()

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        return a._data.view()

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        return g


class T(Op):
    """d a.t() = g.t()"""

    node_name = "TBackward0"

    @staticmethod
    def view_fn(x: np.ndarray) -> np.ndarray:
        return x.T

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        if a._data.ndim > 2:
            raise RuntimeError(
                f"t() expects a tensor with <= 2 dimensions, but self is "
                f"{a._data.ndim}D"
            )
        return a._data.T

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        return f.mT(g) if g.ndim == 2 else g


class Transpose(Op):
    """d a.transpose(i, j) = g.transpose(i, j)"""

    node_name, saved_attrs = "TransposeBackward0", ("dim0", "dim1")

    @staticmethod
    def view_fn(x: np.ndarray, d0: int, d1: int) -> np.ndarray:
        return np.swapaxes(x, d0, d1) if x.ndim else x.view()

    @staticmethod
    def forward(ctx: Ctx, a: Any, d0: int, d1: int) -> Any:
        ctx.dim0, ctx.dim1 = f.u64(d0), f.u64(d1)
        ctx.dims = (d0, d1)
        return Transpose.view_fn(a._data, d0, d1)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return (f.transpose(g, *ctx.dims) if g.ndim else g), None, None


class TransposeInplace(Transpose):
    """d a.transpose_(i, j) = g.transpose(i, j)"""

    node_name, saved_attrs = "TransposeBackward1", ("dim0", "dim1")


class TInplace(T):
    """d a.t_() = g.t()"""

    node_name = "TBackward1"


class Permute(Op):
    """d a.permute(p) = g.permute(p⁻¹)"""

    node_name, saved_attrs = "PermuteBackward0", ("dims",)

    @staticmethod
    def view_fn(x: np.ndarray, dims: tuple) -> np.ndarray:
        return np.transpose(x, dims)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dims: tuple) -> Any:
        ctx.dims = tuple(f.u64(d) for d in dims)
        ctx.inverse = tuple(
            int(i) for i in np.argsort([d % a._data.ndim for d in dims])
        )
        return np.transpose(a._data, dims)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.permute(g, ctx.inverse), None


class Expand(Op):
    """d a.expand(shape) = g summed back to a's shape"""

    node_name, saved_attrs = "ExpandBackward0", ("self_sym_sizes",)

    @staticmethod
    def view_fn(x: np.ndarray, shape: tuple) -> np.ndarray:
        return f.broadcast_view(x, shape)

    @staticmethod
    def forward(ctx: Ctx, a: Any, shape: tuple) -> Any:
        ctx.self_sym_sizes = a._data.shape
        return Expand.view_fn(a._data, shape)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.sum_to(g, ctx.self_sym_sizes), None


class Unsqueeze(Op):
    """d a.unsqueeze(d) = g.squeeze(d)"""

    node_name, saved_attrs = "UnsqueezeBackward0", ("dim",)

    @staticmethod
    def view_fn(x: np.ndarray, dim: int) -> np.ndarray:
        # PyTorch's stride for the new dim (it decides the layout of later
        # results): the next dim's extent, or one element at the end
        d = dim % (x.ndim + 1)
        step = x.itemsize if d == x.ndim else x.shape[d] * x.strides[d]
        return np.lib.stride_tricks.as_strided(
            x,
            x.shape[:d] + (1,) + x.shape[d:],
            x.strides[:d] + (step,) + x.strides[d:],
            writeable=x.flags.writeable,
        )

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int) -> Any:
        # the node keeps the dim as given (negative ones as PyTorch's uint64)
        out = Unsqueeze.view_fn(a._data, dim)
        ctx.dim, ctx.axis = f.u64(dim), dim % out.ndim
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.squeeze_dim(g, ctx.axis), None


class Squeeze(Op):
    """d a.squeeze() = g reshaped back"""

    node_name, saved_attrs = "SqueezeBackward0", ("self_sym_sizes",)

    @staticmethod
    def view_fn(x: np.ndarray) -> np.ndarray:
        return x.reshape(tuple(n for n in x.shape if n != 1))

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.self_sym_sizes = a._data.shape
        return Squeeze.view_fn(a._data)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        return f.reshape(g, ctx.self_sym_sizes)


class SqueezeDim(Op):
    """d a.squeeze(d) = g reshaped back"""

    node_name, saved_attrs = "SqueezeBackward1", ("dim", "self_sym_sizes")

    @staticmethod
    def view_fn(x: np.ndarray, dim: int) -> np.ndarray:
        return np.squeeze(x, dim) if x.ndim and x.shape[dim] == 1 else x.view()

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int) -> Any:
        ctx.dim, ctx.self_sym_sizes = f.u64(dim), a._data.shape
        return SqueezeDim.view_fn(a._data, dim)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.reshape(g, ctx.self_sym_sizes), None


class SqueezeDimInplace(SqueezeDim):
    """``squeeze_(d)``: what ``v @ M`` uses to drop the row it added."""

    node_name, saved_attrs = "SqueezeBackward4", SqueezeDim.saved_attrs


class Select(Op):
    """d a.select(d, i) = g placed at index i of zeros like a"""

    node_name, saved_attrs = "SelectBackward0", ("dim", "index", "self_sym_sizes")

    @staticmethod
    def key(ndim: int, dim: int, index: int) -> tuple:
        # the trailing ... keeps numpy returning a view even for a single element
        return (slice(None),) * (dim % ndim) + (index, Ellipsis)

    @staticmethod
    def view_fn(x: np.ndarray, dim: int, index: int) -> np.ndarray:
        return x[Select.key(x.ndim, dim, index)]

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int, index: int) -> Any:
        x = a._data
        if x.ndim == 0:
            raise IndexError(
                "invalid index of a 0-dim tensor. Use `tensor.item()` "
                "in Python or `tensor.item<T>()` in C++ to convert a "
                "0-dim tensor to a number"
            )
        size = x.shape[dim]
        if not -size <= index < size:
            raise IndexError(
                f"index {index} is out of bounds for dimension {dim} with size {size}"
            )
        ctx.dim, ctx.index, ctx.self_sym_sizes = f.u64(dim), f.u64(index), x.shape
        ctx.args = dim, index
        return x[Select.key(x.ndim, dim, index)]

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return select_backward(g, ctx.self_sym_sizes, *ctx.args), None, None


def _into_zeros(g: np.ndarray, shape: tuple, key: tuple) -> np.ndarray:
    """``g`` written at the basic-index ``key`` of zeros of ``shape``."""
    out = np.zeros(shape, g.dtype)
    out[key] = g
    return out


def select_backward(g: Any, sizes: tuple, dim: int, index: int) -> Any:
    """select's gradient: ``g`` at ``index`` along ``dim`` of zeros. On Tensors
    one node, SelectBackwardBackward0 (PyTorch's fused kernel)."""
    if isinstance(g, f.ndarray):
        return _into_zeros(g, sizes, Select.key(len(sizes), dim, index))
    return SelectBackward.apply(g, sizes, dim, index)


class SelectBackward(Op):
    """d select_backward(g) = gg.select(dim, index)"""

    node_name, saved_attrs = "SelectBackwardBackward0", ("dim", "index")

    @staticmethod
    def forward(ctx: Ctx, g: Any, sizes: tuple, dim: int, index: int) -> Any:
        ctx.dim, ctx.index, ctx.args = f.u64(dim), f.u64(index), (dim, index)
        return select_backward(g._data, sizes, dim, index)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        dim, index = ctx.args
        if isinstance(gg, f.ndarray):
            return gg[Select.key(gg.ndim, dim, index)], None, None, None
        return gg.select(dim, index), None, None, None


class Slice(Op):
    """d a[start:end:step] along d = g placed in that slice of zeros like a"""

    node_name = "SliceBackward0"
    saved_attrs = ("dim", "start", "end", "step", "self_sym_sizes")

    @staticmethod
    def view_fn(x: np.ndarray, dim: int, s: slice) -> np.ndarray:
        return x[(slice(None),) * dim + (s,)]

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int, s: slice) -> Any:
        x = a._data
        if s.step is not None and s.step <= 0:
            raise ValueError("step must be greater than zero")
        ctx.dim, ctx.self_sym_sizes = dim, x.shape
        ctx.start = f.u64(0 if s.start is None else s.start)
        ctx.end = 9223372036854775807 if s.stop is None else f.u64(s.stop)
        ctx.step = 1 if s.step is None else s.step
        ctx.key = (slice(None),) * dim + (s,)
        return x[ctx.key]

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return slice_backward(g, ctx.self_sym_sizes, ctx), None, None


def slice_backward(g: Any, sizes: tuple, sliced: Any) -> Any:
    """slice's gradient: ``g`` in that slice of zeros (``sliced``: the slice's
    node, whose dim/start/end/step and key it reads). On Tensors one node,
    SliceBackwardBackward0 (PyTorch's fused kernel)."""
    if isinstance(g, f.ndarray):
        return _into_zeros(g, sizes, sliced.key)
    return SliceBackward.apply(g, sizes, sliced)


class SliceBackward(Op):
    """d slice_backward(g) = gg[the slice]"""

    node_name = "SliceBackwardBackward0"
    saved_attrs = ("dim", "start", "end", "step")

    @staticmethod
    def forward(ctx: Ctx, g: Any, sizes: tuple, sliced: Any) -> Any:
        ctx.dim, ctx.start, ctx.end, ctx.step = (
            sliced.dim,
            sliced.start,
            sliced.end,
            sliced.step,
        )
        ctx.key = sliced.key
        return slice_backward(g._data, sizes, ctx)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        return gg[ctx.key], None, None


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
            return np.array(a._data[key])
        except IndexError as e:  # numpy says "axis" where PyTorch says "dimension"
            raise IndexError(str(e).replace(" axis ", " dimension ")) from None

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
                f"{_scalar_name(a._data)} for the destination and "
                f"{_scalar_name(v._data)} for the source."
            )
        out = np.array(a._data, copy=True)
        ctx.key, ctx.accumulate, ctx.vshape = key, accumulate, v._data.shape
        ctx.indices = index_tensors(key)
        if accumulate:
            np.add.at(out, key, v._data)
        else:
            out[key] = v._data
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        ga = g
        if not ctx.accumulate:
            mask = np.ones(g.shape, bool)
            mask[ctx.key] = False
            ga = g * (mask if isinstance(g, np.ndarray) else type(g)._make(mask, False))
        gv = g[ctx.key]
        return ga, f.sum_to(gv, ctx.vshape), None, None


class IndexPutImpl(IndexPut):
    """``index_put_`` as PyTorch's formulas call it (``_index_put_impl_``): what
    the gradient of indexing records under create_graph"""

    node_name, saved_attrs = "IndexPutImplBackward0", ("accumulate", "indices")


class Narrow(Slice):
    """d a.narrow(d, start, length) = g placed in that slice of zeros like a (a
    slice that keeps ``dim`` as given)"""

    node_name = "SliceBackward0"
    saved_attrs = ("dim", "start", "end", "step", "self_sym_sizes")

    @staticmethod
    def view_fn(x: np.ndarray, dim: int, s: slice) -> np.ndarray:
        return Slice.view_fn(x, dim % x.ndim, s)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int, s: slice) -> Any:
        out = Slice.forward(ctx, a, dim % a._data.ndim, s)
        ctx.dim = f.u64(dim)
        return out


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
        ctx.dim, ctx.sparse_grad, ctx.d = f.u64(dim), False, d
        ctx.save_for_backward(a, index)
        return xs[along_key(ids, d)].reshape(idx.shape)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, index = ctx.saved_tensors
        shape, idx = tuple(f.data(a).shape), f.data(index)
        key = along_key(idx.reshape(idx.shape or (1,)), ctx.d)
        return f.scatter_add_zeros(g, shape, ctx.d, index, key), None, None


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
    ctx.dim = f.u64(dim)
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
        ga = f.scatter_value(g, ctx.d, index, ctx.key, 0) if need_a else None
        gs = f.gather(g, ctx.d, index, ctx.key) if need_src else None
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
        return f.scatter_value(g, ctx.d, index, ctx.key, 0), None, None, None


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
        gs = f.gather(g, ctx.d, index, ctx.key) if need_src else None
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


class Flip(Op):
    """d flip(a, dims) = g flipped back along the same dims"""

    node_name, saved_attrs = "FlipBackward0", ("dims",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dims: tuple) -> Any:
        x = a._data
        ctx.dims = tuple(f.u64(d) for d in dims)
        ctx.axes = checked_dims(reduce_dims, dims, x.ndim)
        # a copy (not a view) in the input's memory order, as in PyTorch
        return np.flip(x, ctx.axes).copy(order="K")

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.flip(g, ctx.axes), None


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
        n = x.shape[d] if x.ndim else 1
        bad = (idx < 0) | (idx >= n)
        if bad.any():
            raise RuntimeError(
                f"INDICES element is out of DATA bounds, id={int(idx[bad][0])} "
                f"axis_dim={n}"
            )
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
        if v.dtype != x.dtype:
            raise RuntimeError(
                f"index_add_(): self ({_scalar_name(x)}) and source "
                f"({_scalar_name(v)}) must have the same scalar type"
            )
        count = v.shape[d] if v.ndim else 1
        if idx.size != count:
            raise RuntimeError(
                f"index_add_(): Number of indices ({idx.size}) should be equal to "
                f"source.size(dim): ({count}), for dim: {d}"
            )
        n = x.shape[d] if x.ndim else 1
        bad = (idx < 0) | (idx >= n)
        if bad.any():
            raise RuntimeError(
                f"index {int(idx[bad][0])} is out of bounds for dimension {d} "
                f"with size {n}"
            )
        ctx.dim, ctx.dim_arg, ctx.d = f.u64(dim), dim, d
        ctx.alpha, ctx.source_dim = alpha, v.ndim
        ctx.save_for_backward(index, src if ctx.needs_input_grad[3] else None)
        out = np.array(x, copy=True)
        flat = out.reshape(x.shape or (1,))  # a view: 0-d as 1-d
        key = (slice(None),) * d + (idx.reshape(-1),)
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


def _scalar_name(x: np.ndarray) -> str:
    """``Float``, ``Double``...: PyTorch's name of the dtype in messages."""
    return from_numpy_dtype(x.dtype)._scalar_type


class Tril(Op):
    """d tril(a, k) = tril(g, k)"""

    node_name, saved_attrs = "TrilBackward0", ("diagonal",)
    np_fn = staticmethod(np.tril)

    @staticmethod
    def forward(ctx: Ctx, a: Any, diagonal: int) -> Any:
        x = a._data
        name = ctx.name()[:4].lower()
        if x.ndim < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        ctx.diagonal, ctx.k = f.u64(diagonal), diagonal
        return np.ascontiguousarray(ctx._forward_cls.np_fn(x, diagonal))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.triangle(g, ctx._forward_cls.np_fn, ctx.k), None


class Triu(Tril):
    """d triu(a, k) = triu(g, k)"""

    node_name, saved_attrs = "TriuBackward0", ("diagonal",)
    np_fn = staticmethod(np.triu)


class Roll(Op):
    """d roll(a, shifts, dims) = roll(g, -shifts, dims)"""

    node_name, saved_attrs = "RollBackward0", ("dims", "shifts")

    @staticmethod
    def forward(ctx: Ctx, a: Any, shifts: tuple, dims: tuple) -> Any:
        x = a._data
        if len(shifts) != len(dims) and (dims or len(shifts) != 1):
            raise RuntimeError(
                f"shifts and dimensions must align. shifts: {len(shifts)}, "
                f"dims:{len(dims)}"
            )
        ctx.shifts = tuple(f.u64(s) for s in shifts)
        ctx.dims = tuple(f.u64(d) for d in dims)
        ctx.shift_args, ctx.dim_args = shifts, dims
        axes = normalize_dims(dims, x.ndim) if dims else None
        out = np.roll(x, shifts if dims else shifts[0], axes)
        return np.asarray(out, order="C")  # PyTorch's result is row-major

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        # PyTorch rolls back over the dims in reverse order
        back = tuple(-s for s in reversed(ctx.shift_args))
        return f.roll(g, back, tuple(reversed(ctx.dim_args))), None, None


def diagonal_view(x: np.ndarray, offset: int, d1: int, d2: int) -> np.ndarray:
    """The diagonal of dims ``d1``, ``d2`` as a writable view, moved to the end
    (numpy's own ``np.diagonal`` view is read-only, and in-place ops must be able
    to write through it)."""
    n1, n2 = x.shape[d1], x.shape[d2]
    if offset >= 0:
        length, start = max(0, min(n1, n2 - offset)), (d2, offset)
    else:
        length, start = max(0, min(n1 + offset, n2)), (d1, -offset)
    key = [slice(None)] * x.ndim
    if length:
        key[start[0]] = slice(start[1], None)
    first = x[tuple(key)]
    other = [i for i in range(x.ndim) if i not in (d1, d2)]
    shape = tuple(x.shape[i] for i in other) + (length,)
    strides = tuple(x.strides[i] for i in other) + (x.strides[d1] + x.strides[d2],)
    return np.lib.stride_tricks.as_strided(first, shape, strides)


def _diagonal_dims(x: np.ndarray, offset: int, dim1: int, dim2: int) -> tuple:
    d1, d2 = normalize_dims((dim1, dim2), x.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


class Diagonal(Op):
    """d a.diagonal(k, d1, d2) = g on the k-th diagonal of zeros like a (a view)"""

    node_name = "DiagonalBackward0"
    saved_attrs = ("dim1", "dim2", "offset", "self_sym_sizes")

    @staticmethod
    def view_fn(x: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
        return diagonal_view(x, offset, *_diagonal_dims(x, offset, dim1, dim2))

    @staticmethod
    def forward(ctx: Ctx, a: Any, offset: int, dim1: int, dim2: int) -> Any:
        x = a._data
        ctx.args = offset, dim1, dim2
        ctx.offset, ctx.dim1, ctx.dim2 = f.u64(offset), f.u64(dim1), f.u64(dim2)
        ctx.self_sym_sizes = x.shape
        return ctx._forward_cls.view_fn(x, offset, dim1, dim2)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return diagonal_backward(g, ctx.self_sym_sizes, *ctx.args), None, None, None


class DiagonalCopy(Diagonal):
    """``diag`` of a matrix: the diagonal as a copy, not a view"""

    node_name = "DiagonalBackward0_copy"
    saved_attrs = ("dim1", "dim2", "offset", "self_sym_sizes")

    @staticmethod
    def view_fn(x: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
        return Diagonal.view_fn(x, offset, dim1, dim2).copy()


def diagonal_backward(g: Any, sizes: tuple, offset: int, dim1: int, dim2: int) -> Any:
    """``g`` on the diagonal of zeros of ``sizes``; on Tensors one node,
    DiagonalBackwardBackward0 (PyTorch's fused kernel)."""
    if not isinstance(g, f.ndarray):
        return DiagonalBackward.apply(g, sizes, offset, dim1, dim2)
    out = np.zeros(sizes, g.dtype)
    Diagonal.view_fn(out, offset, dim1, dim2)[...] = g
    return out


class DiagonalBackward(Op):
    """d diagonal_backward(g) = gg.diagonal(k, d1, d2)"""

    node_name, saved_attrs = "DiagonalBackwardBackward0", ("dim1", "dim2", "offset")

    @staticmethod
    def forward(
        ctx: Ctx, g: Any, sizes: tuple, offset: int, dim1: int, dim2: int
    ) -> Any:
        ctx.args = offset, dim1, dim2
        ctx.offset, ctx.dim1, ctx.dim2 = f.u64(offset), f.u64(dim1), f.u64(dim2)
        return diagonal_backward(g._data, sizes, offset, dim1, dim2)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        return f.diagonal(gg, *ctx.args), None, None, None, None


class DiagEmbed(Op):
    """d diag_embed(a, k, d1, d2) = g.diagonal(k, d1, d2)"""

    node_name, saved_attrs = "DiagEmbedBackward0", ("dim1", "dim2", "offset")

    @staticmethod
    def forward(ctx: Ctx, a: Any, offset: int, dim1: int, dim2: int) -> Any:
        x = a._data
        n = x.shape[-1] + abs(offset) if x.ndim else 1 + abs(offset)
        shape = x.shape[:-1] + (n, n)
        ctx.args = offset, dim1, dim2
        ctx.offset, ctx.dim1, ctx.dim2 = f.u64(offset), f.u64(dim1), f.u64(dim2)
        d1, d2 = _diagonal_dims(np.empty((0,) * len(shape)), offset, dim1, dim2)
        # the new dims go at d1 and d2; the input's own dims fill the others
        rest = [i for i in range(len(shape)) if i not in (d1, d2)]
        sizes = [0] * len(shape)
        for i, size in zip(rest, x.shape[:-1]):
            sizes[i] = size
        sizes[d1] = sizes[d2] = n
        out = np.zeros(tuple(sizes), x.dtype)
        Diagonal.view_fn(out, offset, dim1, dim2)[...] = x
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.diagonal(g, *ctx.args), None, None, None


class Trace(Op):
    """d trace(a) = g on the diagonal of zeros like a"""

    node_name, saved_attrs = "TraceBackward0", ("self_sym_sizes",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        x = a._data
        if x.ndim != 2:
            raise RuntimeError(
                f"trace: expected a matrix, but got tensor with dim {x.ndim}"
            )
        ctx.self_sym_sizes = x.shape
        return np.asarray(
            np.trace(x), dtype=x.dtype if x.dtype.kind == "f" else np.int64
        )

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        n, m = ctx.self_sym_sizes
        # PyTorch: zeros(n m).index_fill(0, arange(0, n m, m + 1), g).view(n, m)
        index = np.arange(0, n * m, m + 1, dtype=np.int64)
        flat = f.index_fill(f.zeros((n * m,), g), 0, 0, index, g)
        return f.reshape(flat, (n, m))


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


# ------------------------------------------------------------------ join, repeat
class Cat(Op):
    """d cat(tensors, dim) = g cut back into the pieces along dim"""

    node_name, saved_attrs = "CatBackward0", ("dim",)

    @staticmethod
    def forward(ctx: Ctx, *args: Any) -> Any:
        *tensors, dim = args
        xs = [t._data for t in tensors]
        for i, x in enumerate(xs):
            if x.ndim == 0:
                raise RuntimeError(
                    f"zero-dimensional tensor (at position {i}) cannot be concatenated"
                )
        (d,) = normalize_dims(dim, xs[0].ndim)
        first = xs[0].shape
        for i, x in enumerate(xs[1:], 1):
            if x.ndim != len(first):
                raise RuntimeError(
                    "Tensors must have same number of dimensions: got "
                    f"{len(first)} and {x.ndim}"
                )
            for j, (n, m) in enumerate(zip(first, x.shape)):
                if j != d and n != m:
                    raise RuntimeError(
                        f"Sizes of tensors must match except in dimension {d}. "
                        f"Expected size {n} but got size {m} for tensor number {i} "
                        "in the list."
                    )
        ctx.dim, ctx.d, ctx.sizes = f.u64(dim), d, [x.shape[d] for x in xs]
        out = np.ascontiguousarray(np.concatenate(xs, axis=d))  # PyTorch: row-major
        want = result_type(*tensors).np
        return out if out.dtype == want else out.astype(want)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        lead, grads, start = (slice(None),) * ctx.d, [], 0
        for n in ctx.sizes:
            grads.append(g[lead + (slice(start, start + n),)])
            start += n
        return (*grads, None)


class Stack(Op):
    """d stack(tensors, dim) = g taken apart along dim"""

    node_name, saved_attrs = "StackBackward0", ("dim",)

    @staticmethod
    def forward(ctx: Ctx, *args: Any) -> Any:
        *tensors, dim = args
        xs = [t._data for t in tensors]
        (d,) = normalize_dims(dim, xs[0].ndim + 1)
        for i, x in enumerate(xs[1:], 1):
            if x.shape != xs[0].shape:
                raise RuntimeError(
                    "stack expects each tensor to be equal size, but got "
                    f"{list(xs[0].shape)} at entry 0 and {list(x.shape)} at entry {i}"
                )
        ctx.dim, ctx.d, ctx.n = f.u64(dim), d, len(xs)
        out = np.ascontiguousarray(np.stack(xs, axis=d))  # PyTorch: row-major
        want = result_type(*tensors).np
        return out if out.dtype == want else out.astype(want)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        lead = (slice(None),) * ctx.d
        return (*[g[lead + (i,)] for i in range(ctx.n)], None)


def cat(tensors: Any, dim: int = 0) -> Any:
    tensors = list(tensors)
    if not tensors:
        raise ValueError("minigrad.cat(): expected a non-empty list of Tensors")
    return Cat.apply(*tensors, dim)


def stack(tensors: Any, dim: int = 0) -> Any:
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    return Stack.apply(*tensors, dim)


class Repeat(Op):
    """d a.repeat(r) = g folded into (r_i, size_i) blocks and summed over the r_i
    (PyTorch's repeat_backward)"""

    node_name, saved_attrs = "RepeatBackward0", ("repeats", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Ctx, a: Any, repeats: tuple) -> Any:
        x = a._data
        if len(repeats) < x.ndim:
            raise RuntimeError(
                "Number of dimensions of repeat dims can not be smaller than number "
                "of dimensions of tensor"
            )
        ctx.repeats, ctx.self_sym_sizes = repeats, x.shape
        return np.tile(x, repeats) if repeats else x.copy()

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        reps, shape = ctx.repeats, ctx.self_sym_sizes
        if 0 in reps:
            return f.zeros(shape, g), None
        extra = len(reps) - len(shape)
        for _ in range(extra):  # the dims repeat added in front
            g = f.sum_dims(g, (0,))
        # each repeated dim as (repeat, size), then one sum over the repeats
        sizes: list[int] = []
        summed: list[int] = []
        for r, n in zip(reps[extra:], shape):
            if r != 1:
                summed.append(len(sizes))
                sizes.append(r)
            sizes.append(n)
        if summed:
            g = f.sum_dims(f.reshape(g, tuple(sizes)), tuple(summed))
        return g, None


# ------------------------------------------------------- several views at once
class Split(Op):
    """d a.split(size, dim) = the pieces' gradients joined along dim (zeros for
    pieces that got none)"""

    node_name = "SplitBackward0"
    saved_attrs = ("dim", "self_sym_sizes", "split_size")

    @staticmethod
    def sizes(n: int, split_size: int) -> list[int]:
        if split_size == 0:
            return [0] if n == 0 else []
        return [min(split_size, n - s) for s in range(0, n, split_size)] or [0]

    @staticmethod
    def view_fn(x: np.ndarray, split: Any, dim: int) -> tuple:
        d = dim % x.ndim
        sizes = Split.sizes(x.shape[d], split) if isinstance(split, int) else split
        lead, start, out = (slice(None),) * d, 0, []
        for n in sizes:
            out.append(x[lead + (slice(start, start + n),)])
            start += n
        return tuple(out)

    @staticmethod
    def forward(ctx: Ctx, a: Any, split_size: int, dim: int) -> tuple:
        x = a._data
        if x.ndim == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        (ctx.d,) = normalize_dims(dim, x.ndim)
        n = x.shape[ctx.d]
        if split_size == 0 and n != 0:
            raise RuntimeError(
                "split_size can only be 0 if dimension size is 0, but got dimension "
                f"size of {n}"
            )
        ctx.dim, ctx.split_size, ctx.self_sym_sizes = f.u64(dim), split_size, x.shape
        return Split.view_fn(x, split_size, dim)

    @staticmethod
    def backward(ctx: Ctx, *grads: Any) -> tuple:
        return f.cat(list(grads), ctx.d), None, None


class UnsafeSplit(Split):
    """d a.unsafe_split(size, dim): as split, but the pieces are not views (PyTorch's
    RNN cells write their gates in place)"""

    node_name = "UnsafeSplitBackward0"
    saved_attrs = ("dim", "self_sym_sizes", "split_size")


class SplitWithSizes(Split):
    """d a.split([n0, n1, ...], dim) = the pieces' gradients joined along dim"""

    node_name = "SplitWithSizesBackward0"
    saved_attrs = ("dim", "self_sym_sizes", "split_sizes")

    @staticmethod
    def forward(ctx: Ctx, a: Any, split_sizes: tuple, dim: int) -> tuple:
        x = a._data
        if x.ndim == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        (ctx.d,) = normalize_dims(dim, x.ndim)
        n = x.shape[ctx.d]
        if sum(split_sizes) != n:
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {n} (input "
                f"tensor's size at dimension {ctx.d}), but got split_sizes="
                f"{list(split_sizes)}"
            )
        ctx.dim, ctx.split_sizes, ctx.self_sym_sizes = f.u64(dim), split_sizes, x.shape
        return Split.view_fn(x, split_sizes, dim)


class Unbind(Op):
    """d a.unbind(dim) = the pieces' gradients stacked along dim"""

    node_name, saved_attrs = "UnbindBackward0", ("dim",)

    @staticmethod
    def view_fn(x: np.ndarray, dim: int) -> tuple:
        lead = (slice(None),) * (dim % x.ndim)
        return tuple(x[lead + (i, Ellipsis)] for i in range(x.shape[dim]))

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int) -> tuple:
        x = a._data
        (ctx.d,) = normalize_dims(dim, x.ndim)
        if x.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        ctx.dim = f.u64(dim)
        return Unbind.view_fn(x, dim)

    @staticmethod
    def backward(ctx: Ctx, *grads: Any) -> tuple:
        return f.stack(list(grads), ctx.d), None


# ---------------------------------------------------------------- in-place writes
class CopyNode(_Qualified, BackwardCFunction):
    pass


class Copy(Op):
    """d dst.copy_(src) = (zeros, g summed to src's shape)"""

    node_name, node_base = "CopyBackwards", CopyNode

    @staticmethod
    def forward(ctx: Ctx, dst: Any, src: Any) -> Any:
        ctx.src_shape = src._data.shape
        out = np.empty_like(dst._data)
        out[...] = src._data  # broadcasts and casts into dst's shape and dtype
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return g * 0, f.sum_to(g, ctx.src_shape)


class Zero(Op):
    """d zero_(a) = 0"""

    node_name = "ZeroBackward0"

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        return np.zeros_like(a._data)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        return g * 0


class Fill(Op):
    """d fill_(a, value) = 0"""

    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx: Ctx, a: Any, value: Any) -> Any:
        return np.full_like(a._data, value)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return g * 0, None


class FillTensor(Op):
    """d fill_(a, v) = (0, sum(g))"""

    node_name = "FillBackward3"

    @staticmethod
    def forward(ctx: Ctx, a: Any, v: Any) -> Any:
        if v._data.ndim:
            raise RuntimeError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{v._data.ndim} dimensions."
            )
        return np.full_like(a._data, v._data)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return g * 0, g.sum()


# what the core and _formula's helpers record (they import no op family):
# AccumulateGrad's first .grad under create_graph is a recorded copy
register(
    Copy=Copy.apply,
    IndexPutImpl=IndexPutImpl.apply,
    diagonal_view=Diagonal.view_fn,
    cat=cat,
    stack=stack,
)
