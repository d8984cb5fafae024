"""Neural-network ops: softmax and log-softmax, the losses, and ``addmm`` (what
``F.linear`` records). ``nn/functional.py`` is the public surface built on them.

A loss's class targets and weights are tensors that PyTorch's node has no edge
for (they are not differentiable inputs). They are passed to ``apply`` inside a
tuple, so ``next_functions`` lists the differentiable inputs only, and saved with
``save_for_backward`` so that ``_saved_target`` is the target object itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from .._dtype import from_numpy_dtype, result_type
from .._warn import quiet_mean
from ..node import register
from ._common import Ctx, Grad, Op
from .linalg import element_strides, mm_backward
from .reduction import normalize_dims

# PyTorch's reduction enum: the value a loss node keeps as ``_saved_reduction``
REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}
NONE, MEAN, SUM = 0, 1, 2


def reduction_enum(reduction: str) -> int:
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return REDUCTIONS[reduction]


def _legacy_name(dtype: np.dtype) -> str:
    """``float32`` -> ``Float``, as PyTorch's kernels name dtypes in errors."""
    return from_numpy_dtype(dtype)._legacy.replace("Tensor", "")


def _reduce(loss: np.ndarray, reduction: int) -> np.ndarray:
    if reduction == MEAN:
        return np.asarray(quiet_mean(loss, dtype=loss.dtype))
    if reduction == SUM:
        return np.asarray(loss.sum(dtype=loss.dtype))
    return loss


def _norm_dim(dim: int, ndim: int) -> int:
    return normalize_dims(dim, ndim)[0]


# ------------------------------------------------------------------ softmax
def _check_float(x: np.ndarray, kernel: str) -> None:
    if x.dtype.kind != "f":
        raise NotImplementedError(
            f'"{kernel}_lastdim_kernel_impl" not implemented for '
            f"'{_legacy_name(x.dtype)}'"
        )


def _shifted(x: np.ndarray, axis: int) -> np.ndarray:
    """``x - max(x)`` along ``axis``: exp of it cannot overflow."""
    return x - x.max(axis=axis, keepdims=True)


class Softmax(Op):
    """d softmax(x) = result * (g - sum(g * result, dim))"""

    node_name, saved, saved_attrs = "SoftmaxBackward0", ("result",), ("dim",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int) -> Any:
        x = a._data
        _check_float(x, "softmax")
        ctx.dim, ctx.axis = f.u64(dim), _norm_dim(dim, x.ndim)
        if x.ndim == 0:
            out = np.ones((), x.dtype)
        else:
            e = np.exp(_shifted(x, ctx.axis))
            out = np.asarray(e / e.sum(axis=ctx.axis, keepdims=True), order="C")
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (y,) = ctx.saved_tensors
        if y.ndim == 0:
            return g * 0, None
        return softmax_backward(g, y, ctx.dim, ctx.axis), None


def softmax_backward(g: Any, y: Any, dim: int, axis: int) -> Any:
    """softmax's gradient from its result, ``y * (g - sum(g * y))``. On Tensors
    one node, SoftmaxBackwardDataBackward0 (PyTorch's fused kernel)."""
    if isinstance(g, f.ndarray):
        gy = g * y
        return gy - y * gy.sum(axis=axis, keepdims=True)
    return SoftmaxBackwardData.apply(g, y, dim, axis)


class SoftmaxBackwardData(Op):
    """d softmax_backward(g, y) = (softmax_backward(gg, y),
    g * gg - sum(y * g) * gg - g * sum(y * gg))"""

    node_name = "SoftmaxBackwardDataBackward0"
    saved, saved_attrs = ("grad_output", "output"), ("dim",)

    @staticmethod
    def forward(ctx: Ctx, g: Any, y: Any, dim: int, axis: int) -> Any:
        ctx.dim, ctx.axis = dim, axis
        ctx.save_for_backward(g, y)
        return softmax_backward(g._data, y._data, dim, axis)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        g, y = ctx.saved_tensors
        need_g, need_y = ctx.needs_input_grad[:2]
        axis = ctx.axis
        d_y = None
        if need_y:
            d_y = g * gg - f.sum_keepdim(y * g, axis) * gg
            d_y = d_y - g * f.sum_keepdim(y * gg, axis)
        d_g = softmax_backward(gg, y, ctx.dim, axis) if need_g else None
        return d_g, d_y, None, None


class LogSoftmax(Op):
    """d log_softmax(x) = g - exp(result) * sum(g, dim)"""

    node_name, saved, saved_attrs = "LogSoftmaxBackward0", ("result",), ("dim",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int) -> Any:
        x = a._data
        _check_float(x, "log_softmax")
        ctx.dim, ctx.axis = f.u64(dim), _norm_dim(dim, x.ndim)
        if x.ndim == 0:
            out = np.zeros((), x.dtype)
        else:
            z = _shifted(x, ctx.axis)  # log-sum-exp with the max taken out
            out = z - np.log(np.exp(z).sum(axis=ctx.axis, keepdims=True))
            out = np.asarray(out, order="C")  # PyTorch's result is row-major
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (y,) = ctx.saved_tensors
        if y.ndim == 0:
            return g * 0, None
        return log_softmax_backward(g, y, ctx.dim, ctx.axis), None


def _log_softmax_grad(g: Any, y: Any, axis: int) -> Any:
    return g - f.exp(y) * f.sum_keepdim(g, axis)


def log_softmax_backward(g: Any, y: Any, dim: int, axis: int) -> Any:
    """log_softmax's gradient from its result, ``g - exp(y) * sum(g)``. On
    Tensors one node, LogSoftmaxBackwardDataBackward0 (PyTorch's fused kernel)."""
    if isinstance(g, f.ndarray):
        return _log_softmax_grad(g, y, axis)
    return LogSoftmaxBackwardData.apply(g, y, dim, axis)


class LogSoftmaxBackwardData(Op):
    """d log_softmax_backward(g, y) = (gg - sum(gg * exp(y)),
    -sum(g) * exp(y) * gg)"""

    node_name = "LogSoftmaxBackwardDataBackward0"
    saved, saved_attrs = ("grad_output", "output"), ("dim",)

    @staticmethod
    def forward(ctx: Ctx, g: Any, y: Any, dim: int, axis: int) -> Any:
        ctx.dim, ctx.axis = dim, axis
        ctx.save_for_backward(g, y)
        return _log_softmax_grad(g._data, y._data, axis)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        g, y = ctx.saved_tensors
        need_g, need_y = ctx.needs_input_grad[:2]
        # (not log_softmax_backward again: unlike softmax's, this Jacobian is
        # not symmetric)
        d_g = gg - f.sum_keepdim(gg * f.exp(y), ctx.axis) if need_g else None
        d_y = -f.sum_keepdim(g, ctx.axis) * f.exp(y) * gg if need_y else None
        return d_g, d_y, None, None


# ------------------------------------------------------------------- linear
def _matmul_add(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``x @ w + b``. For ``w = W.t()`` (what ``linear`` passes) OpenBLAS is
    faster on ``W @ xᵀ``; its transpose is written row-major while adding b."""
    if w.strides[0] == w.itemsize and x.flags.c_contiguous and x.shape[0] > 1:
        out = np.empty((x.shape[0], w.shape[1]), np.result_type(x, w))
        return np.add((w.T @ x.T).T, b, out=out)
    out = x @ w
    out += b
    return out


class Addmm(Op):
    """d (bias + m1 @ m2) = (g summed to bias, g @ m2ᵀ, m1ᵀ @ g)"""

    node_name, saved = "AddmmBackward0", ("mat1", "mat2")
    saved_attrs = (
        "alpha",
        "beta",
        "mat1_sym_sizes",
        "mat1_sym_strides",
        "mat2_sym_sizes",
        "mat2_sym_strides",
    )

    @staticmethod
    def forward(ctx: Ctx, bias: Any, m1: Any, m2: Any) -> Any:
        b, x, w = bias._data, m1._data, m2._data
        if x.dtype != w.dtype:
            raise RuntimeError(
                "mat1 and mat2 must have the same dtype, but got "
                f"{_legacy_name(x.dtype)} and {_legacy_name(w.dtype)}"
            )
        if x.shape[1] != w.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({x.shape[0]}x{x.shape[1]}"
                f" and {w.shape[0]}x{w.shape[1]})"
            )
        if b.dtype != w.dtype:
            raise RuntimeError(
                "self and mat2 must have the same dtype, but got "
                f"{_legacy_name(b.dtype)} and {_legacy_name(w.dtype)}"
            )
        try:
            out = _matmul_add(x, w, b)
        except ValueError:
            target = [x.shape[0], w.shape[1]]
            raise RuntimeError(
                f"The expanded size of the tensor ({target[-1]}) must match the "
                f"existing size ({b.shape[-1]}) at non-singleton dimension "
                f"{len(target) - 1}.  Target sizes: {target}.  Tensor sizes: "
                f"{list(b.shape)}"
            ) from None
        _, need_x, need_w = ctx.needs_input_grad
        ctx.save_for_backward(m1 if need_w else None, m2 if need_x else None)
        ctx.alpha = ctx.beta = 1
        ctx.mat1_sym_sizes, ctx.mat2_sym_sizes = x.shape, w.shape
        ctx.mat1_sym_strides = element_strides(x) if need_x else ()
        ctx.mat2_sym_strides = element_strides(w) if need_w else ()
        ctx.bias_shape = b.shape
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        x, w = ctx.saved_tensors
        need_b, need_x, need_w = ctx.needs_input_grad
        gb = f.sum_to(g, ctx.bias_shape) if need_b else None
        layouts = (
            (ctx.mat1_sym_sizes, ctx.mat1_sym_strides),
            (
                ctx.mat2_sym_sizes,
                ctx.mat2_sym_strides,
            ),
        )
        return (gb, *mm_backward(g, x, w, need_x, need_w, layouts))


# ------------------------------------------------------------------- losses
def _promote(a: Any, b: Any) -> np.dtype:
    return result_type(a, b).np


class MseLoss(Op):
    """d mean((x - t)²) = (2 (x - t) g / n, -2 (x - t) g / n)"""

    node_name, saved, saved_attrs = (
        "MseLossBackward0",
        ("self", "target"),
        ("reduction",),
    )

    @staticmethod
    def forward(ctx: Ctx, a: Any, t: Any, reduction: int) -> Any:
        dtype = _promote(a, t)
        if dtype.kind != "f":
            raise NotImplementedError(
                f"\"mse_cpu\" not implemented for '{_legacy_name(dtype)}'"
            )
        ctx.reduction = reduction
        ctx.save_for_backward(a, t)
        d = a._data.astype(dtype, copy=False) - t._data.astype(dtype, copy=False)
        return _reduce(d * d, reduction)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        x, t = ctx.saved_tensors
        need_x, need_t = ctx.needs_input_grad[:2]
        red = ctx.reduction
        return (
            mse_loss_backward(g, x, t, red) if need_x else None,
            mse_loss_backward(g, t, x, red) if need_t else None,  # as PyTorch
            None,
        )


def _mse_norm(x: Any, reduction: int) -> float:
    return 2.0 / f.data(x).size if reduction == MEAN else 2.0


def mse_loss_backward(g: Any, x: Any, t: Any, reduction: int) -> Any:
    """mse_loss's gradient for ``x``, ``2 (x - t) g`` (over n for the mean); on
    Tensors one node, MseLossBackwardBackward0 (PyTorch's fused kernel)."""
    if isinstance(g, f.ndarray):
        return (x - t) * _mse_norm(x, reduction) * g
    return MseLossBackward.apply(g, x, t, reduction)


class MseLossBackward(Op):
    """d mse_loss_backward(g, x, t) = (sum of 2 (x - t) gg, 2 g gg, -2 g gg)
    (over n for the mean)"""

    node_name = "MseLossBackwardBackward0"
    saved = ("grad_output", "self", "target")
    saved_attrs = ("reduction",)

    @staticmethod
    def forward(ctx: Ctx, g: Any, x: Any, t: Any, reduction: int) -> Any:
        ctx.reduction = reduction
        ctx.save_for_backward(g, x, t)
        return mse_loss_backward(g._data, x._data, t._data, reduction)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        g, x, t = ctx.saved_tensors
        need_g, need_x, need_t = ctx.needs_input_grad[:3]
        norm = _mse_norm(x, ctx.reduction)
        d_g = f.sum_to(f.scale(x - t, norm) * gg, tuple(g.shape)) if need_g else None
        d_x = f.scale(gg * g, norm) if need_x or need_t else None
        return d_g, (d_x if need_x else None), (-d_x if need_t else None), None


class SmoothL1Loss(Op):
    """d smooth_l1(x, t) = (g * clip(x - t, ±beta) / beta, the negative for t)
    (over n for the mean); Huber's is the same without the division"""

    node_name, saved = "SmoothL1LossBackward0", ("self", "target")
    saved_attrs = ("beta", "reduction")
    param = "beta"  # HuberLoss: delta

    @staticmethod
    def forward(ctx: Ctx, a: Any, t: Any, reduction: int, param: float) -> Any:
        cls = ctx._forward_cls
        setattr(ctx, cls.param, param)
        ctx.reduction = reduction
        ctx.save_for_backward(a, t)
        d = np.abs(a._data - t._data)
        quadratic = d < param
        if cls is SmoothL1Loss:
            loss = np.where(quadratic, 0.5 * d * d / param, d - 0.5 * param)
        else:
            loss = np.where(quadratic, 0.5 * d * d, param * (d - 0.5 * param))
        return _reduce(loss.astype(a._data.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        x, t = ctx.saved_tensors
        need_x, need_t = ctx.needs_input_grad[:2]
        cls, red = ctx._forward_cls, ctx.reduction
        param = getattr(ctx, cls.param)
        return (
            piecewise_loss_backward(cls, g, x, t, red, param) if need_x else None,
            piecewise_loss_backward(cls, g, t, x, red, param) if need_t else None,
            None,
            None,
        )


class HuberLoss(SmoothL1Loss):
    """d huber(x, t) = (g * clip(x - t, ±delta), the negative for t) (over n for
    the mean)"""

    node_name, saved = "HuberLossBackward0", ("self", "target")
    saved_attrs, param = ("delta", "reduction"), "delta"


def piecewise_loss_backward(
    cls: type, g: Any, x: Any, t: Any, reduction: int, param: float
) -> Any:
    """smooth_l1's (or huber's, ``cls``) gradient for ``x``; on Tensors one node,
    SmoothL1LossBackwardBackward0 (HuberLossBackwardBackward0)."""
    if not isinstance(g, f.ndarray):
        return cls.backward_cls.apply(g, x, t, reduction, param)
    slope = np.clip(x - t, -param, param)
    if cls is SmoothL1Loss:
        slope = slope / param
    norm = 1.0 / x.size if reduction == MEAN else 1.0
    return (slope * norm * g).astype(x.dtype, copy=False)


class SmoothL1LossBackward(Op):
    """d smooth_l1_loss_backward(g, x, t) = (the same gradient of gg, summed
    for a reduced loss; gg g [|x - t| < beta] / beta and its negative)"""

    node_name = "SmoothL1LossBackwardBackward0"
    saved, saved_attrs = ("grad_output", "self", "target"), ("beta", "reduction")
    loss: type = SmoothL1Loss

    @staticmethod
    def forward(ctx: Ctx, g: Any, x: Any, t: Any, reduction: int, param: float) -> Any:
        loss = ctx._forward_cls.loss
        setattr(ctx, loss.param, param)
        ctx.reduction = reduction
        ctx.save_for_backward(g, x, t)
        return piecewise_loss_backward(
            loss, g._data, x._data, t._data, reduction, param
        )

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        g, x, t = ctx.saved_tensors
        need_g, need_x, need_t = ctx.needs_input_grad[:3]
        loss, red = ctx._forward_cls.loss, ctx.reduction
        param = getattr(ctx, loss.param)
        d_g = d_x = None
        if need_g:
            if red == NONE:
                d_g = piecewise_loss_backward(loss, gg, x, t, red, param)
            else:
                ones = f.constant(np.ones_like(f.data(g)), gg)
                d_g = (piecewise_loss_backward(loss, ones, x, t, red, param) * gg).sum()
        if need_x or need_t:  # the slope's derivative: 1 (1/beta) inside, else 0
            inside = np.abs(f.data(x) - f.data(t)) < param
            d_x = gg * g * f.constant(inside.astype(f.data(gg).dtype), gg)
            if loss is SmoothL1Loss:
                d_x = f.div_scalar(d_x, param)
            if red == MEAN:
                d_x = f.div_scalar(d_x, f.data(x).size)
        return d_g, (d_x if need_x else None), (-d_x if need_t else None), None, None


class HuberLossBackward(SmoothL1LossBackward):
    """d huber_loss_backward(g, x, t) = (the same gradient of gg, summed for a
    reduced loss; gg g [|x - t| < delta] and its negative)"""

    node_name = "HuberLossBackwardBackward0"
    saved, saved_attrs = ("grad_output", "self", "target"), ("delta", "reduction")
    loss = HuberLoss


SmoothL1Loss.backward_cls, HuberLoss.backward_cls = (
    SmoothL1LossBackward,
    HuberLossBackward,
)


def _nll_check(x: np.ndarray, t: np.ndarray, w: np.ndarray | None) -> None:
    """PyTorch's argument checks, in its order, with its messages."""
    if x.ndim == 0:
        raise ValueError("Expected 1 or more dimensions (got 0)")
    if x.ndim > 2:
        raise NotImplementedError(
            "minigrad's nll_loss takes (C) or (N, C) input; PyTorch also accepts "
            "(N, C, d1, ...) (NllLoss2dBackward0)"
        )
    if x.ndim == 2 and (t.shape[0] if t.ndim else 1) != x.shape[0]:
        raise ValueError(
            f"Expected input batch_size ({x.shape[0]}) to match target batch_size "
            f"({t.shape[0] if t.ndim else 1})."
        )
    if t.ndim > 1:
        raise RuntimeError(
            "0D or 1D target tensor expected, multi-target not supported"
        )
    if x.ndim == 1 and t.ndim == 1 and t.shape[0] != 1:
        raise ValueError(
            "For 1D input, 1D target must have size 1, but got target size: "
            f"{t.shape[0]}"
        )
    n_classes = x.shape[-1]
    if w is not None and w.size != n_classes:
        raise RuntimeError(
            f"weight tensor should be defined either for all {n_classes} classes "
            f"or no classes but got weight tensor of shape: {list(w.shape)}"
        )
    if t.dtype not in (np.int64, np.uint8):
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {_legacy_name(t.dtype)}"
        )
    if w is not None and w.dtype != x.dtype:
        raise RuntimeError(
            f"expected scalar type {_legacy_name(x.dtype)} but found "
            f"{_legacy_name(w.dtype)}"
        )


def _nll_weights(
    t: np.ndarray, w: np.ndarray | None, ignore_index: int, n_classes: int, dtype: Any
) -> tuple[np.ndarray, np.ndarray]:
    """Per-sample class indices (ignored ones replaced by 0) and their weights
    (0 for ignored samples)."""
    t = t.reshape(-1).astype(np.int64, copy=False)
    keep = t != ignore_index
    kept = t if keep.all() else t[keep]
    if kept.size and (kept.min() < 0 or kept.max() >= n_classes):
        raise IndexError(
            f"Target {kept[(kept < 0) | (kept >= n_classes)][0]} is out of bounds."
        )
    idx = t if kept is t else np.where(keep, t, 0)
    if w is None:
        return idx, keep.astype(dtype)
    weights = w[idx].astype(dtype)
    weights[~keep] = 0
    return idx, weights


class NllLoss(Op):
    """d nll(x, t) = -g · w[t] (/ total_weight for the mean) at (i, t_i), else 0"""

    node_name = "NllLossBackward0"
    saved = ("self", "target", "weight", "total_weight")
    saved_attrs = ("ignore_index", "reduction")

    @staticmethod
    def forward(ctx: Ctx, a: Any, consts: tuple, reduction: int, ignore: int) -> Any:
        target, weight = consts
        x, t = a._data, target._data
        w = None if weight is None else weight._data
        _nll_check(x, t, w)
        out, total = _nll(x, t, w, reduction, ignore)
        ctx.reduction, ctx.ignore_index, ctx.ignore = reduction, f.u64(ignore), ignore
        ctx.save_for_backward(a, target, weight, total)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        x, t, w, total = ctx.saved_tensors
        red, ignore = ctx.reduction, ctx.ignore
        return nll_loss_backward(g, x, t, w, total, red, ignore), None, None, None


def _nll(x: Any, t: Any, w: Any, reduction: int, ignore: int) -> tuple:
    """nll_loss's value and its total weight, on arrays."""
    idx, weights = _nll_weights(t, w, ignore, x.shape[-1], x.dtype)
    rows = x.reshape(-1, x.shape[-1])
    losses = -weights * rows[np.arange(len(idx)), idx]
    total = weights.sum(dtype=x.dtype)
    if reduction == NONE and x.ndim == 2:
        out = losses.reshape(t.shape)
        total = np.zeros((), x.dtype)  # PyTorch leaves it 0 here
    elif reduction == NONE:
        out = losses.reshape(())
    elif reduction == SUM:
        out = losses.sum(dtype=x.dtype)
    else:
        with np.errstate(invalid="ignore", divide="ignore"):
            out = losses.sum(dtype=x.dtype) / total
    return np.asarray(out, x.dtype), np.asarray(total)


def nll_loss_backward(
    g: Any, x: Any, t: Any, w: Any, total: Any, reduction: int, ignore: int
) -> Any:
    """nll_loss's gradient: ``-g · w[t]`` (over the total weight for the mean) at
    each sample's target class, 0 elsewhere. On Tensors one node,
    NllLossBackwardBackward0 (PyTorch's fused kernel)."""
    if not isinstance(g, f.ndarray):
        return NllLossBackward.apply(g, x, (t, w, total), reduction, ignore)
    xd = f.data(x)
    wd = None if w is None else f.data(w)
    idx, weights = _nll_weights(f.data(t), wd, ignore, xd.shape[-1], xd.dtype)
    if reduction == MEAN:
        with np.errstate(invalid="ignore", divide="ignore"):
            weights = weights / f.data(total)
    coef = np.zeros((len(idx), xd.shape[-1]), xd.dtype)
    coef[np.arange(len(idx)), idx] = -weights
    if reduction == NONE and xd.ndim == 2:
        g = g.reshape(len(idx), 1)
    return g * coef.reshape(xd.shape)


class NllLossBackward(Op):
    """d nll_loss_backward(g, x) = (nll_loss(gg), 0): linear in g, and x only
    gives the shape"""

    node_name = "NllLossBackwardBackward0"
    saved, saved_attrs = ("target", "weight"), ("ignore_index", "reduction")

    @staticmethod
    def forward(
        ctx: Ctx, g: Any, x: Any, consts: tuple, reduction: int, ignore: int
    ) -> Any:
        t, w, total = consts
        ctx.reduction, ctx.ignore_index, ctx.ignore = reduction, f.u64(ignore), ignore
        ctx.x_shape = x._data.shape
        ctx.save_for_backward(t, w)
        return nll_loss_backward(g._data, x, t, w, total, reduction, ignore)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        t, w = ctx.saved_tensors
        need_g, need_x = ctx.needs_input_grad[:2]
        d_g = None
        if need_g and isinstance(gg, f.ndarray):
            wd = None if w is None else f.data(w)
            d_g = _nll(gg, f.data(t), wd, ctx.reduction, ctx.ignore)[0]
        elif need_g:
            d_g = NllLoss.apply(gg, (t, w), ctx.reduction, ctx.ignore)
        d_x = f.zeros(ctx.x_shape, gg) if need_x else None  # a constant
        return d_g, d_x, None, None, None


EPSILON = 1e-12  # PyTorch's floor for x(1 - x) in binary_cross_entropy's backward


class BinaryCrossEntropy(Op):
    """d bce(x, t) = (g w (x - t) / max(x(1 - x), eps), g w log((1 - x) / x))"""

    node_name = "BinaryCrossEntropyBackward0"
    saved, saved_attrs = ("self", "target", "weight"), ("reduction",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, t: Any, consts: tuple, reduction: int) -> Any:
        (weight,) = consts
        x, y = a._data, t._data
        if y.dtype != x.dtype:
            raise RuntimeError(
                f"Found dtype {_legacy_name(y.dtype)} but expected "
                f"{_legacy_name(x.dtype)}"
            )
        if ((x < 0) | (x > 1)).any():
            raise RuntimeError("all elements of input should be between 0 and 1")
        with np.errstate(divide="ignore"):
            log_x = np.maximum(np.log(x), -100)  # PyTorch clamps the logs at -100
            log_1mx = np.maximum(np.log(1 - x), -100)
        loss = -(y * log_x + (1 - y) * log_1mx)
        if weight is not None:
            loss = loss * weight._data
        ctx.reduction = reduction
        ctx.save_for_backward(a, t, weight)
        return _reduce(loss.astype(x.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        x, t, w = ctx.saved_tensors
        need_x, need_t = ctx.needs_input_grad[:2]
        red = ctx.reduction
        gx = bce_backward(g, x, t, w, red) if need_x else None
        gt = _bce_scale(g, x, w, red) * (f.log(1 - x) - f.log(x)) if need_t else None
        return gx, gt, None, None


def _bce_scale(g: Any, x: Any, w: Any, reduction: int) -> Any:
    """The incoming gradient over n for the mean, times the weights."""
    if reduction == MEAN:
        g = f.scale(g, 1.0 / f.data(x).size)
    return g if w is None else g * w


def _bce_grad(g: Any, x: Any, t: Any, w: Any, reduction: int) -> Any:
    """``g w (x - t) / x(1 - x)`` (over n for the mean), with ordinary ops."""
    return _bce_scale(g, x, w, reduction) * (x - t) / f.clamp_min((1 - x) * x, EPSILON)


def bce_backward(g: Any, x: Any, t: Any, w: Any, reduction: int) -> Any:
    """binary_cross_entropy's gradient for ``x``; on Tensors one node,
    BinaryCrossEntropyBackwardBackward0 (PyTorch's fused kernel)."""
    if isinstance(g, f.ndarray):
        return _bce_grad(g, x, t, w, reduction)
    return BinaryCrossEntropyBackward.apply(g, x, t, (w,), reduction)


class BinaryCrossEntropyBackward(Op):
    """d bce_backward(g, x, t) = (sum of gg w (x - t) / x(1 - x),
    gg g w (x² - 2xt + t) / x²(1 - x)², -gg g w / x(1 - x))   (over n for the mean;
    the second with PyTorch's eps: (x + eps)² (1 - x + eps)²)"""

    node_name = "BinaryCrossEntropyBackwardBackward0"
    saved = ("grad_output", "self", "target", "weight")
    saved_attrs = ("reduction",)

    @staticmethod
    def forward(ctx: Ctx, g: Any, x: Any, t: Any, consts: tuple, red: int) -> Any:
        (w,) = consts
        ctx.reduction = red
        ctx.save_for_backward(g, x, t, w)
        wd = None if w is None else w._data
        return bce_backward(g._data, x._data, t._data, wd, red)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        g, x, t, w = ctx.saved_tensors
        need_g, need_x, need_t = ctx.needs_input_grad[:3]
        red = ctx.reduction
        d_g = d_x = d_t = None
        if need_g:
            d_g = f.sum_to(_bce_grad(gg, x, t, w, red), tuple(g.shape))
        if need_x or need_t:
            scaled = _bce_scale(gg * g, x, w, red)
        if need_x:
            curve = (x * x - f.scale(x * t, 2) + t) / (
                (x + EPSILON) * (x + EPSILON) * ((1 - x + EPSILON) * (1 - x + EPSILON))
            )
            d_x = scaled * curve
        if need_t:
            d_t = -scaled / f.clamp_min((1 - x) * x, EPSILON)
        return d_g, d_x, d_t, None, None


class BinaryCrossEntropyWithLogits(Op):
    """d bce(σ(x), t) = (g w (l σ(x) - p t), g w (log(1 - σ(x)) - p log σ(x))),
    l = 1 + (p - 1) t, p = pos_weight (1 without it)"""

    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    saved = ("self", "target", "weight", "pos_weight")
    saved_attrs = ("reduction",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, t: Any, consts: tuple, reduction: int) -> Any:
        weight, pos_weight = consts
        x = a._data
        dtype = _promote(a, t)
        if t._data.dtype.kind != "f":
            raise RuntimeError(
                f"result type {_legacy_name(x.dtype)} can't be cast to the desired "
                f"output type {_legacy_name(t._data.dtype)}"
            )
        x, y = x.astype(dtype, copy=False), t._data.astype(dtype, copy=False)
        # -log σ(x) = log(1 + exp(-x)), computed without overflow
        neg_log_sig = np.logaddexp(0, -x).astype(dtype, copy=False)
        if pos_weight is None:
            loss = (1 - y) * x + neg_log_sig
        else:
            log_weight = (pos_weight._data - 1) * y + 1
            loss = (1 - y) * x + log_weight * neg_log_sig
        if weight is not None:
            loss = loss * weight._data
        ctx.reduction = reduction
        ctx.save_for_backward(a, t, weight, pos_weight)
        return _reduce(loss.astype(dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        x, t, w, pw = ctx.saved_tensors
        need_x, need_t = ctx.needs_input_grad[:2]
        s = f.sigmoid(x)
        gx = gt = None
        if need_x:  # in PyTorch's order: (...) * g [* w] / n
            pt = None if pw is None else pw * t
            gx = (s - t if pt is None else (pt + 1 - t) * s - pt) * g
            gx = _mean_over(gx if w is None else gx * w, x, ctx.reduction)
        if need_t:
            gt = -x if pw is None else f.log(1 - s) - pw * f.log(s)
            gt = _mean_over(gt * g if w is None else gt * g * w, x, ctx.reduction)
        return gx, gt, None, None


def _mean_over(v: Any, x: Any, reduction: int) -> Any:
    """``v / x.numel()`` for the mean reduction."""
    return f.div_scalar(v, f.data(x).size) if reduction == MEAN else v


class DivScalar(Op):
    """d (a / s) = g / s   (a Python number: what PyTorch's loss formulas record)"""

    node_name, saved_attrs = "DivBackward1", ("other",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, s: Any) -> Any:
        ctx.other = s
        x = a._data
        return np.asarray(x / s, x.dtype)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return g / ctx.other, None


# ---------------------------------------------------------------- embedding
class Embedding(Op):
    """d weight[indices] = g added into zeros like weight at the looked-up rows
    (not at padding_idx; divided by each row's count with scale_grad_by_freq)"""

    node_name, saved = "EmbeddingBackward0", ("indices",)
    saved_attrs = (
        "padding_idx",
        "scale_grad_by_freq",
        "sparse",
        "weight_sym_argsize_0",
    )

    @staticmethod
    def forward(
        ctx: Ctx, weight: Any, consts: tuple, padding_idx: int, by_freq: bool
    ) -> Any:
        (indices,) = consts
        w, idx = weight._data, indices._data
        if w.ndim != 2:
            raise RuntimeError("'weight' must be 2-D")
        if idx.dtype.kind not in "iu":
            raise RuntimeError(
                "Expected tensor for argument #1 'indices' to have one of the "
                "following scalar types: Long, Int; but got "
                f"minigrad.{from_numpy_dtype(idx.dtype)._legacy} instead (while "
                "checking arguments for embedding)"
            )
        if idx.size and (idx.min() < 0 or idx.max() >= w.shape[0]):
            raise IndexError("index out of range in self")
        ctx.padding_idx = f.u64(padding_idx)
        ctx.pad, ctx.scale_grad_by_freq, ctx.sparse = padding_idx, by_freq, False
        ctx.weight_sym_argsize_0 = w.shape[0]
        ctx.save_for_backward(indices)
        return np.take(w, idx, axis=0)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (indices,) = ctx.saved_tensors
        n, pad, by_freq = ctx.weight_sym_argsize_0, ctx.pad, ctx.scale_grad_by_freq
        return embedding_dense_backward(g, indices, n, pad, by_freq), None, None, None

    @staticmethod
    def fw_tangent(args: tuple, tangents: list) -> Any:
        """Forward mode: the looked-up rows of the weight's tangent (padding_idx
        and scale_grad_by_freq change only the backward, not the derivative)."""
        (indices,) = args[1]
        return tangents[0][indices]


def embedding_dense_backward(
    g: Any, indices: Any, n: int, pad: int, by_freq: bool
) -> Any:
    """embedding's gradient for its weight; on Tensors one node,
    EmbeddingDenseBackwardBackward0 (PyTorch's fused kernel)."""
    if not isinstance(g, f.ndarray):
        return EmbeddingDenseBackward.apply(g, (indices,), n, pad, by_freq)
    idx = f.data(indices).reshape(-1)
    rows = g.reshape(idx.size, -1)
    if by_freq:
        counts = np.bincount(idx, minlength=n)
        rows = rows / counts[idx, None].astype(g.dtype)
    if pad >= 0:
        rows = np.where((idx == pad)[:, None], 0, rows).astype(g.dtype, copy=False)
    out = np.zeros((n, rows.shape[1]), g.dtype)
    np.add.at(out, idx, rows)
    return out


class EmbeddingDenseBackward(Op):
    """d embedding_dense_backward(g) = gg[indices] (0 at padding_idx)"""

    node_name, saved = "EmbeddingDenseBackwardBackward0", ("indices",)
    saved_attrs = ("padding_idx",)

    @staticmethod
    def forward(
        ctx: Ctx, g: Any, consts: tuple, n: int, pad: int, by_freq: bool
    ) -> Any:
        (indices,) = consts
        ctx.padding_idx, ctx.pad = f.u64(pad), pad
        ctx.save_for_backward(indices)
        return embedding_dense_backward(g._data, indices._data, n, pad, by_freq)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        (indices,) = ctx.saved_tensors
        idx = f.data(indices)
        picked = f.index_select(gg, 0, 0, f.reshape(indices, (-1,)))
        if ctx.pad >= 0:  # (PyTorch leaves out scale_grad_by_freq here too)
            picked = f.masked_fill(picked, (idx == ctx.pad).reshape(-1, 1), 0)
        return f.reshape(picked, idx.shape + (-1,)), None, None, None, None


register(DivScalar=DivScalar.apply)  # (what _formula.div_scalar records)
