"""Elementwise math of two tensors (broadcast against each other): atan2,
logaddexp, hypot and xlogy, with xlogy's forms that take a Python number, and
fmax/fmin (maximum/minimum that ignore nan).
(The arithmetic operators are in ``arithmetic.py``, ``maximum``/``minimum`` in
``selection.py``.)

Classes (and the node each records):

    Atan2             Atan2Backward0
    Logaddexp         LogaddexpBackward0
    Hypot             HypotBackward0
    Xlogy             XlogyBackward0
    XlogyScalarOther  XlogyBackward2
    XlogyScalarSelf   XlogyBackward1
    Fmax              FmaxBackward0
    Fmin              FminBackward0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from ._common import BinaryOp, Ctx, Grad, Op, binary_out, float_out


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
        bb = b * b  # (PyTorch's C++ computes an operator's right operand first)
        recip = f.reciprocal(a * a + bb)
        recip = f.masked_fill(recip, f.data(recip) == np.inf, 0)  # atan2(0, 0)
        return (g * b * recip if need_a else None), (g * -a * recip if need_b else None)


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
        with np.errstate(over="ignore"):  # other's first, as Mul's
            gb = g / f.add_scalar(f.exp(a - b), 1) if need_b else None
            ga = g / f.add_scalar(f.exp(b - a), 1) if need_a else None
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
        gb = g * b / result if need_b else None  # other's first, as Mul's
        return (g * a / result if need_a else None), gb


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
        if need_b:  # other's first, as Mul's
            gb = g * a / b
        if need_a:
            x, y = f.data(a), f.data(b)
            zero = np.broadcast_to(
                (x == 0) & (y <= 0), np.broadcast_shapes(x.shape, y.shape)
            )
            ga = f.masked_fill(f.xlogy(g, b), zero, 0)
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


# ------------------------------------------------------------------ fmax, fmin
def _pick(ctx: Ctx, a: Any, b: Any, np_fn: Any) -> Any:
    ctx.save_for_backward(a, b)
    return binary_out(np_fn(a._data, b._data), a, b)


def _pick_grads(ctx: Ctx, g: Grad, a_wins: Any) -> tuple:
    """``g`` where ``a`` was picked (it won, or ``b`` is nan), else to ``b``: the
    masks of PyTorch's formula, so a tie goes to ``a`` whole."""
    a, b = ctx.saved_tensors
    need_a, need_b = ctx.needs_input_grad
    x, y = f.data(a), f.data(b)
    picked_a = np.broadcast_to(a_wins(x, y) | np.isnan(y), np.broadcast(x, y).shape)
    gb = f.masked_fill(g, picked_a, 0) if need_b else None  # other's first, as Mul's
    return (f.masked_fill(g, ~picked_a, 0) if need_a else None), gb


class Fmax(BinaryOp):
    """d fmax(a, b) = (g where a ≥ b or b is nan, g elsewhere)"""

    node_name, saved = "FmaxBackward0", ("self", "other")

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        return _pick(ctx, a, b, np.fmax)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return _pick_grads(ctx, g, np.greater_equal)


class Fmin(BinaryOp):
    """d fmin(a, b) = (g where a ≤ b or b is nan, g elsewhere)"""

    node_name, saved = "FminBackward0", ("self", "other")

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        return _pick(ctx, a, b, np.fmin)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return _pick_grads(ctx, g, np.less_equal)
