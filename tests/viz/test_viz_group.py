"""Grouping by module in both views: nested clusters, depth= boxes."""

from __future__ import annotations

import re

import pytest

import viz
from viz.graph import build_graph, module_of


def nested(t, head_sum: bool = True):
    """``Outer(body=Net(encoder=Sequential(Linear, ReLU, Linear), head), out)``."""

    class Net(t.nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = t.nn.Sequential(
                t.nn.Linear(3, 4), t.nn.ReLU(), t.nn.Linear(4, 4)
            )
            self.head = t.nn.Linear(4, 2)

        def forward(self, x):
            return self.head(t.tanh(self.encoder(x)))

    class Outer(t.nn.Module):
        def __init__(self):
            super().__init__()
            self.body = Net()
            self.out = t.nn.Linear(2, 1)

        def forward(self, x):
            return self.out(self.body(x))

    t.manual_seed(0)
    net = Outer()
    y = net(t.randn(5, 3))
    return (y.sum() if head_sum else y), net


def placement(source: str) -> dict[str, tuple[str, ...]]:
    """Node id -> the clusters it is drawn in, outermost first (from the DOT)."""
    stack: list[str] = []
    where: dict[str, tuple[str, ...]] = {}
    for line in source.splitlines():
        text = line.strip()
        m = re.match(r'subgraph "?(cluster_[^" ]+)"? \{', text)
        if m:
            stack.append(m.group(1))
        elif text.startswith("subgraph"):
            stack.append("")  # a plain subgraph (the legend row)
        elif text == "}" and stack:
            stack.pop()
        else:
            node = re.match(r'"?([^" ]+)"? \[label=', text)
            if node:
                where[node.group(1)] = tuple(s for s in stack if s)
    return where


def edge_ends(source: str) -> set[str]:
    return {
        end
        for m in re.finditer(r'^\s*"?([^" ]+)"? -> "?([^" ]+)"? \[', source, re.M)
        for end in m.groups()
    }


def by_name(source: str, names: list[str]) -> dict[str, str]:
    """Node id -> its title (the first bold text of its label)."""
    found = {}
    for m in re.finditer(r'^\s*"?([^" ]+)"? \[label=<.*?<b>(.*?)</b>', source, re.M):
        if m.group(2) in names:
            found[m.group(1)] = m.group(2)
    return found


def test_nested_modules_own_the_nodes_between_their_parts(framework):
    loss, net = nested(framework)
    g = build_graph(loss, params=net)
    owner = {}
    for fid, path in module_of(g).items():
        owner.setdefault(g.functions[fid].name, set()).add(path)
    assert owner["ReluBackward0"] == {"body.encoder"}  # between encoder.0 and .2
    assert owner["TanhBackward0"] == {"body"}  # between encoder and head
    assert owner["AddmmBackward0"] == {
        "body.encoder.0",
        "body.encoder.2",
        "body.head",
        "out",
    }
    assert "SumBackward0" not in owner  # above every module


CLUSTER = "cluster_module-"


@pytest.mark.parametrize("view", ["backward", "forward"])
def test_group_nests_clusters_by_the_dotted_path(framework, view):
    loss, net = nested(framework)
    draw = viz.backward_graph if view == "backward" else viz.forward_graph
    src = draw(loss, params=net, group=True).source
    where = placement(src)
    body, enc = CLUSTER + "body", CLUSTER + "body.encoder"
    for name in ("body.encoder.0.weight", "body.encoder.2.bias"):
        (nid,) = by_name(src, [name])
        layer = CLUSTER + name.rsplit(".", 1)[0]
        assert where[nid] == (body, enc, layer), name
    (head,) = by_name(src, ["body.head.weight"])
    assert where[head] == (body, CLUSTER + "body.head")
    (out,) = by_name(src, ["out.weight"])
    assert where[out] == (CLUSTER + "out",)
    title = "ReluBackward0" if view == "backward" else "Relu"
    (relu,) = by_name(src, [title])
    assert where[relu] == (body, enc)
    (tanh,) = by_name(src, ["TanhBackward0" if view == "backward" else "Tanh"])
    assert where[tanh] == (body,)
    (top,) = by_name(src, ["SumBackward0" if view == "backward" else "Sum"])
    assert where[top] == ()
    # each cluster is named by its class and dotted path
    for label in ("Net body", "Sequential body.encoder", "Linear body.encoder.0"):
        assert f"<b>{label}</b>" in src


@pytest.mark.parametrize("view", ["backward", "forward"])
def test_depth_collapses_one_level_at_a_time(framework, view):
    loss, net = nested(framework)
    g = build_graph(loss, params=net)
    draw = viz.backward_graph if view == "backward" else viz.forward_graph
    expected = {
        1: {"module-body", "module-out"},
        2: {"module-body.encoder", "module-body.head", "module-out"},
        # (a module without submodules is one box at any greater depth)
        3: {
            "module-body.encoder.0",
            "module-body.encoder.2",
            "module-body.head",
            "module-out",
        },
    }
    for depth, boxes in expected.items():
        d = draw(loss, params=net, depth=depth)
        shown = d._shown_graph(d.options)
        assert set(shown.boxes) == boxes, depth
        # no node lost silently: drawn + inside the boxes = every autograd node
        drawn = [f for f in shown.functions if f not in shown.boxes]
        boxed = sum(len(b.functions) for b in shown.boxes.values())
        assert len(drawn) + boxed == len(g.functions), depth
        src = d.source
        ids = set(placement(src))
        assert edge_ends(src) <= ids, depth  # every arrow between drawn nodes
        for bid in boxes:
            assert bid in ids and 'class="module function module"' in src
    d2 = draw(loss, params=net, depth=2)
    src = d2.source
    where = placement(src)
    # a Sequential collapsed in its parent's cluster, with honest counts
    enc = d2._shown_graph(d2.options).boxes["module-body.encoder"]
    assert enc.title == "Sequential body.encoder (3 layers)"
    assert len(enc.functions) == 9  # 2 x (Addmm, T, 2 AccumulateGrad) + Relu
    assert "9 autograd nodes in one box" in src
    assert enc.described == [
        "0.bias (4,)",
        "0.weight (4, 3)",
        "2.bias (4,)",
        "2.weight (4, 4)",
    ]
    assert where["module-body.encoder"] == (CLUSTER + "body",)
    assert where["module-out"] == ()
    assert "Linear body.head" in src and "encoder.0.weight" not in src
    one = draw(loss, params=net, depth=1)
    assert one._shown_graph(one.options).boxes["module-body"].title == (
        "Net body (2 submodules)"
    )


@pytest.mark.parametrize("view", ["backward", "forward"])
def test_a_box_that_makes_the_output_draws_it(framework, view):
    y, net = nested(framework, head_sum=False)  # y is out's Addmm result
    draw = viz.backward_graph if view == "backward" else viz.forward_graph
    d = draw(y, params=net, depth=1)
    shown = d._shown_graph(d.options)
    (tid,) = shown.outputs
    assert shown.tensors[tid].producer == ("module-out", 0)
    src = d.source
    assert edge_ends(src) <= set(placement(src))
    if view == "backward":
        assert re.search(rf'"?{tid}"? -> "?module-out"? \[.*grad_fn', src)
    else:
        assert re.search(rf'"?module-out"? -> "?{tid}"? \[', src)
        # out reads what body made: body -> its output tensor -> out
        assert re.search(r'"module-body" -> "module-body-out0"', src)
        assert re.search(r'"module-body-out0" -> "module-out"', src)


def test_depth_must_be_positive(framework):
    loss, net = nested(framework)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="depth must be 1 or more"):
            viz.forward_graph(loss, params=net, depth=bad)
