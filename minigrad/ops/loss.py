"""The losses: mse, smooth_l1 and huber, nll, binary cross-entropy (on
probabilities and on logits), each with its fused gradient node.
``nn/functional.py`` builds the others (l1, cross_entropy, ...) from ops.

A loss's class targets and weights are tensors that PyTorch's node has no edge
for (they are not differentiable inputs). They are passed to ``apply`` inside a
tuple, so ``next_functions`` lists the differentiable inputs only, and saved with
``save_for_backward`` so that ``_saved_target`` is the target object itself.

Classes (and the node each records):

    MseLoss                       MseLossBackward0
    MseLossBackward               MseLossBackwardBackward0
    SmoothL1Loss                  SmoothL1LossBackward0
    HuberLoss                     HuberLossBackward0
    SmoothL1LossBackward          SmoothL1LossBackwardBackward0
    HuberLossBackward             HuberLossBackwardBackward0
    NllLoss                       NllLossBackward0
    NllLossBackward               NllLossBackwardBackward0
    BinaryCrossEntropy            BinaryCrossEntropyBackward0
    BinaryCrossEntropyBackward    BinaryCrossEntropyBackwardBackward0
    BinaryCrossEntropyWithLogits  BinaryCrossEntropyWithLogitsBackward0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from .._dtype import result_type
from .._warn import quiet_mean
from ._common import Ctx, Grad, Op, dtype_name

# PyTorch's reduction enum: the value a loss node keeps as ``_saved_reduction``
REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}
NONE, MEAN, SUM = 0, 1, 2


def reduction_enum(reduction: str) -> int:
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return REDUCTIONS[reduction]


def _reduce(loss: np.ndarray, reduction: int) -> np.ndarray:
    if reduction == MEAN:
        return np.asarray(quiet_mean(loss, dtype=loss.dtype))
    if reduction == SUM:
        return np.asarray(loss.sum(dtype=loss.dtype))
    return loss


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
                f"\"mse_cpu\" not implemented for '{dtype_name(dtype)}'"
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
            f"expected target dtype to be Long or Byte, but got {dtype_name(t)}"
        )
    if w is not None and w.dtype != x.dtype:
        raise RuntimeError(
            f"expected scalar type {dtype_name(x)} but found {dtype_name(w)}"
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
                f"Found dtype {dtype_name(y)} but expected {dtype_name(x)}"
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
                f"result type {dtype_name(x)} can't be cast to the desired "
                f"output type {dtype_name(t._data)}"
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
