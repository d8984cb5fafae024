"""Every activation: relu and threshold, sigmoid, tanh, leaky_relu, gelu,
softplus, the ELU family, hardtanh, SiLU, Mish, logsigmoid, softmax and
log_softmax. Where PyTorch differentiates a gradient with a fused node
(ThresholdBackwardBackward0, TanhBackwardBackward0, GeluBackwardBackward0,
SoftmaxBackwardDataBackward0, ...) so does minigrad; SiLU's and Mish's
gradients are ordinary ops, as PyTorch's formulas record them.

Classes (and the node each records):

    Tanh                    TanhBackward0
    TanhBackward            TanhBackwardBackward0
    Sigmoid                 SigmoidBackward0
    SigmoidBackward         SigmoidBackwardBackward0
    Relu                    ReluBackward0
    _MaskGradBackward       (base: a gradient that is g times a mask of x)
    ThresholdBackward       ThresholdBackwardBackward0
    LeakyRelu               LeakyReluBackward0
    LeakyReluBackward       LeakyReluBackwardBackward0
    Gelu                    GeluBackward0
    GeluBackward            GeluBackwardBackward0
    Softplus                SoftplusBackward0
    SoftplusBackward        SoftplusBackwardBackward0
    Elu                     EluBackward0
    EluResult               EluBackward1
    Celu                    CeluBackward0
    CeluResult              CeluBackward1
    EluBackward             EluBackwardBackward0
    Hardtanh                HardtanhBackward0
    HardtanhBackward        HardtanhBackwardBackward0
    Silu                    SiluBackward0
    Mish                    MishBackward0
    LogSigmoid              LogSigmoidBackward0
    LogSigmoidBackward      LogSigmoidBackwardBackward0
    Softmax                 SoftmaxBackward0
    SoftmaxBackwardData     SoftmaxBackwardDataBackward0
    LogSoftmax              LogSoftmaxBackward0
    LogSoftmaxBackwardData  LogSoftmaxBackwardDataBackward0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from ..node import register
from ._common import Ctx, Grad, Op, as_float, dtype_name
from ._dims import normalize_dims
from ._layout import like, of, row_major

# 1 as a 0-d array of the result's dtype, for the gradients of tanh and sigmoid:
# numpy takes it faster than the Python int 1, and gives the same bits
_ONE = {np.dtype(t): np.ones((), t) for t in (np.float16, np.float32, np.float64)}


class Tanh(Op):
    """d tanh(a) = g * (1 - result²)"""

    node_name, saved = "TanhBackward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        out = np.tanh(as_float(a._data))
        if out.ndim > 1:  # (a 1-d result is row-major in both: the tiny-op path)
            out = like(out, a._data)
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
        return g * (_ONE.get(y.dtype, 1) - y * y)
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
        x = as_float(a._data)
        with np.errstate(over="ignore"):
            out = (1 / (1 + np.exp(-x))).astype(x.dtype, copy=False)
        if out.ndim > 1:  # (a 1-d result is row-major in both)
            out = like(out, a._data)
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
        return g * (y * (_ONE.get(y.dtype, 1) - y))
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
        d_g = sigmoid_backward(gg, y) if need_g else None
        d_y = None
        if need_y:  # (PyTorch's C++ computes an operator's right operand first)
            slope = f.add_scalar(f.scale(y, -2), 1)
            d_y = gg * g * slope
        return d_g, d_y


class Relu(Op):
    """d relu(a) = g where result > 0, else 0"""

    node_name, saved = "ReluBackward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        out = np.maximum(a._data, 0, dtype=a._data.dtype)
        if out.ndim > 1:  # (a 1-d result is row-major in both)
            out = like(out, a._data)
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
        out += 0  # a cut-off negative g gives -0; PyTorch writes +0 there
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


class LeakyRelu(Op):
    """d leaky_relu(a) = g where a > 0, else g * negative_slope"""

    node_name, saved = "LeakyReluBackward0", ("self",)
    saved_attrs = ("negative_slope",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, negative_slope: Any = 0.01) -> Any:
        ctx.negative_slope = negative_slope
        ctx.save_for_backward(a)
        x = a._data
        return like(np.asarray(np.where(x > 0, x, x * negative_slope), x.dtype), x)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (a,) = ctx.saved_tensors
        return leaky_relu_backward(g, a, ctx.negative_slope), None


def leaky_relu_backward(g: Any, x: Any, slope: Any) -> Any:
    """leaky_relu's gradient; on Tensors one node, LeakyReluBackwardBackward0."""
    if isinstance(g, f.ndarray):
        return of(f.where(x > 0, g, g * slope), g, x)
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
        return like(np.asarray(np.where(bx > threshold, x, soft), x.dtype), x)

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
        return of(f.where(linear, g, g * _softplus_sigmoid(x, beta)), g, x)
    return SoftplusBackward.apply(g, x, beta, threshold)


class SoftplusBackward(Op):
    """d softplus_backward(g, x) = (softplus_backward(gg, x),
    gg * g * beta s (1 - s), 0 from the threshold on)   with s = sigmoid(beta x)"""

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
            # strictly below: at beta x == threshold PyTorch's double backward
            # gives 0 although its forward is still the curve there
            curve = f.where(f.data(x) * beta < threshold, s * (1 - s) * beta, 0.0)
            d_x = gg * g * curve
        d_g = softplus_backward(gg, x, beta, threshold) if need_g else None
        return d_g, d_x, None, None


register(
    Softplus=Softplus.apply,
)

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
    return like(np.where(x > 0, x * scale, neg).astype(x.dtype, copy=False), x)


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
        return of(np.asarray(np.where(x <= 0, g * slope, g * scale), g.dtype), g, x)
    with np.errstate(over="ignore"):
        slope = np.exp(np.minimum(x, 0) * input_scale) * (input_scale * neg_coef)
    return of(np.asarray(np.where(x <= 0, g * slope, g * scale), g.dtype), g, x)


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
        return of(np.where(inside, g, 0).astype(g.dtype, copy=False), g, x)
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
        rest = f.add_scalar(x * f.number_minus(1.0, s), 1.0)  # (C++: right first)
        return g * s * rest


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
        one_minus = f.number_minus(1, t * t)  # (C++ computes the right operand first)
        return g * (t + x * s * one_minus)


# ---------------------------------------------------------------- logsigmoid
class LogSigmoid(Op):
    """d log(sigmoid(a)) = g * (1 - sigmoid(a))"""

    node_name, saved = "LogSigmoidBackward0", ("self", "buffer")

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        x = a._data
        z = np.asarray(np.exp(-np.abs(x)))  # PyTorch's buffer: kept for backward
        ctx.save_for_backward(a, z)
        # (PyTorch's kernel writes row-major results, whatever the input's layout)
        return row_major(np.asarray(np.minimum(x, 0) - np.log1p(z), x.dtype))

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
    grad = g * (negative - np.where(negative, 1, -1) * (z / (1 + z)))
    return row_major(np.asarray(grad, g.dtype))


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
        if need_x:  # (gg * g first, as PyTorch's formula)
            gg_g, s = gg * g, f.sigmoid(x)
            d_x = gg_g * f.sub_scalar(s, 1) * s
        return d_g, d_x, None


def _norm_dim(dim: int, ndim: int) -> int:
    return normalize_dims(dim, ndim)[0]


# ------------------------------------------------------------------ softmax
def _check_float(x: np.ndarray, kernel: str) -> None:
    if x.dtype.kind != "f":
        raise NotImplementedError(
            f"\"{kernel}_lastdim_kernel_impl\" not implemented for '{dtype_name(x)}'"
        )


def _shifted(x: np.ndarray, axis: int) -> np.ndarray:
    """``x - max(x)`` along ``axis``: exp of it cannot overflow. An empty
    tensor has no max and needs no shift (PyTorch returns it empty)."""
    if x.size == 0:
        return x
    return x - x.max(axis=axis, keepdims=True)


class Softmax(Op):
    """d softmax(x) = result * (g - sum(g * result, dim))"""

    node_name, saved, saved_attrs = "SoftmaxBackward0", ("result",), ("dim",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int) -> Any:
        x = a._data
        _check_float(x, "softmax")
        ctx.dim, ctx.axis = f.u64(dim), _norm_dim(dim, x.ndim)
        if x.ndim == 0:
            out = np.ones((), x.dtype)
        else:
            e = np.exp(_shifted(x, ctx.axis))
            out = row_major(np.asarray(e / e.sum(axis=ctx.axis, keepdims=True)))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (y,) = ctx.saved_tensors
        if y.ndim == 0:
            return g * 0, None
        return softmax_backward(g, y, ctx.dim, ctx.axis), None


def softmax_backward(g: Any, y: Any, dim: int, axis: int) -> Any:
    """softmax's gradient from its result, ``y * (g - sum(g * y))``. On Tensors
    one node, SoftmaxBackwardDataBackward0 (PyTorch's fused kernel)."""
    if isinstance(g, f.ndarray):
        gy = g * y
        return gy - y * gy.sum(axis=axis, keepdims=True)
    return SoftmaxBackwardData.apply(g, y, dim, axis)


class SoftmaxBackwardData(Op):
    """d softmax_backward(g, y) = (softmax_backward(gg, y),
    g * gg - sum(y * g) * gg - g * sum(y * gg))"""

    node_name = "SoftmaxBackwardDataBackward0"
    saved, saved_attrs = ("grad_output", "output"), ("dim",)

    @staticmethod
    def forward(ctx: Ctx, g: Any, y: Any, dim: int, axis: int) -> Any:
        ctx.dim, ctx.axis = dim, axis
        ctx.save_for_backward(g, y)
        return softmax_backward(g._data, y._data, dim, axis)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        g, y = ctx.saved_tensors
        need_g, need_y = ctx.needs_input_grad[:2]
        axis = ctx.axis
        d_y = None
        if need_y:
            d_y = g * gg - f.sum_keepdim(y * g, axis) * gg
            d_y = d_y - g * f.sum_keepdim(y * gg, axis)
        d_g = softmax_backward(gg, y, ctx.dim, axis) if need_g else None
        return d_g, d_y, None, None


class LogSoftmax(Op):
    """d log_softmax(x) = g - exp(result) * sum(g, dim)"""

    node_name, saved, saved_attrs = "LogSoftmaxBackward0", ("result",), ("dim",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int) -> Any:
        x = a._data
        _check_float(x, "log_softmax")
        ctx.dim, ctx.axis = f.u64(dim), _norm_dim(dim, x.ndim)
        if x.ndim == 0:
            out = np.zeros((), x.dtype)
        else:
            z = _shifted(x, ctx.axis)  # log-sum-exp with the max taken out
            out = z - np.log(np.exp(z).sum(axis=ctx.axis, keepdims=True))
            out = row_major(np.asarray(out))  # PyTorch's result is row-major
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (y,) = ctx.saved_tensors
        if y.ndim == 0:
            return g * 0, None
        return log_softmax_backward(g, y, ctx.dim, ctx.axis), None


def _log_softmax_grad(g: Any, y: Any, axis: int) -> Any:
    return g - f.exp(y) * f.sum_keepdim(g, axis)


def log_softmax_backward(g: Any, y: Any, dim: int, axis: int) -> Any:
    """log_softmax's gradient from its result, ``g - exp(y) * sum(g)``. On
    Tensors one node, LogSoftmaxBackwardDataBackward0 (PyTorch's fused kernel)."""
    if isinstance(g, f.ndarray):
        return _log_softmax_grad(g, y, axis)
    return LogSoftmaxBackwardData.apply(g, y, dim, axis)


class LogSoftmaxBackwardData(Op):
    """d log_softmax_backward(g, y) = (gg - sum(gg * exp(y)),
    -sum(g) * exp(y) * gg)"""

    node_name = "LogSoftmaxBackwardDataBackward0"
    saved, saved_attrs = ("grad_output", "output"), ("dim",)

    @staticmethod
    def forward(ctx: Ctx, g: Any, y: Any, dim: int, axis: int) -> Any:
        ctx.dim, ctx.axis = dim, axis
        ctx.save_for_backward(g, y)
        return _log_softmax_grad(g._data, y._data, axis)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        g, y = ctx.saved_tensors
        need_g, need_y = ctx.needs_input_grad[:2]
        # (not log_softmax_backward again: unlike softmax's, this Jacobian is
        # not symmetric)
        d_g = gg - f.sum_keepdim(gg * f.exp(y), ctx.axis) if need_g else None
        e = f.exp(y) if need_y else None  # (C++: the right operand first)
        d_y = -f.sum_keepdim(g, ctx.axis) * e * gg if need_y else None
        return d_g, d_y, None, None
