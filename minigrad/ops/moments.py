"""Two moments in one pass, one node for both results:

    VarMean  VarMeanBackward0  (var, mean)
    StdMean  StdMeanBackward0  (std, mean)

Each gradient is var's (or std's) for the first result plus mean's for the
second, as PyTorch's var_mean_backward adds them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from .._warn import quiet_mean
from ._common import Ctx, Grad, Op
from ._layout import row_major
from .reduction import Var


def _mean(ctx: Ctx, x: np.ndarray, keepdim: bool) -> np.ndarray:
    out = quiet_mean(x, axis=ctx.dims, keepdims=keepdim)
    return row_major(np.asarray(out, x.dtype))


def _mean_grad(ctx: Ctx, g: Any, a: Any) -> Any:
    """``g`` with the reduced dims put back, expanded to ``a`` and divided by n."""
    shape = f.data(a).shape
    if not (ctx.keepdim or ctx.full) and len(shape) > 1:
        g = f.unsqueeze_dims(g, ctx.dim_arg, len(shape))
    n = int(np.prod([shape[d] for d in ctx.dims]))
    return f.div_scalar(f.expand(g, shape), n)


class VarMean(Op):
    """d var_mean(a) = var's gradient of g_var + g_mean / n expanded"""

    node_name, saved = "VarMeanBackward0", ("self",)
    saved_attrs = ("correction", "dim", "keepdim")

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: Any, correction: Any, keepdim: bool) -> tuple:
        ctx.save_for_backward(a)
        var = Var._forward(ctx, a, dim, correction, keepdim)
        return var, _mean(ctx, a._data, keepdim)

    @staticmethod
    def backward(ctx: Ctx, g_var: Grad, g_mean: Grad) -> tuple:
        (a,) = ctx.saved_tensors
        grad = Var._grad(ctx, g_var, a) + _mean_grad(ctx, g_mean, a)
        return grad, None, None, None


class StdMean(Op):
    """d std_mean(a) = std's gradient of g_std + g_mean / n expanded"""

    node_name, saved = "StdMeanBackward0", ("self", "result0")
    saved_attrs = ("correction", "dim", "keepdim")

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: Any, correction: Any, keepdim: bool) -> tuple:
        with np.errstate(invalid="ignore"):
            std = np.sqrt(Var._forward(ctx, a, dim, correction, keepdim))
        ctx.save_for_backward(a, std)
        return std, _mean(ctx, a._data, keepdim)

    @staticmethod
    def backward(ctx: Ctx, g_std: Grad, g_mean: Grad) -> tuple:
        a, result = ctx.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore"):
            g_var = f.masked_fill(g_std / f.scale(result, 2), f.data(result) == 0, 0)
        grad = Var._grad(ctx, g_var, a) + _mean_grad(ctx, g_mean, a)
        return grad, None, None, None
