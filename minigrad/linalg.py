"""``minigrad.linalg`` (``torch.linalg``): norms of vectors and matrices, det,
slogdet, inv, solve, svd, svdvals and cross, recording PyTorch's nodes (the ops are in
``ops/linalg_decomp.py``; vector norms in ``ops/reduction.py``)."""

from __future__ import annotations

from typing import Any

from ._tensor import Tensor
from .ops import linalg_decomp as LD
from .ops import ordering as O
from .ops import reduction as R
from .ops._dims import normalize_dims

LinAlgError = LD._LinAlgError


def vector_norm(
    x: Tensor,
    ord: Any = 2,
    dim: Any = None,
    keepdim: bool = False,
    *,
    dtype: Any = None,
) -> Tensor:
    """``(Σ |x|^ord)^(1/ord)`` over ``dim`` (every dim by default)."""
    src = x if dtype is None else x.to(dtype)
    if isinstance(dim, int):
        dim = (dim,)
    elif isinstance(dim, list):
        dim = tuple(dim)
    return R.VectorNorm.apply(src, ord, dim, keepdim)


def matrix_norm(
    A: Tensor,  # noqa: N803 - PyTorch's name
    ord: Any = "fro",
    dim: tuple = (-2, -1),
    keepdim: bool = False,
    *,
    dtype: Any = None,
) -> Tensor:
    """The Frobenius norm, the induced 1- and inf-norms (±: the smallest), as
    PyTorch records them (a vector norm, then amax or amin), or the nuclear norm
    and the largest (2) or smallest (-2) singular value."""
    if A.dim() < 2:
        raise RuntimeError(
            "linalg.matrix_norm: The input tensor A must have at least 2 dimensions."
        )
    d0, d1 = normalize_dims(tuple(dim), A.dim())
    if ord == "fro":
        return vector_norm(A, 2, (d0, d1), keepdim, dtype=dtype)
    if ord in ("nuc", 2, -2):
        src = A if dtype is None else A.to(dtype)
        return LD.singular_value_norm(src, ord, d0, d1, keepdim)
    if isinstance(ord, str) or abs(ord) not in (1, float("inf")):
        shown = ord if isinstance(ord, str) else int(ord) if ord == int(ord) else ord
        raise RuntimeError(f"linalg.matrix_norm: Order {shown} not supported.")
    if abs(ord) == float("inf"):  # the 1-norm of the transpose
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:  # the first reduction shifts the second dim
        d1 -= 1
    sums = vector_norm(A, 1.0, d0, keepdim, dtype=dtype)
    pick = O.Amax if ord > 0 else O.Amin
    return pick.apply(sums, (d1,), keepdim)


def norm(
    A: Tensor,  # noqa: N803 - PyTorch's name
    ord: Any = None,
    dim: Any = None,
    keepdim: bool = False,
    *,
    dtype: Any = None,
) -> Tensor:
    """A vector norm, or a matrix norm when ``ord`` is a string, ``dim`` names
    two dims, or ``ord`` is given for a matrix (PyTorch's dispatch)."""
    two = dim is not None and not isinstance(dim, int) and len(dim) == 2
    if ord is not None and dim is None and A.dim() not in (1, 2):
        raise RuntimeError(
            "linalg.norm: If dim is not specified but ord is, the input must be 1D "
            f"or 2D. Got {A.dim()}D."
        )
    if (
        isinstance(ord, str)
        or two
        or (ord is not None and dim is None and A.dim() == 2)
    ):
        if ord is None:
            ord = "fro"
        return matrix_norm(A, ord, dim if two else (-2, -1), keepdim, dtype=dtype)
    return vector_norm(A, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype)


def det(A: Tensor) -> Tensor:  # noqa: N803
    """The determinant of each matrix (LinalgDetBackward0)."""
    return LD.LinalgDet.apply(A)


def slogdet(A: Tensor) -> Any:  # noqa: N803
    """The sign and the log of |det| of each matrix (LinalgSlogdetBackward0)."""
    return LD.SlogdetResult(*LD.LinalgSlogdet.apply(A))


def inv(A: Tensor) -> Tensor:  # noqa: N803
    """The inverse of each matrix (LinalgInvExBackward0)."""
    return LD.LinalgInvEx.apply(A)


def solve(A: Tensor, B: Tensor) -> Tensor:  # noqa: N803
    """X with ``A @ X = B`` (B a vector or a batch of matrices)."""
    return LD.LinalgSolveEx.apply(A, B)


def svd(A: Tensor, full_matrices: bool = True) -> Any:  # noqa: N803
    """``U, S, Vh`` with ``A = U diag(S) Vh`` (LinalgSvdBackward0); the signs of
    the singular vectors are LAPACK's, as PyTorch's on the CPU."""
    return LD.SvdResult(*LD.LinalgSvd.apply(A, full_matrices))


def svdvals(A: Tensor) -> Tensor:  # noqa: N803
    """The singular values, largest first (the same node as svd's)."""
    return LD.LinalgSvd.apply(A, False)[1]


def cross(input: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
    """The cross product of 3-vectors along ``dim``."""
    return LD.LinalgCross.apply(input, other, dim)
