"""The stepper widget: stock ipywidgets controls around a `GraphView`.

Next / Prev / Reset / Run to end, Play with a speed slider, a step slider, a
backward/forward view toggle, keyboard shortcuts (arrows, Home, End, space) and
a detail panel. Every control calls the `BackwardStepper`; the stepper calls
`refresh()` after it moves. Errors raised by a callback are shown in the widget.
"""

from __future__ import annotations

import html
import traceback
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from .graph_view import GraphView
from .roles import role_legend_html


class StepperWidget(w.VBox):
    def __init__(self, stepper: Any) -> None:
        self.stepper = stepper
        self.view_name = "backward"
        self.graph = GraphView(
            svg=stepper.drawing.svg(), prefix=stepper.drawing.options.id_prefix
        )
        self.graph.layout = w.Layout(width="100%")

        def button(label: str, tip: str, cls: str, action: Callable) -> w.Button:
            b = w.Button(description=label, tooltip=tip, _dom_classes=[cls])
            b.layout = w.Layout(width="auto")
            b.on_click(lambda _b: self._safely(action))
            return b

        self.reset_button = button("« Reset", "Home", "mg-reset", stepper.reset)
        self.prev_button = button("◀ Prev", "Left arrow", "mg-prev", stepper.prev)
        self.next_button = button("Next ▶", "Right arrow", "mg-next", stepper.next)
        self.end_button = button("Run to end »", "End", "mg-end", stepper.run_all)
        self.play = w.Play(value=0, min=0, max=stepper.total, interval=800)
        self.play._dom_classes = ["mg-play"]
        self.speed = w.IntSlider(
            value=800, min=100, max=3000, step=100, description="ms/step"
        )
        w.jslink((self.speed, "value"), (self.play, "interval"))
        self.slider = w.IntSlider(
            value=0, min=0, max=stepper.total, description="step",
            continuous_update=False,
        )  # fmt: skip
        self.slider._dom_classes = ["mg-slider"]
        self.view_toggle = w.ToggleButtons(
            options=["backward", "forward"], value="backward"
        )
        self.status = w.HTML(_dom_classes=["mg-status"])
        self.panel = w.HTML(_dom_classes=["mg-panel"])
        self.errors = w.HTML(_dom_classes=["mg-error-box"])

        self.play.observe(self._on_play, "value")
        self.slider.observe(self._on_slider, "value")
        self.view_toggle.observe(self._on_view, "value")
        self.graph.observe(self._on_select, "selected")
        self.graph.on_msg(self._on_key)

        controls = w.HBox(
            [self.reset_button, self.prev_button, self.next_button, self.end_button]
        )
        timing = w.HBox([self.play, self.speed, self.slider])
        super().__init__(
            [
                w.HBox([controls, self.view_toggle]),
                timing,
                w.HTML(role_legend_html()),
                self.status,
                self.graph,
                self.panel,
                self.errors,
            ]
        )
        self._updating = False
        self.refresh()

    # ------------------------------------------------------------ callbacks
    def _safely(self, action: Callable, *args: Any) -> None:
        """Run a callback; show its error instead of losing it in the log."""
        try:
            action(*args)
            self.errors.value = ""
        except Exception:
            self.errors.value = f"<pre>{html.escape(traceback.format_exc())}</pre>"

    def _on_play(self, change: dict) -> None:
        if not self._updating:
            self._safely(self.stepper.goto, change["new"])

    def _on_slider(self, change: dict) -> None:
        if not self._updating:
            self._safely(self.stepper.goto, change["new"])

    def _on_view(self, change: dict) -> None:
        def switch() -> None:
            self.view_name = change["new"]
            drawing = self.stepper.drawing
            if self.view_name == "forward":
                drawing = self.stepper.forward_drawing
            self.graph.svg = drawing.svg()
            self.refresh()

        self._safely(switch)

    def _on_select(self, change: dict) -> None:
        self._safely(self._show_node, change["new"])

    def _on_key(self, _widget: Any, content: dict, _buffers: Any) -> None:
        commands = {
            "next": self.stepper.next,
            "prev": self.stepper.prev,
            "reset": self.stepper.reset,
            "end": self.stepper.run_all,
            "play": self._toggle_play,
        }
        action = commands.get(content.get("command"))
        if action is not None:
            self._safely(action)

    def _toggle_play(self) -> None:
        self.play.playing = not self.play.playing

    # -------------------------------------------------------------- display
    def refresh(self) -> None:
        """Show the stepper's current frame (called after every move)."""
        s = self.stepper
        frame = s.current
        self._updating = True
        try:
            with self.graph.hold_sync():
                self.graph.highlight = (
                    frame.highlight(self.view_name) if frame is not None else {}
                )
                self.graph.step = s.position
            self.slider.max = self.play.max = max(s.total, s.step)
            self.slider.value = s.position
            self.play.value = s.position
        finally:
            self._updating = False
        state = "done" if s.done else "running"
        if s.error:
            state = "stopped by an error"
        self.status.value = f"<b>frame {s.position}</b> of {s.step} executed ({state})"
        self.panel.value = _panel_html(s.describe(frame))

    def _show_node(self, node_id: str) -> None:
        fid = node_id
        if self.view_name == "forward":  # a leaf stands for its AccumulateGrad
            for f, leaf in self.stepper._leaf_of.items():
                if leaf == node_id:
                    fid = f
        frame = self.stepper.current
        self.panel.value = _panel_html(self.stepper.describe_node(fid, frame))


def _panel_html(info: dict) -> str:
    rows = "".join(
        f"<tr><td>{html.escape(k)}</td><td><pre>{html.escape(v)}</pre></td></tr>"
        for k, v in info["rows"]
    )
    return f"<b>{html.escape(info['title'])}</b><table>{rows}</table>"
