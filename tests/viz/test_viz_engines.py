"""The same fonts and margins from either layout engine (issue #14).

Both engines get one DOT text. Every font and margin is spelled out in it
(graph, node, edge and cluster defaults; only Arial and Courier New), so
neither engine lays out from its own defaults; the pip engine's SVG uses
exactly those faces and sizes. With a system Graphviz ``dot`` on PATH (not
on CI), both layouts are compared: node sizes within a few percent, the same
font families and sizes, the same padding, pages within 3%. (Measured with
Debian's Graphviz 2.43: node widths within 3%, heights within 6%.)
"""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET

import pytest

import viz
from viz import export, render
from viz.dot import FONT, MONO, THEMES

SVG_NS = "{http://www.w3.org/2000/svg}"
GRAPH_DEFAULTS = {"fontname", "fontsize", "pad", "margin", "nodesep", "ranksep"}
NODE_DEFAULTS = {"fontname", "fontsize", "margin"}
EDGE_DEFAULTS = {"fontname", "fontsize"}
FAMILIES = set(render.FAMILIES.values())
SHAPES = ("polygon", "path", "ellipse")


def defaults(source: str, kind: str) -> dict[str, str]:
    """The attributes of the first ``graph [...]``, ``node [...]`` or
    ``edge [...]`` statement."""
    m = re.search(rf"^\t{kind} \[(.*)\]$", source, re.M)
    assert m, f"no {kind} defaults"
    return dict(re.findall(r'(\w+)=("[^"]*"|[^\s\]]+)', m.group(1)))


def drawings(t, seeds) -> list[tuple[str, str]]:
    """(name, DOT) of each look: inline, exported, slide; both views; a frame
    caption strip."""
    loss, params = seeds["seed2"](t)
    out = []
    for view in (viz.backward_graph, viz.forward_graph):
        d = view(loss, params=params)
        out.append((f"{view.__name__} inline", d.source))
        for size in (None, "slide"):
            o = d._resolved(export=True, size=size, title="t")
            out.append((f"{view.__name__} {size}", d._digraph(o).source))
    # a lesson graph: lesson 09's two-layer MLP and its MSE loss
    t.manual_seed(0)
    model = t.nn.Sequential(t.nn.Linear(3, 4), t.nn.ReLU(), t.nn.Linear(4, 1))
    mse = t.nn.functional.mse_loss(model(t.randn(5, 3)), t.randn(5, 1))
    mlp = viz.backward_graph(mse, params=model)
    out.append(("mlp inline", mlp.source))
    o = mlp._resolved(export=True, size="slide", title="MLP")
    out.append(("mlp slide", mlp._digraph(o).source))
    theme = THEMES["dark"]
    strip = export.caption_source("Step 1 of 2: x", theme, export.static_styles(theme))
    out.append(("caption strip", strip))
    return out


def test_every_font_and_margin_is_in_the_dot(minigrad, seeds):
    for name, source in drawings(minigrad, seeds):
        assert GRAPH_DEFAULTS <= set(defaults(source, "graph")), name
        assert NODE_DEFAULTS - {"margin"} <= set(defaults(source, "node")), name
        if name != "caption strip":  # (its nodes are fixed-size samples)
            assert NODE_DEFAULTS <= set(defaults(source, "node")), name
            assert EDGE_DEFAULTS <= set(defaults(source, "edge")), name
        faces = set(re.findall(r'face="([^"]*)"', source))
        names = {v.strip('"') for v in re.findall(r"fontname=(\S+?)[\s\]]", source)}
        assert faces <= {MONO} and names == {FONT}, (name, faces, names)
        for cluster in re.findall(r"subgraph (cluster_\w+) \{\n(.*?)\n", source):
            assert f"fontname={FONT}" in cluster[1], (name, cluster)


def test_every_line_of_a_label_has_its_height(minigrad, seeds):
    # Graphviz's pango lines are shorter than graphviz-pure's: a minimum cell
    # height per line (LINE_EM) keeps the nodes the same height in both
    for name, source in drawings(minigrad, seeds):
        for cell in re.findall(r"<td\b[^>]*>(?=<b>|<font)", source):
            assert re.search(r' height="\d+"', cell), (name, cell)
    # the faces are found by name by a system Graphviz: not PostScript names,
    # which it maps to a generic (wider) sans-serif
    assert (FONT, MONO) == ("Arial", "Courier New")


def page_size(svg: str) -> tuple[float, float]:
    return render.svg_size(svg)


def text_styles(svg: str) -> set[tuple[str, str]]:
    root = ET.fromstring(svg)
    return {
        (el.get("font-family"), el.get("font-size"))
        for el in root.iter(f"{SVG_NS}text")
    }


@pytest.mark.skipif(render._pure_binary() is None, reason="no graphviz-pure")
def test_pure_engine_draws_the_fonts_it_was_given(minigrad, seeds):
    for name, source in drawings(minigrad, seeds):
        sizes = {
            f"{float(s):.2f}"
            for s in re.findall(r'(?:fontsize|point-size)="?([\d.]+)', source)
        }
        styles = text_styles(render.svg(source, "pure"))
        assert {family for family, _ in styles} <= FAMILIES, name
        assert {size for _, size in styles} <= sizes, (name, styles, sizes)


def node_sizes(svg: str) -> dict[str, tuple[float, float]]:
    """id -> (width, height) of each node's outline (box, path or ellipse);
    plain-text nodes have none and are left out."""
    out = {}
    for g in ET.fromstring(svg).iter(f"{SVG_NS}g"):
        if "node" not in g.get("class", "").split():
            continue
        shapes = [e for e in g.iter() if e.tag[len(SVG_NS) :] in SHAPES]
        if not shapes:
            continue
        shape = shapes[0]
        if shape.tag == f"{SVG_NS}ellipse":
            out[g.get("id")] = (2 * float(shape.get("rx")), 2 * float(shape.get("ry")))
            continue
        points = shape.get("points") or shape.get("d")
        nums = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", points)]
        xs, ys = nums[0::2], nums[1::2]
        out[g.get("id")] = (max(xs) - min(xs), max(ys) - min(ys))
    return out


@pytest.mark.skipif(shutil.which("dot") is None, reason="no system Graphviz")
@pytest.mark.skipif(render._pure_binary() is None, reason="no graphviz-pure")
def test_system_dot_and_pure_engine_agree(minigrad, seeds):
    for name, source in drawings(minigrad, seeds):
        ours, theirs = render.svg(source, "pure"), render.svg(source, "system")
        assert text_styles(theirs) == text_styles(ours), name  # faces and sizes
        for mine, other in zip(page_size(ours), page_size(theirs)):
            assert other == pytest.approx(mine, rel=0.03), name
        a, b = node_sizes(ours), node_sizes(theirs)
        assert a.keys() == b.keys(), name
        for nid, (w, h) in a.items():
            assert b[nid][0] == pytest.approx(w, rel=0.08), (name, nid)
            assert b[nid][1] == pytest.approx(h, rel=0.08), (name, nid)
        pad = re.compile(r'transform="scale\(1 1\) rotate\(0\) translate\(([\d.]+) ')
        assert pad.search(ours).group(1) == pad.search(theirs).group(1), name
