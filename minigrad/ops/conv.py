"""Convolution (1-d, 2-d, 3-d; stride, padding, dilation, groups) on numpy.

The input's sliding windows are a strided view (no copy), so the forward pass
and the weight's gradient are each one ``einsum``; the input's gradient adds
the windows' contributions back, one kernel offset at a time. Its gradient is
ConvolutionBackward0 and, under create_graph, the fused
ConvolutionBackwardBackward0, whose own gradients are convolutions again."""

from __future__ import annotations

import string
from typing import Any

import numpy as np

from .. import _formula as f
from ._common import Op

Geometry = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]


def windows(
    x: np.ndarray,
    kernel: tuple,
    geometry: Geometry,
    fill: float = 0.0,
    out: tuple | None = None,
) -> np.ndarray:
    """The (N, C, *out, *kernel) windows of the padded input (padded with
    ``fill``), as a view; ``out``: the output size, when not the usual one
    (pooling's ceil_mode needs room for a last, partial window)."""
    stride, padding, dilation, _ = geometry
    if out is not None:  # pad on the right too, for windows past the end
        extra = [
            max(0, (o - 1) * s + d * (k - 1) + 1 - (n + 2 * p))
            for o, s, d, k, n, p in zip(
                out, stride, dilation, kernel, x.shape[2:], padding
            )
        ]
    else:
        extra = [0] * len(padding)
    pad = [(0, 0), (0, 0)] + [(p, p + e) for p, e in zip(padding, extra)]
    xp = np.pad(x, pad, constant_values=fill) if any(padding) or any(extra) else x
    spatial = xp.shape[2:]
    if out is None:
        out = tuple(
            (n - d * (k - 1) - 1) // s + 1
            for n, k, s, d in zip(spatial, kernel, stride, dilation)
        )
    strides = xp.strides
    return np.lib.stride_tricks.as_strided(
        xp,
        xp.shape[:2] + out + tuple(kernel),
        strides[:2]
        + tuple(st * s for st, s in zip(strides[2:], stride))
        + tuple(st * d for st, d in zip(strides[2:], dilation)),
        writeable=False,
    )


def _letters(k: int) -> tuple[str, str]:
    """einsum letters for k spatial dims: the output's and the kernel's."""
    return string.ascii_lowercase[10 : 10 + k], string.ascii_lowercase[20 : 20 + k]


def conv_forward(x: np.ndarray, w: np.ndarray, geometry: Geometry) -> np.ndarray:
    """out[n, o, *p] = Σ_c,k x_padded[n, c, p·stride + k·dilation] w[o, c, k]"""
    groups, k = geometry[3], w.ndim - 2
    win = windows(x, w.shape[2:], geometry)
    n, c = win.shape[:2]
    o = w.shape[0]
    win = win.reshape((n, groups, c // groups) + win.shape[2:])
    wg = w.reshape((groups, o // groups) + w.shape[1:])
    out_l, ker_l = _letters(k)
    out = np.einsum(f"ngc{out_l}{ker_l},goc{ker_l}->ngo{out_l}", win, wg, optimize=True)
    out = out.reshape((n, o) + out.shape[3:])
    return np.ascontiguousarray(out, dtype=x.dtype)


def conv_weight_grad(g: np.ndarray, x: np.ndarray, kernel: tuple, geometry: Geometry):
    """gW[o, c, k] = Σ_n,p g[n, o, p] x_padded[n, c, p·stride + k·dilation]"""
    groups, k = geometry[3], len(kernel)
    win = windows(x, kernel, geometry)
    n, c = win.shape[:2]
    o = g.shape[1]
    win = win.reshape((n, groups, c // groups) + win.shape[2:])
    gg = g.reshape((n, groups, o // groups) + g.shape[2:])
    out_l, ker_l = _letters(k)
    gw = np.einsum(f"ngo{out_l},ngc{out_l}{ker_l}->goc{ker_l}", gg, win, optimize=True)
    gw = gw.reshape((o, c // groups) + tuple(kernel))
    return np.ascontiguousarray(gw, dtype=g.dtype)  # (PyTorch's layout)


def conv_input_grad(g: np.ndarray, w: np.ndarray, shape: tuple, geometry: Geometry):
    """gI = the transposed convolution: each window's Σ_o g w added back where
    the window read the input (then the padding cut off)."""
    stride, padding, dilation, groups = geometry
    k = w.ndim - 2
    n, o = g.shape[:2]
    out_sp = g.shape[2:]
    c = shape[1]
    gg = g.reshape((n, groups, o // groups) + out_sp)
    wg = w.reshape((groups, o // groups) + w.shape[1:])
    out_l, ker_l = _letters(k)
    cols = np.einsum(f"ngo{out_l},goc{ker_l}->ngc{out_l}{ker_l}", gg, wg, optimize=True)
    cols = cols.reshape((n, c) + out_sp + w.shape[2:])
    padded = np.zeros(
        (n, c) + tuple(s + 2 * p for s, p in zip(shape[2:], padding)), g.dtype
    )
    for offset in np.ndindex(*w.shape[2:]):  # one kernel position at a time
        key = tuple(
            slice(j * d, j * d + s * (m - 1) + 1, s)
            for j, d, s, m in zip(offset, dilation, stride, out_sp)
        )
        padded[(slice(None), slice(None)) + key] += cols[(Ellipsis,) + offset]
    crop = tuple(slice(p, p + s) for p, s in zip(padding, shape[2:]))
    return np.ascontiguousarray(padded[(slice(None), slice(None)) + crop])


def _check(x: np.ndarray, w: np.ndarray, b: Any, groups: int) -> None:
    """PyTorch's argument checks, with its words."""
    k = w.ndim - 2
    if x.ndim != k + 2:
        raise RuntimeError(
            f"Expected {k + 1}D (unbatched) or {k + 2}D (batched) input to conv{k}d, "
            f"but got input of size: {list(x.shape)}"
        )
    if x.dtype != w.dtype or (b is not None and b.dtype != x.dtype):
        other = w if x.dtype != w.dtype else b
        raise RuntimeError(f"expected scalar type {_name(x)} but found {_name(other)}")
    if w.shape[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at "
            f"dimension 0, but got weight of size [{list(w.shape)}] instead"
        )
    if x.shape[1] != w.shape[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {list(w.shape)}, expected "
            f"input{list(x.shape)} to have {w.shape[1] * groups} channels, but got "
            f"{x.shape[1]} channels instead"
        )


def _name(a: np.ndarray) -> str:
    from .._dtype import from_numpy_dtype

    return from_numpy_dtype(a.dtype)._legacy.replace("Tensor", "")


class Convolution(Op):
    """d conv(x, w) + b = (conv_transpose(g, w), corr(x, g), Σ g)"""

    node_name = "ConvolutionBackward0"
    saved = ("input", "weight")
    saved_attrs = (
        "bias_sym_sizes_opt",
        "dilation",
        "groups",
        "output_padding",
        "padding",
        "stride",
        "transposed",
    )
    optional_tensors = (2,)  # the bias

    @staticmethod
    def forward(ctx: Any, x: Any, w: Any, b: Any, geometry: Geometry) -> Any:
        xd, wd = x._data, w._data
        bd = None if b is None else b._data
        _check(xd, wd, bd, geometry[3])
        _keep_geometry(ctx, geometry)
        ctx.bias_sym_sizes_opt = (0,) if b is None else bd.shape
        ctx.save_for_backward(x, w)
        ctx.input_shape = xd.shape
        ctx.kernel = wd.shape[2:]
        out = conv_forward(xd, wd, geometry)
        if bd is not None:
            out = out + bd.reshape((1, -1) + (1,) * len(geometry[0]))
        return out

    @staticmethod
    def backward(ctx: Any, g: Any) -> tuple:
        x, w = ctx.saved_tensors
        needs = ctx.needs_input_grad[:3]
        grads = convolution_backward(
            g, x, w, ctx.input_shape, ctx.kernel, ctx.geometry, needs
        )
        return (*grads, None)


def _keep_geometry(ctx: Any, geometry: Geometry) -> None:
    """The convolution's settings, as PyTorch's nodes show them (``_saved_*``)."""
    ctx.stride, ctx.padding, ctx.dilation, ctx.groups = geometry
    ctx.transposed, ctx.output_padding = False, (0,) * len(geometry[0])
    ctx.geometry = geometry


def convolution_backward(
    g: Any,
    x: Any,
    w: Any,
    shape: tuple,
    kernel: tuple,
    geometry: Geometry,
    needs: tuple,
) -> tuple:
    """The gradients (input, weight, bias) of a convolution; on Tensors one node
    with three outputs, ConvolutionBackwardBackward0 (PyTorch's fused kernel)."""
    if not isinstance(g, f.ndarray):
        return ConvolutionBackward.apply(g, x, w, shape, kernel, geometry, needs)
    gx = conv_input_grad(g, w, shape, geometry) if needs[0] else None
    gw = conv_weight_grad(g, x, kernel, geometry) if needs[1] else None
    gb = g.sum(axis=(0,) + tuple(range(2, g.ndim))) if needs[2] else None
    return gx, gw, gb


class ConvolutionBackward(Op):
    """d convolution_backward(g, x, w) given (ggx, ggw, ggb):
    (conv(ggx, w) + conv(x, ggw) + ggb, conv_transpose(g, ggw) as x's,
    corr(ggx, g) as w's): convolutions again"""

    node_name = "ConvolutionBackwardBackward0"
    saved = ("grad_output", "input", "weight")
    optional_tensors = (1, 2)  # (left out when the formula needs only one)
    saved_attrs = (
        "dilation",
        "groups",
        "output_padding",
        "padding",
        "stride",
        "transposed",
    )

    @staticmethod
    def forward(
        ctx: Any,
        g: Any,
        x: Any,
        w: Any,
        shape: tuple,
        kernel: tuple,
        geometry: Geometry,
        needs: tuple,
    ) -> tuple:
        _keep_geometry(ctx, geometry)
        ctx.shape, ctx.kernel = shape, kernel
        ctx.save_for_backward(g, x, w)
        ctx.set_materialize_grads(False)
        xd = None if x is None else x._data
        wd = None if w is None else w._data
        return convolution_backward(g._data, xd, wd, shape, kernel, geometry, needs)

    @staticmethod
    def backward(ctx: Any, ggx: Any, ggw: Any, ggb: Any) -> tuple:
        g, x, w = ctx.saved_tensors
        need_g, need_x, need_w = ctx.needs_input_grad[:3]
        geometry, spatial = ctx.geometry, len(ctx.kernel)
        d_g = d_x = d_w = None
        if need_g:
            parts = []
            if ggx is not None:
                parts.append(convolution(ggx, w, None, geometry))
            if ggw is not None:
                parts.append(convolution(x, ggw, None, geometry))
            if ggb is not None:
                parts.append(f.reshape(ggb, (1, -1) + (1,) * spatial) + f.zeros_like(g))
            d_g = parts[0] if len(parts) == 1 else sum(parts[1:], parts[0])
        if need_x and ggw is not None:
            d_x = convolution_backward(
                g, None, ggw, ctx.shape, ctx.kernel, geometry, (True, False, False)
            )[0]
        if need_w and ggx is not None:
            d_w = convolution_backward(
                g, ggx, None, ctx.shape, ctx.kernel, geometry, (False, True, False)
            )[1]
        return d_g, d_x, d_w, None, None, None, None


def convolution(x: Any, w: Any, b: Any, geometry: Geometry) -> Any:
    """A convolution of arrays or Tensors (the forward, for formulas)."""
    if isinstance(x, f.ndarray):
        out = conv_forward(x, w, geometry)
        return out if b is None else out + b.reshape((1, -1) + (1,) * (w.ndim - 2))
    return Convolution.apply(x, w, b, geometry)
