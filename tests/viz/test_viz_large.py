"""Graphs of real size: the node limit, shared leaves drawn once per use."""

from __future__ import annotations

import re

import pytest

import viz
from viz.dot import COLLAPSE_TO, backward_dot
from viz.graph import MORE_ID, GraphTooLargeError, build_graph, edge_id, truncated


def recurrent(t, steps: int):
    """``h = tanh(Wh @ h + Wx @ x + b)`` unrolled: 3 weights shared by every step."""
    t.manual_seed(0)
    wh = t.randn(3, 3, requires_grad=True)
    wx = t.randn(3, 2, requires_grad=True)
    b = t.zeros(3, requires_grad=True)
    h = t.zeros(3)
    for _ in range(steps):
        h = t.tanh(wh @ h + wx @ t.randn(2) + b)
    return h.sum(), {"Wh": wh, "Wx": wx, "b": b}


def node_ids(source: str) -> list[str]:
    return [i.strip('"') for i in re.findall(r"^\t(\S+) \[label=", source, re.M)]


def test_node_limit_counts_what_is_drawn(framework):
    x = framework.tensor([1.0, 2.0], requires_grad=True)
    for _ in range(60):
        x = (x * 1.5).tanh()  # 121 autograd nodes, 120 saved tensors
    with pytest.raises(GraphTooLargeError, match="and saved tensors"):
        viz.backward_graph(x, max_nodes=200)
    drawing = viz.backward_graph(x, max_nodes=200, show_saved=False)
    assert len(drawing.graph.functions) == 121
    with pytest.raises(GraphTooLargeError, match=r"\(autograd nodes\)"):
        build_graph(x, max_nodes=100, count_saved=False)


def test_shared_leaf_is_drawn_once_per_use(framework):
    loss, params = recurrent(framework, 8)
    d = viz.backward_graph(loss, params=params, split_shared=True)
    g = d.graph
    acc = {g.functions[fid].name for fid in d.drawn_ids if fid in g.functions}
    assert acc == {"AccumulateGrad"}
    src = d.source
    ids = set(node_ids(src))
    for leaf_name in ("Wh", "Wx", "b"):
        (tid,) = (t.id for t in g.tensors.values() if t.name == leaf_name)
        copies = d.drawn_ids[tid]
        assert len(copies) == 8 and copies[0] == tid and set(copies) <= ids
        (fid,) = (f.id for f in g.functions.values() if f.variable == tid)
        assert d.drawn_ids[fid] == [fid] + [f"{fid}-use{k}" for k in range(2, 9)]
        # each copy of the AccumulateGrad gets the gradient of exactly one use
        heads = re.findall(rf'-> "?({fid}(?:-use\d+)?)"? \[[^\]]*class=next', src)
        assert sorted(heads) == sorted(d.drawn_ids[fid])
    # every copy (3 leaves and 3 AccumulateGrad, 8 each) says it is one tensor
    assert src.count("8 uses (one tensor)") == 48
    assert "shared" in src  # a class the stepper and CSS can use


def test_small_graphs_keep_one_node_per_leaf(framework):
    w = framework.tensor([1.0, 2.0], requires_grad=True)
    y = (w * 2 + w * 3).sum()
    d = viz.backward_graph(y, params={"w": w})
    assert d.drawn_ids == {} and "-use2" not in d.source
    split = viz.backward_graph(y, params={"w": w}, split_shared=True)
    g = split.graph
    (acc,) = (f for f in g.functions.values() if f.is_accumulate_grad)
    assert split.drawn_ids == {
        acc.id: [acc.id, f"{acc.id}-use2"],
        acc.variable: [acc.variable, f"{acc.variable}-use2"],
    }


def test_split_is_automatic_for_big_graphs(framework):
    loss, params = recurrent(framework, 20)
    d = viz.backward_graph(loss, params=params)
    assert d.drawn_ids and "-use20" in d.source


def test_edge_ids_come_from_one_helper(framework):
    a = framework.tensor([1.0], requires_grad=True)
    g = build_graph(a * 2)
    assert [e.id for e in g.edges] == [edge_id("f0", 0), edge_id("f0", 1)]


def test_stepper_highlights_every_copy(minigrad):
    loss, params = recurrent(minigrad, 6)
    stepper = viz.BackwardStepper(loss, params=params, split_shared=True)
    copies = stepper.drawing.drawn_ids
    frames = stepper.run_all()
    acc = [f for f in frames if f.name == "AccumulateGrad"]
    assert acc
    for frame in acc:
        lit = frame.highlight()
        assert lit["running"] == copies[frame.node_id]
        leaf = stepper.graph.functions[frame.node_id].variable
        assert set(copies[leaf]) <= set(lit["written"])
    assert set(copies[acc[0].node_id]) <= set(frames[-1].highlight()["done"])


def test_truncated_keeps_the_part_nearest_the_outputs(framework):
    w = framework.tensor([1.0, 2.0], requires_grad=True)
    x = w
    for _ in range(20):
        x = (x * w).tanh()
    g = build_graph(x, params={"w": w})
    part = truncated(g, 5)
    assert list(part.functions)[:5] == list(g.functions)[:5]
    names = [f.name for f in part.functions.values()]
    assert "AccumulateGrad" in names  # the kept Mul's weight is kept with it
    assert part.hidden == len(g.functions) - len(part.functions) > 0
    assert any(e.dst == MORE_ID for e in part.edges)
    assert all(s.node in part.functions for s in part.saved.values())
    src = backward_dot(part).source
    assert f"… {part.hidden:,} more autograd nodes" in src
    assert truncated(g, 10**6) is g


def test_huge_graphs_collapse_with_a_note(framework):
    w = framework.tensor([1.0, 2.0], requires_grad=True)
    x = w
    for _ in range(800):
        x = (x * w).tanh()  # 1,601 grad_fn, 2,400 saved, 800 leaf copies
    d = viz.backward_graph(x, params={"w": w}, max_nodes=10**5)
    src = d.source
    assert "more autograd nodes" in src and src.count("\t") < 3 * COLLAPSE_TO
    full = viz.backward_graph(x, params={"w": w}, max_nodes=10**5, collapse=False)
    assert "more autograd nodes" not in full.source


def test_forward_view_draws_a_shared_leaf_next_to_each_op(framework):
    loss, params = recurrent(framework, 8)
    src = viz.forward_graph(loss, params=params, split_shared=True).source
    ids = set(node_ids(src))
    d = viz.forward_graph(loss, params=params)  # 8 steps: automatic
    assert d.source == src
    for name in ("Wh", "Wx", "b"):
        (tid,) = (t.id for t in d.graph.tensors.values() if t.name == name)
        copies = {tid} | {f"{tid}-use{k}" for k in range(2, 9)}
        assert copies <= ids
        # each copy feeds exactly one op
        tails = re.findall(rf'^\t"?({tid}(?:-use\d+)?)"? -> ', src, re.M)
        assert sorted(tails) == sorted(copies)
    assert src.count("8 uses (one tensor)") == 24
    w = framework.tensor([1.0], requires_grad=True)
    small = viz.forward_graph(w * 2 + w * 3, params={"w": w}).source
    assert "-use2" not in small  # a lesson-sized graph keeps one w


def test_stepper_forward_view_highlights_every_copy(minigrad):
    loss, params = recurrent(minigrad, 6)
    stepper = viz.BackwardStepper(loss, params=params)
    copies = stepper.forward_drawing.drawn_ids
    drawn = set(node_ids(stepper.forward_drawing.source))
    prefix = stepper.forward_drawing.options.id_prefix
    assert copies and all({prefix + d for d in c} <= drawn for c in copies.values())
    frames = stepper.run_all()
    acc = [f for f in frames if f.name == "AccumulateGrad"]
    for frame in acc:
        leaf = stepper.graph.functions[frame.node_id].variable
        assert frame.highlight("forward")["running"] == copies[leaf]
