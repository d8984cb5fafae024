"""A folded loop stepped on a real screen (Debian's Chromium, 1366x768): the
HTML player of a 30-step recurrent loop drawn with its steps folded. At every
step the running node (the block's node standing for it) is in view and
legible, and the block's tag says which repeat runs, as the stepper's frame
does; "already run" in the block is the repeat on display only. (The first
25 steps, then the last.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import headless
import pytest
import screens

from viz.stepper import BackwardStepper


@pytest.mark.browser
def test_a_folded_loop_steps_on_screen(browser: Any, tmp_path: Path) -> None:
    loss, params = screens.build("loop")
    stepper = BackwardStepper(loss, params=params, fold=True, id_prefix="fl-")
    path = stepper.save(tmp_path / "loop.html")
    (fold,) = stepper.drawing.folds
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        blocked = headless.offline(page)
        page.goto(path.as_uri())
        root = page.locator(".mg-player")
        # the first repeats one step at a time, then the end (kept short)
        checked = [*enumerate(stepper.frames[:25], start=1), (stepper.step, None)]
        for k, frame in checked:
            if frame is None:
                frame = stepper.frames[-1]
                page.click(".mg-end")
            else:
                page.click(".mg-next")
            assert page.get_attribute(".mg-graph", "data-step") == str(k)
            page.wait_for_function(
                screens.RUNNING_IN_VIEW, arg=root.element_handle(), timeout=3000
            )
            tag = page.evaluate(
                "[...document.querySelectorAll('.mg-fold-tag text')]"
                ".map((t) => t.textContent)"
            )
            assert tag == [frame.folds[fold.id]], k
            done = page.evaluate(
                "[...document.querySelectorAll('.mg-graph .mg-done')]"
                ".map((e) => e.id.slice(3))"
            )
            assert set(done) == set(frame.highlight()["done"]), k
        assert page.evaluate("scrollY") == 0
        assert not blocked and not errors, (blocked, errors)
    finally:
        page.close()
        stepper.close()
