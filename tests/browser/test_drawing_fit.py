"""Inline drawings fit the output column (issue #14): Debian's Chromium shows
the HTML a `Drawing` gives Jupyter (``_repr_html_``, the text/html of its
mimebundle) scaled down to the column, aspect kept, but never below 70%
(node text 9 px; it then scrolls sideways in its box), and a click shows it
at full size; a small drawing keeps its natural size. Checked in a bare
1220 px column, in a notebook exported by nbconvert (JupyterLab's CSS), and
in real JupyterLab 4 and Notebook 7 servers running the cell.
The drawing is lesson 09's training step (Linear-Tanh-Linear, cross-entropy)."""

from __future__ import annotations

import ast
import inspect
import json
import os
import re
from pathlib import Path
from typing import Any

import headless
import numpy as np
import pytest

import viz
from viz import render
from viz.drawing import FIT_MIN_SCALE

COLUMN_PX = 1220
PT_TO_PX = 96 / 72
CDN = ("https://cdnjs.cloudflare.com/", "https://cdn.jsdelivr.net/")

SIZES = """(el) => {
  const svg = el.querySelector('svg');
  const r = svg.getBoundingClientRect();
  const box = svg.viewBox.baseVal;
  const texts = [...svg.querySelectorAll('g.node text')]
    .map((t) => t.getBoundingClientRect().height).filter((h) => h > 0);
  return {w: r.width, h: r.height, vw: box.width, vh: box.height,
          column: el.clientWidth, text: Math.min(...texts),
          scroll: el.scrollWidth, client: el.clientWidth};
}"""


def training_step() -> viz.Drawing:
    """Lesson 09's drawing: a 2-16-2 MLP with cross-entropy on 200 points."""
    import minigrad as torch

    rng = np.random.default_rng(1)
    model = torch.nn.Sequential(
        torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2)
    )
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.7, 0.7, p.shape).astype("f4")))
    x = torch.tensor(rng.normal(size=(200, 2)).astype("f4"))
    y = torch.tensor(rng.integers(0, 2, 200))
    logits = model(x)
    loss = torch.nn.CrossEntropyLoss()(logits, y)
    names = {**dict(model.named_parameters()), "X": x, "logits": logits}
    return viz.backward_graph(loss, params={**names, "loss": loss})


def seed_graph() -> viz.Drawing:
    import minigrad as torch

    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    return viz.backward_graph(a * b, params={"a": a, "b": b})


@pytest.fixture(scope="module")
def browser(browser: Any) -> Any:
    """The session's browser (conftest.py), when a layout engine draws."""
    if render._pure_binary() is None and render.shutil.which("dot") is None:
        pytest.skip("no layout engine")
    return browser


@pytest.fixture(scope="module")
def drawings() -> dict[str, viz.Drawing]:
    pytest.importorskip("minigrad")
    return {"training_step": training_step(), "seed": seed_graph()}


def open_page(browser: Any, path: Path, width: int) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    blocked = headless.offline(page)
    page.goto(path.as_uri())
    # nbconvert's page asks for require.js and MathJax from a CDN: not ours
    return page, errors + [u for u in blocked if not u.startswith(CDN)]


def check_fit_and_toggle(page: Any, box: Any) -> None:
    s = box.evaluate(SIZES)
    natural = s["vw"] * PT_TO_PX
    assert natural > s["column"] + 100  # a drawing that must shrink
    # as wide as allowed, but not so small that its text is below 9 px: then
    # it scrolls sideways in its box (nothing is cut)
    fitted = max(s["column"], natural * FIT_MIN_SCALE)
    assert fitted - 1 <= s["w"] <= fitted + 0.5, s
    assert s["text"] >= 9, s
    assert (s["scroll"] > s["client"]) == (fitted > s["column"] + 1), s
    assert s["h"] / s["w"] == pytest.approx(s["vh"] / s["vw"], rel=0.01)
    box.locator("svg").click(position={"x": 5, "y": 5})
    full = box.evaluate(SIZES)
    assert full["w"] == pytest.approx(natural, abs=1)  # full size...
    assert full["scroll"] > full["client"]  # ... scrolling sideways in the column
    box.locator("svg").click(position={"x": 5, "y": 5})
    assert box.evaluate(SIZES)["w"] == pytest.approx(s["w"], abs=0.5)
    box.press("Enter")  # the keyboard does the same
    assert box.evaluate(SIZES)["w"] == pytest.approx(natural, abs=1)
    box.press("Enter")
    assert box.evaluate(SIZES)["w"] == pytest.approx(s["w"], abs=0.5)


@pytest.mark.browser
def test_repr_html_fits_a_1220px_column(browser, drawings, tmp_path):
    html = "".join(
        f'<div class="col" style="width:{COLUMN_PX}px">{d._repr_html_()}</div>'
        for d in drawings.values()
    )
    path = tmp_path / "column.html"
    path.write_text(f"<!doctype html><html><body>{html}</body></html>", "utf-8")
    page, problems = open_page(browser, path, 1400)
    try:
        big, small = page.locator(".mg-fit").all()
        check_fit_and_toggle(page, big)
        s = small.evaluate(SIZES)  # a small drawing is not blown up
        assert s["w"] == pytest.approx(s["vw"] * PT_TO_PX, abs=1)
        assert not problems, problems
    finally:
        page.close()


@pytest.mark.browser
def test_nbconvert_html_fits_the_output_column(browser, drawings, tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbconvert = pytest.importorskip("nbconvert")
    cell = nbformat.v4.new_code_cell("viz.backward_graph(loss, params=names)")
    bundle = drawings["training_step"]._repr_mimebundle_()
    cell.outputs = [nbformat.v4.new_output("display_data", data=bundle)]
    nb = nbformat.v4.new_notebook(cells=[cell])
    body, _ = nbconvert.HTMLExporter().from_notebook_node(nb)
    path = tmp_path / "lesson.html"
    path.write_text(body, "utf-8")
    page, problems = open_page(browser, path, COLUMN_PX + 200)
    try:
        box = page.locator(".jp-OutputArea-output .mg-fit")
        assert box.count() == 1  # the HTML of the bundle, not the bare SVG
        check_fit_and_toggle(page, box)
        assert not problems, problems
    finally:
        page.close()


@pytest.mark.browser
@pytest.mark.parametrize("app", ["lab", "notebook"])
def test_jupyter_output_fits_its_column(browser, jupyter, tmp_path_factory, app):
    """The cell ``training_step()`` run in JupyterLab / Notebook 7."""
    from labserver import UI_TIMEOUT_MS

    nbformat = pytest.importorskip("nbformat")
    folder = tmp_path_factory.mktemp("fit")
    module = folder / "fit_graph.py"
    module.write_text(
        "import numpy as np\nimport viz\n\n\n" + inspect.getsource(training_step)
    )
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"
    }  # fmt: skip
    nb.cells = [nbformat.v4.new_code_cell("from fit_graph import training_step\n"
                                          "training_step()")]  # fmt: skip
    nbformat.write(nb, folder / "fit.ipynb")
    with jupyter.folder(f"fit-{app}", [module, folder / "fit.ipynb"], app) as lab:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        try:
            lab.open(page, "fit.ipynb")
            lab.run_all(page)
            box = page.locator(".jp-OutputArea-output .mg-fit")
            box.wait_for(timeout=UI_TIMEOUT_MS)
            check_fit_and_toggle(page, box)
        finally:
            page.close()


# -- every static drawing of every lesson, in JupyterLab ----------------------

LESSONS = Path(__file__).resolve().parents[2] / "notebooks"
SCREENS = [(1366, 768), (1920, 1080)]
SHOWS = re.compile(r"viz\.(backward|forward)_graph\(")


def shown_drawings(path: Path) -> list[int]:
    """The cells (by index) whose result is a static drawing: their last
    statement an expression calling viz.backward_graph / forward_graph, a
    name or item of a cell that made drawings (lesson 10's
    ``drawings["minigrad"]``), or an HTML(...) of drawings (its row of two)."""
    cells = json.loads(path.read_text("utf-8"))["cells"]
    found = []
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] != "code":
            continue
        body = ast.parse(source).body
        if body and isinstance(body[-1], ast.Expr):
            last = ast.get_source_segment(source, body[-1]) or ""
            kept = isinstance(body[-1].value, (ast.Name, ast.Subscript))
            row = last.startswith("HTML(") and re.search(
                r"\.(svg|_repr_html_)\(", source
            )
            if SHOWS.match(last) or (kept and SHOWS.search(source)) or row:
                found.append(i)
    return found


DRAWING_LESSONS = {
    p.name: cells
    for p in sorted(LESSONS.glob("*.ipynb"))
    if (cells := shown_drawings(p))
}

# Scroll the windowed notebook until cell `i` is rendered, then to its top.
SCROLL_TO_CELL = """async (i) => {
  const outer = document.querySelector('.jp-WindowedPanel-outer');
  const find = () => document.querySelector(
    `.jp-Cell[data-windowed-list-index="${i}"]`);
  outer.scrollTop = 0;
  for (let k = 0; k < 400 && !find(); k++) {
    outer.scrollTop += outer.clientHeight * 0.7;
    await new Promise((r) => setTimeout(r, 40));
  }
  const c = find();
  if (!c) return false;
  for (let k = 0; k < 5; k++) {  // (heights measured late move it again)
    c.scrollIntoView({block: 'start'});
    await new Promise((r) => setTimeout(r, 120));
  }
  return true;
}"""
# One cell's drawings' geometry: each SVG's size against its column, its
# smallest node text (font size times the SVG's scale), and any text that
# leaves its node's shape or the drawing, or lies over another node, and any
# edge label over a node.
MEASURE = """(i) => {
  const c = document.querySelector(`.jp-Cell[data-windowed-list-index="${i}"]`);
  const out = [...c.querySelectorAll('.jp-OutputArea-output')].find((o) =>
    o.querySelector('svg g.node'));
  if (!out) return null;
  const rect = (e) => e.getBoundingClientRect();
  const inside = (a, b, tol) => a.left >= b.left - tol && a.top >= b.top - tol &&
    a.right <= b.right + tol && a.bottom <= b.bottom + tol;
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 &&
    a.top < b.bottom - 1 && b.top < a.bottom - 1;
  // (a text's box is its line's height: its ink is the middle of it)
  const ink = (t) => { const r = rect(t); return {left: r.left, right: r.right,
    top: r.top + r.height * 0.25, bottom: r.bottom - r.height * 0.2}; };
  const o = rect(out);
  const drawings = [...out.querySelectorAll('svg')].filter(
    (s) => s.querySelector('g.node')).map((svg) => {
    const fit = svg.closest('.mg-fit');
    const r = rect(svg);
    const box = svg.viewBox.baseVal;
    const nodes = [...svg.querySelectorAll('g.node')].map((g) => {
      const shapes = [...g.querySelectorAll('polygon, ellipse, path')]
        .map(rect).filter((b) => b.width > 0);
      const u = shapes.length ? {
        left: Math.min(...shapes.map((b) => b.left)),
        top: Math.min(...shapes.map((b) => b.top)),
        right: Math.max(...shapes.map((b) => b.right)),
        bottom: Math.max(...shapes.map((b) => b.bottom))} : rect(g);
      return {id: g.id, shape: u, texts: [...g.querySelectorAll('text')]
        .filter((t) => t.textContent.trim())};
    });
    const problems = [];
    let least = Infinity;
    const scale = r.width / box.width;
    for (const n of nodes) {
      for (const t of n.texts) {
        const size = parseFloat(t.getAttribute('font-size') || '14');
        least = Math.min(least, size * scale);
        const b = ink(t);
        if (!inside(b, n.shape, 1))
          problems.push(`text leaves its node ${n.id}: ${t.textContent}`);
        if (!inside(b, r, 1))
          problems.push(`text outside the drawing: ${t.textContent}`);
        for (const m of nodes)
          if (m !== n && meets(b, m.shape) && !inside(m.shape, n.shape, 0) &&
              !inside(n.shape, m.shape, 0))
            problems.push(`text of ${n.id} over node ${m.id}: ${t.textContent}`);
      }
    }
    for (const t of svg.querySelectorAll('g.edge text'))
      for (const n of nodes)
        if (meets(ink(t), n.shape))
          problems.push(`edge label over node ${n.id}: ${t.textContent}`);
    const scroller = fit || out;
    return {w: r.width, vw: box.width, column: scroller.clientWidth, fit: !!fit,
            scroll: scroller.scrollWidth, client: scroller.clientWidth,
            text: least, problems};
  });
  return {drawings, box: [o.left, o.top, o.width, o.height]};
}"""


@pytest.fixture(scope="module")
def lessons_lab(jupyter: Any) -> Any:
    files = [LESSONS / name for name in DRAWING_LESSONS]
    with jupyter.folder("drawings", files) as lab:
        yield lab


def test_the_lessons_static_drawings_are_found() -> None:
    """The sweep below sees the lessons' drawings (not a quiet pass)."""
    assert len(DRAWING_LESSONS) >= 10, DRAWING_LESSONS
    assert sum(map(len, DRAWING_LESSONS.values())) >= 25
    assert "10_minigrad_vs_pytorch.ipynb" in DRAWING_LESSONS  # its HTML table


@pytest.mark.browser
@pytest.mark.parametrize("lesson", list(DRAWING_LESSONS))
def test_every_lesson_drawing_fits_both_screens(
    browser: Any, lessons_lab: Any, lesson: str, tmp_path: Path
) -> None:
    """Each static drawing of a lesson after Run All, at 1366x768 and
    1920x1080: as wide as the column allows (`FIT_MIN_SCALE` at the least,
    then it scrolls in its box; a drawing that fits keeps its natural size;
    lesson 10's table of two: within the column), node text at least 9 px,
    no text outside its node or over another node, no edge label over a
    node. Screenshots to ``$MINIGRAD_SCREENSHOTS``."""
    shots = Path(os.environ.get("MINIGRAD_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": SCREENS[0][0], "height": SCREENS[0][1]})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    failures = []
    try:
        lessons_lab.open(page, lesson)
        lessons_lab.run_all(page)
        for width, height in SCREENS:
            page.set_viewport_size({"width": width, "height": height})
            for cell in DRAWING_LESSONS[lesson]:
                where = f"{lesson} cell {cell} at {width}x{height}"
                assert page.evaluate(SCROLL_TO_CELL, cell), where
                m = page.evaluate(MEASURE, cell)
                assert m and m["drawings"], f"{where}: no drawing shown"
                shoot(page, cell, shots / f"{lesson[:2]}-c{cell}-{width}.png")
                for k, d in enumerate(m["drawings"]):
                    failures += [
                        f"{where} drawing {k}: {p}" for p in drawing_problems(d)
                    ]
        assert not failures, "\n".join(failures)
        assert not errors, errors
    except Exception:
        print(lessons_lab.log_tail())
        raise
    finally:
        page.close()


def shoot(page: Any, cell: int, path: Path) -> None:
    """A screenshot of the cell's output, whole: the window made as tall as
    it for the picture (its width, and so the column, stays)."""
    size = page.viewport_size
    box = page.evaluate(MEASURE, cell)["box"]
    tall = {"width": size["width"], "height": int(min(box[1] + box[3], 6000)) + 60}
    if tall["height"] > size["height"]:
        page.set_viewport_size(tall)
        page.evaluate(SCROLL_TO_CELL, cell)
        box = page.evaluate(MEASURE, cell)["box"]
    left, top, w, h = box
    page.screenshot(
        path=path,
        clip={"x": max(left, 0), "y": max(top, 0), "width": min(w, size["width"]),
              "height": max(1.0, h)},
    )  # fmt: skip
    page.set_viewport_size(size)
    page.evaluate(SCROLL_TO_CELL, cell)


def drawing_problems(d: dict[str, Any]) -> list[str]:
    """What is wrong with one drawing as `MEASURE` saw it."""
    natural = d["vw"] * PT_TO_PX
    out = list(d["problems"])
    if d["fit"]:
        fitted = min(natural, max(d["column"], natural * FIT_MIN_SCALE))
        if abs(d["w"] - fitted) > 1.5:
            out.append(f"{d['w']:.0f} px wide, not {fitted:.0f} ({d})")
        if (d["scroll"] > d["client"] + 1) != (fitted > d["column"] + 1):
            out.append(f"scrolls sideways {d}")
    elif d["scroll"] > d["client"] + 1:
        out.append(f"wider than its column: {d}")
    if d["text"] < 9:
        out.append(f"node text {d['text']:.1f} px")
    return out
