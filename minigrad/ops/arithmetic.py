"""The arithmetic operators and their functional forms: ``+ - * / ** % //``
with tensors or Python numbers, ``fmod``, division with rounding, negation,
``addcmul``, ``addcdiv``, ``lerp``; and the division by a Python number that
PyTorch's loss formulas record.

Classes (and the node each records):

    Add                AddBackward0
    Sub                SubBackward0
    RsubTensor         RsubBackward0
    RsubScalar         RsubBackward1
    Mul                MulBackward0
    AddScalar          AddBackward1
    SubScalar          SubBackward1
    MulScalar          MulBackward1
    Div                DivBackward0
    DivMode            DivBackward2
    Remainder          RemainderBackward1
    Fmod               FmodBackward1
    RemainderScalar    RemainderBackward0
    FmodScalar         FmodBackward0
    NotDifferentiable  NotImplemented
    Neg                NegBackward0
    PowScalar          PowBackward0
    PowTensor          PowBackward1
    RpowScalar         PowBackward2
    Addcmul            AddcmulBackward0
    Addcdiv            AddcdivBackward0
    Lerp               LerpBackward0
    LerpTensor         LerpBackward1
    DivScalar          DivBackward1
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from .._dtype import result_type
from ..node import UINT64_MAX, register
from ._common import (
    BinaryOp,
    Ctx,
    Grad,
    Op,
    QualifiedNode,
    _scalar,
    binary_out,
    float_out,
    is_tensor,
    operand,
    power,
    promoted,
)
from ._layout import like, of, row_major


class Add(BinaryOp):
    """d(a + alpha*b) = (g, alpha*g)"""

    node_name, saved_attrs = "AddBackward0", ("alpha",)
    inplace_ufunc = np.add  # (add_ under no_grad writes with it: _views_inplace)

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any, alpha: Any = 1) -> Any:
        ctx.alpha = alpha
        bd = operand(b, a) if alpha == 1 else b._data * alpha
        return binary_out(a._data + bd, a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        if ctx.alpha == 1:  # then alpha was not an argument
            return g, g
        return g, f.scale(g, ctx.alpha), None


class Sub(BinaryOp):
    """d(a - alpha*b) = (g, -alpha*g)"""

    node_name, saved_attrs = "SubBackward0", ("alpha",)
    inplace_ufunc = np.subtract

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any, alpha: Any = 1) -> Any:
        _no_bool_sub(a._data, b._data)
        ctx.alpha = alpha
        bd = operand(b, a) if alpha == 1 else b._data * alpha
        return binary_out(a._data - bd, a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        if ctx.alpha == 1:  # then alpha was not an argument
            return g, -g
        return g, f.scale(-g, ctx.alpha), None


class RsubTensor(BinaryOp):
    """d(b - alpha*a) = (-alpha*g, g)   (``minigrad.rsub(a, b)``)"""

    node_name, saved_attrs = "RsubBackward0", ("alpha",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any, alpha: Any = 1) -> Any:
        _no_bool_sub(a._data, b._data)
        ctx.alpha = alpha
        ad = a._data if alpha == 1 else a._data * alpha
        # PyTorch's rsub is sub(other, self): the other operand decides the layout
        return promoted(of(b._data - ad, b._data, a._data), a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return (-g if ctx.alpha == 1 else f.scale(-g, ctx.alpha)), g, None


class RsubScalar(Op):
    """d(other - alpha*a) = -alpha*g   (``2 - a``)"""

    node_name, saved_attrs = "RsubBackward1", ("alpha",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, other: Any, alpha: Any = 1) -> Any:
        _no_bool_sub(a._data, np.asarray(other))
        ctx.alpha = alpha
        out = like(other - a._data * alpha, a._data, scalar=True)
        return out if out.dtype == a._data.dtype else float_out(out, a, other)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return (-g if ctx.alpha == 1 else g * -ctx.alpha), None, None


class Mul(BinaryOp):
    """d(a * b) = (g * b, g * a)"""

    node_name, saved = "MulBackward0", ("self", "other")
    inplace_ufunc = np.multiply

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        need_a, need_b = ctx.needs_input_grad
        # Each input is only needed for the other's gradient (PyTorch saves the same).
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        return binary_out(a._data * operand(b, a), a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        # other's first: PyTorch's generated backward makes the gradients in
        # the order of its inputs' names, sorted (a create_graph graph numbers
        # its nodes in that order)
        gb = g * a if need_b else None
        return (g * b if need_a else None), gb


class AddScalar(Op):
    """d(a + s) = g   (a Python number, as PyTorch's formulas add internally)"""

    node_name = "AddBackward1"

    @staticmethod
    def forward(ctx: Ctx, a: Any, s: Any) -> Any:
        out = like(a._data + s, a._data, scalar=True)
        return out if out.dtype == a._data.dtype else float_out(out, a, s)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return g, None


class SubScalar(Op):
    """d(a - s) = g   (a Python number, as PyTorch's formulas subtract it)"""

    node_name = "SubBackward1"

    @staticmethod
    def forward(ctx: Ctx, a: Any, s: Any) -> Any:
        out = like(a._data - s, a._data, scalar=True)
        return out if out.dtype == a._data.dtype else float_out(out, a, s)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return g, None


class MulScalar(Op):
    """d(a * s) = g * s   (a Python number, as PyTorch's formulas use internally)"""

    node_name, saved_attrs = "MulBackward1", ("other",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, s: Any) -> Any:
        ctx.other = s
        out = like(a._data * s, a._data, scalar=True)
        return out if out.dtype == a._data.dtype else float_out(out, a, s)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.scale(g, ctx.other), None


class Div(BinaryOp):
    """d(a / b) = (g / b, -g * ((a / b) / b))   (PyTorch's order of ops)"""

    node_name, saved = "DivBackward0", ("self", "other")

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None, b)
        with np.errstate(divide="ignore", invalid="ignore"):  # x/0: inf or nan
            return float_out(a._data / operand(b, a), a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        gb = None
        if need_b:  # other's first, as Mul's
            # (PyTorch's C++ computes an operator's right operand first)
            q = a / b / b
            gb = -g * q
        return (g / b if need_a else None), gb


class DivMode(BinaryOp):
    """d div(a, b, rounding_mode) = as a / b without rounding; with rounding the
    result is piecewise constant: zero gradients"""

    node_name, saved, saved_attrs = (
        "DivBackward2",
        ("self", "other"),
        ("rounding_mode",),
    )

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any, mode: Any) -> Any:
        if mode not in (None, "trunc", "floor"):
            raise RuntimeError(
                "div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                f"but found '{mode}'"
            )
        ctx.rounding_mode = mode
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None, b)
        if mode is None:
            with np.errstate(divide="ignore", invalid="ignore"):
                return float_out(a._data / operand(b, a), a, b)
        return rounded_division(a, b, mode)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad[:2]
        if ctx.rounding_mode is not None:  # constants, as PyTorch's zeros
            zero = f.zeros(f.data(g).shape, g)
            return (zero if need_a else None), (zero if need_b else None), None
        gb = None
        if need_b:  # as Div's
            q = a / b / b
            gb = -g * q
        return (g / b if need_a else None), gb, None


def rounded_division(a: Any, b: Any, mode: str) -> np.ndarray:
    """``a / b`` rounded toward -inf (floor) or 0 (trunc), in the promoted dtype
    (integers stay integers)."""
    x, y = a._data, operand(b, a)
    _refuse_integer_zero(a, b)
    with np.errstate(divide="ignore", invalid="ignore"):
        if mode == "floor":
            out = np.floor_divide(x, y)
        elif np.result_type(x, y).kind in "iu":
            out = np.floor_divide(x, y)
            out = out + ((out * y != x) & ((x < 0) != (y < 0)))  # toward 0
        else:
            out = np.trunc(x / y)
    return binary_out(out, a, b)


def _refuse_integer_zero(a: Any, b: Any) -> None:
    """PyTorch raises for an integer division by zero (numpy would give 0)."""
    if result_type(a, b).np.kind in "iu" and not np.all(b._data):
        raise RuntimeError("ZeroDivisionError")


class Remainder(BinaryOp):
    """d(a mod b) = (g, -g * floor(a / b))   (Python's sign: b's)"""

    node_name, saved = "RemainderBackward1", ("self", "other")
    ufunc, rounding = np.remainder, "floor"

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        need_b = ctx.needs_input_grad[1]
        ctx.save_for_backward(a if need_b else None, b if need_b else None)
        return modulo(ctx._forward_cls.ufunc, a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        rounding = ctx._forward_cls.rounding
        gb = None
        if need_b:  # (PyTorch's C++ computes an operator's right operand first)
            q = f.div_mode(a, b, rounding)
            gb = -g * q
        return (g if need_a else None), gb


class Fmod(Remainder):
    """d fmod(a, b) = (g, -g * trunc(a / b))   (C's sign: a's)"""

    node_name, saved = "FmodBackward1", ("self", "other")
    ufunc, rounding = np.fmod, "trunc"


class RemainderScalar(Op):
    """d(a mod s) = g"""

    node_name = "RemainderBackward0"

    @staticmethod
    def forward(ctx: Ctx, a: Any, s: Any) -> Any:
        return scalar_values(np.remainder, a, s)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return g, None


class FmodScalar(RemainderScalar):
    """d fmod(a, s) = g"""

    node_name = "FmodBackward0"

    @staticmethod
    def forward(ctx: Ctx, a: Any, s: Any) -> Any:
        return scalar_values(np.fmod, a, s)


def modulo(ufunc: Any, a: Any, b: Any) -> np.ndarray:
    """``np.remainder`` or ``np.fmod`` of two tensors (one may be a wrapped
    number), in PyTorch's result dtype."""
    _refuse_integer_zero(a, b)
    x = a._data.item() if a._wrapped_number else a._data
    with np.errstate(divide="ignore", invalid="ignore"):
        return binary_out(ufunc(x, operand(b, a)), a, b)


def scalar_values(ufunc: Any, a: Any, s: Any) -> np.ndarray:
    """``ufunc(a, s)`` for a Python number ``s``."""
    return modulo(ufunc, a, _scalar(s))


def _no_bool_sub(x: np.ndarray, y: np.ndarray) -> None:
    """PyTorch refuses ``-`` with a bool operand (numpy's words differ)."""
    bools = (x.dtype == np.bool_) + (y.dtype == np.bool_)
    if bools == 2:
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. "
            "Use the `^` or `logical_xor()` operator instead."
        )
    if bools:
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If "
            "you are trying to invert a mask, use the `~` or `logical_not()` "
            "operator instead."
        )


class NotDifferentiable(Op):
    """An op PyTorch has no derivative for (``a // b``, ``2 % a``): it is
    recorded, with edges to the operands that require grad only, and backward
    through it fails. ``forward`` gets the values already computed."""

    node_name, node_base = "NotImplemented", QualifiedNode

    @classmethod
    def apply(cls, a: Any, b: Any, values: np.ndarray, aten: str) -> Any:
        def operand(t: Any) -> Any:  # no edge at all for a constant
            return t if is_tensor(t) and t.requires_grad else None

        out = super().apply(operand(a), operand(b), values, aten)
        if out.grad_fn is not None:
            # PyTorch's error nodes carry no sequence number (UINT64_MAX), so
            # the engine runs this one first: it fails before any sibling runs
            out.grad_fn._seq = UINT64_MAX
        return out

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any, values: np.ndarray, aten: str) -> Any:
        ctx.aten = aten
        return values

    @staticmethod
    def backward(ctx: Ctx, *grads: Any) -> tuple:
        raise RuntimeError(f"derivative for aten::{ctx.aten} is not implemented")


class Neg(Op):
    """d(-a) = -g"""

    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        if a._data.dtype == np.bool_:
            raise RuntimeError(
                "Negation, the `-` operator, on a bool tensor is not supported. If "
                "you are trying to invert a mask, use the `~` or `logical_not()` "
                "operator instead."
            )
        return like(-a._data, a._data)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        return -g


class PowScalar(Op):
    """d(a ** e) = g * e * a ** (e - 1)"""

    node_name, saved, saved_attrs = "PowBackward0", ("self",), ("exponent",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, exponent: Any) -> Any:
        ctx.exponent = exponent
        ctx.save_for_backward(a)
        integral = a._data.dtype.kind in "iub"
        if integral and isinstance(exponent, (int, np.integer)) and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        out = like(power(a._data, exponent), a._data)
        return out if out.dtype == a._data.dtype else float_out(out, a, exponent)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (a,) = ctx.saved_tensors
        e = ctx.exponent
        if e == 0:
            return f.zeros_like(a), None
        e = float(e)  # PyTorch computes the derivative with a double exponent
        return g * f.scale(f.power(a, e - 1), e), None


class PowTensor(BinaryOp):
    """d(a ** b) = (g * b * a ** (b - 1), g * result * log(a)), with 0 where
    b == 0 (for a) and where a == 0 and b >= 0 (for b), as PyTorch's formulas"""

    node_name, saved = "PowBackward1", ("self", "exponent", "result")

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        out = binary_out(power(a._data, b._data), a, b)
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, b, result = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        x, e = f.data(a), f.data(b)
        zero = f.constant(np.zeros((), f.data(g).dtype), g)
        ga = gb = None
        if need_b:  # the exponent's first, as Mul's other's
            gb = g * f.where((x == 0) & (e >= 0), zero, result * f.log(a))
        if need_a:
            ga = f.where(e == 0, zero, g * (b * f.power(a, f.sub_scalar(b, 1))))
        return ga, gb


class RpowScalar(Op):
    """d(s ** b) = g * result * log(s)   (``2 ** a``)"""

    node_name, saved, saved_attrs = "PowBackward2", ("exponent", "result"), ("self",)

    @staticmethod
    def forward(ctx: Ctx, b: Any, base: Any) -> Any:
        ctx.self = base
        x = b._data  # (integers: C's power, 2 ** -1 == 0, which numpy refuses)
        out = power(base, x) if x.dtype.kind in "iub" else base**x
        out = out if out.dtype == b._data.dtype else float_out(out, b, base)
        out = row_major(out)  # (PyTorch's pow(number, tensor) is row-major)
        ctx.save_for_backward(b, out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        exponent, result = ctx.saved_tensors
        with np.errstate(divide="ignore"):
            log_base = float(np.log(ctx.self))
        scaled = f.scale(result, log_base)
        if ctx.self == 0:  # 0 ** b: no gradient where b >= 0, as in PyTorch
            zero = f.constant(np.zeros((), f.data(g).dtype), g)
            scaled = f.where(f.data(exponent) >= 0, zero, scaled)
        return g * scaled, None


# ------------------------------------------------- addcmul, addcdiv, lerp
class Addcmul(Op):
    """d(a + v t1 t2) = (g, g t2 v, g t1 v)"""

    node_name, saved = "AddcmulBackward0", ("tensor1", "tensor2")
    saved_attrs = ("value",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, t1: Any, t2: Any, value: Any) -> Any:
        ctx.value = value
        _, need_1, need_2 = ctx.needs_input_grad[:3]
        ctx.save_for_backward(t1 if need_2 else None, t2 if need_1 else None)
        out = a._data + value * t1._data * t2._data
        out = np.asarray(out, dtype=result_type(a, t1, t2).np)
        return of(out, a._data, t1._data, t2._data)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        t1, t2 = ctx.saved_tensors
        _, need_1, need_2 = ctx.needs_input_grad[:3]
        v = ctx.value

        def times_value(t: Any) -> Any:  # (PyTorch skips the product for 1)
            return t if v == 1 else f.scale(t, v)

        g1 = g * times_value(t2) if need_1 else None
        g2 = g * times_value(t1) if need_2 else None
        return g, g1, g2, None


class Addcdiv(Op):
    """d(a + v t1 / t2) = (g, g v / t2, -g v t1 / t2²)"""

    node_name, saved = "AddcdivBackward0", ("tensor1", "tensor2")
    saved_attrs = ("value",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, t1: Any, t2: Any, value: Any) -> Any:
        ctx.value = value
        need_2 = ctx.needs_input_grad[2]
        ctx.save_for_backward(t1 if need_2 else None, t2)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = a._data + value * t1._data / t2._data
        out = np.asarray(out, dtype=result_type(a, t1, t2).np)
        return of(out, a._data, t1._data, t2._data)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        t1, t2 = ctx.saved_tensors
        _, need_1, need_2 = ctx.needs_input_grad[:3]
        v = ctx.value
        g1 = g * f.number_over(v, t2) if need_1 else None
        g2 = None
        if need_2:  # (PyTorch's C++ computes an operator's right operand first)
            t2t2 = t2 * t2
            q = f.scale(t1, v) / t2t2
            g2 = -g * q
        return g, g1, g2, None


class Lerp(Op):
    """d lerp(a, b, w) = (g (1 - w), g w)   (w a number)"""

    node_name, saved_attrs = "LerpBackward0", ("weight",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any, weight: Any) -> Any:
        ctx.weight = weight
        x, y = a._data, b._data
        return binary_out(x + weight * (y - x), a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        w = ctx.weight
        need_a, need_b = ctx.needs_input_grad[:2]
        gb = f.scale(g, w) if need_b else None  # end's first, as Mul's other's
        return (f.scale(g, 1 - w) if need_a else None), gb, None


class LerpTensor(Op):
    """d lerp(a, b, w) = (g (1 - w), g w, g (b - a))"""

    node_name, saved = "LerpBackward1", ("self", "end", "weight")

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any, w: Any) -> Any:
        ctx.save_for_backward(a, b, w)
        x, y = a._data, b._data
        out = np.asarray(x + w._data * (y - x), dtype=result_type(a, b, w).np)
        return of(out, x, y, w._data)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, b, w = ctx.saved_tensors
        need_a, need_b, need_w = ctx.needs_input_grad
        # by name, as Mul's: end's, self's, weight's
        gb = g * w if need_b else None
        ga = g * f.number_minus(1, w) if need_a else None
        return ga, gb, (g * (b - a) if need_w else None)


# what _formula's helpers record on Tensors (it imports no op family)
register(
    AddScalar=AddScalar.apply,
    SubScalar=SubScalar.apply,
    MulScalar=MulScalar.apply,
    DivMode=DivMode.apply,
    rounded_division=rounded_division,
)


class DivScalar(Op):
    """d (a / s) = g / s   (a Python number: what PyTorch's loss formulas record)"""

    node_name, saved_attrs = "DivBackward1", ("other",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, s: Any) -> Any:
        ctx.other = s
        x = a._data
        return like(np.asarray(x / s, x.dtype), x, scalar=True)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.div_scalar(g, ctx.other), None


register(
    DivScalar=DivScalar.apply,
)
