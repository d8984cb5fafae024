"""Slide presets are slides: exact pages, lecture fonts, a one-row legend, a title;
arrows point one way."""

from __future__ import annotations

import dataclasses
import re
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET

import pytest

import viz
from viz import render
from viz.dot import THEMES

NS = "{http://www.w3.org/2000/svg}"


def seed_drawing(framework, seeds):
    loss, params = seeds["seed2"](framework)
    return viz.backward_graph(loss, params={**params, "loss": loss})


_PLACE = re.compile(
    r'<g id="page-(\w+)" transform="translate\(([-\d.]+) ([-\d.]+)\) '
    r'scale\(([\d.]+)\)">\s*<g id="\w+" class="graph" transform="scale\(1 1\) '
    r'rotate\(0\) translate\(([-\d.]+) ([-\d.]+)\)"'
)


def placements(svg: str) -> dict[str, tuple[float, float, float, float, float]]:
    """Page part ("title", "caption", "graph", "legend") -> (x, y, scale, tx, ty): a
    point (u, v) the engine drew in it is at (x + s (tx + u), y + s (ty + v))
    on the page."""
    return {
        m.group(1): tuple(float(v) for v in m.groups()[1:])
        for m in _PLACE.finditer(svg)
    }


def part_boxes(svg: str) -> dict[str, tuple[float, float, float, float]]:
    """Page part -> (left, top, right, bottom) on the page of what the engine
    drew (its background polygon, the part's whole picture)."""
    out = {}
    for g in ET.fromstring(svg).iter(f"{NS}g"):
        name = (g.get("id") or "").partition("page-")[2]
        if name not in render.PAGE_PARTS:
            continue
        x, y, s, tx, ty = placements(svg)[name]
        poly = next(g.iter(f"{NS}polygon"))
        pts = [tuple(map(float, p.split(","))) for p in poly.get("points").split()]
        xs = [x + s * (tx + u) for u, _ in pts]
        ys = [y + s * (ty + v) for _, v in pts]
        out[name] = (min(xs), min(ys), max(xs), max(ys))
    return out


def on_page(svg: str, part: str, u: float, v: float) -> tuple[float, float]:
    x, y, s, tx, ty = placements(svg)[part]
    return x + s * (tx + u), y + s * (ty + v)


def centres(svg: str) -> dict[str, tuple[float, float]]:
    """id -> position (x, y) of every node's first line of text, in SVG units."""
    out = {}
    for g in ET.fromstring(svg).iter(f"{NS}g"):
        text = g.find(f"{NS}text")
        if "node" in g.get("class", "").split() and text is not None:
            out[g.get("id")] = (float(text.get("x")), float(text.get("y")))
    return out


@pytest.mark.parametrize(
    ("size", "page"), [("slide", (960, 540)), ("slide43", (720, 540))]
)
def test_slide_pages_have_exactly_that_aspect(framework, seeds, tmp_path, size, page):
    d = seed_drawing(framework, seeds)
    svg = d.save(tmp_path / "s.svg", size=size, title="Seed 2").read_text()
    assert render.svg_size(svg) == page
    png = d.save(tmp_path / "s.png", size=size, dpi=96).read_bytes()
    assert struct.unpack(">II", png[16:24]) == (page[0] * 96 // 72, page[1] * 96 // 72)
    pdf = d.save(tmp_path / "s.pdf", size=size).read_bytes()
    box = re.search(rb"/MediaBox \[\s*([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)", pdf)
    assert [round(float(v)) for v in box.groups()] == [0, 0, *page]


def wide_and_tall(t):
    """Eight parallel products summed (wide) and a chain of twelve (tall)."""
    xs = [t.tensor(float(i), requires_grad=True) for i in range(8)]
    wide = viz.backward_graph(sum(x * x for x in xs))
    y = x = t.tensor(1.0, requires_grad=True)
    for _ in range(12):
        y = y * 1.1
    return wide, viz.backward_graph(y, params={"x": x})


@pytest.mark.parametrize(
    ("size", "page"), [("slide", (960, 540)), ("slide43", (720, 540))]
)
def test_the_graph_is_centred_under_the_title(minigrad, seeds, tmp_path, size, page):
    e, names = seeds["seed1"](minigrad)
    small = viz.backward_graph(e, params=names)
    margin, gap = render.PAGE_MARGIN_PT, render.PAGE_GAP_PT
    for d in (small, *wide_and_tall(minigrad)):
        for extras in ({"title": "A title", "legend": True}, {"legend": False}):
            svg = d.save(tmp_path / "c.svg", size=size, **extras).read_text()
            assert render.svg_size(svg) == page
            box = part_boxes(svg)
            assert set(box) == {"graph"} | (
                {"title", "legend"} if "title" in extras else set()
            )
            left, top, right, bottom = box["graph"]
            # the room for the graph: under the title, above the legend
            room_top = box["title"][3] + gap if "title" in box else margin
            room_bottom = (
                box["legend"][1] - gap if "legend" in box else page[1] - margin
            )
            assert left - margin == pytest.approx(page[0] - margin - right, abs=0.5)
            assert top - room_top == pytest.approx(room_bottom - bottom, abs=0.5)
            assert min(left - margin, top - room_top) >= -0.01  # inside it
            # it fills the room one way (or keeps the lecture size)
            scale = placements(svg)["graph"][2]
            fills = min(left - margin, top - room_top) < 0.5
            assert fills or scale == render.MAX_UPSCALE
            for part in ("title", "legend"):  # centred, at the top / the bottom
                if part in box:
                    x0, _, x1, _ = box[part]
                    assert x0 == pytest.approx(page[0] - x1, abs=0.5)
                    assert x0 >= margin - 0.01
            if "title" in box:
                assert box["title"][1] == pytest.approx(margin, abs=0.05)
                assert box["legend"][3] == pytest.approx(page[1] - margin, abs=0.05)


def test_png_slides_are_centred_too(minigrad, tmp_path):
    from PIL import Image, ImageChops

    wide, tall = wide_and_tall(minigrad)
    for d in (wide, tall):
        png = d.save(tmp_path / "c.png", size="slide", legend=False, dpi=72)
        image = Image.open(png).convert("RGB")
        assert image.size == (960, 540)
        blank = Image.new("RGB", image.size, "white")
        left, top, right, bottom = ImageChops.difference(image, blank).getbbox()
        assert abs(left - (960 - right)) <= 3 and abs(top - (540 - bottom)) <= 3


def test_png_says_its_dpi(framework, seeds, tmp_path):
    d = seed_drawing(framework, seeds)
    for kwargs in ({}, {"size": "slide"}):
        png = d.save(tmp_path / "s.png", dpi=120, **kwargs).read_bytes()
        i = png.index(b"pHYs")
        x, y, unit = struct.unpack(">IIB", png[i + 4 : i + 13])
        assert unit == 1 and x == y == round(120 / 0.0254)


def test_lecture_fonts_on_a_1280_slide(framework, seeds, tmp_path):
    d = seed_drawing(framework, seeds)  # 22 nodes
    opts = d._resolved(export=True, size="slide", title="Seed 2")
    source = d._digraph(opts).source
    node_pt = float(re.search(r"node \[[^\]]*fontsize=(\d+)", source).group(1))
    page = d.save(tmp_path / "s.svg", size="slide", title="Seed 2").read_text()
    scale = placements(page)["graph"][2]
    assert node_pt * scale * 1280 / 960 >= 18  # node names in px on a 1280x720 slide
    assert 'point-size="10"' not in source  # no 10 pt detail text on slides
    assert "Seed 2" in source and "labelloc=t" in source


def test_slide_legend_is_one_row_at_the_bottom(framework, seeds, tmp_path):
    d = seed_drawing(framework, seeds)
    svg = d.save(tmp_path / "s.svg", size="slide").read_text()
    assert "cluster_legend" not in svg
    root = ET.fromstring(svg)
    legend = next(g for g in root.iter(f"{NS}g") if g.get("id") == "legend")
    ys = [
        on_page(svg, "legend", 0, float(t.get("y")))[1]
        for t in legend.iter(f"{NS}text")
        if (t.text or "").strip()
    ]
    assert len(ys) >= 5  # leaf, non-leaf, output, grad_fn, AccumulateGrad, saved
    assert max(ys) - min(ys) < 1  # one line of text
    lowest = max(
        on_page(svg, "graph", 0, y)[1]
        for nid, (_, y) in centres(svg).items()
        if nid != "legend"
    )
    assert min(ys) > lowest  # below every node


def test_a_narrow_page_wraps_the_legend_in_two_rows(framework, seeds, tmp_path):
    from viz.drawing import LEGEND_MIN_SCALE

    d = seed_drawing(framework, seeds)
    svg = d.save(tmp_path / "s.svg", size="slide43").read_text()
    legend = next(
        g for g in ET.fromstring(svg).iter(f"{NS}g") if g.get("id") == "legend"
    )
    rows = {
        round(float(t.get("y")))
        for t in legend.iter(f"{NS}text")
        if (t.text or "").strip()
    }
    assert len(rows) == 2
    assert placements(svg)["legend"][2] >= LEGEND_MIN_SCALE  # larger than one row


def test_dark_slides_are_dark_everywhere(framework, seeds, tmp_path):
    d = seed_drawing(framework, seeds)
    svg = d.save(tmp_path / "s.svg", size="slide", theme="dark").read_text()
    rect = ET.fromstring(svg).find(f"{NS}rect")  # the page margins
    assert rect.get("fill") == THEMES["dark"].background
    from PIL import Image

    png = d.save(tmp_path / "s.png", size="slide", theme="dark", dpi=40)
    corners = Image.open(png).convert("RGB")
    w, h = corners.size
    for xy in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
        assert corners.getpixel(xy) == (0x1E, 0x1E, 0x1E)


def test_no_tensor_is_drawn_below_its_grad_fn(framework, seeds):
    d = seed_drawing(framework, seeds)  # l1..l4 and loss are named and saved
    pos = centres(d.svg())
    g = d.graph
    checked = 0
    for tid in g.shown_tensors:
        t = g.tensors[tid]
        if t.producer is not None:
            assert pos[tid][1] < pos[t.producer[0]][1], t.name  # SVG y grows down
            checked += 1
    assert checked == 5


def test_pdf_frames_have_a_caption_and_a_highlight_legend(minigrad, seeds, tmp_path):
    from test_viz_render import pdf_text

    loss, params = seeds["seed2"](minigrad)
    stepper = viz.BackwardStepper(loss, params=params)
    text = pdf_text(stepper.save(tmp_path / "dark.pdf", theme="dark").read_bytes())
    n = len(stepper.frames)
    assert f"Step 1 of {n}: MeanBackward0".encode() in text
    assert b"waiting in the ready queue" in text and b"already run" in text
    # the whole page, caption strip included, is painted the dark background
    assert re.search(
        rb"\.117647 \.117647 \.117647 rg\s*n?\s*0 0 [\d.]+ [\d.]+ re f", text
    )


def graph_places(pdf: bytes) -> set[tuple[float, float, float]]:
    """Where each PDF page draws its graph: the first scaled drawing after
    the page's background, (scale, x, y of its bottom left, PDF y up)."""
    from test_stepper_export import page_streams

    pages = [p for p in page_streams(pdf) if b" Tj" in p]
    return {
        tuple(float(v) for v in m.groups())
        for p in pages
        for m in [re.search(rb"\n([.\d]+) 0 0 \1 ([-\d.]+) ([-\d.]+) cm", p)]
    }


def plan_places(plan, page) -> dict[str, tuple[float, float, float]]:
    sizes = {n: render.natural_size(svg) for n, (_d, svg) in plan.parts.items()}
    sizes["caption"] = plan.caption_size
    return render.page_layout(page, sizes, plan.side)


@pytest.mark.parametrize(
    ("size", "page"), [("slide", (960, 540)), ("slide43", (720, 540))]
)
def test_stepper_slides_use_the_slide_layout(minigrad, seeds, tmp_path, size, page):
    """A stepper's slide pages (PDF, PNG frames) are laid out by its slide
    plan (`export.slide_plan`, `render.page_layout`): exactly the page, the
    caption at the top, the key and the legend as rows or in a column at
    the right, nothing overlapping, the graph centred in the room left and
    filling it one way, on the same spot on every page."""
    from PIL import Image, ImageChops

    from viz import export

    loss, params = seeds["seed2"](minigrad)
    stepper = viz.BackwardStepper(loss, params=params)
    pdf = stepper.save(tmp_path / "s.pdf", size=size).read_bytes()
    boxes = re.findall(rb"/MediaBox \[\s*([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)", pdf)
    assert {tuple(round(float(v)) for v in b) for b in boxes} == {(0, 0, *page)}
    placed = graph_places(pdf)
    assert len(placed) == 1  # the same spot on every page
    ((scale, x, y),) = placed
    opts = stepper.drawing._resolved(export=True, size=size)
    titles = [export._title(stepper, k) for k in range(len(stepper.frames) + 1)]
    plan = export.slide_plan(stepper.drawing, opts, titles)
    places = plan_places(plan, page)
    w, h = render.svg_size(plan.parts["graph"][1])
    assert (x, page[1] - y - h * scale, scale) == pytest.approx(
        places["graph"], abs=0.02
    )
    # every part inside the page, none over another
    sizes = {n: render.natural_size(svg) for n, (_d, svg) in plan.parts.items()}
    sizes["caption"] = plan.caption_size
    rects = {
        n: (px, py, px + sizes[n][0] * ps, py + sizes[n][1] * ps)
        for n, (px, py, ps) in places.items()
    }
    margin = render.PAGE_MARGIN_PT
    for n, (x0, y0, x1, y1) in rects.items():
        assert x0 >= margin - 0.01 and y0 >= margin - 0.01, n
        assert x1 <= page[0] - margin + 0.01 and y1 <= page[1] - margin + 0.01, n
        for m, (u0, v0, u1, v1) in rects.items():
            if m < n:
                assert x1 <= u0 or u1 <= x0 or y1 <= v0 or v1 <= y0, (n, m)
    # the graph fills its room one way: up to the parts above and below it,
    # or across to the page's edge (or the side column)
    x0, y0, x1, y1 = rects["graph"]
    above = max(r[3] for n, r in rects.items() if r[3] <= y0 + 0.01 and n != "graph")
    below = min(
        [page[1] - margin] + [r[1] for n, r in rects.items() if r[1] >= y1 - 0.01]
    )
    beside = min([page[0] - margin] + [rects[n][0] for n in plan.side if n in rects])
    gap = render.PAGE_GAP_PT
    floor = gap if below < page[1] - margin else 0.0  # (a part below it)
    fills_down = y0 - above - gap < 0.5 and below - y1 - floor < 0.5
    fills_across = x0 - margin < 0.5 or beside - x1 < 2 * gap + 0.5
    assert fills_down or fills_across
    # the PNG frames: the same page in pixels, the graph on the same spot
    folder = stepper.save(tmp_path / "png", fmt="png", size=size, dpi=72)
    frames = sorted(folder.glob("frame_*.png"))
    assert len(frames) == len(stepper.frames) + 1
    for f in frames[:3]:
        image = Image.open(f).convert("RGB")
        assert image.size == page
        band = image.crop((round(x0), round(y0) + 1, round(x1), round(y1) - 1))
        blank = Image.new("RGB", band.size, "white")
        bx0, _by0, bx1, _by1 = ImageChops.difference(band, blank).getbbox()
        assert bx0 <= 3 and bx1 >= band.width - 3  # the graph spans its place


def lesson_04_hooks(t):
    """Lesson 04's hooked graph: a -> m = a * 3 -> n = m * m -> out."""
    a = t.tensor([1.0, 2.0], requires_grad=True)
    m = a * 3
    n = m * m
    out = n.sum()
    m.register_hook(lambda grad: grad)
    n.grad_fn.register_prehook(lambda grads: None)
    return out, {"a": a, "m": m, "n": n, "out": out}


def lesson_07_gradient(t):
    """Lesson 07: the graph of dy/dx for y = x ** 3 (create_graph=True)."""
    x = t.tensor(2.0, requires_grad=True)
    (dy_dx,) = t.autograd.grad(x**3, x, create_graph=True)
    return dy_dx, {"x": x, "dy/dx": dy_dx}


def lesson_like(t, seeds):
    """(name, output, params) of lesson graphs a stepper shows: lesson 03's
    seed graph (also lessons 04 and 10), lesson 04's hooks, lesson 07's
    gradient graph, lesson 10's first seed."""
    seed2, names2 = seeds["seed2"](t)
    seed1, names1 = seeds["seed1"](t)
    return [
        ("seed (lesson 03)", seed2, {**names2, "loss": seed2}),
        ("hooks (lesson 04)", *lesson_04_hooks(t)),
        ("dy/dx (lesson 07)", *lesson_07_gradient(t)),
        ("a * b * d (lesson 10)", seed1, names1),
    ]


def name_px(pdf: bytes, node_pt: float, page_w: float) -> float:
    """The node names' size in pixels on a 1280-pixel-wide render of a
    stepper's PDF (``pdftoppm -scale-to 1280``): their font size in the
    graph's drawing times the graph's scale on the page."""
    from test_stepper_export import page_streams

    ((scale, _x, _y),) = graph_places(pdf)
    # (the names are drawn at that size inside the scaled graph)
    page = next(p for p in page_streams(pdf) if b" Tj" in p)
    graph = page[page.index(b" cm") :]
    assert re.search(rb"/F\d+ %g Tf" % node_pt, graph)
    return node_pt * scale * 1280 / page_w


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(("size", "width"), [("slide", 960), ("slide43", 720)])
def test_stepper_slides_have_lecture_size_node_names(
    minigrad, seeds, tmp_path, size, width, theme
):
    """On a 1280-pixel-wide render of a stepper's slide (16:9 or 4:3, with
    a title) the node names of lesson graphs are at least 18 px: the caption
    is one line, the key and legend go where they take least from the
    graph, and the graph is laid out in the direction that draws it larger.
    A 2-layer MLP with cross-entropy reaches it too (18.1 / 22.0 px): its
    matrices' values are not drawn, its saved slots sit beside their nodes.
    Every graph's page is at least as large as the plain arrangement
    (top-down, key and legend as rows) would draw it."""
    from test_viz_stable_layout import mlp_with_cross_entropy

    from viz import export
    from viz.dot import lecture

    node_pt = float(lecture(THEMES[theme]).node_pt)
    graphs = lesson_like(minigrad, seeds)
    graphs.append(("MLP + CE", *mlp_with_cross_entropy(minigrad, seeds)))
    for name, out, params in graphs:
        stepper = viz.BackwardStepper(out, params=params)
        pdf = stepper.save(tmp_path / "s.pdf", size=size, theme=theme, title=TITLE)
        px = name_px(pdf.read_bytes(), node_pt, width)
        assert px >= 18, (name, px)
        # never smaller than top-down with the key and legend as rows
        asked = dict(size=size, theme=theme, title=TITLE, rankdir="TB")
        opts = stepper.drawing._resolved(export=True, **asked)
        titles = [export._title(stepper, k) for k in range(len(stepper.frames) + 1)]
        fixed = export.slide_plan(stepper.drawing, opts, titles, free_direction=False)
        rows = plan_places(dataclasses.replace(fixed, side=()), (width, 540))
        assert px >= node_pt * rows["graph"][2] * 1280 / width - 0.01, name
    if shutil.which("pdftoppm"):  # what that px is measured on
        render_cmd = ["pdftoppm", "-f", "1", "-l", "1", "-scale-to", "1280", "-png"]
        subprocess.run([*render_cmd, "-singlefile", pdf, tmp_path / "p"], check=True)
        from PIL import Image

        assert Image.open(tmp_path / "p.png").width == 1280


TITLE = "Backward, one node at a time"


def svg_texts(svg: str, part: str) -> list[tuple[str, float, float]]:
    """(text, y on the page, font size in points of the page) of every text
    a page part (``page-title``, ``page-caption``...) holds, top to bottom."""
    x, y, s, tx, ty = placements(svg)[part]
    group = next(
        g for g in ET.fromstring(svg).iter(f"{NS}g") if g.get("id") == f"page-{part}"
    )
    out = [
        (t.text or "", y + s * (ty + float(t.get("y"))), s * float(t.get("font-size")))
        for t in group.iter(f"{NS}text")
        if (t.text or "").strip()
    ]
    return sorted(out, key=lambda t: t[1])


def title_group(svg: str) -> str:
    """The page's title part as text: where it is placed and what it draws."""
    return re.search(r'<g id="page-title".*?</g>\s*</g>\s*</g>', svg, re.S).group(0)


@pytest.mark.parametrize(
    ("size", "page"), [("slide", (960, 540)), ("slide43", (720, 540))]
)
def test_stepper_slides_carry_the_title(minigrad, seeds, tmp_path, size, page):
    """stepper.save(..., size=, title=) puts the teacher's title on every
    page and frame where a drawing's slide puts it (same size, same spot,
    TITLE_PT points of the page), the frame's caption under it, the graph
    under both: SVG and PNG frames, PDF pages; the page stays exact."""
    from PIL import Image
    from test_stepper_export import page_streams

    from viz.dot import TITLE_PT

    loss, params = seeds["seed2"](minigrad)
    stepper = viz.BackwardStepper(loss, params=params)
    slide = stepper.drawing.save(tmp_path / "d.svg", size=size, title=TITLE)
    slide = slide.read_text()
    folder = stepper.save(tmp_path / "svg", fmt="svg", size=size, title=TITLE)
    svgs = [f.read_text() for f in sorted(folder.glob("frame_*.svg"))]
    n = len(stepper.frames)  # (the export ran the pass)
    assert len(svgs) == n + 1
    for k, svg in enumerate(svgs):
        assert render.svg_size(svg) == page
        # the drawing's slide title, placed and drawn the same, unscaled
        assert title_group(svg) == title_group(slide)
        ((text, title_y, pt),) = svg_texts(svg, "title")
        assert text == TITLE and pt == pytest.approx(TITLE_PT)
        caption = svg_texts(svg, "caption")
        want = f"Step {k} of {n}" if k else "Before backward"
        assert caption[0][0].startswith(want), (k, caption)
        box = part_boxes(svg)
        assert ("key" in box) == (k > 0)  # (before backward nothing is lit)
        gap = render.PAGE_GAP_PT
        assert box["caption"][1] == pytest.approx(box["title"][3] + gap, abs=0.05)
        assert box["graph"][1] >= box["caption"][3] + gap - 0.05
        bottom = page[1] - render.PAGE_MARGIN_PT
        assert box["legend"][3] == pytest.approx(bottom, abs=0.05)
    # the PDF pages: the title on each, at TITLE_PT, above the caption
    pdf = stepper.save(tmp_path / "s.pdf", size=size, title=TITLE).read_bytes()
    boxes = re.findall(rb"/MediaBox \[\s*([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)", pdf)
    assert [tuple(round(float(v)) for v in b) for b in boxes] == [(0, 0, *page)] * (
        n + 1
    )
    pages = [p for p in page_streams(pdf) if b" Tj" in p]
    assert len(pages) == n + 1
    for k, p in enumerate(pages):
        (at,) = [m.start() for m in re.finditer(re.escape(f"({TITLE}) Tj"), p.decode())]
        assert re.findall(rb"/F\d+ ([\d.]+) Tf", p[:at])[-1] == str(TITLE_PT).encode()
        assert (f"(Step {k} of {n}" if k else "(Before backward").encode() in p
    # the PNG frames: the title band is the drawing's slide's, pixel for pixel
    dpi = 48
    png = Image.open(stepper.drawing.save(tmp_path / "d.png", size=size, title=TITLE,
                                          dpi=dpi)).convert("RGB")  # fmt: skip
    band = (0, 0, png.width, round(box["title"][3] * dpi / 72))
    folder = stepper.save(tmp_path / "png", fmt="png", size=size, title=TITLE, dpi=dpi)
    frames = sorted(folder.glob("frame_*.png"))
    assert len(frames) == n + 1
    for f in frames[:3]:
        frame = Image.open(f).convert("RGB")
        assert frame.size == png.size == (page[0] * dpi // 72, page[1] * dpi // 72)
        assert frame.crop(band).tobytes() == png.crop(band).tobytes()
        assert len(frame.crop(band).getcolors(1 << 16)) > 2  # (not blank)


def test_stepper_frames_off_slides_start_with_the_title(minigrad, seeds, tmp_path):
    """Without a slide size the title is the first line of every frame's
    caption strip, as large as a drawing's title (TITLE_EM of its node
    names), above "Step k of n"; the stepper's own title= is the default;
    the HTML page is named by it and its drawings carry it."""
    from test_stepper_export import page_streams

    from viz.dot import TITLE_EM

    loss, params = seeds["seed2"](minigrad)
    stepper = viz.BackwardStepper(loss, params=params, title=TITLE)
    heading_pt = TITLE_EM * float(THEMES["light"].node_pt)
    folder = stepper.save(tmp_path / "svg", fmt="svg")
    svgs = [f.read_text() for f in sorted(folder.glob("frame_*.svg"))]
    n = len(stepper.frames)  # (the export ran the pass)
    assert len(svgs) == n + 1
    for k, svg in enumerate(svgs):
        (first, second, *_rest) = svg_texts(svg, "caption")
        assert first[0] == TITLE and first[2] == pytest.approx(heading_pt)
        assert second[0].startswith(f"Step {k} of {n}" if k else "Before backward")
        assert second[1] > first[1]  # under it
        assert TITLE not in "".join(t for t, _y, _pt in svg_texts(svg, "graph"))
    pdf = stepper.save(tmp_path / "s.pdf").read_bytes()
    pages = [p for p in page_streams(pdf) if b" Tj" in p]
    assert len(pages) == n + 1
    for p in pages:
        at = p.index(f"({TITLE}) Tj".encode())
        assert re.findall(rb"/F\d+ ([\d.]+) Tf", p[:at])[-1] == b"%g" % heading_pt
        assert p.count(TITLE.encode()) == 1
    page = stepper.save(tmp_path / "s.html").read_text(encoding="utf-8")
    assert f"<title>{TITLE}</title>" in page
    # the backward and forward drawings, each also laid out left to right
    assert page.count(f">{TITLE}</text>") == 4
    other = "Another title"  # save(title=) wins over the stepper's
    svg = stepper.save(tmp_path / "o", fmt="svg", title=other) / "frame_001.svg"
    assert svg_texts(svg.read_text(), "caption")[0][0] == other


@pytest.mark.parametrize("column", [False, True])
def test_the_key_draws_a_sent_gradient_as_a_line(column):
    """The key to a frame's highlights shows "gradient just sent" (an edge's
    look) as a bar of the edge's colour, the node highlights as boxes; in a
    column the swatches are one under another, the texts flush left."""
    from viz import export

    theme = THEMES["light"]
    styles = export.static_styles(theme)
    svg = render.svg(export.key_source(theme, styles, column=column))
    roles = [role for role, _text in export.legend_roles()]
    swatches, texts = {}, {}
    for g in ET.fromstring(svg).iter(f"{NS}g"):
        gid = g.get("id") or ""
        if gid.startswith("caption-s"):
            shape = next(e for e in g if e.tag in (f"{NS}polygon", f"{NS}path"))
            nums = [
                float(v)
                for v in re.findall(r"-?[\d.]+", shape.get("points") or shape.get("d"))
            ]
            xs, ys = nums[0::2], nums[1::2]
            role = roles[int(gid.removeprefix("caption-s"))]
            swatches[role] = (min(xs), min(ys), max(xs), max(ys))
            fill = shape.get("fill")
            if role in export.LINE_ROLES:
                assert fill == styles[role]["color"]
        elif gid.startswith("caption-t"):
            text = next(g.iter(f"{NS}text"))
            texts[gid] = (
                float(text.get("x")),
                float(text.get("y")),
                text.get("text-anchor"),
            )
    assert set(swatches) == set(roles) and "flow" in export.LINE_ROLES
    heights = {role: y1 - y0 for role, (_x0, y0, _x1, y1) in swatches.items()}
    assert heights["flow"] < 5  # a line
    assert min(h for role, h in heights.items() if role != "flow") > 15  # boxes
    lefts = {round(x0, 1) for x0, _y0, _x1, _y1 in swatches.values()}
    tops = {
        round(y0) for role, (_x0, y0, _x1, _y1) in swatches.items() if role != "flow"
    }
    if column:
        assert len(lefts) == 1 and len(tops) == len(roles) - 1
        starts = {
            round(x) if anchor == "start" else None for x, _y, anchor in texts.values()
        }
        assert len(starts) == 1 and None not in starts  # flush left, one edge
    else:
        assert len(lefts) == len(roles) and len(tops) == 1


def test_slides_draw_a_tensors_numbers_on_one_short_line(minigrad, seeds):
    """On a slide (`dot.lecture`) a tensor's values are drawn only when they
    fit whole on one short line (a scalar, a short vector), a ``.grad`` and
    its cell take one line beside "grad:", a node's attributes share lines,
    its saved slots sit on its row and edge words are xlabels; a drawing
    off slides keeps the whole previews, one attribute a line."""
    from test_viz_stable_layout import mlp_with_cross_entropy

    from viz.dot import SLIDE_VALUE_CHARS, backward_dot, esc

    loss, params = mlp_with_cross_entropy(minigrad, seeds)
    loss.backward(retain_graph=True)  # (every leaf has a .grad to draw)
    g = viz.build_graph(loss, params=params)
    slide, inline = backward_dot(g, slide=True).source, backward_dot(g).source
    mono = re.compile(r'<font face="[^"]*" point-size="15">(.*?)</font>')
    cells = mono.findall(slide)
    assert cells and all("<br/>" not in c for c in cells)
    assert max(len(c.replace("&#x27;", "'")) for c in cells) <= SLIDE_VALUE_CHARS
    by_name = {t.name: t for t in g.tensors.values() if t.name}
    weight, bias = by_name["0.weight"], by_name["2.bias"]
    assert "\n" in weight.value and "\n" in weight.grad  # a 4 x 2 matrix
    lines = "<br/>".join(esc(line) for line in weight.value.splitlines())
    assert lines in inline and esc(weight.value.splitlines()[0]) not in slide
    # 3 numbers, 27 characters: not drawn on a slide, but all off it
    assert len(bias.value) > SLIDE_VALUE_CHARS and esc(bias.value) not in slide
    assert esc(bias.value) in inline
    (target,) = [g.tensors[s.tensor] for s in g.saved.values() if s.slot == "target"]
    for t in (by_name["loss"], target):  # a scalar, 5 integers: drawn whole
        assert len(t.value) <= SLIDE_VALUE_CHARS and esc(t.value) in slide
    # the grad beside "grad:", cut to the line: a matrix's first numbers
    beside = r'>grad:</font></td><td width="4"></td><td[^>]*>'
    grads = re.findall(beside + mono.pattern, slide)
    head = " ".join(part.strip() for part in weight.grad.splitlines())
    assert esc(head[: SLIDE_VALUE_CHARS - 1] + "…") in grads
    assert len(grads) == sum(t.grad is not None for t in g.tensors.values())
    assert "alpha=1, beta=1" in slide and "alpha=1, beta=1" not in inline
    rows = {
        tuple(i.strip('"') for i in row.split("; "))
        for row in re.findall(r"\{rank=same; ([^}]*)\}", slide)
    }
    nodes = {s.node for s in g.saved.values()}
    assert rows == {
        (fid, *[s.id for s in g.saved.values() if s.node == fid]) for fid in nodes
    }
    assert len(nodes) == 5 and "rank=same" not in inline
    assert "xlabel=variable" in slide and "xlabel" not in inline
    assert "label=variable" in inline
