"""Joining and splitting: cat and stack, split (equal sizes or given sizes),
chunk and unbind. The outputs of split and unbind are views of their input.

Classes (and the node each records):

    Cat             CatBackward0
    Stack           StackBackward0
    Split           SplitBackward0
    UnsafeSplit     UnsafeSplitBackward0
    SplitWithSizes  SplitWithSizesBackward0
    Unbind          UnbindBackward0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from .. import node
from .._dtype import result_type
from ..node import register
from ._common import Ctx, Grad, Op
from ._dims import normalize_dims


# ------------------------------------------------------------------ join, repeat
class Cat(Op):
    """d cat(tensors, dim) = g cut back into the pieces along dim"""

    node_name, saved_attrs = "CatBackward0", ("dim",)

    @staticmethod
    def forward(ctx: Ctx, *args: Any) -> Any:
        *tensors, dim = args
        xs = [t._data for t in tensors]
        for i, x in enumerate(xs):
            if x.ndim == 0:
                raise RuntimeError(
                    f"zero-dimensional tensor (at position {i}) cannot be concatenated"
                )
        # PyTorch skips the legacy empty tensor (shape [0]) whatever the others'
        # shapes: it takes no part in the dim check or the size checks
        kept = [i for i, x in enumerate(xs) if x.shape != (0,)] or [0]
        (d,) = normalize_dims(dim, xs[kept[0]].ndim)
        first = xs[kept[0]].shape
        for i in kept[1:]:
            x = xs[i]
            if x.ndim != len(first):
                raise RuntimeError(
                    "Tensors must have same number of dimensions: got "
                    f"{len(first)} and {x.ndim}"
                )
            for j, (n, m) in enumerate(zip(first, x.shape)):
                if j != d and n != m:
                    raise RuntimeError(
                        f"Sizes of tensors must match except in dimension {d}. "
                        f"Expected size {n} but got size {m} for tensor number {i} "
                        "in the list."
                    )
        ctx.dim, ctx.d = f.u64(dim), d
        ctx.sizes = [xs[i].shape[d] if i in kept else None for i in range(len(xs))]
        out = np.ascontiguousarray(np.concatenate([xs[i] for i in kept], axis=d))
        want = result_type(*tensors).np
        return out if out.dtype == want else out.astype(want)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        lead, grads, start = (slice(None),) * ctx.d, [], 0
        for n in ctx.sizes:
            if n is None:  # a skipped legacy empty tensor
                grads.append(f.zeros((0,), g))
                continue
            grads.append(g[lead + (slice(start, start + n),)])
            start += n
        return (*grads, None)


class Stack(Op):
    """d stack(tensors, dim) = g taken apart along dim"""

    node_name, saved_attrs = "StackBackward0", ("dim",)

    @staticmethod
    def forward(ctx: Ctx, *args: Any) -> Any:
        *tensors, dim = args
        xs = [t._data for t in tensors]
        (d,) = normalize_dims(dim, xs[0].ndim + 1)
        for i, x in enumerate(xs[1:], 1):
            if x.shape != xs[0].shape:
                raise RuntimeError(
                    "stack expects each tensor to be equal size, but got "
                    f"{list(xs[0].shape)} at entry 0 and {list(x.shape)} at entry {i}"
                )
        ctx.dim, ctx.dim_arg, ctx.n = f.u64(dim), dim, len(xs)
        out = np.ascontiguousarray(np.stack(xs, axis=d))  # PyTorch: row-major
        want = result_type(*tensors).np
        return out if out.dtype == want else out.astype(want)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        # (selected along the dim as given: PyTorch's nodes save -1 for stack(-1))
        return (*[f.select(g, ctx.dim_arg, i) for i in range(ctx.n)], None)


def tensor_list(tensors: Any, fn: str) -> list:
    """A tuple or list of Tensors, checked as PyTorch's parser does (a Tensor
    is not taken apart into its rows)."""
    if not isinstance(tensors, (tuple, list)):
        raise TypeError(
            f"{fn}(): argument 'tensors' (position 1) must be tuple of Tensors, "
            f"not {type(tensors).__name__}"
        )
    for i, t in enumerate(tensors):
        if not isinstance(t, node.Tensor):
            raise TypeError(
                f"expected Tensor as element {i} in argument 0, but got "
                f"{type(t).__name__}"
            )
    return list(tensors)


def cat(tensors: Any, dim: int = 0, fn: str = "cat") -> Any:
    tensors = tensor_list(tensors, fn)
    if not tensors:
        raise ValueError("minigrad.cat(): expected a non-empty list of Tensors")
    return Cat.apply(*tensors, dim)


def stack(tensors: Any, dim: int = 0) -> Any:
    tensors = tensor_list(tensors, "stack")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    return Stack.apply(*tensors, dim)


# ------------------------------------------------------- several views at once
class Split(Op):
    """d a.split(size, dim) = the pieces' gradients joined along dim (zeros for
    pieces that got none)"""

    node_name = "SplitBackward0"
    saved_attrs = ("dim", "self_sym_sizes", "split_size")

    @staticmethod
    def sizes(n: int, split_size: int) -> list[int]:
        if split_size == 0:
            return [0] if n == 0 else []
        return [min(split_size, n - s) for s in range(0, n, split_size)] or [0]

    @staticmethod
    def view_fn(x: np.ndarray, split: Any, dim: int) -> tuple:
        d = dim % x.ndim
        sizes = Split.sizes(x.shape[d], split) if isinstance(split, int) else split
        lead, start, out = (slice(None),) * d, 0, []
        for n in sizes:
            out.append(x[lead + (slice(start, start + n),)])
            start += n
        return tuple(out)

    @staticmethod
    def forward(ctx: Ctx, a: Any, split_size: int, dim: int) -> tuple:
        x = a._data
        if x.ndim == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        (ctx.d,) = normalize_dims(dim, x.ndim)
        n = x.shape[ctx.d]
        if split_size == 0 and n != 0:
            raise RuntimeError(
                "split_size can only be 0 if dimension size is 0, but got dimension "
                f"size of {n}"
            )
        ctx.dim, ctx.split_size, ctx.self_sym_sizes = f.u64(dim), split_size, x.shape
        return Split.view_fn(x, split_size, dim)

    @staticmethod
    def backward(ctx: Ctx, *grads: Any) -> tuple:
        return f.cat(list(grads), ctx.d), None, None


class UnsafeSplit(Split):
    """d a.unsafe_split(size, dim): as split, but the pieces are not views (PyTorch's
    RNN cells write their gates in place)"""

    node_name = "UnsafeSplitBackward0"
    saved_attrs = ("dim", "self_sym_sizes", "split_size")


class SplitWithSizes(Split):
    """d a.split([n0, n1, ...], dim) = the pieces' gradients joined along dim"""

    node_name = "SplitWithSizesBackward0"
    saved_attrs = ("dim", "self_sym_sizes", "split_sizes")

    @staticmethod
    def forward(ctx: Ctx, a: Any, split_sizes: tuple, dim: int) -> tuple:
        x = a._data
        if x.ndim == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        (ctx.d,) = normalize_dims(dim, x.ndim)
        n = x.shape[ctx.d]
        if sum(split_sizes) != n:
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {n} (input "
                f"tensor's size at dimension {ctx.d}), but got split_sizes="
                f"{list(split_sizes)}"
            )
        ctx.dim, ctx.split_sizes, ctx.self_sym_sizes = f.u64(dim), split_sizes, x.shape
        return Split.view_fn(x, split_sizes, dim)


class Unbind(Op):
    """d a.unbind(dim) = the pieces' gradients stacked along dim"""

    node_name, saved_attrs = "UnbindBackward0", ("dim",)

    @staticmethod
    def view_fn(x: np.ndarray, dim: int) -> tuple:
        lead = (slice(None),) * (dim % x.ndim)
        return tuple(x[lead + (i, Ellipsis)] for i in range(x.shape[dim]))

    @staticmethod
    def forward(ctx: Ctx, a: Any, dim: int) -> tuple:
        x = a._data
        (ctx.d,) = normalize_dims(dim, x.ndim)
        if x.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        ctx.dim, ctx.dim_arg = f.u64(dim), dim
        return Unbind.view_fn(x, dim)

    @staticmethod
    def backward(ctx: Ctx, *grads: Any) -> tuple:
        # (stacked along the dim as given, as PyTorch's StackBackward0 saves it)
        return f.stack(list(grads), ctx.dim_arg), None


# what the core and _formula's helpers record (they import no op family):
# AccumulateGrad's first .grad under create_graph is a recorded copy
register(
    cat=cat,
    stack=stack,
)
