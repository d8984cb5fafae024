"""Diagonals and triangles: diagonal (a view) and its copy, diag_embed,
trace, tril and triu.

Classes (and the node each records):

    Tril              TrilBackward0
    Triu              TriuBackward0
    Diagonal          DiagonalBackward0
    DiagonalCopy      DiagonalBackward0_copy
    DiagonalBackward  DiagonalBackwardBackward0
    DiagEmbed         DiagEmbedBackward0
    Trace             TraceBackward0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from ..node import register
from ._common import Ctx, Grad, Op
from ._dims import normalize_dims


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


# what the core and _formula's helpers record (they import no op family):
# AccumulateGrad's first .grad under create_graph is a recorded copy
register(
    diagonal_view=Diagonal.view_fn,
)
