"""What the built-in ops share: the ``Op`` base class and ``BinaryOp``,
operands (Python numbers, broadcasting), dtype names and promotion, and the
layout of elementwise results (the rules are in ``_layout.py``).

Classes (and the node each records):

    _Qualified     (mixin: a node name with PyTorch's C++ namespace)
    QualifiedNode  (the node class of such ops)
    Op             (the base class of every built-in op)
    BinaryOp       (base: an op on two tensors that broadcast)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtype as dt
from .. import node
from .._dtype import from_numpy_dtype, result_type
from ..function import BackwardCFunction, Function
from ._layout import elementwise_layout, plain


def as_float(x: np.ndarray) -> np.ndarray:
    """Integer inputs give default-float results, as in PyTorch (``exp(int)``)."""
    return x if x.dtype.kind == "f" else x.astype(dt.default_float.np)


class _Qualified:
    """Nodes PyTorch names with a C++ namespace (``torch::autograd::CopySlices``)."""

    def name(self) -> str:
        return f"minigrad::autograd::{type(self).__name__}"


class QualifiedNode(_Qualified, BackwardCFunction):
    pass


class Op(Function):
    """A built-in op: forward computes numpy arrays from the inputs' ``_data``;
    backward formulas run on arrays or Tensors (see function.py)."""

    _abstract = True
    _array_backward = True


# The types of the op signatures (``forward(ctx: Ctx, a: Any)``, ``backward(ctx:
# Ctx, g: Grad)``): a gradient is an array on the fast first-order path and a
# Tensor under create_graph (the ops cannot name the Tensor class: it is above).
Grad = Any
Ctx = BackwardCFunction  # the node: forward's and backward's ``ctx``


# What an operator accepts besides a Tensor; anything else is refused the way
# PyTorch refuses it (``x + None`` is a TypeError, never a tensor of nan).
_NUMBER = (int, float, np.number, np.bool_)


def type_name(x: Any) -> str:
    """A value's type as PyTorch's argument parser names it (CPython's
    ``tp_name``): a class written in Python by its bare name (``Tensor``,
    ``Parameter``), a built-in or C type with its module (``float``,
    ``numpy.float64``); a dtype as ``minigrad.dtype``."""
    if isinstance(x, dt.dtype):
        return "minigrad.dtype"
    t = type(x)
    if t.__module__ == "builtins" or t.__flags__ & _HEAPTYPE:
        return t.__name__
    return f"{t.__module__}.{t.__name__}"


_HEAPTYPE = 1 << 9  # CPython's Py_TPFLAGS_HEAPTYPE: the class was defined in Python


def argument_desc(x: Any) -> str:
    """An argument as PyTorch's overload errors show it: ``list of [int, float]``,
    ``tuple of (float,)``, else its type name."""
    if not isinstance(x, (list, tuple)):
        return type_name(x)
    items = ", ".join(type_name(y) for y in x)
    if isinstance(x, list):
        return f"list of [{items}]"
    return f"tuple of ({items}{',' if len(x) == 1 else ''})"


def constant(a: Any) -> Any:
    """An array as a Tensor with no history (indices, masks, bounds)."""
    return node.Tensor._make(a, False)


def is_tensor(x: Any) -> bool:
    return isinstance(x, node.Tensor)


# The dtype of each Python number type as PyTorch wraps it (dt.scalar_dtype's
# answer, looked up by exact type: ``x * 0.9`` wraps a number on every call).
_WRAPPED_DTYPES = {t: dt.scalar_dtype(t()).np for t in (float, int, bool)}


def _scalar(value: Any) -> Any:
    """A Python number as the 0-d tensor PyTorch wraps it into (``2`` -> int64);
    it keeps a Python number's low rank in type promotion."""
    np_dtype = _WRAPPED_DTYPES.get(type(value))
    if np_dtype is None:  # a numpy scalar, or a subclass of a Python number
        np_dtype = dt.scalar_dtype(value).np
    t = node.Tensor._make(np.asarray(value, np_dtype), False)
    t._wrapped_number = True
    return t


def _as_tensor(value: Any, fn: str = "") -> Any:
    """A tensor argument of method ``fn``: a Tensor, or a wrapped Python number."""
    if isinstance(value, node.Tensor):
        return value
    if isinstance(value, _NUMBER):
        return _scalar(value)
    raise TypeError(
        f"{fn}(): argument 'other' (position 1) must be Tensor, not "
        f"{type(value).__name__}"
    )


def broadcast_shape(sa: tuple, sb: tuple) -> tuple:
    """The broadcast of two shapes, with PyTorch's error when there is none."""
    n = max(len(sa), len(sb))
    out = []
    for i in range(n - 1, -1, -1):  # PyTorch reports the rightmost mismatch
        off = n - 1 - i
        x = sa[len(sa) - 1 - off] if off < len(sa) else 1
        y = sb[len(sb) - 1 - off] if off < len(sb) else 1
        if x != y and x != 1 and y != 1:
            raise RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) "
                f"at non-singleton dimension {i}"
            )
        out.append(x if y == 1 else y)
    return tuple(reversed(out))


class BinaryOp(Op):
    """An op on two tensors that broadcast against each other: when numpy fails,
    PyTorch's broadcasting message is raised instead of numpy's."""

    _abstract = True

    @staticmethod
    def _forward_failed(a: Any, b: Any, *args: Any) -> None:
        broadcast_shape(a._data.shape, b._data.shape)


def operand(b: Any, a: Any) -> Any:
    """The array of ``b`` for an op with the float tensor ``a``; a Python number
    PyTorch wrapped (``x * 0.9``) is passed as the number, so numpy computes in
    ``a``'s dtype, as PyTorch does (not in float64, then rounded)."""
    if b._wrapped_number and a._data.dtype.kind == "f":
        return b._data.item()
    return b._data


def binary_out(out: Any, a: Any, b: Any) -> Any:
    """An elementwise result: numpy's, in the dtype PyTorch's promotion rules
    give, laid out in memory as PyTorch lays it out."""
    if out.ndim > 1 and not plain(a._data, b._data):
        out = elementwise_layout(out, (a._data, b._data))
    ad = out.dtype
    if a._data.dtype is ad and b._data.dtype is ad:  # the usual case: one dtype
        return out
    return promoted(out, a, b)


def promoted(out: Any, a: Any, b: Any) -> Any:
    """Cast numpy's result to the dtype PyTorch's promotion rules give."""
    ad, bd = a._data.dtype, b._data.dtype
    if ad is bd and out.dtype is ad:  # the usual case; dtypes are mostly singletons
        return out
    if b._wrapped_number and ad.kind == "f" and not a._wrapped_number:
        want = ad  # a Python number never changes a float tensor's dtype
    else:
        want = result_type(a, b).np
    return out if out.dtype == want else out.astype(want, order="K")


def float_out(out: Any, *operands: Any) -> Any:
    """Like ``binary_out`` but integer results become the default float (``/``)."""
    if len(operands) == 2 and out.ndim > 1:
        a, b = operands
        if hasattr(b, "_data") and not plain(a._data, b._data):
            out = elementwise_layout(out, (a._data, b._data))
    want = result_type(*operands)
    if not want.is_floating_point:
        want = dt.default_float
    return out if out.dtype == want.np else out.astype(want.np, order="K")


def dtype_name(x: np.ndarray | np.dtype) -> str:
    """``Float``, ``Double``, ``Long``...: PyTorch's kernels' name of an array's
    (or a dtype's) scalar type in their messages."""
    return from_numpy_dtype(np.dtype(getattr(x, "dtype", x)))._scalar_type


def power(x: np.ndarray, e: Any) -> Any:
    """``x ** e`` with PyTorch's float32 rounding. For a Python number
    exponent its kernel computes ``x * x * x`` for 3, ``1 / (x * x)`` for -2
    and ``1 / sqrt(x)`` for -0.5; other powers come correctly rounded, which
    numpy (2.4 on) misses in the last bit for about one float32 value in five,
    so they are taken in double and rounded. The result type is numpy's."""
    out_type = np.result_type(x, e)  # (a Python number stays weak)
    if out_type.kind in "iu" and np.any(np.asarray(e) < 0):
        # integer tensors: C's integer power, where a negative exponent gives
        # 0 but for a base of 1 or -1 (numpy refuses; a Python number exponent
        # is refused before this, in PyTorch's words)
        x, e = np.asarray(x), np.asarray(e)
        whole = np.power(x, np.where(e < 0, 0, e)).astype(out_type)
        unit = np.where(x == 1, 1, np.where(e % 2 == 0, 1, -1))
        return np.where(e >= 0, whole, np.where(np.abs(x) == 1, unit, 0)).astype(
            out_type
        )
    if out_type not in (np.float32, np.float16):
        return np.power(x, e)
    number = isinstance(e, (int, float))  # (a tensor exponent: the plain power)
    if number and e in (2, -1, 0.5):
        return np.power(x, e)  # (numpy's square, reciprocal, sqrt: exact)
    if number and e in (3, -2, -0.5) and x.dtype == out_type:
        return x * x * x if e == 3 else 1 / (x * x) if e == -2 else 1 / np.sqrt(x)
    wide = np.power(np.asarray(x, np.float64), np.asarray(e, np.float64))
    return wide.astype(out_type)
