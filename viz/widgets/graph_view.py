"""``GraphView``: an SVG sent once, restyled per step by toggling classes."""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

HERE = Path(__file__).parent


class GraphView(anywidget.AnyWidget):
    """Shows ``svg``; ``highlight`` maps roles (running, ready, done, flow,
    written, error) to drawing ids. Clicking a node sets ``selected``; arrow
    keys send ``{"command": "next" | "prev" | "reset" | "end" | "play"}``."""

    _esm = HERE / "graph_view.js"
    _css = HERE / "graph_view.css"
    svg = traitlets.Unicode("").tag(sync=True)
    prefix = traitlets.Unicode("").tag(sync=True)
    highlight = traitlets.Dict({}).tag(sync=True)
    selected = traitlets.Unicode("").tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)
