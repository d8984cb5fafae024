"""Opening a collapsed box with a click, in JupyterLab 4 and Notebook 7 (Debian's
Chromium, 1366x768): a module drawn as one box (``depth=1``) opens on a click
on it and closes on a click on its frame's title or its "⊖ close" tag; a
folded block (a 6-step loop) opens on its "⊕ open all repeats" tag and closes
with its chip.
The frame on display stays, the running node stays in view, and stepping goes
on in the opened drawing. The kernel side is tests/viz/test_stepper_boxes.py.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import screens
from labserver import UI_TIMEOUT_MS, Lab, Server, Watch, assert_steppers_at_frame_0
from test_jupyterlab_screen import write_notebook

NET = """
import minigrad as torch

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = torch.nn.Sequential(
            torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 4)
        )
        self.head = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.head(torch.tanh(self.encoder(x)))

torch.manual_seed(0)
net = Net()
loss = net(torch.randn(5, 3)).sum()
"""

CELLS = (
    "from boxes_net import net, loss\nimport viz\n"
    "modules = viz.BackwardStepper(loss, params=net, depth=1, id_prefix='bx-')\n"
    "modules",
    "from boxes_loop import loss as loop_loss, params as loop_params\n"
    "loop = viz.BackwardStepper(loop_loss, params=loop_params, fold=True, "
    "id_prefix='fx-')\nloop",
)


# Notebook 7's own page errors, with or without a widget on the page
NOTEBOOK7_OWN = {
    "Cannot read properties of undefined (reading 'schema')",
    "Command 'filebrowser:open-path' not registered.",
}


@pytest.fixture(scope="module", params=["lab", "notebook"])
def lab(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    jupyter: Server,
) -> Iterator[Lab]:
    folder = tmp_path_factory.mktemp("boxes")
    (folder / "boxes_net.py").write_text(NET)
    (folder / "boxes_loop.py").write_text("import minigrad as torch\n" + screens.RNN)
    files = [
        folder / "boxes_net.py",
        folder / "boxes_loop.py",
        write_notebook(folder / "boxes.ipynb", *CELLS),
    ]
    with jupyter.folder(f"boxes-{request.param}", files, request.param) as lab:
        yield lab


def show(output: Any) -> None:
    """Scroll the stepper's output to the top of the notebook, as a reader does."""
    output.evaluate("(e) => e.scrollIntoView({block: 'start'})")


def in_view(page: Any, output: Any) -> None:
    root = output.locator(".mg-stepper").element_handle()
    try:
        page.wait_for_function(screens.RUNNING_IN_VIEW, arg=root, timeout=10_000)
    except Exception:
        print("running node:", page.evaluate(screens.RUNNING_REPORT, root))
        raise


@pytest.mark.browser
def test_a_click_opens_and_closes_a_box(lab: Lab, browser: Any) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1366, "height": 768})
    watch = Watch(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        lab.open(page, "boxes.ipynb")
        lab.run_all(page)
        assert_steppers_at_frame_0(page, "boxes.ipynb")
        # each stepper's output: its controls and its view (.mg-stepper)
        steppers = page.locator(".jp-OutputArea-output:has(.mg-stepper)")
        expect(steppers).to_have_count(2, timeout=UI_TIMEOUT_MS)

        # a module box: a click on it opens it, at the frame on display
        root = steppers.nth(0)
        show(root)
        view = root.locator(".mg-graph")
        for k in (1, 2):
            root.locator("button.mg-next").click()
            expect(view).to_have_attribute("data-step", str(k), timeout=30_000)
        boxed = view.locator('[id="bx-module-encoder"]')
        expect(boxed).to_have_count(1)
        expect(boxed).to_have_class(re.compile(r"\bmg-box-closed\b"))
        boxed.click()
        frame = view.locator('[id="bx-cluster-module-encoder"]')
        expect(frame).to_have_count(1, timeout=30_000)
        expect(boxed).to_have_count(0)
        # its layers are boxes now; the opened module has a chip that closes it
        expect(view.locator('[id="bx-module-encoder.0"]')).to_have_count(1)
        chip = root.locator(".mg-close-box")
        expect(chip).to_have_text("⊖ Sequential encoder (3 layers)")
        expect(view).to_have_attribute("data-step", "2")
        expect(view.locator(".mg-running")).to_have_count(1)
        in_view(page, root)
        root.locator("button.mg-next").click()  # stepping goes on
        expect(view).to_have_attribute("data-step", "3", timeout=30_000)
        in_view(page, root)
        # a click on the frame's title closes it again (where the panel floats
        # over the graph, the follow panned the running node clear of it and
        # the title out of view: the reader hides the panel, and the fitted
        # view shows the whole graph again)
        toggle = root.locator(".mg-panel-toggle")
        if toggle.is_visible():
            toggle.click()
            expect(root.locator(".mg-panel")).to_be_hidden()
        frame.locator("text").first.click()
        expect(boxed).to_have_count(1, timeout=30_000)
        expect(frame).to_have_count(0)
        expect(root.locator(".mg-close-box")).to_have_count(0)
        # ... and so does its "⊖ close" tag
        boxed.click()
        expect(frame).to_have_count(1, timeout=30_000)
        root.locator('.mg-box-tag[data-box="module-encoder"]').click()
        expect(boxed).to_have_count(1, timeout=30_000)

        # a folded block: its tag opens every repeat, its chip folds it again
        root = steppers.nth(1)
        show(root)
        view = root.locator(".mg-graph")
        root.locator("button.mg-next").click()
        expect(view).to_have_attribute("data-step", "1", timeout=30_000)
        expect(view.locator(".mg-fold-tag")).to_have_count(1)
        nodes = view.locator("g.node").count()
        root.locator('.mg-box-tag[data-box="fold0"]').click()
        expect(view.locator(".mg-fold-tag")).to_have_count(0, timeout=30_000)
        assert view.locator("g.node").count() > 2 * nodes
        expect(view.locator(".mg-running")).to_have_count(1)
        in_view(page, root)
        # (playwright scrolled the clipped viewport to reach the tag, as a
        # browser's find-in-page does: the view made that a pan)
        assert view.evaluate("(v) => [v.scrollLeft, v.scrollTop]") == [0, 0]
        root.locator(".mg-close-box").click()
        expect(view.locator(".mg-fold-tag")).to_have_count(1, timeout=30_000)
        assert view.locator("g.node").count() == nodes
        assert not [e for e in errors if e not in NOTEBOOK7_OWN], errors
    except Exception:
        page.screenshot(path=str(lab.log.with_name(f"boxes-{lab.app}.png")))
        print(lab.log_tail())
        print(watch.report())
        raise
    finally:
        page.close()


@pytest.mark.browser
def test_the_html_player_keeps_several_boxes_open(browser: Any, tmp_path: Path) -> None:
    """The exported page (no kernel, no network): a click on a module box
    shows the drawing saved with that box open, lit as the stepper lights
    it, at the same step; boxes opened after it (beside it, inside it) open
    with it still open, each lit as the stepper lights that set; a click on
    a set the page does not hold says so; chips and "⊖ close" tags close
    one box each, the others staying open."""
    import headless
    from playwright.sync_api import expect

    import minigrad
    import viz

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "viz"))
    from test_viz_group import nested

    loss, net = nested(minigrad)
    stepper = viz.BackwardStepper(loss, params=net, depth=1, id_prefix="hp-")
    path = stepper.save(tmp_path / "boxes.html")
    print(f"page with boxes: {path.stat().st_size / 1e6:.2f} MB")
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    lit = """(role) => [...document.querySelectorAll('.mg-graph .mg-' + role)]
        .map((e) => e.id.slice(3))"""
    view = page.locator(".mg-graph")
    player = page.locator(".mg-player")

    def opened() -> set[str]:
        """The boxes the page shows open (their frames drawn, their chips)."""
        chips = page.evaluate(
            "[...document.querySelectorAll('.mg-close-box')].map((c) => c.dataset.box)"
        )
        for box in chips:
            expect(view.locator(f'[id="hp-cluster-{box}"]')).to_have_count(1)
        return set(chips)

    def lit_as_the_stepper(k: int, boxes: set[str]) -> None:
        stepper.show_expanded(frozenset(boxes))
        frame = stepper.frames[k - 1]
        for role in ("running", "done"):
            assert set(page.evaluate(lit, role)) == set(frame.highlight()[role]), role
        page.wait_for_function(screens.RUNNING_IN_VIEW, arg=player.element_handle())

    try:
        blocked = headless.offline(page)
        page.goto(path.as_uri())
        for _ in range(8):
            page.click(".mg-next")
        page.locator('[id="hp-module-body"]').click()
        expect(view.locator('[id="hp-cluster-module-body"]')).to_have_count(1)
        expect(view).to_have_attribute("data-step", "8")
        assert opened() == {"module-body"}
        lit_as_the_stepper(8, {"module-body"})
        page.click(".mg-next")  # stepping goes on in the opened drawing
        lit_as_the_stepper(9, {"module-body"})
        # a box inside the opened one, then one beside it: all stay open
        page.locator('.mg-box-tag[data-box="module-body.encoder"]').click()
        expect(view.locator('[id="hp-cluster-module-body.encoder"]')).to_have_count(1)
        page.locator('[id="hp-module-out"]').click()
        expect(view.locator('[id="hp-cluster-module-out"]')).to_have_count(1)
        three = {"module-body", "module-body.encoder", "module-out"}
        assert opened() == three
        lit_as_the_stepper(9, three)
        page.click(".mg-prev")
        lit_as_the_stepper(8, three)
        expect(page.locator(".mg-box-note")).to_have_text("")
        # four at once is held too; five is not (the notebook opens any)
        page.locator('.mg-box-tag[data-box="module-body.encoder.0"]').click()
        expect(view.locator('[id="hp-cluster-module-body.encoder.0"]')).to_have_count(1)
        assert opened() == {*three, "module-body.encoder.0"}
        page.locator('.mg-box-tag[data-box="module-body.head"]').click()
        expect(page.locator(".mg-box-note")).to_contain_text("close one first")
        assert opened() == {*three, "module-body.encoder.0"}
        # closing one box (its chip, its tag) leaves the others open
        page.locator('.mg-close-box[data-box="module-out"]').click()
        expect(view.locator('[id="hp-module-out"]')).to_have_count(1)
        assert opened() == {
            "module-body",
            "module-body.encoder",
            "module-body.encoder.0",
        }
        page.locator('.mg-box-tag[data-box="module-body.encoder"]').click()
        assert opened() == {"module-body"}  # (closing a box closes those inside)
        lit_as_the_stepper(8, {"module-body"})
        page.locator('.mg-box-tag[data-box="module-body"]').click()
        expect(view.locator('[id="hp-module-body"]')).to_have_count(1)
        assert opened() == set()
        assert view.evaluate("(v) => [v.scrollLeft, v.scrollTop]") == [0, 0]
        assert not blocked and not errors, (blocked, errors)
    finally:
        page.close()
        stepper.close()
