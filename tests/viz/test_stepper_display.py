"""What a stepper puts in a notebook: its picture as an output of its own, then
the widget (so a notebook saved with outputs shows the graph when the widget
cannot render; the browser side is tests/browser/test_jupyterlab_notebooks.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

import minigrad
from viz.stepper import BackwardStepper


def seed() -> BackwardStepper:
    w1 = minigrad.tensor(2.0, requires_grad=True)
    w2 = minigrad.tensor(3.0, requires_grad=True)
    loss = ((minigrad.ones(2, 2) * w1 + w2) * w1).mean()
    return BackwardStepper(loss, params={"w1": w1, "w2": w2}, id_prefix="d-")


def test_display_puts_the_picture_before_the_widget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("anywidget")
    import IPython.display

    from viz.widgets.stepper_widget import PICTURE_CSS

    shown: list[Any] = []
    monkeypatch.setattr(
        IPython.display, "display", lambda b, raw, **kw: shown.append(b)
    )
    stepper = seed()
    stepper.next()
    stepper._ipython_display_()
    picture, widget = shown
    assert "application/vnd.jupyter.widget-view+json" in widget
    assert "application/vnd.jupyter.widget-view+json" not in picture
    html = picture["text/html"]
    assert html.startswith('<div class="mg-picture">') and PICTURE_CSS in html
    assert "MeanBackward0" in html and "<svg" in html and "<?xml" not in html
    assert picture["image/svg+xml"] == stepper.picture()  # this frame: step 1
    assert re.search(r'class="[^"]*\bmg-running\b', picture["image/svg+xml"])
    assert picture["text/plain"].startswith("step 1 of ")
    stepper.widget().close()


class _Handle:
    """Stands in for IPython's DisplayHandle: records what it was updated to."""

    def __init__(self) -> None:
        self.updates: list[dict] = []

    def update(self, bundle: dict, raw: bool) -> None:
        self.updates.append(bundle)


def test_the_picture_follows_the_frame_on_display(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("anywidget")
    import IPython.display

    handle = _Handle()

    def display(bundle: dict, raw: bool, display_id: bool = False) -> Any:
        return handle if display_id else None

    monkeypatch.setattr(IPython.display, "display", display)
    stepper = seed()
    widget = stepper.widget()
    stepper._ipython_display_()
    widget.next_button.click()
    assert handle.updates[-1]["text/plain"].startswith("step 1 of ")
    assert handle.updates[-1]["image/svg+xml"] == stepper.picture()
    widget.play.playing = True  # while playing: no picture a step
    seen = len(handle.updates)
    widget.next_button.click()
    assert len(handle.updates) == seen
    widget.play.playing = False  # stopped: the picture catches up
    assert handle.updates[-1]["text/plain"].startswith("step 2 of ")
    widget.close()
    widget.refresh()  # closed: nothing more is sent
    assert handle.updates[-1]["text/plain"].startswith("step 2 of ")


def test_a_view_that_opens_gets_the_whole_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The view learns its model's id from the first state (the comm's id) and,
    once it hears its model's messages itself, says "view-opened": the kernel
    answers with the whole state, so a view whose model missed messages (see
    `hear` in graph_view.js) catches up. The browser side is
    tests/browser/test_jupyterlab.py."""
    pytest.importorskip("anywidget")
    stepper = seed()
    widget = stepper.widget()
    graph = widget.graph
    assert graph.model_ref == graph.model_id == graph.comm.comm_id
    assert graph.get_state()["model_ref"] == graph.model_id
    stepper.next()
    sent: list[dict] = []
    monkeypatch.setattr(graph, "_send", lambda msg, buffers=None: sent.append(msg))
    graph._handle_custom_msg({"command": "view-opened"}, [])
    (update,) = sent
    assert update["method"] == "update"
    state = update["state"]
    assert state["step"] == 1 and state["highlight"] == graph.highlight
    assert state["svg"] == graph.svg and state["panel"] == graph.panel
    assert not [k for k in state if k.startswith("_")]  # not anywidget's code
    assert widget._views == 1
    widget.close()
