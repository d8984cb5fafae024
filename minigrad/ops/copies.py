"""Copies and fills: clone, ``to`` (a dtype copy), ``copy_``, ``zero_``,
``fill_``; and the copy that AccumulateGrad records for a first ``.grad`` under
create_graph.

Classes (and the node each records):

    Clone       CloneBackward0
    ToCopy      ToCopyBackward0
    CopyNode    (the node class of copy_, namespaced as PyTorch's)
    Copy        CopyBackwards
    Zero        ZeroBackward0
    Fill        FillBackward2
    FillTensor  FillBackward3
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from ..function import BackwardCFunction
from ..node import register
from ._common import Ctx, Grad, Op, _Qualified
from ._layout import preserve_layout


class Clone(Op):
    """d clone(a) = g"""

    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx: Ctx, a: Any, order: str = "K") -> Any:
        # "K" keeps the layout (PyTorch's preserve_format); contiguous() asks "C"
        out = np.array(a._data, copy=True, order=order)
        return preserve_layout(out, a._data) if order == "K" else out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return g, None


class ToCopy(Op):
    """d a.to(dtype) = g (cast back to a's dtype by the engine)"""

    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx: Ctx, a: Any, np_dtype: Any) -> Any:
        return preserve_layout(a._data.astype(np_dtype), a._data)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return g, None


# ---------------------------------------------------------------- in-place writes
class CopyNode(_Qualified, BackwardCFunction):
    pass


class Copy(Op):
    """d dst.copy_(src) = (zeros, g summed to src's shape)"""

    node_name, node_base = "CopyBackwards", CopyNode

    @staticmethod
    def forward(ctx: Ctx, dst: Any, src: Any) -> Any:
        ctx.src_dtype = src._data.dtype
        out = np.empty_like(dst._data)
        out[...] = src._data  # broadcasts and casts into dst's shape and dtype
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        # zeros_like: a constant under create_graph too, as PyTorch's; g cast
        # to src's dtype first, the engine sums it to src's shape after
        g_src = g
        if f.data(g).dtype != ctx.src_dtype:
            np_dtype = ctx.src_dtype
            g_src = (
                g.astype(np_dtype)
                if isinstance(g, np.ndarray)
                else ToCopy.apply(g, np_dtype)
            )
        return f.zeros_like(g), g_src


class Zero(Op):
    """d zero_(a) = 0"""

    node_name = "ZeroBackward0"

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        return np.zeros_like(a._data)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        return f.zeros_like(g)


class Fill(Op):
    """d fill_(a, value) = 0"""

    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx: Ctx, a: Any, value: Any) -> Any:
        return np.full_like(a._data, value)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.zeros_like(g), None


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
        return f.zeros_like(g), g.sum()


# what the core and _formula's helpers record (they import no op family):
# AccumulateGrad's first .grad under create_graph is a recorded copy
register(
    Copy=Copy.apply,
)
