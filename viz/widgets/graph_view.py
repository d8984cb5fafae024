"""``GraphView``: the stepper's screen (graph_view.js), an SVG sent once and
restyled / overlaid per step."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from .roles import view_esm

HERE = Path(__file__).parent


class GraphView(anywidget.AnyWidget):
    """Shows ``svg`` in a viewport that fits and follows the running node.

    ``wide_svg``, when given, is the same drawing laid out left to right, and
    ``other_svg`` the drawing with its leaves placed the other way; the view
    shows whichever of the three fits its room best. ``note`` is a line shown
    above the graph (modules drawn as boxes to fit the screen). ``highlight`` maps
    roles (running, ready, done, flow, written, error) to ids of the backward
    drawing (mapped by the view when ``view`` is
    "forward", using ``leaf_of``); ``overlay`` holds what is drawn over the
    picture (edge values, leaf grads, freed slots, waiting badges, the ready
    queue); ``panel`` the
    detail panel (title, step, formula, chain, rows). Clicking a node sets
    ``selected`` (a background click or Esc clears it); keys send
    ``{"command": "next" | "prev" | "reset" | "end" | "play"}``. ``theme`` is
    "auto" (follow the notebook) or "light"/"dark"; the view reports the theme
    it shows in ``page_theme``. ``boxes`` (`BackwardStepper.boxes`) are the
    module boxes and folded blocks a click opens, and the opened ones whose
    frame a click closes: the view sends ``{"command": "expand" | "collapse",
    "id": ...}``.
    """

    # Text, not paths: anywidget connects every instance to a file given as a
    # path (for hot reload) and so would keep each widget alive for ever.
    _esm = view_esm()
    _css = (HERE / "graph_view.css").read_text(encoding="utf-8")
    svg = traitlets.Unicode("").tag(sync=True)
    # the same drawing laid out left to right ("" if not offered): the view
    # shows whichever of the two fits its room better (graph_view.js, arrange)
    wide_svg = traitlets.Unicode("").tag(sync=True)
    # the drawing with its leaves placed the other way ("" if not offered:
    # `BackwardStepper.other_svg`), a third layout to choose from
    other_svg = traitlets.Unicode("").tag(sync=True)
    # a line above the graph saying how it was drawn to fit (`fit_screen`)
    note = traitlets.Unicode("").tag(sync=True)
    prefix = traitlets.Unicode("").tag(sync=True)
    highlight = traitlets.Dict({}).tag(sync=True)
    overlay = traitlets.Dict({}).tag(sync=True)
    panel = traitlets.Dict({}).tag(sync=True)
    selected = traitlets.Unicode("").tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)
    view = traitlets.Unicode("backward").tag(sync=True)  # which drawing svg is
    leaf_of = traitlets.Dict({}).tag(sync=True)  # AccumulateGrad -> its leaf
    boxes = traitlets.Dict({}).tag(sync=True)  # drawn id -> kind, title, open
    theme = traitlets.Unicode("auto").tag(sync=True)
    page_theme = traitlets.Unicode("").tag(sync=True)
    # The model's own id, in the state its view is created with: anywidget 0.11
    # drops every message to a model whose code took over 2 s to load (a busy
    # browser: Run All on a loaded machine), so the view hands the model's
    # messages to ipywidgets itself (graph_view.js, `hear`).
    model_ref = traitlets.Unicode("").tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        ref = kwargs.setdefault("model_ref", uuid.uuid4().hex)
        super().__init__(model_id=ref, **kwargs)  # the comm's id

    def resend(self) -> None:
        """Send the whole state again (to a view that may have missed some)."""
        self.send_state([k for k in self.keys if not k.startswith("_")])
