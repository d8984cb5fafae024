"""The stepper, headless: frames are the engine's events, the order is PyTorch's,
``.grad`` mid-way is what the engine wrote, and the widget's traitlets drive it."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import minigrad
from viz.stepper import BackwardStepper


def seed_graph(lib: Any, names: bool = False) -> tuple[Any, dict]:
    inp = lib.ones(2, 2)
    w1, w2, w3 = (lib.tensor(v, requires_grad=True) for v in (2.0, 3.0, 4.0))
    l1 = inp * w1
    l2 = l1 + w2
    l3 = l1 * w3
    l4 = l2 * l3
    loss = l4.mean()
    params = {"w1": w1, "w2": w2, "w3": w3}
    if names:  # the lesson's names for the intermediate tensors too
        params.update(l1=l1, l2=l2, l3=l3, l4=l4)
    return loss, params


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
    loss, params = seed_graph(minigrad, names=True)
    stepper = BackwardStepper(loss, params=params)
    stepper.goto(1)  # MulBackward0 (l4 = l2 * l3) has not run yet: still saved
    before = dict(stepper.describe_node(stepper.frames[0].ready_ids[0])["rows"])
    assert "saved at version 0" in before["_saved_self"]
    stepper.goto(2)
    panel = stepper.describe()
    rows = dict(panel["rows"])
    assert rows["next_functions"] == "(AddBackward0, 0), (MulBackward0, 0)"
    assert rows["_saved_self"].startswith("freed")  # released once it ran
    assert rows["freed"] == "_saved_self, _saved_other"
    assert panel["title"] == "MulBackward0 — l4 = l2 * l3"
    assert panel["step"] == "Step 2 of 8"
    assert panel["formula"] == "d(a * b) = (g * b, g * a)"
    assert rows["grad in"] == "[[0.25, 0.25],\n [0.25, 0.25]]"
    assert rows["-> AddBackward0 (l2)"] == "[[2., 2.],\n [2., 2.]]"
    assert rows["-> MulBackward0 (l3)"] == "[[1.25, 1.25],\n [1.25, 1.25]]"
    # the chain rule with this step's numbers: dl4/dl2 = l3 = 8
    assert "dL/dl2 = dL/dl4 · ∂l4/∂l2 = 0.25 · 8 = 2" in panel["chain"]


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
    assert widget.graph.panel["title"].startswith("MeanBackward0")
    widget.graph.selected = ""  # Esc or a click on the background
    assert widget.graph.panel["step"] == "Step 8 of 8"
    forward_svg = stepper.svg("forward")  # (the screen's dense layout)
    widget.view_toggle.value = "forward"
    # the view maps backward ids to the forward drawing with `leaf_of`
    assert widget.graph.view == "forward" and widget.graph.svg == forward_svg
    last = stepper.frames[-1].node_id
    assert widget.graph.highlight["running"] == [last]
    assert widget.graph.leaf_of[last] == stepper.graph.functions[last].variable


def test_widget_shows_callback_errors() -> None:
    pytest.importorskip("anywidget")
    loss, params = seed_graph(minigrad)
    stepper = BackwardStepper(loss, params=params)
    widget = stepper.widget()

    def broken() -> None:
        raise ValueError("boom")

    widget._safely(broken)
    assert "ValueError: boom" in widget.errors.value


# ------------------------------------------------------- the pass on the picture
def test_frames_carry_what_the_picture_overlays() -> None:
    loss, params = seed_graph(minigrad, names=True)
    stepper = BackwardStepper(loss, params=params)
    assert stepper.total == 8  # known before the first step
    ids = {t.name: tid for tid, t in stepper.graph.tensors.items() if t.name}
    stepper.goto(3)  # MeanBackward0, MulBackward0 (l4), MulBackward0 (l3)
    f1, f2, f3 = stepper.frames
    assert f1.edge_values == {f"e-{f1.node_id}-0": "[[0.25, 0.25], [0.25, 0.25]]"}
    mul_l3 = f3.node_id
    assert f3.edge_values[f"e-{mul_l3}-1"] == "10."  # dL/dw3, summed to w3's shape
    assert f2.freed == [f"{f2.node_id}-self", f"{f2.node_id}-other"]
    # l1's MulBackward0 has had 1 of its 2 gradients (from l3, not yet from l2)
    heads = {stepper.headline(n): n for n in stepper.graph.functions}
    mul_l1 = heads["MulBackward0 — l1 = const * w1"]
    arrived, expected, buffered = f3.waiting[mul_l1]
    assert (arrived, expected) == (1, 2) and buffered == "[[5., 5.], [5., 5.]]"
    # the ready queue in engine order: AccumulateGrad (seq max) before AddBackward0
    assert [name for _id, _seq, name in stepper.overlay(f3)["queue"]] == [
        "AccumulateGrad (w3)", "AddBackward0"]  # fmt: skip
    assert stepper.overlay(f3)["queue"][0][1] == "max"
    assert stepper.overlay(f3)["waiting"] == {mul_l1: "1 of 2 gradients arrived"}
    assert stepper.grads_at(3) == {}
    stepper.next()  # AccumulateGrad writes w3.grad
    assert stepper.current.leaf_grads == {ids["w3"]: "10."}
    stepper.run_all()
    assert stepper.grads_at() == {ids["w3"]: "10.", ids["w2"]: "8.", ids["w1"]: "28."}
    assert stepper.grads_at(4) == {ids["w3"]: "10."}  # as drawn at step 4
    assert sorted(stepper.freed_slots()) == sorted(stepper.graph.saved)
    # large tensors show their shape on the edge
    x = minigrad.ones(3, 4, requires_grad=True)
    big = BackwardStepper((x * 2).sum())
    big.next()
    assert list(big.current.edge_values.values()) == ["shape (3, 4)"]


def test_clicking_a_tensor_shows_its_details() -> None:
    loss, params = seed_graph(minigrad, names=True)
    stepper = BackwardStepper(loss, params=params)
    tid = next(t for t, info in stepper.graph.tensors.items() if info.name == "w1")
    rows = dict(stepper.describe_tensor(tid)["rows"])
    assert rows["name"] == "w1" and rows["shape"] == "()"
    assert rows["dtype"] == "float32" and rows["values"] == "2."
    assert (rows["requires_grad"], rows["is_leaf"]) == ("True", "True")
    assert rows["_version"] == "0" and rows[".grad now"] == "None"
    assert rows["made by"].startswith("(a leaf")
    stepper.run_all()
    assert dict(stepper.describe_tensor(tid)["rows"])[".grad now"] == "28."
    stepper.goto(2)  # display only: .grad as drawn at step 2
    assert dict(stepper.describe_tensor(tid)["rows"])[".grad now"] == "None"
    # a saved slot: the tensor it holds, who made and who saved it, freed or not
    slot = next(s for s in stepper.graph.saved.values() if s.attr == "_saved_self"
                and stepper.graph.tensors[s.tensor].name == "l2")  # fmt: skip
    panel = stepper.describe_tensor(slot.id)
    rows = dict(panel["rows"])
    assert panel["title"] == "tensor l2" and rows["made by"] == "AddBackward0"
    assert rows["saved by"] == "MulBackward0 (_saved_self)"
    assert rows["slot"] == "_saved_self, freed"  # MulBackward0 (l4) ran at step 2
    assert dict(stepper.describe_tensor(slot.id, 1)["rows"])["slot"].endswith("saved")
    assert stepper.describe_node(slot.id) == panel  # a click on any box works


def test_an_error_frame_shows_the_gradient_that_arrived() -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x.sigmoid()
    z = (y * y).sum()
    y.mul_(2)
    stepper = BackwardStepper(z)
    stepper.run_all()
    rows = dict(stepper.describe()["rows"])
    assert rows["grad in"] == "[1., 1.]"
    assert "modified by an inplace operation" in rows["error"]
    assert stepper.total == 2 and stepper.describe()["step"] == "Step 2 of 2"


def test_closing_the_widget_releases_the_graph() -> None:
    import gc
    import weakref

    pytest.importorskip("anywidget")
    from ipywidgets.widgets import widget as widget_registry

    def make() -> tuple[Any, Any]:
        loss, params = seed_graph(minigrad)
        stepper = BackwardStepper(loss, params=params)
        return stepper, weakref.ref(loss.grad_fn)

    before = len(widget_registry._instances)
    stepper, node = make()
    widget = stepper.widget()
    widget.next_button.click()
    widget.close()  # closes every control in it too
    assert len(widget_registry._instances) == before
    del stepper, widget
    gc.collect()
    assert node() is None

    # the cell re-run: its view goes away and the widget closes itself
    stepper, node = make()
    widget = stepper.widget()
    widget.graph._handle_custom_msg({"command": "view-opened"}, [])
    widget.graph._handle_custom_msg({"command": "view-closed"}, [])
    assert widget.comm is None and len(widget_registry._instances) == before
    assert stepper.widget() is not widget  # a new display gets a new widget
    stepper.widget().close()
    del stepper, widget
    gc.collect()
    assert node() is None


def test_display_data_carries_a_static_picture() -> None:
    pytest.importorskip("anywidget")
    loss, params = seed_graph(minigrad)
    stepper = BackwardStepper(loss, params=params, id_prefix="p-")
    bundle = stepper.widget()._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["image/svg+xml"] == stepper.svg()  # frame 0: the plain drawing
    stepper.next()
    picture = stepper.picture()
    running = re.search(r'<g id="p&#45;f0" class="([^"]*)"', picture)
    assert "mg-running" in running.group(1).split()
    assert ".mg-running polygon" in picture and "<style>" in picture
    stepper.widget().close()


def test_the_view_follows_the_notebook_theme_unless_one_is_given() -> None:
    pytest.importorskip("anywidget")
    loss, params = seed_graph(minigrad)
    stepper = BackwardStepper(loss, params=params)
    widget = stepper.widget()
    assert widget.graph.theme == "auto"
    widget.graph.page_theme = "dark"  # what the view reports in JupyterLab Dark
    assert widget.graph.svg == stepper.svg(theme="dark") != stepper.svg()
    widget.close()
    loss, params = seed_graph(minigrad)
    light = BackwardStepper(loss, params=params, theme="light")
    widget = light.widget()
    assert widget.graph.theme == "light"
    widget.graph.page_theme = "dark"
    assert widget.graph.svg == light.svg()  # the explicit theme wins
    widget.close()
