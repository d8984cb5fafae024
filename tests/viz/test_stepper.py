"""The stepper, headless: frames are the engine's events, the order is PyTorch's,
``.grad`` mid-way is what the engine wrote, and the widget's traitlets drive it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import minigrad
from viz.stepper import BackwardStepper


def seed_graph(lib: Any) -> tuple[Any, dict]:
    inp = lib.ones(2, 2)
    w1, w2, w3 = (lib.tensor(v, requires_grad=True) for v in (2.0, 3.0, 4.0))
    l1 = inp * w1
    l2 = l1 + w2
    l3 = l1 * w3
    loss = (l2 * l3).mean()
    return loss, {"w1": w1, "w2": w2, "w3": w3}


def torch_order(build: Any) -> list[str]:
    torch = pytest.importorskip("torch")
    loss, _ = build(torch)
    order: list[str] = []
    seen: set[int] = set()
    stack = [loss.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        node.register_prehook(lambda g, n=node: order.append(type(n).__name__))
        stack.extend(fn for fn, _ in node.next_functions)
    loss.backward()
    return order


def test_frames_follow_pytorchs_order_and_grad_appears_when_written() -> None:
    loss, params = seed_graph(minigrad)
    stepper = BackwardStepper(loss, params=params)
    grads_seen = []
    while (frame := stepper.next()) is not None:
        grads_seen.append(
            {n: None if t.grad is None else t.grad.item() for n, t in params.items()}
        )
        assert frame is stepper.frames[-1]
        assert stepper.step == frame.index + 1
    assert [f.name for f in stepper.frames] == torch_order(seed_graph)
    assert stepper.done
    # each leaf's .grad is None until its AccumulateGrad frame, then final
    for f, seen in zip(stepper.frames, grads_seen):
        for leaf, _value in f.accumulated:
            assert seen[leaf] == pytest.approx(params[leaf].grad.item())
    first_w1 = next(i for i, s in enumerate(grads_seen) if s["w1"] is not None)
    assert stepper.frames[first_w1].name == "AccumulateGrad"
    assert all(s["w1"] is None for s in grads_seen[:first_w1])


def test_frames_carry_the_engine_events() -> None:
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = a * a
    y.register_hook(lambda g: g * 10)
    stepper = BackwardStepper(y.sum(), params={"a": a})
    stepper.run_all()
    names = [f.name for f in stepper.frames]
    assert names == ["SumBackward0", "MulBackward0", "AccumulateGrad"]
    s, m, acc = stepper.frames
    assert s.ready_ids == [m.node_id] and s.flow == [f"e-{s.node_id}-0"]
    assert m.hooks and m.hooks[0].startswith("tensor hook")
    np.testing.assert_allclose(m.grads_in[0].numpy(), [10.0, 10.0])
    assert m.released == ["_saved_self", "_saved_other"]
    assert acc.accumulated[0][0] == "a"
    np.testing.assert_allclose(acc.accumulated[0][1].numpy(), [20.0, 40.0])
    assert acc.done_ids == [s.node_id, m.node_id, acc.node_id]
    assert acc.written == [stepper.graph.functions[acc.node_id].variable]


def test_prev_and_goto_only_revisit_frames() -> None:
    loss, params = seed_graph(minigrad)
    stepper = BackwardStepper(loss, params=params)
    stepper.goto(3)
    assert (stepper.step, stepper.position) == (3, 3)
    stepper.prev()
    stepper.prev()
    assert (stepper.step, stepper.position) == (3, 1)
    assert stepper.next() is stepper.frames[1]  # replayed, not re-run
    assert stepper.step == 3
    stepper.reset()
    assert stepper.position == 0 and stepper.current is None
    assert stepper.describe()["title"] == "Before backward"


def test_an_error_appears_on_the_frame_that_raised_it() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x.sigmoid()
    z = (y * y).sum()
    y.mul_(2)
    stepper = BackwardStepper(z)
    stepper.run_all()
    last = stepper.frames[-1]
    assert stepper.done and last.name == "MulBackward0"
    assert "modified by an inplace operation" in last.error
    assert "which is output 0 of Mul, is at version 1" in last.error
    assert last.highlight()["error"] == [last.node_id]
    assert stepper.next() is None


def test_stepping_something_else_explains_why_not() -> None:
    # torch tensors are stepped too (tests/viz/test_torch_stepper.py)
    with pytest.raises(TypeError, match="needs minigrad or torch tensors"):
        BackwardStepper(np.ones(2))


def test_panel_shows_saved_tensors_grads_and_frees() -> None:
    loss, params = seed_graph(minigrad)
    stepper = BackwardStepper(loss, params=params)
    stepper.goto(2)
    rows = dict(stepper.describe()["rows"])
    assert rows["next_functions"] == "(AddBackward0, 0), (MulBackward0, 0)"
    assert "saved at version 0" in rows["_saved_self"]
    assert rows["freed"] == "_saved_self, _saved_other"
    assert "grads in" in rows and "grads out" in rows


# ---------------------------------------------------------------- the widget
def test_widget_controls_and_traitlets_drive_the_stepper() -> None:
    pytest.importorskip("anywidget")
    loss, params = seed_graph(minigrad)
    stepper = BackwardStepper(loss, params=params)
    widget = stepper.widget()
    assert widget.graph.svg.startswith("<svg") or "<svg" in widget.graph.svg
    legends = [c.value for c in widget.children if hasattr(c, "value")]
    assert any("waiting in the ready queue" in str(v) for v in legends)
    widget.next_button.click()
    assert stepper.position == 1 and widget.slider.value == 1
    assert widget.graph.highlight["running"] == [stepper.frames[0].node_id]
    widget.slider.value = 4  # runs engine nodes up to frame 4
    assert stepper.step == 4 and widget.graph.step == 4
    widget.graph._handle_custom_msg({"command": "prev"}, [])  # the Left key
    assert stepper.position == 3
    widget.end_button.click()
    assert stepper.done and params["w1"].grad.item() == pytest.approx(28.0)
    widget.graph.selected = stepper.frames[0].node_id  # a click on a node
    assert "MeanBackward0" in widget.panel.value
    widget.view_toggle.value = "forward"
    assert widget.graph.highlight["running"] == [
        stepper.graph.functions[stepper.frames[-1].node_id].variable
    ]


def test_widget_shows_callback_errors() -> None:
    pytest.importorskip("anywidget")
    loss, params = seed_graph(minigrad)
    stepper = BackwardStepper(loss, params=params)
    widget = stepper.widget()

    def broken() -> None:
        raise ValueError("boom")

    widget._safely(broken)
    assert "ValueError: boom" in widget.errors.value
