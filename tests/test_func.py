"""minigrad.func against torch.func: the transforms' values agree for a set of
functions (the transcripts are in tests/differential/programs)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FUNCTIONS = {  # scalar-valued f(lib, v) of a vector
    "sin_x": lambda lib, v: (v.sin() * v).sum(),
    "softmax_entropy": lambda lib, v: -(v.softmax(0) * v.log_softmax(0)).sum(),
    "quadratic": lambda lib, v: v @ lib.outer(v, v.cos()) @ v,
    "norm": lambda lib, v: v.norm() ** 3,
    "tanh_mlp": lambda lib, v: (lib.tanh(lib.outer(v, v) + 1) @ v).sum(),
}


def _run(lib: Any, name: str, x: np.ndarray) -> list[np.ndarray]:
    fn = FUNCTIONS[name]
    v = lib.tensor(x)

    def f(t: Any) -> Any:
        return fn(lib, t)

    def vec(t: Any) -> Any:  # a vector-valued relative
        return t.sin() * f(t)

    tf = lib.func
    out = [
        tf.grad(f)(v),
        tf.grad(lambda t: tf.grad(f)(t).sum())(v),
        tf.jacrev(vec)(v),
        tf.jacfwd(vec)(v),
        tf.hessian(f)(v),
        tf.jvp(vec, (v,), (v.cos(),))[1],
        tf.vjp(vec, v)[1](v.exp())[0],
        tf.vmap(tf.grad(f))(lib.stack([v, v * 2])),
    ]
    return [o.detach().numpy() for o in out]


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_transforms_match_torch_func(name: str) -> None:
    x = np.array([0.3, -1.2, 0.7])
    for mine, theirs in zip(_run(minigrad, name, x), _run(torch, name, x)):
        np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-12)


def test_vjp_and_jvp_over_a_parameter_dict() -> None:
    """A primal may be a dict of tensors (the NTK tutorial's parameters): vjp
    hands back a dict, jvp takes one of tangents. For a linear layer both have
    closed forms: the cotangent's pullback is (gᵀ x, Σ g), the pushforward of
    (dW, db) is x dWᵀ + db. (Not a differential program: PyTorch's functorch
    vjp of a dict, run in the test process, upsets a later lesson's stepper
    threads under PyTorch.)"""
    minigrad.manual_seed(2)
    net = minigrad.nn.Linear(3, 2)
    params = {k: v.detach() for k, v in net.named_parameters()}
    xs = minigrad.randn(4, 3)

    def call(p: dict) -> Any:
        return minigrad.func.functional_call(net, p, (xs,))

    out, pull = minigrad.func.vjp(call, params)
    cot = minigrad.randn(4, 2)
    (pulled,) = pull(cot)
    assert sorted(pulled) == ["bias", "weight"]
    np.testing.assert_allclose(pulled["weight"].numpy(), (cot.T @ xs).numpy(), 1e-6)
    np.testing.assert_allclose(pulled["bias"].numpy(), cot.sum(0).numpy(), 1e-6)
    _, pushed = minigrad.func.jvp(call, (params,), (pulled,))
    want = xs @ pulled["weight"].T + pulled["bias"]
    np.testing.assert_allclose(pushed.numpy(), want.numpy(), 1e-5)
    assert pushed.grad_fn is None and not out.requires_grad


def _rule_functions(lib: Any) -> tuple[Any, list]:
    """A Function with its own vmap rule (counting the batch sizes it sees)."""
    seen: list = []

    class Cube(lib.autograd.Function):
        @staticmethod
        def forward(x: Any) -> Any:
            return x**3

        @staticmethod
        def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (x,) = ctx.saved_tensors
            return g * 3 * x**2

        @staticmethod
        def vmap(info: Any, in_dims: tuple, x: Any) -> tuple:
            seen.append(info.batch_size)
            return Cube.apply(x), in_dims[0]

    return Cube, seen


def _composed(lib: Any) -> tuple[list, list]:
    """Each case's value, and the batch sizes its rule saw."""
    cube, seen = _rule_functions(lib)
    tf = lib.func
    x = lib.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
    w = lib.tensor([1.0, 2.0, -1.0])
    cases = [
        lambda: tf.vmap(tf.vmap(lambda a: cube.apply(a * 2) + a))(x),
        lambda: tf.vmap(lambda r: cube.apply(r) @ cube.apply(w))(x),
        lambda: tf.vmap(tf.grad(lambda r: (cube.apply(r) * w).sum()))(x),
        lambda: tf.vmap(tf.grad(lambda r: (cube.apply(r) * cube.apply(w)).sum()))(x),
        lambda: tf.grad(lambda t: tf.vmap(cube.apply)(t).sum())(x),
        lambda: tf.grad(
            lambda t: tf.vmap(tf.grad(lambda r: cube.apply(r).sum()))(t).sum()
        )(x),
    ]
    outs, sizes = [], []
    for case in cases:
        seen.clear()
        outs.append(case().detach().numpy())
        sizes.append(list(seen))
    return outs, sizes


def test_a_vmap_rule_composed_with_other_transforms() -> None:
    """Nested vmaps, a rule's result used with an unmapped one (PyTorch calls
    no rule for that), grad inside and outside vmap: the values are PyTorch's,
    and each rule is called as PyTorch calls it, also under vmap(grad) and
    grad(vmap(grad)); but in nested vmaps the inner rule runs once per outer
    element (README's known differences), so there only the innermost vmap's
    first call is compared."""
    (ours, our_sizes), (theirs, their_sizes) = _composed(minigrad), _composed(torch)
    for mine, expected in zip(ours, theirs):
        np.testing.assert_allclose(mine, expected, rtol=1e-6)
    assert our_sizes[0][:1] == their_sizes[0][:1] == [3]
    assert our_sizes[1:] == their_sizes[1:] == [[2], [2], [2], [2], [2]]
