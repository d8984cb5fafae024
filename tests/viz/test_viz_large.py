"""Graphs of real size: the node limit, shared leaves drawn once per use."""

from __future__ import annotations

import re

import pytest
from test_viz_stable_layout import no_upward_grad_fn_edge, node_boxes

import viz
from viz.dot import COLLAPSE_TO, LIGHT_COPIES_ABOVE, backward_dot, drawn_nodes
from viz.graph import (
    MORE_ID,
    GraphTooLargeError,
    build_graph,
    edge_id,
    module_of,
    truncated,
)


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
    # fold=False: this chain repeats, and folding it would leave nothing to collapse
    d = viz.backward_graph(x, params={"w": w}, max_nodes=10**5, fold=False)
    src = d.source
    assert "more autograd nodes" in src and src.count("\t") < 3 * COLLAPSE_TO
    full = viz.backward_graph(
        x, params={"w": w}, max_nodes=10**5, collapse=False, fold=False
    )
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


def all_node_ids(source: str) -> list[str]:
    """Node ids at any depth (inside clusters too)."""
    return [i.strip('"') for i in re.findall(r"^\t+(\S+) \[label=", source, re.M)]


def drawn_functions(d) -> set[str]:
    return {i for i in all_node_ids(d.source) if re.fullmatch(r"f\d+", i)}


def test_recurrent_loop_folds_into_one_box(framework):
    loss, params = recurrent(framework, 30)
    g = build_graph(loss, params=params)
    d = viz.backward_graph(loss, params=params, fold=True)
    (fold,) = d.folds
    # step 1 reads h0 (no grad) and differs; steps 2..30 are one block of
    # Tanh, Add, Add, Mv, Mv drawn once
    assert fold.count == 29 and len(fold.shown) == 5
    assert [g.functions[f].name for f in fold.shown] == [
        "TanhBackward0", "AddBackward0", "AddBackward0", "MvBackward0", "MvBackward0"
    ]  # fmt: skip
    # no node lost silently: drawn + folded = every grad_fn of the graph
    drawn = drawn_functions(d)
    assert fold.hidden == 28 * 5
    assert len(drawn) + fold.hidden == len(g.functions)
    src = d.source
    assert "× 29: this block repeats 29 times" in src
    assert "the other 28 (140 autograd nodes) are folded" in src
    assert re.search(r"subgraph \"?cluster_fold0", src)
    # the block's way out goes to the step after the run, and says so
    ((src_id, nr),) = fold.exits
    exit_edge = next(e for e in d._shown_graph(d.options).edges if e.src == src_id
                     and e.input_nr == nr)  # fmt: skip
    assert exit_edge.dst == fold.exit and fold.exit in drawn
    assert "through the 28 folded repeats" in src and 'class="next folded"' in src
    # each shown node sits inside the cluster
    body = src.split("cluster_fold0", 1)[1]
    assert all(f"\t{f} [" in body or f'\t"{f}" [' in body for f in fold.shown)
    # the saved tensors of folded steps are not drawn; those of drawn ones are
    saved = {i for i in all_node_ids(src) if i in g.saved}
    assert saved == {s for s in g.saved if g.saved[s].node in drawn} and saved


def test_folding_is_automatic_only_for_big_graphs(framework):
    small, params = recurrent(framework, 8)
    assert viz.backward_graph(small, params=params).folds == []
    big, params = recurrent(framework, 60)
    d = viz.backward_graph(big, params=params)
    assert [f.count for f in d.folds] == [59]
    off = viz.backward_graph(big, params=params, fold=False)
    assert off.folds == [] and "cluster_fold" not in off.source
    assert len(drawn_functions(off)) == len(off.graph.functions)


def test_folding_keeps_which_weight_each_step_uses(framework):
    ws = [framework.tensor([1.0, 2.0], requires_grad=True) for _ in range(2)]
    x = framework.tensor([0.5, 0.5], requires_grad=True)
    for k in range(12):
        x = (x * ws[k % 2] + 0.1).tanh()
    d = viz.backward_graph(x.sum(), params={"w0": ws[0], "w1": ws[1]}, fold=True)
    (fold,) = d.folds
    # the block is two steps (one per weight), not one
    assert len(fold.shown) == 6 and fold.count == 5
    assert "w0" in d.source and "w1" in d.source


def test_a_named_tensor_is_never_folded_away(framework):
    w = framework.tensor([1.0, 2.0], requires_grad=True)
    x = w
    named = {}
    for k in range(20):
        x = (x * w).tanh()
        if k == 9:
            named["h9"] = x
    d = viz.backward_graph(x.sum(), params={"w": w, **named}, fold=True)
    assert len(d.folds) == 2  # the steps after h9, and those before it
    assert ">h9<" in d.source


def test_forward_view_folds_too(framework):
    loss, params = recurrent(framework, 30)
    d = viz.forward_graph(loss, params=params, fold=True)
    (fold,) = d.folds
    src = d.source
    assert fold.count == 29 and "× 29: this block repeats" in src
    assert "through the 28 folded repeats" in src and 'class="input folded"' in src
    ops = drawn_functions(d)
    g = build_graph(loss, params=params)
    ops_all = {f for f, fn in g.functions.items() if not fn.is_accumulate_grad}
    assert len(ops) + fold.hidden == len(ops_all)


def two_layers(t):
    class Net(t.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = t.nn.Linear(3, 4)
            self.fc2 = t.nn.Linear(4, 2)

        def forward(self, x):
            return self.fc2(t.relu(self.fc1(x)))

    t.manual_seed(0)
    net = Net()
    return net(t.randn(5, 3)).sum(), net


def test_nodes_are_grouped_by_module(framework):
    loss, net = two_layers(framework)
    g = build_graph(loss, params=net)
    owner = {g.functions[f].name + "@" + p for f, p in module_of(g).items()}
    for layer in ("fc1", "fc2"):
        assert {f"{n}@{layer}" for n in ("AddmmBackward0", "TBackward0")} <= owner
        assert sum(o == f"AccumulateGrad@{layer}" for o in owner) == 1  # (a set)
    assert not any(o.startswith("ReluBackward0") for o in owner)  # between them
    src = viz.backward_graph(loss, params=net, group=True).source
    for layer in ("fc1", "fc2"):
        body = src.split(f"cluster_module-{layer}", 1)[1].split("\n\t}", 1)[0]
        assert f"<b>Linear {layer}</b>" in body
        assert f"<b>{layer}.weight</b>" in body and f"<b>{layer}.bias</b>" in body
    assert "ReluBackward0" not in src.split("cluster_module-", 1)[1].split("}")[0]
    # names from a plain dict of parameters: the path without a class
    named = dict(net.named_parameters())
    plain = viz.backward_graph(loss, params=named, group=True).source
    assert "<b>fc1</b>" in plain and "Linear" not in plain


def test_depth_draws_a_module_as_one_box(framework):
    loss, net = two_layers(framework)
    g = build_graph(loss, params=net)
    d = viz.backward_graph(loss, params=net, depth=1)
    shown = d._shown_graph(d.options)
    assert set(shown.boxes) == {"module-fc1", "module-fc2"}
    fc1 = shown.boxes["module-fc1"]
    assert fc1.title == "Linear fc1" and len(fc1.functions) == 4  # Addmm, T, 2 Acc
    assert sorted(g.tensors[t].name for t in fc1.params) == ["fc1.bias", "fc1.weight"]
    # no node lost silently: drawn + inside the boxes = every autograd node
    drawn = [f for f in shown.functions if f not in shown.boxes]
    boxed = sum(len(b.functions) for b in shown.boxes.values())
    assert len(drawn) + boxed == len(g.functions)
    src = d.source
    assert "AccumulateGrad" not in src and "TBackward0" not in src
    assert "4 autograd nodes in one box" in src and "weight (4, 3)" in src
    # the boxes keep their in- and out-edges: fc2 -> relu -> fc1
    relu = next(f for f in shown.functions.values() if f.name == "ReluBackward0")
    arrows = {(e.src, e.dst) for e in shown.edges}
    assert ("module-fc2", relu.id) in arrows and (relu.id, "module-fc1") in arrows
    assert re.search(r'"module-fc2" -> "?' + relu.id, src)


def test_identical_layers_fold_and_name_their_parameters(framework):
    framework.manual_seed(0)
    layers = []
    for _ in range(6):
        layers += [framework.nn.Linear(4, 4), framework.nn.Tanh()]
    net = framework.nn.Sequential(*layers)
    loss = net(framework.randn(2, 4)).sum()
    g = build_graph(loss, params=net)
    d = viz.backward_graph(loss, params=net, fold=True)
    (fold,) = d.folds
    # layers 10, 8, 6, 4, 2 alike; layer 0 reads an input without grad
    assert fold.count == 5
    names = sorted(g.functions[f].name for f in fold.shown)
    assert names == ["AddmmBackward0", "TBackward0", "TanhBackward0"]
    # the folded layers' parameters (and AccumulateGrad nodes) are counted
    expected = [f"{i}.{p}" for i in (8, 6, 4, 2) for p in ("bias", "weight")]
    assert sorted(fold.params) == sorted(expected)
    assert fold.hidden == 4 * 3 + 8
    assert len(drawn_functions(d)) + fold.hidden == len(g.functions)
    src = d.source
    assert "each repeat has its own parameters: 8 not drawn" in src
    assert ">10.weight<" in src and ">0.weight<" in src and ">8.weight<" not in src


def test_folding_random_programs_loses_no_node(framework):
    """Seeded random programs (a random step repeated, shared weights,
    split/cat, several outputs, random ops around): every grad_fn is drawn or
    counted in a fold, every edge ends on a drawn node, and both views build."""
    import random

    from viz.graph import folded

    rng = random.Random(0)
    t = framework
    ops = ["mul", "add", "tanh", "split", "output", "skip"]
    folds = 0
    for _ in range(40):
        ws = [t.randn(3, requires_grad=True) for _ in range(rng.randint(1, 3))]
        xs = [t.randn(3, requires_grad=True)]
        outs = []

        def apply(op: str, w, xs=xs, outs=outs) -> None:
            a = xs[-1]
            if op == "mul":
                y = a * w
            elif op == "add":
                y = a + w
            elif op == "tanh":
                y = a.tanh()
            elif op == "split":
                p, q = a.split([1, 2])
                y = t.cat([q * 2, p]) * w
            elif op == "skip":
                y = a + rng.choice(xs)  # reads an older value: breaks repeats
            else:
                y = a * 2
                outs.append(y.sum())
            xs.append(y)

        step = [(rng.choice(ops), rng.choice(ws)) for _ in range(rng.randint(1, 3))]
        for op, w in [(rng.choice(ops), rng.choice(ws)) for _ in range(3)]:
            apply(op, w)
        for _ in range(rng.randint(2, 8)):
            for op, w in step:
                apply(op, w)
        apply(rng.choice(ops), rng.choice(ws))
        outs.append(xs[-1].sum())
        g = build_graph(outs)
        f = folded(g, 2)
        folds += len(f.folds)
        assert len(f.functions) + sum(x.hidden for x in f.folds) == len(g.functions)
        assert all(
            e.src in f.functions and (e.dst is None or e.dst in f.functions)
            for e in f.edges
        )
        assert viz.backward_graph(outs, fold=True).source
        assert viz.forward_graph(outs, fold=True).source
    assert folds >= 5  # the programs do repeat themselves


def test_big_drawings_draw_each_shared_leaf_once(framework):
    """Above LIGHT_COPIES_ABOVE nodes only the AccumulateGrad is drawn once per
    use, naming its leaf; the leaf (its values and grad cell) is drawn once."""
    loss, params = recurrent(framework, 100)
    d = viz.backward_graph(loss, params=params, fold=False)
    g = d.graph
    assert drawn_nodes(g) > LIGHT_COPIES_ABOVE
    src = d.source
    ids = all_node_ids(src)
    assert len(ids) == len(set(ids))
    copies = d.drawn_ids
    for leaf_name in ("Wh", "Wx", "b"):
        (tid,) = (t.id for t in g.tensors.values() if t.name == leaf_name)
        (fid,) = (f.id for f in g.functions.values() if f.variable == tid)
        assert tid not in copies and ids.count(tid) == 1
        assert re.search(rf'^\t{tid} \[.*class="leaf tensor shared"', src, re.M)
        assert not any(i.startswith(f"{tid}-use") for i in ids)
        assert copies[fid] == [fid] + [f"{fid}-use{k}" for k in range(2, 101)]
        assert set(copies[fid]) <= set(ids)
        # each copy gets the gradient of exactly one use and names its leaf
        heads = re.findall(rf'-> "?({fid}(?:-use\d+)?)"? \[[^\]]*class=next', src)
        assert sorted(heads) == sorted(copies[fid])
        assert src.count(f"{leaf_name}: 100 uses (one tensor)") == 100
        # one variable edge, from the first copy to the one leaf
        assert re.findall(rf"^\t(\S+) -> {tid} \[", src, re.M) == [fid]
    # the leaves' own badge, once each
    assert len(re.findall(r">100 uses \(one tensor\)<", src)) == 3
    # what is drawn: every grad_fn, one copy per further use, the tensors
    # and the saved slots; nothing else
    extra = sum(len(v) - 1 for v in copies.values())
    assert (
        len(ids)
        == drawn_nodes(g) + extra
        == len(g.functions) + 297 + len(g.shown_tensors) + len(g.saved)
    )


def test_stepper_on_a_big_drawing_writes_the_one_leaf(minigrad):
    loss, params = recurrent(minigrad, 100)
    stepper = viz.BackwardStepper(loss, params=params, fold=False)
    copies = stepper.drawing.drawn_ids
    frames = stepper.run_all()
    acc = [f for f in frames if f.name == "AccumulateGrad"]
    assert len(acc) == 3
    for frame in acc:
        lit = frame.highlight()
        assert lit["running"] == copies[frame.node_id]  # every copy lights up
        leaf = stepper.graph.functions[frame.node_id].variable
        assert leaf in lit["written"] and leaf not in copies


def test_big_loop_is_drawn_as_a_straight_column(framework):
    """The longest chain of grad_fn nodes is weighted (`dot.SPINE_WEIGHT`):
    unweighted, the 100-step loop was laid out as a diagonal 45,000 pt wide."""
    loss, params = recurrent(framework, 100)
    d = viz.backward_graph(loss, params=params, fold=False, engine="pure")
    g = d.graph
    spine = re.findall(r"weight=10\b", d.source)
    # Sum, then Tanh, Add, Add, Mv(Wh @ h) each step (Wx @ x branches off)
    assert len(spine) == 100 * 4
    svg = d.svg()
    width, height = (float(v) for v in re.search(
        r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg
    ).groups())  # fmt: skip
    assert width < 2500 and height > 10 * width
    no_upward_grad_fn_edge(d)
    boxes = node_boxes(svg)
    tanh = [f for f, info in g.functions.items() if info.name == "TanhBackward0"]
    xs = {round((boxes[f][0] + boxes[f][2]) / 2) for f in tanh}
    assert max(xs) - min(xs) < 200  # one column, not a drift


def test_big_drawings_label_grad_fn_nodes_without_tables(framework):
    """A compact drawing's grad_fn labels are lines of text (a fifth less
    layout time); tensors keep their tables (their grad cells keep the room)."""
    loss, params = recurrent(framework, 100)
    src = viz.backward_graph(loss, params=params, fold=False).source
    fn = re.findall(r'^\t\S+ \[label=(<.*?>) class="fn', src, re.M)
    assert fn and not any("<table" in label for label in fn)
    assert "<b>AddBackward0</b><br/><font" in src
    leaf = re.findall(r'^\t\S+ \[label=(<.*?>) class="leaf', src, re.M)
    assert len(leaf) == 3 and all("<table" in label for label in leaf)
    small = viz.backward_graph(*recurrent(framework, 2)).source
    fn = re.findall(r'^\t\S+ \[label=(<.*?>) class="fn', small, re.M)
    assert fn and all("<table" in label for label in fn)  # lesson-sized: tables


def test_big_forward_view_is_a_straight_column_too(framework):
    """The forward view's longest path is weighted as well: unweighted, the
    100-step loop's forward view was 6,361 pt wide (the 1,510-node loop's
    43,603 pt)."""
    loss, params = recurrent(framework, 100)
    d = viz.forward_graph(loss, params=params, fold=False, engine="pure")
    assert re.findall(r"weight=10\b", d.source)
    svg = d.svg()
    width, height = (float(v) for v in re.search(
        r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg
    ).groups())  # fmt: skip
    assert width < 2500 and height > 10 * width
    small = viz.forward_graph(*recurrent(framework, 2)).source
    assert "weight=" not in small  # lesson-sized drawings are unchanged


def scalar_loop(t, steps: int, weights: int = 2):
    """``x = (x * w + 0.1).tanh()``: Mul's and Add's outputs are saved by no
    op, and ``0.1`` is a ``None`` input nobody saved."""
    t.manual_seed(0)
    ws = [t.randn(3, requires_grad=True) for _ in range(weights)]
    x0 = t.randn(3, requires_grad=True)
    x = x0
    for k in range(steps):
        x = (x * ws[k % weights] + 0.1).tanh()
    return x.sum(), {"x0": x0, **{f"w{i}": w for i, w in enumerate(ws)}}


def drawn_edges(source: str) -> list[tuple[str, str, str]]:
    """(tail, head, attributes) of every edge of a DOT text."""
    found = re.findall(r'^\t"?([^"\s]+)"? -> "?([^"\s]+)"? \[(.*)\]$', source, re.M)
    return [(a, b, attrs) for a, b, attrs in found]


def test_compact_forward_view_draws_only_what_is_known(framework):
    """A compact forward view (big graphs) draws an input of which nothing
    is known (``+ 0.1``) as a line of its op, and an intermediate no op
    saved as the arrow between the ops; a small one draws both as boxes."""
    loss, params = scalar_loop(framework, 10)
    full = viz.forward_graph(loss, params=params, fold=False).source
    compact = viz.forward_graph(loss, params=params, fold=False, compact=True).source
    assert full.count("<b>tensor</b>") == 30  # 10 constants, 20 intermediates
    assert "<b>tensor</b>" not in compact
    assert compact.count("input 1: a constant (no grad)") == 10  # each Add
    assert "a constant (no grad)" not in full
    d = viz.forward_graph(loss, params=params, fold=False)
    ops = {f.id: f.name for f in d.graph.functions.values() if not f.is_accumulate_grad}
    ids = set(node_ids(compact))
    assert set(ops) <= ids
    edges = drawn_edges(compact)
    assert all(a in ids and b in ids for a, b, _ in edges)
    heads = {}
    for a, b, _ in edges:
        heads.setdefault(b, []).append(a)
    for fid, name in ops.items():
        if name == "AddBackward0":  # from its Mul, nothing else
            (tail,) = heads[fid]
            assert ops[tail] == "MulBackward0"
        if name == "TanhBackward0":
            (tail,) = heads[fid]
            assert ops[tail] == "AddBackward0"
    # every tanh output is saved (by Tanh and the next Mul) and the loss is
    # an output: drawn with values
    tensor_nodes = re.findall(r'^\t\S+ \[label=<(.*)> class="nonleaf', compact, re.M)
    assert len(tensor_nodes) == 11 and all("Courier" in lab for lab in tensor_nodes)
    # labels without numbers are lines of text, not tables
    op_labels = re.findall(r'^\t\S+ \[label=(<.*?>) class="op', compact, re.M)
    assert len(op_labels) == len(ops) and not any("<table" in x for x in op_labels)


def test_compact_forward_view_numbers_the_outputs_of_a_multi_output_op(framework):
    x = framework.tensor([1.0, 2.0], requires_grad=True)
    a, b = x.unbind(0)  # neither is saved: drawn as arrows from Unbind
    src = viz.forward_graph(a * 2 + b * 3, params={"x": x}, compact=True).source
    g = build_graph(a * 2 + b * 3)
    (unbind,) = (f.id for f in g.functions.values() if f.name == "UnbindBackward0")
    labels = sorted(
        re.search(r'label="([^"]*)"', attrs).group(1)
        for tail, _head, attrs in drawn_edges(src)
        if tail == unbind
    )
    assert labels == ["[0]", "[1]"]


def test_big_forward_view_draws_a_shared_leaf_in_full_once(framework):
    """Above LIGHT_COPIES_ABOVE nodes a shared leaf's copies name it and
    its uses; its values and grad are drawn once, at the op that ran first."""
    loss, params = scalar_loop(framework, 150)
    d = viz.forward_graph(loss, params=params, fold=False)
    src = d.source
    g = d.graph
    assert len(node_ids(src)) > LIGHT_COPIES_ABOVE
    (x0,) = (t.id for t in g.tensors.values() if t.name == "x0")
    (acc_x0,) = (f.id for f in g.functions.values() if f.variable == x0)
    (first_mul,) = (e.src for e in g.edges if e.dst == acc_x0)  # step 0's Mul
    for name in ("w0", "w1"):
        (tid,) = (t.id for t in g.tensors.values() if t.name == name)
        copies = d.drawn_ids[tid]
        assert len(copies) == 75 and copies[0] == tid
        assert d.grad_cell_ids[tid] == [tid]  # frame exports fill in one cell
        labels = dict(re.findall(r'^\t"?(\S+?)"? \[label=(<.*?>) class=', src, re.M))
        assert "grad:" in labels[tid] and "Courier" in labels[tid]
        for copy in copies[1:]:
            assert ">grad:<" not in labels[copy] and "Courier" not in labels[copy]
            assert "75 uses (one tensor)" in labels[copy]
            assert "values and grad: at its first use" in labels[copy]
    (w0,) = (t.id for t in g.tensors.values() if t.name == "w0")
    assert (w0, first_mul) in {(a, b) for a, b, _ in drawn_edges(src)}
    assert src.count("values and grad: at its first use") == 2 * 74


def test_huge_forward_views_collapse_with_a_note(framework):
    """The forward view of a graph too big to lay out is its part nearest
    the outputs, fed by one box saying how many nodes were left out."""
    w = framework.tensor([1.0, 2.0], requires_grad=True)
    x = w
    for _ in range(800):
        x = (x * w).tanh()  # 1,600 ops, 800 kept tanh outputs, 800 uses of w
    d = viz.forward_graph(x, params={"w": w}, max_nodes=10**5, fold=False)
    src = d.source
    ids = node_ids(src)
    assert COLLAPSE_TO // 2 < len(ids) <= COLLAPSE_TO + 1
    g = d.graph
    ops = [fid for fid, f in g.functions.items() if not f.is_accumulate_grad]
    drawn_ops = [fid for fid in ops if fid in set(ids)]
    assert drawn_ops == ops[: len(drawn_ops)]  # the last ops of the pass
    hidden = len(g.functions) - len(drawn_ops) - 1  # (w's AccumulateGrad is kept)
    assert f"… {hidden:,} more autograd nodes" in src and MORE_ID in ids
    into = [b for a, b, _ in drawn_edges(src) if a == MORE_ID]
    assert into == [drawn_ops[-1]]  # the oldest op drawn reads what it made
    full = viz.forward_graph(
        x, params={"w": w}, max_nodes=10**5, collapse=False, fold=False
    ).source
    assert "more autograd nodes" not in full and set(ops) <= set(node_ids(full))
