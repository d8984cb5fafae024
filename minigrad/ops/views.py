"""Views: ops whose output shares data (and the version counter) with their
input: view and reshape, alias, transposes and permute, expand, (un)squeeze,
select and slice (with their gradients' fused nodes), narrow. ``Tensor._view``
records how to re-derive each one (``_views_inplace.py``). (``diagonal`` is in
``diagonal.py``, the multi-output views in ``join.py``.)

Classes (and the node each records):

    View               ViewBackward0
    ReshapeAlias       ReshapeAliasBackward0
    UnsafeView         UnsafeViewBackward0
    Alias              AliasBackward0
    T                  TBackward0
    Transpose          TransposeBackward0
    TransposeInplace   TransposeBackward1
    TInplace           TBackward1
    Permute            PermuteBackward0
    Expand             ExpandBackward0
    Unsqueeze          UnsqueezeBackward0
    UnsqueezeInplace   UnsqueezeBackward1
    Squeeze            SqueezeBackward0
    SqueezeInplace     SqueezeBackward3
    SqueezeDim         SqueezeBackward1
    SqueezeDimInplace  SqueezeBackward4
    SqueezeDims        SqueezeBackward2
    SqueezeDimsInplace SqueezeBackward5
    Select             SelectBackward0
    SelectBackward     SelectBackwardBackward0
    Slice              SliceBackward0
    SliceBackward      SliceBackwardBackward0
    Narrow             SliceBackward0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from ._common import Ctx, Grad, Op
from ._layout import reshaped


def view_shape(shape: Any, numel: int) -> tuple[int, ...]:
    """Resolve one ``-1`` in a requested shape, with PyTorch's error."""
    shape = tuple(int(s) for s in shape)
    for i, s in enumerate(shape):
        if s < -1:
            raise RuntimeError(
                f"invalid shape dimension {s} at index {i} of shape {list(shape)}"
            )
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
        return reshaped(x, shape)

    @staticmethod
    def forward(ctx: Ctx, a: Any, shape: tuple) -> Any:
        ctx.self_sym_sizes = a._data.shape
        out = reshaped(a._data, shape)
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
        return reshaped(a._data, shape)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.reshape(g, ctx.self_sym_sizes), None


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
        ctx.dim, ctx.dim_arg = f.u64(dim), dim
        return Unsqueeze.view_fn(a._data, dim)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        # (the dim as given: PyTorch's SqueezeBackward1 saves -2 for unsqueeze(-2))
        return f.squeeze_dim(g, ctx.dim_arg), None


class UnsqueezeInplace(Unsqueeze):
    """d a.unsqueeze_(d) = g.squeeze(d)"""

    node_name, saved_attrs = "UnsqueezeBackward1", Unsqueeze.saved_attrs


def unsqueeze_to(g: Any, sizes: tuple, dims: Any) -> Any:
    """A squeeze's gradient as PyTorch's ``unsqueeze_to`` records it: each of
    ``dims`` that had size 1 put back by its own unsqueeze, in increasing
    order (no node at all when none had)."""
    if isinstance(g, f.ndarray):
        return g.reshape(sizes)
    for d in dims:
        if sizes[d] == 1:
            g = g.unsqueeze(d)
    return g


class Squeeze(Op):
    """d a.squeeze() = g with the size-1 dims put back"""

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
        sizes = ctx.self_sym_sizes
        return unsqueeze_to(g, sizes, range(len(sizes)))


class SqueezeInplace(Squeeze):
    """d a.squeeze_() = g with the size-1 dims put back"""

    node_name, saved_attrs = "SqueezeBackward3", Squeeze.saved_attrs


class SqueezeDim(Op):
    """d a.squeeze(d) = g with dim d put back (if it had size 1)"""

    node_name, saved_attrs = "SqueezeBackward1", ("dim", "self_sym_sizes")

    @staticmethod
    def view_fn(x: np.ndarray, dim: int) -> np.ndarray:
        return np.squeeze(x, dim) if x.ndim and x.shape[dim] == 1 else x.view()

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int) -> Any:
        ctx.dim, ctx.self_sym_sizes = f.u64(dim), a._data.shape
        ctx.dim_arg = dim
        return SqueezeDim.view_fn(a._data, dim)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        sizes = ctx.self_sym_sizes
        if not sizes:  # a 0-d tensor squeezed: the gradient as it is
            return g, None
        return unsqueeze_to(g, sizes, (ctx.dim_arg % len(sizes),)), None


class SqueezeDimInplace(SqueezeDim):
    """``squeeze_(d)``: what ``v @ M`` uses to drop the row it added."""

    node_name, saved_attrs = "SqueezeBackward4", SqueezeDim.saved_attrs


class SqueezeDims(Op):
    """d a.squeeze(dims) = g with those of dims that had size 1 put back"""

    node_name, saved_attrs = "SqueezeBackward2", ("dim", "self_sym_sizes")

    @staticmethod
    def view_fn(x: np.ndarray, dims: tuple) -> np.ndarray:
        axes = tuple(d % x.ndim for d in dims if x.ndim and x.shape[d] == 1)
        return np.squeeze(x, axes) if axes else x.view()

    @staticmethod
    def forward(ctx: Ctx, a: Any, dims: tuple) -> Any:
        ctx.dim, ctx.self_sym_sizes = tuple(f.u64(d) for d in dims), a._data.shape
        n = a._data.ndim
        ctx.axes = sorted(d % n for d in dims) if n else ()
        return SqueezeDims.view_fn(a._data, dims)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return unsqueeze_to(g, ctx.self_sym_sizes, ctx.axes), None


class SqueezeDimsInplace(SqueezeDims):
    """d a.squeeze_(dims) = g with those of dims that had size 1 put back"""

    node_name, saved_attrs = "SqueezeBackward5", SqueezeDims.saved_attrs


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
