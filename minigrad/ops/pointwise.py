"""Elementwise math: exp and log, trigonometric and hyperbolic functions,
rounding, sqrt and rsqrt, erf, relu, sigmoid, tanh, leaky_relu, gelu and
softplus with their fused second-order nodes; a few of two tensors too
(atan2, logaddexp, hypot, xlogy). (The ELU family and other activations are in
activation.py, softmax in nn.py.)"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _formula as f
from .._dtype import default_float
from ..node import register
from ._common import BinaryOp, Ctx, Grad, Op, float_out


def _float(x: np.ndarray) -> np.ndarray:
    """Integer inputs give default-float results, as in PyTorch (``exp(int)``)."""
    return x if x.dtype.kind == "f" else x.astype(default_float.np)


class Exp(Op):
    """d exp(a) = g * result"""

    node_name, saved = "ExpBackward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        with np.errstate(over="ignore"):  # exp overflows to inf silently
            out = np.exp(_float(a._data))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (result,) = ctx.saved_tensors
        return g * result


class Log(Op):
    """d log(a) = g / a"""

    node_name, saved = "LogBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g / a


class Tanh(Op):
    """d tanh(a) = g * (1 - result²)"""

    node_name, saved = "TanhBackward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        out = np.tanh(_float(a._data))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (y,) = ctx.saved_tensors
        return tanh_backward(g, y)


def tanh_backward(g: Any, y: Any) -> Any:
    """tanh's gradient from its result, ``g * (1 - y²)``. On Tensors (create_graph)
    it is one recorded node, TanhBackwardBackward0, as PyTorch's fused kernel."""
    if isinstance(g, f.ndarray):
        return g * (1 - y * y)
    return TanhBackward.apply(g, y)


class TanhBackward(Op):
    """d tanh_backward(g, y) = (tanh_backward(gg, y), gg * (-2y * g))"""

    node_name, saved = "TanhBackwardBackward0", ("grad_output", "output")

    @staticmethod
    def forward(ctx: Ctx, g: Any, y: Any) -> Any:
        ctx.save_for_backward(g, y)
        return tanh_backward(g._data, y._data)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        g, y = ctx.saved_tensors
        need_g, need_y = ctx.needs_input_grad[:2]
        return (
            tanh_backward(gg, y) if need_g else None,
            gg * (f.scale(y, -2) * g) if need_y else None,
        )


class Sigmoid(Op):
    """d sigmoid(a) = g * result * (1 - result)"""

    node_name, saved = "SigmoidBackward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        x = _float(a._data)
        with np.errstate(over="ignore"):
            out = (1 / (1 + np.exp(-x))).astype(x.dtype, copy=False)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (y,) = ctx.saved_tensors
        return sigmoid_backward(g, y)


def sigmoid_backward(g: Any, y: Any) -> Any:
    """sigmoid's gradient from its result, ``g * y(1 - y)``; on Tensors one node,
    SigmoidBackwardBackward0 (PyTorch's fused kernel)."""
    if isinstance(g, f.ndarray):
        return g * (y * (1 - y))
    return SigmoidBackward.apply(g, y)


class SigmoidBackward(Op):
    """d sigmoid_backward(g, y) = (sigmoid_backward(gg, y), gg * g * (1 - 2y))"""

    node_name, saved = "SigmoidBackwardBackward0", ("grad_output", "output")

    @staticmethod
    def forward(ctx: Ctx, g: Any, y: Any) -> Any:
        ctx.save_for_backward(g, y)
        return sigmoid_backward(g._data, y._data)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        g, y = ctx.saved_tensors
        need_g, need_y = ctx.needs_input_grad[:2]
        return (
            sigmoid_backward(gg, y) if need_g else None,
            gg * g * (f.scale(y, -2) + 1) if need_y else None,
        )


class Relu(Op):
    """d relu(a) = g where result > 0, else 0"""

    node_name, saved = "ReluBackward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        out = np.maximum(a._data, 0, dtype=a._data.dtype)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (y,) = ctx.saved_tensors
        return threshold_backward(g, y, 0)


def threshold_backward(g: Any, x: Any, threshold: Any) -> Any:
    """``g`` where ``x > threshold``, else 0 (relu's gradient, from its result).
    On Tensors one node, ThresholdBackwardBackward0 (PyTorch's fused kernel)."""
    if isinstance(g, f.ndarray):
        out = g * (x > threshold)  # (a mask product: much faster than np.where)
        if np.isnan(out).any():  # inf * 0: where x is cut off PyTorch gives 0
            out = np.where(x <= threshold, 0, g).astype(g.dtype, copy=False)
        return out
    return ThresholdBackward.apply(g, x, threshold)


class _MaskGradBackward(Op):
    """A gradient that is ``g`` times a mask of ``x`` (relu's, leaky_relu's): it
    is linear in ``g``, so its own gradient is the same function of ``gg``, and
    none flows to ``x``. Subclasses name the function and its parameter."""

    _abstract = True
    params: tuple[str, ...]  # the parameters' names, also their _saved_ attributes
    grad: Any  # the gradient function, (g, x, *params) -> g * mask(x)

    @staticmethod
    def forward(ctx: Ctx, g: Any, x: Any, *values: Any) -> Any:
        for name, value in zip(ctx._forward_cls.params, values):
            setattr(ctx, name, value)
        ctx.save_for_backward(x)
        return ctx._forward_cls.grad(g._data, x._data, *values)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        (x,) = ctx.saved_tensors
        cls = ctx._forward_cls
        need_g, need_x = ctx.needs_input_grad[:2]
        values = [getattr(ctx, name) for name in cls.params]
        return (
            cls.grad(gg, x, *values) if need_g else None,
            f.zeros(tuple(x.shape), gg) if need_x else None,  # a constant
            *[None] * len(values),
        )


class ThresholdBackward(_MaskGradBackward):
    """d threshold_backward(g, x, t) = (threshold_backward(gg, x, t), 0)"""

    node_name, saved = "ThresholdBackwardBackward0", ("self",)
    saved_attrs = params = ("threshold",)
    grad = staticmethod(threshold_backward)


class Reciprocal(Op):
    """d (1/a) = -g * result²"""

    node_name, saved = "ReciprocalBackward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        with np.errstate(divide="ignore"):
            out = 1 / _float(a._data)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (y,) = ctx.saved_tensors
        return -g * (y * y)


class Sqrt(Op):
    """d sqrt(a) = g / (2 * result)"""

    node_name, saved = "SqrtBackward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        with np.errstate(invalid="ignore"):
            out = np.sqrt(_float(a._data))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (y,) = ctx.saved_tensors
        return g / f.scale(y, 2)


class Abs(Op):
    """d |a| = g * sign(a)"""

    node_name, saved = "AbsBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        return np.abs(a._data)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g * f.sgn(a)


class Sin(Op):
    """d sin(a) = g * cos(a)"""

    node_name, saved = "SinBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        return np.sin(_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g * f.cos(a)


class Cos(Op):
    """d cos(a) = -g * sin(a)"""

    node_name, saved = "CosBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        return np.cos(_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g * -f.sin(a)


class Sign(Op):
    """d sign(a) = 0"""

    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        return np.nan_to_num(np.sign(a._data), nan=0)  # sign(nan) is 0 in PyTorch

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        return g * 0


class Sgn(Op):
    """d sgn(a) = 0   (sign, for real tensors; abs's gradient is written with it)"""

    node_name, saved = "SgnBackward0", ("self", "result")

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        out = np.nan_to_num(np.sign(a._data), nan=0)  # as sign: sgn(nan) is 0
        ctx.save_for_backward(a, out)  # (PyTorch's formula needs them for complex)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        return g * 0


class Rsqrt(Op):
    """d a^(-1/2) = -0.5 * g * result³"""

    node_name, saved = "RsqrtBackward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        with np.errstate(divide="ignore", invalid="ignore"):
            out = 1 / np.sqrt(_float(a._data))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (y,) = ctx.saved_tensors
        return f.scale(g, -0.5) * y**3


class Log1p(Op):
    """d log(1 + a) = g / (1 + a)"""

    node_name, saved = "Log1PBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log1p(_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g / f.add_scalar(a, 1)


class Log2(Op):
    """d log2(a) = g / (a * ln 2)"""

    node_name, saved = "Log2Backward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log2(_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g / f.scale(a, 0.6931471805599453)


class Log10(Op):
    """d log10(a) = g / (a * ln 10)"""

    node_name, saved = "Log10Backward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log10(_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g / f.scale(a, 2.3025850929940456)


class Exp2(Op):
    """d 2^a = g * result * ln 2"""

    node_name, saved = "Exp2Backward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        out = np.exp2(_float(a._data))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (y,) = ctx.saved_tensors
        return f.scale(g * y, 0.6931471805599453)


class Expm1(Op):
    """d (exp(a) - 1) = g * (result + 1)"""

    node_name, saved = "Expm1Backward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        out = np.expm1(_float(a._data))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (y,) = ctx.saved_tensors
        return g * f.add_scalar(y, 1)


class Erf(Op):
    """d erf(a) = g * 2/√π * exp(-a²)"""

    node_name, saved = "ErfBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        return f.erf_array(_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return f.scale(f.exp(-(a**2)), 1.1283791670955126) * g  # 2/sqrt(pi) first


class LeakyRelu(Op):
    """d leaky_relu(a) = g where a > 0, else g * negative_slope"""

    node_name, saved = "LeakyReluBackward0", ("self",)
    saved_attrs = ("negative_slope",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, negative_slope: Any = 0.01) -> Any:
        ctx.negative_slope = negative_slope
        ctx.save_for_backward(a)
        x = a._data
        return np.where(x > 0, x, x * negative_slope).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (a,) = ctx.saved_tensors
        return leaky_relu_backward(g, a, ctx.negative_slope), None


def leaky_relu_backward(g: Any, x: Any, slope: Any) -> Any:
    """leaky_relu's gradient; on Tensors one node, LeakyReluBackwardBackward0."""
    if isinstance(g, f.ndarray):
        return f.where(x > 0, g, g * slope)
    return LeakyReluBackward.apply(g, x, slope)


class LeakyReluBackward(_MaskGradBackward):
    """d leaky_relu_backward(g, x) = (leaky_relu_backward(gg, x), 0)"""

    node_name, saved = "LeakyReluBackwardBackward0", ("self",)
    saved_attrs = params = ("negative_slope",)
    grad = staticmethod(leaky_relu_backward)


_SQRT_2_OVER_PI = 0.7978845608028654
_GELU_C = 0.044715


class Gelu(Op):
    """d gelu(a) = g * (Φ(a) + a φ(a))   (tanh form: the derivative of
    a/2 * (1 + tanh(√(2/π) (a + 0.044715 a³))))"""

    node_name, saved, saved_attrs = "GeluBackward0", ("self",), ("approximate",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, approximate: str = "none") -> Any:
        if approximate not in ("none", "tanh"):
            raise RuntimeError("approximate argument must be either none or tanh.")
        ctx.approximate = approximate
        ctx.save_for_backward(a)
        x = a._data
        if approximate == "tanh":
            inner = _SQRT_2_OVER_PI * (x + _GELU_C * x**3)
            return (0.5 * x * (1 + np.tanh(inner))).astype(x.dtype, copy=False)
        return (0.5 * x * (1 + f.erf_array(x * 0.7071067811865476))).astype(x.dtype)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (x,) = ctx.saved_tensors
        return gelu_backward(g, x, ctx.approximate), None


def _gelu_terms(x: Any, approximate: str) -> tuple:
    """gelu's first and second derivative at ``x``."""
    if approximate == "tanh":  # gelu = x/2 (1 + tanh(u)), u = k (x + c x³)
        t = f.tanh((x + x * x * x * _GELU_C) * _SQRT_2_OVER_PI)
        du = (x * x * (3 * _GELU_C) + 1) * _SQRT_2_OVER_PI
        sech2 = 1 - t * t
        first = (t + 1) * 0.5 + x * 0.5 * sech2 * du
        ddu = x * (6 * _GELU_C * _SQRT_2_OVER_PI)
        second = sech2 * (du - x * t * du * du + x * 0.5 * ddu)
        return first, second
    pdf = f.exp(x * x * -0.5) * 0.3989422804014327  # φ(x)
    cdf = (f.erf(x * 0.7071067811865476) + 1) * 0.5  # Φ(x)
    return cdf + x * pdf, pdf * (2 - x * x)


def gelu_backward(g: Any, x: Any, approximate: str) -> Any:
    """gelu's gradient, ``g * gelu'(x)``; on Tensors one node,
    GeluBackwardBackward0 (PyTorch's fused kernel)."""
    if isinstance(g, f.ndarray):
        return g * _gelu_terms(x, approximate)[0]
    return GeluBackward.apply(g, x, approximate)


class GeluBackward(Op):
    """d gelu_backward(g, x) = (gelu_backward(gg, x), gg * g * gelu''(x))"""

    node_name, saved = "GeluBackwardBackward0", ("grad_output", "self")
    saved_attrs = ("approximate",)

    @staticmethod
    def forward(ctx: Ctx, g: Any, x: Any, approximate: str) -> Any:
        ctx.approximate = approximate
        ctx.save_for_backward(g, x)
        return gelu_backward(g._data, x._data, approximate)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        g, x = ctx.saved_tensors
        need_g, need_x = ctx.needs_input_grad[:2]
        d_x = None
        if need_x:
            d_x = gg * g * _gelu_terms(x, ctx.approximate)[1]
        d_g = gelu_backward(gg, x, ctx.approximate) if need_g else None
        return d_g, d_x, None


class Softplus(Op):
    """d softplus(a) = g * sigmoid(beta * a), or g where beta * a > threshold"""

    node_name, saved = "SoftplusBackward0", ("self",)
    saved_attrs = ("beta", "threshold")

    @staticmethod
    def forward(ctx: Ctx, a: Any, beta: Any = 1, threshold: Any = 20) -> Any:
        ctx.beta, ctx.threshold = beta, threshold
        ctx.save_for_backward(a)
        x = a._data
        bx = x * beta
        with np.errstate(over="ignore"):
            soft = np.log1p(np.exp(bx)) / beta
        return np.where(bx > threshold, x, soft).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (x,) = ctx.saved_tensors
        return softplus_backward(g, x, ctx.beta, ctx.threshold), None, None


def _softplus_sigmoid(x: Any, beta: Any) -> Any:
    with np.errstate(over="ignore"):
        return 1 / (f.exp(x * -beta) + 1)


def softplus_backward(g: Any, x: Any, beta: Any, threshold: Any) -> Any:
    """softplus's gradient, ``g * sigmoid(beta x)`` (``g`` past the threshold);
    on Tensors one node, SoftplusBackwardBackward0 (PyTorch's fused kernel)."""
    if isinstance(g, f.ndarray):
        linear = x * beta > threshold
        return f.where(linear, g, g * _softplus_sigmoid(x, beta))
    return SoftplusBackward.apply(g, x, beta, threshold)


class SoftplusBackward(Op):
    """d softplus_backward(g, x) = (softplus_backward(gg, x),
    gg * g * beta s (1 - s), 0 past the threshold)   with s = sigmoid(beta x)"""

    node_name, saved = "SoftplusBackwardBackward0", ("grad_output", "self")
    saved_attrs = ("beta", "threshold")

    @staticmethod
    def forward(ctx: Ctx, g: Any, x: Any, beta: Any, threshold: Any) -> Any:
        ctx.beta, ctx.threshold = beta, threshold
        ctx.save_for_backward(g, x)
        return softplus_backward(g._data, x._data, beta, threshold)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        g, x = ctx.saved_tensors
        need_g, need_x = ctx.needs_input_grad[:2]
        beta, threshold = ctx.beta, ctx.threshold
        d_x = None
        if need_x:
            s = _softplus_sigmoid(x, beta)
            curve = f.where(f.data(x) * beta > threshold, 0.0, s * (1 - s) * beta)
            d_x = gg * g * curve
        d_g = softplus_backward(gg, x, beta, threshold) if need_g else None
        return d_g, d_x, None, None


# ------------------------------------------------ more trigonometric functions
class Tan(Op):
    """d tan(a) = g * (1 + result²)"""

    node_name, saved = "TanBackward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        out = np.tan(_float(a._data))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (y,) = ctx.saved_tensors
        return g * f.add_scalar(y**2, 1)


class Asin(Op):
    """d asin(a) = g / sqrt(1 - a²)"""

    node_name, saved = "AsinBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        return np.arcsin(_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g * f.rsqrt(f.add_scalar(-a * a, 1))


class Acos(Op):
    """d acos(a) = -g / sqrt(1 - a²)"""

    node_name, saved = "AcosBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        return np.arccos(_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g * -f.rsqrt(f.add_scalar(-a * a, 1))


class Atan(Op):
    """d atan(a) = g / (a² + 1)"""

    node_name, saved = "AtanBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        return np.arctan(_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g / f.add_scalar(a * a, 1)


class Atan2(BinaryOp):
    """d atan2(a, b) = (g * b, -g * a) / (a² + b²)"""

    node_name, saved = "Atan2Backward0", ("self", "other")

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        ctx.save_for_backward(a, b)
        return float_out(np.arctan2(a._data, b._data), a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        recip = f.reciprocal(a * a + b * b)
        recip = f.masked_fill(recip, f.data(recip) == np.inf, 0)  # atan2(0, 0)
        return (g * b * recip if need_a else None), (g * -a * recip if need_b else None)


class Sinh(Op):
    """d sinh(a) = g * cosh(a)"""

    node_name, saved = "SinhBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        return np.sinh(_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g * f.cosh(a)


class Cosh(Op):
    """d cosh(a) = g * sinh(a)"""

    node_name, saved = "CoshBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        return np.cosh(_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g * f.sinh(a)


class Asinh(Op):
    """d asinh(a) = g / sqrt(a² + 1)"""

    node_name, saved = "AsinhBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        return np.arcsinh(_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g * f.rsqrt(f.add_scalar(a**2, 1))


class Acosh(Op):
    """d acosh(a) = g / sqrt(a * a - 1)"""

    node_name, saved = "AcoshBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        return np.arccosh(_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g * f.rsqrt(f.sub_scalar(a * a, 1))


class Atanh(Op):
    """d atanh(a) = g / (1 - a²)"""

    node_name, saved = "AtanhBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        return np.arctanh(_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return f.scale(g, 1) / f.number_minus(1, a**2)


# ------------------------------------------------------------------ rounding
class _Rounding(Op):
    """A step function: its gradient is zero wherever it is defined. Integer
    tensors come back unchanged (copied), in their dtype."""

    _abstract = True
    np_fn: Any

    @staticmethod
    def forward(ctx: Ctx, a: Any, *decimals: int) -> Any:
        x = a._data
        if x.dtype.kind != "f":
            return x.copy()
        return ctx._forward_cls.np_fn(x, *decimals)  # the op's numpy function

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        return f.zeros_like(g)


class Floor(_Rounding):
    """d floor(a) = 0"""

    node_name, np_fn = "FloorBackward0", staticmethod(np.floor)


class Ceil(_Rounding):
    """d ceil(a) = 0"""

    node_name, np_fn = "CeilBackward0", staticmethod(np.ceil)


class Trunc(_Rounding):
    """d trunc(a) = 0"""

    node_name, np_fn = "TruncBackward0", staticmethod(np.trunc)


class Round(_Rounding):
    """Half to even, as PyTorch (and numpy) round."""

    node_name, np_fn = "RoundBackward0", staticmethod(np.round)


class RoundDecimals(_Rounding):
    """d round(a, decimals) = 0"""

    node_name, np_fn = "RoundBackward1", staticmethod(np.round)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.zeros_like(g), None


class Frac(Op):
    """d (a - trunc(a)) = g"""

    node_name = "FracBackward0"

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        x = a._data
        return x - np.trunc(x)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        return g


class NanToNum(Op):
    """d nan_to_num(a) = g where a is finite, else 0"""

    node_name, saved = "NanToNumBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, nan: Any, posinf: Any, neginf: Any) -> Any:
        ctx.save_for_backward(a)
        x = a._data
        return np.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (a,) = ctx.saved_tensors
        finite = f.constant(np.isfinite(f.data(a)), g)
        return g * finite, None, None, None


# ---------------------------------------------- logaddexp, hypot, xlogy, logit
class Logaddexp(BinaryOp):
    """d log(exp a + exp b) = (g / (1 + exp(b - a)), g / (1 + exp(a - b)))"""

    node_name, saved = "LogaddexpBackward0", ("self", "other")

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        ctx.save_for_backward(a, b)
        return float_out(np.logaddexp(a._data, b._data), a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        with np.errstate(over="ignore"):
            ga = g / f.add_scalar(f.exp(b - a), 1) if need_a else None
            gb = g / f.add_scalar(f.exp(a - b), 1) if need_b else None
        return ga, gb


class Hypot(BinaryOp):
    """d √(a² + b²) = (g a / result, g b / result)"""

    node_name, saved = "HypotBackward0", ("self", "other", "result")

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        out = float_out(np.hypot(a._data, b._data), a, b)
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, b, result = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (g * a / result if need_a else None), (
            g * b / result if need_b else None
        )


class Xlogy(BinaryOp):
    """d a log b = (g log b, 0 where a = 0 and b ≤ 0;  g a / b)"""

    node_name, saved = "XlogyBackward0", ("self", "other")

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        ctx.save_for_backward(a, b)
        return float_out(f.xlogy_values(a._data, b._data), a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        ga = gb = None
        if need_a:
            x, y = f.data(a), f.data(b)
            zero = np.broadcast_to(
                (x == 0) & (y <= 0), np.broadcast_shapes(x.shape, y.shape)
            )
            ga = f.masked_fill(f.xlogy(g, b), zero, 0)
        if need_b:
            gb = g * a / b
        return ga, gb


class XlogyScalarOther(Op):
    """d a log s = g log s, 0 where a = 0 when s ≤ 0   (``a.xlogy(2)``)"""

    node_name, saved, saved_attrs = "XlogyBackward2", ("self",), ("other",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, other: Any) -> Any:
        ctx.other = other
        ctx.save_for_backward(a)
        return float_out(f.xlogy_values(a._data, other), a, other)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        ga = f.xlogy(g, ctx.other)
        if ctx.other <= 0:  # log s is inf or nan: a = 0 must still give 0
            (a,) = ctx.saved_tensors
            ga = f.masked_fill(ga, f.data(a) == 0, 0)
        return ga, None


class XlogyScalarSelf(Op):
    """d s log b = g s / b   (``minigrad.xlogy(2, b)``)"""

    node_name, saved, saved_attrs = "XlogyBackward1", ("other",), ("self",)

    @staticmethod
    def forward(ctx: Ctx, b: Any, s: Any) -> Any:
        ctx.self = s
        ctx.save_for_backward(b)
        return float_out(f.xlogy_values(s, b._data), b, s)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (b,) = ctx.saved_tensors
        return f.scale(g, ctx.self) / b, None


class Logit(Op):
    """d log(p / (1 - p)) = g / (p (1 - p)); outside [eps, 1 - eps] 0 (nan
    outside [0, 1] without eps)"""

    node_name, saved, saved_attrs = "LogitBackward0", ("self",), ("eps",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, eps: Any) -> Any:
        ctx.eps = eps
        ctx.save_for_backward(a)
        p = _float(a._data)
        if eps is not None:
            p = np.clip(p, eps, 1 - eps)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(p / (1 - p))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (a,) = ctx.saved_tensors
        p, eps = f.data(a), ctx.eps
        with np.errstate(divide="ignore", invalid="ignore"):
            inner = g / (a * f.number_minus(1, a))
        if eps is None:
            return f.where((p >= 0) & (p <= 1), inner, np.nan), None
        return f.where((p >= eps) & (p <= 1 - eps), inner, 0.0), None


class Deg2Rad(Op):
    """d (a · π/180) = g · π/180"""

    node_name = "Deg2RadBackward0"
    factor = math.pi / 180

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        return _float(a._data) * ctx._forward_cls.factor

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        return f.scale(g, ctx._forward_cls.factor)


class Rad2Deg(Deg2Rad):
    """d (a · 180/π) = g · 180/π"""

    node_name = "Rad2DegBackward0"
    factor = 180 / math.pi


register(Softplus=Softplus.apply)  # (what _formula.softplus records on Tensors)
