"""The highlights of a stepping frame, in one list: the CSS classes the view
toggles, the order the static exports paint them in, and the legend text.

`view_esm()` is the graph view's JavaScript with this list written into it, so
the widget, the HTML player and the exports never spell the roles themselves.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

HERE = Path(__file__).parent

# (role, legend swatch style, what it means). Each role is a CSS class
# ``mg-<role>`` on a node or edge; graph_view.css draws it with the same
# colour and line style as the swatch. Listed in paint order: later wins.
ROLES = (
    ("done", "border: 1px solid #999; opacity: 0.55", "already run"),
    ("ready", "border: 3px dashed #0072b2", "waiting in the ready queue"),
    ("running", "border: 4px solid #d55e00", "the node running now"),
    ("flow", "border-bottom: 3px solid #d55e00", "gradient just sent"),
    ("written", "border: 4px solid #009e73", ".grad just written"),
    ("error", "border: 4px dotted #cc0000", "raised an error"),
    ("selected", "border: 3px solid #cc79a7", "selected (Esc clears)"),
    ("freed", "border: 2px dashed #999; background: #eee", "saved tensor freed"),
)
# Drawn over the picture (graph_view.js), explained in the same legend.
MARKS = (
    ("mg-edge-value", "background: #fff3e0; border: 1px solid #d55e00",
     "value of the gradient on that edge"),
    ("mg-grad-tag", "background: #e6f5ef; border: 1px solid #009e73",
     "a leaf's .grad so far"),
    ("mg-badge", "background: #e8f1fa; border: 1px solid #0072b2",
     "gradients arrived of those expected"),
    ("mg-fold-tag", "background: #f6eaf2; border: 1px solid #cc79a7",
     "which repeat a folded block (× N) shows"),
)  # fmt: skip

# Roles a frame's `highlight()` returns, painted by the static exports.
PAINT_ORDER = tuple(r for r, _s, _t in ROLES if r not in ("selected", "freed"))


def role_names() -> list[str]:
    return [role for role, _style, _text in ROLES]


def role_legend_html() -> str:
    items = "".join(
        f'<span style="margin-right:12px;white-space:nowrap">'
        f'<span style="display:inline-block;width:18px;height:10px;'
        f'vertical-align:middle;margin-right:4px;{style}"></span>{text}</span>'
        for _role, style, text in (*ROLES, *MARKS)
    )
    return f'<div class="mg-roles" style="font-size:12px;margin:4px 0">{items}</div>'


def view_esm() -> str:
    """graph_view.js with the role list filled in."""
    js = (HERE / "graph_view.js").read_text(encoding="utf-8")
    return js.replace("/*ROLES*/[]", json.dumps(role_names()), 1)


def static_svg(svg: str, prefix: str, highlight: dict[str, list[str]]) -> str:
    """``svg`` with a frame's roles baked in: each highlighted element gets its
    ``mg-<role>`` class and the SVG carries the CSS rules that draw them."""
    for role, ids in highlight.items():
        for did in ids:
            gid = html.escape(prefix + did).replace("-", "&#45;")
            svg = re.sub(
                rf'(<g id="{re.escape(gid)}" class=")', rf"\1mg-{role} ", svg, count=1
            )
    css = (HERE / "graph_view.css").read_text(encoding="utf-8")
    rules = re.findall(r"\.mg-graph (\.mg-[^{]*\{[^}]*\})", css)
    style = "<style>" + "".join(rules).replace(", .mg-graph ", ", ") + "</style>"
    start = svg.find(">", svg.find("<svg")) + 1
    return svg[:start] + style + svg[start:]
