"""Opening and closing a collapsed box while stepping: a module drawn as one
box (``depth=``) or a folded block. The kernel side, driven through the
widget's traitlets and messages as the browser sends them; the browser side is
tests/browser/test_stepper_boxes_screen.py."""

from __future__ import annotations

import pytest
from test_viz_fold_steps import drawn_ids, titles
from test_viz_group import nested
from test_viz_large import recurrent

import viz
from viz.graph import build_graph, grouped


def test_opening_a_module_draws_one_level_down(framework):
    loss, net = nested(framework)
    g = build_graph(loss, params=net)
    closed = grouped(g, 1)
    assert set(closed.boxes) == {"module-body", "module-out"}
    opened = grouped(g, 1, {"module-body"})
    assert set(opened.boxes) == {
        "module-body.encoder", "module-body.head", "module-out",
    }  # fmt: skip
    deeper = grouped(g, 1, {"module-body", "module-body.encoder"})
    assert set(deeper.boxes) == {
        "module-body.encoder.0", "module-body.encoder.2", "module-body.head",
        "module-out",
    }  # fmt: skip
    # the nodes of body itself (tanh between encoder and head) are drawn as such
    names = {f.name for fid, f in deeper.functions.items() if fid not in deeper.boxes}
    assert "TanhBackward0" in names and "ReluBackward0" in names
    assert "TanhBackward0" not in {f.name for f in closed.functions.values()}


def test_the_stepper_opens_and_closes_a_module_box(framework):
    loss, net = nested(framework)
    s = viz.BackwardStepper(loss, params=net, depth=1, id_prefix="B-")
    try:
        before = s.svg()
        assert s.boxes()["module-body"] == {
            "kind": "module", "title": "Net body (2 submodules)", "open": False,
        }  # fmt: skip
        s.goto(6)
        s.expand("module-body")
        assert s.boxes()["module-body"]["open"]
        assert s.boxes()["module-body"]["cluster"] == "cluster-module-body"
        svg = s.svg()
        ids, names = drawn_ids(svg, "B-"), titles(svg, "B-")
        assert "cluster-module-body" in ids and "module-body" not in ids
        assert "module-body.head" in ids and "module-body.encoder" in ids
        s.run_all()  # frames made before and after the click light drawn ids
        for k, frame in enumerate(s.frames, start=1):
            lit = frame.highlight()
            for role in ("running", "ready", "done"):
                assert set(lit[role]) <= ids, (k, role)
            running = lit["running"][0]
            if not running.startswith("module-"):
                assert names[running] == frame.name, k
        tanh = [f for f in s.frames if f.name == "TanhBackward0"]
        assert tanh and tanh[0].highlight()["running"] == [tanh[0].node_id]
        s.collapse("module-body")
        assert s.svg() == before  # the layout of before, not a new one
        assert not s.boxes()["module-body"]["open"]
        with pytest.raises(ValueError, match="no box 'module-nope' to open"):
            s.expand("module-nope")
        with pytest.raises(ValueError, match="'module-out' is not open"):
            s.collapse("module-out")
    finally:
        s.close()


def test_closing_a_module_closes_the_boxes_opened_in_it(minigrad):
    loss, net = nested(minigrad)
    s = viz.BackwardStepper(loss, params=net, depth=1, id_prefix="C-")
    s.expand("module-body")
    s.expand("module-body.encoder")
    assert {b for b, v in s.boxes().items() if v["open"]} == {
        "module-body", "module-body.encoder",
    }  # fmt: skip
    s.collapse("module-body")
    assert not [b for b, v in s.boxes().items() if v["open"]]


def test_a_folded_block_opens_into_every_repeat(framework):
    loss, params = recurrent(framework, 12)
    s = viz.BackwardStepper(loss, params=params, id_prefix="F-", fold=True)
    try:
        (fold,) = s.drawing.folds
        s.goto(20)
        note = s.current.folds[fold.id]
        assert note.startswith("× 11: repeat")
        assert s.boxes() == {
            fold.id: {"kind": "fold", "title": "× 11 block", "open": False}
        }
        s.expand(fold.id)
        assert s.drawing.folds == [] and s.current.folds == {}
        svg = s.svg()
        ids, names = drawn_ids(svg, "F-"), titles(svg, "F-")
        for frame in s.frames:  # every node is drawn as itself now
            assert frame.highlight()["running"] == [frame.node_id]
            assert names[frame.node_id] == frame.name
            assert set(frame.highlight()["done"]) == set(frame.done_ids) & ids
        assert s.boxes()[fold.id] == {
            "kind": "fold", "title": "× 11 block", "open": True, "cluster": "",
        }  # fmt: skip
        s.collapse(fold.id)
        assert s.current.folds[fold.id] == note  # counted again, the same
    finally:
        s.close()


def test_the_widget_opens_a_box_on_the_views_message(minigrad):
    """What the view sends on a click ({"command": "expand", "id": ...}) opens
    the box: a new picture, its boxes, the frame on display in drawn ids;
    "collapse" restores the first picture."""
    pytest.importorskip("anywidget")
    loss, net = nested(minigrad)
    s = viz.BackwardStepper(loss, params=net, depth=1, id_prefix="W-")
    widget = s.widget()
    view = widget.graph
    try:
        first = view.svg
        assert set(view.boxes) == {"module-body", "module-out"}
        widget.next_button.click()
        widget.next_button.click()
        view._handle_custom_msg({"command": "expand", "id": "module-body"}, [])
        assert widget.errors.value == ""
        assert view.svg == s.svg() != first
        assert view.boxes == s.boxes() and view.boxes["module-body"]["open"]
        assert view.step == 2 and view.highlight == s.current.highlight()
        ids = drawn_ids(view.svg, "W-")
        assert set(view.highlight["running"]) <= ids
        widget.view_toggle.value = "forward"  # the forward drawing opened too
        assert "cluster-module-body" in drawn_ids(view.svg, "W-")
        assert view.boxes == s.boxes("forward")
        widget.view_toggle.value = "backward"
        view._handle_custom_msg({"command": "collapse", "id": "module-body"}, [])
        assert view.svg == first and not view.boxes["module-body"]["open"]
        # a box that is not there: the error is shown, nothing changes
        view._handle_custom_msg({"command": "collapse", "id": "module-out"}, [])
        assert "is not open" in widget.errors.value and view.svg == first
    finally:
        widget.close()
        s.close()


def test_the_html_page_holds_the_drawings_of_sets_of_opened_boxes(framework, tmp_path):
    """The player opens boxes with no kernel, several at once: per set of
    opened boxes it holds (the fewest clicks away first, at most
    MAX_BOX_STATES besides the saved one), the drawing with those boxes
    opened, the frames in its drawn ids as the stepper lights them, and where
    each box's click leads."""
    import html
    import json
    import re

    from viz.player import MAX_BOX_STATES, state_key

    loss, net = nested(framework)
    s = viz.BackwardStepper(loss, params=net, depth=1, id_prefix="H-")
    try:
        s.run_all()
        page = s.save(tmp_path / "steps.html").read_text(encoding="utf-8")
        raw = re.search(r'<script type="application/json" id="mg-data">(.*?)</script>',
                        page, re.S).group(1)  # fmt: skip
        data = json.loads(raw)
        states = data["states"]
        assert data["boxes"]["backward"] == s.boxes()
        both = state_key(frozenset({"module-body", "module-out"}))
        # one click from the saved drawing, then two: both boxes open at once
        assert states[""]["moves"] == {
            "module-body": '["module-body"]', "module-out": '["module-out"]'
        }  # fmt: skip
        assert states['["module-body"]']["moves"]["module-out"] == both
        assert states[both]["moves"]["module-body"] == '["module-out"]'
        assert len(states) == MAX_BOX_STATES + 1  # the net has more sets than that
        for key, state in states.items():  # every click leads to a set held
            assert set(state["moves"].values()) <= set(states), key
        templates = re.findall(r'<template class="mg-drawing" data-view="(\w+)" '
                               r'data-state="([^"]*)">', page)  # fmt: skip
        assert sorted((v, html.unescape(k)) for v, k in templates) == sorted(
            (v, k) for k in states for v in ("backward", "forward")
        )  # fmt: skip
        state = states[both]
        s.expand("module-body")
        s.expand("module-out")
        assert state["boxes"]["backward"] == s.boxes()
        for k, frame in enumerate(s.frames, start=1):
            lit = frame.highlight()
            assert state["frames"][k]["highlight"]["running"] == lit["running"], k
            assert "panel" not in state["frames"][k]
        s.collapse("module-body")
        s.collapse("module-out")
        assert s.drawing.options.expand == frozenset()  # as it was saved
    finally:
        s.close()
