"""Convolution (1-d, 2-d, 3-d; stride, padding, dilation, groups; plain or
transposed) on numpy.

The input's windows are copied once into the im2col matrix (C*K, N*P) (K
kernel positions, P output positions), one kernel offset at a time. The forward pass
is a GEMM per sample reading its P columns in place and writing NCHW; the
weight's gradient one GEMM (per group) on the columns the forward kept; the
input's gradient a GEMM too, its columns added back one kernel offset at a
time (col2im; at stride 1 in flat contiguous runs, the kernel's last axis
summed by the GEMM itself). That input
gradient *is* the transposed convolution, so a transposed convolution swaps the
two: its forward is the input gradient, its input gradient a convolution. Its
gradient is ConvolutionBackward0 and, under create_graph, the fused
ConvolutionBackwardBackward0, whose own gradients are convolutions again.

Classes (and the node each records):

    Convolution          ConvolutionBackward0
    ConvolutionBackward  ConvolutionBackwardBackward0
    _ConvolutionNode     (ConvolutionBackward0's node class: it may keep the
                         forward's columns for the weight's gradient)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _formula as f
from .. import grad_mode
from .._saved_hooks import saved_tensors_hooks_stack
from ..function import BackwardCFunction
from ._common import Ctx, Grad, Op, dtype_name
from ._windows import Geometry, add_windows


def columns(x: np.ndarray, kernel: tuple, geometry: Geometry, out: Any = None):
    """im2col: the (G, C/G * K, N * P) matrix of x's windows (K the kernel's
    positions, P the output's), with the batch inside the columns so that each
    product below is one GEMM per group. Filled one kernel offset at a time
    from x itself: each offset's block is a strided slice of x (rows of the
    output, as long inner runs), and the positions that read the padding are
    zeroed instead of read from a padded copy of x (no np.pad copy: MNIST
    1->8 0.28 ms against 0.39, CIFAR 3->16 0.89 against 0.99). ``out``: the
    output size, when a transposed convolution fixed it."""
    stride, padding, dilation, groups = geometry
    n, c, spatial = x.shape[0], x.shape[1], x.shape[2:]
    if out is None:
        out = tuple(
            (m + 2 * p - d * (k - 1) - 1) // s + 1
            for m, k, s, p, d in zip(spatial, kernel, stride, padding, dilation)
        )
    out = tuple(out)
    cols = np.empty((c,) + tuple(kernel) + (n,) + out, x.dtype)
    xt = x.swapaxes(0, 1)  # (C, N, *spatial), a view
    for offset in np.ndindex(*kernel):
        block = cols[(slice(None),) + offset]  # (C, N, *out), a view
        src, dst = [], []
        for at, s, p, d, m, size in zip(
            offset, stride, padding, dilation, out, spatial
        ):
            first = at * d - p  # the input index output position 0 reads
            lo = min(m, max(0, -(first // s)))  # positions before lo read padding
            hi = max(lo, min(m, (size - 1 - first) // s + 1))  # from hi on too
            src.append(slice(first + lo * s, first + (hi - 1) * s + 1, s))
            dst.append((lo, hi))
        for i, (lo, hi) in enumerate(dst):  # zero what reads the padding
            before = (slice(None),) * (2 + i)
            if lo:  # (only where there is some: 27 offsets of a 3-d kernel)
                block[before + (slice(0, lo),)] = 0
            if hi < block.shape[2 + i]:
                block[before + (slice(hi, None),)] = 0
        if all(hi > lo for lo, hi in dst):
            inner = tuple(slice(lo, hi) for lo, hi in dst)
            block[(slice(None), slice(None)) + inner] = xt[
                (slice(None), slice(None)) + tuple(src)
            ]
    return cols.reshape(groups, -1, n * math.prod(out)), out


def conv_forward(
    x: np.ndarray,
    w: np.ndarray,
    geometry: Geometry,
    out: tuple | None = None,
    keep: Any = None,
    bias: np.ndarray | None = None,
) -> np.ndarray:
    """out[n, o, *p] = Σ_c,k x_padded[n, c, p·stride + k·dilation] w[o, c, k]
    (+ bias[o]): a GEMM (O/G, C/G * K) @ (C/G * K, P) per sample and group,
    each reading its sample's P columns in place (a strided view of the
    columns, which BLAS takes as it is) and writing its (O/G, P) block of the
    NCHW output: no transposed copy of the result (CIFAR 16->32: 3.1 ms
    against 4.9 for one GEMM and the copy). ``out``: the output size, when a
    transposed convolution fixed it; ``keep``: a ctx that keeps the columns
    for the weight's gradient."""
    groups, n, o = geometry[3], x.shape[0], w.shape[0]
    cols, sizes = columns(x, w.shape[2:], geometry, out)
    if keep is not None:
        keep._columns = cols
    wg = w.reshape(groups, o // groups, -1)
    per_sample = cols.reshape(groups, cols.shape[1], n, -1).transpose(2, 0, 1, 3)
    res = np.matmul(wg, per_sample)  # (N, G, O/G, P), contiguous
    if bias is not None:
        res += bias.reshape(1, groups, -1, 1)
    return res.reshape((n, o) + sizes)


def conv_weight_grad(
    g: np.ndarray, x: np.ndarray, kernel: tuple, geometry: Geometry, cols: Any = None
):
    """gW[o, c, k] = Σ_n,p g[n, o, p] x_padded[n, c, p·stride + k·dilation]:
    one GEMM per group, cols (C/G * K, N * P) @ gᵀ (N * P, O/G), transposed
    after (``cols``: the forward's columns of x, when it kept them). The
    columns as the left operand: OpenBLAS runs this order 10-50% faster than
    g @ colsᵀ at lesson sizes (CIFAR 16->32: 2.5 ms against 3.3)."""
    groups = geometry[3]
    n, o = g.shape[:2]
    if cols is None:
        cols, _ = columns(x, kernel, geometry, g.shape[2:])
    gt = g.reshape(n, groups, o // groups, -1).transpose(1, 2, 0, 3)
    gt = gt.reshape(groups, o // groups, -1)  # (G, O/G, N * P): one copy of g
    gw = np.matmul(cols, gt.transpose(0, 2, 1))  # (G, C/G * K, O/G)
    shape = (o, x.shape[1] // groups) + tuple(kernel)
    return np.ascontiguousarray(gw.transpose(0, 2, 1)).reshape(shape)


def conv_input_grad(g: np.ndarray, w: np.ndarray, shape: tuple, geometry: Geometry):
    """gI = the transposed convolution: col2im of wᵀ g, each window's column
    added back where the window read the input (then the padding cut off)."""
    if all(s == 1 for s in geometry[0]):
        return _input_grad_flat(g, w, shape, geometry)
    return _input_grad_windows(g, w, shape, geometry)


def _input_grad_windows(
    g: np.ndarray, w: np.ndarray, shape: tuple, geometry: Geometry
) -> np.ndarray:
    """conv_input_grad at any stride: one strided add per kernel offset."""
    stride, padding, dilation, groups = geometry
    n, o = g.shape[:2]
    out_sp = g.shape[2:]
    wg = w.reshape(groups, o // groups, -1).transpose(0, 2, 1)  # (G, C/G * K, O/G)
    cols = np.matmul(wg, g.reshape(n, groups, o // groups, -1))
    cols = cols.reshape((n, shape[1]) + w.shape[2:] + out_sp)
    padded = np.zeros(
        (n, shape[1]) + tuple(s + 2 * p for s, p in zip(shape[2:], padding)), g.dtype
    )
    add_windows(padded, cols, stride, dilation)
    crop = tuple(slice(p, p + s) for p, s in zip(padding, shape[2:]))
    return np.ascontiguousarray(padded[(slice(None), slice(None)) + crop])


def _input_grad_flat(g: np.ndarray, w: np.ndarray, shape: tuple, geometry: Geometry):
    """conv_input_grad at stride 1, with flat runs. g is laid out on the padded
    input's grid (zeros past each output row), so output position p and kernel
    offset k read padded input element flat(p) + flat(k·dilation). The last
    kernel axis is summed by the GEMM: g is stacked shifted by each of its
    offsets (KW copies, in contiguous runs), so that one product
    (C/G * K', KW * O/G) @ (KW * O/G, run) per sample gives each of the K'
    leading offsets' columns already summed over that axis; these are added
    back as contiguous runs of the flat padded input (K' adds, 3 instead of 9
    for a 3x3 kernel; none to shift for a 1-d one). The zeros add zeros; a few
    past the end land in the slack, cut off with the padding. A few samples at
    a time, so that the stacked g and the columns are still in cache when
    used (CIFAR 16->32: 3.1 ms against 3.7 with all 9 offsets added), g
    stacked straight into one buffer that the chunks share (CIFAR 3->16: 2.5
    ms against 3.0 through a zero-padded copy of g first)."""
    _, padding, dilation, groups = geometry
    n, o, out = g.shape[0], g.shape[1], g.shape[2:]
    c, kernel = shape[1], w.shape[2:]
    grid = tuple(s + 2 * p for s, p in zip(shape[2:], padding))  # padded input
    steps = [math.prod(grid[i + 1 :]) for i in range(len(grid))]
    leading = [  # the flat offsets of the kernel's leading axes
        sum(j * d * m for j, d, m in zip(at, dilation, steps))
        for at in np.ndindex(*kernel[:-1])
    ]
    kw, shift = kernel[-1], dilation[-1]  # the last axis: KW offsets, shift apart
    run = out[0] * steps[0]  # the output's rows, each as wide as the grid's
    span = run + (kw - 1) * shift  # one leading offset's run, over every shift
    og, cg = o // groups, c // groups
    wg = w.reshape((groups, og, cg, len(leading), kw))
    wg = wg.transpose(0, 2, 3, 4, 1).reshape(groups, -1, kw * og)
    g = g.reshape((n, groups, og) + out)
    total = math.prod(grid)
    flat = np.empty((n, c, max(total, leading[-1] + span)), g.dtype)
    per_sample = g.itemsize * span * (kw * o + c * len(leading))
    chunk = min(n, max(1, (1 << 20) // per_sample))  # ~1 MB
    # stacked[:, G, j, o, u] = g_on_grid[:, G, o, u - j·shift], written
    # straight from g into one buffer that every chunk reuses: its zeros (past
    # each output row, and before each shift) are the same for every chunk
    stacked = np.zeros((chunk, groups, kw, og, span), g.dtype)
    inner = (Ellipsis,) + tuple(slice(0, m) for m in out[1:])
    for s in range(0, n, chunk):
        m = min(chunk, n - s)
        part = stacked[:m]
        for j in range(kw):
            # (its reshape splits the unit-stride last axis: a view, never a copy)
            rows = part[:, :, j, :, j * shift : j * shift + run]
            rows.reshape((m, groups, og, out[0]) + grid[1:])[inner] = g[s : s + m]
        cols = np.matmul(wg, part.reshape(m, groups, kw * og, span))
        cols = cols.reshape(m, c, len(leading), span)
        target = flat[s : s + m]
        # the first offset (0) sets, the others add: flat needs no zeros first
        target[:, :, :span] = cols[:, :, 0]
        target[:, :, span:] = 0
        for i, at in enumerate(leading[1:], 1):
            target[:, :, at : at + span] += cols[:, :, i]
    crop = (slice(None), slice(None)) + tuple(
        slice(p, p + s) for p, s in zip(padding, shape[2:])
    )
    return np.ascontiguousarray(flat[:, :, :total].reshape((n, c) + grid)[crop])


def transposed_shape(
    x_shape: tuple, w_shape: tuple, geometry: Geometry, output_padding: tuple
) -> tuple:
    """The output shape of a transposed convolution (the input shape of the
    convolution it transposes)."""
    stride, padding, dilation, groups = geometry
    spatial = tuple(
        (n - 1) * s - 2 * p + d * (k - 1) + op + 1
        for n, s, p, d, k, op in zip(
            x_shape[2:], stride, padding, dilation, w_shape[2:], output_padding
        )
    )
    return (x_shape[0], w_shape[1] * groups) + spatial


def _check(
    x: np.ndarray, w: np.ndarray, b: Any, geometry: Geometry, transposed: Any
) -> None:
    """PyTorch's argument checks, with its words."""
    groups, k = geometry[3], w.ndim - 2
    if x.ndim != k + 2:
        raise RuntimeError(
            f"Expected {k + 1}D (unbatched) or {k + 2}D (batched) input to conv{k}d, "
            f"but got input of size: {list(x.shape)}"
        )
    if x.dtype != w.dtype or (b is not None and b.dtype != x.dtype):
        other = w if x.dtype != w.dtype else b
        raise RuntimeError(
            f"expected scalar type {dtype_name(x)} but found {dtype_name(other)}"
        )
    if w.shape[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at "
            f"dimension 0, but got weight of size [{list(w.shape)}] instead"
        )
    if transposed is not None:
        if x.shape[1] != w.shape[0]:
            raise RuntimeError(
                f"Given transposed=1, weight of size {list(w.shape)}, expected "
                f"input{list(x.shape)} to have {w.shape[0]} channels, but got "
                f"{x.shape[1]} channels instead"
            )
        stride, _, dilation, _ = geometry
        if any(op >= s and op >= d for op, s, d in zip(transposed, stride, dilation)):
            names = ("depth", "height", "width")[3 - k :] if k > 1 else ("width",)
            parts = [
                f"{label}_{n}: {v}"
                for label, values in (
                    ("output_padding", transposed),
                    ("stride", stride),
                    ("dilation", dilation),
                )
                for n, v in zip(names, values)
            ]
            raise RuntimeError(
                "output padding must be smaller than either stride or dilation, but "
                "got " + " ".join(parts)
            )
        out = transposed_shape(x.shape, w.shape, geometry, transposed)[2:]
        if min(out) <= 0:
            raise RuntimeError(
                f"Given input size per channel: {_sizes(x.shape[2:], True)}. "
                f"Calculated output size per channel: {_sizes(out, True)}. Output "
                "size is too small"
            )
        return
    if x.shape[1] != w.shape[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {list(w.shape)}, expected "
            f"input{list(x.shape)} to have {w.shape[1] * groups} channels, but got "
            f"{x.shape[1]} channels instead"
        )
    stride, padding, dilation, _ = geometry
    padded = [n + 2 * p for n, p in zip(x.shape[2:], padding)]
    kernel = [d * (n - 1) + 1 for n, d in zip(w.shape[2:], dilation)]
    if any(n < m for n, m in zip(padded, kernel)):
        raise RuntimeError(
            f"Calculated padded input size per channel: {_sizes(padded)}. Kernel "
            f"size: {_sizes(kernel)}. Kernel size can't be greater than actual input "
            "size"
        )


def _sizes(sizes: Any, as_2d: bool = False) -> str:
    """``(2 x 2)``, as PyTorch writes sizes; its transposed 1-d convolution runs as
    a 2-d one of height 1, and says so."""
    sizes = ([1] if as_2d and len(sizes) == 1 else []) + list(sizes)
    return "(" + " x ".join(str(n) for n in sizes) + ")"


class _ConvolutionNode(BackwardCFunction):
    """ConvolutionBackward0's node: it may also hold the forward's im2col
    columns (``_columns``), freed with the saved tensors."""

    _columns: Any = None

    def release_variables(self) -> None:
        self._columns = None
        super().release_variables()


class Convolution(Op):
    """d conv(x, w) + b = (conv_transpose(g, w), corr(x, g), Σ g); for a
    transposed convolution (``transposed``: its output_padding) the first two
    swap roles: (conv(g, w), corr(g, x))"""

    node_name, node_base = "ConvolutionBackward0", _ConvolutionNode
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
    def forward(
        ctx: Ctx, x: Any, w: Any, b: Any, geometry: Geometry, transposed: Any = None
    ) -> Any:
        xd, wd = x._data, w._data
        bd = None if b is None else b._data
        _check(xd, wd, bd, geometry, transposed)
        _keep_geometry(ctx, geometry, transposed)
        ctx.bias_sym_sizes_opt = (0,) if b is None else bd.shape
        ctx.save_for_backward(x, w)
        ctx.input_shape = xd.shape
        ctx.kernel = wd.shape[2:]
        if transposed is None and _keeps_columns(ctx):
            return conv_forward(xd, wd, geometry, keep=ctx, bias=bd)
        return convolution(xd, wd, bd, geometry, transposed)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        x, w = ctx.saved_tensors
        needs = ctx.needs_input_grad[:3]
        grads = convolution_backward(
            g,
            x,
            w,
            ctx.input_shape,
            ctx.kernel,
            ctx.geometry,
            needs,
            ctx.transpose,
            ctx._columns,
        )
        return (*grads, None, None)


def _keeps_columns(ctx: Ctx) -> bool:
    """Whether the forward keeps x's columns for the weight's gradient (one
    im2col copy fewer in backward): only when the node is recorded and the
    weight needs a gradient, and not under saved-tensor hooks, which decide
    themselves what a node holds (e.g. checkpointing). The columns are a copy
    made from x: an in-place change of x after forward is still refused by
    the saved input's version check before backward reads them."""
    return (
        ctx.needs_input_grad[1]
        and grad_mode.state.enabled
        and not saved_tensors_hooks_stack
    )


def _keep_geometry(ctx: Ctx, geometry: Geometry, transposed: Any) -> None:
    """The convolution's settings, as PyTorch's nodes show them (``_saved_*``)."""
    ctx.stride, ctx.padding, ctx.dilation, ctx.groups = geometry
    ctx.transposed = transposed is not None
    ctx.output_padding = transposed or (0,) * len(geometry[0])
    ctx.geometry, ctx.transpose = geometry, transposed


def convolution_backward(
    g: Any,
    x: Any,
    w: Any,
    shape: tuple,
    kernel: tuple,
    geometry: Geometry,
    needs: tuple,
    transposed: Any = None,
    cols: Any = None,
) -> tuple:
    """The gradients (input, weight, bias) of a convolution; on Tensors one node
    with three outputs, ConvolutionBackwardBackward0 (PyTorch's fused kernel).
    ``cols``: the forward's columns of x, when it kept them."""
    if not isinstance(g, f.ndarray):
        return ConvolutionBackward.apply(
            g, x, w, shape, kernel, geometry, needs, transposed
        )
    gx = gw = gb = None
    if transposed is None:
        if needs[0]:
            gx = conv_input_grad(g, w, shape, geometry)
        if needs[1]:
            gw = conv_weight_grad(g, x, kernel, geometry, cols)
    else:  # the input's gradient is a convolution, the weight's one with roles swapped
        if needs[0]:
            gx = conv_forward(g, w, geometry, out=shape[2:])
        if needs[1]:
            gw = conv_weight_grad(x, g, kernel, geometry)
    if needs[2]:
        gb = g.sum(axis=(0,) + tuple(range(2, g.ndim)))
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
        ctx: Ctx,
        g: Any,
        x: Any,
        w: Any,
        shape: tuple,
        kernel: tuple,
        geometry: Geometry,
        needs: tuple,
        transposed: Any,
    ) -> tuple:
        _keep_geometry(ctx, geometry, transposed)
        ctx.shape, ctx.kernel = shape, kernel
        ctx.save_for_backward(g, x, w)
        ctx.set_materialize_grads(False)
        xd = None if x is None else x._data
        wd = None if w is None else w._data
        return convolution_backward(
            g._data, xd, wd, shape, kernel, geometry, needs, transposed
        )

    @staticmethod
    def backward(ctx: Ctx, ggx: Grad, ggw: Any, ggb: Any) -> tuple:
        g, x, w = ctx.saved_tensors
        need_g, need_x, need_w = ctx.needs_input_grad[:3]
        geometry, spatial, tr = ctx.geometry, len(ctx.kernel), ctx.transpose
        d_g = d_x = d_w = None
        if need_g:
            parts = []
            if ggx is not None:
                parts.append(convolution(ggx, w, None, geometry, tr))
            if ggw is not None:
                parts.append(convolution(x, ggw, None, geometry, tr))
            if ggb is not None:
                parts.append(f.reshape(ggb, (1, -1) + (1,) * spatial) + f.zeros_like(g))
            d_g = parts[0] if len(parts) == 1 else sum(parts[1:], parts[0])
        if need_x and ggw is not None:
            d_x = convolution_backward(
                g, None, ggw, ctx.shape, ctx.kernel, geometry, (True, False, False), tr
            )[0]
        if need_w and ggx is not None:
            d_w = convolution_backward(
                g, ggx, None, ctx.shape, ctx.kernel, geometry, (False, True, False), tr
            )[1]
        return d_g, d_x, d_w, None, None, None, None, None


def convolution(
    x: Any, w: Any, b: Any, geometry: Geometry, transposed: Any = None
) -> Any:
    """A convolution of arrays or Tensors (the forward, for formulas);
    ``transposed``: the output_padding of a transposed convolution."""
    if not isinstance(x, f.ndarray):
        return Convolution.apply(x, w, b, geometry, transposed)
    if transposed is None:
        return conv_forward(x, w, geometry, bias=b)
    shape = transposed_shape(x.shape, w.shape, geometry, transposed)
    out = conv_input_grad(x, w, shape, geometry)
    if b is not None:  # (into the fresh output: no second array)
        out += b.reshape((1, -1) + (1,) * (w.ndim - 2))
    return out
