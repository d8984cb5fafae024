"""The HTML player: one self-contained page that steps a backward pass with no
kernel and no network (``stepper.save("steps.html")``).

It runs the widget's own screen (widgets/graph_view.js: viewport, follow, the
pass on the picture, the panel) against a small in-page model, with Play /
Pause at a chosen speed, PageDown / PageUp / Space / arrow keys (presentation
clickers send PageDown), node and tensor details on click, and the
backward / forward toggle.

Size grows linearly with the steps: a frame stores only what that step did
(running node, ready queue, flow, values sent, what it wrote or freed, waiting
nodes, its panel); the page folds them into "done so far", ".grad so far" and
"freed so far" (a frame's "done" lists what it adds where that is not its
running node: a module box is done only once every node inside it ran).
Node and tensor details are stored once. The data is JSON in a
``<script type="application/json">`` block with ``<``, ``>`` and ``&`` written as
``\\u003c`` etc., so no name (``</script>``, ``<!--<script>``) can end the block.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .dot import THEMES, Theme
from .widgets.roles import HERE as WIDGETS
from .widgets.roles import role_legend_html, view_esm

if TYPE_CHECKING:
    from .stepper import BackwardStepper

CSS_PATH = WIDGETS / "graph_view.css"
PLAYER_JS = WIDGETS / "player.js"  # the page's own code: its model and controls

_PAGE_CSS = """
body { margin: 12px 16px; }
.mg-controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center;
  margin-bottom: 6px; }
.mg-controls button, .mg-controls select { font-size: 14px; padding: 3px 10px; }
.mg-slider { width: 260px; max-width: 40vw; }
.mg-status { font-weight: bold; white-space: nowrap; }
"""

# No request may leave the page: a CSP makes that a browser guarantee.
_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; "
    "script-src 'unsafe-inline'; img-src data:"
)


def _inline_svg(svg: str) -> str:
    """The ``<svg>`` element alone: no XML prolog, DOCTYPE (a DTD URL) or comments
    before it."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


def script_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element whatever its strings hold."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def player_data(stepper: BackwardStepper) -> dict[str, Any]:
    """Everything the page needs, stored linearly: per frame what that step did,
    node and tensor details once."""
    graph = stepper.graph
    return {
        "prefix": stepper.drawing.options.id_prefix,
        "leaf_of": stepper.leaf_of,
        "frames": _frames(stepper),
        "boxes": {view: stepper.boxes(view) for view in VIEWS},
        "nodes": {fid: stepper.describe_node(fid, None, 0) for fid in graph.functions},
        "tensors": {
            tid: stepper.describe_tensor(tid, 0)
            for tid in [*graph.tensors, *graph.saved]
        },
        "tensor_of": {sid: slot.tensor for sid, slot in graph.saved.items()},
    }


VIEWS = ("backward", "forward")
# The page opens and closes boxes (depth=, folded blocks) with no kernel: the
# drawing of each set of opened boxes it can show is laid out when the page is
# saved. Those one click from the saved drawing come first, then two clicks
# (two boxes open at once, or one inside another), and so on, up to this many
# besides the saved one (every combination of up to four boxes), and while
# their drawings come to at most MAX_STATES_BYTES (an opened 30-step loop is
# ~0.5 MB a view). A click that leads to a set not held says so. Each held set
# costs about what the saved drawing costs (its two drawings and its frames'
# highlights): a two-module net's page is 0.09 MB with its saved drawing
# alone, 1.07 MB with 15 sets held.
MAX_BOX_STATES = 15
MAX_STATES_BYTES = 6_000_000


def state_key(opened: frozenset[str]) -> str:
    """The page's name for a set of opened boxes (one JSON list, sorted)."""
    return json.dumps(sorted(opened))


def box_states(
    stepper: BackwardStepper, svgs_now: Callable[[], dict[str, str]]
) -> dict[str, dict[str, Any]]:
    """The sets of opened boxes the page can show, breadth first from the
    drawing as saved (key ""), at most `MAX_BOX_STATES` besides it and
    `MAX_STATES_BYTES` of their drawings: per set
    (`state_key`) the page's drawings, boxes and frames, and ``moves``, the
    set each box's click leads to (boxes whose click leads to a set not held
    are not in it). The saved drawing's moves are under ""."""
    start = stepper.drawing.options.expand
    keys = {start: ""}
    queue = [start]
    states: dict[str, dict[str, Any]] = {}
    size = 0
    try:
        while queue:
            opened = queue.pop(0)
            stepper.show_expanded(opened)
            state: dict[str, Any] = {"moves": {}}
            if opened != start:
                state["svgs"] = svgs_now()
                size += sum(len(svg) for svg in state["svgs"].values())
                if size > MAX_STATES_BYTES:
                    break
                state["boxes"] = {view: stepper.boxes(view) for view in VIEWS}
                state["frames"] = _frames(stepper, panels=False)
            for box, about in stepper.boxes().items():
                (stepper.collapse if about["open"] else stepper.expand)(box)
                after = stepper.drawing.options.expand
                stepper.show_expanded(opened)
                if after not in keys and len(keys) <= MAX_BOX_STATES:
                    keys[after] = state_key(after)
                    queue.append(after)
                if after in keys:
                    state["moves"][box] = keys[after]
            states[keys[opened]] = state
    finally:
        stepper.show_expanded(start)
    for state in states.values():  # no click leads to a set not held
        state["moves"] = {b: k for b, k in state["moves"].items() if k in states}
    return states


def _frames(stepper: BackwardStepper, panels: bool = True) -> list[dict[str, Any]]:
    """What each step did, in the drawn ids of the stepper's drawing (the
    panels are the same in every drawing: only the first page stores them)."""
    frames: list[dict[str, Any]] = [{"panel": stepper.describe(None)} if panels else {}]
    stand = stepper.stand_ins
    to = stand.to if stand is not None else (lambda i: i)
    shows: dict[str, int] = {}
    done: set[str] = set()  # what the page has marked done so far
    for k, frame in enumerate(stepper.frames, start=1):
        highlight = frame.highlight()
        now_done = highlight.pop("done")  # the page folds it from the running nodes
        data: dict[str, Any] = {
            "highlight": highlight,
            "edges": {to(i): v for i, v in frame.edge_values.items()},
            "grads": {to(i): v for i, v in frame.leaf_grads.items()},
            "freed": [to(i) for i in frame.freed],
            "waiting": {
                to(n): f"{a} of {b} gradients arrived"
                for n, (a, b, _buf) in frame.waiting.items()
            },
            "queue": stepper.overlay(frame)["queue"],
        }
        if panels:
            panel = stepper.describe_node(frame.node_id, frame, position=k)
            if frame.error:
                panel = {**panel, "title": panel["title"] + " (raised an error)"}
            data["panel"] = panel
        if stand is not None:
            data["folds"] = frame.folds
            # a folded block moving on to its next repeat starts afresh: what
            # the page built up for the block (done, .grad, freed) is dropped
            moved = [f for f, r in frame.fold_repeat.items() if shows.get(f, 0) != r]
            shows = dict(frame.fold_repeat)
            if moved:
                data["drop"] = stand.block(moved)
                done -= set(data["drop"])
            # a module box (depth=) runs while any node inside runs, but is
            # done only once all of them ran: such a frame says what is newly
            # done (often nothing) instead of the page taking the running node
            added = [i for i in now_done if i not in done]
            if added != highlight["running"][:1]:
                data["done"] = added
            done.update(added)
        frames.append(data)
    return frames


def html_page(
    stepper: BackwardStepper,
    svgs: dict[str, str],
    theme: Theme = THEMES["light"],
    theme_name: str = "light",
    states: dict[str, dict[str, Any]] | None = None,
    title: str | None = None,
) -> str:
    """One self-contained page: each drawing once, the frames as JSON, the
    widget's screen code and ~150 lines of player code. ``svgs``: each view's
    drawing, and under "<view> wide" the same laid out left to right, which
    the screen shows instead where it fits better (as the widget does, with
    the same rules: graph_view.js, arrange). ``states``
    (`box_states`): the drawings clicks on boxes show; ``title``: the
    page's (browser tab) title, the drawings' own title."""
    states = states or {}
    data = {**player_data(stepper), "theme": theme_name}
    data["states"] = {
        key: {k: v for k, v in state.items() if k != "svgs"}
        for key, state in states.items()
    }
    css = CSS_PATH.read_text(encoding="utf-8")
    name = html.escape(stepper.frames[0].name if stepper.frames else "backward")
    page_title = html.escape(title) if title else f"backward() step by step: {name}"
    buttons = "".join(
        f'<button type="button" class="{cls}" title="{key}">{label}</button>'
        for cls, key, label in (
            ("mg-reset", "Home", "&laquo; Reset"),
            ("mg-prev", "Left arrow, PageUp", "&#x25C0; Prev"),
            ("mg-next", "Right arrow, PageDown", "Next &#x25B6;"),
            ("mg-end", "End", "End &raquo;"),
            ("mg-play", "Space", "&#x25B6; Play"),
        )
    )
    speeds = "".join(
        f'<option value="{ms}"{" selected" if ms == 800 else ""}>{label}</option>'
        for ms, label in (
            (1600, "slow"),
            (800, "normal"),
            (400, "fast"),
            (150, "faster"),
        )
    )
    views = "".join(
        f'<label><input type="radio" name="mg-view" value="{v}"'
        f"{' checked' if v == 'backward' else ''}> {v}</label> "
        for v in svgs
        if v in VIEWS  # ("backward wide": the same view laid out left to right)
    )
    by_state = {"": svgs, **{k: st["svgs"] for k, st in states.items() if k}}
    drawings = "".join(
        f'<template class="mg-drawing" data-view="{v}" data-state="{html.escape(k)}">'
        f"{_inline_svg(svg)}</template>\n"
        for k, by_view in by_state.items()
        for v, svg in by_view.items()
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<title>{page_title}</title>
<style>
{css}{_PAGE_CSS}body {{ background: {theme.background}; color: {theme.text}; }}
</style>
</head>
<body>
<div class="mg-player">
<div class="mg-controls">{buttons}
<select class="mg-speed" aria-label="speed">{speeds}</select>
<input type="range" class="mg-slider" min="0" max="0" value="0" aria-label="step">
<span class="mg-status"></span>
<span class="mg-viewtoggle">{views}</span>
</div>
{role_legend_html()}
</div>
{drawings}<script type="application/json" id="mg-data">{script_json(data)}</script>
<script type="module">{view_esm()}
{PLAYER_JS.read_text(encoding="utf-8")}</script>
</body>
</html>
"""
