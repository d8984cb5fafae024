"""Top-level functions PyTorch composes from other ops (ops/compose.py,
minigrad/_composites.py): values, dtypes, the graph's nodes, gradients and error
texts against PyTorch; float64 gradcheck for the differentiable ones."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from op_harness import check_gradcheck, differential, same_error, torch

import minigrad

RNG = np.random.default_rng(0)
A34, B23 = RNG.standard_normal((3, 4)), RNG.standard_normal((2, 3))
V5 = RNG.standard_normal(5)

GRAPH_CASES: dict[str, tuple] = {
    "diff": (lambda T, x: x.diff(), (A34,)),
    "diff_n2_dim0": (lambda T, x: T.diff(x, n=2, dim=0), (A34,)),
    "diff_prepend_append": (
        lambda T, x, p, q: T.diff(x, dim=1, prepend=p, append=q),
        (A34, B23.T[:, :1], RNG.standard_normal((3, 2))),
    ),
    "diff_n_past_size": (lambda T, x: T.diff(x, n=5), (A34,)),
    "kron_2d": (lambda T, a, b: T.kron(a, b), (A34, B23)),
    "kron_ranks": (lambda T, a, b: a.kron(b), (V5, B23)),
    "take_along_dim": (
        lambda T, x: T.take_along_dim(x, T.tensor([[0], [3], [2]]), 1),
        (A34,),
    ),
    "take_along_dim_broadcast": (
        lambda T, x: x.take_along_dim(T.tensor([[0, 2]]), dim=1),
        (A34,),
    ),
    "take_along_dim_flat": (
        lambda T, x: T.take_along_dim(x, T.tensor([1, 7, 11])),
        (A34,),
    ),
    "diagflat": (lambda T, x: T.diagflat(x), (B23,)),
    "diagflat_offset": (lambda T, x: T.diagflat(x, -1), (V5,)),
    "hsplit": (lambda T, x: T.hsplit(x, 2)[1], (A34,)),
    "hsplit_indices": (lambda T, x: T.hsplit(x, [1, 3])[2], (A34,)),
    "hsplit_vector": (lambda T, x: T.hsplit(x, [2])[0], (V5,)),
    "vsplit": (lambda T, x: T.vsplit(x, 3)[2], (A34,)),
    "dropout_eval": (lambda T, x: T.dropout(x, 0.5, False) * 2, (A34,)),
}


@pytest.mark.parametrize("name", sorted(GRAPH_CASES))
def test_composite_matches_pytorch(name: str) -> None:
    fn, arrs = GRAPH_CASES[name]
    differential(fn, arrs)
    differential(fn, arrs, dtype=np.float32)


@pytest.mark.parametrize(
    "name",
    [
        "diff",
        "diff_n2_dim0",
        "diff_prepend_append",
        "kron_2d",
        "kron_ranks",
        "take_along_dim_broadcast",
        "diagflat_offset",
    ],  # fmt: skip
)
def test_composite_gradcheck(name: str) -> None:
    fn, arrs = GRAPH_CASES[name]
    check_gradcheck(fn, *arrs)


def test_dropout_in_training_scales_kept_elements() -> None:
    x = minigrad.ones(1000, requires_grad=True)
    y = minigrad.dropout(x, 0.25, True)
    assert type(y.grad_fn).__name__ == "MulBackward0"
    kept = y.detach().numpy()
    assert set(np.unique(kept)) <= {0.0, np.float32(1 / 0.75)}
    assert 600 < np.count_nonzero(kept) < 900


ERROR_CASES: dict[str, tuple] = {
    "diff_0d": (lambda T, x: T.diff(x), (np.array(1.0),)),
    "diff_negative_n": (lambda T, x: x.diff(n=-1), (A34,)),
    "diff_bad_dim": (lambda T, x: x.diff(dim=2), (A34,)),
    "hsplit_0d": (lambda T, x: T.hsplit(x, 2), (np.array(1.0),)),
    "hsplit_uneven": (lambda T, x: T.hsplit(x, 3), (A34,)),
    "vsplit_1d": (lambda T, x: T.vsplit(x, 5), (V5,)),
    "vsplit_uneven": (lambda T, x: T.vsplit(x, 2), (A34,)),
    "take_along_dim_float_index": (
        lambda T, x: T.take_along_dim(x, T.tensor([[0.0]]), 1),
        (A34,),
    ),
    "kron_number": (lambda T, x: T.kron(x, 2), (A34,)),
}


@pytest.mark.parametrize("name", sorted(ERROR_CASES))
def test_composite_errors_match_pytorch(name: str) -> None:
    fn, arrs = ERROR_CASES[name]
    same_error(fn, *arrs)


def _same(mine: Any, theirs: Any) -> None:
    assert str(mine.dtype).replace("minigrad", "torch") == str(theirs.dtype)
    assert mine.tolist() == theirs.tolist()


@pytest.mark.parametrize(
    "call",
    [
        lambda T: T.tril_indices(3, 3),
        lambda T: T.tril_indices(4, 3, -1),
        lambda T: T.triu_indices(3, 4, 1),
        lambda T: T.triu_indices(4, 2, -1, dtype=T.int32),
        lambda T: T.bincount(T.tensor([1, 1, 3])),
        lambda T: T.bincount(T.tensor([1, 1, 3]), minlength=6),
        lambda T: T.bincount(T.tensor([0, 2]), weights=T.tensor([0.5, 1.5])),
        lambda T: T.bincount(T.tensor([0, 2]), weights=T.tensor([2, 3])),
        lambda T: T.bincount(T.tensor([], dtype=T.int64)),
        lambda T: T.searchsorted(T.tensor([1, 3, 5, 7]), T.tensor([3, 6, 9])),
        lambda T: T.searchsorted(T.tensor([1, 3, 5, 7]), T.tensor([3, 6]), right=True),
        lambda T: T.searchsorted(T.tensor([1, 3, 5, 7]), T.tensor([3]), side="right"),
        lambda T: T.searchsorted(
            T.tensor([[1, 3, 5], [2, 4, 6]]), T.tensor([[3, 6], [1, 4]])
        ),
        lambda T: T.searchsorted(T.tensor([1.0, 2.0]), T.tensor([1.5]), out_int32=True),
        lambda T: T.bucketize(T.tensor([3, 6, 9]), T.tensor([1, 3, 5, 7])),
        lambda T: T.bucketize(T.tensor([3, 6]), T.tensor([1, 3, 5, 7]), right=True),
        lambda T: T.asarray([1.0, 2.0]),
        lambda T: T.asarray([1, 2], dtype=T.float64),
    ],
)
def test_index_helpers_match_pytorch(call: Any) -> None:
    _same(call(minigrad), call(torch))


def test_asarray_shares_or_copies() -> None:
    x = minigrad.ones(3)
    assert minigrad.asarray(x) is x
    y = minigrad.asarray(x, copy=True)
    y.add_(1)
    assert x.tolist() == [1.0, 1.0, 1.0]
    a = np.zeros(2)
    minigrad.asarray(a).add_(1)
    assert a.tolist() == [1.0, 1.0]  # shares the array's memory, as PyTorch does


DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
          "float64"]  # fmt: skip


@pytest.mark.parametrize("a", DTYPES)
def test_dtype_questions_match_pytorch(a: str) -> None:
    for b in DTYPES:
        ma, mb, ta, tb = (getattr(m, n) for m in (minigrad, torch) for n in (a, b))
        assert repr(minigrad.promote_types(ma, mb)).replace(
            "minigrad", "torch"
        ) == repr(torch.promote_types(ta, tb))
        assert minigrad.can_cast(ma, mb) == torch.can_cast(ta, tb), (a, b)
        for other in (2, 2.5, True):
            mt, tt = minigrad.ones(2, dtype=ma), torch.ones(2, dtype=ta)
            assert repr(minigrad.result_type(mt, other)).replace(
                "minigrad", "torch"
            ) == repr(torch.result_type(tt, other))
        m0, t0 = minigrad.ones((), dtype=mb), torch.ones((), dtype=tb)
        assert repr(minigrad.result_type(minigrad.ones(2, dtype=ma), m0)).replace(
            "minigrad", "torch"
        ) == repr(torch.result_type(torch.ones(2, dtype=ta), t0))


MOMENT_CALLS: dict[str, Any] = {
    "all": lambda T, x: T.std_mean(x),
    "dim": lambda T, x: T.std_mean(x, 1),
    "dims_keepdim": lambda T, x: T.std_mean(x, (0, 2), keepdim=True),
    "unbiased_false": lambda T, x: T.std_mean(x, unbiased=False),
    "correction0": lambda T, x: T.std_mean(x, dim=-1, correction=0),
    "correction2": lambda T, x: T.std_mean(x, 2, correction=2),
}
A234 = RNG.standard_normal((2, 3, 4))


@pytest.mark.parametrize("which", ["std", "var"])
@pytest.mark.parametrize("name", sorted(MOMENT_CALLS))
def test_std_var_mean_match_pytorch(which: str, name: str) -> None:
    call = MOMENT_CALLS[name]

    def fn(T: Any, x: Any, k: int) -> Any:
        lib = T if which == "std" else _VarMean(T)
        return call(lib, x)[k]

    for k in (0, 1):  # each result alone: the other's gradient is zeros
        differential(lambda T, x, k=k: fn(T, x, k), (A234,))
        differential(lambda T, x, k=k: fn(T, x, k), (A234,), dtype=np.float32)
    # both results in one loss: the two gradients add in the one node
    differential(lambda T, x: fn(T, x, 0) * 3 + fn(T, x, 1).sin(), (A234,))
    check_gradcheck(lambda T, x: fn(T, x, 0) * 3 + fn(T, x, 1).sin(), A234)


class _VarMean:
    """``lib`` with ``std_mean`` meaning ``var_mean``, so one table tests both."""

    def __init__(self, lib: Any) -> None:
        self.std_mean = lib.var_mean


def test_std_var_mean_share_one_node() -> None:
    x = minigrad.randn(3, 4, requires_grad=True)
    for fn, name in ((minigrad.std_mean, "StdMean"), (minigrad.var_mean, "VarMean")):
        a, b = fn(x, 1)
        assert a.grad_fn is b.grad_fn
        assert type(a.grad_fn).__name__ == f"{name}Backward0"
        assert isinstance(fn(x), tuple)


TIES = np.array([[1.0, 3.0, 3.0], [2.0, 0.0, 0.0]])
AMINMAX_CALLS: dict[str, Any] = {
    "all": lambda T, x: T.aminmax(x),
    "dim": lambda T, x: x.aminmax(dim=1),
    "dim_keepdim": lambda T, x: T.aminmax(x, dim=-2, keepdim=True),
    "none_keepdim": lambda T, x: T.aminmax(x, dim=None, keepdim=True),
}


@pytest.mark.parametrize("name", sorted(AMINMAX_CALLS))
@pytest.mark.parametrize("arr", [TIES, A34], ids=["ties", "random"])
def test_aminmax_matches_pytorch(name: str, arr: np.ndarray) -> None:
    call = AMINMAX_CALLS[name]
    for k in (0, 1):
        differential(lambda T, x, k=k: call(T, x)[k], (arr,))
        differential(lambda T, x, k=k: call(T, x)[k], (arr,), dtype=np.float32)
    both = lambda T, x: (lambda r: r.min * 2 + r.max * 5)(call(T, x))  # noqa: E731
    differential(both, (arr,))
    if arr is A34:  # (ties make the gradient a subgradient: no finite differences)
        check_gradcheck(both, arr)


def test_aminmax_result_and_errors_match_pytorch() -> None:
    mine, theirs = (
        minigrad.aminmax(minigrad.tensor(TIES)),
        torch.aminmax(torch.tensor(TIES)),
    )
    assert repr(mine).replace("minigrad", "torch") == repr(theirs)
    assert type(mine).__name__ == type(theirs).__name__ == "aminmax"
    same_error(lambda T, x: T.aminmax(x), np.zeros(0))
    same_error(lambda T, x: T.aminmax(x, dim=1), np.zeros((2, 0)))
    same_error(lambda T, x: x.aminmax(dim=2), A34)


ROT90_CALLS: dict[str, Any] = {
    "default": lambda T, x: x.rot90(),
    "k2": lambda T, x: T.rot90(x, 2),
    "k3_dims": lambda T, x: x.rot90(3, [2, 0]),
    "k-1_negative_dim": lambda T, x: T.rot90(x, -1, (0, -1)),
    "k4": lambda T, x: x.rot90(4, (1, 2)),
}


@pytest.mark.parametrize("name", sorted(ROT90_CALLS))
def test_rot90_matches_pytorch(name: str) -> None:
    call = ROT90_CALLS[name]
    y_mg, y_th = differential(call, (A234,))
    assert y_mg.stride() == y_th.stride()
    differential(call, (A234,), dtype=np.float32)
    check_gradcheck(call, A234)


@pytest.mark.parametrize(
    "call",
    [
        lambda T, x: x.rot90(1, [0]),
        lambda T, x: x.rot90(1, [0, 0]),
        lambda T, x: x.rot90(1, [0, 3]),
        lambda T, x: x[0, 0].rot90(),
    ],
)
def test_rot90_errors_match_pytorch(call: Any) -> None:
    same_error(call, A234)
