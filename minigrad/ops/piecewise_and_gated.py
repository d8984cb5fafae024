"""The piecewise activations lessons reach for beyond activation.py's
(hardsigmoid, hardswish, hardshrink, softshrink, threshold, prelu) and the
gated one, glu. Each is one node, as PyTorch's; where PyTorch differentiates
a gradient with a fused node (HardswishBackwardBackward0, ...) so does
minigrad. glu's gradient is recorded as ordinary ops (PyTorch's is one
GluBackwardBackward0 node; the values agree).

Classes (and the node each records):

    Hardsigmoid          HardsigmoidBackward0
    HardsigmoidBackward  NotImplemented (PyTorch has no second derivative)
    Hardswish            HardswishBackward0
    HardswishBackward    HardswishBackwardBackward0
    Hardshrink           HardshrinkBackward0
    HardshrinkBackward   HardshrinkBackwardBackward0
    Softshrink           SoftshrinkBackward0
    SoftshrinkBackward   SoftshrinkBackwardBackward0
    Threshold            ThresholdBackward0
    ThresholdResult      ThresholdBackward1
    Glu                  GluBackward0
    PreluKernel          PreluKernelBackward0
    SafeSoftmax          SafeSoftmaxBackward0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from ._common import Ctx, Grad, Op, QualifiedNode, dtype_name
from ._dims import normalize_dims
from .activation import Softmax, _MaskGradBackward, threshold_backward


def _inside(x: Any, lo: float, hi: float) -> Any:
    x = f.data(x)
    return (x > lo) & (x < hi)


# ---------------------------------------------------------------- hardsigmoid
_SIXTH = float(np.float32(1 / 6))


def hardsigmoid_backward(g: Any, x: Any) -> Any:
    """``g / 6`` where ``-3 < x < 3``, else 0; on Tensors one node,
    HardsigmoidBackwardBackward0."""
    if isinstance(g, f.ndarray):
        # PyTorch multiplies by 1/6 rounded to float32, in every dtype
        return np.where(_inside(x, -3, 3), g * _SIXTH, 0).astype(g.dtype, copy=False)
    return HardsigmoidBackward.apply(g, x)


class Hardsigmoid(Op):
    """d hardsigmoid(a) = g / 6 where -3 < a < 3, else 0"""

    node_name, saved = "HardsigmoidBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        x = a._data
        return np.clip(x / 6 + 0.5, 0, 1).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (x,) = ctx.saved_tensors
        return hardsigmoid_backward(g, x)


class HardsigmoidBackward(Op):
    """hardsigmoid's gradient as a node that cannot be differentiated: PyTorch
    has no formula for it (its node is named NotImplemented)."""

    node_name, node_base = "NotImplemented", QualifiedNode

    @staticmethod
    def forward(ctx: Ctx, g: Any, x: Any) -> Any:
        return hardsigmoid_backward(g._data, x._data)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        raise RuntimeError(
            "derivative for aten::hardsigmoid_backward is not implemented"
        )


# ------------------------------------------------------------------ hardswish
def hardswish_backward(g: Any, x: Any) -> Any:
    """``g * (x / 3 + 1/2)`` for ``-3 <= x <= 3``, ``g`` above, 0 below; on
    Tensors one node, HardswishBackwardBackward0."""
    if not isinstance(g, f.ndarray):
        return HardswishBackward.apply(g, x)
    slope = np.where(x < -3, 0, np.where(x <= 3, x / 3 + 0.5, 1))
    return (g * slope).astype(g.dtype, copy=False)


class Hardswish(Op):
    """d hardswish(a) = g * (a / 3 + 1/2) for -3 <= a <= 3, g above, 0 below"""

    node_name, saved = "HardswishBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        x = a._data
        return (x * np.clip(x + 3, 0, 6) / 6).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (x,) = ctx.saved_tensors
        return hardswish_backward(g, x)


class HardswishBackward(Op):
    """d hardswish_backward(g, x) = (hardswish_backward(gg, x),
    gg * g / 3 where -3 < x < 3, else 0)"""

    node_name, saved = "HardswishBackwardBackward0", ("grad_output", "self")

    @staticmethod
    def forward(ctx: Ctx, g: Any, x: Any) -> Any:
        ctx.save_for_backward(g, x)
        return hardswish_backward(g._data, x._data)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        g, x = ctx.saved_tensors
        need_g, need_x = ctx.needs_input_grad[:2]
        d_x = None
        if need_x:
            d_x = f.where(_inside(x, -3, 3), gg * g / 3, 0.0)
        d_g = hardswish_backward(gg, x) if need_g else None
        return d_g, d_x


# ------------------------------------------------------------------- shrinks
def _shrink_grad(g: np.ndarray, x: np.ndarray, lambd: Any) -> np.ndarray:
    """``g`` where ``|x| > lambd``, else 0 (both shrinks' gradient, on arrays)."""
    kept = (x < -lambd) | (x > lambd)
    return np.where(kept, g, 0).astype(g.dtype, copy=False)


def hardshrink_backward(g: Any, x: Any, lambd: Any) -> Any:
    """On Tensors one node, HardshrinkBackwardBackward0."""
    if isinstance(g, f.ndarray):
        return _shrink_grad(g, x, lambd)
    return HardshrinkBackward.apply(g, x, lambd)


def softshrink_backward(g: Any, x: Any, lambd: Any) -> Any:
    """On Tensors one node, SoftshrinkBackwardBackward0."""
    if isinstance(g, f.ndarray):
        return _shrink_grad(g, x, lambd)
    return SoftshrinkBackward.apply(g, x, lambd)


class Hardshrink(Op):
    """d hardshrink(a) = g where |a| > lambd, else 0"""

    node_name, saved, saved_attrs = "HardshrinkBackward0", ("self",), ("lambd",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, lambd: Any) -> Any:
        ctx.lambd = lambd
        ctx.save_for_backward(a)
        x = a._data
        return np.where((x < -lambd) | (x > lambd), x, 0).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (x,) = ctx.saved_tensors
        return hardshrink_backward(g, x, ctx.lambd), None


class HardshrinkBackward(_MaskGradBackward):
    """d hardshrink_backward(g, x) = (hardshrink_backward(gg, x), 0)"""

    node_name, saved = "HardshrinkBackwardBackward0", ("self",)
    saved_attrs = params = ("lambd",)
    grad = staticmethod(hardshrink_backward)


class Softshrink(Op):
    """d softshrink(a) = g where |a| > lambd, else 0"""

    node_name, saved, saved_attrs = "SoftshrinkBackward0", ("self",), ("lambd",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, lambd: Any) -> Any:
        x = a._data
        if lambd < 0:
            top = float(np.finfo(x.dtype).max)
            raise RuntimeError(
                f"lambda must be in range [0, {top:g}] for input dtype "
                f"{dtype_name(x)}, but found {float(lambd):g}"
            )
        ctx.lambd = lambd
        ctx.save_for_backward(a)
        out = np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, 0))
        return out.astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (x,) = ctx.saved_tensors
        return softshrink_backward(g, x, ctx.lambd), None


class SoftshrinkBackward(_MaskGradBackward):
    """d softshrink_backward(g, x) = (softshrink_backward(gg, x), 0)"""

    node_name, saved = "SoftshrinkBackwardBackward0", ("self",)
    saved_attrs = params = ("lambd",)
    grad = staticmethod(softshrink_backward)


# ------------------------------------------------------------------ threshold
class Threshold(Op):
    """d threshold(a, t, v) = g where a > t, else 0"""

    node_name, saved, saved_attrs = "ThresholdBackward0", ("self",), ("threshold",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, threshold: Any, value: Any) -> Any:
        ctx.threshold = threshold
        ctx.save_for_backward(a)
        x = a._data
        return np.where(x > threshold, x, value).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (x,) = ctx.saved_tensors
        return threshold_backward(g, x, ctx.threshold), None, None


class ThresholdResult(Threshold):
    """In place (``threshold_``): PyTorch's other node, ThresholdBackward1; it
    too saves the input as it was before the op overwrote it."""

    node_name, saved, saved_attrs = "ThresholdBackward1", ("self",), ("threshold",)


# ----------------------------------------------------------------------- glu
class Glu(Op):
    """d glu(a) = (g * sigmoid(b), g * a * sigmoid(b) * (1 - sigmoid(b)))
    for the halves a, b of the input along dim"""

    node_name, saved, saved_attrs = "GluBackward0", ("self",), ("dim",)

    @staticmethod
    def forward(ctx: Ctx, x: Any, dim: int) -> Any:
        data = x._data
        if data.ndim == 0:
            raise RuntimeError(
                "glu does not support scalars because halving size must be even"
            )
        axis = normalize_dims(dim, data.ndim)[0]
        n = data.shape[axis]
        if n % 2:
            raise RuntimeError(
                f"Halving dimension must be even, but dimension {axis} is size {n}"
            )
        ctx.dim, ctx.axis = f.u64(dim), axis
        ctx.save_for_backward(x)
        a, b = np.split(data, 2, axis=axis)
        with np.errstate(over="ignore"):
            return (a / (1 + np.exp(-b))).astype(data.dtype, copy=False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (x,) = ctx.saved_tensors
        axis, h = ctx.axis, x.shape[ctx.axis] // 2
        a, b = f.narrow(x, axis, 0, h), f.narrow(x, axis, h, h)
        s = f.sigmoid(b)
        ga = g * s
        return f.cat([ga, ga * a * f.number_minus(1.0, s)], axis), None


# --------------------------------------------------------------------- prelu
class PreluKernel(Op):
    """d prelu(x, w) = (g where x > 0 else g w,  Σ g x where x <= 0)   (w broadcast
    over x; its gradient summed back to w's shape)"""

    node_name, saved = "PreluKernelBackward0", ("self", "weight")

    @staticmethod
    def forward(ctx: Ctx, x: Any, w: Any) -> Any:
        ctx.save_for_backward(x, w)
        a, b = x._data, w._data
        return np.where(a > 0, a, a * b).astype(np.result_type(a, b), copy=False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        # (under create_graph this records ordinary ops; PyTorch's is one
        # PreluKernelBackwardBackward0 node, with the same values)
        x, w = ctx.saved_tensors
        need_x, need_w = ctx.needs_input_grad[:2]
        positive = f.data(x) > 0
        d_x = f.where(positive, g, g * w) if need_x else None
        d_w = f.where(positive, 0.0, g * x) if need_w else None
        return d_x, d_w


# -------------------------------------------------------------- safe softmax
class SafeSoftmax(Softmax):
    """d _safe_softmax(x) = result * (g - sum(g * result, dim))   (softmax's; a
    row that is all -inf, fully masked attention, gives 0s instead of nan)"""

    node_name, saved, saved_attrs = "SafeSoftmaxBackward0", ("result",), ("dim",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int) -> Any:
        x = a._data
        with np.errstate(invalid="ignore"):
            out = Softmax.forward(ctx, a, dim)
        if x.ndim and x.size:
            masked = np.isneginf(x).all(axis=ctx.axis, keepdims=True)
            if masked.any():
                out[...] = np.where(masked, 0, out)
        return out
