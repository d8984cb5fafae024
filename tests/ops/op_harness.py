"""Shared machinery of the per-op tests: run one expression on minigrad and on
PyTorch with the same inputs and compare everything autograd exposes.

An expression is ``fn(lib, *tensors)`` where ``lib`` is ``minigrad`` or ``torch``,
so one lambda describes the op for both libraries.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad
from minigrad.ops import activation as AC

torch = pytest.importorskip("torch")

Expr = Callable[..., Any]

TOL = {np.float64: 1e-10, np.float32: 1e-5}


# ------------------------------------------------------------------ strategies
def floats(lo: float, hi: float) -> st.SearchStrategy:
    """Finite float64 elements in ``[lo, hi]``."""
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False, width=64)


def away_from_zero(lo: float = 0.2, hi: float = 2.0) -> st.SearchStrategy:
    """Elements with ``lo <= |x| <= hi``: keeps abs/sign-like ops differentiable."""
    return st.tuples(floats(lo, hi), st.booleans()).map(
        lambda p: -p[0] if p[1] else p[0]
    )


small_shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3)


def arrays(shape: Any, elements: st.SearchStrategy | None = None) -> Any:
    if elements is None:
        elements = floats(-2, 2)
    return hnp.arrays(np.float64, shape, elements=elements)


broadcast_pairs = hnp.mutually_broadcastable_shapes(
    num_shapes=2, min_dims=0, max_dims=3, min_side=1, max_side=3
)


# ------------------------------------------------------------------- gradcheck
def leaves(*arrs: np.ndarray) -> list:
    return [
        minigrad.tensor(a, dtype=minigrad.float64, requires_grad=True) for a in arrs
    ]


def check_gradcheck(fn: Expr, *arrs: np.ndarray) -> None:
    """``minigrad.autograd.gradcheck`` of ``fn(minigrad, *inputs)`` in float64."""
    xs = leaves(*arrs)
    assert minigrad.autograd.gradcheck(lambda *t: fn(minigrad, *t), tuple(xs))


# ------------------------------------------------------------- differential
def make(lib: Any, a: np.ndarray, dtype: Any, requires_grad: bool) -> Any:
    t = lib.tensor(np.array(a, dtype=dtype))
    return t.requires_grad_() if requires_grad else t


def describe(node: Any, inputs: Sequence[Any], memo: dict | None = None) -> Any:
    """A library-neutral picture of the graph below ``node``: names, output_nr
    of every edge, and for AccumulateGrad which input it feeds."""
    if node is None:
        return None
    memo = {} if memo is None else memo
    if id(node) in memo:
        return ("seen", memo[id(node)])
    memo[id(node)] = len(memo)
    name = type(node).__name__
    if name == "AccumulateGrad":
        idx = [i for i, x in enumerate(inputs) if x is node.variable]
        return (name, idx)
    edges = tuple((describe(n, inputs, memo), nr) for n, nr in node.next_functions)
    return (name, edges)


def graph_nodes(node: Any) -> list:
    """Every node reachable from ``node`` (in a fixed order), AccumulateGrad aside."""
    out, stack, seen = [], [node], set()
    while stack:
        n = stack.pop()
        if n is None or id(n) in seen or type(n).__name__ == "AccumulateGrad":
            continue
        seen.add(id(n))
        out.append(n)
        stack.extend(reversed([m for m, _ in n.next_functions]))
    return out


_INTERNAL: set[str] = set()  # no internal attribute may look like a saved slot


def saved_names(node: Any) -> set[str]:
    return {n for n in dir(node) if n.startswith("_saved_")} - _INTERNAL


def _numpy(t: Any) -> np.ndarray:
    if getattr(t, "_is_zerotensor", lambda: False)():  # PyTorch's symbolic zeros
        return np.zeros(tuple(t.shape))
    return t.detach().numpy() if hasattr(t, "detach") else np.asarray(t)


def _same_saved(mine: Any, theirs: Any, inputs: tuple, where: str) -> None:
    """Equal non-tensor values; tensors equal in value and, when PyTorch saved an
    input object itself, minigrad saved that same input."""
    if isinstance(theirs, (tuple, list)) and any(
        isinstance(x, torch.Tensor) or x is None for x in theirs
    ):
        assert isinstance(mine, (tuple, list)) and len(mine) == len(theirs), where
        for m, t in zip(mine, theirs):
            _same_saved(m, t, inputs, where)
        return
    if isinstance(theirs, torch.Tensor):
        assert isinstance(mine, minigrad.Tensor), (where, mine)
        np.testing.assert_allclose(  # (float64 rounding near zero: 1e-12)
            _numpy(mine), _numpy(theirs), rtol=1e-6, atol=1e-12, err_msg=where
        )
        th_in, mg_in = inputs
        for t_in, m_in in zip(th_in, mg_in):
            if theirs is t_in:
                assert mine is m_in, f"{where}: PyTorch saves the input object itself"
        return
    assert mine == theirs, f"{where}: minigrad {mine!r} != torch {theirs!r}"


def compare_graphs(y_mg: Any, y_th: Any, xs_mg: list, xs_th: list) -> None:
    """Node names, next_functions structure and ``_saved_*`` of the whole graph."""
    assert describe(y_mg.grad_fn, xs_mg) == describe(y_th.grad_fn, xs_th)
    for n_mg, n_th in zip(graph_nodes(y_mg.grad_fn), graph_nodes(y_th.grad_fn)):
        name = type(n_th).__name__
        assert saved_names(n_mg) == saved_names(n_th), (
            name,
            saved_names(n_mg),
            saved_names(n_th),
        )
        for attr in sorted(saved_names(n_th)):
            _same_saved(
                getattr(n_mg, attr),
                getattr(n_th, attr),
                (xs_th, xs_mg),
                f"{name}.{attr}",
            )


def differential(
    fn: Expr,
    arrs: Sequence[Any],
    dtype: Any = np.float64,
    requires_grad: Sequence[bool] | None = None,
    seed: int = 0,
    check_graph: bool = True,
) -> tuple:
    """Run ``fn`` on both libraries and compare values, graph, saved attributes
    and the gradients of every input for a random upstream gradient."""
    rg = [True] * len(arrs) if requires_grad is None else list(requires_grad)
    xs_mg = [make(minigrad, a, dtype, r) for a, r in zip(arrs, rg)]
    xs_th = [make(torch, a, dtype, r) for a, r in zip(arrs, rg)]
    y_mg, y_th = fn(minigrad, *xs_mg), fn(torch, *xs_th)
    tol = TOL[dtype]
    assert tuple(y_mg.shape) == tuple(y_th.shape)
    assert str(y_mg.dtype).replace("minigrad", "torch") == str(y_th.dtype)
    np.testing.assert_allclose(_numpy(y_mg), _numpy(y_th), rtol=tol, atol=tol)
    assert y_mg.is_leaf == y_th.is_leaf
    assert y_mg.requires_grad == y_th.requires_grad
    if y_th.grad_fn is None:
        assert y_mg.grad_fn is None
        return y_mg, y_th
    if check_graph:
        compare_graphs(y_mg, y_th, xs_mg, xs_th)
    # upstream gradient in the output's dtype (an op may change the dtype)
    g = np.random.default_rng(seed).standard_normal(tuple(y_th.shape))
    g = g.astype(_numpy(y_th).dtype)
    y_mg.backward(minigrad.tensor(g))
    y_th.backward(torch.tensor(g))
    for i, (x_mg, x_th) in enumerate(zip(xs_mg, xs_th)):
        if x_th.grad is None:
            assert x_mg.grad is None, f"input {i}"
            continue
        assert x_mg.grad is not None, f"input {i} got no grad"
        assert x_mg.grad.dtype is x_mg.dtype
        np.testing.assert_allclose(
            _numpy(x_mg.grad), _numpy(x_th.grad), rtol=tol, atol=tol, err_msg=f"{i}"
        )
    return y_mg, y_th


def second_order(fn: Expr, arrs: Sequence[np.ndarray], seed: int = 1) -> None:
    """``grad(create_graph=True)`` then grad again, values compared with PyTorch."""
    rng = np.random.default_rng(seed)
    results = []
    for lib in (minigrad, torch):
        rng = np.random.default_rng(seed)
        xs = [make(lib, a, np.float64, True) for a in arrs]
        y = fn(lib, *xs)
        v = lib.tensor(rng.standard_normal(tuple(y.shape)))
        g1 = lib.autograd.grad(y, xs, v, create_graph=True)
        total = sum(
            ((g * lib.tensor(rng.standard_normal(tuple(g.shape)))).sum()) for g in g1
        )
        if not total.requires_grad:  # e.g. a linear op: second derivative is zero
            results.append([np.zeros(a.shape) for a in arrs])
            continue
        g2 = lib.autograd.grad(total, xs, allow_unused=True)
        results.append(
            [np.zeros(a.shape) if g is None else _numpy(g) for a, g in zip(arrs, g2)]
        )
    for m, t in zip(*results):
        np.testing.assert_allclose(m, t, rtol=1e-9, atol=1e-9)


def same_error(fn: Expr, *arrs: Any, exc: type = Exception) -> str:
    """Both libraries raise the same exception type with the same text (with
    ``minigrad`` for ``torch``); returns the message."""
    errors = []
    for lib in (minigrad, torch):
        xs = [make(lib, a, np.float32, False) for a in arrs]
        with pytest.raises(exc) as info:
            fn(lib, *xs)
        errors.append(info.value)
    mine, theirs = errors
    expected = str(theirs).replace("torch", "minigrad")
    assert str(mine) == expected, f"\n minigrad: {mine}\n expected: {expected}"
    assert type(mine).__name__ == type(theirs).__name__, (mine, theirs)
    return str(mine)


# ------------------------------------------- domains and draws the families share
FAST = settings(max_examples=10, deadline=None)
ANY, POS, NONZERO = floats(-2, 2), floats(0.2, 2), away_from_zero()
ABOVE_M1 = floats(-0.8, 2)
UNIT, ABOVE_1 = floats(-0.9, 0.9), floats(1.2, 3)
# away from the steps of floor/ceil/round/trunc (integers and halves)
OFF_STEPS = st.builds(lambda k, u: k + u, st.integers(-3, 3), st.floats(0.1, 0.4))


def act(T: Any, name: str, x: Any, *args: Any, **kwargs: Any) -> Any:
    """``torch.nn.functional.<name>`` for PyTorch; minigrad's op directly (its
    ``nn.functional`` is wired up separately)."""
    if T is torch:
        return getattr(torch.nn.functional, name)(x, *args, **kwargs)
    cls = {"gelu": AC.Gelu, "leaky_relu": AC.LeakyRelu, "softplus": AC.Softplus}[name]
    return cls.apply(x, *args, *kwargs.values())


SHAPES = [(), (1,), (3,), (2, 3)]
PAIRS = [((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2, 3)), ((2, 3), ())]


def draw_values(shape: tuple, dom: Any, rng: np.random.Generator) -> np.ndarray:
    """Deterministic values in the op's domain."""
    x = rng.uniform(0.2, 2.0, shape)
    if dom is POS:
        return x
    if dom is UNIT:
        return x / 2.2 * np.where(rng.random(shape) < 0.5, -1.0, 1.0)
    if dom is ABOVE_1:
        return x + 1
    if dom is OFF_STEPS:
        return np.floor(x * 3) - 3 + rng.uniform(0.1, 0.4, shape)
    if dom is ABOVE_M1:
        return x - 0.9
    return x * np.where(rng.random(shape) < 0.5, -1.0, 1.0)


def check_one_input_op(fn: Any, shape: tuple) -> None:
    """gradcheck, the same expression in PyTorch, and second order."""
    x = np.random.default_rng(10).normal(size=shape)
    check_gradcheck(fn, x)
    differential(fn, [x])
    second_order(lambda T, a: fn(T, a) ** 2, [x])


# ------------------------------------------------- a family's elementwise suite
# The operators' wider suite (it was test_ops_elementwise.py's): more shapes and
# broadcast pairs, more drawn examples; its tests are named test_elementwise_*.
ELEMENTWISE = {
    "shapes": [(), (1,), (3,), (2, 3), (2, 1, 3)],
    "pairs": PAIRS + [((), ()), ((4, 1, 3), (2, 1))],
    "examples": settings(max_examples=15, deadline=None),
    "prefix": "test_elementwise_",
}


def family_tests(
    unary: dict | None = None,
    binary: dict | None = None,
    tie_cases: dict | None = None,
    one_input: dict | None = None,
    steps: dict | None = None,
    shapes: list = SHAPES,
    pairs: list = PAIRS,
    examples: Any = FAST,
    prefix: str = "test_",
) -> dict[str, Callable]:
    """The tests a family file runs over its tables, written once: ``unary``
    (name -> (expr, element domain)) and ``binary`` (name -> (expr, (domain,
    domain))) are gradchecked over drawn shapes, compared with PyTorch in float64
    and float32 (binary: also with one input requiring grad) and to second order;
    ``tie_cases`` (name -> (expr, values)) compare ties and zeros with PyTorch;
    ``one_input`` (name -> (expr, shape)) go through ``check_one_input_op``.
    ``steps``: binary ops with jumps where ``k * a / b`` is whole (remainders),
    which gradcheck keeps away from. ``shapes``, ``pairs`` and ``examples``
    (hypothesis settings) widen the suite; ``prefix`` names its tests (e.g.
    ``**ELEMENTWISE``). A test file binds the result with
    ``globals().update(...)``, so pytest collects the tests there."""
    unary, binary = unary or {}, binary or {}
    tie_cases, one_input, steps = tie_cases or {}, one_input or {}, steps or {}
    # ties make maximum/clamp non-differentiable: gradcheck draws distinct values
    ties = {n for n in binary if "max" in n or "min" in n or "clamp" in n}

    @pytest.mark.parametrize("name", sorted(unary))
    @examples
    @given(data=st.data(), shape=small_shapes)
    def test_unary_gradcheck(name: str, data: st.DataObject, shape: tuple) -> None:
        fn, dom = unary[name]
        check_gradcheck(fn, data.draw(arrays(shape, dom)))

    @pytest.mark.parametrize("name", sorted(binary))
    @examples
    @given(data=st.data(), shapes=broadcast_pairs)
    def test_binary_gradcheck(name: str, data: st.DataObject, shapes: Any) -> None:
        fn, (da, db) = binary[name]
        sa, sb = shapes.input_shapes
        a = data.draw(arrays(sa, da))
        b = data.draw(arrays(sb, db))
        if name in ties:  # keep every pair of values at least 1e-3 apart
            both = np.concatenate([a.ravel(), b.ravel(), b.ravel() + 0.5])
            gaps = np.abs(both[:, None] - both[None, :]) + np.eye(both.size)
            if both.size > 1 and gaps.min() < 1e-3:
                return
        if name in steps:
            q = steps[name] * a / b
            if np.abs(q - np.round(q)).min(initial=1) < 1e-3:
                return
        check_gradcheck(fn, a, b)

    @pytest.mark.parametrize("dtype", [np.float64, np.float32])
    @pytest.mark.parametrize("shape", shapes, ids=str)
    @pytest.mark.parametrize("name", sorted(unary))
    def test_unary_vs_torch(name: str, shape: tuple, dtype: Any) -> None:
        fn, dom = unary[name]
        differential(fn, [draw_values(shape, dom, np.random.default_rng(2))], dtype)

    @pytest.mark.parametrize("dtype", [np.float64, np.float32])
    @pytest.mark.parametrize("pair", pairs, ids=str)
    @pytest.mark.parametrize("name", sorted(binary))
    def test_binary_vs_torch(name: str, pair: tuple, dtype: Any) -> None:
        fn, doms = binary[name]
        rng = np.random.default_rng(0)
        differential(fn, [draw_values(s, d, rng) for s, d in zip(pair, doms)], dtype)

    @pytest.mark.parametrize("needs", [(True, False), (False, True)])
    @pytest.mark.parametrize("name", sorted(binary))
    def test_binary_one_input_requires_grad(name: str, needs: tuple) -> None:
        fn, doms = binary[name]
        rng = np.random.default_rng(1)
        arrs = [draw_values(s, d, rng) for s, d in zip(((2, 3), (3,)), doms)]
        differential(fn, arrs, requires_grad=needs)

    @pytest.mark.parametrize("name", sorted(unary))
    def test_unary_second_order(name: str) -> None:
        fn, dom = unary[name]
        second_order(fn, [draw_values((2, 3), dom, np.random.default_rng(4))])

    @pytest.mark.parametrize("name", sorted(binary))
    def test_binary_second_order(name: str) -> None:
        fn, doms = binary[name]
        rng = np.random.default_rng(3)
        second_order(fn, [draw_values(s, d, rng) for s, d in zip(((2, 3), (3,)), doms)])

    @pytest.mark.parametrize("name", sorted(tie_cases))
    def test_ties_and_zeros_vs_torch(name: str) -> None:
        fn, arrs = tie_cases[name]
        differential(fn, [np.array(a) for a in arrs])

    @pytest.mark.parametrize("name", sorted(one_input))
    def test_more_shape_ops(name: str) -> None:
        check_one_input_op(*one_input[name])

    tables = {
        "unary": unary,
        "binary": binary,
        "ties_and_zeros": tie_cases,
        "more_shape_ops": one_input,
    }
    return {
        prefix + name[len("test_") :]: fn
        for name, fn in locals().items()
        if name.startswith("test_") and any(tables[t] for t in tables if t in name)
    }


# --------------------------------------------- the reductions' suite over dims
@st.composite
def dims_for(draw: Any, ndim: int, single: bool = False) -> Any:
    """An int dim (possibly negative), or a tuple of distinct dims."""
    n = max(ndim, 1)
    if single:
        d = draw(st.integers(0, n - 1))
        return d - n if draw(st.booleans()) else d
    picks = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    signed = tuple(d - n if draw(st.booleans()) else d for d in picks)
    return signed[0] if len(signed) == 1 and draw(st.booleans()) else signed


def distinct(shape: tuple, lo: float = -2, hi: float = 2) -> Any:
    """Arrays of distinct values (no ties: max/min/prod are smooth there)."""
    return hnp.arrays(
        np.float64,
        shape,
        elements=floats(lo, hi).map(lambda v: round(v, 3)),
        unique=True,
    ).filter(lambda a: a.size < 2 or np.diff(np.sort(a.ravel())).min() > 1e-2)


DIM_CASES = [
    ((2, 3), 0, False),
    ((2, 3), 1, True),
    ((2, 3), -1, False),
    ((2, 3, 4), (0, 2), False),
    ((2, 3, 4), (-1, 0), True),
    ((2, 3, 4), -2, True),
    ((4,), 0, False),
    ((), 0, False),
]


def _needs_spread(name: str, shape: tuple) -> bool:
    """var/std need two or more elements; norms need a nonzero slice."""
    return ("var" in name or "std" in name) and int(np.prod(shape)) < 2


def reduction_tests(reduce: dict, full: dict, second: list) -> dict[str, Callable]:
    """The tests of ops that reduce over dims, written once (reductions and the
    ordering ops that reduce like them): ``reduce`` (name -> (builder taking
    (dim, keepdim), element strategy factory, whether the dim is a single int))
    over drawn dims and fixed ``DIM_CASES``, ``full`` (name -> (expr, element
    strategy factory)) over the whole tensor, ``second`` the names of ``reduce``
    taken to second order. Bound with ``globals().update(...)``."""

    @pytest.mark.parametrize("name", sorted(reduce))
    @FAST
    @given(data=st.data(), shape=small_shapes, keepdim=st.booleans())
    def test_reduction_dim_gradcheck(name: str, data: Any, shape: tuple, keepdim: bool):
        build, elems, single = reduce[name]
        dim = data.draw(dims_for(len(shape), single))
        n = int(np.prod([shape[d] for d in np.atleast_1d(dim)])) if shape else 1
        if ("var" in name or "std" in name) and n < 2:
            return
        x = data.draw(elems(shape) if elems is distinct else arrays(shape, NONZERO))
        check_gradcheck(build(dim, keepdim), x)

    @pytest.mark.parametrize("name", sorted(full))
    @FAST
    @given(data=st.data(), shape=small_shapes)
    def test_reduction_full_gradcheck(name: str, data: Any, shape: tuple) -> None:
        fn, elems = full[name]
        if _needs_spread(name, shape):
            return
        x = data.draw(elems(shape) if elems is distinct else arrays(shape, NONZERO))
        check_gradcheck(fn, x)

    @pytest.mark.parametrize("dtype", [np.float64, np.float32])
    @pytest.mark.parametrize("case", DIM_CASES, ids=str)
    @pytest.mark.parametrize("name", sorted(reduce))
    def test_reduction_dim_vs_torch(name: str, case: tuple, dtype: Any) -> None:
        shape, dim, keepdim = case
        build, _, single = reduce[name]
        if single and isinstance(dim, tuple):
            dim = dim[0]
        if name.startswith(("var", "std")) and shape == ():
            return  # one element: NaN (with a warning); see test_var_dof_warning
        x = np.random.default_rng(7).permutation(np.arange(1, np.prod(shape) + 1))
        x = (x.reshape(shape) * 0.37 - 0.6).astype(np.float64)
        differential(build(dim, keepdim), [x], dtype)

    @pytest.mark.parametrize("dtype", [np.float64, np.float32])
    @pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 1, 3)], ids=str)
    @pytest.mark.parametrize("name", sorted(full))
    def test_reduction_full_vs_torch(name: str, shape: tuple, dtype: Any) -> None:
        fn, _ = full[name]
        if _needs_spread(name, shape):
            return
        x = np.random.default_rng(8).permutation(np.arange(1, np.prod(shape) + 1))
        differential(fn, [(x.reshape(shape) * 0.41 - 0.9).astype(np.float64)], dtype)

    @pytest.mark.parametrize("name", second)
    def test_reduction_second_order(name: str) -> None:
        build, _, single = reduce[name]
        x = np.random.default_rng(9).permutation(np.arange(1.0, 7.0)).reshape(2, 3)
        second_order(build(1 if single else (1,), False), [x * 0.3 - 0.8])

    return {n: fn for n, fn in locals().items() if n.startswith("test_")}


def cases_vs_torch(cases: dict) -> Callable:
    """One expression per case (name -> (input shape, expr)) against PyTorch, in
    float64 and float32 (the shape ops' table)."""

    @pytest.mark.parametrize("dtype", [np.float64, np.float32])
    @pytest.mark.parametrize("name", sorted(cases))
    def test_shape_ops_vs_torch(name: str, dtype: Any) -> None:
        shape, fn = cases[name]
        x = np.random.default_rng(0).normal(size=shape)
        differential(fn, [x], dtype)

    return test_shape_ops_vs_torch
