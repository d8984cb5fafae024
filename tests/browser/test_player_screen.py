"""The HTML player on a real screen (Debian's Chromium, 1366x768 and 1920x1080):
for the seed graph, a 3-layer MLP with cross-entropy and a 6-step recurrent
loop, at every step the running node is fully inside the viewport without the
test scrolling and its label is at least 9 px high. Also prints the browser's
time for one step on the MLP (reported, not asserted)."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

import headless
import pytest
import screens

from viz.stepper import BackwardStepper

SCREENS = [(1366, 768), (1920, 1080)]


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, int]]:
    out = {}
    folder = tmp_path_factory.mktemp("player")
    for name in screens.GRAPHS:
        loss, params = screens.build(name)
        stepper = BackwardStepper(loss, params=params)
        path = stepper.save(folder / f"{name}.html")
        out[name] = (path, stepper.step)
    return out


@pytest.mark.browser
@pytest.mark.parametrize("size", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(screens.GRAPHS))
def test_running_node_stays_in_view_and_legible(
    browser: Any, pages: dict, name: str, size: tuple[int, int]
) -> None:
    path, steps = pages[name]
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        blocked = headless.offline(page)
        page.goto(path.as_uri())
        root = page.locator(".mg-player")
        times = []
        for k in range(1, steps + 1):
            ms = page.evaluate(
                """async () => {
                  const t0 = performance.now();
                  document.querySelector('.mg-next').click();
                  await new Promise((r) => setTimeout(r, 0));
                  return performance.now() - t0;
                }"""
            )
            times.append(ms)
            assert page.get_attribute(".mg-graph", "data-step") == str(k)
            try:
                page.wait_for_function(
                    screens.RUNNING_IN_VIEW, arg=root.element_handle(), timeout=3000
                )
            except Exception:
                report = page.evaluate(screens.RUNNING_REPORT, root.element_handle())
                pytest.fail(f"{name} step {k} at {size}: {report}")
        assert page.evaluate("scrollY") == 0  # the page itself never scrolled
        print(f"{name} {size}: one step {statistics.median(times):.1f} ms median")
        assert not blocked and not errors, (blocked, errors)
    finally:
        page.close()


# The viewport's pan and zoom once no animation moves it.
SETTLED = """async () => {
  const root = document.querySelector('.mg-player');
  for (let i = 0; i < 200 && root.dataset.moving; i++) {
    await new Promise((r) => requestAnimationFrame(r));
  }
  return document.querySelector('.mg-svg').style.transform;
}"""


@pytest.mark.browser
def test_reset_shows_the_fitted_view_again(browser: Any, pages: dict) -> None:
    """Reset (frame 0: nothing runs) goes back to the view fitted before the
    first step, not the pan the follow made for the last node that ran."""
    path, steps = pages["mlp"]
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    try:
        headless.offline(page)
        page.goto(path.as_uri())
        fitted = page.evaluate(SETTLED)
        panned = None
        for _ in range(steps):  # until the follow pans away from the fit
            page.click(".mg-next")
            now = page.evaluate(SETTLED)
            if now != fitted:
                panned = now
                break
        assert panned is not None, "the follow never panned: nothing to test"
        page.click(".mg-reset")
        assert page.get_attribute(".mg-graph", "data-step") == "0"
        assert page.evaluate(SETTLED) == fitted
    finally:
        page.close()


# Overlay tags (edge values, .grad, freed, badges) whose box covers a node's text.
TAGS_ON_TEXT = """(cls) => {
  const hit = (a, b) => a.left < b.right && b.left < a.right &&
    a.top < b.bottom && b.top < a.bottom;
  const texts = [...document.querySelectorAll('.mg-graph g.node text')]
    .map((t) => [t.textContent, t.getBoundingClientRect()]);
  const out = [];
  for (const tag of document.querySelectorAll(`.mg-overlay .${cls} rect`)) {
    const r = tag.getBoundingClientRect();
    for (const [text, q] of texts) if (hit(r, q)) out.push(text);
  }
  return out;
}"""


@pytest.mark.browser
def test_freed_tags_leave_the_slot_names_readable(browser: Any, pages: dict) -> None:
    """After the last step of the MLP every saved slot is freed: its "freed"
    tag covers no text of any node (it sat on the end of `_saved_total_weight`)."""
    path, _steps = pages["mlp"]
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        headless.offline(page)
        page.goto(path.as_uri())
        page.click(".mg-end")
        assert page.locator(".mg-overlay .mg-freed-tag").count() > 5
        assert page.evaluate(TAGS_ON_TEXT, "mg-freed-tag") == []
    finally:
        page.close()
