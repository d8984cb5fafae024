"""A folded loop stepped on a real screen (Debian's Chromium, 1366x768): the
HTML player of a 30-step recurrent loop drawn with its steps folded. At every
step the running node (the block's node standing for it) is in view and
legible, and the block's tag says which repeat runs, as the stepper's frame
does; "already run" in the block is the repeat on display only. (The first
25 steps, then the last.) A module box (depth=1) runs while any node inside
it runs and is done only once all of them ran, at every step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import headless
import pytest
import screens

import minigrad
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


@pytest.mark.browser
def test_a_module_box_is_done_only_when_all_of_it_ran(
    browser: Any, tmp_path: Path
) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "viz"))
    from test_viz_group import nested

    loss, net = nested(minigrad)
    stepper = BackwardStepper(loss, params=net, depth=1, id_prefix="mb-")
    path = stepper.save(tmp_path / "boxes.html")
    boxes = stepper.drawing._shown_graph(stepper.drawing.options).boxes
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    lit = """(role) => [...document.querySelectorAll('.mg-graph .mg-' + role)]
        .map((e) => e.id.slice(3))"""
    try:
        blocked = headless.offline(page)
        page.goto(path.as_uri())
        checked = 0
        for k, frame in enumerate(stepper.frames, start=1):
            page.click(".mg-next")
            assert page.get_attribute(".mg-graph", "data-step") == str(k)
            done, running = (set(page.evaluate(lit, r)) for r in ("done", "running"))
            assert done == set(frame.highlight()["done"]), k
            for box_id, box in boxes.items():
                inside = set(box.functions)
                assert (box_id in done) == inside.issubset(frame.done_ids), k
                assert (box_id in running) == (frame.node_id in inside), k
                checked += frame.node_id in inside
        assert checked > len(boxes)  # boxes ran over several steps each
        assert not blocked and not errors, (blocked, errors)
    finally:
        page.close()
        stepper.close()
