"""Matrix linear algebra (ops/linalg_decomp.py, ``minigrad.linalg``): det,
slogdet, inv, solve, svd, svdvals, cross, and the norms of ``minigrad.linalg``
(the nuclear and ±2 norms through svdvals); the
saved LU factors and pivots, errors in PyTorch's words, ``import torch.linalg``
through minigrad's import finder.

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from op_harness import (
    _numpy,
    check_gradcheck,
    compare_graphs,
    describe,
    differential,
    make,
    same_error,
    second_order,
    torch,
)

import minigrad

# well-conditioned matrices (a pivot in every column of the LU)
_A = np.array([[2.0, 1.0, 0.0], [4.0, 3.0, 1.0], [0.0, 1.0, 5.0]])
_BATCH = np.stack([_A, _A.T[::-1] + np.eye(3)])

_STRIDED = np.random.default_rng(3).standard_normal((5, 5)) + 3 * np.eye(5)

_TALL = np.array([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]])
_TALL_BATCH = np.stack([_TALL, _TALL[::-1] * 2 + 0.5])
_WIDE_3X4 = np.random.default_rng(4).standard_normal((3, 4))


def _svd_invariant(r: Any) -> Any:
    """What does not depend on the singular vectors' signs: U diag(S) Vh (the
    first k vectors) and the squares of U's and Vh's entries."""
    k = r.S.shape[-1]
    u, vh = r.U[..., :, :k], r.Vh[..., :k, :]
    return (
        (u * r.S.unsqueeze(-2)) @ vh
        + (u**2).sum(-1, keepdim=True)
        + (vh**2)[..., :1, :]
    )


DECOMP: dict[str, tuple[Any, list]] = {
    "det": (lambda T, a: T.linalg.det(a), [_A]),
    "det_transposed": (lambda T, a: T.det(a.t()), [_A]),
    "det_batch": (lambda T, a: a.det(), [_BATCH]),
    # LU of Aᵀ for a row-major A, else of A (a transposed batch, a strided view)
    "det_batch_transposed": (lambda T, a: a.mT.det(), [_BATCH]),
    "det_strided": (lambda T, a: T.linalg.det(a[::2, ::2]), [_STRIDED]),
    "slogdet_transposed": (lambda T, a: T.linalg.slogdet(a.t()).logabsdet, [_A]),
    "slogdet": (lambda T, a: T.linalg.slogdet(a).logabsdet, [_A]),
    "slogdet_negative": (lambda T, a: T.linalg.slogdet(a)[1], [_A[::-1].copy()]),
    "logdet": (lambda T, a: T.logdet(a), [_A]),
    "inv": (lambda T, a: T.linalg.inv(a), [_A]),
    "inverse_batch": (lambda T, a: T.inverse(a), [_BATCH]),
    "solve_matrix": (lambda T, a, b: T.linalg.solve(a, b), [_A, np.ones((3, 2))]),
    "solve_vector": (
        lambda T, a, b: T.linalg.solve(a, b),
        [_A, np.array([1.0, -2.0, 0.5])],
    ),
    "solve_batch": (lambda T, a, b: T.linalg.solve(a, b), [_BATCH, np.ones((2, 3))]),
    "cross": (
        lambda T, a, b: T.linalg.cross(a, b),
        [_A, np.array([[0.5, -1.0, 2.0]])],
    ),
    "cross_dim0": (lambda T, a, b: T.linalg.cross(a, b, dim=0), [_A, _A[::-1].copy()]),
    "norm": (lambda T, a: T.linalg.norm(a), [_A]),
    "norm_vector3": (lambda T, a: T.linalg.norm(a[0] + 0.5, 3), [_A]),
    "norm_dim": (lambda T, a: T.linalg.norm(a, dim=1), [_A]),
    "norm_fro": (lambda T, a: T.linalg.norm(a, "fro"), [_A]),
    "matrix_norm_1": (lambda T, a: T.linalg.matrix_norm(a - 0.3, 1), [_A]),
    "matrix_norm_m1": (lambda T, a: T.linalg.norm(a - 0.3, -1), [_A]),
    "matrix_norm_inf": (lambda T, a: T.linalg.matrix_norm(a - 0.3, float("inf")), [_A]),
    "matrix_norm_minf_keepdim": (
        lambda T, a: T.linalg.matrix_norm(a - 0.3, -float("inf"), keepdim=True),
        [_BATCH],
    ),
    "vector_norm": (lambda T, a: T.linalg.vector_norm(a - 0.3, 1, (0, 1)), [_A]),
    "vector_norm_half": (lambda T, a: T.linalg.vector_norm(a + 0.5, 0.5, 1), [_A]),
    "vector_norm_1_5_keepdim": (
        lambda T, a: T.linalg.vector_norm(a - 0.3, 1.5, 0, True),
        [_A],
    ),
    "vector_norm_minus1": (lambda T, a: T.linalg.vector_norm(a + 0.5, -1), [_A]),
}


# singular values and vectors (distinct values, so the gradients are defined)
SVD: dict[str, tuple[Any, list]] = {
    "svdvals_tall": (lambda T, a: T.linalg.svdvals(a), [_TALL]),
    "svdvals_wide_batch": (lambda T, a: T.linalg.svdvals(a.mT), [_TALL_BATCH]),
    "svd_reduced": (lambda T, a: _svd_invariant(T.linalg.svd(a, False)), [_TALL]),
    "svd_full_wide": (lambda T, a: _svd_invariant(T.linalg.svd(a.t())), [_TALL]),
    "svd_square_batch": (lambda T, a: _svd_invariant(T.linalg.svd(a)), [_BATCH]),
    "svd_vectors_only": (
        lambda T, a: (T.linalg.svd(a, False).U ** 2).sum(0),
        [_TALL],
    ),
    "matrix_norm_nuc": (lambda T, a: T.linalg.matrix_norm(a, "nuc"), [_TALL]),
    "matrix_norm_2": (lambda T, a: T.linalg.matrix_norm(a, 2), [_A]),
    "matrix_norm_m2_keepdim": (
        lambda T, a: T.linalg.matrix_norm(a, -2, dim=(2, 0), keepdim=True),
        [_TALL_BATCH],
    ),
    "norm_nuc_dims": (lambda T, a: T.linalg.norm(a, "nuc", dim=(0, 2)), [_TALL_BATCH]),
    "norm_2": (lambda T, a: T.linalg.norm(a, 2), [_TALL]),
    "tensor_norm_nuc": (lambda T, a: a.norm(p="nuc"), [_TALL]),
    "svd_wide_direct": (lambda T, a: _svd_invariant(T.linalg.svd(a)), [_WIDE_3X4]),
}
# PyTorch's LAPACK (MKL) and numpy's pick other signs for the singular vectors
# of a wide matrix whose gesdd factors it first (n >= 11m/6 columns, as 2 x 3):
# compared through what does not depend on them. A 3 x 4 matrix is
# bidiagonalized directly, where the signs agree (README: how often)
_WIDE = {"svdvals_wide_batch", "svd_full_wide"}
# the whole create_graph gradient as PyTorch records it (in the others, nodes
# of other ops' formulas differ: sum(-1)'s unsqueeze dim, a batched matmul's)
_GRAPH_OF_GRADIENT = {
    "matrix_norm_2",
    "norm_2",
    "svd_vectors_only",
    "svdvals_tall",
}


@pytest.mark.parametrize("name", sorted(SVD))
def test_svd_ops(name: str) -> None:
    """Values, gradients (gradcheck, to second order) and, but for the signs of
    a wide matrix's singular vectors, nodes and saved U, S, Vh as PyTorch's;
    float32 values only (the two LAPACKs' float32 kernels round apart)."""
    fn, arrs = SVD[name]
    check_gradcheck(fn, *arrs)
    differential(fn, arrs, check_graph=name not in _WIDE)
    differential(fn, arrs, np.float32, check_graph=False)
    second_order(lambda T, *xs: fn(T, *xs) ** 2, arrs)


@pytest.mark.parametrize("name", sorted(_GRAPH_OF_GRADIENT))
def test_svd_gradient_graphs(name: str) -> None:
    """svd's formula under create_graph records PyTorch's nodes: the svdvals
    shortcut when no singular vector has a gradient (an unused output gets
    none, not zeros), TransposeBackward0 for each mH, E's diagonal filled in
    place (CopySlices)."""
    fn, arrs = SVD[name]
    xs_mg, gs_mg = _gradient_graph(minigrad, fn, arrs)
    xs_th, gs_th = _gradient_graph(torch, fn, arrs)
    for g_mg, g_th in zip(gs_mg, gs_th):
        compare_graphs(g_mg, g_th, xs_mg, xs_th)
        np.testing.assert_allclose(_numpy(g_mg), _numpy(g_th), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(DECOMP))
def test_linalg_ops(name: str) -> None:
    """Values, gradients, nodes and saved tensors (det's LU is of the matrix as
    LAPACK reads its memory, pivots 1-based int32) as PyTorch's, to second
    order."""
    fn, arrs = DECOMP[name]
    check_gradcheck(fn, *arrs)
    differential(fn, arrs)
    differential(fn, arrs, np.float32)
    second_order(lambda T, *xs: fn(T, *xs) ** 2, arrs)


def _gradient_graph(lib: Any, fn: Any, arrs: list) -> tuple:
    """The create_graph gradient of ``fn`` for a random upstream gradient that
    requires grad itself (so every edge of the formula is live)."""
    xs = [make(lib, a, np.float64, True) for a in arrs]
    y = fn(lib, *xs)
    v = make(
        lib, np.random.default_rng(0).standard_normal(tuple(y.shape)), np.float64, True
    )
    gs = lib.autograd.grad(y, xs, v, create_graph=True)
    return xs + [v], gs


@pytest.mark.parametrize("name", sorted(DECOMP))
def test_gradient_graphs(name: str) -> None:
    """Under create_graph each formula records PyTorch's nodes: det and slogdet
    solve with Aᵀ (LinalgSolveExBackward0 of a TransposeBackward0) for the
    scaled identity PyTorch builds (diag_embed of an expand), inv and solve
    transpose as PyTorch's formulas do (TransposeBackward0, a vector B as a
    column), a p-norm masks its zeros (MaskedFillBackward0)."""
    fn, arrs = DECOMP[name]
    xs_mg, gs_mg = _gradient_graph(minigrad, fn, arrs)
    xs_th, gs_th = _gradient_graph(torch, fn, arrs)
    for g_mg, g_th in zip(gs_mg, gs_th):
        compare_graphs(g_mg, g_th, xs_mg, xs_th)
        np.testing.assert_allclose(_numpy(g_mg), _numpy(g_th), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("p", [3, 1.5, 0.5, -1, 4.0, -0.5])
@pytest.mark.parametrize("dim", [None, 1])
def test_p_norm_at_zeros(p: float, dim: Any) -> None:
    """A p-norm's gradient is 0 at a zero element and where the norm is 0 (not
    nan), to second order, with PyTorch's nodes."""
    x = np.array([[0.5, -1.0, 2.0], [0.0, 1.5, -0.3], [0.0, 0.0, 0.0]])

    def fn(T: Any, a: Any) -> Any:
        return T.linalg.vector_norm(a, p, dim)

    differential(fn, [x])
    xs_mg, (g_mg,) = _gradient_graph(minigrad, fn, [x])
    xs_th, (g_th,) = _gradient_graph(torch, fn, [x])
    compare_graphs(g_mg, g_th, xs_mg, xs_th)
    np.testing.assert_allclose(_numpy(g_mg), _numpy(g_th), rtol=1e-10, atol=1e-12)
    w = np.arange(9.0).reshape(3, 3)
    second = []
    for xs, g, lib in ((xs_mg, g_mg, minigrad), (xs_th, g_th, torch)):
        second.append(
            [_numpy(t) for t in lib.autograd.grad((g * lib.tensor(w)).sum(), xs)]
        )
    for m, t in zip(*second):
        np.testing.assert_allclose(m, t, rtol=1e-9, atol=1e-12)


# singular matrices: rank n-1 (the adjugate is not 0), lower rank, and batches
# mixing them with regular ones (PyTorch's formula takes each part its way)
_SINGULAR = {
    "rank1_2x2": np.array([[1.0, 2.0], [2.0, 4.0]]),
    "rank2_3x3": np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]),
    "rank2_rows": np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]]),
    "zeros": np.zeros((3, 3)),
    "mixed_batch": np.stack([_A[:2, :2], [[1.0, 2.0], [2.0, 4.0]]]),
    "singular_batch": np.stack([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 1.0], [0.0, 0.0]]]),
    "mixed_batch3": np.stack(
        [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], _A, _A[[0, 0, 2]]]
    ),
}


# numpy's LAPACK and PyTorch's pick another sign for a singular vector of one
# of these matrices: the saved U and Vh differ, nothing computed from them
_OTHER_SIGNS = {"mixed_batch3"}


@pytest.mark.parametrize("name", sorted(_SINGULAR))
def test_det_create_graph_at_a_singular_matrix(name: str) -> None:
    """Where |det| < 100 eps PyTorch's differentiable formula is the adjugate
    through the SVD (det U det Vh U diag(∏_{j≠i} s_j) Vh: LinalgSvdBackward0,
    two LinalgDetBackward0, cumprods), each part of a batch its way (IndexPut
    into an empty tensor): the same graph, values, second derivatives and
    gradgradcheck as PyTorch's (the first-order gradient there is 0 in both)."""
    a = _SINGULAR[name]

    def fn(T: Any, x: Any) -> Any:
        return T.linalg.det(x)

    differential(fn, [a])
    xs_mg, (g_mg,) = _gradient_graph(minigrad, fn, [a])
    xs_th, (g_th,) = _gradient_graph(torch, fn, [a])
    if name in _OTHER_SIGNS:
        assert describe(g_mg.grad_fn, xs_mg) == describe(g_th.grad_fn, xs_th)
    else:
        compare_graphs(g_mg, g_th, xs_mg, xs_th)
    np.testing.assert_allclose(_numpy(g_mg), _numpy(g_th), rtol=1e-10, atol=1e-12)
    second_order(fn, [a])
    # gradgradcheck passes where the SVD's gradient is defined (distinct
    # singular values); at the zero matrix it fails in both
    verdicts = [
        lib.autograd.gradgradcheck(
            lib.linalg.det, (make(lib, a, np.float64, True),), raise_exception=False
        )
        for lib in (minigrad, torch)
    ]
    assert verdicts == [name != "zeros"] * 2


@pytest.mark.parametrize("name", sorted(_SINGULAR))
@pytest.mark.parametrize("view", ["row_major", "transposed"])
@pytest.mark.parametrize("op", ["slogdet", "logdet"])
def test_slogdet_at_a_singular_matrix(name: str, view: str, op: str) -> None:
    """log|det| is -inf; its first-order gradient is what PyTorch's lu_solve
    with the saved LU gives (inf and nan where the zero pivot divides, their
    places set by which LU was saved), and under create_graph the solve
    refuses the matrix with linalg.solve's error, as PyTorch's does."""
    a = _SINGULAR[name]

    def fn(T: Any, x: Any) -> Any:
        x = x if view == "row_major" else x.mT.contiguous().mT
        return T.linalg.slogdet(x).logabsdet if op == "slogdet" else T.logdet(x)

    grads, errors = [], []
    for lib in (minigrad, torch):
        x = make(lib, a, np.float64, True)
        y = fn(lib, x)
        y.sum().backward()
        grads.append((_numpy(y), _numpy(x.grad)))
        x = make(lib, a, np.float64, True)
        with pytest.raises(Exception) as info:
            lib.autograd.grad(fn(lib, x).sum(), x, create_graph=True)
        errors.append(info.value)
    for m, t in zip(*grads):  # (inf and nan in the same places)
        np.testing.assert_allclose(m, t, rtol=1e-12, atol=1e-15)
    mine, theirs = errors
    assert type(mine).__name__ == type(theirs).__name__
    assert str(mine) == str(theirs).replace("torch", "minigrad")


def test_det_and_slogdet_of_empty_matrices() -> None:
    """det of a 0 x 0 matrix is 1, log|det| 0, and the gradients are empty."""
    for fn in (lambda T, a: T.linalg.det(a), lambda T, a: T.linalg.slogdet(a)[1]):
        differential(fn, [np.zeros((2, 0, 0))])


def test_logdet_of_a_negative_det_is_nan() -> None:
    """nan where det < 0; the where's gradient (zero there) is PyTorch's."""
    differential(lambda T, a: a.logdet(), [_A[::-1].copy()])
    differential(lambda T, a: T.logdet(a), [np.stack([_A[::-1], _A])])


@pytest.mark.parametrize(
    "matrix",
    [
        [[1.0, 2.0], [2.0, 4.0]],
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]],
        [[0.0, 0.0], [0.0, 0.0]],
    ],
)
def test_det_of_a_singular_matrix(matrix: list) -> None:
    """det is 0 and its first-order gradient is 0, as PyTorch gives them."""
    differential(lambda T, a: T.linalg.det(a), [np.array(matrix)])
    differential(
        lambda T, a: a.det(), [np.stack([np.array(matrix), np.eye(len(matrix))])]
    )


def test_outputs_without_a_gradient_send_none() -> None:
    """slogdet's sign alone, or svd's S alone, gives the other outputs no
    gradient (not zeros): PyTorch's slogdet formula then returns none, so the
    leaf keeps ``.grad`` None and ``autograd.grad`` calls it unused."""
    seen = []
    for lib in (minigrad, torch):
        x = make(lib, _A, np.float64, True)
        lib.linalg.slogdet(x).sign.sum().backward()
        (unused,) = lib.autograd.grad(
            lib.linalg.slogdet(x).sign.sum(), x, allow_unused=True
        )
        with pytest.raises(RuntimeError) as info:
            lib.autograd.grad(lib.linalg.slogdet(x).sign.sum(), x)
        seen.append((x.grad, unused, str(info.value)))
    assert seen[0] == seen[1] == (None, None, seen[1][2])


def test_slogdet_sign_and_return_type() -> None:
    seen = []
    for lib in (minigrad, torch):
        r = lib.linalg.slogdet(lib.tensor(_A[::-1].copy(), requires_grad=True))
        assert r.sign.requires_grad and r.sign.grad_fn is r.logabsdet.grad_fn
        seen.append(repr(r).replace("torch", "minigrad").split("grad_fn")[0])
        seen.append(repr(lib.linalg.slogdet(lib.tensor([[1.0, 2.0], [2.0, 4.0]]))))
    assert seen[:2] == [s.replace("torch", "minigrad") for s in seen[2:]]


@pytest.mark.parametrize(
    "fn",
    [
        lambda T, a: T.linalg.det(a[0]),
        lambda T, a: T.linalg.det(a[:2]),
        lambda T, a: T.linalg.inv(a.long()),
        lambda T, a: T.linalg.inv(a[:2]),
        lambda T, a: T.linalg.inv(a * 0),
        lambda T, a: T.linalg.inv(T.stack([a, a * 0])),
        lambda T, a: T.linalg.inv(a[:, [0, 0, 1]]),
        lambda T, a: T.linalg.solve(a, a[:2]),
        lambda T, a: T.linalg.solve(a * 0, a[0]),
        lambda T, a: T.linalg.solve(T.stack([a, a * 0]), a[:, :1].expand(2, 3, 1)),
        lambda T, a: T.linalg.solve(a, a.double()),
        lambda T, a: T.linalg.cross(a[:, :2], a[:, :2]),
        lambda T, a: T.linalg.cross(a, a[0]),
        lambda T, a: T.linalg.cross(a[:2], a.double()[:2]),
        lambda T, a: T.linalg.matrix_norm(a[0]),
        lambda T, a: T.linalg.matrix_norm(a, 3),
        lambda T, a: T.linalg.svd(a[0]),
        lambda T, a: T.linalg.svdvals(a.long()),
        lambda T, a: T.linalg.norm(T.stack([a, a]), "nuc"),
        lambda T, a: T.linalg.vector_norm(a.long()),
    ],
)
def test_linalg_errors(fn: Any) -> None:
    same_error(fn, _A)


def test_import_torch_linalg_through_the_finder() -> None:
    """``import torch.linalg`` and ``from torch.linalg import det`` give
    minigrad's module once minigrad stands in for torch."""
    code = (
        "import warnings; warnings.simplefilter('ignore')\n"
        "import minigrad; minigrad.as_torch()\n"
        "import torch.linalg\n"
        "from torch.linalg import det, LinAlgError\n"
        "assert torch.linalg is minigrad.linalg and det is minigrad.linalg.det\n"
        "try:\n"
        "    torch.linalg.inv(torch.zeros(2, 2))\n"
        "except LinAlgError as e:\n"
        "    print(type(e).__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "_LinAlgError"
