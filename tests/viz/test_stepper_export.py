"""Stepper exports: one offline HTML page, a multi-page PDF, numbered frames, GIF.

Files are checked by their bytes (magic numbers, page count, ids, positions);
the HTML page is also opened in headless Chromium on ``file://`` with every
other request aborted and stepped with a click and the arrow keys.
"""

from __future__ import annotations

import base64
import io
import json
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path
from typing import Any

import pytest

import minigrad
from viz import export, render
from viz.stepper import BackwardStepper

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
import headless  # noqa: E402

SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True)
def _engine() -> None:
    if render._pure_binary() is None and render.shutil.which("dot") is None:
        pytest.skip("no Graphviz engine (pip install graphviz-pure)")


def seed_graph() -> tuple[Any, dict[str, Any]]:
    inp = minigrad.ones(2, 2)
    w1, w2, w3 = (minigrad.tensor(v, requires_grad=True) for v in (2.0, 3.0, 4.0))
    l1 = inp * w1
    loss = ((l1 + w2) * (l1 * w3)).mean()
    return loss, {"w1": w1, "w2": w2, "w3": w3}


def seed_stepper(**options: Any) -> BackwardStepper:
    loss, params = seed_graph()
    return BackwardStepper(loss, params=params, id_prefix="ex-", **options)


def seed_grads() -> dict[str, str]:
    """The leaves' .grad after a plain backward, as the drawings print them."""
    from viz.stepper import compact_value

    loss, params = seed_graph()
    loss.backward()
    return {name: compact_value(p.grad) for name, p in params.items()}


def pdf_page_count(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", data))


def page_streams(data: bytes) -> list[bytes]:
    """The PDF's content streams, decoded (reportlab: ASCII85 + Flate)."""
    out = []
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        raw = m.group(1).strip()
        if raw.endswith(b"~>"):
            raw = base64.a85decode(raw, adobe=True)
        try:
            raw = zlib.decompress(raw)
        except zlib.error:
            pass
        out.append(raw)
    return out


def graph_part(frame: str) -> str:
    """An SVG frame's graph alone, as the engine drew it: the frame is a
    page of parts (`render.placed_svg`: its caption strip above the graph),
    so this is its "graph0" group in an engine-like ``<svg>`` of its size."""
    ET.register_namespace("", SVG_NS[1:-1])
    page = ET.fromstring(frame)
    (graph,) = [g for g in page.iter(f"{SVG_NS}g") if g.get("id") == "graph0"]
    body = ET.tostring(graph, encoding="unicode")
    w, h = (round(v) for v in render.natural_size(body))
    return (
        f'<svg width="{w}pt" height="{h}pt" viewBox="0 0 {w} {h}" '
        f'xmlns="{SVG_NS[1:-1]}">{body}</svg>'
    )


def node_positions(svg: str) -> dict[str, tuple[str, str]]:
    """id -> (x, y) of the first text of every node: where the layout put it."""
    root = ET.fromstring(svg)
    out = {}
    for g in root.iter(f"{SVG_NS}g"):
        if "node" in g.get("class", "").split():
            text = g.find(f"{SVG_NS}text")
            out[g.get("id")] = (text.get("x"), text.get("y"))
    return out


def element(svg: str, element_id: str) -> ET.Element:
    root = ET.fromstring(svg)
    found = [e for e in root.iter() if e.get("id") == element_id]
    assert found, f"{element_id} not in the SVG"
    return found[0]


def strokes(g: ET.Element) -> set[str]:
    return {e.get("stroke") for e in g if e.get("stroke")}


# ------------------------------------------------------------------- HTML
def test_html_is_one_self_contained_page(tmp_path: Path) -> None:
    stepper = seed_stepper()
    path = stepper.save(tmp_path / "steps.html")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    # each drawing once (backward, and forward for the toggle, each also laid
    # out left to right as the widget offers it), not once per step
    assert text.count("<svg") == 4
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)
    assert "<link" not in text and "<script src" not in text
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    assert "waiting in the ready queue" in text  # the legend of the highlights
    # the widget's stylesheet and screen code, inlined from the package
    assert export.CSS_PATH.read_text(encoding="utf-8") in text
    assert "export function mount(model, root)" in text
    data = json.loads(re.search(r'id="mg-data">(.*?)</script>', text, re.S).group(1))
    assert data["prefix"] == "ex-"
    assert len(data["frames"]) == len(stepper.frames) + 1  # "before" + each step
    assert data["frames"][0]["panel"]["title"] == "Before backward"
    done: list[str] = []
    for k, frame in enumerate(stepper.frames, start=1):
        stored = data["frames"][k]
        done.append(stored["highlight"]["running"][0])  # the page folds "done"
        assert {**stored["highlight"], "done": done} == frame.highlight()
        assert stored["panel"]["step"] == f"Step {k} of 8"
        assert stored["panel"]["title"] == stepper.headline(frame.node_id)
        assert stored["edges"] == frame.edge_values
        assert stored["grads"] == frame.leaf_grads and stored["freed"] == frame.freed
    # every id a frame highlights exists in the inlined drawing
    svg = text[text.index("<svg") : text.index("</svg>") + len("</svg>")]
    ids = {e.get("id") for e in ET.fromstring(svg).iter() if e.get("id")}
    for frame in data["frames"][1:]:
        for role_ids in frame["highlight"].values():
            assert {f"ex-{i}" for i in role_ids} <= ids
        assert {f"ex-{i}" for i in frame["edges"]} <= ids


def test_html_size_grows_linearly_with_the_steps(tmp_path: Path) -> None:
    def chain(n: int) -> int:
        x = minigrad.tensor(1.0, requires_grad=True)
        y = x
        for _ in range(n):
            y = y * 1.01
        # (one direction: a chain of 80 nodes or fewer also gets its left-to-
        # right layout, one drawing more than the longer chains)
        stepper = BackwardStepper(y, params={"x": x}, rankdir="TB")
        path = stepper.save(tmp_path / f"c{n}.html")
        return path.stat().st_size

    small, large = chain(20), chain(80)
    # 80 more steps cost about twice what 60 more did: linear, not quadratic
    assert chain(160) - large < (large - small) * 80 / 60 * 1.15


def test_export_runs_the_rest_and_keeps_the_display(tmp_path: Path) -> None:
    stepper = seed_stepper()
    stepper.goto(2)
    stepper.save(tmp_path / "steps.html")
    assert stepper.done and stepper.step == 8 and stepper.position == 2


def test_html_escapes_script_endings_in_values(tmp_path: Path) -> None:
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    stepper = BackwardStepper((a * 2).sum(), params={"</script><b>": a})
    text = stepper.save(tmp_path / "x.html").read_text(encoding="utf-8")
    assert text.count("</script>") == 2  # the data block's and the code's
    b = minigrad.tensor([1.0, 2.0], requires_grad=True)
    stepper = BackwardStepper((b * 2).sum(), params={"<!--<script>": b})
    text = stepper.save(tmp_path / "y.html").read_text(encoding="utf-8")
    assert "<!--<script>" not in text and text.count("<script") == 2
    data = re.search(r'id="mg-data">(.*?)</script>', text, re.S).group(1)
    assert "<!--<script>" in data.encode().decode("unicode_escape")  # kept, escaped


# ---------------------------------------------------------------- PDF etc.
def test_pdf_has_a_page_per_frame_plus_before(tmp_path: Path) -> None:
    stepper = seed_stepper()
    data = stepper.save(tmp_path / "steps.pdf", size="slide").read_bytes()
    assert data.startswith(b"%PDF-")
    assert pdf_page_count(data) == len(stepper.frames) + 1 == 9
    # the running node's colour (#d55e00) is drawn on every page but the first
    pages = page_streams(data)
    assert len(pages) == 9
    orange = b".835294 .368627 0 RG"
    assert [orange in page for page in pages] == [False] + [True] * 8


def _painted(drawing: Any) -> dict[str, list[tuple]]:
    """Per SVG id, how each shape of that element is drawn (text aside)."""
    looks: dict[str, list[tuple]] = {}
    for group in export._groups(drawing):
        sid = getattr(group, "svgid", None)
        if not sid:
            continue
        shapes, stack = [], list(group.contents)
        while stack:
            shape = stack.pop()
            if hasattr(shape, "contents"):
                stack.extend(shape.contents)
            elif hasattr(shape, "strokeColor") and not hasattr(shape, "text"):
                stroke = shape.strokeColor
                shapes.append(
                    (
                        None if stroke is None else stroke.rgb(),
                        str(getattr(shape, "fillColor", None)),
                        round(float(shape.strokeWidth or 0), 3),
                        tuple(shape.strokeDashArray or ()),
                    )
                )
        looks[sid] = sorted(shapes, key=repr)
    return looks


def test_pdf_pages_paint_what_a_relayout_would_draw() -> None:
    """The PDF lays the graph out once and recolours shapes per page: each page
    looks like the frame's restyled DOT laid out again (stroke alpha aside:
    svglib drops graphviz's stroke-opacity; the page keeps the widget's fade)."""
    from svglib.svglib import svg2rlg

    stepper = seed_stepper()
    export._finish(stepper)
    drawing = stepper.drawing
    opts = drawing._resolved(export=True, theme=None, size=None, legend=None)
    digraph = drawing._digraph(opts)
    styler = export._Restyler(digraph.body, opts.id_prefix, export.role_styles())
    frames = [{}] + [f.highlight("backward") for f in stepper.frames]
    base = svg2rlg(io.BytesIO(render.svg(digraph.source).encode()))
    groups = {g.svgid: g for g in export._groups(base) if getattr(g, "svgid", None)}
    checked = 0
    for frame in frames[1:]:
        changes = styler.svg_changes(frame)
        assert changes and set(changes) <= set(groups)
        restyled = digraph.copy()
        restyled.body[:] = styler.body_for(frame)
        expected = _painted(svg2rlg(io.BytesIO(render.svg(restyled.source).encode())))
        undo = [
            u
            for sid, attrs in changes.items()
            for u in export._paint(groups[sid], attrs)
        ]
        got = _painted(base)
        for shape, name, value in reversed(undo):
            setattr(shape, name, value)
        for sid in changes:
            assert got[sid] == expected[sid], (sid, changes[sid])
            checked += 1
    assert checked > 8
    assert _painted(base) == _painted(
        svg2rlg(io.BytesIO(render.svg(digraph.source).encode()))
    )


def test_svg_frames_keep_ids_and_layout_and_bake_the_highlight(
    tmp_path: Path,
) -> None:
    stepper = seed_stepper()
    folder = stepper.save(tmp_path / "frames", fmt="svg")
    files = sorted(folder.glob("*.svg"))
    assert [f.name for f in files] == [f"frame_{k:03d}.svg" for k in range(9)]
    svgs = [graph_part(f.read_text(encoding="utf-8")) for f in files]
    first = node_positions(svgs[0])
    assert "ex-f0" in first and "ex-t0" in first
    for svg in svgs[1:]:
        assert node_positions(svg) == first  # nothing moves between frames
    styles = export.role_styles()
    running = styles["running"]["color"]
    for k, frame in enumerate(stepper.frames, start=1):
        node = element(svgs[k], f"ex-{frame.node_id}")
        assert running in strokes(node), f"frame {k}: {frame.name} not highlighted"
        assert running not in strokes(element(svgs[k - 1], f"ex-{frame.node_id}"))
        for edge in frame.flow:
            assert styles["flow"]["color"] in strokes(element(svgs[k], f"ex-{edge}"))
        for leaf in frame.written:
            assert styles["written"]["color"] in strokes(element(svgs[k], f"ex-{leaf}"))


def node_texts(svg: str, node_id: str) -> list[str]:
    return [(t.text or "").strip() for t in element(svg, node_id).iter(f"{SVG_NS}text")]


def grad_steps(stepper: BackwardStepper) -> dict[str, tuple[int, str]]:
    """Leaf id -> (the step that wrote its .grad, that .grad as drawn)."""
    return {
        leaf: (frame.index + 1, grad)
        for frame in stepper.frames
        for leaf, grad in frame.leaf_grads.items()
    }


def test_frames_show_a_grad_once_it_is_written(tmp_path: Path) -> None:
    """No "grad: None" on a frame: a leaf's grad cell is empty until its
    AccumulateGrad has run, then shows the gradient (SVG frames and PDF
    pages, as the widget tags it), and the node keeps its size."""
    stepper = seed_stepper()
    assert "None" not in stepper.svg()  # the widget's picture too
    folder = stepper.save(tmp_path / "frames", fmt="svg")
    svgs = [graph_part(f.read_text("utf-8")) for f in sorted(folder.glob("*.svg"))]
    written = grad_steps(stepper)
    # each of w1, w2, w3 is written once, with the .grad a plain backward gives
    names = {tid: t.name for tid, t in stepper.graph.tensors.items() if t.name}
    assert {names[leaf]: grad for leaf, (_, grad) in written.items()} == seed_grads()
    pdf = stepper.save(tmp_path / "steps.pdf").read_bytes()
    pages = [p for p in page_streams(pdf) if b" Tj" in p]
    assert len(pages) == len(svgs) == 9
    for k, (svg, page) in enumerate(zip(svgs, pages)):
        for leaf, (step, grad) in written.items():
            texts = node_texts(svg, f"ex-{leaf}")
            assert "None" not in texts and "grad:" in texts
            assert (grad in texts) == (k >= step), (k, leaf, texts)
            if k >= step:  # (before, the same number may tag an edge)
                assert f"({grad}) Tj".encode() in page, (k, leaf)
        assert b"(None) Tj" not in page
    # the filled-in cell is the empty one's size: nothing moved
    assert node_positions(svgs[-1]) == node_positions(svgs[0])


def test_pdf_pages_tag_the_gradients_sent_and_can_be_slides(tmp_path: Path) -> None:
    """Each page tags the edges the running node sent gradients along with
    those gradients (the widget's tags); size="slide" gives 16:9 pages."""
    stepper = seed_stepper()
    pdf = stepper.save(tmp_path / "steps.pdf", size="slide").read_bytes()
    boxes = re.findall(rb"/MediaBox \[\s*([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)", pdf)
    assert {tuple(round(float(v)) for v in b) for b in boxes} == {(0, 0, 960, 540)}
    pages = [p for p in page_streams(pdf) if b" Tj" in p]
    sent = 0
    for k, frame in enumerate(stepper.frames, start=1):
        for value in frame.edge_values.values():
            assert f"({value}) Tj".encode() in pages[k], (k, value)
            sent += 1
    assert sent >= 8


def test_png_and_gif_frames_can_be_slides(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    from PIL import Image

    stepper = seed_stepper()
    folder = stepper.save(tmp_path / "png", fmt="png", size="slide", dpi=48)
    sizes = {Image.open(f).size for f in folder.glob("frame_*.png")}
    assert sizes == {(640, 360)}  # 13.33 x 7.5 in at 48 dpi
    gif = stepper.save(tmp_path / "s.gif", size="slide43", dpi=24)
    with Image.open(gif) as image:
        assert image.size == (240, 180) and image.n_frames == 9


def test_a_long_gradient_is_cut_to_its_cell() -> None:
    from viz.dot import fitted

    assert fitted("28.", "None") == "28."
    assert fitted("123456", "None") == "123…"
    assert fitted("[[1., 2.],\n [3., 4.]]", "xxxxxxxxxx") == "…"
    two = "[[10.5, 2.],\n [3., 4.]]"
    assert fitted(two, "xxxxxxxxxx\nxxxxxxxxxx") == "[[10.5, 2…\n [3., 4.]]"


def test_png_frames_and_gif(tmp_path: Path) -> None:
    stepper = seed_stepper()
    folder = stepper.save(tmp_path / "png", fmt="png", dpi=40)
    files = sorted(folder.glob("frame_*.png"))
    assert len(files) == 9
    sizes = set()
    for f in files:
        data = f.read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        sizes.add(struct.unpack(">II", data[16:24]))
    assert len(sizes) == 1  # one layout, one size
    pytest.importorskip("PIL")
    from PIL import Image

    gif = stepper.save(tmp_path / "steps.gif", dpi=40, frame_ms=500)
    assert gif.read_bytes()[:6] == b"GIF89a"
    with Image.open(gif) as image:
        assert image.n_frames == 9 and image.info["duration"] == 500


def svg_boxes(svg: str) -> tuple[tuple[float, float], dict[str, tuple]]:
    """(width, height) in pt and id -> (x0, y0, x1, y1) in pt from the top
    left, of every node of an engine's SVG."""
    root = ET.fromstring(svg)
    size = render.svg_size(svg)
    out = {}
    for g in root.iter(f"{SVG_NS}g"):
        if "node" in g.get("class", "").split():
            shape = next(e for e in g if e.tag in (f"{SVG_NS}polygon", f"{SVG_NS}path"))
            text = shape.get("points") or shape.get("d")
            nums = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", text)]
            xs, ys = nums[0::2], [size[1] + y - 4 for y in nums[1::2]]
            out[g.get("id")] = (min(xs) + 4, min(ys), max(xs) + 4, max(ys))
    return size, out


def node_luminance(image: Any, box: tuple, scale: float, top: int, left: int):
    """Median greyscale value of the middle of a node's box (its fill)."""
    x0, y0, x1, y1 = (v * scale for v in box)
    dx, dy = (x1 - x0) * 0.3, (y1 - y0) * 0.3
    crop = image.crop(
        (
            int(left + x0 + dx),
            int(top + y0 + dy),
            int(left + x1 - dx),
            int(top + y1 - dy),
        )
    )
    values = sorted(crop.tobytes())  # (greyscale: one byte a pixel)
    return values[len(values) // 2]


def test_png_frames_carry_caption_legend_and_read_in_greyscale(
    tmp_path: Path,
) -> None:
    """Under each frame: "Step k of n: node — what it computes" and the
    highlight legend (the strip the engine drew for it, pixel for pixel); in
    greyscale a node that already ran is >= 25% darker than a pending one."""
    Image = pytest.importorskip("PIL.Image")
    stepper = seed_stepper()
    dpi = 72
    folder = stepper.save(tmp_path / "png", fmt="png", dpi=dpi)
    svgs = stepper.save(tmp_path / "svg", fmt="svg")
    k = 4
    frame = stepper.frames[k - 1]
    title = export._title(stepper, k)
    assert title.startswith(f"Step {k} of {stepper.total}: {frame.name} — ")
    styles = export.static_styles(export.THEMES["light"])
    strip_src = export.caption_source(title, export.THEMES["light"], styles)
    for _role, meaning in export.legend_roles():
        assert meaning in strip_src
    assert "already run" in strip_src and "the node running now" in strip_src
    strip = Image.open(io.BytesIO(render.png(strip_src, dpi=dpi))).convert("RGB")
    picture = Image.open(folder / f"frame_{k:03d}.png").convert("RGB")
    top = max(  # every frame's strip is as tall as the tallest one
        Image.open(io.BytesIO(render.png(src, dpi=dpi))).height
        for src in (
            strip_src,
            export.caption_source(
                export._title(stepper, 0), export.THEMES["light"], styles, legend=False
            ),
        )
    )
    assert picture.crop((0, 0, strip.width, strip.height)).tobytes() == strip.tobytes()
    # the graph below it: where the SVG frame of the same layout puts the nodes
    svg = graph_part((svgs / f"frame_{k:03d}.svg").read_text(encoding="utf-8"))
    (w_pt, _h), boxes = svg_boxes(svg)
    scale = dpi / 72
    left = (picture.width - round(w_pt * scale)) // 2
    grey = picture.convert("L")
    highlight = frame.highlight()
    done = [
        f"ex-{i}"
        for i in highlight["done"]
        if stepper.graph.functions[i].name.startswith("Mul")
    ]
    busy = set(highlight["done"] + highlight["ready"] + highlight["running"])
    pending = [
        f"ex-{fid}"
        for fid, f in stepper.graph.functions.items()
        if fid not in busy and f.name.startswith("Mul")
    ]
    assert done and pending
    lum_done = node_luminance(grey, boxes[done[0]], scale, top, left)
    lum_pending = node_luminance(grey, boxes[pending[0]], scale, top, left)
    print("luminance done", lum_done, "pending", lum_pending)
    assert lum_pending - lum_done >= 0.25 * lum_pending, (lum_done, lum_pending)


def test_dark_frames_are_dark_everywhere(tmp_path: Path) -> None:
    """No white strip: the margins, the caption strip and the GIF's frames are
    in the dark background."""
    Image = pytest.importorskip("PIL.Image")
    stepper = seed_stepper()
    folder = stepper.save(tmp_path / "png", fmt="png", dpi=40, theme="dark")
    gif = stepper.save(tmp_path / "steps.gif", dpi=40, theme="dark")
    pictures = [Image.open(f).convert("L") for f in sorted(folder.glob("*.png"))]
    with Image.open(gif) as g:
        assert g.size == pictures[0].size  # the GIF's frames carry the strip too
        for n in (0, g.n_frames - 1):
            g.seek(n)
            pictures.append(g.convert("L"))
    for picture in pictures:
        w, h = picture.size
        edges = [(0, 0, w, 3), (0, h - 3, w, h), (0, 0, 3, h), (w - 3, 0, w, h)]
        for edge in edges:
            assert max(picture.crop(edge).tobytes()) < 60, edge  # dark margins
        light = sum(picture.histogram()[161:])
        assert light < 0.08 * w * h  # only text and lines are light


def test_gif_without_pillow_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)  # import PIL -> ImportError
    stepper = seed_stepper()
    with pytest.raises(ImportError, match="pip install pillow"):
        stepper.save(tmp_path / "steps.gif")
    assert stepper.step == 0  # failed before running anything


def test_error_frame_is_exported(tmp_path: Path) -> None:
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x.sigmoid()
    z = (y * y).sum()
    y.mul_(2)
    stepper = BackwardStepper(z, id_prefix="er-")
    folder = stepper.save(tmp_path / "f", fmt="svg")
    last = graph_part(sorted(folder.glob("*.svg"))[-1].read_text(encoding="utf-8"))
    bad = stepper.frames[-1]
    assert bad.error
    error_color = export.role_styles()["error"]["color"]
    assert error_color in strokes(element(last, f"er-{bad.node_id}"))
    text = stepper.save(tmp_path / "e.html").read_text(encoding="utf-8")
    assert "modified by an inplace operation" in text


@pytest.mark.parametrize(
    ("name", "fmt", "message"),
    [
        ("steps.docx", None, "use .html, .pdf or .gif"),
        ("steps.png", None, "fmt='png'"),
        ("frames", None, "looks like a folder"),
        ("out", "jpeg", "fmt must be one of"),
    ],
)
def test_unknown_formats_are_refused(
    tmp_path: Path, name: str, fmt: str | None, message: str
) -> None:
    stepper = seed_stepper()
    with pytest.raises(ValueError, match=re.escape(message)):
        stepper.save(tmp_path / name, fmt=fmt)
    assert stepper.step == 0 and not list(tmp_path.iterdir())


def test_role_styles_come_from_the_widget_css() -> None:
    styles = export.role_styles()
    for role in ("running", "ready", "flow", "written", "error"):
        assert styles[role]["color"].startswith("#") and styles[role]["penwidth"]
    assert float(styles["done"]["opacity"]) < 1
    custom = export.role_styles(".mg-graph .mg-running path { stroke: red; }")
    assert custom == {"running": {"color": "red"}}


# ------------------------------------------------------------- in a browser
@pytest.mark.browser
def test_exported_html_steps_in_chromium_without_a_kernel(tmp_path: Path) -> None:
    headless.need_browser()  # skips (fails in CI) before playwright is imported
    from playwright.sync_api import expect

    stepper = seed_stepper()
    path = stepper.save(tmp_path / "steps.html")
    ids = [f"ex-{f.node_id}" for f in stepper.frames]
    with headless.chromium() as browser:
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        blocked = headless.offline(page)
        page.goto(path.as_uri())
        view = page.locator(".mg-graph")
        running = page.locator(".mg-graph .mg-running")
        expect(view).to_have_attribute("data-step", "0")
        expect(running).to_have_count(0)

        page.click(".mg-next")
        expect(view).to_have_attribute("data-step", "1")
        expect(running).to_have_attribute("id", ids[0])
        page.keyboard.press("ArrowRight")
        expect(running).to_have_attribute("id", ids[1])
        expect(page.locator(".mg-panel")).to_contain_text("-> AddBackward0")
        expect(page.locator(".mg-graph .mg-done")).to_have_count(2)  # incl. running
        page.keyboard.press("ArrowLeft")
        expect(running).to_have_attribute("id", ids[0])
        page.locator(".mg-slider").fill("4")
        expect(view).to_have_attribute("data-step", "4")
        expect(running).to_have_attribute("id", ids[3])
        expect(page.locator(".mg-graph .mg-written")).to_have_count(1)
        page.click(".mg-end")
        expect(running).to_have_attribute("id", ids[-1])
        expect(page.locator(".mg-status")).to_have_text("step 8 of 8")
        page.click(".mg-reset")
        expect(running).to_have_count(0)
        expect(page.locator(".mg-panel")).to_contain_text("Before backward")
        # the highlight is drawn: the running node's border is the CSS colour
        page.click(".mg-next")
        stroke = page.eval_on_selector(
            ".mg-graph .mg-running path, .mg-graph .mg-running polygon",
            "e => getComputedStyle(e).stroke",
        )
        assert stroke == "rgb(213, 94, 0)"  # #d55e00
    assert not blocked, blocked
    assert not errors, errors


def colour_share(image: Any, colour: str, box: tuple | None = None) -> float:
    """The share of ``image``'s pixels (within ``box``) of about ``colour``."""
    import numpy as np

    rgb = np.asarray((image.crop(box) if box else image).convert("RGB"), dtype=int)
    want = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])
    return float((np.abs(rgb - want).max(axis=-1) <= 6).mean())


def test_png_and_gif_frames_tag_the_gradients_sent(tmp_path: Path) -> None:
    """PNG and GIF frames carry the tags the PDF pages (and the widget) put
    on the edges the running node just sent gradients along, at the edge's
    middle; the frame before backward has none."""
    Image = pytest.importorskip("PIL.Image")
    stepper = seed_stepper()
    dpi = 72
    folder = stepper.save(tmp_path / "png", fmt="png", dpi=dpi)
    svg = (stepper.save(tmp_path / "svg", fmt="svg") / "frame_000.svg").read_text()
    svg = graph_part(svg)
    shift, geometry = export.svg_geometry(svg)
    fill = export.EDGE_TAG["fill"]
    pictures = [Image.open(f) for f in sorted(folder.glob("frame_*.png"))]
    assert colour_share(pictures[0], fill) == 0
    strip = pictures[0].height - round(render.svg_size(svg)[1] * dpi / 72)
    tagged = 0
    for k, frame in enumerate(stepper.frames, start=1):
        picture = pictures[k]  # (an AccumulateGrad sends nothing: no tag)
        assert (colour_share(picture, fill) > 0) == bool(frame.edge_values), k
        left = (picture.width - round(render.svg_size(svg)[0] * dpi / 72)) // 2
        for eid in frame.edge_values:
            x, y = export._middle(geometry[f"ex-{eid}"])
            u, v = left + (x + shift[0]) * dpi / 72, strip + (y + shift[1]) * dpi / 72
            # the tag starts right of the middle, its text on a line just under it
            near = (round(u), round(v - 8), round(u + 40), round(v + 8))
            assert colour_share(picture, fill, near) > 0.08, (k, eid)
            tagged += 1
    assert tagged >= 8
    gif = stepper.save(tmp_path / "s.gif", size="slide", dpi=48)
    with Image.open(gif) as image:
        shares = []
        for k in range(image.n_frames):
            image.seek(k)
            shares.append(colour_share(image, fill))
    sent = [False] + [bool(f.edge_values) for f in stepper.frames]
    assert [s > 0 for s in shares] == sent, shares


def svg_tags(svg: str, kind: str) -> list[tuple[str, float, float, ET.Element]]:
    """The tags of the widget's class ``kind`` (``mg-edge-value``,
    ``mg-fold-tag``) in an SVG frame: (text, x, y of its baseline's anchor,
    the graph group holding it, whose coordinates those are)."""
    out = []
    for graph in ET.fromstring(svg).iter(f"{SVG_NS}g"):
        if graph.get("class") != "graph":
            continue
        for g in graph.iter(f"{SVG_NS}g"):
            if g.get("class") == kind:
                (rect,) = g.iter(f"{SVG_NS}rect")
                (text,) = g.iter(f"{SVG_NS}text")
                x, y = float(text.get("x")), float(text.get("y"))
                # the box holds its text's baseline anchor
                left, top = float(rect.get("x")), float(rect.get("y"))
                assert left <= x <= left + float(rect.get("width"))
                assert top <= y <= top + float(rect.get("height"))
                out.append((text.text, x, y, graph))
    return out


def test_svg_frames_tag_the_gradients_sent(tmp_path: Path) -> None:
    """SVG frames carry the tags of the PNG, GIF and PDF frames (and the
    widget): the gradient each edge just carried, at the edge's middle, in
    the graph's own coordinates; the frame before backward has none."""
    stepper = seed_stepper()
    folder = stepper.save(tmp_path / "svg", fmt="svg")
    svgs = [f.read_text() for f in sorted(folder.glob("frame_*.svg"))]
    assert len(svgs) == len(stepper.frames) + 1
    assert svg_tags(svgs[0], "mg-edge-value") == []
    tagged = 0
    for k, frame in enumerate(stepper.frames, start=1):
        tags = svg_tags(svgs[k], "mg-edge-value")
        assert sorted(t[0] for t in tags) == sorted(frame.edge_values.values()), k
        _shift, geometry = export.svg_geometry(svgs[k])
        for eid, value in frame.edge_values.items():
            x, y = export._middle(geometry[f"ex-{eid}"])
            (graph,) = {id(t[3]): t[3] for t in tags if t[0] == value}.values()
            assert any(e.get("id") == f"ex-{eid}" for e in graph.iter())
            assert any(
                (tx, ty) == pytest.approx((x + 4, y + 4), abs=0.01)
                for text, tx, ty, _g in tags
                if text == value
            ), (k, eid)
            tagged += 1
    assert tagged >= 8


def test_folded_frames_say_which_repeat_runs(tmp_path: Path) -> None:
    """A folded loop's PDF pages and GIF frames carry the block's tag, as the
    widget does: "× 4: repeat 2 of 4 running (1 done)" over the block."""
    Image = pytest.importorskip("PIL.Image")
    sys.path.insert(0, str(Path(__file__).parent))
    from test_viz_large import recurrent

    loss, params = recurrent(minigrad, 5)
    stepper = BackwardStepper(loss, params=params, fold=True, id_prefix="F-")
    (fold,) = stepper.drawing.folds
    pdf = stepper.save(tmp_path / "loop.pdf", size="slide").read_bytes()
    pages = [p for p in page_streams(pdf) if b" Tj" in p]
    assert len(pages) == len(stepper.frames) + 1
    assert b"running" not in pages[0] and b"run yet" not in pages[0]  # (no tag)
    notes = set()
    for k, frame in enumerate(stepper.frames, start=1):
        note = frame.folds[fold.id]
        # (in PDF string syntax: × in WinAnsi, brackets escaped)
        text = note.replace("(", "\\(").replace(")", "\\)").replace("×", "\\327")
        assert f"({text}) Tj".encode("latin-1") in pages[k], (k, note)
        notes.add(note)
    assert any("running" in n for n in notes) and any("all 4" in n for n in notes)
    gif = stepper.save(tmp_path / "loop.gif", size="slide43", dpi=24, progress=False)
    with Image.open(gif) as image:
        shares = []
        for k in range(image.n_frames):
            image.seek(k)
            shares.append(colour_share(image, export.FOLD_TAG["fill"]))
    assert len(shares) == len(pages)
    assert shares[0] == 0 and all(s > 0 for s in shares[1:]), shares
    # the SVG frames: the note in a tag over the block's top right corner
    folder = stepper.save(tmp_path / "svg", fmt="svg", progress=False)
    svgs = [f.read_text() for f in sorted(folder.glob("frame_*.svg"))]
    assert len(svgs) == len(pages) and svg_tags(svgs[0], "mg-fold-tag") == []
    for k, frame in enumerate(stepper.frames, start=1):
        ((text, x, y, _graph),) = svg_tags(svgs[k], "mg-fold-tag")
        left, top, right, _bottom = export.svg_geometry(svgs[k])[1][f"F-{fold.id}"]
        assert text == frame.folds[fold.id] and (x, y) == pytest.approx(
            (right - 6, top - 5), abs=0.01
        )


def test_edge_tags_sit_half_way_along_the_edge() -> None:
    """A tag goes where the widget puts it: half the edge's length along its
    path (getPointAtLength), not at the joint between its middle segments,
    which on a long curved edge can be at one end, over the node there."""
    # a straight edge in two segments, the joint 3 pt from its start
    assert export._middle([0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 100, 0]) == (
        pytest.approx(50),
        pytest.approx(0, abs=1e-9),
    )

    def bezier(p: list[float], t: float) -> tuple[float, float]:
        a, b, c, d = (1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t**3
        return (
            a * p[0] + b * p[2] + c * p[4] + d * p[6],
            a * p[1] + b * p[3] + c * p[5] + d * p[7],
        )

    # a curved edge of two uneven segments against a fine walk along it
    path = [0, 0, 0, 80, 40, 120, 60, 120, 70, 120, 75, 118, 80, 110]
    fine = [bezier(path[0:8], k / 4000) for k in range(4001)]
    fine += [bezier(path[6:14], k / 4000) for k in range(1, 4001)]
    steps = [math.dist(p, q) for p, q in zip(fine, fine[1:])]
    half, run, k = sum(steps) / 2, 0.0, 0
    while run + steps[k] < half:
        run += steps[k]
        k += 1
    x, y = export._middle(path)
    assert math.dist((x, y), fine[k]) < 0.5
    assert math.dist((x, y), (path[6], path[7])) > 20  # not the joint
