"""Elementwise choices: ``where``, ``masked_fill``, ``maximum``/``minimum``
and ``clamp``; and masked_select/masked_scatter, which pick or place the
elements a mask selects. Each output element comes from one of the inputs (or
a constant), so the gradient goes back to whichever input was chosen; the masks
that say which one are constants of the backward formula.

Tensors that steer the choice but get no gradient (a condition, a mask) are
passed inside a tuple, so that they get no edge in ``next_functions``.

Classes (and the node each records):

    Where                  WhereBackward0
    MaskedFill             MaskedFillBackward0
    MaskedFillTensor       MaskedFillBackward1
    Maximum                MaximumBackward0
    Minimum                MinimumBackward0
    Clamp                  ClampBackward1
    ClampMin               ClampMinBackward0
    ClampMax               ClampMaxBackward0
    ClampTensor            ClampBackward0
    ClampMinTensor         ClampMinBackward1
    ClampMaxTensor         ClampMaxBackward1
    MaskedSelect           MaskedSelectBackward0
    MaskedScatter          MaskedScatterBackward0
    MaskedScatterBackward  MaskedScatterBackwardBackward0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from .._dtype import from_numpy_dtype, result_type
from ..node import register
from ._common import (
    _NUMBER,
    BinaryOp,
    Ctx,
    Grad,
    Op,
    _as_tensor,
    argument_desc,
    binary_out,
    broadcast_shape,
    constant,
    dtype_name,
    is_tensor,
    promoted,
    type_name,
)
from ._layout import elementwise_layout, like, of, plain, row_major


def _tensor(x: Any) -> Any:
    return _as_tensor(x)


# ------------------------------------------------------------------------ where
class Where(Op):
    """d where(c, a, b) = (g where c else 0, 0 where c else g)"""

    node_name, saved = "WhereBackward0", ("condition",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any, consts: tuple) -> Any:
        (cond,) = consts
        c = cond._data
        if c.dtype != np.bool_:
            legacy = from_numpy_dtype(c.dtype)._legacy.replace("Tensor", "")
            raise RuntimeError(
                "where expected condition to be a boolean tensor, but got a tensor "
                f"with dtype {legacy}"
            )
        broadcast_shape(broadcast_shape(c.shape, a._data.shape), b._data.shape)
        ctx.save_for_backward(cond)
        out = np.where(c, a._data, b._data)
        if out.ndim > 1 and not (plain(c, a._data) and plain(a._data, b._data)):
            out = elementwise_layout(out, (c, a._data, b._data))  # c leads
        return promoted(out, a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (c,) = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad[:2]
        # other's first: PyTorch's generated backward makes the gradients in
        # the order of its inputs' names, sorted
        gb = f.where(c, 0, g) if need_b else None
        return (f.where(c, g, 0) if need_a else None), gb, None


def where(condition: Any, input: Any, other: Any) -> Any:
    """``input`` where ``condition`` holds, else ``other`` (numbers allowed)."""
    return Where.apply(_tensor(input), _tensor(other), (condition,))


def refuse_where_args(condition: Any, input: Any, other: Any) -> None:
    """``minigrad.where(c, x, y)`` with an argument of no accepted type: the
    error of PyTorch's argument parser (not numpy's or a conversion's)."""
    args = (condition, input, other)
    # (any number a 0-d tensor could be made of: numpy scalars and complex too)
    accepted = [is_tensor(a) or isinstance(a, (*_NUMBER, complex)) for a in args[1:]]
    if is_tensor(condition) and all(accepted):
        return
    raise TypeError(_where_mismatch(args))


def _where_mismatch(args: tuple) -> str:
    """PyTorch's parser error for ``where(c, x, y)`` with an argument of no
    accepted type. It marks each argument whose Python type name is not the
    signature's (so ``Number`` matches nothing: PyTorch's quirk, kept)."""

    def marked(kinds: tuple) -> str:
        return ", ".join(
            argument_desc(a) if type_name(a) == kind else f"!{argument_desc(a)}!"
            for a, kind in zip(args, kinds)
        )

    got = ", ".join(type_name(a) for a in args)
    lines = [
        f"where() received an invalid combination of arguments - got ({got}), but "
        "expected one of:",
        " * (Tensor condition)",
        " * (Tensor condition, Tensor input, Tensor other, *, Tensor out = None)",
    ]
    for names, kinds in (
        ("Number self, Tensor other", ("Tensor", "Number", "Tensor")),
        ("Tensor input, Number other", ("Tensor", "Tensor", "Number")),
        ("Number self, Number other", ("Tensor", "Number", "Number")),
    ):
        lines.append(f" * (Tensor condition, {names})")
        lines.append(
            "      didn't match because some of the arguments have invalid types: "
            f"({marked(kinds)})"
        )
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ masked_fill
def _check_mask(mask: Any) -> np.ndarray:
    m = mask._data
    if m.dtype != np.bool_:
        raise RuntimeError(
            "masked_fill_ only supports boolean masks, but got mask with dtype "
            f"{from_numpy_dtype(m.dtype)._cpp}"
        )
    return m


class MaskedFill(Op):
    """d masked_fill(a, mask, value) = g where not mask, else 0"""

    node_name, saved = "MaskedFillBackward0", ("mask",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, consts: tuple, value: Any) -> Any:
        (mask,) = consts
        m = _check_mask(mask)
        x = a._data
        broadcast_shape(m.shape, x.shape)
        ctx.save_for_backward(mask)
        filled = np.where(m, np.asarray(value).astype(x.dtype), x)
        return row_major(np.asarray(filled))  # PyTorch fills a row-major clone

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (mask,) = ctx.saved_tensors
        return f.masked_fill(g, f.data(mask), 0), None, None


class MaskedFillTensor(Op):
    """d masked_fill(a, mask, v) = (g where not mask, sum of g where mask)
    (``v`` a 0-d tensor)"""

    node_name, saved = "MaskedFillBackward1", ("mask",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, v: Any, consts: tuple) -> Any:
        (mask,) = consts
        m = _check_mask(mask)
        if v._data.ndim:
            raise RuntimeError(
                "masked_fill_ only supports a 0-dimensional value tensor, but got "
                f"tensor with {v._data.ndim} dimension(s)."
            )
        x = a._data
        broadcast_shape(m.shape, x.shape)
        ctx.save_for_backward(mask)
        return row_major(np.asarray(np.where(m, v._data.astype(x.dtype), x)))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (mask,) = ctx.saved_tensors
        need_a, need_v = ctx.needs_input_grad[:2]
        ga = f.masked_fill(g, f.data(mask), 0) if need_a else None
        gv = masked_select(g, mask).sum() if need_v else None
        return ga, gv, None


def masked_fill(a: Any, mask: Any, value: Any) -> Any:
    if hasattr(value, "_data"):
        return MaskedFillTensor.apply(a, value, (mask,))
    return MaskedFill.apply(a, (mask,), value)


# ------------------------------------------------------------- maximum, minimum
def _choice_grads(ctx: Ctx, g: Any, a_loses: Any, b_loses: Any) -> tuple:
    """maximum/minimum: each input gets ``g`` where it was chosen, ``g / 2`` on
    ties (PyTorch: ``where(a == b, g / 2, g).masked_fill_(loses, 0)``)."""
    a, b = ctx.saved_tensors
    x, y = f.data(a), f.data(b)
    need_a, need_b = ctx.needs_input_grad
    ga = gb = None
    if need_b:  # other's first, as Where's
        gb = f.masked_fill(f.where(x == y, f.div_scalar(g, 2), g), b_loses(x, y), 0)
    if need_a:
        ga = f.masked_fill(f.where(x == y, f.div_scalar(g, 2), g), a_loses(x, y), 0)
    if isinstance(g, f.ndarray):  # (PyTorch fills where's result in place: its
        # layout is the mask's, TensorIterator's of self and other)
        ga, gb = (None if t is None else of(np.asarray(t), x, y, g) for t in (ga, gb))
    return ga, gb


class Maximum(BinaryOp):
    """d maximum(a, b) = (g where a > b, g where b > a), halved on ties"""

    node_name, saved = "MaximumBackward0", ("self", "other")

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        ctx.save_for_backward(a, b)
        return binary_out(np.maximum(a._data, b._data), a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return _choice_grads(ctx, g, np.less, np.greater)


class Minimum(BinaryOp):
    """d minimum(a, b) = (g where a < b, g where b < a), halved on ties"""

    node_name, saved = "MinimumBackward0", ("self", "other")

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        ctx.save_for_backward(a, b)
        return binary_out(np.minimum(a._data, b._data), a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return _choice_grads(ctx, g, np.greater, np.less)


def _check_other(name: str, other: Any) -> None:
    if not hasattr(other, "_data"):
        raise TypeError(
            f"{name}(): argument 'other' (position 2) must be Tensor, not "
            f"{type(other).__name__}"
        )


def maximum(a: Any, b: Any) -> Any:
    _check_other("maximum", b)
    return Maximum.apply(a, b)


def minimum(a: Any, b: Any) -> Any:
    _check_other("minimum", b)
    return Minimum.apply(a, b)


# ------------------------------------------------------------------------ clamp
def _clamp_array(x: np.ndarray, lo: Any, hi: Any, dtype: Any) -> np.ndarray:
    out = x
    if lo is not None:
        out = np.maximum(out, lo)
    if hi is not None:
        out = np.minimum(out, hi)  # min > max gives max everywhere, as in PyTorch
    return like(np.asarray(out).astype(dtype, copy=False), x)  # a unary op


def _inside(x: np.ndarray, lo: Any, hi: Any) -> np.ndarray:
    """Where clamp lets ``x`` through (the bounds themselves included)."""
    if lo is None:
        return x <= hi
    if hi is None:
        return x >= lo
    return (x >= lo) & (x <= hi)


class Clamp(Op):
    """d clamp(a, min, max) = g where min <= a <= max, else 0"""

    node_name, saved, saved_attrs = "ClampBackward1", ("self",), ("min", "max")
    cast_error_cpp = True  # its in-place cast error names the C++ type (long int)

    @staticmethod
    def forward(ctx: Ctx, a: Any, lo: Any, hi: Any) -> Any:
        ctx.min, ctx.max = lo, hi
        ctx.save_for_backward(a)
        want = result_type(*(v for v in (a, lo, hi) if v is not None)).np
        return _clamp_array(a._data, lo, hi, want)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (a,) = ctx.saved_tensors
        return f.where(_inside(f.data(a), ctx.min, ctx.max), g, 0), None, None


class ClampMin(Op):
    """d clamp_min(a, min) = g where a >= min, else 0"""

    node_name, saved, saved_attrs = "ClampMinBackward0", ("self",), ("min",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, lo: Any) -> Any:
        ctx.min = lo
        ctx.save_for_backward(a)
        return _clamp_array(a._data, lo, None, result_type(a, lo).np)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (a,) = ctx.saved_tensors
        return f.where(f.data(a) >= ctx.min, g, 0), None


class ClampMax(Op):
    """d clamp_max(a, max) = g where a <= max, else 0"""

    node_name, saved, saved_attrs = "ClampMaxBackward0", ("self",), ("max",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, hi: Any) -> Any:
        ctx.max = hi
        ctx.save_for_backward(a)
        return _clamp_array(a._data, None, hi, result_type(a, hi).np)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (a,) = ctx.saved_tensors
        return f.where(f.data(a) <= ctx.max, g, 0), None


class ClampTensor(Op):
    """d clamp(a, min, max) with tensor bounds = (g where a was kept, g where the
    min was taken, g where the max was taken)"""

    node_name, saved = "ClampBackward0", ("self", "min", "max")

    @staticmethod
    def forward(ctx: Ctx, a: Any, lo: Any, hi: Any) -> Any:
        lo = None if lo is _absent() else lo
        hi = None if hi is _absent() else hi
        ctx.save_for_backward(a, lo, hi)
        bounds = [v for v in (lo, hi) if v is not None]
        for v in bounds:
            broadcast_shape(a._data.shape, v._data.shape)
        want = result_type(a, *bounds).np
        out = _clamp_array(
            a._data,
            None if lo is None else lo._data,
            None if hi is None else hi._data,
            want,
        )
        return of(out, a._data, *(v._data for v in bounds))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, lo, hi = ctx.saved_tensors
        x = f.data(a)
        lo = None if lo is None else f.data(lo)
        hi = None if hi is None else f.data(hi)
        need_a, need_lo, need_hi = ctx.needs_input_grad
        glo = ghi = None  # the bounds' first, as Where's other's ("min, max" < "self")
        if need_lo:
            took_lo = x < lo if hi is None else (x < lo) & (lo < hi)
            glo = f.where(took_lo, g, 0)
        if need_hi:
            took_hi = x > hi if lo is None else (x > hi) | (hi < lo)
            ghi = f.where(took_hi, g, 0)
        return (f.where(_inside(x, lo, hi), g, 0) if need_a else None), glo, ghi


class ClampMinTensor(Op):
    """d clamp_min(a, min) = (g where a >= min, g where a < min)"""

    node_name, saved = "ClampMinBackward1", ("self", "min")

    @staticmethod
    def forward(ctx: Ctx, a: Any, lo: Any) -> Any:
        ctx.save_for_backward(a, lo)
        return binary_out(np.maximum(a._data, lo._data), a, lo)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, lo = ctx.saved_tensors
        keep = f.data(a) >= f.data(lo)
        need_a, need_lo = ctx.needs_input_grad
        glo = f.where(~keep, g, 0) if need_lo else None  # min's first, as Where's
        return (f.where(keep, g, 0) if need_a else None), glo


class ClampMaxTensor(Op):
    """d clamp_max(a, max) = (g where a <= max, g where a > max)"""

    node_name, saved = "ClampMaxBackward1", ("self", "max")

    @staticmethod
    def forward(ctx: Ctx, a: Any, hi: Any) -> Any:
        ctx.save_for_backward(a, hi)
        return binary_out(np.minimum(a._data, hi._data), a, hi)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, hi = ctx.saved_tensors
        keep = f.data(a) <= f.data(hi)
        need_a, need_hi = ctx.needs_input_grad
        ghi = f.where(~keep, g, 0) if need_hi else None  # max's first, as Where's
        return (f.where(keep, g, 0) if need_a else None), ghi


_ABSENT: list = []


def _absent() -> Any:
    """The placeholder for a missing tensor bound: it takes an input slot, so
    ``next_functions`` has PyTorch's ``(None, 0)`` there."""
    if not _ABSENT:
        _ABSENT.append(constant(np.zeros(())))
    return _ABSENT[0]


def clamp_args(lo: Any, hi: Any) -> tuple[type, tuple]:
    """The op and arguments of ``clamp(min, max)``: number bounds or tensors."""
    if lo is None and hi is None:
        raise RuntimeError(
            "minigrad.clamp: At least one of 'min' or 'max' must not be None"
        )
    if hasattr(lo, "_data") or hasattr(hi, "_data"):
        lo = _absent() if lo is None else _tensor(lo)
        hi = _absent() if hi is None else _tensor(hi)
        return ClampTensor, (lo, hi)
    return Clamp, (lo, hi)


def clamp_min_args(lo: Any) -> tuple[type, tuple]:
    return (ClampMinTensor if hasattr(lo, "_data") else ClampMin), (lo,)


def clamp_max_args(hi: Any) -> tuple[type, tuple]:
    return (ClampMaxTensor if hasattr(hi, "_data") else ClampMax), (hi,)


# --------------------------------------------------- masked_select / scatter
def _bool_mask(mask: Any, op: str) -> np.ndarray:
    m = mask._data
    if m.dtype != np.bool_:
        raise RuntimeError(f"{op}: expected BoolTensor for mask")
    return m


class MaskedSelect(Op):
    """d a.masked_select(mask) = g put back at the mask's places (zeros
    elsewhere; a broadcast input sums them)"""

    node_name, saved = "MaskedSelectBackward0", ("self", "mask")

    @staticmethod
    def forward(ctx: Ctx, a: Any, consts: tuple) -> Any:
        (mask,) = consts
        m, x = _bool_mask(mask, "masked_select"), a._data
        shape = broadcast_shape(x.shape, m.shape)
        ctx.shape = shape
        ctx.save_for_backward(a, mask)
        return np.broadcast_to(x, shape)[np.broadcast_to(m, shape)]

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        _, mask = ctx.saved_tensors
        zeros = f.zeros(ctx.shape, g)
        return masked_scatter(zeros, mask, g), None


def masked_select(x: Any, mask: Any) -> Any:
    """``x.masked_select(mask)`` on arrays or Tensors (for formulas)."""
    if isinstance(x, f.ndarray):
        shape = broadcast_shape(x.shape, f.data(mask).shape)
        return np.broadcast_to(x, shape)[np.broadcast_to(f.data(mask), shape)]
    return MaskedSelect.apply(x, (mask,))


def masked_scatter(x: Any, mask: Any, source: Any) -> Any:
    """``x.masked_scatter(mask, source)`` on arrays or Tensors (for formulas)."""
    if isinstance(x, f.ndarray):
        out = np.array(x, copy=True)
        m = np.broadcast_to(f.data(mask), out.shape)
        out[m] = np.asarray(source).reshape(-1)[: int(m.sum())]
        return out
    return MaskedScatter.apply(x, (mask,), source)


class MaskedScatter(Op):
    """d a.masked_scatter(mask, s) = (g with the mask's places zeroed, g at
    them, in order, as s's first elements)"""

    node_name, saved = "MaskedScatterBackward0", ("mask",)
    saved_attrs = ("source_sym_sizes",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, consts: tuple, source: Any) -> Any:
        (mask,) = consts
        x, s = a._data, source._data
        if x.dtype != s.dtype:
            raise RuntimeError(
                "masked_scatter: expected self and source to have same dtypes but "
                f"got{dtype_name(x)} and {dtype_name(s)}"
            )
        m = np.broadcast_to(_bool_mask(mask, "masked_scatter"), x.shape)
        if s.size < m.sum():
            raise RuntimeError("Number of elements of source < number of ones in mask")
        ctx.source_sym_sizes = s.shape
        ctx.save_for_backward(mask)
        return masked_scatter(x, mask._data, s)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (mask,) = ctx.saved_tensors
        need_a, need_s = ctx.needs_input_grad[0], ctx.needs_input_grad[2]
        m = np.broadcast_to(f.data(mask), tuple(g.shape))
        ga = f.masked_fill(g, m, 0) if need_a else None
        gs = masked_scatter_backward(g, mask, ctx.source_sym_sizes) if need_s else None
        return ga, None, gs


def masked_scatter_backward(g: Any, mask: Any, sizes: tuple) -> Any:
    """g at the mask's places, in order, padded with zeros to the source's
    size; on Tensors one node, MaskedScatterBackwardBackward0."""
    if not isinstance(g, f.ndarray):
        return MaskedScatterBackward.apply(g, (mask,), sizes)
    picked = g[np.broadcast_to(f.data(mask), g.shape)]
    n = int(np.prod(sizes))
    out = np.zeros(n, g.dtype)
    out[: picked.size] = picked[:n]
    return out.reshape(sizes)


class MaskedScatterBackward(Op):
    """d masked_scatter_backward(g) = zeros like g with gg scattered at the
    mask's places"""

    node_name, saved = "MaskedScatterBackwardBackward0", ("mask",)

    @staticmethod
    def forward(ctx: Ctx, g: Any, consts: tuple, sizes: tuple) -> Any:
        (mask,) = consts
        ctx.save_for_backward(mask)
        ctx.g_shape = g._data.shape
        return masked_scatter_backward(g._data, mask._data, sizes)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        (mask,) = ctx.saved_tensors
        return masked_scatter(f.zeros(ctx.g_shape, gg), mask, gg), None, None


register(
    where=where,
)
