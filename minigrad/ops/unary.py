"""Elementwise math of one tensor: exp and log (and their variants),
reciprocal, sqrt and rsqrt, abs and sign, trigonometric and hyperbolic functions
and their inverses, erf, rounding, frac, nan_to_num, logit, deg2rad. (The
activations, relu, sigmoid and tanh among them, are in ``activation.py``; the
functions of two tensors in ``binary.py``.)

Classes (and the node each records):

    Exp            ExpBackward0
    Log            LogBackward0
    Reciprocal     ReciprocalBackward0
    Sqrt           SqrtBackward0
    Abs            AbsBackward0
    Sin            SinBackward0
    Cos            CosBackward0
    Sign           SignBackward0
    Sgn            SgnBackward0
    Rsqrt          RsqrtBackward0
    Log1p          Log1PBackward0
    Log2           Log2Backward0
    Log10          Log10Backward0
    Exp2           Exp2Backward0
    Expm1          Expm1Backward0
    Erf            ErfBackward0
    Tan            TanBackward0
    Asin           AsinBackward0
    Acos           AcosBackward0
    Atan           AtanBackward0
    Sinh           SinhBackward0
    Cosh           CoshBackward0
    Asinh          AsinhBackward0
    Acosh          AcoshBackward0
    Atanh          AtanhBackward0
    NoInplaceDerivative  (their shared base: backward raises)
    AsinhInplace   AsinhBackward1  (asinh_: PyTorch has no derivative for it)
    AcoshInplace   AcoshBackward1
    AtanhInplace   AtanhBackward1
    _Rounding      (base: step functions, gradient zero)
    Floor          FloorBackward0
    Ceil           CeilBackward0
    Trunc          TruncBackward0
    Round          RoundBackward0
    RoundDecimals  RoundBackward1
    Frac           FracBackward0
    NanToNum       NanToNumBackward0
    Logit          LogitBackward0
    Deg2Rad        Deg2RadBackward0
    Rad2Deg        Rad2DegBackward0
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _formula as f
from ._common import Ctx, Grad, Op, as_float
from ._layout import like


class Exp(Op):
    """d exp(a) = g * result"""

    node_name, saved = "ExpBackward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        with np.errstate(over="ignore"):  # exp overflows to inf silently
            out = np.exp(as_float(a._data))
        if out.ndim > 1:  # (a 1-d result is row-major in both: the tiny-op path)
            out = like(out, a._data)
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
            return like(np.log(as_float(a._data)), a._data)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g / a


class Reciprocal(Op):
    """d (1/a) = -g * result²"""

    node_name, saved = "ReciprocalBackward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        with np.errstate(divide="ignore"):
            out = like(1 / as_float(a._data), a._data)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (y,) = ctx.saved_tensors
        yy = y * y  # (PyTorch's C++ computes an operator's right operand first)
        return -g * yy


class Sqrt(Op):
    """d sqrt(a) = g / (2 * result)"""

    node_name, saved = "SqrtBackward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        with np.errstate(invalid="ignore"):
            out = like(np.sqrt(as_float(a._data)), a._data)
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
        return like(np.abs(a._data), a._data)

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
        return like(np.sin(as_float(a._data)), a._data)

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
        return like(np.cos(as_float(a._data)), a._data)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g * -f.sin(a)


class Sign(Op):
    """d sign(a) = 0"""

    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        return like(
            np.nan_to_num(np.sign(a._data), nan=0), a._data
        )  # sign(nan) is 0 in PyTorch

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        # constant zeros, as PyTorch's zeros_like(grad): no graph under
        # create_graph, and 0 (not nan) for an infinite gradient
        return f.zeros_like(g)


class Sgn(Op):
    """d sgn(a) = 0   (sign, for real tensors; abs's gradient is written with it)"""

    node_name, saved = "SgnBackward0", ("self", "result")

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        out = like(
            np.nan_to_num(np.sign(a._data), nan=0), a._data
        )  # as sign: sgn(nan) is 0
        ctx.save_for_backward(a, out)  # (PyTorch's formula needs them for complex)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        # PyTorch returns an "efficient zero tensor" here, which adds nothing
        # where gradients are summed; g * 0 comes closest (see README)
        return g * 0


class Rsqrt(Op):
    """d a^(-1/2) = -0.5 * g * result³"""

    node_name, saved = "RsqrtBackward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        with np.errstate(divide="ignore", invalid="ignore"):
            out = like(1 / np.sqrt(as_float(a._data)), a._data)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (y,) = ctx.saved_tensors
        cube = y**3  # (PyTorch's C++ computes an operator's right operand first)
        return f.scale(g, -0.5) * cube


class Log1p(Op):
    """d log(1 + a) = g / (1 + a)"""

    node_name, saved = "Log1PBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            return like(np.log1p(as_float(a._data)), a._data)

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
            return like(np.log2(as_float(a._data)), a._data)

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
            return like(np.log10(as_float(a._data)), a._data)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g / f.scale(a, 2.3025850929940456)


class Exp2(Op):
    """d 2^a = g * result * ln 2"""

    node_name, saved = "Exp2Backward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        out = like(np.exp2(as_float(a._data)), a._data)
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
        out = like(np.expm1(as_float(a._data)), a._data)
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
        return f.erf_array(as_float(a._data))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return f.scale(f.exp(-(a**2)), 1.1283791670955126) * g  # 2/sqrt(pi) first


# ------------------------------------------------ more trigonometric functions
class Tan(Op):
    """d tan(a) = g * (1 + result²)"""

    node_name, saved = "TanBackward0", ("result",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        out = like(np.tan(as_float(a._data)), a._data)
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
        return like(np.arcsin(as_float(a._data)), a._data)

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
        return like(np.arccos(as_float(a._data)), a._data)

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
        return like(np.arctan(as_float(a._data)), a._data)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return g / f.add_scalar(a * a, 1)


class Sinh(Op):
    """d sinh(a) = g * cosh(a)"""

    node_name, saved = "SinhBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.save_for_backward(a)
        return like(np.sinh(as_float(a._data)), a._data)

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
        return like(np.cosh(as_float(a._data)), a._data)

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
        return like(np.arcsinh(as_float(a._data)), a._data)

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
        return like(np.arccosh(as_float(a._data)), a._data)

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
        return like(np.arctanh(as_float(a._data)), a._data)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        (a,) = ctx.saved_tensors
        return f.scale(g, 1) / f.number_minus(1, a**2)


class NoInplaceDerivative(Op):
    """PyTorch defines no derivative for ``asinh_``, ``acosh_`` and ``atanh_``:
    their node is recorded and backward through it raises."""

    _abstract = True

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        raise NotImplementedError(
            f"the derivative for 'inplace version of {ctx.op}' is not implemented."
        )


class AsinhInplace(NoInplaceDerivative):
    """d asinh_(a): not implemented"""

    node_name = "AsinhBackward1"

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.op = "asinh"
        return like(np.arcsinh(as_float(a._data)), a._data)


class AcoshInplace(NoInplaceDerivative):
    """d acosh_(a): not implemented"""

    node_name = "AcoshBackward1"

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.op = "acosh"
        return like(np.arccosh(as_float(a._data)), a._data)


class AtanhInplace(NoInplaceDerivative):
    """d atanh_(a): not implemented"""

    node_name = "AtanhBackward1"

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        ctx.op = "atanh"
        return like(np.arctanh(as_float(a._data)), a._data)


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
        return like(ctx._forward_cls.np_fn(x, *decimals), x)  # the op's numpy function

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


class Logit(Op):
    """d log(p / (1 - p)) = g / (p (1 - p)); outside [eps, 1 - eps] 0 (nan
    outside [0, 1] without eps)"""

    node_name, saved, saved_attrs = "LogitBackward0", ("self",), ("eps",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, eps: Any) -> Any:
        ctx.eps = eps
        ctx.save_for_backward(a)
        p = as_float(a._data)
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
        return as_float(a._data) * ctx._forward_cls.factor

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        return f.scale(g, ctx._forward_cls.factor)


class Rad2Deg(Deg2Rad):
    """d (a · 180/π) = g · 180/π"""

    node_name = "Rad2DegBackward0"
    factor = 180 / math.pi
