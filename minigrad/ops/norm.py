"""Layer, batch and group normalization: x̂ = (x - mean) · r (r = 1/√(var + eps)) over
some axes, then y = x̂ · w + b. Both share one gradient formula and one
closed-form double backward; they differ in the axes (layer norm: the last
dims; batch norm: all but the channels) and in where w lives.

With J the normalization's Jacobian, J v = r/N (N v - Σv - x̂ Σ(v x̂)) (Σ over
the normalized axes, N elements), the gradients are
    gx = J(g w),   gW = Σ g x̂,   gB = Σ g      (the last two over w's other axes)

Classes (and the node each records):

    Axes                     (where a normalization works)
    NativeLayerNorm          NativeLayerNormBackward0
    NativeLayerNormBackward  NativeLayerNormBackwardBackward0
    NativeBatchNorm          NativeBatchNormBackward0
    NativeBatchNormBackward  NativeBatchNormBackwardBackward0
    NativeGroupNorm          NativeGroupNormBackward0
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _formula as f
from ._common import Ctx, Grad, Op
from ._layout import row_major


class Axes:
    """Where a normalization works: ``axes`` normalized (N elements each),
    ``w_axes`` summed for w's and b's gradients, ``w_view`` w's broadcast shape
    (None: w broadcasts as it is)."""

    def __init__(self, axes: tuple, w_axes: tuple, w_view: tuple | None, n: int):
        self.axes, self.w_axes, self.w_view, self.n = axes, w_axes, w_view, n

    def view(self, w: Any) -> Any:
        return w if w is None or self.w_view is None else f.reshape(w, self.w_view)


def norm_grads(
    g: Any, x: Any, mean: Any, r: Any, w: Any, where: Axes, needs: tuple
) -> tuple:
    """(gx, gW, gB) on arrays or Tensors alike (None where not needed)."""
    xhat = (x - mean) * r
    gw = g if w is None else g * where.view(w)
    gx = gW = gB = None
    if needs[0]:
        gx = _jac(gw, xhat, r, where)
    if len(needs) > 1 and needs[1] and w is not None:
        gW = f.sum_dims(g * xhat, where.w_axes)
    if len(needs) > 2 and needs[2]:
        gB = f.sum_dims(g, where.w_axes)
    return gx, gW, gB


def _jac(v: Any, xhat: Any, r: Any, where: Axes) -> Any:
    """J v = r/N (N v - Σv - x̂ Σ(v x̂))"""
    n, axes = where.n, where.axes
    total = f.sum_dims(v, axes, True)
    along = f.sum_dims(v * xhat, axes, True)
    return r / n * (f.scale(v, n) - total - xhat * along)


def norm_double(
    g: Any, x: Any, mean: Any, r: Any, w: Any, ggs: tuple, where: Axes, needs: tuple
) -> tuple:
    """The gradients of (gx, gW, gB) for (g, x, w) given (ggx, ggW, ggB):
        d_g = w J ggx + ggW x̂ + ggB,   d_w = Σ g J ggx,
        d_x = J v - r/N (Σ ggx gx) x̂,  v = -r/N (g w Σ(ggx x̂) + ggx Σ(g w x̂))
                                           + ggW g.
    Mean and r are the saved constants, as in PyTorch's formulas: a third
    derivative, like PyTorch's, holds them fixed."""
    gg_x, gg_w, gg_b = ggs
    need_g, need_x, need_w = needs
    n, axes = where.n, where.axes
    shape = tuple(f.data(x).shape)
    xhat = (x - mean) * r
    wv = where.view(w)
    gw = g if w is None else g * wv

    def along(v: Any) -> Any:
        return f.sum_dims(v, axes, True)

    d_g = d_w = d_x = None
    if need_g:
        parts = []
        if gg_x is not None:
            jg = _jac(gg_x, xhat, r, where)
            parts.append(jg if w is None else jg * wv)
        if gg_w is not None and w is not None:
            parts.append(where.view(gg_w) * xhat)
        if gg_b is not None:
            parts.append(f.expand(where.view(gg_b), shape))
        d_g = _sum(parts)
    if need_w and w is not None and gg_x is not None:
        d_w = f.sum_dims(g * _jac(gg_x, xhat, r, where), where.w_axes)
    if need_x:
        parts, v = [], []
        if gg_x is not None:
            s_gx, s_gw = along(gg_x * xhat), along(gw * xhat)
            v.append(-(r / n) * (gw * s_gx + gg_x * s_gw))
            gx = r / n * (f.scale(gw, n) - along(gw) - xhat * s_gw)
            parts.append(-(r / n) * along(gg_x * gx) * xhat)
        if gg_w is not None and w is not None:
            v.append(where.view(gg_w) * g)
        if v:
            parts.append(_jac(_sum(v), xhat, r, where))
        d_x = _sum(parts)
    return d_g, d_x, d_w


def _sum(terms: list) -> Any:
    """The sum of a list of gradients (None for none)."""
    total = None
    for t in terms:
        total = t if total is None else total + t
    return total


def _same_dtype(x: np.ndarray, *others: Any) -> None:
    if any(t is not None and t._data.dtype != x.dtype for t in others):
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")


# ---------------------------------------------------------------- layer norm
def _layer_axes(ndim: int, normalized_shape: tuple) -> Axes:
    k = len(normalized_shape)
    axes, batch = tuple(range(ndim - k, ndim)), tuple(range(ndim - k))
    return Axes(axes, batch, None, math.prod(normalized_shape))


class NativeLayerNorm(Op):
    """d layer_norm(x, w, b) = (J(g w), Σ_batch g x̂, Σ_batch g), normalized over
    the last dims"""

    node_name = "NativeLayerNormBackward0"
    saved = ("input", "weight", "bias", "result1", "result2")
    saved_attrs = ("normalized_shape",)
    optional_tensors = (1, 2)  # weight and bias may be left out

    @staticmethod
    def forward(
        ctx: Ctx, x: Any, w: Any, b: Any, normalized_shape: tuple, eps: float
    ) -> Any:
        data, k = x._data, len(normalized_shape)
        if k == 0 or data.shape[data.ndim - k :] != tuple(normalized_shape):
            raise RuntimeError(
                f"Given normalized_shape={list(normalized_shape)}, expected input "
                f"with shape [*, {', '.join(map(str, normalized_shape))}], but got "
                f"input of size{list(data.shape)}"
            )
        for name, t in (("weight", w), ("bias", b)):
            if t is not None and t._data.shape != tuple(normalized_shape):
                raise RuntimeError(
                    f"Expected {name} to be of same shape as normalized_shape, but "
                    f"got {name} of shape {list(t._data.shape)} and normalized_shape"
                    f" = {list(normalized_shape)}"
                )
        _same_dtype(data, w, b)
        axes = tuple(range(data.ndim - k, data.ndim))
        mean = data.mean(axis=axes, keepdims=True)
        rstd = 1 / np.sqrt(((data - mean) ** 2).mean(axis=axes, keepdims=True) + eps)
        ctx.normalized_shape = tuple(normalized_shape)
        ctx.where = _layer_axes(data.ndim, ctx.normalized_shape)
        ctx.save_for_backward(x, w, b, mean, rstd)
        out = _affine((data - mean) * rstd, w, b, None)
        return row_major(np.asarray(out, data.dtype))  # row-major, as PyTorch's

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        x, w, b, mean, rstd = ctx.saved_tensors
        needs = ctx.needs_input_grad
        if not isinstance(g, f.ndarray):
            args = (g, x, mean, rstd, w, b, ctx.normalized_shape, ctx.where, needs)
            return (*NativeLayerNormBackward.apply(*args), None, None)
        return (*norm_grads(g, x, mean, rstd, w, ctx.where, needs), None, None)


def _affine(xhat: np.ndarray, w: Any, b: Any, view: tuple | None) -> np.ndarray:
    out = xhat
    if w is not None:
        out = out * (w._data if view is None else w._data.reshape(view))
    if b is not None:
        out = out + (b._data if view is None else b._data.reshape(view))
    return out


class NativeLayerNormBackward(Op):
    """d native_layer_norm_backward(g, x, w) = norm_double (above)"""

    node_name = "NativeLayerNormBackwardBackward0"
    saved = ("grad_out", "input", "mean", "rstd", "weight")
    saved_attrs = ("normalized_shape",)
    optional_tensors = (4, 5)

    @staticmethod
    def forward(
        ctx: Ctx,
        g: Any,
        x: Any,
        mean: Any,
        rstd: Any,
        w: Any,
        b: Any,
        normalized_shape: tuple,
        where: Axes,
        needs: tuple,
    ) -> tuple:
        ctx.normalized_shape, ctx.where = normalized_shape, where
        ctx.save_for_backward(g, x, mean, rstd, w)
        ctx.set_materialize_grads(False)
        args = (g._data, x._data, mean._data, rstd._data, _data(w))
        return norm_grads(*args, where, needs)

    @staticmethod
    def backward(ctx: Ctx, gg_x: Grad, gg_w: Any, gg_b: Any) -> tuple:
        g, x, mean, rstd, w = ctx.saved_tensors
        needs = tuple(ctx.needs_input_grad[i] for i in (0, 1, 4))
        ggs = (gg_x, gg_w, gg_b)
        d_g, d_x, d_w = norm_double(g, x, mean, rstd, w, ggs, ctx.where, needs)
        return d_g, d_x, None, None, d_w, None, None, None, None


def _data(t: Any) -> Any:
    return None if t is None else t._data


# ---------------------------------------------------------------- batch norm
def _batch_axes(ndim: int, channels: int, n: int) -> Axes:
    axes = (0,) + tuple(range(2, ndim))
    return Axes(axes, axes, (1, channels) + (1,) * (ndim - 2), n)


class NativeBatchNorm(Op):
    """d batch_norm(x, w, b) = (J(g w), Σ g x̂, Σ g) per channel in training;
    in evaluation x̂ uses the running statistics: (g w r, Σ g x̂, Σ g)"""

    node_name = "NativeBatchNormBackward0"
    saved = ("input", "weight", "running_mean", "running_var", "result1", "result2")
    saved_attrs = ("eps", "training")
    optional_tensors = (1, 2)

    @staticmethod
    def forward(
        ctx: Ctx,
        x: Any,
        w: Any,
        b: Any,
        stats: tuple,
        training: bool,
        momentum: float,
        eps: float,
    ) -> Any:
        running_mean, running_var = stats
        data = x._data
        _same_dtype(data, w, b)
        c = data.shape[1]
        axes = (0,) + tuple(range(2, data.ndim))
        count = data.size // c
        view = (1, c) + (1,) * (data.ndim - 2)
        ctx.eps, ctx.training = eps, training
        ctx.where = _batch_axes(data.ndim, c, count)
        if training:
            mean = data.mean(axis=axes)
            centered = data - mean.reshape(view)
            var_sum = (centered * centered).sum(axis=axes)
            invstd = 1 / np.sqrt(var_sum / count + eps)
            if running_mean is not None:  # PyTorch's update, term for term
                rm, rv = running_mean._data, running_var._data
                rm[...] = momentum * mean + (1 - momentum) * rm
                rv[...] = momentum * var_sum / (count - 1) + (1 - momentum) * rv
            xhat = centered * invstd.reshape(view)
            saved_mean, saved_invstd = mean, invstd
        else:
            rm, rv = running_mean._data, running_var._data
            invstd = 1 / np.sqrt(rv + eps)
            xhat = (data - rm.reshape(view)) * invstd.reshape(view)
            saved_mean = saved_invstd = np.empty(0, data.dtype)
        ctx.save_for_backward(x, w, running_mean, running_var, saved_mean, saved_invstd)
        return _affine(xhat, w, b, view).astype(data.dtype, copy=False)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        x, w, rm, rv, mean, invstd = ctx.saved_tensors
        needs = ctx.needs_input_grad[:3]
        if not isinstance(g, f.ndarray):
            args = (g, x, w, rm, rv, (mean, invstd), ctx.training, ctx.eps, ctx.where)
            grads = NativeBatchNormBackward.apply(*args, needs)
        else:
            grads = batch_norm_grads(
                g, x, w, rm, rv, mean, invstd, ctx.training, ctx.eps, ctx.where, needs
            )
        return (*grads, None, None, None, None)


def _stats(
    rm: Any, rv: Any, mean: Any, invstd: Any, training: bool, eps: float, w: Axes
) -> tuple:
    """The mean and r (1/√(var + eps)) to normalize with, broadcastable."""
    if training:
        return f.reshape(mean, w.w_view), f.reshape(invstd, w.w_view)
    r = f.rsqrt(f.add_scalar(rv, eps))
    return f.reshape(rm, w.w_view), f.reshape(r, w.w_view)


def batch_norm_grads(
    g: Any,
    x: Any,
    w: Any,
    rm: Any,
    rv: Any,
    mean: Any,
    invstd: Any,
    training: bool,
    eps: float,
    where: Axes,
    needs: tuple,
) -> tuple:
    m, r = _stats(rm, rv, mean, invstd, training, eps, where)
    if training:
        return norm_grads(g, x, m, r, w, where, needs)
    # evaluation: x̂ is linear in x, so gx = g w r
    gx = None
    if needs[0]:
        gx = (g if w is None else g * where.view(w)) * r
    _, gW, gB = norm_grads(g, x, m, r, w, where, (False, *needs[1:]))
    return gx, gW, gB


class NativeBatchNormBackward(Op):
    """d native_batch_norm_backward(g, x, w): norm_double in training; in
    evaluation the gradients of the linear (g w r, Σ g x̂, Σ g)"""

    node_name = "NativeBatchNormBackwardBackward0"
    saved = (
        "grad_out",
        "input",
        "weight",
        "running_mean",
        "running_var",
        "save_mean",
        "save_invstd",
    )
    saved_attrs = ("eps", "train")
    optional_tensors = (2, 3, 4)

    @staticmethod
    def forward(
        ctx: Ctx,
        g: Any,
        x: Any,
        w: Any,
        rm: Any,
        rv: Any,
        consts: tuple,
        training: bool,
        eps: float,
        where: Axes,
        needs: tuple,
    ) -> tuple:
        mean, invstd = consts  # (saved, but no edges: they take no gradient)
        ctx.eps, ctx.train, ctx.where = eps, training, where
        ctx.save_for_backward(g, x, w, rm, rv, mean, invstd)
        ctx.set_materialize_grads(False)
        args = (g._data, x._data, _data(w), _data(rm), _data(rv))
        return batch_norm_grads(
            *args, mean._data, invstd._data, training, eps, where, needs
        )

    @staticmethod
    def backward(ctx: Ctx, gg_x: Grad, gg_w: Any, gg_b: Any) -> tuple:
        g, x, w, rm, rv, mean, invstd = ctx.saved_tensors
        where = ctx.where
        needs = tuple(ctx.needs_input_grad[i] for i in (0, 1, 2))
        m, r = _stats(rm, rv, mean, invstd, ctx.train, ctx.eps, where)
        if ctx.train:
            ggs = (gg_x, gg_w, gg_b)
            d_g, d_x, d_w = norm_double(g, x, m, r, w, ggs, where, needs)
        else:
            d_g, d_x, d_w = _eval_double(
                g, x, m, r, w, (gg_x, gg_w, gg_b), where, needs
            )
        return (d_g, d_x, d_w) + (None,) * 7


def _eval_double(
    g: Any, x: Any, m: Any, r: Any, w: Any, ggs: tuple, where: Axes, needs: tuple
) -> tuple:
    """Evaluation mode: gx = g w r, gW = Σ g (x - m) r, gB = Σ g are linear in
    each argument, so their gradients are products again."""
    gg_x, gg_w, gg_b = ggs
    need_g, need_x, need_w = needs
    xhat = (x - m) * r
    wv = where.view(w)
    d_g = d_x = d_w = None
    if need_g:
        parts = []
        if gg_x is not None:
            parts.append(gg_x * r if w is None else gg_x * wv * r)
        if gg_w is not None and w is not None:
            parts.append(where.view(gg_w) * xhat)
        if gg_b is not None:
            parts.append(f.expand(where.view(gg_b), tuple(f.data(x).shape)))
        d_g = _sum(parts)
    if need_x and gg_w is not None and w is not None:
        d_x = where.view(gg_w) * g * r
    if need_w and gg_x is not None and w is not None:
        d_w = f.sum_dims(g * gg_x * r, where.w_axes)
    return d_g, d_x, d_w


# ---------------------------------------------------------------- group norm
class NativeGroupNorm(Op):
    """d group_norm(x, w, b) = (J(g w), Σ g x̂, Σ g), normalized over each group
    of channels (and the spatial dims): layer norm's formula on x viewed as
    (N, group, C/group, HxW)"""

    node_name = "NativeGroupNormBackward0"
    saved = ("input", "result1", "result2", "weight")
    saved_attrs = ("C", "HxW", "N", "eps", "group")
    optional_tensors = (1, 2)

    @staticmethod
    def forward(ctx: Ctx, x: Any, w: Any, b: Any, group: int, eps: float) -> Any:
        data = x._data
        _same_dtype(data, w, b)
        n, c = data.shape[0], data.shape[1]
        hxw = math.prod(data.shape[2:])
        ctx.N, ctx.C, ctx.HxW, ctx.group, ctx.eps = n, c, hxw, group, eps
        ctx.where = _group_axes(group, c // group, hxw)
        grouped = data.reshape(n, group, c // group, hxw)
        mean = grouped.mean(axis=(2, 3), keepdims=True)
        rstd = 1 / np.sqrt(
            ((grouped - mean) ** 2).mean(axis=(2, 3), keepdims=True) + eps
        )
        ctx.save_for_backward(x, mean.reshape(n, group), rstd.reshape(n, group), w)
        view = (1, group, c // group, 1)
        out = _affine((grouped - mean) * rstd, w, b, view)
        return row_major(np.asarray(out, data.dtype).reshape(data.shape))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        x, mean, rstd, w = ctx.saved_tensors
        shape = (ctx.N, ctx.group, ctx.C // ctx.group, ctx.HxW)
        x4 = f.reshape(x, shape)
        if isinstance(g, f.ndarray):
            stat = (ctx.N, ctx.group, 1, 1)
            mean, rstd = f.reshape(mean, stat), f.reshape(rstd, stat)
        else:  # under create_graph the statistics are recomputed from x, so the
            # gradient's own gradient flows through them too: ordinary ops, as
            # PyTorch's infinitely differentiable group norm backward records
            mean = f.mean_dims(x4, (2, 3), True)
            centred = x4 - mean
            rstd = f.rsqrt(
                f.add_scalar(f.mean_dims(centred * centred, (2, 3), True), ctx.eps)
            )
        gx, gw, gb = norm_grads(
            f.reshape(g, shape), x4, mean, rstd, w, ctx.where, ctx.needs_input_grad[:3]
        )
        c = (ctx.C,)
        return (
            None if gx is None else f.reshape(gx, tuple(x.shape)),
            None if gw is None else f.reshape(gw, c),
            None if gb is None else f.reshape(gb, c),
            None,
            None,
        )


def _group_axes(group: int, per_group: int, hxw: int) -> Axes:
    return Axes((2, 3), (0, 3), (1, group, per_group, 1), per_group * hxw)
