"""The highlight roles of a stepping frame, explained for students."""

from __future__ import annotations

# What each highlight means, drawn with the same colours and line styles as
# graph_view.css; shown under the controls of the widget and the HTML export.
ROLES = (
    ("running", "border: 4px solid #d55e00", "the node running now"),
    ("ready", "border: 3px dashed #0072b2", "waiting in the ready queue"),
    ("done", "border: 1px solid #999; opacity: 0.55", "already run"),
    ("flow", "border-bottom: 3px solid #d55e00", "gradient just sent"),
    ("written", "border: 4px solid #009e73", ".grad just written"),
    ("error", "border: 4px dotted #cc0000", "raised an error"),
)


def role_legend_html() -> str:
    items = "".join(
        f'<span style="margin-right:12px;white-space:nowrap">'
        f'<span style="display:inline-block;width:18px;height:10px;'
        f'vertical-align:middle;margin-right:4px;{style}"></span>{text}</span>'
        for _role, style, text in ROLES
    )
    return f'<div class="mg-roles" style="font-size:12px;margin:4px 0">{items}</div>'
