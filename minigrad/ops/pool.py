"""2-d max and average pooling (plain and adaptive) over the windows
``_windows.windows`` gives.

Max pooling keeps, per window, the input position of its maximum (PyTorch's
``indices``): its gradient goes back there. Average pooling spreads each
gradient evenly over its window. Under create_graph both have PyTorch's fused
nodes, whose own gradients pick (max) or pool (average) the upstream gradient.

Classes (and the node each records):

    MaxPool2d                MaxPool2DWithIndicesBackward0
    MaxPoolBackward          MaxPool2DWithIndicesBackwardBackward0
    AvgPool2d                AvgPool2DBackward0
    AvgPoolBackward          AvgPool2DBackwardBackward0
    AdaptiveMaxPool2d        AdaptiveMaxPool2DBackward0
    AdaptiveMaxPoolBackward  AdaptiveMaxPool2DBackwardBackward0
    AdaptiveAvgPool2d        AdaptiveAvgPool2DBackward0
    AdaptiveAvgPoolBackward  AdaptiveAvgPool2DBackwardBackward0
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _formula as f
from ._common import Ctx, Grad, Op, constant
from ._windows import add_windows, windows

Pool = tuple[tuple[int, int], tuple[int, int], tuple[int, int], tuple[int, int], bool]


def output_size(n: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    """PyTorch's pooling output size; with ceil_mode a last, partial window is
    kept only if it starts inside the input or its left padding."""
    span = n + 2 * p - d * (k - 1) - 1
    out = (span + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    return out


def _check(x: np.ndarray, pool: Pool) -> None:
    """PyTorch's checks, with its words: the padding against the dilated
    kernel's half, height first, then against the kernel's; the output size."""
    kernel, _, padding, dilation, _ = pool
    if x.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    for p, k, d in zip(padding, kernel, dilation):
        if p > ((k - 1) * d + 1) // 2:
            raise RuntimeError(
                "pad should be at most half of effective kernel size, but got "
                f"pad={p}, kernel_size={k} and dilation={d}"
            )
    if any(p > k // 2 for p, k in zip(padding, kernel)):
        raise RuntimeError(
            "pad should be smaller than or equal to half of kernel size, but got "
            f"padW = {padding[1]}, padH = {padding[0]}, kW = {kernel[1]}, "
            f"kH = {kernel[0]}"
        )
    out = _sizes(x.reshape((-1,) + x.shape[-3:]), pool)
    if min(out) < 1:
        sizes = "x".join(map(str, x.shape[-3:]))
        raise RuntimeError(
            f"Given input size: ({sizes}). Calculated output size: "
            f"({x.shape[-3]}x{out[0]}x{out[1]}). Output size is too small"
        )


def _sizes(x: np.ndarray, pool: Pool) -> tuple:
    kernel, stride, padding, dilation, ceil_mode = pool
    return tuple(
        output_size(n, k, s, p, d, ceil_mode)
        for n, k, s, p, d in zip(x.shape[2:], kernel, stride, padding, dilation)
    )


class MaxPool2d(Op):
    """d max_pool2d(a) = g added at each window's maximum"""

    node_name = "MaxPool2DWithIndicesBackward0"
    saved = ("self", "result1")
    saved_attrs = ("ceil_mode", "dilation", "kernel_size", "padding", "stride")

    @staticmethod
    def forward(ctx: Ctx, a: Any, pool: Pool, stride_arg: tuple) -> tuple:
        kernel, stride, padding, dilation, ceil_mode = pool
        x = a._data
        _check(x, pool)
        ctx.kernel_size, ctx.stride, ctx.padding = kernel, stride_arg, padding
        ctx.dilation, ctx.ceil_mode, ctx.pool = dilation, ceil_mode, pool
        values, idx = max_pool_values(x.reshape((-1,) + x.shape[-3:]), pool)
        shape = x.shape[:-2] + idx.shape[-2:]
        indices = constant(idx.reshape(shape))
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(a, indices)
        return values.reshape(shape), indices

    @staticmethod
    def backward(ctx: Ctx, g: Grad, _: Any) -> tuple:
        x, indices = ctx.saved_tensors
        return max_pool_backward(g, x, indices), None, None


def max_pool_values(x: np.ndarray, pool: Pool) -> tuple[np.ndarray, np.ndarray]:
    """The (N, C, OH, OW) maxima of the windows of x and their positions in
    each (unpadded) input plane, row-major, chosen as PyTorch's kernel scans a
    window: the first of equal maxima, the last NaN (a NaN is the maximum), and
    for a window of -inf its first element inside the input.

    A few passes per kernel offset over the (N, C, OH, OW) slice at that offset
    (the running maximum, then the first offset equal to it), no copy of the
    windows."""
    kernel, stride, padding, dilation, _ = pool
    out = _sizes(x, pool)
    win = windows(x, kernel, (stride, padding, dilation, 1), -np.inf, out)
    slices = [win[(Ellipsis, *k)] for k in np.ndindex(*kernel)]  # views
    best = slices[0].copy()
    for s in slices[1:]:
        # numpy's maximum returns its second argument of two equal ones (0.0
        # and -0.0): ``best``, the earlier, as PyTorch's strict ``>`` keeps
        np.maximum(s, best, out=best)
    # which offset holds the maximum: the first equal to it (bool and uint8
    # arithmetic: np.copyto(..., where=) is several times slower)
    which = np.zeros(best.shape, np.uint8 if len(slices) < 256 else np.int64)
    pending = slices[0] != best
    hit = np.empty(best.shape, bool)
    for n, s in enumerate(slices[1:], 1):
        np.equal(s, best, out=hit)
        hit &= pending
        pending ^= hit
        which += hit * which.dtype.type(n)
    if np.isnan(best).any():  # NaN equals nothing: the last NaN, as PyTorch keeps
        for n, s in enumerate(slices):
            np.copyto(which, n, where=np.isnan(s))
    # from (output position, offset) to the position in the input plane
    width = x.shape[-1]
    rows = np.arange(out[0])[:, None] * stride[0] - padding[0]
    cols = np.arange(out[1])[None, :] * stride[1] - padding[1]
    shift = np.array(
        [i * dilation[0] * width + j * dilation[1] for i, j in np.ndindex(*kernel)]
    )
    idx = np.take(shift, which) + (rows * width + cols)
    if any(padding) and np.isneginf(best).any():
        # a window of -inf: its first element in the input, not padding's -inf
        first_row = rows - (np.minimum(rows, 0) // dilation[0]) * dilation[0]
        first_col = cols - (np.minimum(cols, 0) // dilation[1]) * dilation[1]
        np.copyto(idx, first_row * width + first_col, where=np.isneginf(best))
    return best, idx


def max_pool_backward(g: Any, x: Any, indices: Any, node: Any = None) -> Any:
    """``g`` added into zeros like x at ``indices``; on Tensors one node,
    MaxPool2DWithIndicesBackwardBackward0 (PyTorch's fused kernel; ``node``:
    adaptive pooling's)."""
    if not isinstance(g, f.ndarray):
        return (node or MaxPoolBackward).apply(g, x, (indices,))
    shape = tuple(f.data(x).shape)
    idx = f.data(indices)
    planes, size = math.prod(shape[:-2]), shape[-2] * shape[-1]
    out = np.zeros(planes * size, g.dtype)
    # each plane's indices moved to that plane's place in the flat gradient;
    # add.at adds repeated ones in output order, as PyTorch does (bit for bit)
    flat = idx.reshape(planes, -1) + (np.arange(planes) * size)[:, None]
    np.add.at(out, flat.reshape(-1), g.reshape(-1))
    return out.reshape(shape)


class MaxPoolBackward(Op):
    """d max_pool2d_backward(g) = gg at each window's maximum (none for x)"""

    node_name, saved = "MaxPool2DWithIndicesBackwardBackward0", ("indices",)

    @staticmethod
    def forward(ctx: Ctx, g: Any, x: Any, consts: tuple) -> Any:
        (indices,) = consts
        ctx.save_for_backward(indices)
        ctx.x_shape = x._data.shape
        return max_pool_backward(g._data, x._data, indices._data)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        (indices,) = ctx.saved_tensors
        idx = f.data(indices)
        planes = math.prod(ctx.x_shape[:-2])
        flat = f.reshape(gg, (planes, -1))
        key = along_rows(idx.reshape(planes, -1))
        picked = f.gather(flat, 1, f.reshape(indices, (planes, -1)), key)
        return f.reshape(picked, idx.shape), f.zeros(ctx.x_shape, gg), None


def along_rows(idx: np.ndarray) -> tuple:
    """The advanced-indexing key of ``gather(1, idx)`` on a 2-d array."""
    return (np.arange(idx.shape[0])[:, None], idx)


class AvgPool2d(Op):
    """d avg_pool2d(a) = g / divisor spread over each window"""

    node_name, saved = "AvgPool2DBackward0", ("self",)
    saved_attrs = (
        "ceil_mode",
        "count_include_pad",
        "divisor_override",
        "kernel_size",
        "padding",
        "stride",
    )

    @staticmethod
    def forward(
        ctx: Ctx, a: Any, pool: Pool, stride_arg: tuple, include_pad: bool, div: Any
    ) -> Any:
        x = a._data
        _check(x, pool)
        _keep_avg(ctx, pool, stride_arg, include_pad, div)
        ctx.save_for_backward(a)
        return avg_pool_values(x, pool, include_pad, div)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (x,) = ctx.saved_tensors
        return avg_pool_backward(g, x, *ctx.args), None, None, None, None


def _keep_avg(
    ctx: Ctx, pool: Pool, stride_arg: tuple, include_pad: bool, div: Any
) -> None:
    """Average pooling's settings, as PyTorch's nodes show them (``_saved_*``)."""
    kernel, _, padding, _, ceil_mode = pool
    ctx.kernel_size, ctx.stride, ctx.padding = kernel, stride_arg, padding
    ctx.ceil_mode, ctx.count_include_pad = ceil_mode, include_pad
    ctx.divisor_override = div
    ctx.pool, ctx.args = pool, (pool, stride_arg, include_pad, div)


def avg_pool_values(x: np.ndarray, pool: Pool, include_pad: bool, div: Any) -> Any:
    kernel, stride, padding, _, _ = pool
    batch = x.reshape((-1,) + x.shape[-3:])
    out = _sizes(batch, pool)
    win = windows(batch, kernel, (stride, padding, (1, 1), 1), 0.0, out)
    total = win.sum(axis=(-2, -1))
    divisor = _divisors(x.shape, pool, include_pad, div)
    return (total / divisor).reshape(x.shape[:-2] + out).astype(x.dtype)


def _divisors(shape: tuple, pool: Pool, include_pad: bool, div: Any) -> Any:
    """Each window's divisor: the override, the kernel's area, or (without
    count_include_pad) the number of input elements the window covers."""
    kernel, stride, padding, _, ceil_mode = pool
    if div:
        return div
    out = _sizes(np.empty((1, 1) + shape[-2:]), pool)
    counts = []
    for n, k, s, p, o in zip(shape[-2:], kernel, stride, padding, out):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, n + p)  # a window ends at the padding's edge
        if include_pad:
            counts.append(end - start)
        else:
            counts.append(np.minimum(end, n) - np.maximum(start, 0))
    return counts[0][:, None] * counts[1][None, :]


def avg_pool_backward(
    g: Any, x: Any, pool: Pool, stride_arg: tuple, include_pad: bool, div: Any
) -> Any:
    """Each window's ``g / divisor`` added over the window (``x``: the pooled
    input); on Tensors one node, AvgPool2DBackwardBackward0."""
    if not isinstance(g, f.ndarray):
        return AvgPoolBackward.apply(g, x, pool, stride_arg, include_pad, div)
    shape = tuple(f.data(x).shape)
    kernel, stride, padding, _, _ = pool
    share = g / _divisors(shape, pool, include_pad, div)
    planes = share.reshape((-1,) + share.shape[-2:])
    oh, ow = planes.shape[-2:]
    height = max(shape[-2] + 2 * padding[0], (oh - 1) * stride[0] + kernel[0])
    width = max(shape[-1] + 2 * padding[1], (ow - 1) * stride[1] + kernel[1])
    padded = np.zeros((planes.shape[0], height, width), g.dtype)
    every_offset = np.broadcast_to(
        planes[:, None, None], planes.shape[:1] + kernel + (oh, ow)
    )
    add_windows(padded, every_offset, stride, (1, 1))
    h, w = shape[-2:]
    crop = padded[:, padding[0] : padding[0] + h, padding[1] : padding[1] + w]
    return np.ascontiguousarray(crop).reshape(shape).astype(g.dtype, copy=False)


class AvgPoolBackward(Op):
    """d avg_pool2d_backward(g) = avg_pool2d(gg) (none for x)"""

    node_name = "AvgPool2DBackwardBackward0"
    saved_attrs = (
        "ceil_mode",
        "count_include_pad",
        "divisor_override",
        "kernel_size",
        "padding",
        "stride",
    )

    @staticmethod
    def forward(
        ctx: Ctx,
        g: Any,
        x: Any,
        pool: Pool,
        stride_arg: tuple,
        include_pad: bool,
        div: Any,
    ) -> Any:
        _keep_avg(ctx, pool, stride_arg, include_pad, div)
        ctx.x_shape = x._data.shape
        return avg_pool_backward(g._data, x._data, pool, stride_arg, include_pad, div)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        pooled = avg_pool(gg, *ctx.args)
        return pooled, f.zeros(ctx.x_shape, gg), None, None, None, None


def avg_pool(x: Any, pool: Pool, stride_arg: tuple, include_pad: bool, div: Any) -> Any:
    """avg_pool2d of an array or a Tensor (for formulas)."""
    if isinstance(x, f.ndarray):
        return avg_pool_values(x, pool, include_pad, div)
    return AvgPool2d.apply(x, pool, stride_arg, include_pad, div)


# ------------------------------------------------------------- adaptive pool
def _bins(n: int, out: int) -> list[tuple[int, int]]:
    """The input range of each of ``out`` adaptive windows over ``n`` elements:
    [floor(i n / out), ceil((i + 1) n / out))."""
    return [(i * n // out, -(-(i + 1) * n // out)) for i in range(out)]


def _check_adaptive(name: str, x: np.ndarray) -> None:
    if x.ndim not in (3, 4):
        colon = ":" if "max" in name else ""  # (sic: PyTorch's two messages)
        raise RuntimeError(
            f"{name}(): Expected 3D or 4D tensor, but got{colon} {list(x.shape)}"
        )


class AdaptiveMaxPool2d(Op):
    """d adaptive_max_pool2d(a) = g added at each window's maximum"""

    node_name = "AdaptiveMaxPool2DBackward0"
    saved = ("self", "result1")

    @staticmethod
    def forward(ctx: Ctx, a: Any, out: tuple) -> tuple:
        x = a._data
        _check_adaptive("adaptive_max_pool2d", x)
        values = np.empty(x.shape[:-2] + out, x.dtype)
        idx = np.empty(x.shape[:-2] + out, np.int64)
        width = x.shape[-1]
        for i, (r0, r1) in enumerate(_bins(x.shape[-2], out[0])):
            for j, (c0, c1) in enumerate(_bins(width, out[1])):
                window = x[..., r0:r1, c0:c1].reshape(x.shape[:-2] + (-1,))
                pos = window.argmax(axis=-1)  # the first maximum (or NaN)
                values[..., i, j] = np.take_along_axis(window, pos[..., None], -1)[
                    ..., 0
                ]
                row, col = np.divmod(pos, c1 - c0)
                idx[..., i, j] = (r0 + row) * width + c0 + col
        indices = constant(idx)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(a, indices)
        return values, indices

    @staticmethod
    def backward(ctx: Ctx, g: Grad, _: Any) -> tuple:
        x, indices = ctx.saved_tensors
        return max_pool_backward(g, x, indices, AdaptiveMaxPoolBackward), None


class AdaptiveMaxPoolBackward(MaxPoolBackward):
    """d adaptive_max_pool2d_backward(g) = gg at each window's maximum"""

    node_name, saved = "AdaptiveMaxPool2DBackwardBackward0", ("indices",)


def adaptive_avg_values(x: np.ndarray, out: tuple) -> np.ndarray:
    rows, cols = _bins(x.shape[-2], out[0]), _bins(x.shape[-1], out[1])
    result = np.empty(x.shape[:-2] + out, x.dtype)
    for i, (r0, r1) in enumerate(rows):
        for j, (c0, c1) in enumerate(cols):
            result[..., i, j] = x[..., r0:r1, c0:c1].mean(axis=(-2, -1))
    return result


class AdaptiveAvgPool2d(Op):
    """d adaptive_avg_pool2d(a) = each output's g shared evenly over its window"""

    node_name, saved = "AdaptiveAvgPool2DBackward0", ("self",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, out: tuple) -> Any:
        x = a._data
        _check_adaptive("adaptive_avg_pool2d", x)
        ctx.save_for_backward(a)
        return adaptive_avg_values(x, out)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (x,) = ctx.saved_tensors
        return adaptive_avg_backward(g, x), None


def adaptive_avg_backward(g: Any, x: Any) -> Any:
    """On Tensors one node, AdaptiveAvgPool2DBackwardBackward0."""
    if not isinstance(g, f.ndarray):
        return AdaptiveAvgPoolBackward.apply(g, x)
    shape = tuple(f.data(x).shape)
    rows, cols = _bins(shape[-2], g.shape[-2]), _bins(shape[-1], g.shape[-1])
    out = np.zeros(shape, g.dtype)
    for i, (r0, r1) in enumerate(rows):
        for j, (c0, c1) in enumerate(cols):
            share = g[..., i, j] / ((r1 - r0) * (c1 - c0))
            out[..., r0:r1, c0:c1] += share[..., None, None]
    return out


class AdaptiveAvgPoolBackward(Op):
    """d adaptive_avg_pool2d_backward(g) = adaptive_avg_pool2d(gg) (none for x)"""

    node_name = "AdaptiveAvgPool2DBackwardBackward0"
    saved_attrs = (
        "grad_output_sym_argsize_minus_1",
        "grad_output_sym_argsize_minus_2",
    )

    @staticmethod
    def forward(ctx: Ctx, g: Any, x: Any) -> Any:
        ctx.out, ctx.x_shape = g._data.shape[-2:], x._data.shape
        ctx.grad_output_sym_argsize_minus_2, ctx.grad_output_sym_argsize_minus_1 = (
            ctx.out
        )
        return adaptive_avg_backward(g._data, x._data)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        if isinstance(gg, f.ndarray):
            pooled = adaptive_avg_values(gg, ctx.out)
        else:
            pooled = AdaptiveAvgPool2d.apply(gg, ctx.out)
        return pooled, f.zeros(ctx.x_shape, gg)
