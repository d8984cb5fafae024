"""The widget offers its view the drawing laid out left to right too
(``GraphView.wide_svg``), for a screen whose room is wider than the
top-to-bottom drawing fits (graph_view.js picks; the browser side is
tests/browser/test_lesson_steppers_fit.py): the same nodes under the same ids,
in every theme and box state the widget shows; none when the stepper was
given a direction or the graph is big."""

from __future__ import annotations

import re

import pytest

import minigrad
import viz
from viz.widgets import stepper_widget


def seed() -> tuple:
    w1 = minigrad.tensor(2.0, requires_grad=True)
    w2 = minigrad.tensor(3.0, requires_grad=True)
    l1 = minigrad.ones(2, 2) * w1
    loss = ((l1 + w2) * l1).mean()
    return loss, {"w1": w1, "w2": w2, "l1": l1}


def node_ids(svg: str) -> set[str]:
    return set(re.findall(r'<g id="([^"]+)" class="node[ "]', svg))


def test_the_wide_layout_has_the_same_nodes_laid_out_across() -> None:
    pytest.importorskip("anywidget")
    loss, params = seed()
    s = viz.BackwardStepper(loss, params=params, id_prefix="wd-")
    widget = s.widget()
    view = widget.graph
    try:
        assert view.wide_svg and view.wide_svg != view.svg
        assert node_ids(view.wide_svg) == node_ids(view.svg) != set()

        def size(svg: str) -> tuple[float, float]:
            m = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)
            assert m is not None
            return float(m[1]), float(m[2])

        (tw, th), (ww, wh) = size(view.svg), size(view.wide_svg)
        assert ww / wh > tw / th  # wider for its height than top to bottom
        # the forward view and the dark theme come with their own wide layout
        widget.view_toggle.value = "forward"
        assert node_ids(view.wide_svg) == node_ids(view.svg)
        assert view.wide_svg == s.svg("forward", rankdir="LR")
        view.page_theme = "dark"
        assert view.wide_svg == s.svg("forward", theme="dark", rankdir="LR")
    finally:
        widget.close()
        s.close()


@pytest.mark.parametrize("given", [{"rankdir": "TB"}, {"rankdir": "LR"}])
def test_a_direction_given_to_the_stepper_is_kept(given: dict) -> None:
    pytest.importorskip("anywidget")
    loss, params = seed()
    s = viz.BackwardStepper(loss, params=params, **given)
    widget = s.widget()
    try:
        assert widget.graph.wide_svg == "" and widget.graph.svg
    finally:
        widget.close()
        s.close()


def test_a_big_drawing_gets_no_second_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("anywidget")
    loss, params = seed()
    s = viz.BackwardStepper(loss, params=params)
    nodes = s.svg().count('class="node')
    monkeypatch.setattr(stepper_widget, "WIDE_MAX_NODES", nodes - 1)
    widget = s.widget()
    try:
        assert widget.graph.wide_svg == ""
    finally:
        widget.close()
        s.close()
