"""Copies that move elements around: flip, roll, repeat, pixel_shuffle and
pixel_unshuffle. Each gradient moves ``g`` back (flip, roll, the pixel
shuffles: each other's inverse) or sums the copies (repeat).

Classes (and the node each records):

    Flip    FlipBackward0
    Roll    RollBackward0
    Repeat  RepeatBackward0
    Rot90   Rot90Backward0
    PixelShuffle    PixelShuffleBackward0
    PixelUnshuffle  PixelUnshuffleBackward0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from ._common import Ctx, Grad, Op
from ._dims import checked_dims, normalize_dims, reduce_dims
from ._layout import row_major


class Flip(Op):
    """d flip(a, dims) = g flipped back along the same dims"""

    node_name, saved_attrs = "FlipBackward0", ("dims",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, dims: tuple) -> Any:
        x = a._data
        ctx.dims, ctx.dim_arg = tuple(f.u64(d) for d in dims), tuple(dims)
        ctx.axes = checked_dims(reduce_dims, dims, x.ndim)
        # a copy (not a view) in the input's memory order, as in PyTorch
        return np.flip(x, ctx.axes).copy(order="K")

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        # (the dims as given: PyTorch's FlipBackward0 saves -1 for flip(-1))
        return f.flip(g, ctx.dim_arg if ctx.axes else ()), None


class Roll(Op):
    """d roll(a, shifts, dims) = roll(g, -shifts, dims)"""

    node_name, saved_attrs = "RollBackward0", ("dims", "shifts")

    @staticmethod
    def forward(ctx: Ctx, a: Any, shifts: tuple, dims: tuple) -> Any:
        x = a._data
        if len(shifts) != len(dims) and (dims or len(shifts) != 1):
            raise RuntimeError(
                f"shifts and dimensions must align. shifts: {len(shifts)}, "
                f"dims:{len(dims)}"
            )
        ctx.shifts = tuple(f.u64(s) for s in shifts)
        ctx.dims = tuple(f.u64(d) for d in dims)
        ctx.shift_args, ctx.dim_args = shifts, dims
        axes = normalize_dims(dims, x.ndim) if dims else None
        out = np.roll(x, shifts if dims else shifts[0], axes)
        return row_major(np.asarray(out))  # PyTorch's result is row-major

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        # PyTorch rolls back over the dims in reverse order
        back = tuple(-s for s in reversed(ctx.shift_args))
        return f.roll(g, back, tuple(reversed(ctx.dim_args))), None, None


class Repeat(Op):
    """d a.repeat(r) = g folded into (r_i, size_i) blocks and summed over the r_i
    (PyTorch's repeat_backward)"""

    node_name, saved_attrs = "RepeatBackward0", ("repeats", "self_sym_sizes")

    @staticmethod
    def forward(ctx: Ctx, a: Any, repeats: tuple) -> Any:
        x = a._data
        if len(repeats) < x.ndim:
            raise RuntimeError(
                "Number of dimensions of repeat dims can not be smaller than number "
                "of dimensions of tensor"
            )
        ctx.repeats, ctx.self_sym_sizes = repeats, x.shape
        return np.tile(x, repeats) if repeats else x.copy()

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        reps, shape = ctx.repeats, ctx.self_sym_sizes
        if 0 in reps:
            return f.zeros(shape, g), None
        extra = len(reps) - len(shape)
        for _ in range(extra):  # the dims repeat added in front
            g = f.sum_dims(g, (0,))
        # each repeated dim as (repeat, size), then one sum over the repeats
        sizes: list[int] = []
        summed: list[int] = []
        for r, n in zip(reps[extra:], shape):
            if r != 1:
                summed.append(len(sizes))
                sizes.append(r)
            sizes.append(n)
        if summed:
            g = f.sum_dims(f.reshape(g, tuple(sizes)), tuple(summed))
        return g, None


def pixel_shuffle(x: Any, r: int) -> Any:
    """(*, C r², H, W) -> (*, C, H r, W r); on Tensors one node."""
    if not isinstance(x, f.ndarray):
        return PixelShuffle.apply(x, r)
    *batch, c, h, w = x.shape
    y = x.reshape(*batch, c // (r * r), r, r, h, w)
    n = len(batch)
    y = y.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return np.ascontiguousarray(y.reshape(*batch, c // (r * r), h * r, w * r))


def pixel_unshuffle(x: Any, r: int) -> Any:
    """(*, C, H r, W r) -> (*, C r², H, W); on Tensors one node."""
    if not isinstance(x, f.ndarray):
        return PixelUnshuffle.apply(x, r)
    *batch, c, h, w = x.shape
    y = x.reshape(*batch, c, h // r, r, w // r, r)
    n = len(batch)
    y = y.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return np.ascontiguousarray(y.reshape(*batch, c * r * r, h // r, w // r))


def _check_pixel(x: np.ndarray, name: str) -> None:
    if x.ndim < 3:
        raise RuntimeError(
            f"{name} expects input to have at least 3 dimensions, but got input "
            f"with {x.ndim} dimension(s)"
        )


class PixelShuffle(Op):
    """d pixel_shuffle(a, r) = pixel_unshuffle(g, r)"""

    node_name, saved_attrs = "PixelShuffleBackward0", ("upscale_factor",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, r: int) -> Any:
        x = a._data
        _check_pixel(x, "pixel_shuffle")
        if x.shape[-3] % (r * r):
            raise RuntimeError(
                "pixel_shuffle expects its input's 'channel' dimension to be "
                "divisible by the square of upscale_factor, but input.size(-3)="
                f"{x.shape[-3]} is not divisible by {r * r}"
            )
        ctx.upscale_factor = r
        return pixel_shuffle(x, r)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return pixel_unshuffle(g, ctx.upscale_factor), None


class PixelUnshuffle(Op):
    """d pixel_unshuffle(a, r) = pixel_shuffle(g, r)"""

    node_name, saved_attrs = "PixelUnshuffleBackward0", ("downscale_factor",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, r: int) -> Any:
        x = a._data
        _check_pixel(x, "pixel_unshuffle")
        for side, size in (("height", x.shape[-2]), ("width", x.shape[-1])):
            if size % r:
                dim = -2 if side == "height" else -1
                raise RuntimeError(
                    f"pixel_unshuffle expects {side} to be divisible by "
                    f"downscale_factor, but input.size({dim})={size} is not "
                    f"divisible by {r}"
                )
        ctx.downscale_factor = r
        return pixel_unshuffle(x, r)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return pixel_shuffle(g, ctx.downscale_factor), None


class Rot90(Op):
    """d rot90(a, k, dims) = rot90(g, -k, dims)"""

    node_name, saved_attrs = "Rot90Backward0", ("dims", "k")

    @staticmethod
    def forward(ctx: Ctx, a: Any, k: int, dims: tuple) -> Any:
        x = a._data
        if len(dims) != 2:
            raise RuntimeError(
                f"expected total rotation dims == 2, but got dims = {len(dims)}"
            )
        if x.ndim < 2:
            raise RuntimeError(
                f"expected total dims >= 2, but got total dims = {x.ndim}"
            )
        axes = normalize_dims(dims, x.ndim)
        if axes[0] == axes[1]:
            raise RuntimeError(
                "expected rotation dims to be different, but got dim0 = "
                f"{axes[0]} and dim1 = {axes[1]}"
            )
        ctx.k, ctx.k_arg = f.u64(k), k  # (PyTorch saves -1 as 2**64 - 1)
        ctx.dims, ctx.dim_args = tuple(f.u64(d) for d in dims), dims
        # PyTorch flips and transposes: a copy kept in the input's memory order
        return np.rot90(x, k, axes).copy(order="K")

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        if isinstance(g, np.ndarray):
            axes = normalize_dims(ctx.dim_args, g.ndim)
            return np.rot90(g, -ctx.k_arg, axes), None, None
        return g.rot90(-ctx.k_arg, ctx.dim_args), None, None
