"""The same graph keeps its layout before and after backward() (issue #14).

backward() frees saved tensors and fills in leaf grads. The drawing keeps the
freed slots in place (struck through, linked to what they held) and the grads
in the room the label kept for them, so the DOT structure is the same and the
pip engine puts every node at the same coordinates. Lesson-like graphs: the
seed graph, a small MLP with cross-entropy, lesson 11's unrolled RNN.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import viz
from viz import render
from viz.graph import SLOT_MEMORY

SVG_NS = "{http://www.w3.org/2000/svg}"
SHAPES = ("polygon", "path", "ellipse")
# what may change between before and after: looks, not structure
LOOKS = {"label", "style", "color", "fillcolor", "penwidth", "class", "tooltip"}


@pytest.fixture(autouse=True)
def pure_engine():
    if render._pure_binary() is None:
        pytest.skip("graphviz-pure is not installed")


def node_boxes(svg: str) -> dict[str, tuple[float, float, float, float]]:
    """id -> (x0, y0, x1, y1) of each node's first shape, as laid out."""
    out = {}
    for g in ET.fromstring(svg).iter(f"{SVG_NS}g"):
        if "node" not in g.get("class", "").split():
            continue
        shape = next(el for el in g.iter() if el.tag[len(SVG_NS) :] in SHAPES)
        if shape.tag.endswith("ellipse"):
            cx, cy = float(shape.get("cx")), float(shape.get("cy"))
            rx, ry = float(shape.get("rx")), float(shape.get("ry"))
            out[g.get("id")] = (cx - rx, cy - ry, cx + rx, cy + ry)
            continue
        text = shape.get("points") or shape.get("d")
        nums = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", text)]
        xs, ys = nums[0::2], nums[1::2]
        out[g.get("id")] = (min(xs), min(ys), max(xs), max(ys))
    return out


def structure(source: str) -> list[str]:
    """The DOT statements with their looks taken out: ids, edges, order, ranks."""
    out = []
    for line in source.splitlines():
        line = re.sub(r"label=<.*?>> ", "", line)  # HTML labels hold '=' too
        kept = [
            kv
            for kv in re.findall(r'(\w+)=("(?:[^"\\]|\\.)*"|[^\s\]]+)', line)
            if kv[0] not in LOOKS
        ]
        head = re.split(r"\s\[", line, maxsplit=1)[0]
        out.append(f"{head} {sorted(kept)}")
    return out


def seed_graph(t, seeds):
    loss, params = seeds["seed2"](t)
    return loss, {**params, "loss": loss}


def mlp_with_cross_entropy(t, _seeds):
    """Lesson 09's training step, smaller: Linear-Tanh-Linear and CE."""
    rng = np.random.default_rng(0)
    model = t.nn.Sequential(t.nn.Linear(2, 4), t.nn.Tanh(), t.nn.Linear(4, 3))
    with t.no_grad():
        for p in model.parameters():
            p.copy_(t.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape)).astype("f4")))
    x = t.tensor(rng.normal(size=(5, 2)).astype("f4"))
    y = t.tensor([0, 2, 1, 0, 1])
    loss = t.nn.CrossEntropyLoss()(model(x), y)
    return loss, {**dict(model.named_parameters()), "X": x, "loss": loss}


def unrolled_rnn(t, _seeds):
    """Lesson 11: h_t = tanh(w_x * x_t + w_h * h_(t-1)), three steps."""
    w_x = t.tensor(0.5, requires_grad=True)
    w_h = t.tensor(0.8, requires_grad=True)
    hs = [t.tensor(0.0)]
    for x in (1.0, -1.0, 2.0):
        hs.append(t.tanh(w_x * t.tensor(x) + w_h * hs[-1]))
    names = {"w_x": w_x, "w_h": w_h, "h1": hs[1], "h2": hs[2], "loss": hs[-1]}
    return hs[-1], names


GRAPHS = [seed_graph, mlp_with_cross_entropy, unrolled_rnn]


def no_upward_grad_fn_edge(drawing: viz.Drawing) -> None:
    """Every drawn tensor with a grad_fn sits above that grad_fn (TB)."""
    boxes = node_boxes(drawing.svg())
    g = drawing.graph
    for tid in g.shown_tensors:
        t = g.tensors[tid]
        if t.producer is not None:
            # SVG y grows downwards: the tensor's bottom is above the node's top
            assert boxes[tid][3] <= boxes[t.producer[0]][1], (t.name, tid)


@pytest.mark.parametrize("make", GRAPHS, ids=lambda f: f.__name__)
def test_same_layout_before_and_after_backward(framework, needs, seeds, make):
    needs(framework, "nn.Sequential", "nn.CrossEntropyLoss", "tanh")
    loss, params = make(framework, seeds)
    before = viz.backward_graph(loss, params=params, engine="pure")
    before_svg = before.svg()
    forward = viz.forward_graph(loss, params=params, engine="pure")
    forward_svg = forward.svg()
    loss.backward()
    after = viz.backward_graph(loss, params=params, engine="pure")
    forward_after = viz.forward_graph(loss, params=params, engine="pure")
    # the forward view too (it reads the constants a node saved)
    assert structure(forward_after.source) == structure(forward.source)
    assert node_boxes(forward_after.svg()) == node_boxes(forward_svg)
    assert {s.state for s in after.graph.saved.values()} == {"freed"}
    assert all(s.remembered for s in after.graph.saved.values())
    assert structure(after.source) == structure(before.source)
    assert after.source != before.source  # the grads and the freed slots show
    assert "freed by backward()" in after.source
    assert node_boxes(after.svg()) == node_boxes(before_svg)  # exactly
    for drawing in (before, after):
        no_upward_grad_fn_edge(drawing)


def test_grads_fill_the_room_kept_for_them(framework, seeds):
    loss, params = seed_graph(framework, seeds)
    before = viz.backward_graph(loss, params=params).source
    loss.backward()
    after = viz.backward_graph(loss, params=params).source
    w1 = re.search(r"\n\t(t\d+) \[label=<[^\n]*<b>w1</b>", after).group(1)
    assert "grad:" in before and ">None</font>" in before  # leaf.grad is None
    line = next(x for x in after.splitlines() if x.startswith(f"\t{w1} "))
    assert ">28.</font>" in line and 'fixedsize="true"' in line


def test_freed_slots_without_an_earlier_drawing(framework):
    """Drawn only after backward, a freed slot cannot say what it held."""
    SLOT_MEMORY.clear()
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    y = (a * a).sum()
    y.backward()
    g = viz.backward_graph(y).graph
    assert {s.state for s in g.saved.values()} == {"freed"}
    assert not any(s.remembered or s.tensor for s in g.saved.values())


def test_memory_keeps_no_graph_alive(framework):
    """It holds no node, tensor or saved value: a dropped graph is freed."""
    import gc
    import weakref

    SLOT_MEMORY.clear()
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    b = a * 3
    y = (b * b).sum()
    viz.backward_graph(y, params={"a": a, "b": b})
    assert SLOT_MEMORY.entries
    refs = [weakref.ref(a), weakref.ref(b), weakref.ref(y)]
    del a, b, y
    gc.collect()
    assert all(r() is None for r in refs)


def test_memory_forgets_old_graphs(monkeypatch, minigrad):
    """The memory holds the nodes of recent small graphs only."""
    SLOT_MEMORY.clear()
    monkeypatch.setattr(SLOT_MEMORY, "MAX_NODES", 5)
    kept = []
    for _ in range(8):
        a = minigrad.tensor(2.0, requires_grad=True)
        kept.append(a * a)
        viz.backward_graph(kept[-1])
    assert len(SLOT_MEMORY.entries) == 5
    assert SLOT_MEMORY.recall(kept[0].grad_fn, "self") is None
    assert SLOT_MEMORY.recall(kept[-1].grad_fn, "self") is not None
    monkeypatch.setattr(SLOT_MEMORY, "MAX_GRAPH", 0)  # larger graphs: not held
    SLOT_MEMORY.clear()
    viz.backward_graph(kept[0])
    assert not SLOT_MEMORY.entries


def test_before_and_after_slides_match(framework, seeds, tmp_path):
    """Exported slides (legend and title included) overlay exactly."""
    loss, params = seed_graph(framework, seeds)
    before = viz.backward_graph(loss, params=params, engine="pure")
    first = before.save(tmp_path / "before.svg", size="slide", title="loss").read_text()
    loss.backward()
    after = viz.backward_graph(loss, params=params, engine="pure")
    second = after.save(tmp_path / "after.svg", size="slide", title="loss").read_text()
    assert node_boxes(second) == node_boxes(first)
    assert render.svg_size(second) == render.svg_size(first)
