"""The stepper lesson in real JupyterLab 4 and Notebook 7 with Debian's Chromium:
Run All leaves every stepper it shows at frame 0; click Next, and the
highlighted (``.mg-running``) node changes. The server is the session's (see
conftest.py), each app with its own copy of the lesson.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from labserver import (
    ALL_RAN,
    ALL_STEPPERS_SHOWN,
    STEPPERS,
    UI_TIMEOUT_MS,
    Lab,
    Server,
    Watch,
    assert_steppers_at_frame_0,
)

NOTEBOOK = (
    Path(__file__).resolve().parents[2] / "notebooks" / "03_backward_step_by_step.ipynb"
)


@pytest.fixture(scope="module", params=["lab", "notebook"])
def lab(request: pytest.FixtureRequest, jupyter: Server) -> Iterator[Lab]:
    if not NOTEBOOK.exists():
        pytest.skip(f"{NOTEBOOK.name} is missing")
    app = request.param
    with jupyter.folder(f"next-{app}", [NOTEBOOK], app) as lab:
        yield lab


# Run All in a slow browser, as on a loaded CI machine or an old laptop: the
# page's CPU runs this many times slower while the cells run. (anywidget then
# gave up on the models whose code loaded late, and their steppers never moved
# again; see `hear` in viz/widgets/graph_view.js.)
SLOW_CPU = 12


@pytest.mark.browser
def test_next_moves_the_highlight_in_jupyter(lab: Lab, browser: Any) -> None:
    """Every stepper of lesson 03 steps on Next after a Run All in a slow
    browser; the first one's highlight, panel and done marks follow."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    watch = Watch(page)
    try:
        lab.open(page, NOTEBOOK.name)
        cpu = page.context.new_cdp_session(page)
        lab.menu(page, "Run", "Run All Cells")
        cpu.send("Emulation.setCPUThrottlingRate", {"rate": SLOW_CPU})
        try:
            page.wait_for_function(ALL_RAN, timeout=2 * UI_TIMEOUT_MS)
            page.wait_for_function(ALL_STEPPERS_SHOWN, timeout=2 * UI_TIMEOUT_MS)
        finally:
            cpu.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        # every stepper the lesson shows is live and at frame 0
        assert_steppers_at_frame_0(page, NOTEBOOK.name)
        widgets = page.locator(".jp-OutputArea-output:has(.mg-stepper)")
        assert widgets.count() == 3, page.evaluate(STEPPERS)

        # The lesson's first stepper: its own button, view and panel.
        next_button = widgets.nth(0).locator("button.mg-next")
        view = widgets.nth(0).locator(".mg-graph")
        running = view.locator(".mg-running")
        panel = widgets.nth(0).locator(".mg-panel")
        expect(view).to_have_attribute("data-step", "0")
        expect(running).to_have_count(0)

        next_button.click()
        expect(view).to_have_attribute("data-step", "1", timeout=30_000)
        expect(running).to_have_count(1)
        first = running.get_attribute("id")
        assert first is not None and first.endswith("f0")  # MeanBackward0
        expect(panel).to_contain_text("Step 1 of")
        expect(panel).to_contain_text("MeanBackward0")

        next_button.click()
        expect(view).to_have_attribute("data-step", "2", timeout=30_000)
        expect(running).not_to_have_attribute("id", first)
        expect(panel).to_contain_text("Step 2 of")
        expect(panel).to_contain_text("MulBackward0")
        expect(view.locator(".mg-done")).to_have_count(2)

        # the hooked and the broken graphs' steppers step too
        for i in (1, 2):
            widgets.nth(i).locator("button.mg-next").click()
            expect(widgets.nth(i).locator(".mg-graph")).to_have_attribute(
                "data-step", "1", timeout=30_000
            )
            expect(widgets.nth(i).locator(".mg-running")).to_have_count(1)
    except Exception:
        page.screenshot(path=str(lab.log.with_name("failure.png")))
        print(lab.log_tail())
        print(watch.report())
        print("steppers:", page.evaluate(STEPPERS))
        raise
    finally:
        page.close()
