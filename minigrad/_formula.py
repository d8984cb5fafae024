"""Helpers that let one backward formula run on numpy arrays or on Tensors.

Operators (``+ - * / ** @``) already work on both; these cover the rest. On arrays
they compute directly (the fast first-order path); on Tensors they call the Tensor
method, so under ``create_graph=True`` the formula records a graph of its own.
Where PyTorch's formula records an op no Tensor method reaches (``MulBackward1``
for ``x * 2``...), the op's family registers it in ``node.registered``: this
module imports no op family.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._backward_io import bump_grad_version
from .node import registered, sum_to
from .ops import _common, _layout

__all__ = ["sum_to"]  # (node.py's: the engine undoes broadcasting with it too)

ndarray = (np.ndarray, np.generic)  # numpy returns scalars for 0-d results


def exp(x: Any) -> Any:
    return np.exp(x) if isinstance(x, ndarray) else x.exp()


def log1p(x: Any) -> Any:
    return np.log1p(x) if isinstance(x, ndarray) else x.log1p()


def xlogy(x: Any, y: Any) -> Any:
    """``x log y`` (0 where x is 0), on arrays or Tensors."""
    if isinstance(x, ndarray):
        return xlogy_values(x, y if isinstance(y, (int, float)) else data(y))
    return x.xlogy(y)


def log(x: Any) -> Any:
    return np.log(x) if isinstance(x, ndarray) else x.log()


def sign(x: Any) -> Any:
    return np.sign(x) if isinstance(x, ndarray) else x.sign()


def sgn(x: Any) -> Any:
    return np.sign(x) if isinstance(x, ndarray) else x.sgn()


def sinh(x: Any) -> Any:
    return np.sinh(x) if isinstance(x, ndarray) else x.sinh()


def cosh(x: Any) -> Any:
    return np.cosh(x) if isinstance(x, ndarray) else x.cosh()


def rsqrt(x: Any) -> Any:
    return 1 / np.sqrt(x) if isinstance(x, ndarray) else x.rsqrt()


def reciprocal(x: Any) -> Any:
    return 1 / x if isinstance(x, ndarray) else x.reciprocal()


def zeros_like(x: Any) -> Any:
    """Zeros shaped like ``x``: a constant, with no history."""
    return zeros(tuple(x.shape), x)


def sin(x: Any) -> Any:
    return np.sin(x) if isinstance(x, ndarray) else x.sin()


def cos(x: Any) -> Any:
    return np.cos(x) if isinstance(x, ndarray) else x.cos()


def div_mode(a: Any, b: Any, mode: str) -> Any:
    """``a / b`` rounded (``"floor"``/``"trunc"``); DivBackward2 on Tensors."""
    if isinstance(a, ndarray):
        wrap = _common.constant
        return registered["rounded_division"](wrap(a), wrap(data(b)), mode)
    return registered["DivMode"](a, b, mode)


def power(x: Any, e: Any) -> Any:
    """``x ** e``, on arrays with PyTorch's float32 rounding (``_common.power``),
    so a gradient such as ``e * x ** (e - 1)`` equals the user's own."""
    if isinstance(x, ndarray):
        return _common.power(x, e)
    return x**e


def scale(x: Any, s: Any) -> Any:
    """``x * s`` for a Python number ``s`` (recorded as MulBackward1, like PyTorch)."""
    if isinstance(x, ndarray):
        return x * s
    return registered["MulScalar"](x, s)


def add_scalar(x: Any, s: float) -> Any:
    """``x + s`` for a Python number ``s`` (AddBackward1, as in PyTorch's C++
    formulas; Python's ``x + 1`` records AddBackward0)."""
    if isinstance(x, ndarray):
        return x + s
    return registered["AddScalar"](x, s)


def sub_scalar(x: Any, s: float) -> Any:
    """``x - s`` for a Python number ``s`` (SubBackward1)."""
    if isinstance(x, ndarray):
        return x - s
    return registered["SubScalar"](x, s)


def number_minus(s: float, x: Any) -> Any:
    """``s - x`` as PyTorch's C++ formulas compute it: the number becomes a
    tensor, so the node is SubBackward0 (Python's ``1 - x`` is RsubBackward1)."""
    if isinstance(x, ndarray):
        return s - x
    return _common._scalar(s) - x


def number_over(s: float, x: Any) -> Any:
    """``s / x`` as PyTorch's C++ formulas compute it (the number becomes a
    tensor: DivBackward0)."""
    if isinstance(x, ndarray):
        return s / x
    return _common._scalar(s) / x


def expand(g: Any, shape: tuple) -> Any:
    """Broadcast ``g`` to ``shape`` (the backward of a reduction)."""
    if isinstance(g, ndarray):
        if g.size == math.prod(shape):  # nothing repeats: a plain view
            return g.reshape(shape)
        return broadcast_view(g, shape)
    return g.expand(shape)


def broadcast_view(x: ndarray, shape: tuple) -> ndarray:
    """``x`` broadcast to ``shape``, writable as PyTorch's ``expand`` is: a view
    of one element may be written (changing every element that shares it); an
    in-place op on the whole expanded tensor is refused by ``Tensor._inplace``."""
    out = np.broadcast_to(x, shape)
    if 1 in shape:  # numpy gives a size-1 dim stride 0; PyTorch's expand keeps
        # its stride, and a new one's is the next dim's size times its stride
        strides, lead = list(out.strides), len(shape) - x.ndim
        for i in range(len(shape) - 1, -1, -1):
            if shape[i] == 1:
                strides[i] = (
                    x.strides[i - lead]
                    if i >= lead
                    else (shape[i + 1] * strides[i + 1] if i + 1 < len(shape) else 1)
                )
        if tuple(strides) != out.strides:
            view = np.lib.stride_tricks.as_strided
            return view(x, shape, strides, writeable=x.flags.writeable)
    if x.flags.writeable:
        out.flags.writeable = True  # (cheaper than np.lib.stride_tricks.as_strided)
    return out


def reshape(g: Any, shape: tuple) -> Any:
    return g.reshape(shape)


def squeeze_dim(g: Any, dim: int) -> Any:
    """Drop the size-1 dim ``dim`` (SqueezeBackward1 on Tensors)."""
    return np.squeeze(g, dim) if isinstance(g, ndarray) else g.squeeze(dim)


def unsqueeze(x: Any, dim: int) -> Any:
    return np.expand_dims(x, dim) if isinstance(x, ndarray) else x.unsqueeze(dim)


def unsqueeze_dims(g: Any, dims: tuple, ndim: int) -> Any:
    """Re-insert reduced dims (``keepdim=False`` backward) before expanding;
    ``dims`` as the op was given them. On Tensors as PyTorch's unsqueeze_multiple
    records it: one dim unsqueezed as given (``sum(-1)``'s node saves -1),
    several one by one, counted from the front, in increasing order."""
    if not isinstance(g, ndarray):
        if len(dims) == 1:
            return g.unsqueeze(dims[0])
        for d in sorted(d % ndim for d in dims):
            g = g.unsqueeze(d)
        return g
    shape = list(g.shape)
    for d in sorted(d % ndim for d in dims):
        shape.insert(d, 1)
    return g.reshape(tuple(shape))


def masked_fill(x: Any, mask: np.ndarray, value: float) -> Any:
    """``x`` with ``value`` where the constant ``mask`` holds (MaskedFillBackward0
    on Tensors, as PyTorch's formulas record it)."""
    if isinstance(x, ndarray):
        filled = np.where(mask, value, x).astype(x.dtype, copy=False)
        return _layout.row_major(filled)  # (a row-major clone, as the forward's)
    return x.masked_fill(type(x)._make(np.asarray(mask), False), value)


def div_scalar(x: Any, n: Any) -> Any:
    """``x / n`` for a Python number ``n`` (DivBackward1 on Tensors, as PyTorch's
    formulas record it)."""
    if isinstance(x, ndarray):
        return x / n
    return registered["DivScalar"](x, n)


def mT(x: Any) -> Any:  # noqa: N802 - PyTorch's name
    """Swap the last two dims (``t()`` for a matrix, as PyTorch's formulas do)."""
    if isinstance(x, ndarray):
        return np.swapaxes(x, -1, -2)
    return x.t() if x.ndim == 2 else x.transpose(-1, -2)


def outer(a: Any, b: Any) -> Any:
    """``a ⊗ b`` of two vectors (PyTorch's formulas: ``a.reshape(-1, 1) * b``)."""
    if isinstance(a, ndarray):
        return np.multiply.outer(a, b)
    return a.reshape(-1, 1) * b


def zeros(shape: tuple, like: Any) -> Any:
    if isinstance(like, ndarray):
        return np.zeros(shape, like.dtype)
    return type(like)._make(np.zeros(shape, like._data.dtype), False)


def index_add(g: Any, shape: tuple, key: Any) -> Any:
    """Scatter ``g`` into zeros of ``shape`` at ``key`` (indexing's backward).
    PyTorch's index_put_ into the zeros leaves the result at version 1."""
    if isinstance(g, ndarray):
        out = np.zeros(shape, g.dtype)
        np.add.at(out, key, g)
        return bump_grad_version(out)
    z = zeros(shape, g)
    return bump_grad_version(registered["IndexPutImpl"](z, g, key, True))


def _flat(x: np.ndarray) -> np.ndarray:
    return x.reshape(x.shape or (1,))  # the scatter family treats 0-d as 1-d


def gather(g: Any, dim: int, index: Any, key: tuple) -> Any:
    """``g.gather(dim, index)``; ``key`` is its advanced-indexing form."""
    if isinstance(g, ndarray):
        return _flat(g)[key].reshape(np.shape(index))
    return g.gather(dim, index)


def scatter_value(g: Any, dim: int, index: Any, key: tuple, value: float) -> Any:
    """``g.scatter(dim, index, value)``: ``g`` with the indexed places set."""
    if isinstance(g, ndarray):
        out = np.array(_flat(g), copy=True)
        out[key] = value
        return out.reshape(g.shape)
    return g.scatter(dim, index, value)


def scatter_add_zeros(g: Any, shape: tuple, dim: int, index: Any, key: tuple) -> Any:
    """``zeros(shape).scatter_add(dim, index, g)`` (gather's backward)."""
    if isinstance(g, ndarray):
        out = np.zeros(shape or (1,), g.dtype)
        np.add.at(out, key, _flat(g))
        return out.reshape(shape)
    return zeros(shape, g).scatter_add(dim, index, g)


def scatter_zeros(g: Any, shape: tuple, dim: int, index: Any, key: tuple) -> Any:
    """``zeros(shape).scatter(dim, index, g)`` (max/min along a dim's backward)."""
    if isinstance(g, ndarray):
        out = np.zeros(shape or (1,), g.dtype)
        out[key] = _flat(g)
        return out.reshape(shape)
    return zeros(shape, g).scatter(dim, index, g)


def index_select(g: Any, dim: int, d: int, index: Any) -> Any:
    """``g.index_select(dim, index)`` (``d``: dim normalized)."""
    if isinstance(g, ndarray):
        return np.take(g, data(index), axis=d) if g.ndim else g
    return g.index_select(dim, index)


def index_add_zeros(g: Any, shape: tuple, dim: int, d: int, index: Any) -> Any:
    """``zeros(shape).index_add_(dim, index, g)`` (index_select's backward; at
    version 1, written in place)."""
    if isinstance(g, ndarray):
        out = np.zeros(shape, g.dtype)
        flat = out.reshape(shape or (1,))  # a view: 0-d as 1-d
        key = (slice(None),) * d + (data(index).reshape(-1),)
        np.add.at(flat, key, g.reshape(flat[key].shape))
        return bump_grad_version(out)
    return bump_grad_version(zeros(shape, g).index_add(dim, index, g))


def triangle(g: Any, np_fn: Any, diagonal: int) -> Any:
    """``g.tril(diagonal)`` or ``g.triu(diagonal)`` (``np_fn`` says which)."""
    if isinstance(g, ndarray):
        return np_fn(g, diagonal)
    return g.tril(diagonal) if np_fn is np.tril else g.triu(diagonal)


def roll(g: Any, shifts: tuple, dims: tuple) -> Any:
    if isinstance(g, ndarray):
        return np.roll(g, shifts if dims else shifts[0], dims or None)
    return g.roll(shifts, dims)


def diagonal(x: Any, offset: int, dim1: int, dim2: int) -> Any:
    if isinstance(x, ndarray):
        return registered["diagonal_view"](x, offset, dim1, dim2)
    return x.diagonal(offset, dim1, dim2)


def index_fill(x: Any, dim: int, d: int, index: np.ndarray, value: Any) -> Any:
    """``x.index_fill(dim, index, value)`` (``d``: dim normalized; ``value`` a
    number or a 0-d tensor)."""
    if isinstance(x, ndarray):
        out = np.array(x, copy=True)
        out.reshape(out.shape or (1,))[(slice(None),) * d + (index,)] = value
        return out
    return x.index_fill(dim, type(x)._make(index, False), value)


def flip(x: Any, dims: tuple) -> Any:
    return np.flip(x, dims) if isinstance(x, ndarray) else x.flip(dims)


def div_count(g: Any, count: np.ndarray) -> Any:
    """``g`` divided by an integer array of counts (on Tensors by the int64
    tensor itself, DivBackward0, as PyTorch's formulas do)."""
    if isinstance(g, ndarray):
        return g / count.astype(g.dtype)
    return g / type(g)._make(count, False)


def masked_fill_zeros(shape: tuple, mask: np.ndarray, value: Any) -> Any:
    """Zeros of ``shape`` with the 0-d ``value`` where ``mask`` holds
    (``zeros.masked_fill_(mask, value)``: MaskedFillBackward1)."""
    if isinstance(value, ndarray):
        return np.where(mask, value, np.zeros((), value.dtype))
    return zeros(shape, value).masked_fill(type(value)._make(mask, False), value)


def u64(i: int) -> int:
    """PyTorch reports negative ints saved in nodes as unsigned 64-bit values."""
    return i % (1 << 64) if i < 0 else i


def transpose(x: Any, d0: int, d1: int) -> Any:
    return np.swapaxes(x, d0, d1) if isinstance(x, ndarray) else x.transpose(d0, d1)


def bmm(x: Any, y: Any) -> Any:
    """A batched matrix product of two 3-d operands (BmmBackward0 on Tensors,
    as PyTorch's formulas call bmm, where ``@`` would record matmul's views)."""
    return x @ y if isinstance(x, ndarray) else x.bmm(y)


def permute(x: Any, dims: tuple) -> Any:
    return np.transpose(x, dims) if isinstance(x, ndarray) else x.permute(dims)


# ---- helpers for the nn ops (softmax, the losses, addmm, embedding)
def data(x: Any) -> Any:
    """The array behind ``x`` (an array stays as it is)."""
    return x if isinstance(x, ndarray) else x._data


def constant(a: np.ndarray, like: Any) -> Any:
    """An array computed from saved values, as the same kind as ``like``: a
    constant of the formula (no gradient flows into it)."""
    return a if isinstance(like, ndarray) else type(like)._make(a, False)


def sum_keepdim(x: Any, dim: int) -> Any:
    """Sum over one dim, keeping it (softmax's backward)."""
    if isinstance(x, ndarray):
        return x.sum(axis=dim, keepdims=True)
    return x.sum(dim, keepdim=True)


def sigmoid(x: Any) -> Any:
    if isinstance(x, ndarray):
        with np.errstate(over="ignore"):
            return (1 / (1 + np.exp(-x))).astype(x.dtype, copy=False)
    return x.sigmoid()


def softplus(x: Any) -> Any:
    """``log(1 + exp(x))`` (linear past 20, as PyTorch's default threshold)."""
    if isinstance(x, ndarray):
        with np.errstate(over="ignore"):
            return np.where(x > 20, x, np.log1p(np.exp(x))).astype(x.dtype)
    return registered["Softplus"](x, 1, 20)


def clamp_min(x: Any, lo: float) -> Any:
    """``max(x, lo)``. On Tensors the clamped part is added as a constant, so the
    gradient passes through unchanged (only used where it is not clamped)."""
    if isinstance(x, ndarray):
        return np.maximum(x, lo, dtype=x.dtype)
    d = x._data
    return x + constant(np.maximum(d, lo, dtype=d.dtype) - d, x)


# ---- helpers for selections, reductions and joins (ops/selection.py, ...)
def where(cond: Any, x: Any, y: Any) -> Any:
    """``x`` where the constant mask ``cond`` holds, else ``y`` (either may be a
    number). On Tensors this records WhereBackward0, as PyTorch's formulas do."""
    if not isinstance(x, ndarray) and not isinstance(y, ndarray):
        if hasattr(x, "_data") or hasattr(y, "_data"):
            mask = cond if hasattr(cond, "_data") else None
            if mask is None:
                like = x if hasattr(x, "_data") else y
                mask = type(like)._make(np.asarray(cond), False)
            return registered["where"](mask, x, y)
    out = np.where(data(cond), x, y)
    dtype = (x if isinstance(x, ndarray) else y).dtype
    return out if out.dtype == dtype else out.astype(dtype)


def sum_dims(x: Any, dims: tuple, keepdim: bool = False) -> Any:
    if isinstance(x, ndarray):
        return np.asarray(x.sum(axis=dims, keepdims=keepdim))
    return x.sum(dims, keepdim=keepdim)


def mean_dims(x: Any, dims: tuple, keepdim: bool = False) -> Any:
    """The mean over ``dims`` (no dims: all of them, as PyTorch's ``mean([])``)."""
    if isinstance(x, ndarray):
        return np.asarray(x.mean(axis=dims or None, keepdims=keepdim))
    return x.mean(dims, keepdim=keepdim)


def cumsum(x: Any, dim: int) -> Any:
    return np.cumsum(x, axis=dim) if isinstance(x, ndarray) else x.cumsum(dim)


def cumprod(x: Any, dim: int) -> Any:
    return np.cumprod(x, axis=dim) if isinstance(x, ndarray) else x.cumprod(dim)


def select(x: Any, dim: int, index: int) -> Any:
    """``x.select(dim, index)`` (``dim`` may count from the end)."""
    if isinstance(x, ndarray):
        return x[(slice(None),) * (dim % x.ndim) + (index,)]
    return x.select(dim, index)


def narrow(x: Any, dim: int, start: int, length: int) -> Any:
    if isinstance(x, ndarray):
        return x[(slice(None),) * dim + (slice(start, start + length),)]
    return x.narrow(dim, start, length)


def cat(xs: list, dim: int) -> Any:
    if isinstance(xs[0], ndarray):
        return np.concatenate(xs, axis=dim)
    return registered["cat"](xs, dim)


def stack(xs: list, dim: int) -> Any:
    if isinstance(xs[0], ndarray):
        return np.stack(xs, axis=dim)
    return registered["stack"](xs, dim)


def absolute(x: Any) -> Any:
    return np.abs(x) if isinstance(x, ndarray) else x.abs()


def tanh(x: Any) -> Any:
    return np.tanh(x) if isinstance(x, ndarray) else x.tanh()


def erf(x: Any) -> Any:
    if isinstance(x, ndarray):
        return erf_array(x)
    return x.erf()


_erf = np.vectorize(math.erf, otypes=[np.float64])


def erf_array(x: np.ndarray) -> np.ndarray:
    """The error function elementwise (numpy has none; ``math.erf`` is exact)."""
    return np.asarray(_erf(x)).astype(x.dtype, copy=False)


def xlogy_values(x: Any, y: Any) -> Any:
    """``x log y``, 0 where x is 0 (unless y is nan), as PyTorch defines it."""
    with np.errstate(divide="ignore", invalid="ignore"):
        log_y = np.log(y)
        # a Python number's log stays a Python float, so it keeps x's dtype
        out = np.asarray(x * (float(log_y) if np.ndim(y) == 0 else log_y))
    return np.where((np.asarray(x) == 0) & ~np.isnan(y), 0, out).astype(out.dtype)


def prod_others(x: Any, dim: int) -> Any:
    """For each element, the product of the others along ``dim`` (prod's
    gradient when some elements are zero), as PyTorch's prod_safe_zeros_backward
    computes it: the product of the elements before it (a cumprod of ``x``
    shifted by a one) times that of the elements after it (the same from the
    other end). ``dim`` counts from the front."""
    n = x.shape[dim]
    ones = list(x.shape)
    ones[dim] = 1
    one = constant(np.ones(ones, data(x).dtype), x)
    before = cumprod(cat([one, narrow(x, dim, 0, n - 1)], dim), dim)
    after_reversed = cat([one, flip(narrow(x, dim, 1, n - 1), (dim,))], dim)
    after = flip(cumprod(after_reversed, dim), (dim,))
    return before * after
