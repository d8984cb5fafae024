"""The stepper as a Jupyter citizen, in real JupyterLab 4 (Debian's Chromium):

* it follows JupyterLab Dark when Lab switches to it, and an explicit
  ``theme=`` wins;
* Run All of each lesson that displays steppers leaves every one at frame 0,
  as the browser shows it;
* a notebook saved with outputs and reopened with no widget state (the kernel
  shut down, a new one started) shows a picture of the graph, not "Error
  displaying widget: model not found"; so does its nbconvert HTML.

The session's server (conftest.py), this module's own folder on it.
Screenshots go to the test's temp folder, or to
``$MINIGRAD_SCREENSHOTS`` when set (their folder is printed); the ones in docs/
were taken this way.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import headless
import pytest
from labserver import UI_TIMEOUT_MS, Lab, Server, assert_steppers_at_frame_0
from test_jupyterlab_screen import graph_files, write_notebook

LESSONS = Path(__file__).resolve().parents[2] / "notebooks"
# The lessons that display steppers besides lesson 03 (test_jupyterlab.py runs
# that one in Lab and Notebook 7); the test checks each shows at least one.
STEPPER_LESSONS = [
    "09_training_with_nn_and_optim.ipynb",
    "10_minigrad_vs_pytorch.ipynb",
    "11_backprop_through_time.ipynb",
]
THEME_CELLS = (
    "import runpy\nimport viz\n\n"
    "g = runpy.run_path('mlp_graph.py')\n"
    "auto = viz.BackwardStepper(g['loss'], params=g['params'])\nauto",
    "g = runpy.run_path('seed_graph.py')\n"
    "light = viz.BackwardStepper(g['loss'], params=g['params'], theme='light')\nlight",
)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory, jupyter: Server) -> Iterator[Lab]:
    folder = tmp_path_factory.mktemp("notebooks")
    files = graph_files(folder, "seed") + graph_files(folder, "mlp")
    files.append(folder / "seed_dark.ipynb")
    shutil.copy(folder / "seed.ipynb", files[-1])
    files.append(write_notebook(folder / "theme.ipynb", *THEME_CELLS))
    files += [LESSONS / name for name in STEPPER_LESSONS if (LESSONS / name).exists()]
    with jupyter.folder("citizen", files) as lab:
        yield lab


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go."""
    folder = Path(os.environ.get("MINIGRAD_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def page(browser: Any, lab: Lab) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page
    except Exception:
        print(lab.log_tail())
        raise
    finally:
        page.close()
    assert not errors, errors


def goto_step(page: Any, k: int, nth: int = 0) -> None:
    """Click Next on the ``nth`` stepper until it shows frame ``k``."""
    from playwright.sync_api import expect

    view = page.locator(".mg-graph").nth(nth)
    for i in range(1, k + 1):
        page.evaluate(
            "([n]) => document.querySelectorAll('button.mg-next')[n].click()", [nth]
        )
        expect(view).to_have_attribute("data-step", str(i), timeout=10_000)
    page.wait_for_function(
        "([n]) => !document.querySelectorAll('.mg-stepper')[n].dataset.moving",
        arg=[nth],
    )


LUMA = """(e) => {
  const luma = (c) => { const [r, g, b] = c.match(/\\d+/g).map(Number);
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255; };
  const s = getComputedStyle(e);
  const graph = getComputedStyle(e.querySelector('.mg-graph'));
  const bg = e.querySelector('.mg-graph svg g.graph > polygon');
  return {text: luma(s.color), background: luma(graph.backgroundColor),
    picture: bg ? luma(getComputedStyle(bg).fill) : null,
    dark: e.classList.contains('mg-dark')};
}"""


@pytest.mark.browser
def test_the_widget_follows_jupyterlab_dark_and_theme_wins(
    lab: Lab, page: Any, shots: Path
) -> None:
    from playwright.sync_api import expect

    lab.open(page, "theme.ipynb")
    lab.run_all(page)
    steppers = page.locator(".mg-stepper")
    expect(steppers).to_have_count(2, timeout=UI_TIMEOUT_MS)
    goto_step(page, 5)
    light = steppers.nth(0).evaluate(LUMA)
    assert not light["dark"] and light["background"] > 0.8 and light["text"] < 0.3
    page.screenshot(path=str(shots / "stepper-jupyterlab-1366.png"))

    lab.menu(page, "Settings", "Theme", "JupyterLab Dark")
    page.wait_for_function(
        "() => document.body.dataset.jpThemeLight === 'false'", timeout=UI_TIMEOUT_MS
    )
    expect(steppers.nth(0)).to_have_class(re.compile(r"\bmg-dark\b"), timeout=10_000)
    # the kernel sends the drawing again in the dark theme
    page.wait_for_function(
        """(e) => { const p = e.querySelector('.mg-graph svg g.graph > polygon');
          return p && getComputedStyle(p).fill !== 'rgb(255, 255, 255)'; }""",
        arg=steppers.nth(0).element_handle(),
        timeout=10_000,
    )
    dark = steppers.nth(0).evaluate(LUMA)
    assert dark["background"] < 0.2 and dark["text"] > 0.7, dark
    assert dark["picture"] is not None and dark["picture"] < 0.2, dark
    assert page.locator(".mg-graph").nth(0).get_attribute("data-step") == "5"
    # theme="light" given to the stepper wins over the page
    kept = steppers.nth(1).evaluate(LUMA)
    assert not kept["dark"] and kept["background"] > 0.8 and kept["text"] < 0.3, kept
    page.screenshot(path=str(shots / "stepper-jupyterlab-1366-dark.png"))
    page.set_viewport_size({"width": 1920, "height": 1080})
    # the viewport refits on the resize, before the frame after next
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => "
                  "requestAnimationFrame(r)))")  # fmt: skip
    page.screenshot(path=str(shots / "stepper-jupyterlab-1920-dark.png"))
    lab.menu(page, "Settings", "Theme", "JupyterLab Light")  # for the other tests
    page.wait_for_function("() => document.body.dataset.jpThemeLight === 'true'")
    print("screenshots:", shots)


# The README's screenshots of the stepper (docs/stepper-*.png, retaken with
# MINIGRAD_SCREENSHOTS=docs): notebook, step, theme, at 1366x768.
DOCS_SHOTS = [
    ("stepper-seed-step3.png", "seed.ipynb", 3, "JupyterLab Light"),
    ("stepper-mlp-1366.png", "mlp.ipynb", 6, "JupyterLab Light"),
    # (a kernel of its own: seed.ipynb's has run backward through its graph)
    ("stepper-seed-dark.png", "seed_dark.ipynb", 3, "JupyterLab Dark"),
]


@pytest.mark.browser
@pytest.mark.parametrize(("name", "notebook", "step", "theme"), DOCS_SHOTS)
def test_the_readmes_stepper_screenshots(
    lab: Lab, page: Any, shots: Path, name: str, notebook: str, step: int, theme: str
) -> None:
    """Each is what JupyterLab shows: the stepper's output at the top of the
    notebook, the running node in view and legible, in the theme asked for."""
    import screens
    from playwright.sync_api import expect

    lab.open(page, notebook)
    lab.menu(page, "Settings", "Theme", theme)
    light = "true" if theme.endswith("Light") else "false"
    page.wait_for_function(
        f"() => document.body.dataset.jpThemeLight === '{light}'", timeout=UI_TIMEOUT_MS
    )
    lab.run_all(page)
    expect(page.locator(".mg-stepper")).to_have_count(1, timeout=UI_TIMEOUT_MS)
    out = page.locator(".jp-OutputArea-output:has(.mg-stepper)")
    out.evaluate("(e) => e.scrollIntoView({block: 'start'})")
    view = page.locator(".mg-graph")
    for k in range(1, step + 1):  # (a loaded machine: each step may take a while)
        out.locator("button.mg-next").click()
        expect(view).to_have_attribute("data-step", str(k), timeout=UI_TIMEOUT_MS)
    root = page.locator(".mg-stepper").element_handle()
    page.wait_for_function(screens.RUNNING_IN_VIEW, arg=root, timeout=10_000)
    look = root.evaluate(LUMA)
    assert look["dark"] == (light == "false"), look
    expect(out.locator(".mg-status")).to_contain_text(f"step {step} of")
    page.screenshot(path=str(shots / name))
    if light == "false":  # for the other tests
        lab.menu(page, "Settings", "Theme", "JupyterLab Light")
        page.wait_for_function("() => document.body.dataset.jpThemeLight === 'true'")
    print("screenshot:", shots / name)


@pytest.mark.browser
@pytest.mark.parametrize("lesson", STEPPER_LESSONS)
def test_run_all_leaves_each_lessons_steppers_at_frame_0(
    lab: Lab, page: Any, lesson: str
) -> None:
    if not (LESSONS / lesson).exists():
        pytest.skip(f"{lesson} is missing")
    lab.open(page, lesson)
    lab.run_all(page)
    assert_steppers_at_frame_0(page, lesson)


NO_ERROR = "() => !document.body.innerText.includes('model not found')"
# The widget renderer's error panel, in the output after the picture's.
GAVE_UP = """() => [...document.querySelectorAll(
  '.jp-OutputArea-child:has(.mg-picture) + .jp-OutputArea-child .jupyter-widgets')]
  .some((e) => e.textContent.includes('model not found'))"""
PICTURE = """() => [...document.querySelectorAll('.mg-picture svg')].filter((svg) => {
  const r = svg.getBoundingClientRect();
  return r.width > 100 && r.height > 100 && svg.checkVisibility();
}).map((svg) => [...svg.querySelectorAll('g.node text')].map((t) => t.textContent))"""


@pytest.mark.browser
def test_saved_notebook_shows_the_picture_without_its_widget(
    lab: Lab, page: Any, browser: Any, tmp_path: Path, shots: Path
) -> None:
    from playwright.sync_api import expect

    lab.open(page, "seed.ipynb")
    lab.run_all(page)
    expect(page.locator(".mg-stepper")).to_have_count(1, timeout=UI_TIMEOUT_MS)
    goto_step(page, 2)
    assert page.evaluate(PICTURE) == []  # live: the widget, not its picture
    # the (hidden) picture follows the frame on display: saved, it shows step 2
    page.wait_for_function(
        "() => document.querySelector('.mg-picture')?.textContent"
        ".includes('step 2 of')",
        timeout=UI_TIMEOUT_MS,
    )
    lab.menu(page, "File", "Save Notebook")
    expect(page.locator(".jp-mod-dirty")).to_have_count(0, timeout=10_000)
    lab.menu(page, "Kernel", "Shut Down Kernel")
    page.wait_for_function(
        "() => document.querySelector('#jp-main-statusbar').textContent"
        ".includes('No Kernel')",
        timeout=UI_TIMEOUT_MS,
    )
    page.close()
    saved = json.loads((lab.root / "seed.ipynb").read_text(encoding="utf-8"))
    pictures = [
        "".join(out["data"]["text/plain"])
        for cell in saved["cells"]
        for out in cell.get("outputs", [])
        if "mg-picture" in "".join(out.get("data", {}).get("text/html", ""))
    ]
    assert len(pictures) == 1 and pictures[0].startswith("step 2 of"), pictures

    # Reopened: the outputs are there, their widget models are not.
    again = browser.new_page(viewport={"width": 1366, "height": 768})
    try:
        lab.open(again, "seed.ipynb")
        again.wait_for_function(
            f"() => ({PICTURE})().length === 1", timeout=UI_TIMEOUT_MS
        )
        # the widget manager gives up on the missing model (after ~2 s): its
        # error panel is there, hidden, and the picture still shows
        again.wait_for_function(GAVE_UP, timeout=UI_TIMEOUT_MS)
        labels = again.evaluate(PICTURE)
        assert len(labels) == 1 and "MeanBackward0" in " ".join(labels[0]), labels
        assert again.evaluate(NO_ERROR)
        assert again.locator(".mg-stepper").count() == 0
        again.screenshot(path=str(shots / "reopened.png"))
    finally:
        again.close()

    # nbconvert's HTML (offline) shows the picture too
    html = tmp_path / "seed.html"
    subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "html",
         "--output-dir", str(tmp_path), str(lab.root / "seed.ipynb")],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    static = browser.new_page(viewport={"width": 1366, "height": 768})
    try:
        headless.offline(static)
        static.goto(html.as_uri())
        labels = static.evaluate(PICTURE)
        assert len(labels) == 1 and "MeanBackward0" in " ".join(labels[0]), labels
        assert static.evaluate(NO_ERROR)
        static.screenshot(path=str(shots / "nbconvert.png"))
    finally:
        static.close()
    print("screenshots:", shots)
