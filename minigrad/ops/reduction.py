"""Reductions: sum and mean, over everything or over some dims."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from .._dtype import from_numpy_dtype
from ._common import Op


def _sum_dtype(x: np.ndarray, dtype: Any) -> Any:
    """The accumulation dtype: the one asked for, else integer and bool sums are
    int64 in PyTorch."""
    if dtype is not None:
        return dtype
    return None if x.dtype.kind == "f" else np.int64


def normalize_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    n = max(ndim, 1)
    out = []
    for d in dims:
        if not -n <= d < n:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-n}, {n - 1}],"
                f" but got {d})"
            )
        out.append(d % n if ndim else 0)
    return tuple(out)


class Sum(Op):
    """d sum(a) = g expanded to a's shape"""

    node_name, saved_attrs = "SumBackward0", ("self_sym_sizes",)

    @staticmethod
    def forward(ctx: Any, a: Any, dtype: Any = None) -> Any:
        ctx.self_sym_sizes = a._data.shape
        return np.asarray(a._data.sum(dtype=_sum_dtype(a._data, dtype)))

    @staticmethod
    def backward(ctx: Any, g: Any) -> tuple:
        return f.expand(g, ctx.self_sym_sizes), None


class SumDim(Op):
    """d sum(a, dim) = g (dims re-inserted) expanded to a's shape"""

    node_name = "SumBackward1"
    saved_attrs = ("dim", "keepdim", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Any, a: Any, dim: Any, keepdim: bool, dtype: Any = None) -> Any:
        x = a._data
        ctx.dim = tuple(f.u64(d) for d in ((dim,) if isinstance(dim, int) else dim))
        ctx.dims = normalize_dims(dim, x.ndim) if x.ndim else ()
        ctx.keepdim, ctx.self_sym_sizes = keepdim, x.shape
        axes = ctx.dims if dim != () else None  # dim=() means all dims
        out = x.sum(axis=axes, keepdims=keepdim, dtype=_sum_dtype(x, dtype))
        return np.asarray(out)

    @staticmethod
    def backward(ctx: Any, g: Any) -> tuple:
        shape = ctx.self_sym_sizes
        if not ctx.keepdim:
            dims = ctx.dims if ctx.dim != () else tuple(range(len(shape)))
            g = f.unsqueeze_dims(g, dims, len(shape))
        return f.expand(g, shape), None, None, None


def _mean_dtype(x: np.ndarray, dtype: Any) -> Any:
    """The result dtype (asked for, else the input's), which must be floating."""
    dtype = x.dtype if dtype is None else np.dtype(dtype)
    if dtype.kind != "f":
        legacy = from_numpy_dtype(dtype)._legacy.replace("Tensor", "")
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a "
            f"floating point or complex dtype. Got: {legacy}"
        )
    return dtype


class Mean(Op):
    """d mean(a) = g / numel expanded to a's shape"""

    node_name = "MeanBackward0"
    saved_attrs = ("self_sym_numel", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Any, a: Any, dtype: Any = None) -> Any:
        x = a._data
        dtype = _mean_dtype(x, dtype)
        ctx.self_sym_numel, ctx.self_sym_sizes = x.size, x.shape
        return np.asarray(x.mean(dtype=dtype))

    @staticmethod
    def backward(ctx: Any, g: Any) -> tuple:
        return f.expand(g / ctx.self_sym_numel, ctx.self_sym_sizes), None


class MeanDim(Op):
    """d mean(a, dim) = g / n (dims re-inserted) expanded to a's shape"""

    node_name = "MeanBackward1"
    saved_attrs = ("dim", "keepdim", "self_sym_numel", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Any, a: Any, dim: Any, keepdim: bool, dtype: Any = None) -> Any:
        x = a._data
        dtype = _mean_dtype(x, dtype)
        ctx.dim = tuple(f.u64(d) for d in ((dim,) if isinstance(dim, int) else dim))
        ctx.dims = normalize_dims(dim, x.ndim) if x.ndim else ()
        ctx.keepdim, ctx.self_sym_sizes, ctx.self_sym_numel = keepdim, x.shape, x.size
        axes = ctx.dims if dim != () else None
        return np.asarray(x.mean(axis=axes, keepdims=keepdim, dtype=dtype))

    @staticmethod
    def backward(ctx: Any, g: Any) -> tuple:
        shape = ctx.self_sym_sizes
        dims = ctx.dims if ctx.dim != () else tuple(range(len(shape)))
        n = int(np.prod([shape[d] for d in dims])) if shape else 1
        if not ctx.keepdim:
            g = f.unsqueeze_dims(g, dims, len(shape))
        return f.expand(g / n, shape), None, None, None
