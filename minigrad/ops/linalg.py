"""Matrix products: dot, mv, mm, bmm. ``@`` (``_tensor_base.matmul``) picks
one of them by the operands' ranks."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from .._dtype import from_numpy_dtype
from ._common import Ctx, Grad, Op, promoted


def element_strides(x: np.ndarray) -> tuple[int, ...]:
    return tuple(s // x.itemsize for s in x.strides)


# PyTorch's matrix products do not promote dtypes; each kernel words the error
# in its own way, with ScalarType or C++ type names.
def _scalar_type(x: np.ndarray) -> str:
    return from_numpy_dtype(x.dtype)._scalar_type


def _same_dtype(kind: str, x: np.ndarray, y: np.ndarray) -> None:
    if x.dtype == y.dtype:
        return
    if kind == "dot":
        msg = (
            "dot : expected both vectors to have same dtype, but found "
            f"{_scalar_type(x)} and {_scalar_type(y)}"
        )
    elif kind == "mv":
        v, m = _scalar_type(y), _scalar_type(x)
        msg = f"addmv input tensors must have the same dtype, but got {v}, {m}, and {v}"
    elif kind == "mm":
        msg = (
            "expected m1 and m2 to have the same dtype, but got: "
            f"{from_numpy_dtype(x.dtype)._cpp} != {from_numpy_dtype(y.dtype)._cpp}"
        )
    else:
        msg = f"expected scalar type {_scalar_type(x)} but found {_scalar_type(y)}"
    raise RuntimeError(msg)


class Dot(Op):
    """d (a · b) = (g * b, g * a)"""

    node_name, saved = "DotBackward0", ("self", "tensor")

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        x, y = a._data, b._data
        _same_dtype("dot", x, y)
        if x.ndim != 1 or y.ndim != 1:
            raise RuntimeError(
                f"1D tensors expected, but got {x.ndim}D and {y.ndim}D tensors"
            )
        if x.shape != y.shape:
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{x.shape[0]}] and src "
                f"[{y.shape[0]}] to have the same number of elements, but got "
                f"{x.shape[0]} and {y.shape[0]} elements respectively"
            )
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        return promoted(np.asarray(np.dot(x, y)), a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (g * b if need_a else None), (g * a if need_b else None)


class Mv(Op):
    """d (M @ v) = (outer(g, v), Mᵀ @ g)"""

    node_name, saved = "MvBackward0", ("self", "vec")

    @staticmethod
    def forward(ctx: Ctx, m: Any, v: Any) -> Any:
        x, y = m._data, v._data
        _same_dtype("mv", x, y)
        if x.shape[1] != y.shape[0]:
            raise RuntimeError(
                f"size mismatch, got input ({x.shape[0]}), mat "
                f"({x.shape[0]}x{x.shape[1]}), vec ({y.shape[0]})"
            )
        need_m, need_v = ctx.needs_input_grad
        ctx.save_for_backward(m if need_v else None, v if need_m else None)
        return promoted(x @ y, m, v)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        m, v = ctx.saved_tensors
        need_m, need_v = ctx.needs_input_grad
        return (f.outer(g, v) if need_m else None), (f.mT(m) @ g if need_v else None)


class Mm(Op):
    """d (A @ B) = (g @ Bᵀ, Aᵀ @ g)"""

    node_name, saved = "MmBackward0", ("self", "mat2")
    saved_attrs = (
        "mat2_sym_sizes",
        "mat2_sym_strides",
        "self_sym_sizes",
        "self_sym_strides",
    )

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        x, y = a._data, b._data
        _same_dtype("mm", x, y)
        if x.ndim != 2 or y.ndim != 2:
            bad = "self" if x.ndim != 2 else "mat2"
            raise RuntimeError(f"{bad} must be a matrix")
        if x.shape[1] != y.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({x.shape[0]}x{x.shape[1]}"
                f" and {y.shape[0]}x{y.shape[1]})"
            )
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        # PyTorch keeps an operand's strides only for that operand's own gradient
        ctx.self_sym_sizes = x.shape
        ctx.self_sym_strides = element_strides(x) if need_a else ()
        ctx.mat2_sym_sizes = y.shape
        ctx.mat2_sym_strides = element_strides(y) if need_b else ()
        return promoted(x @ y, a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        layouts = (
            (ctx.self_sym_sizes, ctx.self_sym_strides),
            (
                ctx.mat2_sym_sizes,
                ctx.mat2_sym_strides,
            ),
        )
        return mm_backward(g, a, b, need_a, need_b, layouts)


def mm_backward(
    g: Any, m1: Any, m2: Any, need1: bool, need2: bool, layouts: tuple
) -> tuple:
    """``m1 @ m2``'s gradients (mm, addmm): ``g @ m2ᵀ`` and ``m1ᵀ @ g``. For an
    operand stored column-major (a transpose, such as ``W.t()`` in ``linear``),
    PyTorch computes its gradient in the same layout, ``(m2 @ gᵀ)ᵀ`` and
    ``(gᵀ @ m1)ᵀ``: same values, another graph under create_graph (and
    ``W.grad`` comes out row-major with no copy). ``layouts``: each operand's
    (sizes, strides) as saved in forward."""
    g1 = g2 = None
    if need1:
        g1 = f.mT(m2 @ f.mT(g)) if _column_major(*layouts[0]) else g @ f.mT(m2)
    if need2:
        g2 = f.mT(f.mT(g) @ m1) if _column_major(*layouts[1]) else f.mT(m1) @ g
    return g1, g2


def _column_major(sizes: tuple, strides: tuple) -> bool:
    return strides[0] == 1 and strides[1] == sizes[0]


class Bmm(Op):
    """d (A @ B) batched = (g @ Bᵀ, Aᵀ @ g)"""

    node_name, saved = "BmmBackward0", ("self", "mat2")

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        x, y = a._data, b._data
        _same_dtype("bmm", x, y)
        if x.ndim != 3 or y.ndim != 3:
            bad = "batch1" if x.ndim != 3 else "batch2"
            raise RuntimeError(f"{bad} must be a 3D tensor")
        if x.shape[0] != y.shape[0] or x.shape[2] != y.shape[1]:
            raise RuntimeError(
                f"Expected size for first two dimensions of batch2 tensor to be: "
                f"[{x.shape[0]}, {x.shape[2]}] but got: [{y.shape[0]}, {y.shape[1]}]."
            )
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        return promoted(x @ y, a, b)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (g @ f.mT(b) if need_a else None), (f.mT(a) @ g if need_b else None)
