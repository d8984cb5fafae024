"""Linear algebra of matrices (``minigrad.linalg``): det, slogdet, inv and
solve, computed through an LU factorization with partial pivoting (which the
nodes save and their first-order gradients solve with, as PyTorch's do), the
singular value decomposition (numpy's, which calls LAPACK's gesdd as PyTorch's
CPU build does), and the cross product. Batches of matrices work throughout.

Classes (and the node each records):

    LinalgDet      LinalgDetBackward0
    LinalgSlogdet  LinalgSlogdetBackward0
    LinalgInvEx    LinalgInvExBackward0
    LinalgSolveEx  LinalgSolveExBackward0
    LinalgCross    LinalgCrossBackward0
    LinalgSvd      LinalgSvdBackward0 (svd and svdvals)
    _LinAlgError   (the error for a singular matrix: linalg.LinAlgError)
    SlogdetResult  (slogdet's named (sign, logabsdet) result)
    SvdResult      (svd's named (U, S, Vh) result)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from .._dtype import from_numpy_dtype
from ._common import Ctx, Grad, Op, broadcast_shape, constant, dtype_name
from ._dims import normalize_dims


class _LinAlgError(RuntimeError):
    """A singular matrix (PyTorch's ``torch.linalg.LinAlgError``)."""


_LinAlgError.__module__ = "minigrad._C"


class SlogdetResult(tuple):
    """``(sign, logabsdet)`` with names, printed like PyTorch's
    ``torch.return_types.linalg_slogdet``."""

    def __new__(cls, sign: Any, logabsdet: Any) -> SlogdetResult:
        return super().__new__(cls, (sign, logabsdet))

    @property
    def sign(self) -> Any:
        return self[0]

    @property
    def logabsdet(self) -> Any:
        return self[1]

    def __repr__(self) -> str:
        return (
            f"minigrad.return_types.linalg_slogdet(\nsign={self[0]!r},\n"
            f"logabsdet={self[1]!r})"
        )


class SvdResult(tuple):
    """``(U, S, Vh)`` with names, printed like PyTorch's
    ``torch.return_types.linalg_svd``."""

    def __new__(cls, u: Any, s: Any, vh: Any) -> SvdResult:
        return super().__new__(cls, (u, s, vh))

    U = property(lambda self: self[0])
    S = property(lambda self: self[1])
    Vh = property(lambda self: self[2])

    def __repr__(self) -> str:
        return (
            f"minigrad.return_types.linalg_svd(\nU={self[0]!r},\nS={self[1]!r},\n"
            f"Vh={self[2]!r})"
        )


SvdResult.__name__ = SvdResult.__qualname__ = "linalg_svd"  # PyTorch's type name


def _column_major(x: np.ndarray) -> np.ndarray:
    """Each matrix laid out column by column, as LAPACK writes its results for
    PyTorch (a later transpose is then row-major, with PyTorch's strides)."""
    return np.swapaxes(np.array(np.swapaxes(x, -1, -2), order="C"), -1, -2)


def _square(fn: str, x: np.ndarray) -> None:
    """A floating batch of square matrices, or PyTorch's refusal."""
    if x.ndim < 2:
        raise RuntimeError(
            f"linalg.{fn}: The input tensor A must have at least 2 dimensions."
        )
    if x.dtype.kind != "f":
        legacy = from_numpy_dtype(x.dtype)._legacy.replace("Tensor", "")
        raise RuntimeError(
            f"linalg.{fn}: Expected a floating point or complex tensor as input. "
            f"Got {legacy}"
        )
    if x.shape[-1] != x.shape[-2]:
        raise RuntimeError(
            f"linalg.{fn}: A must be batches of square matrices, but they are "
            f"{x.shape[-2]} by {x.shape[-1]} matrices"
        )


def _swap_rows(m: np.ndarray, k: int, p: np.ndarray) -> None:
    """Swap row ``k`` of each matrix of ``m`` with its row ``p`` (in place)."""
    rows = m[..., k, :].copy()
    m[..., k, :] = np.take_along_axis(m, p[..., None, None], -2)[..., 0, :]
    np.put_along_axis(m, p[..., None, None], rows[..., None, :], -2)


def lu_factor(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """LU with partial pivoting of each matrix (LAPACK's getrf: the largest
    |value| of a column is its pivot, the first on ties): the packed factors
    (L's unit diagonal left out) and the 1-based pivot rows (int32)."""
    lu = np.array(x, dtype=x.dtype, order="C", copy=True)
    n = x.shape[-1]
    piv = np.empty(x.shape[:-2] + (n,), np.int32)
    for k in range(n):
        p = k + np.argmax(np.abs(lu[..., k:, k]), axis=-1)
        piv[..., k] = p + 1
        _swap_rows(lu, k, p)
        d = lu[..., k, k]
        with np.errstate(divide="ignore", invalid="ignore"):
            factors = np.where(d[..., None] != 0, lu[..., k + 1 :, k] / d[..., None], 0)
        lu[..., k + 1 :, k] = factors
        lu[..., k + 1 :, k + 1 :] -= factors[..., :, None] * lu[..., k, None, k + 1 :]
    return lu, piv


def lu_solve(lu: np.ndarray, piv: np.ndarray, b: np.ndarray, adjoint: bool) -> Any:
    """X with ``M X = B`` (``Mᵀ X = B`` when ``adjoint``) for the matrices M whose
    factors ``lu_factor`` packed: LAPACK's getrs, by substitution with every
    product formed, so a zero pivot gives PyTorch's inf and nan, not an error."""
    batch = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    lu = np.broadcast_to(lu, batch + lu.shape[-2:])
    rows = np.broadcast_to(piv, batch + piv.shape[-1:]) - 1
    x = np.array(np.broadcast_to(b, batch + b.shape[-2:]), lu.dtype)
    n = lu.shape[-1]

    def update(i: int, coef: np.ndarray, known: slice, pivot: Any) -> None:
        # row i minus coef · the rows already solved, over the pivot if any
        x[..., i, :] -= (coef[..., :, None] * x[..., known, :]).sum(-2)
        if pivot is not None:
            x[..., i, :] /= pivot[..., None]

    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if not adjoint:  # P L U X = B: swap, L (unit, forward), U (backward)
            for i in range(n):
                _swap_rows(x, i, rows[..., i])
            for i in range(n):
                update(i, lu[..., i, :i], slice(0, i), None)
            for i in reversed(range(n)):
                update(i, lu[..., i, i + 1 :], slice(i + 1, n), lu[..., i, i])
        else:  # Uᵀ Lᵀ Pᵀ X = B: Uᵀ (forward), Lᵀ (unit, backward), swaps undone
            for i in range(n):
                update(i, lu[..., :i, i], slice(0, i), lu[..., i, i])
            for i in reversed(range(n)):
                update(i, lu[..., i + 1 :, i], slice(i + 1, n), None)
            for i in reversed(range(n)):
                _swap_rows(x, i, rows[..., i])
    return x


def _det_of_lu(lu: np.ndarray, piv: np.ndarray) -> np.ndarray:
    n = lu.shape[-1]
    swaps = (piv != np.arange(1, n + 1)).sum(-1)
    diag = np.diagonal(lu, axis1=-2, axis2=-1)
    return np.where(swaps % 2, -1, 1) * diag.prod(-1)


def _lu_of_det(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
    """det and slogdet factor Aᵀ when A is row-major (LAPACK reads its memory
    as Aᵀ, column by column, with no copy), else A itself, as PyTorch saves
    them; the flag says which (the first-order gradients solve with them)."""
    transposed = bool(x.flags.c_contiguous)
    lu, piv = lu_factor(np.swapaxes(x, -1, -2) if transposed else x)
    return lu, piv, transposed


def _singular(fn: str, bad: np.ndarray, text: Any) -> None:
    """Raise PyTorch's error for the first singular matrix of a batch."""
    if not bad.any():
        return
    where = np.argwhere(bad.reshape(-1))[0][0]
    batch = f"(Batch element {where}): " if bad.ndim else ""
    raise _LinAlgError(f"{fn}: {batch}{text(where)}")


def _inverse(x: np.ndarray) -> np.ndarray:
    """The inverse of each matrix, refused as PyTorch refuses a singular one
    (naming the first zero on U's diagonal)."""
    lu, _ = lu_factor(x)
    zero = np.diagonal(lu, axis1=-2, axis2=-1) == 0
    first = np.argmax(zero, axis=-1) + 1
    _singular(
        "linalg.inv",
        zero.any(-1),
        lambda i: (
            f"The diagonal element {first.reshape(-1)[i]} is zero, the "
            "inversion could not be completed because the input matrix is singular."
        ),
    )
    return _column_major(np.linalg.inv(x).astype(x.dtype, copy=False))


def _scaled_identity(g: Any, n: int) -> Any:
    """``g I`` for each scalar of ``g``, built as PyTorch's det and slogdet
    formulas build it: ``diag_embed(g.unsqueeze(-1).expand(..., n)).mT``."""
    column = f.unsqueeze(g, -1)
    return f.transpose(_diag_embed(f.expand(column, column.shape[:-1] + (n,))), -2, -1)


def _adjugate_t(a: Any, d: Any, g: Any) -> Any:
    """``g adj(A)ᵀ`` from the SVD ``A = U diag(S) Vh`` (det A = det U det Vh ∏ S,
    whose product rule needs no inverse): ``g det U det Vh U diag(∏_{j≠i} s_j)
    Vh``, the gradient of det at a singular matrix (PyTorch's formula; ``d``,
    the regular formula's right side, is not needed)."""
    u, s, vh = LinalgSvd.apply(a, True)
    alpha = LinalgDet.apply(u) * LinalgDet.apply(vh) * g
    others = _products_of_the_others(s)
    return (u * f.unsqueeze(f.unsqueeze(alpha, -1) * others, -2)) @ vh


def _products_of_the_others(s: Any) -> Any:
    """For each s_i, ∏_{j≠i} s_j with no division (zeros allowed): the product
    of those before it times the product of those after it, by cumprod."""
    ones = f.constant(np.ones(tuple(s.shape[:-1]) + (1,), f.data(s).dtype), s)
    d, k = s.ndim - 1, s.shape[-1]  # (the last dim, counted from the front)
    before = f.cumprod(f.cat([ones, f.narrow(s, d, 0, k - 1)], d), d)
    after = f.cat([ones, f.flip(f.narrow(s, d, 1, k - 1), (d,))], d)
    return before * f.flip(f.cumprod(after, d), (d,))


def _solve_t(a: Any, d: Any, g: Any) -> Any:
    """``A⁻ᵀ d`` (a regular matrix: det's gradient ``g det A⁻ᵀ``)."""
    return LinalgSolveEx.apply(f.transpose(a, -2, -1), d)


def _where_mask(mask: np.ndarray, if_true: Any, if_false: Any, *xs: Any) -> Any:
    """``if_true(*xs)`` for the matrices where ``mask`` holds, ``if_false(*xs)``
    for the others, each run on its part of the batch only (PyTorch's
    masked_fmap: ``out[mask] = ...`` into an empty tensor when the batch mixes)."""
    if mask.all():
        return if_true(*xs)
    if not mask.any():
        return if_false(*xs)
    first = xs[0]
    m = f.constant(mask, first)
    out = f.constant(np.empty_like(f.data(first)), first)
    out[m] = if_true(*(x[m] for x in xs))
    out[~m] = if_false(*(x[~m] for x in xs))
    return out


class LinalgDet(Op):
    """d det(A) = g det(A) A⁻ᵀ (g adj(A)ᵀ where A is singular)"""

    node_name, saved = "LinalgDetBackward0", ("A", "LU", "pivots", "result")

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        x = a._data
        _square("det", x)
        lu, piv, ctx.lu_of_transpose = _lu_of_det(x)
        out = np.asarray(_det_of_lu(lu, piv), x.dtype)
        ctx.save_for_backward(a, constant(lu), constant(piv), out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, lu, piv, result = ctx.saved_tensors
        x = f.data(a)
        if x.size == 0:  # (no formula runs: zeros, as PyTorch's engine fills in)
            return (f.zeros(x.shape, g),)
        d = _scaled_identity(g * result, x.shape[-1])
        eps = np.finfo(x.dtype).eps
        if isinstance(g, f.ndarray):
            # PyTorch solves with the saved LU, each zero pivot made eps (det
            # is C¹); where det is 0 this gives 0, not the adjugate
            lu = f.data(lu)
            diag = np.diagonal(lu, axis1=-2, axis2=-1)
            lu = lu + _diag_embed(np.where(diag == 0, eps, 0).astype(x.dtype))
            return (lu_solve(lu, f.data(piv), d, not ctx.lu_of_transpose),)
        # differentiable further: A⁻ᵀ by a solve, or where det is about 0
        # (|det| < 100 eps) the adjugate through the SVD
        near_singular = np.abs(f.data(result)) < 100 * eps
        return (_where_mask(near_singular, _adjugate_t, _solve_t, a, d, g),)


class LinalgSlogdet(Op):
    """d log|det(A)| = g A⁻ᵀ (the sign has no gradient)"""

    node_name, saved = "LinalgSlogdetBackward0", ("A", "LU", "pivots", "sign")

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> tuple:
        x = a._data
        _square("slogdet", x)
        lu, piv, ctx.lu_of_transpose = _lu_of_det(x)
        # the permutation's sign times the diagonal's signs (-0. when singular)
        sign = np.asarray(_det_of_lu(np.sign(lu), piv), x.dtype)
        with np.errstate(divide="ignore"):
            diag = np.abs(np.diagonal(lu, axis1=-2, axis2=-1))
            logabs = np.asarray(np.log(diag).sum(-1), x.dtype)
        ctx.save_for_backward(a, constant(lu), constant(piv), sign)
        ctx.set_materialize_grads(False)  # (only the sign used: no gradient)
        return sign, logabs

    @staticmethod
    def backward(ctx: Ctx, g_sign: Grad, g: Grad) -> tuple:
        a, lu, piv, _ = ctx.saved_tensors
        if g is None:
            return (None,)
        d = _scaled_identity(g, f.data(a).shape[-1])
        if isinstance(g, f.ndarray):  # a singular matrix: PyTorch's inf and nan
            return (lu_solve(f.data(lu), f.data(piv), d, not ctx.lu_of_transpose),)
        # differentiable further: a solve, which refuses a singular matrix
        return (LinalgSolveEx.apply(f.transpose(a, -2, -1), d),)


class LinalgInvEx(Op):
    """d A⁻¹ = -A⁻ᵀ g A⁻ᵀ"""

    node_name, saved = "LinalgInvExBackward0", ("inverse",)

    @staticmethod
    def forward(ctx: Ctx, a: Any) -> Any:
        x = a._data
        _square("inv", x)
        out = _inverse(x)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        (inv,) = ctx.saved_tensors
        # (two transposes, as PyTorch's formula records them)
        return (-(f.transpose(inv, -2, -1) @ (g @ f.transpose(inv, -2, -1))),)


def _vector_rhs(x: np.ndarray, b: np.ndarray) -> bool:
    """B is a vector (or a batch of them) when it has one dim less than A and
    matches A's batch and size: PyTorch's rule for ``solve``."""
    return b.ndim == 1 or (b.ndim == x.ndim - 1 and b.shape == x.shape[:-1])


class LinalgSolveEx(Op):
    """d X = A⁻¹B: (gB = A⁻ᵀ g, -gB Xᵀ; gB)"""

    node_name = "LinalgSolveExBackward0"
    saved = ("A", "LU", "pivots", "result")
    saved_attrs = ("left",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any) -> Any:
        x, y = a._data, b._data
        _square("solve", x)
        if y.dtype != x.dtype:
            raise RuntimeError(
                "linalg.solve: Expected A and B to have the same dtype, but found A "
                f"of type {dtype_name(x)} and B of type {dtype_name(y)} instead"
            )
        ctx.vector = _vector_rhs(x, y)
        rhs = y[..., None] if ctx.vector else y
        if rhs.shape[-2] != x.shape[-1]:
            raise RuntimeError(
                "linalg.solve: Incompatible shapes of A and B for the equation AX = "
                f"B ({x.shape[-2]}x{x.shape[-1]} and {rhs.shape[-2]}x{rhs.shape[-1]})"
            )
        lu, piv = lu_factor(x)
        zero = (np.diagonal(lu, axis1=-2, axis2=-1) == 0).any(-1)
        _singular(
            "minigrad.linalg.solve",
            zero,
            lambda i: "The solver failed because the input matrix is singular.",
        )
        # solved with the LU it saves, as PyTorch's is (the same rounding: det's
        # gradient near a singular matrix depends on it)
        out = lu_solve(lu, piv, rhs, adjoint=False)
        if ctx.vector:
            out = out[..., 0]
        # column by column, as LAPACK writes it (a batch of vectors too)
        out = _column_major(out) if out.ndim > 1 else out
        ctx.left = True
        ctx.save_for_backward(a, constant(lu), constant(piv), out)
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        a, lu, piv, result = ctx.saved_tensors
        need_a, _ = ctx.needs_input_grad
        if ctx.vector:  # a vector B as a one-column matrix, as PyTorch's formula
            g, result = f.unsqueeze(g, -1), f.unsqueeze(result, -1)
        if isinstance(g, f.ndarray):  # A⁻ᵀ g with the saved LU, as PyTorch's
            gb = lu_solve(f.data(lu), f.data(piv), g, adjoint=True)
        else:
            gb = LinalgSolveEx.apply(f.transpose(a, -2, -1), g)
        ga = -(gb @ f.transpose(result, -2, -1)) if need_a else None
        return ga, f.squeeze_dim(gb, -1) if ctx.vector else gb


class LinalgCross(Op):
    """d (a × b) = (b × g, g × a)"""

    node_name, saved = "LinalgCrossBackward0", ("other", "self")
    saved_attrs = ("dim",)

    @staticmethod
    def forward(ctx: Ctx, a: Any, b: Any, dim: int) -> Any:
        x, y = a._data, b._data
        if x.ndim != y.ndim:
            raise RuntimeError(
                "linalg.cross: inputs must have the same number of dimensions."
            )
        if x.dtype != y.dtype:
            raise RuntimeError(
                f"expected scalar type {dtype_name(x)} but found {dtype_name(y)}"
            )
        shape = broadcast_shape(x.shape, y.shape)
        (d,) = normalize_dims(dim, len(shape))
        if shape[d] != 3 or x.shape[d - len(shape)] != 3:
            raise RuntimeError(
                f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                f"{x.shape[dim]} and {y.shape[dim]}"
            )
        # (the gradients are crosses along dim as given, as PyTorch records them)
        ctx.dim, ctx.given_dim = f.u64(dim), dim
        ctx.save_for_backward(b, a)
        xs, ys = np.broadcast_to(x, shape), np.broadcast_to(y, shape)
        return np.ascontiguousarray(np.cross(xs, ys, axis=d))

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        b, a = ctx.saved_tensors
        need_a, need_b, _ = ctx.needs_input_grad
        ga = cross(b, g, ctx.given_dim) if need_a else None
        gb = cross(g, a, ctx.given_dim) if need_b else None
        return ga, gb, None


def cross(a: Any, b: Any, d: int) -> Any:
    if isinstance(a, f.ndarray) and isinstance(b, f.ndarray):
        shape = np.broadcast_shapes(a.shape, b.shape)
        return np.cross(np.broadcast_to(a, shape), np.broadcast_to(b, shape), axis=d)
    wrap = [constant(v) if isinstance(v, f.ndarray) else v for v in (a, b)]
    return LinalgCross.apply(*wrap, d)


class LinalgSvd(Op):
    """d A = U (skew(UᵀgU) S / E + S skew(VᵀgV) / E + diag(gS)) Vᵀ, E_ij = s_j² - s_i²,
    plus (I - UUᵀ) gU S⁻¹ or S⁻¹ gVᵀ (I - VVᵀ) for the rows or columns beyond k"""

    node_name, saved = "LinalgSvdBackward0", ("S", "U", "Vh")
    saved_attrs = ("S_sym_argsize_minus_1", "full_matrices")

    @staticmethod
    def forward(ctx: Ctx, a: Any, full_matrices: bool) -> tuple:
        x = a._data
        if x.ndim < 2:
            raise RuntimeError(
                "linalg.svd: The input tensor A must have at least 2 dimensions."
            )
        if x.dtype.kind != "f":
            legacy = from_numpy_dtype(x.dtype)._legacy.replace("Tensor", "")
            raise RuntimeError(
                "linalg.svd: Expected a floating point or complex tensor as input. "
                f"Got {legacy}"
            )
        u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
        u, vh = _column_major(u.astype(x.dtype)), _column_major(vh.astype(x.dtype))
        s = np.ascontiguousarray(s, x.dtype)
        ctx.full_matrices, ctx.S_sym_argsize_minus_1 = full_matrices, s.shape[-1]
        ctx.save_for_backward(s, u, vh)
        ctx.set_materialize_grads(False)  # (svdvals: no U or Vh gradient)
        return u, s, vh

    @staticmethod
    def backward(ctx: Ctx, g_u: Grad, g_s: Grad, g_vh: Grad) -> tuple:
        s, u, vh = ctx.saved_tensors
        k = ctx.S_sym_argsize_minus_1
        if ctx.full_matrices:  # only the first k singular vectors matter
            u, vh = _first(u, -1, k), _first(vh, -2, k)
            g_u = None if g_u is None else _first(g_u, -1, k)
            g_vh = None if g_vh is None else _first(g_vh, -2, k)
        m, n = u.shape[-2], vh.shape[-1]
        if g_u is None and g_vh is None:
            if g_s is None:
                return None, None
            if m >= n:  # (svdvals: U diag(gS) Vh)
                return u @ (f.unsqueeze(g_s, -1) * vh), None
            return (u * f.unsqueeze(g_s, -2)) @ vh, None
        s2 = s * s
        # E_ij = s_j² - s_i², 1 on the diagonal (where skew(...) is 0)
        e = _fill_diagonal(f.unsqueeze(s2, -2) - f.unsqueeze(s2, -1), 1)
        if g_u is not None:
            uhgu = _skew(f.transpose(u, -2, -1) @ g_u)
        if g_vh is not None:
            vhgv = _skew(vh @ f.transpose(g_vh, -2, -1))
        if g_u is not None and g_vh is not None:
            ret = (uhgu * f.unsqueeze(s, -2) + f.unsqueeze(s, -1) * vhgv) / e
        elif g_u is not None:
            ret = (uhgu / e) * f.unsqueeze(s, -2)
        else:
            ret = f.unsqueeze(s, -1) * (vhgv / e)
        if g_s is not None:
            ret = ret + _diag_embed(g_s)
        if m > n and g_u is not None:
            g_u_sinv = g_u / f.unsqueeze(s, -2)
            ret = u @ ret + g_u_sinv - u @ (f.transpose(u, -2, -1) @ g_u_sinv)
            return ret @ vh, None
        if m < n and g_vh is not None:
            sinv_g_vh = g_vh / f.unsqueeze(s, -1)
            ret = ret @ vh + sinv_g_vh - (sinv_g_vh @ f.transpose(vh, -2, -1)) @ vh
            return u @ ret, None
        return (u @ (ret @ vh) if m >= n else (u @ ret) @ vh), None


def _first(x: Any, dim: int, k: int) -> Any:
    """The first ``k`` columns (``dim`` -1) or rows (-2) of each matrix
    (``narrow(dim, 0, k)`` on Tensors: SliceBackward0 with PyTorch's dim)."""
    if isinstance(x, f.ndarray):
        return x[..., :k] if dim == -1 else x[..., :k, :]
    return x.narrow(dim, 0, k)


def _skew(x: Any) -> Any:
    return x - f.transpose(x, -2, -1)


def _fill_diagonal(x: Any, value: float) -> Any:
    """``x`` with ``value`` on the diagonal of each matrix, written in place
    (on Tensors ``x.diagonal(0, -2, -1).fill_(value)``: CopySlices, as PyTorch's
    formula records it)."""
    if isinstance(x, f.ndarray):
        i = np.arange(x.shape[-1])
        x[..., i, i] = value
    else:
        x.diagonal(0, -2, -1).fill_(value)
    return x


def _diag_embed(v: Any) -> Any:
    """Each vector of ``v`` as the diagonal of a square matrix."""
    if isinstance(v, f.ndarray):
        return v[..., :, None] * np.eye(v.shape[-1], dtype=v.dtype)
    return v.diag_embed()


def singular_value_norm(a: Any, ord: Any, d0: int, d1: int, keepdim: bool) -> Any:
    """The sum ("nuc"), max (2) or min (-2) of the singular values of the
    matrices in dims d0 and d1, recorded as PyTorch records it: those dims
    permuted last (always), svdvals, the reduction, with keepdim the dims put
    back."""
    perm = [d for d in range(a.dim()) if d not in (d0, d1)] + [d0, d1]
    s = LinalgSvd.apply(a.permute(*perm), False)[1]
    if ord == "nuc":
        out = s.sum(-1, keepdim=keepdim)
    else:
        out = (s.amax if ord == 2 else s.amin)(-1, keepdim=keepdim)
    if not keepdim:
        return out
    back = [0] * len(perm)
    for i, d in enumerate(perm):
        back[d] = i
    return out.unsqueeze(-1).permute(*back)
