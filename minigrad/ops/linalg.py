"""Matrix products: dot, mv, mm, bmm, addmm (what ``F.linear`` records),
addmv, addbmm and baddbmm; ``matmul``, the ``@`` dispatch that picks one of
them by the operands' ranks, recording the same nodes as PyTorch; and
``tensordot`` and ``inner``, which PyTorch records as permutes, reshapes and
one ``mm`` (or ``dot``).

Classes (and the node each records):

    Dot      DotBackward0
    Mv       MvBackward0
    Mm       MmBackward0
    Bmm      BmmBackward0
    Addmm    AddmmBackward0
    Addmv    AddmvBackward0
    Addbmm   AddbmmBackward0
    Baddbmm  BaddbmmBackward0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from .._dtype import from_numpy_dtype
from ._common import Ctx, Grad, Op, broadcast_shape, dtype_name, is_tensor, promoted
from ._dims import normalize_dims
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
    # mat2's first: PyTorch's generated backward makes the gradients in the
    # order of the inputs' names, sorted ("mat2" < "self")
    if need2:
        g2 = f.mT(f.mT(g) @ m1) if _column_major(*layouts[1]) else f.mT(m1) @ g
    if need1:
        g1 = f.mT(m2 @ f.mT(g)) if _column_major(*layouts[0]) else g @ f.mT(m2)
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
        # bmm itself (not matmul's expand and reshapes) and mat2's first, as Mm's
        gb = f.bmm(f.transpose(a, 1, 2), g) if need_b else None
        return (f.bmm(g, f.transpose(b, 1, 2)) if need_a else None), gb


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


def maybe_multiply(g: Any, s: Any) -> Any:
    """``g * s`` for a Python number ``s``, skipped when ``s`` is 1 (PyTorch's
    maybe_multiply: MulBackward1 under create_graph only for another ``s``)."""
    return g if s == 1 else f.scale(g, s)


def _scaled_sum(b: np.ndarray, product: np.ndarray, beta: Any, alpha: Any) -> Any:
    """``beta * b + alpha * product``; with beta 0 the input is ignored (nan
    and inf in it too), as PyTorch documents."""
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        return np.array(np.broadcast_to(product, product.shape), order="C")
    return product + (b if beta == 1 else b * beta)


def _matrix(name: str, x: np.ndarray) -> None:
    if x.ndim != 2:
        raise RuntimeError(f"{name} must be a matrix, got {x.ndim}-D tensor")


class Addmm(Op):
    """d (beta bias + alpha m1 @ m2) = (beta g, alpha g @ m2ᵀ, alpha m1ᵀ @ g)"""

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
    def forward(
        ctx: Ctx, bias: Any, m1: Any, m2: Any, beta: Any = 1, alpha: Any = 1
    ) -> Any:
        b, x, w = bias._data, m1._data, m2._data
        _matrix("mat1", x)
        _matrix("mat2", w)
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
        target = [x.shape[0], w.shape[1]]
        _expands_to(b.shape, target)
        if beta == 1 and alpha == 1:
            out = _matmul_add(x, w, b)
        else:
            out = _scaled_sum(b, x @ w, beta, alpha)
        _, need_x, need_w = ctx.needs_input_grad[:3]  # (linear passes three)
        ctx.save_for_backward(m1 if need_w else None, m2 if need_x else None)
        ctx.alpha, ctx.beta = alpha, beta
        ctx.mat1_sym_sizes, ctx.mat2_sym_sizes = x.shape, w.shape
        ctx.mat1_sym_strides = element_strides(x) if need_x else ()
        ctx.mat2_sym_strides = element_strides(w) if need_w else ()
        ctx.bias_shape = b.shape
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        x, w = ctx.saved_tensors
        need_b, need_x, need_w = ctx.needs_input_grad[:3]
        gb = f.sum_to(maybe_multiply(g, ctx.beta), ctx.bias_shape) if need_b else None
        layouts = (
            (ctx.mat1_sym_sizes, ctx.mat1_sym_strides),
            (
                ctx.mat2_sym_sizes,
                ctx.mat2_sym_strides,
            ),
        )
        gx, gw = mm_backward(g, x, w, need_x, need_w, layouts)
        if gx is not None:
            gx = maybe_multiply(gx, ctx.alpha)
        if gw is not None:
            gw = maybe_multiply(gw, ctx.alpha)
        return gb, gx, gw, None, None  # (extra Nones are dropped)


def _expands_to(shape: tuple, target: list) -> None:
    """The input of addmm and its kind must broadcast to the product's shape,
    with PyTorch's message when it does not."""
    lead = len(target) - len(shape)
    for i in range(len(shape) - 1, -1, -1):
        n, want = shape[i], target[lead + i] if lead + i >= 0 else None
        if want is None or (n != want and n != 1):
            raise RuntimeError(
                f"The expanded size of the tensor ({target[-1]}) must match the "
                f"existing size ({shape[-1]}) at non-singleton dimension "
                f"{len(target) - 1}.  Target sizes: {target}.  Tensor sizes: "
                f"{list(shape)}"
            )


class Addmv(Op):
    """d (beta b + alpha M @ v) = (beta g, alpha outer(g, v), alpha Mᵀ @ g)"""

    node_name, saved = "AddmvBackward0", ("mat", "vec")
    saved_attrs = ("alpha", "beta")

    @staticmethod
    def forward(
        ctx: Ctx, bias: Any, mat: Any, vec: Any, beta: Any = 1, alpha: Any = 1
    ) -> Any:
        b, m, v = bias._data, mat._data, vec._data
        if m.ndim != 2 or v.ndim != 1:
            raise RuntimeError(
                f"vector + matrix @ vector expected, got {b.ndim}, {m.ndim}, {v.ndim}"
            )
        _same_dtype("mv", m, v)
        if m.shape[1] != v.shape[0] or b.shape not in ((m.shape[0],), (1,), ()):
            raise RuntimeError(
                f"size mismatch, got input ({b.shape[0] if b.ndim else 1}), mat "
                f"({m.shape[0]}x{m.shape[1]}), vec ({v.shape[0]})"
            )
        _, need_m, need_v, _, _ = ctx.needs_input_grad
        ctx.save_for_backward(mat if need_v else None, vec if need_m else None)
        ctx.alpha, ctx.beta, ctx.bias_shape = alpha, beta, b.shape
        return promoted(_scaled_sum(b, m @ v, beta, alpha), mat, vec)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        m, v = ctx.saved_tensors
        need_b, need_m, need_v, _, _ = ctx.needs_input_grad
        gb = f.sum_to(maybe_multiply(g, ctx.beta), ctx.bias_shape) if need_b else None
        gm = maybe_multiply(f.outer(g, v), ctx.alpha) if need_m else None
        gv = maybe_multiply(f.mT(m) @ g, ctx.alpha) if need_v else None
        return gb, gm, gv, None, None


def _batches(b1: np.ndarray, b2: np.ndarray) -> None:
    _same_dtype("bmm", b1, b2)
    if b1.ndim != 3 or b2.ndim != 3:
        bad = "batch1" if b1.ndim != 3 else "batch2"
        raise RuntimeError(f"{bad} must be a 3D tensor")
    if b1.shape[0] != b2.shape[0] or b1.shape[2] != b2.shape[1]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{b1.shape[0]}, {b1.shape[2]}] but got: [{b2.shape[0]}, "
            f"{b2.shape[1]}]."
        )


class Baddbmm(Op):
    """d (beta a + alpha B1 @ B2) batched = (beta g, alpha g @ B2ᵀ, alpha B1ᵀ @ g)"""

    node_name, saved = "BaddbmmBackward0", ("batch1", "batch2")
    saved_attrs = ("alpha", "beta")

    @staticmethod
    def forward(
        ctx: Ctx, a: Any, b1: Any, b2: Any, beta: Any = 1, alpha: Any = 1
    ) -> Any:
        x, y = b1._data, b2._data
        _batches(x, y)
        target = [x.shape[0], x.shape[1], y.shape[2]]
        _expands_to(a._data.shape, target)
        ctx.save_for_backward(b1, b2)
        ctx.alpha, ctx.beta, ctx.input_shape = alpha, beta, a._data.shape
        return promoted(_scaled_sum(a._data, x @ y, beta, alpha), b1, b2)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        b1, b2 = ctx.saved_tensors
        need_a, need1, need2, _, _ = ctx.needs_input_grad
        # by name, as Mm's: batch1's, batch2's, self's
        g1 = (
            maybe_multiply(f.bmm(g, f.transpose(b2, 1, 2)), ctx.alpha)
            if need1
            else None
        )
        g2 = (
            maybe_multiply(f.bmm(f.transpose(b1, 1, 2), g), ctx.alpha)
            if need2
            else None
        )
        ga = f.sum_to(maybe_multiply(g, ctx.beta), ctx.input_shape) if need_a else None
        return ga, g1, g2, None, None


class Addbmm(Op):
    """d (beta a + alpha Σ_b B1_b @ B2_b) = (beta g, alpha g @ B2_bᵀ, alpha
    B1_bᵀ @ g), g repeated over the batch"""

    node_name, saved = "AddbmmBackward0", ("batch1", "batch2")
    saved_attrs = (
        "alpha",
        "batch1_sym_argsize_0",
        "batch1_sym_argsize_1",
        "batch2_sym_argsize_2",
        "beta",
    )

    @staticmethod
    def forward(
        ctx: Ctx, a: Any, b1: Any, b2: Any, beta: Any = 1, alpha: Any = 1
    ) -> Any:
        x, y = b1._data, b2._data
        if x.ndim == 3 and y.ndim == 3:  # addbmm's kernel words its checks apart
            _expands_to(a._data.shape, [x.shape[1], y.shape[2]])
            if x.shape[0] != y.shape[0]:
                raise RuntimeError(
                    "batch1 and batch2 must have same number of batches, got "
                    f"{x.shape[0]} and {y.shape[0]}"
                )
            if x.shape[2] != y.shape[1]:
                raise RuntimeError(
                    f"Incompatible matrix sizes for bmm ({x.shape[1]}x{x.shape[2]} "
                    f"and {y.shape[1]}x{y.shape[2]})"
                )
        _batches(x, y)
        ctx.save_for_backward(b1, b2)
        ctx.alpha, ctx.beta, ctx.input_shape = alpha, beta, a._data.shape
        ctx.batch1_sym_argsize_0, ctx.batch1_sym_argsize_1 = x.shape[:2]
        ctx.batch2_sym_argsize_2 = y.shape[2]
        product = (
            (x @ y).sum(axis=0)
            if x.shape[0]
            else np.zeros((x.shape[1], y.shape[2]), x.dtype)
        )
        return promoted(_scaled_sum(a._data, product, beta, alpha), b1, b2)

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        b1, b2 = ctx.saved_tensors
        need_a, need1, need2, _, _ = ctx.needs_input_grad
        shape = (
            ctx.batch1_sym_argsize_0,
            ctx.batch1_sym_argsize_1,
            ctx.batch2_sym_argsize_2,
        )
        g1 = g2 = None
        # by name, as Mm's: batch1's, batch2's, self's; each repeats g over
        # the batch itself, as PyTorch's formulas do
        if need1:
            gs = f.expand(f.unsqueeze(g, 0), shape)
            g1 = maybe_multiply(f.bmm(gs, f.transpose(b2, 1, 2)), ctx.alpha)
        if need2:
            b1t = f.transpose(b1, 1, 2)
            g2 = maybe_multiply(
                f.bmm(b1t, f.expand(f.unsqueeze(g, 0), shape)), ctx.alpha
            )
        ga = f.sum_to(maybe_multiply(g, ctx.beta), ctx.input_shape) if need_a else None
        return ga, g1, g2, None, None


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


def matmul(input: Any, other: Any, function: bool = False) -> Any:
    """``input @ other``: picks dot, mv, mm or a batched product by the ranks,
    recording the same nodes as PyTorch (e.g. ``v @ M`` is unsqueeze, mm,
    squeeze)."""
    a, b = input, other
    for name, x, position in (("input", a, 1), ("other", b, 2 if function else 1)):
        if not is_tensor(x):  # (a method's self is always a tensor)
            raise TypeError(
                f"matmul(): argument '{name}' (position {position}) must be Tensor, "
                f"not {type(x).__name__}"
            )
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


# ---------------------------------------------------------- tensordot, inner
def _dims_arg(dims: Any, da: int, db: int) -> tuple[list, list]:
    """``tensordot``'s ``dims``: a count n (the last n dims of ``a`` against the
    first n of ``b``) or two lists of dims."""
    if is_tensor(dims) and dims._data.ndim == 0:
        dims = int(dims._data)
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(da, db):
            raise RuntimeError(
                f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}"
            )
        return list(range(-dims, 0)), list(range(dims))
    d1, d2 = dims
    return _int_list(d1), _int_list(d2)


def _int_list(d: Any) -> list:
    return [int(d)] if isinstance(d, int) else [int(i) for i in d]


def tensordot(a: Any, b: Any, dims: Any = 2) -> Any:
    """Sum of products over ``dims`` of ``a`` and ``b``: the contracted dims
    permuted last in ``a`` and first in ``b``, both reshaped into matrices, one
    ``mm`` (a ``dot`` when no dim is left), reshaped to the free dims, as
    PyTorch records it. A contracted dim of size 1 on one side is summed out
    of the other first."""
    d1, d2 = _dims_arg(dims, a._data.ndim, b._data.ndim)
    if len(d1) != len(d2):
        raise RuntimeError("both dimension lists should have same length")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError("both inputs should have same dtype")
    n1, n2 = normalize_dims(d1, a._data.ndim), normalize_dims(d2, b._data.ndim)
    t1, t2, csize = a, b, 1
    sizes1, sizes2 = [a.shape[i] for i in n1], [b.shape[j] for j in n2]
    for i, j, s1, s2 in zip(d1, d2, sizes1, sizes2):
        if s2 == 1:
            t1 = t1.sum(i, True)
        elif s1 == 1:
            t2 = t2.sum(j, True)
        elif s1 != s2:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {s1} in "
                f"dim {i} and second has size {s2} in dim {j}"
            )
        else:
            csize *= s1
    free1 = [i for i in range(a._data.ndim) if i not in n1]
    free2 = [i for i in range(b._data.ndim) if i not in n2]
    sizes = [t1.shape[i] for i in free1] + [t2.shape[i] for i in free2]
    t1, t2 = t1.permute(free1 + d1), t2.permute(d2 + free2)
    if not free1 and not free2:
        v1 = t1 if t1._data.ndim == 1 else t1.reshape(csize)
        v2 = t2 if t2._data.ndim == 1 else t2.reshape(csize)
        return v1.dot(v2).reshape(sizes)
    rows = int(np.prod(t1._data.shape[: len(free1)]))
    cols = int(np.prod(t2._data.shape[len(d2) :]))
    return t1.reshape(rows, csize).mm(t2.reshape(csize, cols)).reshape(sizes)


def inner(a: Any, b: Any) -> Any:
    """The sum of products over the last dim of both (``a * b`` for a 0-d one)."""
    if a._data.ndim == 0 or b._data.ndim == 0:
        return a * b
    if a.shape[-1] != b.shape[-1]:
        raise RuntimeError(
            "inner() the last dimension must match on both input tensors but got "
            f"shapes {list(a.shape)} and {list(b.shape)}"
        )
    return tensordot(a, b, ([-1], [-1]))
