"""Padding (``F.pad``): a constant border, and the reflect and replicate modes,
each one node as in PyTorch. A padded tensor's gradient is the padded
positions' gradients summed back onto the input positions they copy; under
create_graph that sum is a node of its own (ReflectionPad2DBackwardBackward0),
whose gradient is the padding again. Circular padding is no node: PyTorch
copies slices into a new tensor (nn.functional.pad builds it from those ops).

Classes (and the node each records):

    ConstantPadNd             ConstantPadNdBackward0
    IndexPad                  (base: a pad that copies input positions, by an index map)
    IndexPadBackward          (base: its gradient, linear in g)
    ReflectionPad1d           ReflectionPad1DBackward0
    ReflectionPad1dBackward   ReflectionPad1DBackwardBackward0
    ReflectionPad2d           ReflectionPad2DBackward0
    ReflectionPad2dBackward   ReflectionPad2DBackwardBackward0
    ReflectionPad3d           ReflectionPad3DBackward0
    ReflectionPad3dBackward   ReflectionPad3DBackwardBackward0
    ReplicationPad1d          ReplicationPad1DBackward0
    ReplicationPad1dBackward  ReplicationPad1DBackwardBackward0
    ReplicationPad2d          ReplicationPad2DBackward0
    ReplicationPad2dBackward  ReplicationPad2DBackwardBackward0
    ReplicationPad3d          ReplicationPad3DBackward0
    ReplicationPad3dBackward  ReplicationPad3DBackwardBackward0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from ._common import Ctx, Grad, Op


def _pairs(pad: tuple, ndim: int) -> list[tuple[int, int, int]]:
    """(dim, before, after) for each padded dim: the pad's first pair is the
    last dim's, as in PyTorch."""
    return [(ndim - 1 - i, pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]


def constant_pad(x: Any, pad: tuple, value: Any) -> Any:
    """``x`` with ``value`` around it (a negative pad crops); on Tensors one
    node, ConstantPadNdBackward0."""
    if not isinstance(x, f.ndarray):
        return ConstantPadNd.apply(x, pad, value)
    crop = [slice(None)] * x.ndim
    widths = [(0, 0)] * x.ndim
    for dim, lo, hi in _pairs(pad, x.ndim):
        n = x.shape[dim]
        if n - max(-lo, 0) - max(-hi, 0) < 0:  # (PyTorch crops with narrow)
            raise RuntimeError("narrow(): length must be non-negative.")
        crop[dim] = slice(max(-lo, 0), n - max(-hi, 0))
        widths[dim] = (max(lo, 0), max(hi, 0))
    return np.pad(x[tuple(crop)], widths, constant_values=value)


class ConstantPadNd(Op):
    """d constant_pad_nd(a, pad) = constant_pad_nd(g, -pad)   (the border cut off)"""

    node_name, saved_attrs = "ConstantPadNdBackward0", ("pad",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, pad: tuple, value: Any) -> Any:
        ctx.crop = tuple(-p for p in pad)
        ctx.pad = tuple(f.u64(p) for p in pad)  # PyTorch shows -1 as 2**64 - 1
        return constant_pad(a._data, pad, value)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return constant_pad(g, ctx.crop, 0), None, None


def reflect_index(p: np.ndarray, n: int) -> np.ndarray:
    """The input position each output position copies, reflecting at the ends
    (the edge itself is not repeated)."""
    p = np.abs(p)
    return np.where(p > n - 1, 2 * (n - 1) - p, p)


def replicate_index(p: np.ndarray, n: int) -> np.ndarray:
    """The input position each output position copies: the nearest edge."""
    return np.clip(p, 0, n - 1)


def _maps(shape: tuple, padding: tuple, index: Any) -> list:
    """(dim, index map) for each padded dim of an input of ``shape``."""
    out = []
    for dim, lo, hi in _pairs(padding, len(shape)):
        n = shape[dim]
        out.append((dim, index(np.arange(-lo, n + hi), n)))
    return out


def index_pad(x: Any, padding: tuple, cls: Any) -> Any:
    """``x`` padded by ``cls``'s index map; on Tensors one node of ``cls``."""
    if not isinstance(x, f.ndarray):
        return cls.apply(x, padding)
    for dim, idx in _maps(x.shape, padding, cls.index):
        x = np.take(x, idx, axis=dim)
    return np.ascontiguousarray(x)


def index_pad_backward(g: Any, x: Any, padding: tuple, cls: Any) -> Any:
    """The gradient of ``index_pad``: each output's gradient added onto the
    input position it copied. On Tensors one node, ``cls``'s backward node."""
    if not isinstance(g, f.ndarray):
        return cls.backward_cls.apply(g, x, padding)
    for dim, idx in reversed(_maps(x.shape, padding, cls.index)):
        moved = np.moveaxis(g, dim, 0)
        out = np.zeros((x.shape[dim], *moved.shape[1:]), g.dtype)
        np.add.at(out, idx, moved)
        g = np.moveaxis(out, 0, dim)
    return np.ascontiguousarray(g)


class IndexPad(Op):
    """d pad(a) = the padded gradient summed back onto the positions it copied"""

    _abstract = True
    index: Any  # (positions, size) -> the input position each copies
    backward_cls: Any

    @staticmethod
    def forward(ctx: Ctx, a: Any, padding: tuple) -> Any:
        ctx.pads, ctx.padding = padding, tuple(f.u64(p) for p in padding)
        ctx.save_for_backward(a)
        return index_pad(a._data, padding, ctx._forward_cls)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (x,) = ctx.saved_tensors
        return index_pad_backward(g, x, ctx.pads, ctx._forward_cls), None


class IndexPadBackward(Op):
    """d pad_backward(g, x) = (pad(gg), 0)   (linear in g; x gives only a shape)"""

    _abstract = True
    forward_cls: Any

    @staticmethod
    def forward(ctx: Ctx, g: Any, x: Any, padding: tuple) -> Any:
        ctx.pads, ctx.padding = padding, tuple(f.u64(p) for p in padding)
        ctx.shape = tuple(x.shape)
        pad_cls = ctx._forward_cls.forward_cls
        return index_pad_backward(g._data, x._data, padding, pad_cls)

    @staticmethod
    def backward(ctx: Ctx, gg: Grad) -> tuple:
        need_g, need_x = ctx.needs_input_grad[:2]
        pad_cls = ctx._forward_cls.forward_cls
        return (
            index_pad(gg, ctx.pads, pad_cls) if need_g else None,
            f.zeros(ctx.shape, gg) if need_x else None,
            None,
        )


class ReflectionPad1d(IndexPad):
    """d reflection_pad1d(a) = g summed back onto the positions it copies"""

    node_name, saved = "ReflectionPad1DBackward0", ("self",)
    saved_attrs, index = ("padding",), staticmethod(reflect_index)


class ReflectionPad1dBackward(IndexPadBackward):
    """d reflection_pad1d_backward(g, x) = (reflection_pad1d(gg), 0)"""

    node_name = "ReflectionPad1DBackwardBackward0"
    saved_attrs, forward_cls = ("padding",), ReflectionPad1d


ReflectionPad1d.backward_cls = ReflectionPad1dBackward


class ReflectionPad2d(IndexPad):
    """d reflection_pad2d(a) = g summed back onto the positions it copies"""

    node_name, saved = "ReflectionPad2DBackward0", ("self",)
    saved_attrs, index = ("padding",), staticmethod(reflect_index)


class ReflectionPad2dBackward(IndexPadBackward):
    """d reflection_pad2d_backward(g, x) = (reflection_pad2d(gg), 0)"""

    node_name = "ReflectionPad2DBackwardBackward0"
    saved_attrs, forward_cls = ("padding",), ReflectionPad2d


ReflectionPad2d.backward_cls = ReflectionPad2dBackward


class ReflectionPad3d(IndexPad):
    """d reflection_pad3d(a) = g summed back onto the positions it copies"""

    node_name, saved = "ReflectionPad3DBackward0", ("self",)
    saved_attrs, index = ("padding",), staticmethod(reflect_index)


class ReflectionPad3dBackward(IndexPadBackward):
    """d reflection_pad3d_backward(g, x) = (reflection_pad3d(gg), 0)"""

    node_name = "ReflectionPad3DBackwardBackward0"
    saved_attrs, forward_cls = ("padding",), ReflectionPad3d


ReflectionPad3d.backward_cls = ReflectionPad3dBackward


class ReplicationPad1d(IndexPad):
    """d replication_pad1d(a) = g summed back onto the positions it copies"""

    node_name, saved = "ReplicationPad1DBackward0", ("self",)
    saved_attrs, index = ("padding",), staticmethod(replicate_index)


class ReplicationPad1dBackward(IndexPadBackward):
    """d replication_pad1d_backward(g, x) = (replication_pad1d(gg), 0)"""

    node_name = "ReplicationPad1DBackwardBackward0"
    saved_attrs, forward_cls = ("padding",), ReplicationPad1d


ReplicationPad1d.backward_cls = ReplicationPad1dBackward


class ReplicationPad2d(IndexPad):
    """d replication_pad2d(a) = g summed back onto the positions it copies"""

    node_name, saved = "ReplicationPad2DBackward0", ("self",)
    saved_attrs, index = ("padding",), staticmethod(replicate_index)


class ReplicationPad2dBackward(IndexPadBackward):
    """d replication_pad2d_backward(g, x) = (replication_pad2d(gg), 0)"""

    node_name = "ReplicationPad2DBackwardBackward0"
    saved_attrs, forward_cls = ("padding",), ReplicationPad2d


ReplicationPad2d.backward_cls = ReplicationPad2dBackward


class ReplicationPad3d(IndexPad):
    """d replication_pad3d(a) = g summed back onto the positions it copies"""

    node_name, saved = "ReplicationPad3DBackward0", ("self",)
    saved_attrs, index = ("padding",), staticmethod(replicate_index)


class ReplicationPad3dBackward(IndexPadBackward):
    """d replication_pad3d_backward(g, x) = (replication_pad3d(gg), 0)"""

    node_name = "ReplicationPad3DBackwardBackward0"
    saved_attrs, forward_cls = ("padding",), ReplicationPad3d


ReplicationPad3d.backward_cls = ReplicationPad3dBackward


REFLECTION = {1: ReflectionPad1d, 2: ReflectionPad2d, 3: ReflectionPad3d}
REPLICATION = {1: ReplicationPad1d, 2: ReplicationPad2d, 3: ReplicationPad3d}
