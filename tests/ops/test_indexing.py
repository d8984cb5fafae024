"""Indexing (ops/indexing.py): gather, scatter (plain, add, reduce, drawn),
index_select, index_add, index_fill, embedding, take and put, index_put
(and the view PyTorch puts on a setitem value).

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py and test_ops_shape.py, split by family.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import (
    cases_vs_torch,
    check_gradcheck,
    check_one_input_op,
    differential,
    family_tests,
    same_error,
    second_order,
)


# ------------------------------------------------------------------- gather
def _gather(dim: int, index: list) -> Any:
    return lambda T, a: a.gather(dim, T.tensor(index))


GATHER = {
    "rows": (_gather(1, [[0, 0], [2, 1]]), (2, 3)),
    "cols": (_gather(0, [[1, 0, 1]]), (2, 3)),
    "neg_dim": (_gather(-1, [[2], [0]]), (2, 3)),
    "repeats": (_gather(0, [2, 2, 0, 2]), (3,)),
    "smaller": (_gather(1, [[1]]), (2, 3)),
    "3d": (_gather(1, [[[0, 1], [1, 1]], [[0, 0], [1, 0]]]), (2, 3, 2)),
}


@pytest.mark.parametrize("name", sorted(GATHER))
def test_gather(name: str) -> None:
    check_one_input_op(*GATHER[name])


def test_gather_0d() -> None:
    differential(lambda T, a: a.gather(0, T.tensor(0)), [np.array(1.5)])


# ------------------------------------------------------------ scatter, flip
SCATTER = {  # (fn of (T, self, src), self shape, src shape)
    "src_rows": (
        lambda T, a, b: a.scatter(1, T.tensor([[0, 2], [1, 0]]), b),
        (2, 3),
        (2, 2),
    ),
    "src_cols": (
        lambda T, a, b: a.scatter(0, T.tensor([[1, 0, 1]]), b),
        (2, 3),
        (1, 3),
    ),
    "src_bigger": (
        lambda T, a, b: a.scatter(-1, T.tensor([[2], [0]]), b),
        (2, 3),
        (3, 4),
    ),
    "src_3d": (
        lambda T, a, b: a.scatter(2, T.tensor([[[1, 0]], [[0, 1]]]), b),
        (2, 2, 2),
        (2, 1, 2),
    ),
    "value": (
        lambda T, a, b: a.scatter(1, T.tensor([[0], [2]]), 0.5) * b,
        (2, 3),
        (2, 3),
    ),
    "value_kw": (
        lambda T, a, b: a.scatter(0, T.tensor([[1, 0, 1]]), value=-2.0) + b,
        (2, 3),
        (3,),
    ),
    "add_repeats": (
        lambda T, a, b: a.scatter_add(1, T.tensor([[0, 0], [2, 2]]), b),
        (2, 3),
        (2, 2),
    ),
    "add_bigger_src": (
        lambda T, a, b: T.scatter_add(a, 0, T.tensor([[1, 1, 0]]), b),
        (2, 3),
        (2, 3),
    ),
    "add_0d": (lambda T, a, b: a.scatter_add(0, T.tensor(0), b), (), ()),
    "int32_index": (
        lambda T, a, b: a.scatter(1, T.tensor([[0], [1]]).int(), b),
        (2, 3),
        (2, 1),
    ),
}


@pytest.mark.parametrize("name", sorted(SCATTER))
def test_scatter(name: str) -> None:
    """scatter (ScatterBackward0/1) and scatter_add (ScatterAddBackward0): values,
    graphs, saved ``dim``/``index`` and gradients against PyTorch; src's gradient
    is self's gathered at the index."""
    fn, sa, sb = SCATTER[name]
    rng = np.random.default_rng(16)
    a, b = rng.normal(size=sa), rng.normal(size=sb)
    differential(fn, [a, b], requires_grad=(True, False))
    if "bigger" in name:  # src's gradient has the index's shape: see below
        return
    differential(fn, [a, b])
    differential(fn, [a, b], requires_grad=(False, True))
    second_order(lambda T, x, y: fn(T, x, y) ** 2, [a, b])
    check_gradcheck(fn, a, b)


def test_scatter_src_bigger_than_index_gradient_error() -> None:
    """PyTorch's formula gives src a gradient shaped like the index; when src is
    bigger, its engine refuses that gradient, and so does minigrad's."""
    for name in ("src_bigger", "add_bigger_src"):
        fn, sa, sb = SCATTER[name]

        def run(T: Any, a: Any, b: Any, fn: Any = fn) -> Any:
            fn(T, a, b.requires_grad_()).sum().backward()

        same_error(run, np.ones(sa), np.ones(sb))


MORE_SHAPE_OPS = {
    "index_select": (lambda T, a: a.index_select(1, T.tensor([2, 0, 2])), (2, 3)),
    "index_select_0d": (lambda T, a: a.index_select(0, T.tensor([0])), ()),
    "index_select_fn": (lambda T, a: T.index_select(a, -1, T.tensor([1])), (3,)),
    "index_add": (
        lambda T, a: a.index_add(0, T.tensor([2, 0]), a[:2] * 2),
        (3, 2),
    ),
    "index_add_alpha": (
        lambda T, a: T.index_add(a, 1, T.tensor([0]), a[:, 1:], alpha=-0.5),
        (2, 2),
    ),
    "index_add_": (lambda T, a: (a * 1).index_add_(0, T.tensor([1]), a[:1]), (2, 3)),
    "index_fill": (lambda T, a: a.index_fill(1, T.tensor([0, 2]), -1.5), (2, 3)),
    "index_fill_tensor": (
        lambda T, a: T.index_fill(a, 0, T.tensor([1]), a[0, 0] * 2),
        (2, 3),
    ),
    "embedding": (
        lambda T, a: T.nn.functional.embedding(T.tensor([[0, 2], [1, 0]]), a),
        (3, 2),
    ),
    "scatter_reduce_sum": (lambda T, a: _scatter_reduce(T, a, "sum", True), (2, 3)),
    "scatter_reduce_mean": (lambda T, a: _scatter_reduce(T, a, "mean", False), (2, 3)),
    "scatter_reduce_prod": (lambda T, a: _scatter_reduce(T, a, "prod", True), (2, 3)),
    "scatter_reduce_prod_excl": (
        lambda T, a: _scatter_reduce(T, a, "prod", False),
        (2, 3),
    ),
    "scatter_reduce_amax": (lambda T, a: _scatter_reduce(T, a, "amax", True), (2, 3)),
    "scatter_reduce_amin": (lambda T, a: _scatter_reduce(T, a, "amin", False), (2, 3)),
}


def _scatter_reduce(T: Any, a: Any, reduce: str, include_self: bool) -> Any:
    """a's first two columns, into which all of a is reduced (two per place)."""
    index = T.tensor([[0, 0, 1], [1, 1, 0]])
    return a[:, :2].scatter_reduce(1, index, a * 1.5, reduce, include_self=include_self)


def test_embedding_padding_and_frequency_scaling() -> None:
    """Not the derivative on purpose (no gradient for the padding row, shares
    divided by counts), so no gradcheck: PyTorch's values and graphs."""
    x = np.random.default_rng(18).normal(size=(3, 2))

    def fn(T: Any, a: Any) -> Any:
        i = T.tensor([2, 0, 2])
        return T.nn.functional.embedding(i, a, padding_idx=0, scale_grad_by_freq=True)

    differential(fn, [x])
    second_order(lambda T, a: fn(T, a) ** 2, [x])


@settings(max_examples=40, deadline=None)
@given(
    reduce=st.sampled_from(["sum", "prod", "mean", "amax", "amin"]),
    include_self=st.booleans(),
    dim=st.integers(0, 1),
    data=st.data(),
)
def test_scatter_reduce_random(
    reduce: str, include_self: bool, dim: int, data: Any
) -> None:
    """Random indices (repeats, untouched places, zeros in src for prod): values
    and gradients as PyTorch's."""
    rng = np.random.default_rng(data.draw(st.integers(0, 999)))
    base = np.round(rng.standard_normal((3, 4)), 1)
    # src as large as the index: PyTorch's backward refuses a larger one
    src = np.round(rng.standard_normal((2, 3)), 1)  # (ties and zeros happen)
    index = rng.integers(0, base.shape[dim], size=(2, 3))

    def fn(T: Any, a: Any, s: Any) -> Any:
        idx = T.tensor(index)
        return a.scatter_reduce(dim, idx, s, reduce, include_self=include_self)

    differential(fn, [base, src], check_graph=False)


# ----------------------------------------------------------------- take, put
TAKE_PUT = {
    "take": lambda T, a: a.take(T.tensor([[0, 5], [-1, 5]])),
    "take_fn_0d_index": lambda T, a: T.take(a.t(), T.tensor(2)),
    "take_empty_index": lambda T, a: a.take(T.tensor([], dtype=T.long)),
    "put": lambda T, a: a.put(T.tensor([0, 4]), a[1, :2] * 2),
    "put_accumulate": lambda T, a: T.put(a, T.tensor([1, 1, -1]), a[0], True),
    "put_inplace": lambda T, a: (a * 1).put_(T.tensor([[5], [0]]), a[:, 1:2].exp()),
}


@pytest.mark.parametrize("name", sorted(TAKE_PUT))
def test_take_put(name: str) -> None:
    """Flat indices (negative from the end, repeats): values, gradients, nodes
    and to second order as PyTorch's (take's gradient is a put that adds,
    PutBackward0 under create_graph)."""
    fn, x = TAKE_PUT[name], np.random.default_rng(19).normal(size=(2, 3))
    check_gradcheck(fn, x)
    differential(fn, [x])
    second_order(lambda T, a: fn(T, a) ** 2, [x])


@pytest.mark.parametrize(
    "fn",
    [
        lambda T, a: a.take(T.tensor([6])),
        lambda T, a: T.take(a, T.tensor([-7])),
        lambda T, a: a.take(T.tensor([1.0])),
        lambda T, a: a.take(T.tensor([1], dtype=T.int32)),
        lambda T, a: T.take(a, [0]),
        lambda T, a: a.take([0]),
        lambda T, a: T.take(T.zeros(0), T.tensor([0])),
        lambda T, a: a.put(T.tensor([0, 1, 2]), a[0, :2]),
        lambda T, a: a.put(T.tensor([0, 9]), a[0, :2]),
        lambda T, a: a.put(T.tensor([0.0, 1.0]), a[0, :2]),
        lambda T, a: a.put(T.tensor([0, 1]), a[0, :2].double()),
    ],
)
def test_take_put_errors(fn: Any) -> None:
    same_error(fn, np.ones((2, 3)))


# --------------------------------------------------------------- index_put
INDEX_PUT = {
    "index_put": lambda T, a, v: a.index_put((T.tensor([0, 2]),), v),
    "row_vector": lambda T, a, v: T.index_put(a, [T.tensor([2, 0])], v[0]),
    "number_like": lambda T, a, v: a.index_put((T.tensor([1]),), v.sum()),
    "accumulate": lambda T, a, v: a.index_put(
        (T.tensor([0, 0]), T.tensor([1, 1])), v[0, :2], accumulate=True
    ),
    "mask": lambda T, a, v: a.index_put((a > 0.5,), v[0, 0]),
    "inplace": lambda T, a, v: (a * 1).index_put_((T.tensor([1, 2]),), v),
    "inplace_accumulate": lambda T, a, v: (a * 1).index_put_(
        (T.tensor([1, 1]),), v.expand(2, 3), True
    ),
}


@pytest.mark.parametrize("name", sorted(INDEX_PUT))
def test_index_put(name: str) -> None:
    """Values, gradients and nodes as PyTorch's: the values go in as they are
    (IndexPutBackward0's second edge is the values' own node)."""
    fn = INDEX_PUT[name]
    rng = np.random.default_rng(20)
    arrs = [rng.normal(size=(3, 3)), rng.normal(size=(1, 3))]
    if "accumulate" not in name and "mask" not in name:
        check_gradcheck(fn, *arrs)
    differential(fn, arrs)


@pytest.mark.parametrize(
    "value",
    [
        lambda v: v,
        lambda v: v[0],
        lambda v: v.sum(),
        lambda v: v.unsqueeze(0),
        lambda v: v.expand(2, 3).unsqueeze(0),
    ],
    ids=["leading_one", "row", "zero_d", "two_leading_ones", "expanded"],
)
def test_setitem_views_value_without_leading_ones(value: Any) -> None:
    """``x[idx] = v``: PyTorch views a value with leading size-1 dims without
    them (ViewBackward0) before its index_put_."""

    def fn(T: Any, a: Any, v: Any) -> Any:
        b = a * 1
        b[T.tensor([0, 2])] = value(v)
        return b

    rng = np.random.default_rng(21)
    differential(fn, [rng.normal(size=(3, 3)), rng.normal(size=(1, 3))])


@pytest.mark.parametrize(
    "fn",
    [
        lambda T, a: a.index_put(T.tensor([0]), a[0]),
        lambda T, a: a.index_put((None, T.tensor([0])), a[0]),
        lambda T, a: a.index_put((T.tensor([0]),), a[0].double()),
        lambda T, a: a.index_put((T.tensor([0, 1]),), T.ones(2, 2)),
        lambda T, a: a.index_put((T.tensor([0.0]),), a[0]),
        lambda T, a: a.index_put((T.tensor([5]),), a[0]),
        lambda T, a: a.index_put((T.tensor([0]),), 1.0),
        lambda T, a: a.long().index_put_((T.tensor([0]),), T.tensor(0.5)),
    ],
)
def test_index_put_errors(fn: Any) -> None:
    same_error(fn, np.ones((2, 3)))


# the elementwise suite over this family's tables (op_harness.family_tests)
globals().update(family_tests(one_input=MORE_SHAPE_OPS))


# ------------------------------------------------ x[...] by lists and masks
CASES: dict[str, tuple[tuple, Any]] = {
    "list": ((4, 3), lambda T, a: a[[0, 2, 0]]),
    "list_neg": ((4,), lambda T, a: a[[-1, 1]]),
    "tensor_index": ((4, 3), lambda T, a: a[T.tensor([3, 1])]),
    "tensor_index_2d": ((4,), lambda T, a: a[T.tensor([[0, 1], [3, 3]])]),
    "mask": ((2, 3), lambda T, a: a[a > 0]),
    "mask_rows": ((3, 2), lambda T, a: a[T.tensor([True, False, True])]),
    "slice_list": ((4, 3), lambda T, a: a[:, [0, 2]]),
    "two_lists": ((4, 3), lambda T, a: a[[0, 1], [2, 2]]),
}
test_shape_ops_vs_torch = cases_vs_torch(CASES)


@pytest.mark.parametrize(
    "key",
    [
        lambda T: T.tensor([1, 0, 1], dtype=T.uint8),
        lambda T: (slice(None), T.tensor([0, 1, 1, 0], dtype=T.uint8)),
        lambda T: (T.tensor([1, 0, 0], dtype=T.uint8), 1),
    ],
    ids=["rows", "cols", "with_int"],
)
def test_a_uint8_index_is_a_mask(key: Any) -> None:
    """``a[uint8 tensor]`` picks where the mask is nonzero, as a bool mask does
    (PyTorch warns that it is deprecated); it is not a list of indices 0 and 1."""

    def fn(T: Any, a: Any) -> Any:
        with pytest.warns(UserWarning, match="indexing with dtype .*uint8"):
            return a[key(T)]

    differential(fn, [np.random.default_rng(3).normal(size=(3, 4))])


def test_a_uint8_index_is_a_mask_in_a_write_of_a_tensor() -> None:
    """``b[uint8 mask] = v`` writes the masked rows (PyTorch's index_put_ with
    its deprecation warning); a one-value write is refused (test_misuse)."""

    def fn(T: Any, a: Any, v: Any) -> Any:
        b = a * 1
        with pytest.warns(UserWarning, match="indexing with dtype .*uint8"):
            b[T.tensor([1, 0, 1], dtype=T.uint8)] = v
        return b

    rng = np.random.default_rng(4)
    differential(fn, [rng.normal(size=(3, 4)), rng.normal(size=(4,))])
