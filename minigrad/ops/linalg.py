"""Matrix products: dot, mv, mm, bmm, addmm (what ``F.linear`` records),
and ``matmul``, the ``@`` dispatch that picks one of them by the operands'
ranks, recording the same nodes as PyTorch.

Classes (and the node each records):

    Dot    DotBackward0
    Mv     MvBackward0
    Mm     MmBackward0
    Bmm    BmmBackward0
    Addmm  AddmmBackward0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from .._dtype import from_numpy_dtype
from ._common import Ctx, Grad, Op, broadcast_shape, dtype_name, is_tensor, promoted
from .views import SqueezeDimInplace, UnsafeView


def element_strides(x: np.ndarray) -> tuple[int, ...]:
    return tuple(s // x.itemsize for s in x.strides)


# PyTorch's matrix products do not promote dtypes; each kernel words the error
# in its own way, with ScalarType or C++ type names.
def _same_dtype(kind: str, x: np.ndarray, y: np.ndarray) -> None:
    if x.dtype == y.dtype:
        return
    if kind == "dot":
        msg = (
            "dot : expected both vectors to have same dtype, but found "
            f"{dtype_name(x)} and {dtype_name(y)}"
        )
    elif kind == "mv":
        v, m = dtype_name(y), dtype_name(x)
        msg = f"addmv input tensors must have the same dtype, but got {v}, {m}, and {v}"
    elif kind == "mm":
        msg = (
            "expected m1 and m2 to have the same dtype, but got: "
            f"{from_numpy_dtype(x.dtype)._cpp} != {from_numpy_dtype(y.dtype)._cpp}"
        )
    else:
        msg = f"expected scalar type {dtype_name(x)} but found {dtype_name(y)}"
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
        if x.ndim != 2 or y.ndim != 1:
            raise RuntimeError(
                f"vector + matrix @ vector expected, got 1, {x.ndim}, {y.ndim}"
            )
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
                f"{dtype_name(x)} and {dtype_name(w)}"
            )
        if x.shape[1] != w.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({x.shape[0]}x{x.shape[1]}"
                f" and {w.shape[0]}x{w.shape[1]})"
            )
        if b.dtype != w.dtype:
            raise RuntimeError(
                "self and mat2 must have the same dtype, but got "
                f"{dtype_name(b)} and {dtype_name(w)}"
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


# ---------------------------------------------------------- the @ dispatch
def _should_fold(a: Any, b: Any) -> bool:
    """PyTorch's rule for computing ``a @ b`` with one mm/mv instead of bmm: one
    operand is batched, the other is 1-D or 2-D and either needs a gradient (a
    folded product keeps its gradient small) or the batched one folds without a
    copy."""
    da, db = a._data.ndim, b._data.ndim
    a_larger = da >= db
    if not (max(da, db) >= 3 and min(da, db) <= 2):
        return False
    if (b if a_larger else a).requires_grad:
        return True
    if da == 2:
        return False
    big = a._data if a_larger else np.swapaxes(b._data, -1, -2)
    if big.size == 0:
        return True
    shape, strides = big.shape, big.strides
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(big.ndim - 1))


def matmul(input: Any, other: Any) -> Any:
    """``input @ other``: picks dot, mv, mm or a batched product by the ranks,
    recording the same nodes as PyTorch (e.g. ``v @ M`` is unsqueeze, mm,
    squeeze)."""
    a, b = input, other
    if not is_tensor(a) or not is_tensor(b):
        raise TypeError("matmul(): argument 'other' must be Tensor")
    da, db = a._data.ndim, b._data.ndim
    if da == 0 or db == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {da}D "
            f"and {db}D"
        )
    if da == 1 and db == 1:
        return Dot.apply(a, b)
    if da == 2 and db == 1:
        return Mv.apply(a, b)
    if da == 1 and db == 2:
        # PyTorch squeezes the mm result in place (squeeze_): the result is that
        # tensor itself (not a view), at version 1
        row = a.unsqueeze(0).mm(b)
        out = SqueezeDimInplace.apply(row, 0)
        out._vc = row._vc
        out._vc.value += 1
        return out
    if da == 2 and db == 2:
        return Mm.apply(a, b)
    if da == 3 and db == 3 and (a._data.shape[0] == 1) != (b._data.shape[0] == 1):
        # PyTorch 2.13 drops a unit batch when the other side has a real one,
        # so the product folds into one mm below
        if a._data.shape[0] == 1:
            return matmul(a.squeeze(0), b)
        return matmul(a, b.squeeze(0))
    if _should_fold(a, b):
        # fold the batch of the larger operand into rows: one mm (or mv); a
        # batched right operand is used transposed: (bᵀ @ aᵀ)ᵀ, as PyTorch does
        swap = db > da
        big = b.mT if swap else a
        small = (a.t() if da == 2 else a) if swap else b
        rows = big.reshape(-1, big._data.shape[-1])
        mat = small._data.ndim == 2
        out = rows.mm(small) if mat else rows.mv(small)
        shape = big._data.shape[:-1] + ((small._data.shape[-1],) if mat else ())
        out = UnsafeView.apply(out, shape)
        return out.mT.contiguous() if swap and mat else out
    # batched: broadcast the batch dims, flatten them, bmm, restore the shape
    a2 = a.unsqueeze(0) if da == 1 else a
    b2 = b.unsqueeze(-1) if db == 1 else b
    batch = broadcast_shape(a2._data.shape[:-2], b2._data.shape[:-2])
    n, k = a2._data.shape[-2:]
    m = b2._data.shape[-1]
    if b2._data.shape[-2] != k:  # what bmm would say about the folded batch
        nb = int(np.prod(batch))
        raise RuntimeError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{nb}, {k}] but got: [{nb}, {b2._data.shape[-2]}]."
        )
    a3 = a2.expand(batch + (n, k)).reshape(-1, n, k)
    b3 = b2.expand(batch + b2._data.shape[-2:]).reshape(-1, k, m)
    out_shape = batch + ((n,) if da > 1 else ()) + ((m,) if db > 1 else ())
    return UnsafeView.apply(a3.bmm(b3), out_shape)
