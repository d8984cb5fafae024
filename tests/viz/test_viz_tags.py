"""Stepper slide exports put each gradient tag where it covers no node box,
no edge label and no other tag (issue #14): on a slide the tags are of
lecture size, and at an edge's middle they covered the name of the node at
the end of a short edge (the seed graph's MulBackward0 -> AccumulateGrad,
the MLP's NllLossBackward0 -> LogSoftmaxBackward0). A tag moved off its
edge is joined to the edge's middle by a line.

Checked on the SVG frames (the tags' rects against the nodes' shapes, in the
graph's coordinates) and on the PDF pages as poppler reads them (the tags'
words against every other word), over the seed graph, lesson 02's loss and
a 2-layer MLP with cross-entropy, at size "slide" and "slide43".
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from viz import export, render
from viz.stepper import BackwardStepper

NS = "{http://www.w3.org/2000/svg}"
Box = tuple[float, float, float, float]


@pytest.fixture(autouse=True)
def _engine() -> None:
    if render._pure_binary() is None and render.shutil.which("dot") is None:
        pytest.skip("no Graphviz engine (pip install graphviz-pure)")


def seed(torch: Any) -> tuple[Any, dict]:
    inp = torch.ones(2, 2)
    w1, w2, w3 = (torch.tensor(v, requires_grad=True) for v in (2.0, 3.0, 4.0))
    l1 = inp * w1
    l2 = l1 + w2
    l3 = l1 * w3
    l4 = l2 * l3
    loss = l4.mean()
    return loss, dict(w1=w1, w2=w2, w3=w3, l1=l1, l2=l2, l3=l3, l4=l4, loss=loss)


def lesson_02(torch: Any) -> tuple[Any, dict]:
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    c = a * b
    d = torch.tensor(4.0, requires_grad=True)
    e = c * d
    return e, {"a": a, "b": b, "c": c, "d": d, "e": e}


def mlp_ce(torch: Any) -> tuple[Any, dict]:
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3)
    )
    x = torch.randn(5, 4)
    target = torch.tensor([0, 2, 1, 0, 1])
    loss = torch.nn.functional.cross_entropy(model(x), target)
    return loss, dict(model.named_parameters())


GRAPHS = {"seed": seed, "lesson_02": lesson_02, "mlp_ce": mlp_ce}


def meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def numbers(text: str) -> list[float]:
    return [float(v) for v in re.findall(r"-?[\d.]+", text)]


def frame_parts(svg: str) -> tuple[dict[str, Box], list[dict], dict[str, list]]:
    """An SVG frame's graph: node id -> its shapes' box, the edge tags (text,
    rect, lead line or None), edge id -> path numbers; graph coordinates."""
    graph = next(
        g for g in ET.fromstring(svg).iter(f"{NS}g") if g.get("id") == "graph0"
    )
    nodes, tags, edges = {}, [], {}
    for g in graph.iter(f"{NS}g"):
        kind = (g.get("class") or "").split()
        if "node" in kind:
            xs, ys = [], []
            for s in g.iter():
                if s.tag == f"{NS}ellipse":
                    cx, cy, rx, ry = (float(s.get(k)) for k in ("cx", "cy", "rx", "ry"))
                    xs += [cx - rx, cx + rx]
                    ys += [cy - ry, cy + ry]
                elif s.tag in (f"{NS}polygon", f"{NS}path"):
                    n = numbers(s.get("points") or s.get("d"))
                    xs += n[0::2]
                    ys += n[1::2]
            nodes[g.get("id")] = (min(xs), min(ys), max(xs), max(ys))
        elif "edge" in kind and g.find(f"{NS}path") is not None:
            edges[g.get("id")] = numbers(g.find(f"{NS}path").get("d"))
        elif "mg-edge-value" in kind:
            r = g.find(f"{NS}rect")
            x, y, w, h = (float(r.get(k)) for k in ("x", "y", "width", "height"))
            line = g.find(f"{NS}line")
            lead = None
            if line is not None:
                lead = tuple(float(line.get(k)) for k in ("x1", "y1", "x2", "y2"))
            tags.append(
                {"text": g.find(f"{NS}text").text, "box": (x, y, x + w, y + h),
                 "lead": lead}
            )  # fmt: skip
    return nodes, tags, edges


def stepper_for(torch: Any, name: str) -> BackwardStepper:
    loss, params = GRAPHS[name](torch)
    return BackwardStepper(loss, params=params, id_prefix="t-")


@pytest.mark.parametrize("size", ["slide", "slide43"])
@pytest.mark.parametrize("name", list(GRAPHS))
def test_slide_frame_tags_cover_no_node_and_no_tag(
    minigrad: Any, tmp_path: Path, name: str, size: str
) -> None:
    stepper = stepper_for(minigrad, name)
    folder = stepper.save(tmp_path / "svg", fmt="svg", size=size, progress=False)
    frames = sorted(folder.glob("frame_*.svg"))
    assert len(frames) == len(stepper.frames) + 1
    shown = 0
    for k, (path, frame) in enumerate(zip(frames[1:], stepper.frames), start=1):
        nodes, tags, edges = frame_parts(path.read_text())
        assert sorted(t["text"] for t in tags) == sorted(frame.edge_values.values())
        for i, tag in enumerate(tags):
            where = (name, size, k, tag["text"])
            hit = [n for n, box in nodes.items() if meets(tag["box"], box)]
            assert not hit, (where, hit)
            assert not any(meets(tag["box"], t["box"]) for t in tags[i + 1 :]), where
            # it sits on its edge's middle, or a line joins it to there
            middles = [export._middle(edges[f"t-{e}"]) for e in frame.edge_values]
            x0, y0, x1, y1 = tag["box"]
            if tag["lead"] is None:
                gap = min(
                    math.hypot(max(x0 - x, 0, x - x1), max(y0 - y, 0, y - y1))
                    for x, y in middles
                )
                assert gap <= (y1 - y0) / 2 + 0.01, (where, gap)
            else:
                end = tag["lead"][2:]
                assert any(math.dist(end, m) < 0.01 for m in middles), where
                lx, ly = tag["lead"][:2]  # (from the box's edge; SVG rounds)
                assert x0 - 0.01 <= lx <= x1 + 0.01 and y0 - 0.01 <= ly <= y1 + 0.01
            shown += 1
    assert shown >= 4


def pdf_words(pdf: Path) -> list[list[tuple[str, Box]]]:
    """Each page's words with their boxes, as poppler's pdftotext reads them."""
    html = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True,
        check=True,
    ).stdout  # fmt: skip
    pages = []
    for page in html.split("<page ")[1:]:
        words = re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
            r'yMax="([\d.]+)">([^<]*)</word>',
            page,
        )
        pages.append([(w[4], tuple(map(float, w[:4]))) for w in words])
    return pages


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
@pytest.mark.parametrize("size", ["slide", "slide43"])
@pytest.mark.parametrize("name", list(GRAPHS))
def test_pdf_page_tags_cover_no_other_text(
    minigrad: Any, tmp_path: Path, name: str, size: str
) -> None:
    """On each PDF page, the words a frame adds to the picture before
    backward (the tags, and the grads written into leaves' cells) meet no
    other word of the page (a node's name, shape, values; another tag)."""
    stepper = stepper_for(minigrad, name)
    pdf = stepper.save(tmp_path / "s.pdf", size=size, progress=False)
    pages = pdf_words(pdf)
    assert len(pages) == len(stepper.frames) + 1
    before = set(pages[0])
    checked = 0
    for k, frame in enumerate(stepper.frames, start=1):
        new = [w for w in pages[k] if w not in before and w[1][1] > 80]
        for text, box in new:
            others = [
                (t, b) for t, b in pages[k]
                if b != box and meets(_shrunk(box), _shrunk(b))
            ]  # fmt: skip
            assert not others, (name, size, k, text, box, others)
        values = " ".join(frame.edge_values.values()).split()
        checked += sum(w[0] in values for w in new)
    assert checked >= 4


def _shrunk(box: Box, by: float = 1.0) -> Box:
    """A word's box less a point each side (poppler's boxes include the
    line's leading, which touches the next line's)."""
    return (box[0] + by, box[1] + by, box[2] - by, box[3] - by)


def lesson_00(torch: Any) -> tuple[Any, dict]:
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    c = a * b
    return c, {"a": a, "b": b, "c": c}


def words_over_nodes(svg: str) -> list[tuple[str, str]]:
    """(edge label, node) pairs whose boxes share more than 2 pt each way."""
    _shift, geometry = export.svg_geometry(svg)
    labels = {k: b for k, b in geometry.items() if ":label" in k}
    nodes = {
        k: b
        for k, b in geometry.items()
        if isinstance(b, export.Obstacle) and ":label" not in k
    }
    return [
        (k, n)
        for k, a in labels.items()
        for n, b in nodes.items()
        if min(a[2], b[2]) - max(a[0], b[0]) > 2
        and min(a[3], b[3]) - max(a[1], b[1]) > 2
    ]


@pytest.mark.parametrize("size", ["slide", "slide43", "half-slide"])
def test_slide_edge_words_lie_over_no_node(minigrad: Any, size: str) -> None:
    """On a slide the edges' words ("variable", "grad_fn") are xlabels the
    engine places in the gap beside the edge; with ranks 0.35 in apart it
    laid them over the boxes at both ends of short edges (lesson 00's slide:
    all 3 of them, 39 over these graphs and sizes). A slide whose words would
    collide is laid out with its ranks `SLIDE_RANKSEP` apart; one whose
    words fit keeps the usual gap (the 2-layer MLP's slide keeps its size)."""
    import viz
    from viz import dot

    graphs = {**GRAPHS, "lesson_00": lesson_00}
    roomy = 0
    for name, build in graphs.items():
        for show_saved in (True, False):
            loss, params = build(minigrad)
            d = viz.backward_graph(loss, params=params, show_saved=show_saved)
            opts = d._resolved(export=True, size=size)
            svg = d._svg_for(opts)
            assert not words_over_nodes(svg), (name, show_saved)
            wide = f"ranksep={dot.SLIDE_RANKSEP}" in d._digraph(opts).source
            roomy += wide
            if not wide:  # (the usual gap, where its words fit)
                assert "ranksep=0.35" in d._digraph(opts).source
    assert 0 < roomy < 2 * len(graphs)
