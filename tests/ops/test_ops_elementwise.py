"""Elementwise ops: arithmetic (with broadcasting and Python scalars) and the
pointwise functions. gradcheck over drawn shapes, then the same expressions
against PyTorch: values, gradients, nodes, saved attributes, second order."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import (
    arrays,
    away_from_zero,
    broadcast_pairs,
    check_gradcheck,
    differential,
    floats,
    second_order,
    small_shapes,
)

import minigrad

pytest.importorskip("torch")

FAST = settings(max_examples=15, deadline=None)

# name -> (expression, element domain of each input)
ANY, POS, NONZERO = floats(-2, 2), floats(0.2, 2), away_from_zero()
BINARY: dict[str, tuple[Any, tuple]] = {
    "add": (lambda T, a, b: a + b, (ANY, ANY)),
    "add_alpha": (lambda T, a, b: a.add(b, alpha=2.5), (ANY, ANY)),
    "sub": (lambda T, a, b: a - b, (ANY, ANY)),
    "sub_alpha": (lambda T, a, b: T.sub(a, b, alpha=-3), (ANY, ANY)),
    "mul": (lambda T, a, b: a * b, (ANY, ANY)),
    "div": (lambda T, a, b: a / b, (ANY, NONZERO)),
    "pow": (lambda T, a, b: a**b, (POS, ANY)),
}
UNARY: dict[str, tuple[Any, Any]] = {
    "neg": (lambda T, a: -a, ANY),
    "add_scalar": (lambda T, a: a + 2, ANY),
    "radd_scalar": (lambda T, a: 2.5 + a, ANY),
    "add_scalar_alpha": (lambda T, a: a.add(3, alpha=2), ANY),
    "sub_scalar": (lambda T, a: a - 2, ANY),
    "rsub_scalar": (lambda T, a: 2 - a, ANY),
    "rsub_alpha": (lambda T, a: T.rsub(a, 2, alpha=3), ANY),
    "mul_scalar": (lambda T, a: a * 2, ANY),
    "rmul_scalar": (lambda T, a: 1.5 * a, ANY),
    "div_scalar": (lambda T, a: a / 2, ANY),
    "rdiv_scalar": (lambda T, a: 2 / a, NONZERO),
    "pow_2": (lambda T, a: a**2, ANY),
    "pow_3": (lambda T, a: a.pow(3), ANY),
    "pow_0": (lambda T, a: a**0, ANY),
    "pow_half": (lambda T, a: a**0.5, POS),
    "pow_neg": (lambda T, a: a**-1.5, POS),
    "pow_neg_int": (lambda T, a: a**-2, NONZERO),
    "square": (lambda T, a: a.square(), ANY),
    "rpow": (lambda T, a: 2**a, ANY),
    "rpow_float": (lambda T, a: 0.5**a, ANY),
    "exp": (lambda T, a: a.exp(), ANY),
    "log": (lambda T, a: a.log(), POS),
    "tanh": (lambda T, a: a.tanh(), ANY),
    "sigmoid": (lambda T, a: a.sigmoid(), ANY),
    "relu": (lambda T, a: a.relu(), NONZERO),
    "reciprocal": (lambda T, a: a.reciprocal(), NONZERO),
    "sqrt": (lambda T, a: a.sqrt(), POS),
    "abs": (lambda T, a: a.abs(), NONZERO),
    "sin": (lambda T, a: a.sin(), ANY),
    "cos": (lambda T, a: T.cos(a), ANY),
    "sign": (lambda T, a: a.sign(), NONZERO),
}


# ------------------------------------------------------------------ gradcheck
@pytest.mark.parametrize("name", sorted(BINARY))
@FAST
@given(data=st.data(), shapes=broadcast_pairs)
def test_binary_gradcheck(name: str, data: st.DataObject, shapes: Any) -> None:
    fn, (da, db) = BINARY[name]
    sa, sb = shapes.input_shapes
    check_gradcheck(fn, data.draw(arrays(sa, da)), data.draw(arrays(sb, db)))


@pytest.mark.parametrize("name", sorted(UNARY))
@FAST
@given(data=st.data(), shape=small_shapes)
def test_unary_gradcheck(name: str, data: st.DataObject, shape: tuple) -> None:
    fn, dom = UNARY[name]
    check_gradcheck(fn, data.draw(arrays(shape, dom)))


# --------------------------------------------------------------- vs PyTorch
PAIRS = [
    ((3,), (3,)),
    ((2, 3), (3,)),
    ((2, 1), (1, 3)),
    ((), (2, 3)),
    ((2, 3), ()),
    ((), ()),
    ((4, 1, 3), (2, 1)),
]
SHAPES = [(), (1,), (3,), (2, 3), (2, 1, 3)]


def _draw(shape: tuple, dom: Any, rng: np.random.Generator) -> np.ndarray:
    """Deterministic values in the op's domain (the hypothesis domains' ranges)."""
    x = rng.uniform(0.2, 2.0, shape)
    if dom is POS:
        return x
    sign = np.where(rng.random(shape) < 0.5, -1.0, 1.0)
    return x * sign


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shapes", PAIRS, ids=str)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_vs_torch(name: str, shapes: tuple, dtype: Any) -> None:
    fn, doms = BINARY[name]
    rng = np.random.default_rng(0)
    arrs = [_draw(s, d, rng) for s, d in zip(shapes, doms)]
    differential(fn, arrs, dtype)


@pytest.mark.parametrize("needs", [(True, False), (False, True)])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_one_input_requires_grad(name: str, needs: tuple) -> None:
    fn, doms = BINARY[name]
    rng = np.random.default_rng(1)
    arrs = [_draw(s, d, rng) for s, d in zip(((2, 3), (3,)), doms)]
    differential(fn, arrs, requires_grad=needs)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_vs_torch(name: str, shape: tuple, dtype: Any) -> None:
    fn, dom = UNARY[name]
    differential(fn, [_draw(shape, dom, np.random.default_rng(2))], dtype)


def test_no_grad_inputs_give_no_graph() -> None:
    arrs = [np.ones(3), np.ones(3)]
    differential(lambda T, a, b: a * b + a.exp(), arrs, requires_grad=(False, False))


def _rsub(T: Any, a: Any, b: Any) -> Any:
    return T.rsub(a, b, alpha=2)


def test_rsub_tensor_values_and_grads() -> None:
    rng = np.random.default_rng(5)
    differential(
        _rsub, [rng.normal(size=(2, 3)), rng.normal(size=3)], check_graph=False
    )


def test_rsub_tensor_node() -> None:
    rng = np.random.default_rng(5)
    differential(_rsub, [rng.normal(size=(2, 3)), rng.normal(size=3)])


# ---------------------------------------------------------------- second order
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_second_order(name: str) -> None:
    fn, doms = BINARY[name]
    rng = np.random.default_rng(3)
    second_order(fn, [_draw(s, d, rng) for s, d in zip(((2, 3), (3,)), doms)])


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_second_order(name: str) -> None:
    fn, dom = UNARY[name]
    second_order(fn, [_draw((2, 3), dom, np.random.default_rng(4))])


def test_second_order_graph_nodes() -> None:
    """The gradient recorded under create_graph has PyTorch's nodes too."""
    from op_harness import describe, torch

    outs = []
    for lib in (minigrad, torch):
        x = lib.tensor([0.5, 1.5], dtype=lib.float64, requires_grad=True)
        (g,) = lib.autograd.grad((x**3).sum(), x, create_graph=True)
        outs.append(describe(g.grad_fn, [x]))
    assert outs[0] == outs[1]
