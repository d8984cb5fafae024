"""einsum against PyTorch: values, the whole graph (PyTorch builds einsum from
permutes, reshapes and bmm, and minigrad records the same nodes), gradients,
second order, gradcheck, random equations, and the parser's errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import check_gradcheck, differential, second_order

import minigrad

torch = pytest.importorskip("torch")

CASES = {  # equation: operand shapes
    "ij,jk->ik": [(2, 3), (3, 4)],
    "ij,jk": [(2, 3), (3, 4)],
    "ij,jk->ki": [(2, 3), (3, 4)],
    "ij->ji": [(2, 3)],
    "ii->i": [(3, 3)],
    "ii": [(3, 3)],
    "iji->j": [(2, 3, 2)],
    "ij->": [(2, 3)],
    "i,i->": [(3,), (3,)],
    "i,j->ij": [(3,), (4,)],
    "ij,j->i": [(2, 3), (3,)],
    "bqd,bkd->bqk": [(2, 5, 3), (2, 6, 3)],
    "bhqd,bhkd->bhkq": [(2, 2, 3, 4), (2, 2, 5, 4)],
    "bij,bjk->kbi": [(2, 3, 4), (2, 4, 5)],
    "...ij,...jk->...ik": [(2, 1, 3, 4), (5, 4, 2)],
    "i...->...": [(2, 3, 4)],
    "ij,jk,kl->il": [(2, 3), (3, 4), (4, 5)],
    "ab,bc,d->cda": [(2, 3), (3, 4), (5,)],
    "aib,bjc->jiac": [(2, 3, 4), (4, 5, 6)],
    "Ab,bC->AC": [(2, 3), (3, 2)],
    "ij,ij->": [(1, 3), (2, 3)],
    # four and five operands: contracted left to right, as PyTorch without
    # opt_einsum does (the fixture below keeps PyTorch on that path)
    "ij,jk,kl,lm->im": [(2, 3), (3, 4), (4, 2), (2, 5)],
    "bi,bij,bj,b->b": [(2, 3), (2, 3, 4), (2, 4), (2,)],
    "a,b,c,d,ab->cd": [(2,), (3,), (2,), (2,), (2, 3)],
}


@pytest.fixture(autouse=True, scope="module")
def _pytorch_left_to_right() -> Any:
    """With the optional opt_einsum package installed, PyTorch contracts three
    or more operands in the order opt_einsum finds cheapest (other nodes);
    minigrad always goes left to right, PyTorch's order without it. Compare
    with that order whether or not the package is there."""
    was = torch.backends.opt_einsum.enabled
    torch.backends.opt_einsum.enabled = False
    yield
    torch.backends.opt_einsum.enabled = was


def _rng_arrays(shapes: list, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in shapes]


@pytest.mark.parametrize("equation", sorted(CASES))
def test_einsum_matches_pytorch(equation: str) -> None:
    arrs = _rng_arrays(CASES[equation])

    def fn(T: Any, *ops: Any) -> Any:
        return T.einsum(equation, *ops)

    check_gradcheck(fn, *arrs)
    differential(fn, arrs)
    second_order(lambda T, *ops: fn(T, *ops) ** 2, arrs)


def test_einsum_call_forms() -> None:
    """A list of operands, and the sublist form with and without output."""
    a, b = _rng_arrays([(2, 3), (3, 4)])
    for form in (
        lambda T, x, y: T.einsum("ij,jk->ik", [x, y]),
        lambda T, x, y: T.einsum(x, [0, 1], y, [1, 2], [0, 2]),
        lambda T, x, y: T.einsum(x, [0, 1], y, [1, 2]),
        lambda T, x, y: T.einsum(x, [Ellipsis, 27], y, [27, 30]),
    ):
        differential(form, [a, b])


LABELS = "abcde"


@st.composite
def equations(draw: Any) -> tuple[str, list[tuple[int, ...]]]:
    """A random einsum: 1-3 operands over a few labels (repeats allowed), an
    explicit output or none; label sizes 1-3 (1 broadcasts)."""
    size = {c: draw(st.integers(1, 3)) for c in LABELS}
    operands = draw(
        st.lists(st.lists(st.sampled_from(LABELS), max_size=3), min_size=1, max_size=3)
    )
    used = sorted({c for op in operands for c in op})
    shapes = []
    for op in operands:
        # a label that broadcasts may have size 1 in one operand only
        shapes.append(
            tuple(
                1 if draw(st.booleans()) and op.count(c) == 1 else size[c] for c in op
            )
        )
    lhs = ",".join("".join(op) for op in operands)
    if draw(st.booleans()):
        return lhs, shapes
    out = draw(st.permutations(used))[: draw(st.integers(0, len(used)))]
    return lhs + "->" + "".join(out), shapes


@settings(max_examples=150, deadline=None)
@given(eq=equations(), seed=st.integers(0, 2**16))
def test_random_equations_match_pytorch(eq: tuple, seed: int) -> None:
    equation, shapes = eq
    arrs = _rng_arrays(shapes, seed)
    try:
        torch.einsum(equation, *[torch.tensor(a) for a in arrs])
    except RuntimeError as e:  # e.g. broadcasting sizes: minigrad says the same
        with pytest.raises(RuntimeError) as mine:
            minigrad.einsum(equation, *[minigrad.tensor(a) for a in arrs])
        assert str(mine.value) == str(e)
        return
    fn = lambda T, *ops: T.einsum(equation, *ops)  # noqa: E731
    mine, theirs = differential(fn, arrs, check_graph=False)
    assert _node_names(mine.grad_fn) == _node_names(theirs.grad_fn)
    assert mine.stride() == theirs.stride()


def _node_names(fn: Any) -> list[str]:
    """The graph's node names, depth first (the reshapes too: their results
    are laid out as PyTorch's, so each is the same view or copy)."""
    if fn is None:
        return []
    children = [n for n, _ in fn.next_functions]
    name = fn.name().split("::")[-1]  # (torch:: or minigrad::autograd::)
    return [name] + [m for child in children for m in _node_names(child)]


ERRORS = [
    ("ij,jk->ik", [(2, 3)]),
    ("ij->ij", [(2, 3), (3, 4)]),
    ("ij->", [(2, 3, 4)]),
    ("ij...->", [(2,)]),
    ("i.j->", [(2, 3)]),
    ("i......->", [(2, 3)]),
    ("i1->", [(2, 3)]),
    ("ij->k", [(2, 3)]),
    ("ij->ii", [(2, 3)]),
    ("ij->i1", [(2, 3)]),
    ("ij->i......", [(2, 3)]),
    ("ii->i", [(2, 3)]),
    ("ij,jk->ik", [(2, 3), (4, 5)]),
    ("...i,...i->...", [(2, 3), (4, 3)]),
    ("", [(2,)]),
]


def _error(lib: Any, equation: str, shapes: list) -> str:
    try:
        lib.einsum(equation, *[lib.zeros(s) for s in shapes])
    except (RuntimeError, ValueError) as e:
        return f"{type(e).__name__}: {e}"
    return "no error"


@pytest.mark.parametrize("equation, shapes", ERRORS)
def test_errors_match_pytorch(equation: str, shapes: list) -> None:
    assert _error(minigrad, equation, shapes) == _error(torch, equation, shapes)


def test_argument_errors_match_pytorch() -> None:
    for lib in (minigrad, torch):
        with pytest.raises(ValueError, match="must specify the equation string"):
            lib.einsum("ij")
        with pytest.raises(ValueError, match="not within the valid range"):
            lib.einsum(lib.zeros(2), [60])
