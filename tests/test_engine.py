"""Engine semantics by name: order, stepping, releasing, memory, higher order.

The printed behaviour is compared with PyTorch in tests/differential; these tests
look at what a transcript cannot show (object lifetimes, the step events)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import minigrad
from minigrad.engine import StepEvent, backward_steps
from minigrad.node import AccumulateGrad

torch = pytest.importorskip("torch")


def _all_nodes(root: Any) -> list:
    seen, stack = [], [root]
    while stack:
        node = stack.pop()
        if node is None or any(node is s for s in seen):
            continue
        seen.append(node)
        stack.extend(fn for fn, _ in node.next_functions)
    return seen


def _label(node: Any, names: dict) -> str:
    if type(node).__name__ == "AccumulateGrad":
        return "AG:" + names[id(node.variable)]
    return type(node).__name__


def torch_order(build: Callable[[Any], tuple[Any, dict]]) -> list[str]:
    """PyTorch's execution order, recorded with a pre-hook on every node."""
    out, leaves = build(torch)
    names = {id(t): n for n, t in leaves.items()}
    order: list[str] = []
    for node in _all_nodes(out.grad_fn):
        node.register_prehook(lambda g, node=node: order.append(_label(node, names)))
    out.backward()
    return order


def minigrad_order(build: Callable[[Any], tuple[Any, dict]]) -> list[str]:
    out, leaves = build(minigrad)
    names = {id(t): n for n, t in leaves.items()}
    return [_label(ev.node, names) for ev in backward_steps(out)]


def _seed_graph(lib: Any) -> tuple[Any, dict]:
    inp = lib.ones(2, 2)
    w1, w2, w3 = (lib.tensor(v, requires_grad=True) for v in (2.0, 3.0, 4.0))
    l1 = inp * w1
    l2 = l1 + w2
    l3 = l1 * w3
    loss = (l2 * l3).mean()
    return loss, {"w1": w1, "w2": w2, "w3": w3}


def _fanout(lib: Any) -> tuple[Any, dict]:
    p = lib.tensor([1.0, 2.0], requires_grad=True)
    q = p * 2
    r = q.exp()
    s = q.sin()
    t = r + s
    return (t * q).sum(), {"p": p}


def _chain_with_late_leaf(lib: Any) -> tuple[Any, dict]:
    a, b, c = (lib.tensor(v, requires_grad=True) for v in (1.0, 2.0, 3.0))
    y = a * b
    z = y * c
    return z.exp(), {"a": a, "b": b, "c": c}


def _matmul_mlp(lib: Any) -> tuple[Any, dict]:
    x = lib.tensor([[1.0, 2.0], [3.0, 4.0]])
    w = lib.tensor([[0.5, -1.0], [1.5, 0.25]], requires_grad=True)
    b = lib.tensor([0.1, -0.2], requires_grad=True)
    h = (x @ w + b).tanh()
    return (h * h).sum() / 2 - h.mean(), {"w": w, "b": b}


@pytest.mark.parametrize(
    "build", [_seed_graph, _fanout, _chain_with_late_leaf, _matmul_mlp]
)
def test_execution_order_matches_pytorch(build: Callable) -> None:
    assert minigrad_order(build) == torch_order(build)


def test_each_step_runs_one_node_and_grad_appears_when_its_accumulator_runs() -> None:
    loss, leaves = _seed_graph(minigrad)
    w1 = leaves["w1"]
    seen_grad = []
    for ev in backward_steps(loss):
        assert isinstance(ev, StepEvent)
        seen_grad.append(None if w1.grad is None else w1.grad.item())
        if isinstance(ev.node, AccumulateGrad) and ev.node.variable is w1:
            assert ev.accumulated == [(w1, w1.grad)]
    # w1's AccumulateGrad is the last node to run: None until then
    assert seen_grad[:-1] == [None] * (len(seen_grad) - 1)
    assert seen_grad[-1] == pytest.approx(torch_grads(_seed_graph)["w1"])


def torch_grads(build: Callable) -> dict:
    out, leaves = build(torch)
    out.backward()
    return {n: t.grad.item() for n, t in leaves.items()}


def test_step_events_show_grads_ready_queue_hooks_and_releases() -> None:
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = a * a
    y.register_hook(lambda g: g * 10)
    loss = y.sum()
    events = list(backward_steps(loss))
    names = [type(ev.node).__name__ for ev in events]
    assert names == ["SumBackward0", "MulBackward0", "AccumulateGrad"]
    sum_ev, mul_ev, acc_ev = events
    assert sum_ev.ready == (mul_ev.node,)
    assert [kind for kind, _ in mul_ev.hooks] == ["tensor"]
    np.testing.assert_allclose(mul_ev.grads_in[0].numpy(), [10.0, 10.0])
    assert mul_ev.released == ["self", "other"]
    # both edges of a*a deliver 10*a into one buffer: 20*a
    np.testing.assert_allclose(acc_ev.grads_in[0].numpy(), [20.0, 40.0])
    assert acc_ev.ready == ()


def test_saved_tensors_are_freed_by_backward_unless_retained() -> None:
    x = minigrad.tensor([0.5, 1.0], requires_grad=True)
    y = x.exp()
    node = y.grad_fn
    y.sum().backward(retain_graph=True)
    np.testing.assert_allclose(node._saved_result.detach().numpy(), np.exp([0.5, 1.0]))
    y.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second"):
        node._saved_result  # noqa: B018
    # the freed data is really gone: nothing else holds the result's array
    assert node._held is None


def test_dropping_the_output_frees_the_graph_without_the_cycle_collector() -> None:
    gc.disable()
    try:
        x = minigrad.tensor([0.5, 1.0], requires_grad=True)
        y = (x * 2).exp().tanh()
        first = weakref.ref(y.grad_fn.next_functions[0][0])
        saved = y.grad_fn._saved_result
        data = weakref.ref(saved)
        del saved
        del y
        assert first() is None
        assert data() is None
    finally:
        gc.enable()


def test_graph_without_saved_tensors_can_run_twice() -> None:
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    out = (a + a).sum()
    out.backward()
    out.backward()
    np.testing.assert_allclose(a.grad.numpy(), [4.0, 4.0])


def test_third_derivative_with_create_graph() -> None:
    x = minigrad.tensor(2.0, requires_grad=True)
    (g1,) = minigrad.autograd.grad(x**4, x, create_graph=True)
    (g2,) = minigrad.autograd.grad(g1, x, create_graph=True)
    (g3,) = minigrad.autograd.grad(g2, x)
    assert (g1.item(), g2.item(), g3.item()) == (32.0, 48.0, 48.0)


def test_gradcheck_accepts_a_right_backward_and_rejects_a_wrong_one() -> None:
    class Cube(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (x,) = ctx.saved_tensors
            return g * 3 * x**2

    class WrongCube(Cube):
        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (x,) = ctx.saved_tensors
            return g * 2 * x**2

    x = minigrad.tensor([0.3, -1.2, 2.0], dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradcheck(Cube.apply, (x,))
    with pytest.raises(minigrad.autograd.GradcheckError, match="Jacobian mismatch"):
        minigrad.autograd.gradcheck(WrongCube.apply, (x,))
    assert type(Cube.apply(x).grad_fn).__name__ == "CubeBackward"


def test_node_attributes_named_saved_are_pytorchs() -> None:
    """``[a for a in dir(fn) if a.startswith("_saved")]`` (a lesson idiom) lists
    exactly what PyTorch's node has."""
    for lib in (minigrad, torch):
        x = lib.ones(2, requires_grad=True)
        fn = (x * x).sum().grad_fn.next_functions[0][0]
        names = [a for a in dir(fn) if a.startswith("_saved")]
        assert names == ["_saved_other", "_saved_self"], lib.__name__


@pytest.mark.parametrize(
    ("grad_shape", "grad_dtype"),
    [
        ((3,), np.float64),
        ((2, 3), np.float64),
        ((3,), np.float32),
        ((4, 1, 3), np.float32),
    ],
)
def test_the_engines_inlined_gradient_check_agrees_with_the_node_check(
    grad_shape: tuple, grad_dtype: Any
) -> None:
    """GraphTask._send inlines node._conformed (a deliberate hot-path inline): a
    gradient of another shape or dtype is summed and cast the same way by both."""
    from minigrad import node as core

    class Broadcasting(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 1

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            data = np.arange(np.prod(grad_shape), dtype=grad_dtype)
            return minigrad.from_numpy(data.reshape(grad_shape))

    x = minigrad.zeros(3, dtype=minigrad.float64, requires_grad=True)
    y = Broadcasting.apply(x)
    node = y.grad_fn
    (checked,) = core.call_node(node, [np.ones(3)], graph=False)
    y.backward(minigrad.ones(3, dtype=minigrad.float64))
    checked = core._unwrap(checked)
    assert checked.dtype == x.grad.numpy().dtype == np.float64
    np.testing.assert_array_equal(checked, x.grad.numpy())
