"""More activations: the ELU family, hardtanh, SiLU, Mish, logsigmoid. Where
PyTorch differentiates a gradient with a fused kernel (EluBackwardBackward0,
HardtanhBackwardBackward0, LogSigmoidBackwardBackward0) so does minigrad; SiLU's
and Mish's gradients are ordinary ops, as PyTorch's formulas record them."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from ._common import Ctx, Grad, Op
from .pointwise import _MaskGradBackward

SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805


# ---------------------------------------------------------------- elu family
class Elu(Op):
    """d elu(a) = g * scale where a > 0, else g * scale * alpha * s * exp(s * a)
    (s = input_scale; selu and celu are elus with other constants)"""

    node_name, saved = "EluBackward0", ("self",)
    saved_attrs = ("alpha", "input_scale", "scale")

    @staticmethod
    def forward(ctx: Ctx, a: Any, alpha: Any, scale: Any, input_scale: Any) -> Any:
        ctx.alpha, ctx.scale, ctx.input_scale = alpha, scale, input_scale
        ctx.save_for_backward(a)
        return elu_values(a._data, alpha, scale, input_scale)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (x,) = ctx.saved_tensors
        grad = elu_backward(g, ctx.alpha, ctx.scale, ctx.input_scale, False, x)
        return grad, None, None, None


class EluResult(Elu):
    """In place (``elu_``): the gradient comes from the result instead of the
    input, which the op overwrote."""

    node_name, saved = "EluBackward1", ("result",)
    saved_attrs = ("alpha", "input_scale", "scale")

    @staticmethod
    def forward(ctx: Ctx, a: Any, alpha: Any, scale: Any, input_scale: Any) -> Any:
        ctx.alpha, ctx.scale, ctx.input_scale = alpha, scale, input_scale
        out = elu_values(a._data, alpha, scale, input_scale)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (y,) = ctx.saved_tensors
        grad = elu_backward(g, ctx.alpha, ctx.scale, ctx.input_scale, True, y)
        return grad, None, None, None


class Celu(Op):
    """d celu(a) = elu's gradient with input_scale 1/alpha"""

    node_name, saved, saved_attrs = "CeluBackward0", ("self",), ("alpha",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, alpha: Any) -> Any:
        ctx.alpha = alpha
        ctx.save_for_backward(a)
        return elu_values(a._data, alpha, 1, 1.0 / alpha)  # (exact here)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (x,) = ctx.saved_tensors
        alpha = ctx.alpha
        return elu_backward(g, alpha, 1, celu_input_scale(alpha), False, x), None


class CeluResult(Op):
    """In place (``celu_``): the gradient from the result"""

    node_name, saved, saved_attrs = "CeluBackward1", ("result",), ("alpha",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, alpha: Any) -> Any:
        ctx.alpha = alpha
        out = elu_values(a._data, alpha, 1, 1.0 / alpha)  # (exact here)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (y,) = ctx.saved_tensors
        alpha = ctx.alpha
        return elu_backward(g, alpha, 1, celu_input_scale(alpha), True, y), None


def celu_input_scale(alpha: Any) -> float:
    """``1 / alpha`` as PyTorch computes it (alpha rounded to float32 first)."""
    return 1.0 / float(np.float32(alpha))


def elu_values(x: np.ndarray, alpha: Any, scale: Any, input_scale: Any) -> Any:
    with np.errstate(over="ignore"):
        neg = np.expm1(np.minimum(x, 0) * input_scale) * (alpha * scale)
    return np.where(x > 0, x * scale, neg).astype(x.dtype, copy=False)


def elu_backward(
    g: Any, alpha: Any, scale: Any, input_scale: Any, is_result: bool, x: Any
) -> Any:
    """elu's gradient from its input (or, ``is_result``, its output); on Tensors
    one node, EluBackwardBackward0 (PyTorch's fused kernel)."""
    if not isinstance(g, f.ndarray):
        return EluBackward.apply(g, x, alpha, scale, input_scale, is_result)
    neg_coef = alpha * scale
    if is_result:  # y = neg_coef (exp(s x) - 1): the slope is s (y + neg_coef)
        slope = (x + neg_coef) * input_scale
        return np.where(x <= 0, g * slope, g * scale).astype(g.dtype, copy=False)
    with np.errstate(over="ignore"):
        slope = np.exp(np.minimum(x, 0) * input_scale) * (input_scale * neg_coef)
    return np.where(x <= 0, g * slope, g * scale).astype(g.dtype, copy=False)


class EluBackward(Op):
    """d elu_backward(g, x) = (elu_backward(gg, x), gg * g * elu''(x))"""

    node_name = "EluBackwardBackward0"
    saved = ("grad_output", "self_or_result")
    saved_attrs = ("alpha", "input_scale", "is_result", "scale")

    @staticmethod
    def forward(
        ctx: Ctx, g: Any, x: Any, alpha: Any, scale: Any, s: Any, is_result: bool
    ) -> Any:
        ctx.alpha, ctx.scale, ctx.input_scale = alpha, scale, s
        ctx.is_result = is_result
        ctx.save_for_backward(g, x)
        return elu_backward(g._data, alpha, scale, s, is_result, x._data)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        g, x = ctx.saved_tensors
        need_g, need_x = ctx.needs_input_grad[:2]
        alpha, scale, s = ctx.alpha, ctx.scale, ctx.input_scale
        is_result = ctx.is_result
        d_g = elu_backward(gg, alpha, scale, s, is_result, x) if need_g else None
        d_x = None
        if need_x:  # PyTorch's elu_double_backward: 0 on the linear side
            negative = f.constant((f.data(x) < 0).astype(f.data(gg).dtype), gg)
            h = f.scale(gg * g, s)
            d_x = (h if is_result else elu_backward(h, alpha, scale, s, False, x)) * (
                negative
            )
        return d_g, d_x, None, None, None, None


# ------------------------------------------------------------------ hardtanh
def hardtanh_backward(g: Any, x: Any, min_val: Any, max_val: Any) -> Any:
    """``g`` where ``min_val < x < max_val``, else 0; on Tensors one node,
    HardtanhBackwardBackward0."""
    if isinstance(g, f.ndarray):
        inside = (x > min_val) & (x < max_val)
        return np.where(inside, g, 0).astype(g.dtype, copy=False)
    return HardtanhBackward.apply(g, x, min_val, max_val)


class Hardtanh(Op):
    """d hardtanh(a) = g where min_val < a < max_val, else 0"""

    node_name, saved = "HardtanhBackward0", ("self",)
    saved_attrs = ("max_val", "min_val")

    @staticmethod
    def forward(ctx: Ctx, a: Any, min_val: Any, max_val: Any) -> Any:
        if min_val > max_val:
            raise RuntimeError("min_val cannot be greater than max_val")
        ctx.min_val, ctx.max_val = min_val, max_val
        ctx.save_for_backward(a)
        x = a._data
        return np.clip(x, min_val, max_val).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (x,) = ctx.saved_tensors
        return hardtanh_backward(g, x, ctx.min_val, ctx.max_val), None, None


class HardtanhBackward(_MaskGradBackward):
    """d hardtanh_backward(g, x) = (hardtanh_backward(gg, x), 0)"""

    node_name, saved = "HardtanhBackwardBackward0", ("self",)
    saved_attrs = ("max_val", "min_val")
    params = ("min_val", "max_val")
    grad = staticmethod(hardtanh_backward)


# -------------------------------------------------------------- silu, mish
class Silu(Op):
    """d silu(a) = g * s * (1 + a (1 - s)),   s = sigmoid(a)"""

    node_name, saved = "SiluBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        x = a._data
        with np.errstate(over="ignore"):
            return (x / (1 + np.exp(-x))).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (x,) = ctx.saved_tensors
        s = f.sigmoid(x)  # PyTorch's infinitely differentiable formula, op by op
        return g * s * f.add_scalar(x * f.number_minus(1.0, s), 1.0)


class Mish(Op):
    """d mish(a) = g * (t + a s (1 - t²)),   t = tanh(softplus(a)), s = sigmoid(a)"""

    node_name, saved = "MishBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        x = a._data
        return (x * np.tanh(f.softplus(x))).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (x,) = ctx.saved_tensors
        s = f.sigmoid(x)
        t = f.tanh(f.log1p(f.exp(x)))  # softplus as PyTorch's formula spells it
        return g * (t + x * s * f.number_minus(1, t * t))


# ---------------------------------------------------------------- logsigmoid
class LogSigmoid(Op):
    """d log(sigmoid(a)) = g * (1 - sigmoid(a))"""

    node_name, saved = "LogSigmoidBackward0", ("self", "buffer")

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        x = a._data
        z = np.asarray(np.exp(-np.abs(x)))  # PyTorch's buffer: kept for backward
        ctx.save_for_backward(a, z)
        return (np.minimum(x, 0) - np.log1p(z)).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        x, z = ctx.saved_tensors
        return log_sigmoid_backward(g, x, z)


def log_sigmoid_backward(g: Any, x: Any, z: Any) -> Any:
    """``g * (1 - sigmoid(x))`` from the buffer ``z = exp(-|x|)``; on Tensors one
    node, LogSigmoidBackwardBackward0."""
    if not isinstance(g, f.ndarray):  # (the buffer takes no gradient: no edge)
        return LogSigmoidBackward.apply(g, x, (z,))
    negative = x < 0
    return (g * (negative - np.where(negative, 1, -1) * (z / (1 + z)))).astype(g.dtype)


class LogSigmoidBackward(Op):
    """d log_sigmoid_backward(g, x) = (log_sigmoid_backward(gg, x),
    gg * g * (s - 1) s),   s = sigmoid(x)"""

    node_name = "LogSigmoidBackwardBackward0"
    saved = ("buffer", "grad_output", "self")

    @staticmethod
    def forward(ctx: Ctx, g: Any, x: Any, consts: tuple) -> Any:
        (z,) = consts
        ctx.save_for_backward(z, g, x)
        return log_sigmoid_backward(g._data, x._data, z._data)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        z, g, x = ctx.saved_tensors
        need_g, need_x = ctx.needs_input_grad[:2]
        d_g = log_sigmoid_backward(gg, x, z) if need_g else None
        d_x = None
        if need_x:
            s = f.sigmoid(x)
            d_x = gg * g * f.sub_scalar(s, 1) * s
        return d_g, d_x, None
