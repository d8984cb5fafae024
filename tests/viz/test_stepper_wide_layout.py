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
from viz import stepper as stepper_module


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
    monkeypatch.setattr(stepper_module, "WIDE_MAX_NODES", nodes - 1)
    widget = s.widget()
    try:
        assert widget.graph.wide_svg == ""
    finally:
        widget.close()
        s.close()


def lesson_03_seed() -> tuple:
    """Lesson 03's seed graph, every tensor named: its leaves sit at three
    depths."""
    inp = minigrad.ones(2, 2)
    w1, w2, w3 = (minigrad.tensor(v, requires_grad=True) for v in (2.0, 3.0, 4.0))
    l1 = inp * w1
    l2, l3 = l1 + w2, l1 * w3
    l4 = l2 * l3
    loss = l4.mean()
    names = dict(input=inp, w1=w1, w2=w2, w3=w3, l1=l1, l2=l2, l3=l3, l4=l4)
    return loss, {**names, "loss": loss}


def three_leaves() -> tuple:
    """Lesson 10's graph, (a * b) * d: its three leaves share the bottom rank."""
    a, b, d = (minigrad.tensor(v, requires_grad=True) for v in (2.0, 3.0, 4.0))
    return a * b * d, {"a": a, "b": b, "d": d}


def px(svg: str) -> tuple[float, float]:
    w, h = svg_size(svg)
    return w * 4 / 3, h * 4 / 3


@pytest.mark.parametrize(
    ("graph", "beside"), [(lesson_03_seed, True), (three_leaves, False)]
)
def test_the_screen_draws_the_dense_layout(graph, beside: bool) -> None:
    """The stepper's own drawing (`BackwardStepper.svg`: the widget's, the
    picture's, the HTML player's) has smaller gaps than an inline drawing of
    the same graph (the same nodes), with each leaf beside its AccumulateGrad
    or a rank below it, whichever is whole at 70% in the 1366x768 view
    (`SCREEN_ROOM`); the inline drawing keeps its layout."""
    loss, params = graph()
    s = viz.BackwardStepper(loss, params=params, id_prefix="dn-")
    try:
        d = s.drawing
        inline = d.source
        opts = {k: d._resolved(export=False, dense=True, leaf_beside=k) for k in (0, 1)}
        sources = {k: d._digraph(o).source for k, o in opts.items()}
        assert "nodesep=0.3" in inline and "ranksep=0.35" in inline
        acc = re.findall(r'"(dn-f\d+)" -> "(dn-t\d+)" \[[^]]*class=variable', inline)
        assert len(acc) == 3
        for k, source in sources.items():
            assert "nodesep=0.2" in source and "ranksep=0.2" in source
            for fid, tid in acc:
                assert (f'{{rank=same; "{fid}"; "{tid}"}}' in source) == bool(k)
        assert "rank=same" not in inline
        svgs = {k: d._svg_for(o) for k, o in opts.items()}
        room = stepper_module.SCREEN_ROOM

        def whole(svg: str) -> bool:
            w, h = px(svg)
            return min(room[0] / w, room[1] / h) >= 0.7

        assert whole(svgs[beside]) and not whole(svgs[not beside])
        assert s.svg() == svgs[beside]
        assert node_ids(s.svg()) == node_ids(d.svg())
        # lesson 03's graph, as measured: 1272x797 px (inline 1237x1035)
        if beside:
            assert px(s.svg())[1] < px(d.svg())[1] * 0.8
    finally:
        s.close()


def svg_size(svg: str) -> tuple[float, float]:
    m = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)
    assert m is not None
    return float(m[1]), float(m[2])


def templates(page: str) -> dict[str, str]:
    """The HTML player's drawings as saved (state ""), by view name."""
    saved = r'<template class="mg-drawing" data-view="([^"]+)" data-state="">'
    found = re.findall(saved + "(.*?)</template>", page, re.S)
    return dict(found)


def test_the_html_player_offers_the_same_layouts(tmp_path) -> None:
    """The HTML player gets what the widget gets: each view laid out as the
    widget lays it out and, under "<view> wide", left to right (same ids); its
    screen code picks as the widget's does. None when rankdir= was given."""
    loss, params = seed()
    s = viz.BackwardStepper(loss, params=params, id_prefix="pl-")
    try:
        page = s.save(tmp_path / "steps.html").read_text(encoding="utf-8")
        drawn = templates(page)
        assert set(drawn) == {"backward", "forward", "backward wide", "forward wide"}
        for view in ("backward", "forward"):
            assert node_ids(drawn[f"{view} wide"]) == node_ids(drawn[view]) != set()
            (tw, th), (ww, wh) = svg_size(drawn[view]), svg_size(drawn[f"{view} wide"])
            assert ww / wh > tw / th  # wider for its height than top to bottom
        # the view toggle lists the two views only
        assert page.count('name="mg-view"') == 2
    finally:
        s.close()
    loss, params = seed()
    s = viz.BackwardStepper(loss, params=params, rankdir="TB")
    try:
        page = s.save(tmp_path / "given.html").read_text(encoding="utf-8")
        assert set(templates(page)) == {"backward", "forward"}
    finally:
        s.close()
