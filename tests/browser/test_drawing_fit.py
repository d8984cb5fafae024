"""Inline drawings fit the output column (issue #14): Debian's Chromium shows
the HTML a `Drawing` gives Jupyter (``_repr_html_``, the text/html of its
mimebundle) scaled down to the column, aspect kept, but never below 70%
(node text 9 px; it then scrolls sideways in its box), and a click shows it
at full size; a small drawing keeps its natural size. Checked in a bare
1220 px column, in a notebook exported by nbconvert (JupyterLab's CSS), and
in real JupyterLab 4 and Notebook 7 servers running the cell.
The drawing is lesson 09's training step (Linear-Tanh-Linear, cross-entropy)."""

from __future__ import annotations

import inspect
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
