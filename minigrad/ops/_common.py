"""What the built-in ops share: the ``Op`` base class and ``BinaryOp``,
operands (Python numbers, broadcasting), dtype names and promotion, and the
memory-layout rules that outputs follow.

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
from .._errors import dense as is_dense
from ..function import BackwardCFunction, Function


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


def constant(a: Any) -> Any:
    """An array as a Tensor with no history (indices, masks, bounds)."""
    return node.Tensor._make(a, False)


def is_tensor(x: Any) -> bool:
    return isinstance(x, node.Tensor)


def _scalar(value: Any) -> Any:
    """A Python number as the 0-d tensor PyTorch wraps it into (``2`` -> int64);
    it keeps a Python number's low rank in type promotion."""
    t = node.Tensor._make(np.asarray(value, dt.scalar_dtype(value).np), False)
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
    if out.ndim > 1 and not (a._data.flags.c_contiguous and b._data.flags.c_contiguous):
        out = iterator_layout(out, (a._data, b._data))
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


def stride_order(rows: list, shape: tuple) -> list[int]:
    """The dims, fastest first, sorted by their strides in ``rows`` (one row of
    strides per tensor: the first that tells two dims apart decides; a 0 stride
    tells nothing): the stable insertion sort of c10's TensorIterator and
    ``infer_dense_strides``."""

    def should_swap(d0: int, d1: int) -> int:  # 1: d0 goes after d1
        for row in rows:
            s0, s1 = row[d0], row[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))  # fastest dim first
    for i in range(1, ndim):  # insertion sort, stopping at a clear order
        d1 = i
        for d0 in range(i - 1, -1, -1):
            order = should_swap(perm[d0], perm[d1])
            if order > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif order < 0:
                break
    return perm


def iterator_layout(out: np.ndarray, inputs: tuple) -> np.ndarray:
    """``out`` with the memory order PyTorch's TensorIterator gives an
    elementwise result: dims sorted by the inputs' strides, the first input
    deciding (numpy decides otherwise when the inputs disagree, e.g. for
    ``a.t() * b``)."""
    shape, ndim = out.shape, out.ndim
    strides = []
    for x in inputs:  # each input's strides against the result (0: broadcast)
        lead = ndim - x.ndim
        row = [0] * ndim
        for i, (n, st) in enumerate(zip(x.shape, x.strides)):
            if n == shape[lead + i]:
                row[lead + i] = st
        strides.append(row)
    return in_stride_order(out, strides)


def in_stride_order(out: np.ndarray, rows: list) -> np.ndarray:
    """``out`` laid out as TensorIterator lays out a result whose operands have
    strides ``rows`` (one row per operand, 0 where it broadcasts)."""
    perm = stride_order(rows, out.shape)
    if perm == list(range(out.ndim - 1, -1, -1)):
        return _row_major(out)
    slowest_first = perm[::-1]
    return _row_major(out.transpose(slowest_first)).transpose(np.argsort(slowest_first))


def _row_major(a: np.ndarray) -> np.ndarray:
    """``a`` in row-major memory with PyTorch's strides for it (numpy calls an
    array contiguous whatever the strides of its size-1 dims)."""
    step, strides = a.itemsize, []
    for n in reversed(a.shape):
        strides.append(step)
        step *= max(n, 1)
    return a if a.strides == tuple(reversed(strides)) else a.copy(order="C")


def index_layout(out: np.ndarray, x: np.ndarray, indices: tuple) -> np.ndarray:
    """``x[indices]`` (computed by numpy as ``out``) in the memory order PyTorch's
    index kernel gives it: a TensorIterator over ``x`` restrided (the indexed
    dims replaced by the indices' broadcast shape, with stride 0; moved to the
    front when they are not adjacent) and each index viewed to the result's
    rank (a mask as the columns of its ``nonzero()``)."""
    if out.ndim < 2:
        return np.ascontiguousarray(out)
    per_dim: list = []  # (shape, strides) of each dim's index, or None
    for t in indices:
        if t is None:
            per_dim.append(None)
        elif t._data.dtype == np.bool_:  # k columns of a (nnz, k) nonzero()
            k = t._data.ndim
            per_dim += [((int(t._data.sum()),), (k,))] * k
        else:
            per_dim.append((t._data.shape, _elem_strides(t._data)))
    per_dim += [None] * (x.ndim - len(per_dim))
    used = [d for d, i in enumerate(per_dim) if i is not None]
    if not used:  # (a 0-d mask)
        return _row_major(out)
    shape = np.broadcast_shapes(*(per_dim[d][0] for d in used))
    strides = _elem_strides(x)
    if used != list(range(used[0], used[-1] + 1)):  # not adjacent: to the front
        order = used + [d for d in range(x.ndim) if d not in used]
        strides = [strides[d] for d in order]
        per_dim = [per_dim[d] for d in order]
        used = list(range(len(used)))
    before, after = used[0], x.ndim - used[-1] - 1
    rows = [strides[:before] + [0] * len(shape) + strides[x.ndim - after :]]
    idx_dims = range(before, before + len(shape))
    for d in used:  # each index expanded to the common shape, then reshaped
        ishape, istrides = per_dim[d]
        lead = len(shape) - len(ishape)
        row = [0] * lead + [
            st if n == m else 0 for n, m, st in zip(ishape, shape[lead:], istrides)
        ]
        # the reshape's size-1 dims (their strides count where the result's
        # dim is 1 too): the index's extent before it, its last stride after
        first, last = (shape[0] * row[0], row[-1]) if shape else (1, 1)
        row = [first] * before + row + [last] * after
        rows.append(
            [
                st if m == 1 or i in idx_dims else 0
                for i, (st, m) in enumerate(zip(row, out.shape))
            ]
        )
    return in_stride_order(out, rows)


def _elem_strides(a: np.ndarray) -> list:
    return [st // a.itemsize for st in a.strides]


def preserve_layout(out: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``out`` (shaped like ``x``) in ``x``'s memory order when ``x`` fills its
    memory without gaps or overlaps, else row-major: PyTorch's
    ``preserve_format`` (``empty_like``, ``sort``)."""
    if out.ndim < 2 or x.flags.c_contiguous or not is_dense(x):
        return np.asarray(out, order="C")
    return iterator_layout(out, (x,))


def float_out(out: Any, *operands: Any) -> Any:
    """Like ``binary_out`` but integer results become the default float (``/``)."""
    if len(operands) == 2 and out.ndim > 1:
        a, b = operands
        if hasattr(b, "_data") and not (
            a._data.flags.c_contiguous and b._data.flags.c_contiguous
        ):
            out = iterator_layout(out, (a._data, b._data))
    want = result_type(*operands)
    if not want.is_floating_point:
        want = dt.default_float
    return out if out.dtype == want.np else out.astype(want.np, order="K")


def dtype_name(x: np.ndarray | np.dtype) -> str:
    """``Float``, ``Double``, ``Long``...: PyTorch's kernels' name of an array's
    (or a dtype's) scalar type in their messages."""
    return from_numpy_dtype(np.dtype(getattr(x, "dtype", x)))._scalar_type
