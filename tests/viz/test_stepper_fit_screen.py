"""A stepper's graph fits a laptop's screen (`BackwardStepper.fit_screen`):
too big with every node drawn, a graph of modules is shown with each module as
one box a click opens, and says so; a depth the teacher gave is kept. The
widget offers the drawing with its leaves placed the other way as a third
layout (`other_svg`). The browser side: tests/browser/test_lesson_steppers_fit.py
and test_jupyterlab_screen.py."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import viz
from viz import render
from viz import stepper as stepper_module
from viz.stepper import BackwardStepper


def training_step(t: ModuleType) -> tuple[Any, dict]:
    """Lesson 09's graph: Linear(2, 16), Tanh, Linear(16, 2), cross-entropy
    over 200 points, the parameters named as ``named_parameters`` names them."""
    rng = np.random.default_rng(1)
    model = t.nn.Sequential(t.nn.Linear(2, 16), t.nn.Tanh(), t.nn.Linear(16, 2))
    with t.no_grad():
        for p in model.parameters():
            p.copy_(t.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape)).astype("f4")))
    x = t.tensor(rng.normal(size=(200, 2)).astype("f4"))
    y = t.tensor(rng.integers(0, 2, 200))
    loss = t.nn.CrossEntropyLoss()(model(x), y)
    return loss, {**dict(model.named_parameters()), "X": x, "loss": loss}


def laptop_whole(svg: str) -> bool:
    w, h = (size * 4 / 3 for size in render.svg_size(svg))
    room_w, room_h = stepper_module.SCREEN_ROOM
    return min(room_w / w, room_h / h) >= stepper_module.SCREEN_MIN_ZOOM


def screen_svgs(s: BackwardStepper) -> list[str]:
    return [svg for svg in (s.svg(), s.wide_svg(), s.other_svg()) if svg]


def test_a_graph_of_modules_too_big_for_the_screen_is_drawn_as_boxes(framework):
    loss, params = training_step(framework)
    s = BackwardStepper(loss, params=params, id_prefix="fs-")
    # every node drawn: no layout is whole on a laptop
    assert not any(laptop_whole(svg) for svg in screen_svgs(s))
    assert s.boxes() == {}
    assert s.fit_screen() == 1
    assert set(s.boxes()) == {"module-0", "module-2"}
    assert s.screen_note.startswith("modules drawn as boxes (depth=1)")
    assert laptop_whole(s.svg())
    assert s.fit_screen() == 1  # once
    # the pass is the same one: a node inside a box lights the box
    frames = s.run_all()
    running = [f.highlight()["running"][0] for f in frames]
    assert "module-2" in running and "module-0" in running
    assert [f.name for f in frames][:2] == ["NllLossBackward0", "LogSoftmaxBackward0"]
    # the box's tag names each of its leaves' .grad (one value hid the other)
    tag = s.overlay()["grads"]["module-2"]
    assert "2.weight.grad = " in tag and "2.bias.grad = " in tag, tag
    # a click opens a box again, every node of it drawn
    s.expand("module-2")
    assert s.boxes()["module-2"]["open"] and "AddmmBackward0" in s.svg()


@pytest.mark.parametrize("given", [None, 2])
def test_a_depth_the_teacher_gave_is_kept(minigrad, given):
    loss, params = training_step(minigrad)
    s = BackwardStepper(loss, params=params, depth=given)
    before = s.svg()
    assert s.fit_screen() == given
    assert s.svg() == before and s.screen_note == ""


def test_a_graph_that_fits_or_has_no_modules_is_drawn_as_it_is(minigrad):
    w = minigrad.tensor(2.0, requires_grad=True)
    small = BackwardStepper((w * 3).sum(), params={"w": w})
    assert small.fit_screen() is None and small.boxes() == {}
    # a loop too tall for the screen, but of no module: nothing to box
    h = minigrad.zeros(3)
    W = minigrad.ones(3, 3, requires_grad=True)
    for _ in range(8):
        h = minigrad.tanh(W @ h + 1)
    loop = BackwardStepper(h.sum(), params={"W": W})
    assert not any(laptop_whole(svg) for svg in screen_svgs(loop))
    assert loop.fit_screen() is None and loop.screen_note == ""


def test_the_widget_shows_the_fitted_drawing_and_its_note(minigrad):
    pytest.importorskip("anywidget")
    loss, params = training_step(minigrad)
    s = BackwardStepper(loss, params=params)
    widget = s.widget()
    try:
        assert widget.graph.note == s.screen_note != ""
        assert set(widget.graph.boxes) == {"module-0", "module-2"}
        assert widget.graph.svg == s.svg() and laptop_whole(widget.graph.svg)
        # its leaves are all in boxes: no other placement to offer
        assert widget.graph.other_svg == ""
    finally:
        widget.close()


def test_the_other_leaf_placement_is_offered_as_a_third_layout(minigrad):
    """Lesson 11's loop: leaves below their AccumulateGrad fit a laptop's width
    (it is the drawing), beside them it is shorter, whole at 1920x1080."""
    w_x = minigrad.tensor(0.5, requires_grad=True)
    w_h = minigrad.tensor(0.8, requires_grad=True)
    hs = [minigrad.tensor(0.0)]
    for x in (1.0, -1.0, 2.0):
        hs.append(minigrad.tanh(w_x * minigrad.tensor(x) + w_h * hs[-1]))
    names = {"w_x": w_x, "w_h": w_h, "h1": hs[1], "h2": hs[2], "loss": hs[-1]}
    s = viz.BackwardStepper(hs[-1], params=names)
    drawn, other = (render.svg_size(svg) for svg in (s.svg(), s.other_svg()))
    assert other[1] < drawn[1] and other[0] > drawn[0]
    assert drawn[0] * 4 / 3 * 0.7 <= stepper_module.SCREEN_ROOM[0]  # across
    assert s.other_svg("forward") == ""  # (the forward view has one placement)
    pytest.importorskip("anywidget")
    widget = s.widget()
    try:
        light = widget.graph.other_svg
        assert light == s.other_svg()
        widget.graph.page_theme = "dark"  # the theme changes all three
        assert widget.graph.other_svg == s.other_svg(theme="dark") != light
    finally:
        widget.close()
