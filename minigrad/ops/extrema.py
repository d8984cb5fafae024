"""The smallest and largest elements in one pass, one node for both:

    Aminmax        AminmaxBackward0  (min, max)
    AminmaxResult  the named (min, max) pair it returns

Each result's gradient is shared evenly by the elements equal to it (as amin's
and amax's are), and the two add.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from ._common import Ctx, Grad, Op
from ._dims import as_saved, reduce_dims, restore_dims
from ._layout import row_major


class AminmaxResult(tuple):
    """``(min, max)`` with names, printed like ``torch.return_types.aminmax``."""

    def __new__(cls, lo: Any, hi: Any) -> AminmaxResult:
        return super().__new__(cls, (lo, hi))

    min = property(lambda self: self[0])
    max = property(lambda self: self[1])

    def __repr__(self) -> str:
        return f"minigrad.return_types.aminmax(\nmin={self[0]!r},\nmax={self[1]!r})"


AminmaxResult.__name__ = AminmaxResult.__qualname__ = "aminmax"  # PyTorch's name


class Aminmax(Op):
    """d aminmax(a) = g_min shared by the minima + g_max shared by the maxima"""

    node_name, saved = "AminmaxBackward0", ("self", "min", "max")
    saved_attrs = ("dim", "keepdim")

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int | None, keepdim: bool) -> tuple:
        x = a._data
        ctx.dim, ctx.keepdim = (None if dim is None else as_saved(dim)), keepdim
        if dim is None:
            ctx.dims = tuple(range(x.ndim))
        else:
            ctx.dims = reduce_dims(dim, x.ndim) if x.ndim else reduce_dims(dim, 0)[:0]
        empty = [d for d in ctx.dims if x.shape[d] == 0] if dim is not None else []
        if empty:
            raise IndexError(
                f"aminmax: Expected reduction dim {empty[0]} to have non-zero size."
            )
        if x.size == 0:
            raise RuntimeError(
                "aminmax(): cannot compute aminmax over an empty dimension as the "
                "operation has no identity."
            )
        # dim=None with keepdim keeps every dim as size 1, as PyTorch does
        lo = row_major(np.asarray(np.amin(x, axis=ctx.dims, keepdims=keepdim)))
        hi = row_major(np.asarray(np.amax(x, axis=ctx.dims, keepdims=keepdim)))
        ctx.save_for_backward(a, lo, hi)
        return lo, hi

    @staticmethod
    def backward(ctx: Ctx, g_min: Grad, g_max: Grad) -> tuple:
        a, lo, hi = ctx.saved_tensors
        x = f.data(a)
        grads = []
        for g, result in ((g_min, lo), (g_max, hi)):
            r = restore_dims(f.data(result), ctx.dims, x.ndim, ctx.keepdim)
            mask = x == r
            g = g if ctx.keepdim else f.reshape(g, r.shape)
            count = mask.sum(axis=ctx.dims, keepdims=True)
            grads.append(f.div_count(g, count) * f.constant(mask, g))
        return grads[0] + grads[1], None, None
