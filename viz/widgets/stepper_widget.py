"""The stepper widget: stock ipywidgets controls around a `GraphView`.

Next / Prev / Reset / Run to end, Play with a speed menu, a step slider, a
backward/forward view toggle and a status line; the `GraphView` below holds the
viewport, the pass drawn on the picture, the ready queue and the detail panel.
Every control calls the `BackwardStepper`; the stepper calls `refresh()` after
it moves. Errors raised by a callback are shown in the widget.

The widget is a view of the stepper, not its owner: when its last view in the
browser goes away (the cell re-run or cleared) or `close()` is called, it closes
itself and its controls, so nothing keeps the graph alive but the stepper; a
later display of the stepper makes a new widget.
"""

from __future__ import annotations

import asyncio
import html
import traceback
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from ..drawing import fit_html
from .graph_view import GraphView
from .roles import role_legend_html

# The picture output (see `StepperWidget._ipython_display_`) hides itself when
# the widget output after it holds a live stepper, and hides that output when
# the widget renderer gave up: "Error displaying widget: model not found" is
# the text of its panel, which then (and only then) has the class
# jupyter-widgets itself. (`:has` cannot nest, hence no test for "text only".)
PICTURE_DELAY_S = 0.4  # after the last move, the saved picture catches up

PICTURE_CSS = (
    ".jp-OutputArea-child:has(.mg-picture):has(+ .jp-OutputArea-child .mg-stepper)"
    "{display:none}"
    ".jp-OutputArea-child:has(.mg-picture) + .jp-OutputArea-child:has(> "
    ".jp-OutputArea-output.jupyter-widgets){display:none}"
)


class StepperWidget(w.VBox):
    def __init__(self, stepper: Any) -> None:
        self.stepper = stepper
        self.view_name = "backward"
        self._views = 0  # views open in the browser
        self.graph = GraphView(
            svg=stepper.svg(),
            wide_svg=self._wide_svg(None),
            other_svg=stepper.other_svg(),
            note=stepper.screen_note,
            prefix=stepper.drawing.options.id_prefix,
            theme=stepper.theme or "auto",
            leaf_of=stepper.leaf_of,
            boxes=stepper.boxes(),
            layout=w.Layout(width="100%"),  # (a replaced layout would stay open)
        )

        def button(label: str, tip: str, cls: str, action: Callable) -> w.Button:
            b = w.Button(
                description=label, tooltip=tip, _dom_classes=[cls],
                layout=w.Layout(width="auto", min_width="fit-content"),
            )  # fmt: skip
            b.on_click(lambda _b: self._safely(action))
            return b

        self.reset_button = button("« Reset", "Home", "mg-reset", stepper.reset)
        self.prev_button = button(
            "◀ Prev", "Left arrow, PageUp", "mg-prev", stepper.prev
        )
        self.next_button = button(
            "Next ▶", "Right arrow, PageDown", "mg-next", stepper.next
        )
        self.end_button = button("Run to end »", "End", "mg-end", stepper.run_all)
        self.play = w.Play(
            value=0, min=0, max=stepper.total, interval=800, show_repeat=False,
            layout=w.Layout(width="auto"),
        )  # fmt: skip
        self.play._dom_classes = ["mg-play"]
        # Play's pace in ms per step, named as the HTML player names it (a
        # slider with its label and number took a third of the row)
        self.speed = w.Dropdown(
            options=[("slow", 1600), ("normal", 800), ("fast", 400), ("faster", 150)],
            value=800, tooltip="Play's speed", layout=w.Layout(width="90px"),
        )  # fmt: skip
        # (a Dropdown's value is not synced in the browser: no jslink)
        self.speed.observe(lambda c: setattr(self.play, "interval", c["new"]), "value")
        self.slider = w.IntSlider(
            value=0, min=0, max=stepper.total, tooltip="go to step",
            continuous_update=False, layout=w.Layout(width="130px"),
            readout=False,  # (the status just before it says which step)
        )  # fmt: skip
        self.slider._dom_classes = ["mg-slider"]
        self.view_toggle = w.ToggleButtons(
            options=["backward", "forward"], value="backward"
        )
        self.view_toggle.style.button_width = "auto"
        self.status = w.HTML(_dom_classes=["mg-status"])
        self.errors = w.HTML(_dom_classes=["mg-error-box"])

        self.play.observe(self._on_play, "value")
        self.slider.observe(self._on_slider, "value")
        self.view_toggle.observe(self._on_view, "value")
        self.graph.observe(self._on_select, "selected")
        self.graph.observe(self._on_theme, "page_theme")
        self.graph.on_msg(self._on_key)
        self.play.observe(self._on_playing, "playing")

        # one row where the width allows (1366 px screens do): each row of
        # controls is a row less for the graph on a laptop's height
        wrap = w.Layout(flex_flow="row wrap", align_items="center", width="100%")
        super().__init__(
            [
                w.HBox(
                    [
                        self.reset_button, self.prev_button, self.next_button,
                        self.end_button, self.view_toggle, self.status,
                        self.play, self.speed, self.slider,
                    ],
                    layout=wrap,
                ),
                self.errors,
                self.graph,
                # below the graph: above it, it would push the graph off a laptop
                w.HTML(role_legend_html()),
            ]
        )  # fmt: skip
        self._updating = False
        self._picture: Any = None  # display handle of the picture output
        self._picture_timer: asyncio.TimerHandle | None = None
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
            with self.graph.hold_sync():
                self._show_svg()
                self.graph.boxes = self.stepper.boxes(self.view_name)
                self.graph.view = self.view_name
            self._update_picture()

        self._safely(switch)

    def _on_theme(self, _change: dict) -> None:
        self._safely(self._show_svg)

    def _show_svg(self) -> None:
        theme = self.graph.page_theme or None
        with self.graph.hold_sync():  # every layout in one message
            self.graph.svg = self.stepper.svg(self.view_name, theme=theme)
            self.graph.wide_svg = self._wide_svg(theme)
            self.graph.other_svg = self.stepper.other_svg(self.view_name, theme=theme)

    def _wide_svg(self, theme: str | None) -> str:
        """The drawing laid out left to right, for a view whose room is wider
        than the top-to-bottom drawing fits (lesson 04's stepper at 1366x768);
        "" when none is offered (`viz.stepper.screen_layouts`)."""
        return self.stepper.wide_svg(self.view_name, theme=theme)

    def _on_select(self, change: dict) -> None:
        self._safely(self._show_selection)

    def _on_key(self, _widget: Any, content: dict, _buffers: Any) -> None:
        command = content.get("command")
        if command == "view-opened":
            self._views += 1
            self.graph.resend()  # what it missed before it could hear
            return
        if command == "view-closed":
            self._views -= 1
            if self._views <= 0:
                self.close()
            return
        if command in ("expand", "collapse"):  # a click on a box or its frame
            box = str(content.get("id", ""))
            opens = command == "expand"
            self._safely(self.stepper.expand if opens else self.stepper.collapse, box)
            return
        commands = {
            "next": self.stepper.next,
            "prev": self.stepper.prev,
            "reset": self.stepper.reset,
            "end": self.stepper.run_all,
            "play": self._toggle_play,
        }
        action = commands.get(command)
        if action is not None:
            self._safely(action)

    def _toggle_play(self) -> None:
        self.play.playing = not self.play.playing

    # -------------------------------------------------------------- display
    def refresh(self) -> None:
        """Show the stepper's current frame (called after every move)."""
        if self.comm is None:  # closed
            return
        s = self.stepper
        frame = s.current
        self._updating = True
        try:
            with self.graph.hold_sync():
                self.graph.highlight = frame.highlight() if frame else {}
                self.graph.overlay = s.overlay()
                self.graph.panel = self._panel()
                self.graph.step = s.position
            self.slider.max = self.play.max = s.total
            self.slider.value = s.position
            self.play.value = s.position
        finally:
            self._updating = False
        # (only the end says a word: the controls' row has no room to spare)
        state = " (done)" if s.done and s.position == s.step else ""
        if s.error and s.position == s.step:
            state = " (error)"  # (the panel says which and why)
        self.status.value = f"<b>step {s.position} of {s.total}</b>{state}"
        self._update_picture()

    def redraw(self) -> None:
        """Show the stepper's drawing anew (a box opened or closed), at the
        frame on display."""
        if self.comm is None:
            return
        with self.graph.hold_sync():  # one message: the picture and its roles
            self._show_svg()
            self.graph.boxes = self.stepper.boxes(self.view_name)
            self.graph.selected = ""  # its node may be drawn no more
            self.refresh()

    def _update_picture(self) -> None:
        """Keep the picture output at the frame on display, so a notebook saved
        mid-pass shows that step. The picture of a large graph is ~1 MB and
        takes ~10 ms to make, for an output the live widget hides: so it is
        sent once the student pauses (`PICTURE_DELAY_S` after the last move,
        in the kernel's event loop), not on every step or while playing."""
        if self._picture is None or self.play.playing:
            return
        if self._picture_timer is not None:
            self._picture_timer.cancel()
            self._picture_timer = None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (not in a kernel): at once
            self._send_picture()
            return
        self._picture_timer = loop.call_later(PICTURE_DELAY_S, self._send_picture)

    def _send_picture(self) -> None:
        self._picture_timer = None
        handle = self._picture
        if handle is not None and self.comm is not None:
            self._safely(lambda: handle.update(self.picture_bundle(), raw=True))

    def _on_playing(self, change: dict) -> None:
        if not change["new"]:
            self._safely(self._update_picture)

    def _panel(self) -> dict:
        selected = self.graph.selected  # a node or tensor id, in either view
        if not selected:
            return self.stepper.describe()
        return self.stepper.describe_node(selected, self.stepper.current)

    def _show_selection(self) -> None:
        self.graph.panel = self._panel()

    # ---------------------------------------------------------------- life
    def close(self) -> None:
        """Close the widget and every control in it (the stepper then makes a
        new widget when it is displayed again)."""
        self._picture = None
        if self._picture_timer is not None:
            self._picture_timer.cancel()
        for child in _tree(self):
            if child is not self:
                child.close()
        super().close()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)
        if isinstance(bundle, dict):  # a picture for viewers with no kernel
            bundle["image/svg+xml"] = self.stepper.picture(self.view_name)
        return bundle

    def _ipython_display_(self) -> None:
        """Two outputs: the frame as a picture, then the live widget.

        JupyterLab and Notebook 7 render a widget output with the widget
        manager whatever else the output holds, so a notebook reopened without
        the kernel that made the widget shows "Error displaying widget: model
        not found" and not its picture. The picture is therefore an output of
        its own, and its CSS shows exactly one of the two: the picture while
        the widget is missing or loading, the widget once it rendered.
        nbconvert, nbviewer and GitHub show the picture.
        """
        from IPython.display import display

        self._picture = display(self.picture_bundle(), raw=True, display_id=True)
        display(self._repr_mimebundle_(), raw=True)

    def picture_bundle(self) -> dict[str, str]:
        """The output shown in place of the widget when it cannot render."""
        s = self.stepper
        svg = s.picture(self.view_name)
        note = (
            f"step {s.position} of {s.total}: a picture of the stepper "
            "(run the cell for the live one)"
        )
        body = (
            f'<div class="mg-picture"><style>{PICTURE_CSS}</style>'
            f'<div style="font-size:12px;color:#777">{html.escape(note)}</div>'
            f"{fit_html(svg)}</div>"
        )
        return {"text/html": body, "image/svg+xml": svg, "text/plain": note}


def _tree(widget: Any) -> list[Any]:
    """A widget, its children and their layouts / styles, depth first."""
    out = [widget]
    for name in ("layout", "style"):
        part = getattr(widget, name, None)
        if isinstance(part, w.Widget):
            out.append(part)
    for child in getattr(widget, "children", ()):
        out.extend(_tree(child))
    return out
