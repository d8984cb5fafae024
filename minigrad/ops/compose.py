"""Ops PyTorch composes from other ops, composed here from the same ones so
the graph holds PyTorch's nodes (no Function of their own):

    diff            SubBackward0 of two SliceBackward0s, n times (CatBackward0
                    first for prepend/append)
    kron            UnsafeViewBackward0 of MulBackward0 of two UnsafeViewBackward0s
    take_along_dim  GatherBackward0 of ExpandBackward0s (ViewBackward0s with no dim)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _dtype as dt
from . import join as J
from .views import UnsafeView


def _need_tensor(fn: str, arg: str, pos: int, value: Any) -> None:
    if not hasattr(value, "_data"):
        raise TypeError(
            f"{fn}(): argument '{arg}' (position {pos}) must be Tensor, not "
            f"{type(value).__name__}"
        )


def diff(
    input: Any,
    n: int = 1,
    dim: int = -1,
    prepend: Any = None,
    append: Any = None,
) -> Any:
    """``out[i] = x[i + 1] - x[i]`` along ``dim``, ``n`` times (SubBackward0 of
    two SliceBackward0s each time; prepend/append joined first by cat)."""
    if input.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    input.size(dim)  # (PyTorch's range check; the dim is kept as given, -1 saved as -1)
    pieces = [t for t in (prepend, input, append) if t is not None]
    x = J.cat(pieces, dim) if len(pieces) > 1 else input
    for _ in range(n):
        size = x.size(dim)
        if size == 0:
            break
        x = x.narrow(dim, 1, size - 1) - x.narrow(dim, 0, size - 1)
    return x


def kron(input: Any, other: Any) -> Any:
    """The Kronecker product: each dim of ``input`` interleaved with the same dim
    of ``other`` and multiplied (PyTorch's _unsafe_views around one mul)."""
    _need_tensor("kron", "input", 1, input)
    _need_tensor("kron", "other", 2, other)
    nd = max(input.dim(), other.dim())
    sa = (1,) * (nd - input.dim()) + tuple(input.shape)
    sb = (1,) * (nd - other.dim()) + tuple(other.shape)
    a_shape = tuple(s for d in sa for s in (d, 1))
    b_shape = tuple(s for d in sb for s in (1, d))
    out = UnsafeView.apply(input, a_shape) * UnsafeView.apply(other, b_shape)
    return UnsafeView.apply(out, tuple(a * b for a, b in zip(sa, sb)))


def take_along_dim(input: Any, indices: Any, dim: int | None = None) -> Any:
    """``gather`` with ``input`` and ``indices`` broadcast over all other dims;
    with no dim, over the flattened input."""
    _need_tensor("take_along_dim", "indices", 2, indices)
    if indices.dtype is not dt.int64:
        raise RuntimeError(
            "minigrad.take_along_dim(): dtype of indices should be Long but got "
            f"{indices.dtype._scalar_type}"
        )
    if dim is None:
        return input.reshape(-1).gather(0, indices.reshape(-1))
    d = dim % input.dim() if input.dim() else 0
    if input.dim() != indices.dim():
        raise RuntimeError(
            "minigrad.take_along_dim(): input and indices should have the same "
            f"number of dimensions, but got {input.dim()} dimensions for input, "
            f"and {indices.dim()} dimensions for indices"
        )
    shape_in, shape_ix = list(input.shape), list(indices.shape)
    shape_in[d] = shape_ix[d] = 1
    common = list(np.broadcast_shapes(tuple(shape_in), tuple(shape_ix)))
    in_shape, ix_shape = list(common), list(common)
    in_shape[d], ix_shape[d] = input.size(d), indices.size(d)
    return input.expand(*in_shape).gather(d, indices.expand(*ix_shape))
