"""Top-level functions PyTorch builds from other ops (diff, kron, hsplit,
diagflat, take_along_dim...), built here from the same ops so they record
PyTorch's nodes; the index helpers (tril_indices, bincount, searchsorted...)
make integer tensors with no graph; and the dtype questions (result_type,
promote_types, can_cast)."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _dtype as dt
from ._tensor import Tensor
from ._tensor_base import _NO_DIM
from .creation import as_tensor
from .ops import moments as MO
from .ops.compose import diff, kron, take_along_dim

__all__ = ["diff", "kron", "take_along_dim"]  # (re-exported from ops/compose.py)


# ---- dtype questions
def result_type(tensor: Any, other: Any) -> dt.dtype:
    """The dtype ``tensor op other`` computes in (PyTorch's promotion)."""
    return dt.result_type(tensor, other)


def promote_types(type1: dt.dtype, type2: dt.dtype) -> dt.dtype:
    """The smallest dtype both ``type1`` and ``type2`` cast to safely."""
    return dt.promote(type1, type2)


def can_cast(from_: dt.dtype, to: dt.dtype) -> bool:
    """False when the cast would go down a category (float -> int, non-bool ->
    bool), as PyTorch's casting rule for in-place and out= results says."""
    return dt._category(from_) <= dt._category(to)


# ---- composites
def _split_along(
    name: str, input: Tensor, sections: Any, dim: int, least: int
) -> tuple:
    if input.dim() < least:
        raise RuntimeError(
            f"minigrad.{name} requires a tensor with at least {least} dimension, but "
            f"got a tensor with {input.dim()} dimensions!"
        )
    if isinstance(sections, int):
        size = input.size(dim)
        if sections == 0 or size % sections:
            raise RuntimeError(
                f"minigrad.{name} attempted to split along dimension {dim}, but the "
                f"size of the dimension {size} is not divisible by the split_size "
                f"{sections}!"
            )
    return input.tensor_split(sections, dim)


def hsplit(input: Tensor, indices_or_sections: Any) -> tuple:
    """``tensor_split`` along dim 1 (dim 0 for a vector); equal parts only."""
    dim = 0 if input.dim() == 1 else 1
    return _split_along("hsplit", input, indices_or_sections, dim, 1)


def vsplit(input: Tensor, indices_or_sections: Any) -> tuple:
    """``tensor_split`` along dim 0 of a tensor of 2 or more dims."""
    return _split_along("vsplit", input, indices_or_sections, 0, 2)


def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """The flattened input on diagonal ``offset`` of a square matrix."""
    return input.reshape(-1).diag_embed(offset)


def var_mean(
    input: Tensor,
    dim: Any = _NO_DIM,
    unbiased: Any = None,
    keepdim: bool = False,
    *,
    correction: Any = None,
) -> tuple:
    """``(var, mean)`` over ``dim`` from one node (VarMeanBackward0)."""
    dim, correction = input._var_args(dim, unbiased, correction)
    return tuple(MO.VarMean.apply(input, dim, correction, keepdim))


def std_mean(
    input: Tensor,
    dim: Any = _NO_DIM,
    unbiased: Any = None,
    keepdim: bool = False,
    *,
    correction: Any = None,
) -> tuple:
    """``(std, mean)`` over ``dim`` from one node (StdMeanBackward0)."""
    dim, correction = input._var_args(dim, unbiased, correction)
    return tuple(MO.StdMean.apply(input, dim, correction, keepdim))


# ---- index helpers (integer results, no graph)
def _ints(values: Any, dtype: dt.dtype | None = None) -> Tensor:
    d = dt.int64 if dtype is None else dtype
    return Tensor._make(np.ascontiguousarray(values, dtype=d.np), False)


def tril_indices(
    row: int, col: int, offset: int = 0, *, dtype: Any = None, **_: Any
) -> Tensor:
    """The (row, col) coordinates of the lower triangle, row by row."""
    return _ints(np.stack(np.tril_indices(row, offset, col)), dtype).reshape(2, -1)


def triu_indices(
    row: int, col: int, offset: int = 0, *, dtype: Any = None, **_: Any
) -> Tensor:
    """The (row, col) coordinates of the upper triangle, row by row."""
    return _ints(np.stack(np.triu_indices(row, offset, col)), dtype).reshape(2, -1)


def bincount(
    input: Tensor, weights: Tensor | None = None, minlength: int = 0
) -> Tensor:
    """How often each value 0..max occurs (summed weights when given)."""
    x = input._data
    if x.ndim != 1 or x.dtype.kind not in "iu":
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if x.size and x.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is None:
        return _ints(np.bincount(x, minlength=minlength))
    w = weights._data
    # float weights keep their dtype (float32 stays float32); others count in double
    out_dtype = w.dtype if w.dtype.kind == "f" else np.float64
    out = np.bincount(x, w.astype(np.float64), minlength).astype(out_dtype)
    return Tensor._make(out, False)


def searchsorted(
    sorted_sequence: Tensor,
    input: Any,
    *,
    out_int32: bool = False,
    right: bool = False,
    side: str | None = None,
    sorter: Tensor | None = None,
) -> Tensor:
    """Where each value of ``input`` would go in the innermost sorted rows to
    keep them sorted (the first such place; the last with ``right``)."""
    seq = sorted_sequence._data
    if sorter is not None:
        seq = np.take_along_axis(seq, sorter._data, -1)
    values = input._data if isinstance(input, Tensor) else np.asarray(input)
    how = side if side is not None else ("right" if right else "left")
    if seq.ndim == 1:
        found = np.searchsorted(seq, values, how)
    else:
        rows, vals = (
            seq.reshape(-1, seq.shape[-1]),
            values.reshape(-1, values.shape[-1]),
        )
        found = np.stack([np.searchsorted(s, v, how) for s, v in zip(rows, vals)])
        found = found.reshape(values.shape)
    return _ints(found, dt.int32 if out_int32 else None)


def bucketize(
    input: Any, boundaries: Tensor, *, out_int32: bool = False, right: bool = False
) -> Tensor:
    """The bucket of each value among the 1-d sorted ``boundaries``."""
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


def asarray(
    obj: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    copy: bool | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """A tensor sharing ``obj``'s memory when it can (``as_tensor``), a copy when
    ``copy=True``."""
    out = as_tensor(obj, dtype=dtype)
    if copy:
        out = (
            out.clone()
            if out is obj or out._data is getattr(obj, "_data", None)
            else out
        )
    if requires_grad:
        out = (
            out.detach().requires_grad_(True)
            if out is obj
            else out.requires_grad_(True)
        )
    return out
