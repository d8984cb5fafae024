"""Reductions, over everything or along dims: sum (and nansum), mean, var and std, prod,
logsumexp, vector_norm, and the running ones cumsum and cumprod. (max, min,
amax, amin and median, which pick elements rather than combine them, are in
``ordering.py``.)

Classes (and the node each records):

    Sum         SumBackward0
    SumDim      SumBackward1
    Nansum      NansumBackward0
    Mean        MeanBackward0
    MeanDim     MeanBackward1
    Var         VarBackward0
    Std         StdBackward0
    Prod        ProdBackward0
    ProdDim     ProdBackward1
    Logsumexp   LogsumexpBackward0
    VectorNorm  LinalgVectorNormBackward0
    Cumsum      CumsumBackward0
    Cumprod     CumprodBackward0
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _formula as f
from .._dtype import from_numpy_dtype
from .._warn import quiet_mean, warn
from ._common import Ctx, Grad, Op
from ._dims import as_saved, normalize_dims, reduce_dims, restore_dims, return_type
from ._layout import row_major


def _sum_dtype(x: np.ndarray, dtype: Any) -> Any:
    """The accumulation dtype: the one asked for, else integer and bool sums are
    int64 in PyTorch."""
    if dtype is not None:
        return dtype
    return None if x.dtype.kind == "f" else np.int64


def _given(dim: Any) -> tuple:
    """A reduction's dims as the caller gave them (none for ``dim=None``): the
    formulas pass them on, so a node saves -1 where PyTorch's does."""
    return () if dim is None else (dim,) if isinstance(dim, int) else tuple(dim)


class Sum(Op):
    """d sum(a) = g expanded to a's shape"""

    node_name, saved_attrs = "SumBackward0", ("self_sym_sizes",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dtype: Any = None) -> Any:
        ctx.self_sym_sizes = a._data.shape
        return np.asarray(a._data.sum(dtype=_sum_dtype(a._data, dtype)))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.expand(g, ctx.self_sym_sizes), None


class SumDim(Op):
    """d sum(a, dim) = g (dims re-inserted) expanded to a's shape"""

    node_name = "SumBackward1"
    saved_attrs = ("dim", "keepdim", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: Any, keepdim: bool, dtype: Any = None) -> Any:
        x = a._data
        ctx.dim_arg = _given(dim)
        ctx.dim = as_saved(ctx.dim_arg)
        ctx.dims = (
            reduce_dims(dim, x.ndim) if x.ndim else reduce_dims(dim, 0)[:0]
        )  # 0-d: check only
        ctx.keepdim, ctx.self_sym_sizes = keepdim, x.shape
        axes = ctx.dims if dim not in ((), []) else None  # no dims means all dims
        out = x.sum(axis=axes, keepdims=keepdim, dtype=_sum_dtype(x, dtype))
        return row_major(np.asarray(out))  # PyTorch: a fresh row-major result

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return _sum_grad(ctx, g), None, None, None


def _sum_grad(ctx: Ctx, g: Any) -> Any:
    """PyTorch's ``sum_backward``: the reduced dims put back as given (none for
    ``dim=[]``, whose 0-d gradient expands as it is), then expanded."""
    shape = ctx.self_sym_sizes
    if not ctx.keepdim and shape and ctx.dim_arg:
        g = f.unsqueeze_dims(g, ctx.dim_arg, len(shape))
    return f.expand(g, shape)


class Nansum(Op):
    """d nansum(a, dim) = g (dims re-inserted) expanded, 0 where a is nan"""

    node_name, saved = "NansumBackward0", ("self",)
    saved_attrs = ("dim", "keepdim")

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: Any, keepdim: bool, dtype: Any = None) -> Any:
        x = a._data
        every = dim is None or dim == () or dim == []  # no dims means all dims
        ctx.dim = (
            None if dim is None else as_saved((dim,) if isinstance(dim, int) else dim)
        )
        dims = reduce_dims(() if dim is None else dim, x.ndim) if x.ndim else ()
        if x.ndim == 0 and dim is not None:
            reduce_dims(dim, 0)  # a 0-d tensor's dims are still checked
        ctx.dims = tuple(range(x.ndim)) if every else dims
        # (no dims put back for all of them: the 0-d gradient expands as it is)
        ctx.dim_arg = () if every else _given(dim)
        ctx.keepdim = keepdim
        ctx.save_for_backward(a)
        values = np.where(np.isnan(x), 0, x) if x.dtype.kind == "f" else x
        out = values.sum(axis=ctx.dims, keepdims=keepdim, dtype=_sum_dtype(x, dtype))
        return row_major(np.asarray(out))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (a,) = ctx.saved_tensors
        x = f.data(a)
        g = restore_dims(g, ctx.dim_arg, x.ndim, ctx.keepdim)
        return f.expand(g, x.shape) * f.constant(~np.isnan(x), g), None, None, None


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
    def forward(ctx: Ctx, a: Any, dtype: Any = None) -> Any:
        x = a._data
        dtype = _mean_dtype(x, dtype)
        ctx.self_sym_numel, ctx.self_sym_sizes = x.size, x.shape
        return np.asarray(quiet_mean(x, dtype=dtype))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return _mean_grad(g, ctx.self_sym_sizes, ctx.self_sym_numel), None


def _mean_grad(g: Any, shape: tuple, n: int) -> Any:
    """``g`` expanded to ``shape``, then divided by ``n``, as PyTorch computes it:
    the result is a fresh array of the input's layout (``.view`` works on it),
    and on Tensors the graph is ExpandBackward0, DivBackward1."""
    return f.div_scalar(f.expand(g, shape), n)


class MeanDim(Op):
    """d mean(a, dim) = g / n (dims re-inserted) expanded to a's shape"""

    node_name = "MeanBackward1"
    saved_attrs = ("dim", "keepdim", "self_sym_numel", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: Any, keepdim: bool, dtype: Any = None) -> Any:
        x = a._data
        dtype = _mean_dtype(x, dtype)
        ctx.dim_arg = _given(dim)
        ctx.dim = as_saved(ctx.dim_arg)
        ctx.dims = (
            reduce_dims(dim, x.ndim) if x.ndim else normalize_dims(dim, 0)[:0]
        )  # 0-d: check only
        ctx.keepdim, ctx.self_sym_sizes, ctx.self_sym_numel = keepdim, x.shape, x.size
        axes = ctx.dims if dim not in ((), []) else None
        out = quiet_mean(x, axis=axes, keepdims=keepdim, dtype=dtype)
        return row_major(np.asarray(out))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        shape = ctx.self_sym_sizes
        dims = ctx.dims if ctx.dim != () else tuple(range(len(shape)))
        n = int(np.prod([shape[d] for d in dims])) if shape else 1
        return f.div_scalar(_sum_grad(ctx, g), n), None, None, None


def _floats(x: np.ndarray, what: str) -> None:
    if x.dtype.kind != "f":
        raise RuntimeError(what)


MaxResult, MinResult = return_type("max"), return_type("min")


# -------------------------------------------------------------------- var, std
def _dof_warning(op: str) -> None:
    warn(
        f"{op}(): degrees of freedom is <= 0. Correction should be strictly less "
        "than the reduction factor (input numel divided by output numel)."
    )


class Var(Op):
    """d var(a) = g * 2 (a - mean(a)) / (n - correction)"""

    node_name, saved = "VarBackward0", ("self",)
    saved_attrs = ("correction", "dim", "keepdim")
    op = "var"

    @classmethod
    def _forward(cls, ctx: Ctx, a: Any, dim: Any, correction: Any, keepdim: bool):
        x = a._data
        _floats(x, "std and var only support floating point and complex dtypes")
        ctx.dim = None if dim is None else as_saved(dim)
        ctx.dim_arg = _given(dim)
        ctx.correction, ctx.keepdim = correction, keepdim
        full = not ctx.dim_arg or not x.ndim  # (dim=None, () or [])
        if dim is not None:
            reduce_dims(dim, x.ndim)  # range check, also for 0-d
        ctx.dims = tuple(range(x.ndim)) if full else reduce_dims(dim, x.ndim)
        ctx.full = dim is None or not x.ndim
        n = int(np.prod([x.shape[d] for d in ctx.dims]))
        c = 1 if correction is None else correction
        ctx.dof = n - c
        if ctx.dof <= 0:
            _dof_warning(cls.op)
        # PyTorch's backward counts the elements of ``dim=[]`` as 1 (a quirk)
        ctx.grad_dof = 1 - c if dim is not None and full and x.ndim else ctx.dof
        dev = x - quiet_mean(x, axis=ctx.dims, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            sq = (dev * dev).sum(axis=ctx.dims, keepdims=keepdim)
            return row_major(np.asarray(sq / max(ctx.dof, 0), x.dtype))

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: Any, correction: Any, keepdim: bool) -> Any:
        ctx.save_for_backward(a)
        return Var._forward(ctx, a, dim, correction, keepdim)

    @staticmethod
    def _grad(ctx: Ctx, g: Any, a: Any) -> Any:
        """PyTorch's ``var_backward``."""
        ndim = len(f.data(a).shape)
        if ctx.full and ctx.dof <= 0:  # 2 / 0: NaN where a == mean, else inf
            x = f.data(a)
            bad = np.where(x == x.mean(), np.nan, np.inf).astype(x.dtype)
            return g * f.constant(bad, g)
        if not (ctx.keepdim or ctx.full) and ndim > 1:  # (a 1-d one broadcasts)
            g = f.unsqueeze_dims(g, ctx.dim_arg, ndim)
        with np.errstate(divide="ignore"):
            scale = float(np.float64(2.0) / np.float64(ctx.grad_dof))
        mean = a.mean() if ctx.full else f.mean_dims(a, ctx.dim_arg, True)
        # PyTorch's order of ops (its C++ computes an operator's right operand first)
        deviation = a - mean
        return f.scale(g, scale) * deviation

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (a,) = ctx.saved_tensors
        return Var._grad(ctx, g, a), None, None, None


class Std(Var):
    """d std(a) = var's gradient for g / (2 * result) (0 where result is 0)"""

    node_name, saved = "StdBackward0", ("self", "result")
    saved_attrs = ("correction", "dim", "keepdim")
    op = "std"

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: Any, correction: Any, keepdim: bool) -> Any:
        with np.errstate(invalid="ignore"):
            out = np.sqrt(Std._forward(ctx, a, dim, correction, keepdim))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, result = ctx.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore"):
            g_var = f.masked_fill(g / f.scale(result, 2), f.data(result) == 0, 0)
        return Var._grad(ctx, g_var, a), None, None, None


# ------------------------------------------------------------------------ prod
def _prod_grad(g: Any, a: Any, result: Any, dim: int) -> Any:
    """PyTorch's ``prod_backward``: ``g * result / a`` unless some element is
    zero; then, along ``dim``, the product of the other elements."""
    x = f.data(a)
    if not (x == 0).any():
        return g * (result / a)
    if x.shape[dim] == 1:  # prod_safe_zeros_backward: the gradient as it came
        return g
    return g * f.prod_others(a, dim)


def _prod_dtype(x: np.ndarray) -> Any:
    return None if x.dtype.kind == "f" else np.int64


class Prod(Op):
    """d prod(a) = g * (product of the other elements)"""

    node_name, saved = "ProdBackward0", ("self", "result")

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        x = a._data
        out = np.asarray(x.prod(dtype=_prod_dtype(x)))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> Any:
        a, result = ctx.saved_tensors
        x = f.data(a)
        if not x.shape:
            return g
        if (x == 0).any():  # along the flattened input, viewed back (as PyTorch)
            return f.reshape(_prod_grad(g, f.reshape(a, (-1,)), result, 0), x.shape)
        return _prod_grad(g, a, result, 0)


class ProdDim(Op):
    """d prod(a, dim) = g * (product of the other elements along dim)"""

    node_name, saved = "ProdBackward1", ("self", "result")
    saved_attrs = ("dim", "keepdim")

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int, keepdim: bool) -> Any:
        x = a._data
        (ctx.d,) = normalize_dims(dim, x.ndim)
        ctx.dim, ctx.keepdim = f.u64(dim), keepdim
        out = (
            x.prod(axis=ctx.d, keepdims=keepdim, dtype=_prod_dtype(x)) if x.ndim else x
        )
        out = row_major(out)
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, result = ctx.saved_tensors
        ndim = len(f.data(a).shape)
        if not ndim:
            return g, None, None
        g = restore_dims(g, (ctx.d,), ndim, ctx.keepdim)
        result = restore_dims(result, (ctx.d,), ndim, ctx.keepdim)
        return _prod_grad(g, a, result, ctx.d), None, None


# ------------------------------------------------------------------- logsumexp
class Logsumexp(Op):
    """d logsumexp(a, dim) = g * exp(a - result)"""

    node_name, saved = "LogsumexpBackward0", ("self", "result")
    saved_attrs = ("dim", "keepdim")

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: Any, keepdim: bool) -> Any:
        x = a._data
        if x.dtype.kind != "f":
            x = x.astype(np.float32)
        ctx.dims = (
            reduce_dims(dim, x.ndim) if x.ndim else reduce_dims(dim, 0)[:0]
        )  # 0-d: check only
        ctx.dim_arg = _given(dim)
        ctx.dim, ctx.keepdim = as_saved(ctx.dim_arg), keepdim
        if not ctx.dim_arg and x.ndim:  # dim=(): every dim, as in PyTorch,
            ctx.dims = tuple(range(x.ndim))
            if x.size and not keepdim:  # whose kernel then refuses its own result
                raise RuntimeError(
                    "output with shape [] doesn't match the broadcast shape "
                    f"{[1] * x.ndim}"
                )
        if x.size:
            m = np.amax(x, axis=ctx.dims, keepdims=True)
            m = np.where(np.isinf(m), 0, m)
        else:
            m = np.zeros([1 if d in ctx.dims else n for d, n in enumerate(x.shape)])
        with np.errstate(divide="ignore"):
            s = np.log(np.exp(x - m).sum(axis=ctx.dims, keepdims=True)) + m
        if not keepdim:
            s = s.reshape([n for d, n in enumerate(s.shape) if d not in ctx.dims])
        out = row_major(np.asarray(s, x.dtype))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, result = ctx.saved_tensors
        ndim = len(f.data(a).shape)
        g = restore_dims(g, ctx.dim_arg, ndim, ctx.keepdim)
        result = restore_dims(result, ctx.dim_arg, ndim, ctx.keepdim)
        return g * f.exp(a - result), None, None


# ------------------------------------------------------------------------ norm
class VectorNorm(Op):
    """d ‖a‖_p = g * a / ‖a‖ for p = 2, g * sgn(a) for p = 1, shared by the
    largest |a| for p = inf, g * sgn(a) |a|^(p-1) / ‖a‖^(p-1) otherwise"""

    node_name, saved = "LinalgVectorNormBackward0", ("self", "result")
    saved_attrs = ("dim", "keepdim", "ord")

    @staticmethod
    def forward(ctx: Ctx, a: Any, ord: Any, dim: Any, keepdim: bool) -> Any:
        x = a._data
        if x.dtype.kind != "f":
            legacy = from_numpy_dtype(x.dtype)._legacy.replace("Tensor", "")
            raise RuntimeError(
                "linalg.vector_norm: Expected a floating point or complex tensor as "
                f"input. Got {legacy}"
            )
        ctx.ord, ctx.keepdim = ord, keepdim
        ctx.dim = None if dim is None else as_saved(dim)
        ctx.dim_arg = _given(dim)
        # (dim=() reduces every dim too, as PyTorch's vector_norm)
        full = dim is None or not x.ndim or not ctx.dim_arg
        if dim is not None:
            reduce_dims(dim, x.ndim)  # range check, also for 0-d
        ctx.dims = tuple(range(x.ndim)) if full else reduce_dims(dim, x.ndim)
        ax = np.abs(x)
        p = float(ord)
        kw = {"axis": ctx.dims, "keepdims": keepdim}
        with np.errstate(over="ignore", under="ignore"):
            out = VectorNorm._norm(x, ax, p, kw)
        out = row_major(np.asarray(out, x.dtype))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def _norm(x: np.ndarray, ax: np.ndarray, p: float, kw: dict) -> Any:
        if p == np.inf:
            return ax.max(**kw)
        if p == -np.inf:
            return ax.min(**kw)
        if p == 0:
            return (ax != 0).sum(**kw)
        if p == 1:
            return ax.sum(**kw)
        if p == 2:
            return np.sqrt((x * x).sum(**kw))
        return (ax**p).sum(**kw) ** (1 / p)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, result = ctx.saved_tensors
        x = f.data(a)
        p = float(ctx.ord)
        nothing = None, None, None, None
        if p == 0:
            return (f.zeros(x.shape, g),) + nothing
        # (a full reduction's 0-d gradient broadcasts as it is, as in PyTorch)
        g = restore_dims(g, ctx.dim_arg, x.ndim, ctx.keepdim)
        result = restore_dims(result, ctx.dim_arg, x.ndim, ctx.keepdim)
        r = f.data(result)
        with np.errstate(divide="ignore", invalid="ignore"):
            if abs(p) == np.inf:
                ax = np.abs(x)
                mask = (ax == r) | np.isnan(ax)
                share = (mask / mask.sum(axis=ctx.dims, keepdims=True)).astype(x.dtype)
                grad = f.sgn(a) * (g * f.constant(share, g))
            elif p == 1:
                grad = f.sgn(a) * g
            elif p == 2:
                grad = g * f.masked_fill(a / result, r == 0, 0)
            elif p < 1:  # |a|^(p-1) is inf at a zero, whose gradient is 0
                powered = f.masked_fill(f.power(f.absolute(a), p - 1), x == 0, 0)
                grad = f.sgn(a) * powered * g * f.power(result, 1 - p)
            else:  # (a zero norm gets 0, not nan)
                scale = f.masked_fill(g / f.power(result, p - 1), r == 0, 0)
                if p < 2:
                    grad = f.sgn(a) * f.power(f.absolute(a), p - 1) * scale
                else:
                    grad = a * f.power(f.absolute(a), p - 2) * scale
        return (grad,) + nothing


# ---------------------------------------------------------------------- cumsum
class Cumsum(Op):
    """d cumsum(a, dim) = g summed from each position to the end of dim"""

    node_name, saved_attrs = "CumsumBackward0", ("dim",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int) -> Any:
        x = a._data
        (ctx.d,) = normalize_dims(dim, x.ndim)
        ctx.dim, ctx.dim_arg = f.u64(dim), dim
        if not x.ndim:
            return x.astype(_sum_dtype(x, None) or x.dtype)
        out = np.cumsum(x, axis=ctx.d, dtype=_sum_dtype(x, None))
        return row_major(np.asarray(out))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        shape = tuple(g.shape)
        if math.prod(shape) <= 1 or shape[ctx.d] == 1:
            return g, None
        # the sums from each position to the end: a reversed cumsum, along the
        # dim as given (PyTorch's nodes save -1 for cumsum(-1))
        d = ctx.dim_arg
        return f.flip(f.cumsum(f.flip(g, (d,)), d), (d,)), None


class Cumprod(Op):
    """d cumprod(a, dim) = reversed_cumsum(g · result) / a   (without zeros in a;
    with zeros, Σ_{j ≥ k} g_j Π_{i ≤ j, i ≠ k} a_i)"""

    node_name, saved = "CumprodBackward0", ("self", "result")
    saved_attrs = ("dim",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int) -> Any:
        x = a._data
        (ctx.d,) = normalize_dims(dim, x.ndim)
        ctx.dim = f.u64(dim)
        out = np.cumprod(x, axis=ctx.d) if x.ndim else x.copy()
        out = row_major(np.asarray(out))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, result = ctx.saved_tensors
        x, d = f.data(a), ctx.d
        if x.size <= 1 or x.shape[d] == 1:
            return g, None
        if not (x == 0).any():  # PyTorch's formula, op for op
            w = result * g
            return f.flip(f.cumsum(f.flip(w, (d,)), d), (d,)) / a, None
        return _cumprod_grad_with_zeros(g, a, d), None


def _cumprod_grad_with_zeros(g: Any, a: Any, d: int) -> Any:
    """Each position k's gradient, Σ_{j ≥ k} g_j cumprod(a with a_k = 1)_j: no
    division, so zeros are fine (O(n²), on arrays or Tensors alike)."""
    shape = tuple(f.data(a).shape)
    n = shape[d]
    out = f.zeros(shape, g)
    for k in range(n):  # written slice by slice, as PyTorch does (CopySlices)
        ones_at_k = f.index_fill(a, d, d, np.array([k]), 1.0)
        later = f.narrow(g * f.cumprod(ones_at_k, d), d, k, n - k)
        part = f.sum_dims(later, (d,), True)
        if isinstance(out, f.ndarray):
            f.narrow(out, d, k, 1)[...] = part
        else:
            out.narrow(d, k, 1).copy_(part)
    return out
