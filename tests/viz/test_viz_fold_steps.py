"""Stepping a big graph: a folded block stands for the repeat that runs, a
module box for the nodes inside it; the running node is always drawn."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from test_viz_group import nested
from test_viz_large import recurrent

import viz
from viz.graph import edge_id


def drawn_ids(svg: str, prefix: str) -> set[str]:
    ids = {e.get("id") or "" for e in ET.fromstring(svg[svg.index("<svg") :]).iter()}
    return {i[len(prefix) :] for i in ids if i.startswith(prefix)}


def titles(svg: str, prefix: str) -> dict[str, str]:
    """Drawn id -> the first text of its node (the node's name)."""
    out = {}
    for g in ET.fromstring(svg[svg.index("<svg") :]).iter():
        gid = g.get("id") or ""
        if not g.tag.endswith("}g") or "node" not in (g.get("class") or ""):
            continue
        text = next((t.text for t in g.iter() if t.tag.endswith("}text")), None)
        if gid.startswith(prefix) and text:
            out[gid[len(prefix) :]] = text
    return out


@pytest.fixture(scope="module", params=["torch", "minigrad"])
def loop_stepper(request):
    """A 30-step recurrent loop (150 nodes), folded, stepped to the end (a
    stepper folds by itself above dot.FOLD_ABOVE nodes: see the widget test)."""
    from conftest import load_framework

    t = load_framework(request.param)
    loss, params = recurrent(t, 30)
    stepper = viz.BackwardStepper(loss, params=params, id_prefix="L-", fold=True)
    stepper.run_all()
    yield stepper
    stepper.close()


def test_a_folded_loop_is_stepped_in_its_drawn_block(loop_stepper):
    s = loop_stepper
    (fold,) = s.drawing.folds
    assert fold.count == 29 and s.total == len(s.frames) > 150
    svg = s.svg()
    ids, names = drawn_ids(svg, "L-"), titles(svg, "L-")
    per_repeat = fold.nodes_per_repeat(s.graph.functions)
    assert per_repeat == 5  # Tanh, Add, Add, Mv, Mv
    for k, frame in enumerate(s.frames, start=1):
        lit = frame.highlight()
        for role, role_ids in lit.items():
            assert set(role_ids) <= ids, (k, role)
        # the running node is drawn, under its own name
        assert lit["running"] and names[lit["running"][0]] == frame.name, k
        # done: the repeat the block shows, not every repeat run so far
        shown = frame.fold_repeat.get(fold.id, 0)
        ran = [i for i in frame.done_ids if fold.repeat_of.get(i) == shown]
        block = [i for i in lit["done"] if fold.repeat_of.get(i) == 0]
        in_block = [i for i in frame.done_ids if i in fold.repeat_of]
        assert len(block) == (len(ran) if in_block else 0), k
        assert set(block) == {fold.twin.get(i, i) for i in ran} or not in_block
        # the gradient sent is drawn on the block's own edge
        assert set(s.overlay(frame)["edges"]) <= ids, k


def test_the_fold_says_which_repeat_runs(loop_stepper):
    s = loop_stepper
    (fold,) = s.drawing.folds
    notes = [f.folds[fold.id] for f in s.frames]
    assert notes[0] == "× 29: none of the 29 repeats has run yet"  # SumBackward0
    assert notes[-1] == "× 29: all 29 repeats done"
    # each repeat's first node: "repeat r of 29 running", r counting up
    seen = []
    for frame, note in zip(s.frames, notes, strict=True):
        m = re.fullmatch(r"× 29: repeat (\d+) of 29 running \((\d+) done\)", note)
        if m:
            r, done = int(m.group(1)), int(m.group(2))
            assert r == frame.fold_repeat[fold.id] + 1
            assert done in (r - 1, r)  # its last node completes it
            if not seen or seen[-1] != r:
                seen.append(r)
    assert seen == list(range(1, 30))
    frame = s.frames[60]
    assert s.overlay(frame)["folds"] == {fold.id: frame.folds[fold.id]}


def test_the_forward_view_steps_the_block_too(loop_stepper):
    s = loop_stepper
    ids = drawn_ids(s.svg("forward"), "L-")
    for k, frame in enumerate(s.frames, start=1):
        lit = frame.highlight("forward")
        assert lit["running"], k
        for role, role_ids in lit.items():
            assert set(role_ids) <= ids, (k, role)


def player_done(data: dict[str, Any]) -> list[set[str]]:
    """Per frame, "done" as player.js folds it: each repeat's "drop" taken
    out, then the frame's "done" (or else its running node) added."""
    done: list[str] = []
    out = []
    for stored in data["frames"][1:]:
        if "drop" in stored:
            done = [i for i in done if i not in set(stored["drop"])]
        for i in stored.get("done", stored["highlight"]["running"][:1]):
            if i not in done:
                done.append(i)
        out.append(set(done))
    return out


def test_the_player_folds_like_the_stepper(loop_stepper):
    """The HTML page builds "done" from the running nodes and each repeat's
    "drop" (as player.js does): the same as the stepper's frames."""
    from viz.player import player_data

    s = loop_stepper
    data = json.loads(json.dumps(player_data(s)))
    for k, (frame, done) in enumerate(zip(s.frames, player_done(data)), start=1):
        stored = data["frames"][k]
        expected = frame.highlight()["done"]
        assert done == set(expected), k
        assert stored["folds"] == frame.folds


def test_the_player_marks_a_module_box_done_when_all_of_it_ran(framework):
    """depth=1: the page lights the box "running" while any node inside runs
    and "done" only once every one of them ran, as the stepper's frames."""
    from viz.player import player_data

    loss, net = nested(framework)
    s = viz.BackwardStepper(loss, params=net, depth=1, id_prefix="M-")
    boxes = s.drawing._shown_graph(s.drawing.options).boxes
    inner = set(boxes["module-body"].functions)
    frames = s.run_all()
    data = json.loads(json.dumps(player_data(s)))
    runs_inside = 0
    for k, (frame, done) in enumerate(zip(frames, player_done(data)), start=1):
        assert done == set(frame.highlight()["done"]), k
        assert ("module-body" in done) == inner.issubset(frame.done_ids), k
        if frame.node_id in inner:
            runs_inside += 1
            assert data["frames"][k]["highlight"]["running"] == ["module-body"]
    assert runs_inside > 1  # (the box was running over several steps)
    s.close()


def test_module_boxes_stand_for_their_nodes(framework):
    loss, net = nested(framework)
    s = viz.BackwardStepper(loss, params=net, depth=1, id_prefix="M-")
    ids = drawn_ids(s.svg(), "M-")
    box = s.drawing._shown_graph(s.drawing.options).boxes["module-body"]
    inner = set(box.functions)
    frames = s.run_all()
    seen_inside = False
    for frame in frames:
        lit = frame.highlight()
        assert set(lit["running"]) <= ids
        if frame.node_id in inner:
            seen_inside = True
            assert lit["running"] == ["module-body"]
        # the box is done once every node in it ran, not before
        ran = set(frame.done_ids)
        assert ("module-body" in lit["done"]) == inner.issubset(ran)
    assert seen_inside
    s.close()


def test_the_widget_shows_the_fold_note(minigrad):
    pytest.importorskip("anywidget")
    loss, params = recurrent(minigrad, 100)
    s = viz.BackwardStepper(loss, params=params, id_prefix="W-")  # folds itself
    widget = s.widget()
    try:
        s.goto(12)
        (fold,) = s.drawing.folds
        view = widget.graph
        assert view.overlay["folds"] == {fold.id: s.current.folds[fold.id]}
        assert view.overlay["folds"][fold.id].startswith("× 99: repeat 3 of 99")
        ids = drawn_ids(view.svg, "W-")
        assert view.highlight["running"] and set(view.highlight["running"]) <= ids
        # an edge of a hidden repeat is drawn on its twin in the block
        flow = s.current.flow
        assert flow and set(view.highlight["flow"]) <= ids
        twin_edges = {fold.twin.get(e, e) for e in flow}
        assert set(view.highlight["flow"]) == twin_edges
        assert edge_id(s.current.node_id, 0) in fold.twin or s.current.node_id not in (
            fold.twin
        )
    finally:
        widget.close()
        s.close()
