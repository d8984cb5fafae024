"""Turn the graph model into DOT (a `graphviz.Digraph`).

One function per view: `backward_dot` and `forward_dot`. Looks live in `THEMES`;
every node kind differs by shape or border as well as colour, so the drawing
still reads in greyscale and for colour-blind readers (fills are tints of the
Okabe-Ito palette). Labels are Graphviz HTML-like labels; every piece of text
goes through `esc()`.

Each node and edge gets a stable ``id=`` (the model's id) and a ``class=``
(its kind), which end up in the SVG for later restyling.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import math
import re
from collections.abc import Collection
from dataclasses import dataclass

import graphviz
from graphviz.quoting import quote

from .graph import (
    MORE_ID,
    Fold,
    ForwardView,
    FunctionInfo,
    Graph,
    ModuleBox,
    SavedSlot,
    TensorInfo,
    cluster_of,
    folded,
    forward_view,
    module_path,
    shape_label,
    truncated,
    use_id,
)

# ------------------------------------------------------------------- themes


# How each kind of node is drawn: (shape, style, border width). Kinds differ by
# shape or border, not only by colour.
SHAPES: dict[str, tuple[str, str, str]] = {
    "fn": ("box", "rounded,filled", "1.2"),
    "accumulate": ("box", "rounded,filled", "2.2"),
    "op": ("ellipse", "filled", "1.2"),
    "leaf": ("box", "filled", "2.2"),
    "nonleaf": ("box", "filled", "1.2"),
    "constant": ("box", "dashed,filled", "1.2"),
    "saved": ("note", "filled", "1.2"),
    "saved-freed": ("note", "dashed,filled", "1.2"),
    "saved-stale": ("note", "filled", "2.2"),
    "module": ("box3d", "filled", "1.2"),
}


@dataclass(frozen=True)
class Theme:
    background: str
    text: str
    muted: str  # secondary label text
    edge: str
    colors: dict[str, tuple[str, str]]  # kind -> (fill, border)
    node_pt: str = "12"  # node names
    small_pt: str = "10"  # detail lines, numbers, edge labels
    # a tensor's numbers (values, .grad) as one line of at most this many
    # characters, "…" where cut (`shown_values`); None: the whole preview
    value_chars: int | None = None


# On a slide a matrix's preview (four lines of numbers, too small to read
# from afar) made its box wider and taller than its name needs, and the
# graph smaller on the page; its shape and dtype are on the line above.
SLIDE_VALUE_CHARS = 24


def lecture(theme: Theme) -> Theme:
    """The same colours with lecture-sized text (slides are read from afar)
    and a tensor's numbers on one short line (`SLIDE_VALUE_CHARS`)."""
    return dataclasses.replace(
        theme, node_pt="34", small_pt="15", value_chars=SLIDE_VALUE_CHARS
    )


THEMES: dict[str, Theme] = {
    "light": Theme(
        background="white",
        text="#1a1a1a",
        muted="#555555",
        edge="#444444",
        colors={
            "fn": ("#ececec", "#555555"),
            "accumulate": ("#ececec", "#007a5a"),
            "op": ("#ececec", "#555555"),
            "leaf": ("#bfe8d7", "#007a5a"),
            "nonleaf": ("#cde6f7", "#0072b2"),
            "constant": ("#f5f5f5", "#888888"),
            "saved": ("#fbe3b3", "#a86f00"),
            "saved-freed": ("#f5f5f5", "#888888"),
            "saved-stale": ("#f7c6b3", "#c23b00"),
            "module": ("#ececec", "#555555"),
        },
    ),
    "dark": Theme(
        background="#1e1e1e",
        text="#f0f0f0",
        muted="#c0c0c0",
        edge="#b8b8b8",
        colors={
            "fn": ("#3a3a3a", "#c8c8c8"),
            "accumulate": ("#3a3a3a", "#3fd1a4"),
            "op": ("#3a3a3a", "#c8c8c8"),
            "leaf": ("#0d5c46", "#3fd1a4"),
            "nonleaf": ("#17476b", "#56b4e9"),
            "constant": ("#2a2a2a", "#8a8a8a"),
            "saved": ("#5c4510", "#e69f00"),
            "saved-freed": ("#2a2a2a", "#8a8a8a"),
            "saved-stale": ("#6b2a10", "#ff7a3d"),
            "module": ("#3a3a3a", "#c8c8c8"),
        },
    ),
}

LEGEND_TEXT = {
    "leaf": "leaf tensor (requires_grad)",
    "nonleaf": "non-leaf tensor",
    "constant": "tensor without grad",
    "output": "output (double border)",
    "fn": "grad_fn node",
    "accumulate": "AccumulateGrad (writes leaf.grad)",
    "op": "operation",
    "saved": "saved tensor (_saved_*)",
    "saved-freed": "saved tensor, freed by backward()",
    "saved-stale": "saved tensor, changed in place",
    "module": "module drawn as one box (depth=)",
}

# Above this many nodes a drawing goes compact: no "grad_fn"/"variable" edge
# labels, no dotted saved->tensor links, bounded layout effort. Those are what
# make Graphviz slow on big graphs (about 10x at 1,000 nodes). Labels without
# numbers are lines of text; the forward view also draws the tensors nothing
# is known of as a line of their op or an arrow (`blank_inputs`,
# `unkept_tensors`). The network-simplex limits (`FAST_LAYOUT`) were measured
# on 1,000-4,000 node graphs.
COMPACT_ABOVE = 200
# Above this many nodes a leaf used by several nodes is drawn once per use
# (long edges into one shared node made a 100-step loop take minutes). Small
# lesson graphs keep one node with several arrows: that is the lesson.
SPLIT_SHARED_ABOVE = 60
# Above this many nodes only the AccumulateGrad of a shared leaf is drawn once
# per use, naming its leaf; the leaf (values, grad) is drawn once, under the
# first copy. The leaf copies were a third of the layout time of the 1,510-node
# loop (`bench_viz.py --profile`) and repeated the same values 60 times.
# The forward view, which has no AccumulateGrad, draws a shared leaf in full
# at its first use and each other copy as its name and uses (`_copy_label`).
LIGHT_COPIES_ABOVE = 400
# Above this many drawn nodes (shared-leaf copies included) a layout takes
# tens of seconds (5,000: ~50 s); `collapse_to_fit` keeps about COLLAPSE_TO
# nodes nearest the outputs (a few seconds) and says how many it left out.
COLLAPSE_ABOVE = 3000
COLLAPSE_TO = 2000
# Above this many nodes (a 30-step loop is ~300) the steps of a loop are too
# many to follow: `fold_to_fit` draws a block repeated several times once.
FOLD_ABOVE = 400
# Both views: the forward view had 0.2 while it drew a box for every tensor;
# drawing unknown tensors as arrows (`unkept_tensors`) left too few nodes for
# 0.2 x nodes iterations, and the 100-step loop drifted sideways (3,893 pt
# wide; 1,009 pt with 1, in the same time).
FAST_LAYOUT = {"nslimit": "1", "nslimit1": "1"}

# The only two faces, named in every graph, node, edge and cluster default, and
# the margins (pad, margin, node margin, separations) spelled out too: Graphviz
# and graphviz-pure then lay out from the same attributes, not their defaults.
# Arial and Courier New, not Helvetica and Courier: a system Graphviz maps the
# PostScript names to the generic "sans" and "monospace" (DejaVu on Linux, 15%
# wider than Helvetica), but finds Arial and Courier New, or their metric twins
# Liberation Sans and Mono, by name. graphviz-pure measures both as Helvetica
# and Courier. The SVG names Helvetica first (`render.FAMILIES`).
FONT = "Arial"
MONO = "Courier New"
# Every text line of a label is at least this many em tall (cellpadding
# included): graphviz-pure's line height; Graphviz's pango lines are a little
# shorter, so the cell height keeps both engines' nodes the same height.
LINE_EM = 1.2
MAX_ATTR_LINES = 5
MAX_PARAM_LINES = 4  # a collapsed module's parameters, one a line


# ------------------------------------------------------------------- labels


# Control characters (Graphviz rejects most of them) and lone surrogates
# (not encodable as UTF-8): shown as Python escapes, ``\x07``, ``\ud800``.
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")


def esc(text: object) -> str:
    """Escape text for an HTML-like label: ``<``, ``>``, ``&``, quotes, and
    control characters or lone surrogates (written as ``\x07``, ``\ud800``)."""
    text = _UNPRINTABLE.sub(lambda m: repr(m.group())[1:-1], str(text))
    return html.escape(text, quote=True).replace("\n", " ").replace("\t", " ")


class _Label:
    """Builds an HTML-like label, one table row per line; escapes all text.

    ``struck``: every line struck through and muted (a freed saved slot shows
    what it held, crossed out: the same text, so the same size)."""

    def __init__(self, theme: Theme, struck: bool = False) -> None:
        self.theme = theme
        self.rows: list[str] = []
        self.lines: list[str] = []  # each row's text, for `html(plain=True)`
        self.struck = struck

    def _text(self, text: str) -> str:
        return f"<s>{esc(text)}</s>" if self.struck else esc(text)

    def title(self, text: str) -> _Label:
        body = f"<b>{self._text(text)}</b>"
        if self.struck:
            body = f'<font color="{self.theme.muted}">{body}</font>'
        self.rows.append(f"{_line_cell(self.theme.node_pt)}{body}</td>")
        self.lines.append(body)
        return self

    def small(self, text: str) -> _Label:
        c = self.theme.muted
        body = (
            f'<font point-size="{self.theme.small_pt}" color="{c}">'
            f"{self._text(text)}</font>"
        )
        self.rows.append(f"{_line_cell(self.theme.small_pt)}{body}</td>")
        self.lines.append(body)
        return self

    def mono(self, text: str, room: str | None = None) -> _Label:
        """Numbers, one row per line, left-aligned inside a centred block.

        ``room``: text whose size the cell keeps whatever ``text`` is (when
        ``text`` fits in it), so the node keeps its size when ``text`` changes
        (a leaf's grad before and after backward)."""
        body = "<br/>".join(self._text(r) for r in text.splitlines())
        size = self.theme.small_pt
        font = f'<font face="{MONO}" point-size="{size}">{body}</font>'
        cell = '<td balign="left"'
        if room is not None and _fits(text, room):
            w, h = _mono_box(room, float(size))
            cell += f' fixedsize="true" width="{w}" height="{h}" valign="top"'
        else:
            cell += f' height="{_mono_box(text, float(size))[1]}"'
        self.rows.append(f"{cell}>{font}</td>")
        return self

    def beside(self, text: str, numbers: str, room: str) -> _Label:
        """``text`` (`small`) and ``numbers`` (`mono`, ``room``) on one row:
        a slide's "grad:" beside its one-line cell (`Theme.value_chars`)."""
        text_cell, numbers_cell = (
            _Label(self.theme).small(text).mono(numbers, room).rows
        )
        cells = f'{text_cell}<td width="4"></td>{numbers_cell}'  # (a space between)
        table = '<table border="0" cellborder="0" cellspacing="0" cellpadding="0">'
        self.rows.append(f"<td>{table}<tr>{cells}</tr></table></td>")
        return self

    def html(self, plain: bool = False) -> str:
        """The label as a table of rows. ``plain``: lines of text without the
        table, when no row is a block of numbers (`mono`): the same words
        and fonts, the lines spaced by the engine; a fifth less layout time
        on big graphs (`bench_viz.py --profile`), but the two engines' line
        heights then differ a little."""
        if plain and len(self.lines) == len(self.rows):
            return "<" + "<br/>".join(self.lines) + ">"
        rows = "".join(f"<tr>{r}</tr>" for r in self.rows)
        table = '<table border="0" cellborder="0" cellspacing="0" cellpadding="1">'
        return f"<{table}{rows}</table>>"


def _extent(text: str) -> tuple[int, int]:
    """(lines, characters of the longest line) of monospaced text."""
    lines = text.splitlines() or [""]
    return len(lines), max(len(line) for line in lines)


def _widest(a: str, b: str) -> str:
    """Text as wide as the wider and as tall as the taller of ``a`` and ``b``."""
    (na, wa), (nb, wb) = _extent(a), _extent(b)
    return "\n".join(["x" * max(wa, wb)] * max(na, nb))


def _fits(text: str, room: str) -> bool:
    (n, w), (room_n, room_w) = _extent(text), _extent(room)
    return n <= room_n and w <= room_w


def _line_height(pt: float | str) -> int:
    """Points one line of ``pt``-point text takes in a cell (`LINE_EM`)."""
    return math.ceil(LINE_EM * float(pt)) + 2


def _line_cell(pt: str) -> str:
    """The opening ``<td>`` of one line of ``pt``-point text."""
    return f'<td height="{_line_height(pt)}">'


def _mono_box(text: str, pt: float) -> tuple[int, int]:
    """Points a cell of monospaced ``text`` takes (cellpadding 1): 0.6 em a
    character, lines `LINE_EM` apart, and a point to spare (Graphviz rounds
    the text's width up and refuses a fixed cell a fraction too small)."""
    lines, width = _extent(text)
    return math.ceil(width * 0.6 * pt) + 3, _line_height(lines * pt)


DETAILS = ("beginner", "expert")
# PyTorch-internal saved attributes a beginner does not need (expert shows them)
_INTERNAL_ATTR = re.compile(r".*_sym_(sizes|strides|numel|storage_offset)$")
# Enums PyTorch saves as integers (at::Reduction)
_ENUMS = {"reduction": {"0": "'none'", "1": "'mean'", "2": "'sum'"}}


def _shape_text(shape: tuple[int, ...] | None, expert: bool) -> str:
    """``(2, 3)``; a 0-d tensor is "scalar" for a beginner (``()`` for experts)."""
    return "scalar" if shape == () and not expert else shape_label(shape)


def _tensor_title(t: TensorInfo, expert: bool) -> str:
    return t.name if t.name is not None else _shape_text(t.shape, expert)


def _tensor_label(
    t: TensorInfo,
    theme: Theme,
    show_values: bool,
    uses: int = 1,
    expert: bool = True,
    plain: bool = False,
) -> str:
    """Beginners see ``_version`` on a non-leaf (changed in place by their
    code), not on a parameter whose initialisation bumped it; an in-place
    change after saving shows on the saved slot ("now v1, saved at v0").
    ``plain``: lines of text when no row holds numbers (`_Label.html`)."""
    lab = _Label(theme).title(_tensor_title(t, expert))
    _uses_badge(lab, uses)
    meta = []
    if t.name is not None and t.shape is not None:
        meta.append(_shape_text(t.shape, expert))
    if t.dtype:
        meta.append(t.dtype)
    if t.version and (expert or not t.is_leaf):
        meta.append(f"_version={t.version}")
    if meta:
        lab.small(" ".join(meta))
    values = _values_line(t, theme)
    if show_values and values:
        lab.mono(values)
    if _has_grad_cell(t):
        # the grad keeps the room of the values (or of "None") before and after
        # backward(), so filling it in moves no node
        grad, room = _grad_text(t, theme), grad_room(t, theme)
        if theme.value_chars is None:
            lab.small("grad:").mono(grad, room)
        else:  # (one line of numbers: beside its name, a line less)
            lab.beside("grad:", grad, room)
    flags = []
    if t.retains_grad:
        flags.append("retains_grad")
    if t.hooks:
        flags.append(f"hooks: {t.hooks}")
    if flags:
        lab.small(", ".join(flags))
    return lab.html(plain)


def _has_grad_cell(t: TensorInfo) -> bool:
    return t.grad is not None or (t.requires_grad and t.is_leaf) or t.retains_grad


def _copy_label(
    t: TensorInfo,
    theme: Theme,
    show_values: bool,
    uses: int,
    expert: bool,
    plain: bool,
) -> str:
    """A further copy of a shared leaf in a big forward drawing: its name
    and uses; its values and grad are drawn once, at its first use."""
    lab = _Label(theme).title(_tensor_title(t, expert))
    _uses_badge(lab, uses)
    held = [w for w, shown in (("values", show_values and t.value),
                               ("grad", _has_grad_cell(t))) if shown]  # fmt: skip
    if held:
        lab.small(f"{' and '.join(held)}: at its first use")
    return lab.html(plain)


def shown_values(text: str, theme: Theme | None) -> str:
    """Numbers (a preview of values or of a ``.grad``) as ``theme`` draws
    them: on one line of at most ``theme.value_chars`` characters when it
    says so (a slide: `lecture`), else as they are."""
    if theme is None or theme.value_chars is None:
        return text
    line = " ".join(part.strip() for part in text.splitlines())
    return fitted(line, "x" * theme.value_chars)


def _values_line(t: TensorInfo, theme: Theme) -> str:
    """A tensor's values under its name: on a slide only when they fit whole
    on the line (a scalar, a short vector; `shown_values`), none otherwise
    (the line above gives its shape and dtype)."""
    line = shown_values(t.value, theme)
    return line if theme.value_chars is None or "…" not in line[-1:] else ""


def grad_room(t: TensorInfo, theme: Theme | None = None) -> str:
    """Text as large as a tensor's grad cell: its values (as ``theme`` draws
    them, `shown_values`), or "None"."""
    return _widest("None", shown_values(t.value, theme))


def blank_grad(t: TensorInfo, theme: Theme | None = None) -> str:
    """The grad cell of a stepper's picture before the gradient arrives:
    empty (no-break spaces the size of the room, which the static frame
    exports fill in step by step)."""
    lines, width = _extent(grad_room(t, theme))
    return "\n".join(["\u00a0" * width] * lines)


def _grad_text(t: TensorInfo, theme: Theme) -> str:
    """What a tensor's grad cell shows: "None", its gradient (`shown_values`)
    or, before the gradient arrives, the blank room (`blank_grad`: the
    stepper makes it for the whole preview, a slide's room may be smaller)."""
    if t.grad is None:
        return "None"
    if not t.grad.strip():  # (no-break spaces are whitespace to strip())
        return blank_grad(t, theme)
    return shown_values(t.grad, theme)


def fitted(text: str, room: str) -> str:
    """``text`` cut to ``room`` (lines and characters), "…" where cut, so a
    gradient fills a grad cell without resizing the node."""
    rows, width = _extent(room)
    lines = text.splitlines() or [""]
    if len(lines) > rows:
        lines = lines[: rows - 1] + ["…"]
    return "\n".join(ln if len(ln) <= width else ln[: width - 1] + "…" for ln in lines)


def grad_labels(
    g: Graph,
    grads: dict[str, str],
    copies: dict[str, list[str]],
    *,
    theme: str = "light",
    slide: bool = False,
    show_values: bool = True,
    detail: str = "beginner",
) -> dict[str, str]:
    """Drawn id -> the label of each tensor in ``grads`` (tensor id -> its
    ``.grad`` as text) showing that gradient in its grad cell: a frame of a
    stepping pass, with the node's size unchanged (`fitted`)."""
    th = lecture(THEMES[theme]) if slide else THEMES[theme]
    uses = uses_of(g, copies)
    out = {}
    for tid, grad in grads.items():
        t = g.tensors.get(tid)
        if t is None:
            continue
        ids = copies.get(tid, [tid])
        grad = fitted(shown_values(grad, th), grad_room(t, th))
        shown = dataclasses.replace(t, grad=grad)
        n = uses.get(tid, 1)
        label = _tensor_label(shown, th, show_values, n, _is_expert(detail))
        out.update((did, label) for did in ids)
    return out


def _beginner_value(key: str, value: str) -> str:
    """An enum by name, and an index PyTorch stores unsigned (-100 saved as
    2**64 - 100) as the number the user wrote."""
    if value in _ENUMS.get(key, {}):
        return _ENUMS[key][value]
    if value.isdigit() and int(value) >= 2**63:
        return str(int(value) - 2**64)
    return value


def _attr_lines(f: FunctionInfo, expert: bool = True) -> list[str]:
    if expert:  # everything PyTorch saved, at most MAX_ATTR_LINES
        items = [f"{k}={v}" for k, v in f.attrs.items()]
        items += [f"metadata[{k!r}]={v}" for k, v in f.metadata.items()]
        if len(items) > MAX_ATTR_LINES:
            extra = len(items) - MAX_ATTR_LINES + 1
            items = items[: MAX_ATTR_LINES - 1] + [f"(+{extra} more)"]
        return items
    return [f"{k}={v}" for k, v in beginner_attrs(f)] + [
        f"metadata[{k!r}]={v}" for k, v in f.metadata.items()
    ]


def beginner_attrs(f: FunctionInfo) -> list[tuple[str, str]]:
    """A node's saved attributes for a beginner (drawings and the stepper's
    panel): no internals (``*_sym_sizes``...), no None (a slot PyTorch did not
    need to fill), enums by name."""
    return [
        (k, _beginner_value(k, v))
        for k, v in f.attrs.items()
        if v != "None" and not _INTERNAL_ATTR.match(k)
    ]


def _uses_badge(lab: _Label, uses: int, leaf: str | None = None) -> None:
    """``leaf``: the name of the leaf an AccumulateGrad copy writes (its leaf
    is drawn once, elsewhere)."""
    if uses > 1:  # one leaf drawn once per use: say it is one tensor
        of = f"{leaf}: " if leaf is not None else ""
        lab.small(f"{of}{uses} uses (one tensor)")


def _packed(items: list[str], name: str, theme: Theme) -> list[str]:
    """A node's attribute lines; a slide (`Theme.value_chars`) puts as many
    on a line as fit under the node's name (a line less each, not wider)."""
    if theme.value_chars is None:
        return items
    room = len(name) * float(theme.node_pt) / float(theme.small_pt)
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 2 + len(item) <= room:
            lines[-1] += f", {item}"
        else:
            lines.append(item)
    return lines


def _function_label(
    f: FunctionInfo,
    theme: Theme,
    show_attrs: bool,
    uses: int = 1,
    expert: bool = True,
    leaf: str | None = None,
    plain: bool = False,
) -> str:
    lab = _Label(theme).title(f.name)
    _uses_badge(lab, uses, leaf)
    if show_attrs:
        for line in _packed(_attr_lines(f, expert), f.name, theme):
            lab.small(line)
    if f.hooks:
        lab.small(f"hooks: {f.hooks}")
    return lab.html(plain)


# [\w:]: a node may be namespaced, torch::autograd::CopySlices
_STALE_OF = re.compile(r"which is (output \d+ of [\w:]+)")


def _saved_label(
    s: SavedSlot, g: Graph, theme: Theme, show_values: bool, expert: bool = True
) -> str:
    """A slot's label. A freed slot whose tensor is known (`SLOT_MEMORY`: the
    graph was drawn before backward) shows what it held, struck through, so
    it keeps its size and the drawing its layout."""
    lab = _Label(theme, struck=s.remembered).title(s.attr)
    if s.state == "freed" and not s.remembered:
        return lab.small("freed by backward()").html()
    if s.state == "stale":
        # which tensor (as PyTorch names it) and its version now vs when saved
        m = _STALE_OF.search(s.detail)
        if m:
            lab.small(f"is {m.group(1)}")
        now = "" if s.version_now is None else f"now v{s.version_now}, "
        lab.small(f"changed in place after saving: {now}saved at v{s.saved_version}")
        return lab.html()
    t = g.tensors[s.tensor] if s.tensor else None
    if t is not None:
        shape = _shape_text(t.shape, expert)
        lab.small(f"{shape} {t.dtype} saved at v{s.saved_version}")
        if t.name is not None:
            lab.small(f"is {t.name}")
        values = _values_line(t, theme)
        if show_values and values:
            # a cell of fixed size: struck-through lines are spaced differently
            lab.mono(values, room=values)
    return lab.html()


# ------------------------------------------------------------------- digraph


TITLE_EM = 1.5  # a drawing's title (off slides), to its node names

# Node and rank gaps (inches): the usual ones, and the stepper screen's
# (``dense``), where the graph shares a laptop's height with the controls:
# lesson 03's seed graph is 1237x1035 px with the first, 1147x955 with the
# second (1272x797 with each leaf beside its AccumulateGrad as well:
# ``leaf_beside``).
SPACING = {False: ("0.3", "0.35"), True: ("0.2", "0.2")}
# A slide's rank gap when its edges' words need room (``roomy``): they are
# xlabels there, placed after the nodes in the gap beside the edge, and at
# 0.35 in the engine laid a lecture-size "variable" or "grad_fn" over the
# boxes at both ends of a short edge (the slides of lessons 00, 04-09, 11).
# 0.5 in leaves them room; `Drawing` asks for it only when they collide.
SLIDE_RANKSEP = "0.5"


def _new_digraph(
    name: str,
    theme: Theme,
    rankdir: str,
    size: str | None,
    title: str | None = None,
    dense: bool = False,
    roomy: bool = False,
):
    nodesep, ranksep = SPACING[dense]
    if roomy:
        ranksep = SLIDE_RANKSEP
    graph_attr = {
        "rankdir": rankdir,
        "bgcolor": theme.background,
        "fontname": FONT,
        "fontsize": theme.node_pt,
        "fontcolor": theme.text,
        "nodesep": nodesep,
        "ranksep": ranksep,
        "pad": "0.2",
        "margin": "0",
    }
    if size:
        graph_attr["size"] = size
    if title:  # above the graph, larger than any node name
        graph_attr.update(
            label=f"<<b>{esc(title)}</b>>",
            labelloc="t",
            fontsize=str(round(float(theme.node_pt) * TITLE_EM)),
        )
    return graphviz.Digraph(
        name,
        graph_attr=graph_attr,
        node_attr={
            "fontname": FONT,
            "fontsize": theme.node_pt,
            "fontcolor": theme.text,
            "margin": "0.12,0.06",
        },
        edge_attr={
            "color": theme.edge,
            "fontname": FONT,
            "fontsize": theme.small_pt,
            "fontcolor": theme.muted,
            "arrowsize": "0.7",
        },
    )


# graphviz.Digraph.node/.edge quote every attribute through several layers of
# wrappers: 0.4 s for a 1,500-node drawing. Attribute values repeat (colours,
# shapes, classes), so a cached `quote` and one f-string per statement write
# the same DOT text several times faster.
_quote = functools.lru_cache(maxsize=4096)(quote)


def _attrs(attrs: dict[str, str | None]) -> str:
    """``key=value`` pairs as graphviz writes them: label first, then sorted."""
    items = sorted((k, v) for k, v in attrs.items() if v is not None and k != "label")
    label = attrs.get("label")
    # our labels are HTML-like (``<...>``) and need no quoting
    parts = (
        [f"label={label if label.startswith('<') else quote(label)}"] if label else []
    )
    parts += [f"{_quote(k)}={_quote(str(v))}" for k, v in items]
    return " ".join(parts)


def _edge(dot, tail: str, head: str, **attrs: str | None) -> None:
    dot.body.append(f"\t{_quote(tail)} -> {_quote(head)} [{_attrs(attrs)}]\n")


def _node(
    dot,
    nid: str,
    label: str,
    kind: str,
    theme: Theme,
    classes: str = "",
    output: bool = False,
    tooltip: str | None = None,
) -> None:
    shape, style, penwidth = SHAPES[kind]
    fill, border = theme.colors[kind]
    attrs = _attrs(
        {
            "label": label,
            "id": nid,
            "class": f"{kind} {classes}".strip(),
            "shape": shape,
            "style": style,
            "fillcolor": fill,
            "color": border,
            "penwidth": penwidth,
            "peripheries": "2" if output else "1",
            "tooltip": tooltip,
        }
    )
    dot.body.append(f"\t{_quote(nid)} [{attrs}]\n")


def _legend(dot, kinds: list[str], theme: Theme, prefix: str, rankdir: str) -> None:
    """A column of sample nodes, one per kind used in the drawing."""
    with dot.subgraph(name="cluster_legend") as leg:
        leg.attr(
            label="Legend",
            style="rounded,dashed",
            color=theme.muted,
            fontname=FONT,
            fontsize="12",
            id=f"{prefix}legend",
            fontcolor=theme.text,
        )
        names = []
        for kind in kinds:
            nid = f"{prefix}legend-{kind}"
            base = "nonleaf" if kind == "output" else kind
            _node(
                leg,
                nid,
                f"<{esc(LEGEND_TEXT[kind])}>",
                base,
                theme,
                "legend",
                output=kind == "output",
            )
            names.append(nid)
        if rankdir in ("LR", "RL"):  # one rank is a column
            with leg.subgraph() as column:
                column.attr(rank="same")
                for n in reversed(names):  # dot stacks them bottom-up
                    column.node(n)
        else:  # stack them with invisible edges
            for a, b in zip(names, names[1:], strict=False):
                _edge(leg, a, b, style="invis")


LEGEND_ROW = "legend_row"  # the subgraph `page_parts` takes out
_LEGEND_GAP = '<td width="10"></td>'  # ends each item of the legend row


def legend_rows(legend: str, rows: int) -> str:
    """The legend DOT of `page_parts` with its items in ``rows`` rows (a
    narrow page: the one row would shrink to unreadable text)."""
    m = re.search(r"<tr>(.*)</tr>", legend)
    if m is None:
        return legend
    items = [c + _LEGEND_GAP for c in m.group(1).split(_LEGEND_GAP) if c]
    per = math.ceil(len(items) / rows)
    table = "</tr><tr>".join(
        "".join(items[i : i + per]) for i in range(0, len(items), per)
    )
    return f"{legend[: m.start()]}<tr>{table}</tr>{legend[m.end() :]}"


def legend_column(legend: str, pt: float | None = None) -> str:
    """The legend DOT of `page_parts` with one item a row (a slide's side
    column), its text ``pt`` points (the row's size when None)."""
    column = legend_rows(legend, legend.count(_LEGEND_GAP))
    sizes = [float(v) for v in re.findall(r'point-size="([\d.]+)"', column)]
    if pt is None or not sizes:
        return column
    grow = pt / sizes[0]  # (every item's text and swatch alike)

    def scaled(m: re.Match) -> str:
        return f'{m.group(1)}="{float(m.group(2)) * grow:.3g}"'

    return re.sub(r'\b(point-size|height|width)="([\d.]+)"', scaled, column)


def _legend_row(dot, kinds: list[str], theme: Theme, prefix: str) -> None:
    """The legend as one node: a row of swatches with their meaning, at the
    bottom (slides: it takes one line, not a column as tall as the graph)."""
    cells = []
    for kind in kinds:
        base = "nonleaf" if kind == "output" else kind
        fill, border = theme.colors[base]
        width = "3" if kind == "output" else SHAPES[base][2].split(".")[0]
        size = round(float(theme.small_pt) * 1.3)  # one line: room for larger text
        line = f' height="{_line_height(size)}"'
        swatch = (
            f'<td bgcolor="{fill}" color="{border}" border="{width}" width="22"'
            f'{line}><font point-size="{size}"> </font></td>'
        )
        text = f'<font point-size="{size}">{esc(LEGEND_TEXT[kind])}</font>'
        cells.append(f'{swatch}<td align="left"{line}>{text}</td>{_LEGEND_GAP}')
    table = (
        '<table border="0" cellborder="0" cellspacing="2" cellpadding="2">'
        f"<tr>{''.join(cells)}</tr></table>"
    )
    with dot.subgraph(name=LEGEND_ROW) as row:
        row.attr(rank="sink")
        attrs = _attrs(
            {"label": f"<{table}>", "id": f"{prefix}legend", "shape": "plain"}
        )
        row.body.append(f"\t{_quote(prefix + 'legend')} [{attrs}]\n")


TITLE_PT = 28  # a slide's title, in points of the page (PowerPoint's: 28-44)


def page_parts(dot: graphviz.Digraph) -> tuple[str, str | None]:
    """A slide's DOT (``slide=True``) as two drawings that a page places
    apart (`render.page_svg`): the graph without its title or legend, and
    the legend row alone (None when it has none)."""
    graph = dot.copy()
    for key in ("label", "labelloc"):
        graph.graph_attr.pop(key, None)
    graph.graph_attr["pad"] = "0.03"  # (the page has margins; room for a border)
    start = f"\tsubgraph {LEGEND_ROW} {{\n"
    if start not in graph.body:
        return graph.source, None
    i = graph.body.index(start)
    j = graph.body.index("\t}\n", i)
    legend_lines = [
        line[1:] for line in graph.body[i + 1 : j] if line.strip() != "rank=sink"
    ]
    del graph.body[i : j + 1]
    legend = graphviz.Digraph(
        "legend",
        graph_attr={**graph.graph_attr, "pad": "0.05"},
        node_attr=dict(graph.node_attr),
    )
    legend.body[:] = legend_lines
    return graph.source, legend.source


def title_dot(
    title: str, theme: str = "light", pt: float = TITLE_PT, node_id: str | None = None
) -> str:
    """DOT of a slide's title line alone: ``title`` in bold, ``pt`` points,
    in one borderless box (a graph label would add a rank of space under it).
    ``node_id``: the box's SVG id (a page holding two lines: no id twice)."""
    th = THEMES[theme]
    graph = graphviz.Digraph(
        "title",
        graph_attr={"bgcolor": th.background, "pad": "0.02", "margin": "0"},
        node_attr={
            "shape": "box",
            "color": th.background,
            "penwidth": "0",
            "margin": "0",
            "width": "0",
            "height": "0",
            "fontname": FONT,
            "fontsize": f"{pt:g}",
            "fontcolor": th.text,
        },
    )
    named = f" id={quote(node_id)}" if node_id else ""
    graph.body.append(f"\ttitle [label=<<b>{esc(title)}</b>>{named}]\n")
    return graph.source


def _tensor_kinds(tensors: list[TensorInfo]) -> list[str]:
    kinds = [
        k for k in ("leaf", "nonleaf", "constant") if any(t.kind == k for t in tensors)
    ]
    if any(t.is_output for t in tensors):
        kinds.append("output")
    return kinds


def backward_dot(
    g: Graph,
    *,
    theme: str = "light",
    rankdir: str = "TB",
    show_saved: bool = True,
    show_values: bool = True,
    show_attrs: bool = True,
    legend: bool = False,
    size: str | None = None,
    prefix: str = "",
    compact: bool | None = None,
    split_shared: bool | None = None,
    detail: str = "beginner",
    slide: bool = False,
    title: str | None = None,
    group: bool = False,
    dense: bool = False,
    leaf_beside: bool = False,
    roomy: bool = False,
) -> graphviz.Digraph:
    """The backward graph: grad_fn nodes, AccumulateGrad, leaves, saved tensors.

    ``compact`` (default: above `COMPACT_ABOVE` nodes) trades edge labels and
    saved->tensor links for a fast layout. ``split_shared`` (default: above
    `SPLIT_SHARED_ABOVE` nodes) draws a leaf used by several nodes, and its
    AccumulateGrad, once per use (same name, "N uses"; see
    `Graph.split_ids`); above `LIGHT_COPIES_ABOVE` only the AccumulateGrad
    (`shared_copies`). A compact drawing's grad_fn labels are lines of
    text, and its longest grad_fn chain is weighted (`_spine_edges`) so a
    loop stays one column. ``slide``: lecture-sized text and the legend as one
    row at the bottom; ``title`` above the graph. ``group``: each module's
    nodes (from the parameter names, see `graph.module_of`) in a box named
    after it. ``dense``: the stepper screen's smaller gaps (`SPACING`);
    ``leaf_beside``: each leaf beside its AccumulateGrad rather than a rank
    below it (a rank less at the bottom of most graphs, a wider bottom rank;
    not in a compact drawing). ``roomy``: ranks `SLIDE_RANKSEP` apart.
    """
    th = lecture(THEMES[theme]) if slide else THEMES[theme]
    dot = _new_digraph("backward", th, rankdir, size, title, dense, roomy)
    p = prefix
    n_drawn = drawn_nodes(g, show_saved)
    if compact is None:
        compact = n_drawn > COMPACT_ABOVE
    if compact:
        dot.attr(**FAST_LAYOUT)
    copies = shared_copies(g, show_saved, split_shared)
    use_of_edge = g.use_of_edge() if copies else {}
    uses = uses_of(g, copies)
    # (using node, leaf) -> the copy of the leaf drawn next to that node
    tensor_copy: dict[tuple[str, str], str] = {}
    for e in g.edges:
        if e.id in use_of_edge and e.dst is not None:
            leaf = g.functions[e.dst].variable
            if leaf in copies:
                k = copies[e.dst].index(use_of_edge[e.id])
                tensor_copy[(e.src, leaf)] = copies[leaf][k]
    multi = g.multi_output()
    expert = _is_expert(detail)
    box = _Boxes()
    if group:
        where = cluster_of(g)
        for f in g.functions.values():  # a parameter in its module's cluster
            if f.variable is not None and f.id in where:
                where[f.variable] = where[f.id]
        _module_clusters(box, where, g.module_kinds, th, p)
    _fold_boxes(box, g.folds, th, p)
    for f in g.functions.values():
        kind = "accumulate" if f.is_accumulate_grad else "fn"
        ids = copies.get(f.id, [f.id])
        # an AccumulateGrad copy without its leaf copy names the leaf
        leaf = None
        if f.variable is not None and f.id in copies and f.variable not in copies:
            leaf = g.tensors[f.variable].label
        label = _function_label(f, th, show_attrs, len(ids), expert, leaf, compact)
        classes = _classes("function", ids)
        if f.id in g.boxes:  # a module drawn as one box
            kind = "module"
            label, classes = _module_label(g.boxes[f.id], th), "function module"
        for did in ids:
            _node(box.get(f.id, dot), p + did, label, kind, th, classes)
    _more_box(dot, g.hidden, th, p)
    shown = [g.tensors[tid] for tid in g.shown_tensors]
    acc_of = {f.variable: f.id for f in g.functions.values() if f.variable}
    for t in shown:
        ids = copies.get(t.id, [t.id])
        label = _tensor_label(t, th, show_values, uses.get(t.id, 1), expert)
        where = box.get(t.id, box.get(acc_of.get(t.id, ""), dot))
        # a leaf drawn once for its many uses is shared too
        classes = "tensor shared" if uses.get(t.id, 1) > 1 else "tensor"
        for did in ids:
            _node(where, p + did, label, t.kind, th, classes, output=t.is_output)
    shown_ids = {t.id for t in shown}
    # On a slide an edge's words are an xlabel, placed once the nodes are: a
    # labelled edge takes a rank of its own in the engine, ~100 pt more in a
    # 2-layer MLP's height ("variable", "grad_fn"), its names drawn smaller.
    words = "xlabel" if slide else "label"
    # Gradient flow: a node passes gradients to its next_functions.
    exits = _exit_labels(g.folds)
    spine = _spine_edges(g) if compact else set()
    for e in g.edges:
        if e.dst is None:
            continue
        label = f"output_nr={e.output_nr}" if e.dst in multi else None
        if e.dst in g.boxes:  # a module box has no output_nr of its own
            label = None
        dst = use_of_edge.get(e.id, e.dst)
        kind = "next"
        if (e.src, e.input_nr) in exits:  # leaves a folded block
            label, kind = exits[(e.src, e.input_nr)], "next folded"
        weight = SPINE_WEIGHT if e.id in spine else None
        _edge(
            dot,
            p + e.src,
            p + dst,
            id=p + e.id,
            weight=weight,
            **{words: label},
            **{"class": kind},
        )
    for f in g.functions.values():
        if f.variable is not None:
            pairs = zip(copies.get(f.id, [f.id]), copies.get(f.variable, [f.variable]))
            home = box.get(f.id, dot)
            # (rank=same is only honoured inside one cluster: the leaf's box
            # is its AccumulateGrad's unless it was given one of its own)
            beside = leaf_beside and not compact and box.get(f.variable, home) is home
            for fid, tid in pairs:
                _edge(
                    dot,
                    p + fid,
                    p + tid,
                    id=f"{p}e-{fid}-variable",
                    color=th.colors["leaf"][1],
                    **{"class": "variable", words: None if compact else "variable"},
                )
                if beside:
                    home.body.append(
                        f"\t{{rank=same; {_quote(p + fid)}; {_quote(p + tid)}}}\n"
                    )
    for t in shown:
        if t.producer is not None:
            fid, nr = t.producer
            label = "grad_fn" if fid not in multi else f"grad_fn, output_nr={nr}"
            if compact:
                label = None if fid not in multi else f"output_nr={nr}"
            _edge(
                dot,
                p + t.id,
                p + fid,
                id=f"{p}e-{t.id}-grad_fn",
                style="dashed",
                **{"class": "grad-fn", words: label},
            )
    kinds = ["fn"] + (
        ["accumulate"]
        if any(f.is_accumulate_grad for f in g.functions.values())
        else []
    )
    if any(f in g.boxes for f in g.functions):
        kinds.append("module")
    if show_saved:
        beside: dict[str, list[str]] = {}  # a slide's node -> its saved slots
        for s in g.saved.values():
            kind = "saved" if s.state == "ok" else f"saved-{s.state}"
            # saved and freed both, before and after backward(): the legend
            # is the same on both slides (and the layout with it)
            for k in ("saved", "saved-freed", kind):
                if k not in kinds:
                    kinds.append(k)
            label = _saved_label(s, g, th, show_values, expert)
            tooltip = "freed by backward()" if s.remembered else None
            where = box.get(s.node, dot)
            _node(where, p + s.id, label, kind, th, "saved", tooltip=tooltip)
            _edge(
                dot,
                p + s.node,
                p + s.id,
                id=f"{p}e-{s.id}",
                dir="none",
                style="dashed",
                color=th.colors[kind][1],  # (a freed slot: grey, as its border)
                **{"class": "saved"},
            )
            if s.tensor in shown_ids and not compact:  # linked, never merged
                # constraint=false: the link must not pull a named tensor below
                # the node that saved it (its own grad_fn, for a saved output)
                _edge(
                    dot,
                    p + s.id,
                    p + tensor_copy.get((s.node, s.tensor), s.tensor),
                    id=f"{p}e-{s.id}-is",
                    dir="none",
                    style="dotted",
                    weight="0",
                    constraint="false",
                    **{"class": "same-tensor"},
                )
            beside.setdefault(s.node, []).append(s.id)
        if slide:  # each node's saved slots on its row, not a row below it:
            # below, the node sat over the middle of its slots and the next
            # node, and the graph drifted sideways a little at each step (a
            # 2-layer MLP: 2,540 pt wide, 1,920 with its slots beside)
            for fid, slots in beside.items():
                same = "; ".join(_quote(p + i) for i in [fid, *slots])
                box.get(fid, dot).body.append(f"\t{{rank=same; {same}}}\n")
    box.close(dot)
    if legend:
        draw_legend = (
            _legend_row if slide else functools.partial(_legend, rankdir=rankdir)
        )
        draw_legend(dot, _tensor_kinds(shown) + kinds, th, p)
    return dot


def _more_box(dot, hidden: int, theme: Theme, prefix: str) -> None:
    """The box standing for the ``hidden`` autograd nodes `truncated` left
    out (none when nothing was)."""
    if not hidden:
        return
    more = (
        _Label(theme)
        .title(f"… {hidden:,} more autograd nodes")
        .small(
            "not drawn: too many to lay out. Draw a smaller part (one layer's "
            "output, a few steps) or pass collapse=False"
        )
    )
    _node(dot, prefix + MORE_ID, more.html(), "constant", theme, "more")


# The weight of the edges along a big drawing's longest chain of grad_fn nodes
# (`_spine_edges`). With every edge of weight 1 the engine's placement drifted
# sideways at each step: a 100-step loop was a diagonal 45,000 pt wide, the
# 1,510-node loop 35,000 pt; with its spine kept straight, 1,423 and 547 pt.
SPINE_WEIGHT = "10"


def _spine_edges(g: Graph) -> set[str]:
    """Ids of the edges along the longest path of grad_fn nodes (leaving out
    AccumulateGrad) from the output: the chain a loop repeats."""
    chain = {fid for fid, f in g.functions.items() if not f.is_accumulate_grad}
    return _longest_path(chain, [(e.id, e.src, e.dst) for e in g.edges])


def _longest_path(
    nodes: set[str], edges: list[tuple[str, str, str | None]]
) -> set[str]:
    """Ids of the edges (id, tail, head) along a longest path through
    ``nodes`` (edges leaving them are ignored)."""
    out_edges: dict[str, list[tuple[str, str]]] = {n: [] for n in nodes}
    indeg = dict.fromkeys(nodes, 0)
    for eid, src, dst in edges:
        if src in nodes and dst in nodes:
            out_edges[src].append((eid, dst))
            indeg[dst] += 1
    roots = [n for n, k in indeg.items() if k == 0]
    order = list(roots)
    for n in order:  # Kahn's order (the list grows as it is read)
        for _eid, dst in out_edges[n]:
            indeg[dst] -= 1
            if indeg[dst] == 0:
                order.append(dst)
    longest: dict[str, int] = {}  # nodes on the longest path down from each
    for n in reversed(order):
        longest[n] = 1 + max((longest[d] for _e, d in out_edges[n]), default=0)
    if not roots:
        return set()
    node = max(roots, key=longest.__getitem__)
    spine = set()
    while out_edges[node]:
        eid, node = max(out_edges[node], key=lambda e: longest[e[1]])
        spine.add(eid)
    return spine


class _Boxes:
    """The clusters a drawing's nodes go in: id -> cluster. Module clusters
    nest by their dotted path (``encoder.0`` inside ``encoder``)."""

    def __init__(self) -> None:
        self.of: dict[str, graphviz.Digraph] = {}
        # id(cluster) -> (nesting depth, cluster, the cluster it sits in)
        self.clusters: dict[int, tuple[int, graphviz.Digraph, graphviz.Digraph | None]]
        self.clusters = {}

    def get(self, nid: str, default: graphviz.Digraph) -> graphviz.Digraph:
        return self.of.get(nid, default)

    def add(
        self,
        sub: graphviz.Digraph,
        depth: int = 0,
        parent: graphviz.Digraph | None = None,
    ) -> None:
        self.clusters[id(sub)] = (depth, sub, parent)

    def close(self, dot: graphviz.Digraph) -> None:
        """Write each cluster into its parent, the innermost first (a
        subgraph's text is copied when it is added)."""
        for _depth, sub, parent in sorted(self.clusters.values(), key=lambda c: -c[0]):
            (dot if parent is None else parent).subgraph(sub)


def _fold_boxes(box: _Boxes, folds: list[Fold], theme: Theme, prefix: str) -> None:
    """Put each folded block's nodes in a cluster whose label is the note
    saying what was folded."""
    for fold in folds:
        note = (
            _Label(theme)
            .title(f"× {fold.count}: this block repeats {fold.count} times")
            .small(
                f"drawn once; the other {fold.count - 1:,} ({fold.hidden:,} "
                "autograd nodes) are folded (fold=False draws them)"
            )
        )
        if fold.params:  # layers alike but each with its own parameters
            names = fold.params
            shown = ", ".join(names) if len(names) <= 3 else f"{names[0]} … {names[-1]}"
            note.small(
                f"each repeat has its own parameters: {len(names)} not drawn ({shown})"
            )
        sub = graphviz.Digraph(f"cluster_{prefix}{fold.id}")
        sub.attr(
            label=note.html(),
            id=prefix + fold.id,
            style="rounded,dashed",
            color=theme.muted,
            fontcolor=theme.text,
            penwidth="1.5",
            labeljust="l",
            **{"class": "fold"},
        )
        box.add(sub)
        box.of.update(dict.fromkeys(fold.shown, sub))


def _module_clusters(
    box: _Boxes, where: dict[str, str], kinds: dict[str, str], theme: Theme, prefix: str
) -> None:
    """Put each drawn id of ``where`` (id -> module path) in the cluster of
    its module, named like ``Linear fc1``; a nested module's cluster (named
    by its dotted path, ``Linear encoder.0``) sits inside its parent's."""
    clusters: dict[str, graphviz.Digraph] = {}

    def cluster(path: str) -> graphviz.Digraph:
        if path not in clusters:
            parent = module_path(path)
            outer = cluster(parent) if parent else None
            name = f"{kinds.get(path, '')} {path}".strip()
            sub = clusters[path] = graphviz.Digraph(f"cluster_{prefix}module-{path}")
            sub.attr(
                label=_Label(theme).title(name).html(),
                id=f"{prefix}cluster-module-{path}",
                style="rounded",
                color=theme.muted,
                fontcolor=theme.text,
                labeljust="l",
                **{"class": "module"},
            )
            box.add(sub, path.count(".") + 1, outer)
        return clusters[path]

    for nid, path in where.items():
        box.of[nid] = cluster(path)


def _module_label(m: ModuleBox, theme: Theme) -> str:
    """A collapsed module: its name, what it stands for, its parameters."""
    lab = _Label(theme).title(m.title)
    lab.small(f"{len(m.functions):,} autograd nodes in one box (depth=)")
    shown = m.described
    if len(shown) > MAX_PARAM_LINES:  # a deep stack: the count and the ends
        shown = [
            f"{len(shown)} parameters: {shown[0]} … {shown[-1]}",
        ]
    for line in shown:
        lab.small(line)
    return lab.html()


def _exit_labels(folds: list[Fold]) -> dict[tuple[str, int], str]:
    """(node, input_nr) -> label, for the edges leaving a folded block: in
    the real graph they pass through the folded repeats first."""
    return {
        edge: f"through the {fold.count - 1:,} folded repeats"
        for fold in folds
        for edge in fold.exits
    }


def forward_copies(fv: ForwardView) -> dict[tuple[str, str], str]:
    """(leaf id, op id) -> drawn id of the leaf's copy next to that op, for
    leaves read by several ops (only those appear). The first copy (the
    leaf's own id) goes to the op that ran first: the walk meets the ops
    from the outputs back, so their order is reversed."""
    readers: dict[str, dict[str, None]] = {}
    op_ids = {op.id for op in fv.ops}
    leaves = {t.id for t in fv.tensors if t.is_leaf and t.producer is None}
    for e in fv.edges:
        if e.src in leaves and e.dst in op_ids:
            readers.setdefault(e.src, {})[e.dst] = None
    return {
        (tid, op): use_id(tid, k)
        for tid, ops in readers.items()
        if len(ops) > 1
        for k, op in enumerate(reversed(ops))
    }


def blank_inputs(fv: ForwardView) -> dict[str, tuple[str, int]]:
    """Placeholder id -> (op, input position), for the inputs of which
    nothing is known: ``None`` in ``next_functions`` (no grad) and saved by
    no op, such as the python number of ``x + 0.1``. A small drawing shows
    each as a bare "tensor" box; a compact one writes it into its op's
    label (500 such boxes were a third of the layout time of the 1,510-node
    loop's forward view, `bench_viz.py --profile`)."""
    blank = {t.id for t in fv.tensors if t.kind == "constant" and t.shape is None}
    return {e.src: (e.dst, e.index) for e in fv.edges if e.src in blank}


def unkept_tensors(fv: ForwardView) -> dict[str, tuple[str, int]]:
    """Tensor id -> (op, output_nr), for the intermediates autograd did not
    keep (no op saved them, no name: nothing is known of them but that they
    exist). A small drawing shows each as a bare "tensor" box; a compact
    one as the arrow from the op that made it to the ops that read it
    (without its 1,001 such boxes the 1,510-node loop's forward view took
    0.82 s to lay out, not 0.97 s; `bench_viz.py --profile`)."""
    op_ids = {op.id for op in fv.ops}
    return {
        t.id: t.producer
        for t in fv.tensors
        if t.kind == "nonleaf"
        and t.shape is None
        and t.name is None
        and not t.is_output
        and t.producer is not None
        and t.producer[0] in op_ids
    }


def forward_nodes(fv: ForwardView) -> int:
    """Nodes a forward drawing shows (before shared leaves are split)."""
    return len(fv.tensors) + len(fv.ops)


def shared_forward_copies(
    fv: ForwardView, split_shared: bool | None = None
) -> dict[tuple[str, str], str]:
    """`forward_copies` when the forward drawing splits shared leaves: by
    default above `SPLIT_SHARED_ABOVE` nodes; else empty."""
    if split_shared is None:
        split_shared = forward_nodes(fv) > SPLIT_SHARED_ABOVE
    return forward_copies(fv) if split_shared else {}


def _is_expert(detail: str) -> bool:
    if detail not in DETAILS:
        raise ValueError(f"detail must be one of {DETAILS}, not {detail!r}")
    return detail == "expert"


def drawn_nodes(g: Graph, show_saved: bool = True) -> int:
    """Nodes a backward drawing shows (before shared leaves are split)."""
    return len(g.functions) + len(g.shown_tensors) + (len(g.saved) * show_saved)


def fold_to_fit(
    g: Graph,
    show_saved: bool,
    fold: bool | None = None,
    expand: Collection[str] = frozenset(),
) -> Graph:
    """`g` with its repeated blocks drawn once (`graph.folded`) when ``fold``
    is True, or when it is None and `g` has more than `FOLD_ABOVE` nodes;
    the folds in ``expand`` are drawn in full."""
    if fold is False or (fold is None and drawn_nodes(g, show_saved) <= FOLD_ABOVE):
        return g
    return folded(g, expand=expand)


def shared_copies(
    g: Graph, show_saved: bool = True, split_shared: bool | None = None
) -> dict[str, list[str]]:
    """Model id -> its drawn ids, for the shared leaves a backward drawing
    draws once per use (`Graph.split_ids`): by default above
    `SPLIT_SHARED_ABOVE` nodes, and above `LIGHT_COPIES_ABOVE` without the
    copies of the leaf itself."""
    n_drawn = drawn_nodes(g, show_saved)
    if split_shared is None:
        split_shared = n_drawn > SPLIT_SHARED_ABOVE
    if not split_shared:
        return {}
    return g.split_ids(leaf_copies=n_drawn <= LIGHT_COPIES_ABOVE)


def uses_of(g: Graph, copies: dict[str, list[str]]) -> dict[str, int]:
    """Drawn id -> the uses its "N uses (one tensor)" badge counts: each
    copied id's copies, and a leaf drawn once its AccumulateGrad's copies."""
    uses = {did: len(ids) for did, ids in copies.items()}
    for f in g.functions.values():
        if f.variable is not None and f.id in copies:
            uses.setdefault(f.variable, len(copies[f.id]))
    return uses


def collapse_to_fit(g: Graph, show_saved: bool) -> Graph:
    """`g`, or its part nearest the outputs when it is too large to lay out."""
    copies = sum(len(v) - 1 for v in shared_copies(g, show_saved).values())
    return _truncated_to_fit(g, drawn_nodes(g, show_saved) + copies)


def collapse_forward_to_fit(g: Graph) -> Graph:
    """`collapse_to_fit` for the forward view: its nodes counted as a
    compact forward drawing shows them (shared-leaf copies included,
    unknown tensors left out)."""
    fv = forward_view(g)
    copied = forward_copies(fv)
    copies = len(copied) - len({tid for tid, _op in copied})
    unknown = len(blank_inputs(fv)) + len(unkept_tensors(fv))
    return _truncated_to_fit(g, forward_nodes(fv) - unknown + copies)


def _truncated_to_fit(g: Graph, total: int) -> Graph:
    """`g` when its drawing has at most `COLLAPSE_ABOVE` nodes (``total``);
    else the functions nearest the outputs that make about `COLLAPSE_TO`."""
    if total <= COLLAPSE_ABOVE:
        return g
    per_function = total / max(1, len(g.functions))
    return truncated(g, int(COLLAPSE_TO / per_function))


def _classes(base: str, ids: list[str]) -> str:
    """A node's classes; the copies of a shared leaf also get ``shared``."""
    return f"{base} shared" if len(ids) > 1 else base


def forward_dot(
    fv: ForwardView,
    *,
    theme: str = "light",
    rankdir: str = "TB",
    show_values: bool = True,
    legend: bool = False,
    size: str | None = None,
    prefix: str = "",
    compact: bool | None = None,
    detail: str = "beginner",
    slide: bool = False,
    title: str | None = None,
    split_shared: bool | None = None,
    clusters: dict[str, str] | None = None,
    dense: bool = False,
    roomy: bool = False,
) -> graphviz.Digraph:
    """The forward graph: tensors and the ops between them (``slide``,
    ``title`` and ``split_shared`` as in `backward_dot`: a leaf read by
    several ops is drawn next to each of them). ``clusters``: drawn id ->
    module path (`graph.forward_clusters`), each module's ops and tensors
    in a box named after it."""
    th = lecture(THEMES[theme]) if slide else THEMES[theme]
    dot = _new_digraph("forward", th, rankdir, size, title, dense, roomy)
    p = prefix
    n_drawn = forward_nodes(fv)
    if compact is None:
        compact = n_drawn > COMPACT_ABOVE
    if compact:
        dot.attr(**FAST_LAYOUT)
    expert = _is_expert(detail)
    op_ids = {op.id for op in fv.ops}
    copy_of = shared_forward_copies(fv, split_shared)
    uses: dict[str, int] = {}
    for tid, _op in copy_of:
        uses[tid] = uses.get(tid, 0) + 1
    # above LIGHT_COPIES_ABOVE a shared leaf's values are drawn once
    light = n_drawn > LIGHT_COPIES_ABOVE
    blank = blank_inputs(fv) if compact else {}
    unkept = unkept_tensors(fv) if compact else {}
    blank_of: dict[str, list[int]] = {}  # op -> its blank input positions
    for op_id, nr in blank.values():
        blank_of.setdefault(op_id, []).append(nr)
    box = _Boxes()
    if clusters:
        _module_clusters(box, clusters, fv.module_kinds, th, p)
    _fold_boxes(box, fv.folds, th, p)
    _more_box(dot, fv.hidden, th, p)  # its edges go to the ops reading from it
    drawn = [t for t in fv.tensors if t.id not in blank and t.id not in unkept]
    for t in drawn:
        n = uses.get(t.id, 1)
        ids = [use_id(t.id, k) for k in range(n)]
        label = _tensor_label(t, th, show_values, n, expert, compact)
        copy = label
        if light and n > 1:
            copy = _copy_label(t, th, show_values, n, expert, compact)
        where = box.get(t.id, box.get(t.producer[0], dot) if t.producer else dot)
        for k, did in enumerate(ids):
            classes = _classes("tensor", ids)
            text = label if k == 0 else copy
            _node(where, p + did, text, t.kind, th, classes, output=t.is_output)
    for op in fv.ops:
        lab = _Label(th).title(op.op).small(op.name)
        for nr in sorted(blank_of.get(op.id, [])):
            lab.small(f"input {nr}: a constant (no grad)")
        label = lab.html(compact)
        classes = "function"
        kind = "op"
        if op.id in fv.boxes:  # a module drawn as one box
            kind = "module"
            label, classes = _module_label(fv.boxes[op.id], th), "function module"
        _node(box.get(op.id, dot), p + op.id, label, kind, th, classes)
    exits = _exit_labels(fv.folds)  # (op, input position): into the fold
    edges = []  # (id, tail, head, label, kind), tails as in the model
    for e in fv.edges:
        if e.src in blank or e.dst in unkept:
            continue
        kind = "input" if e.dst in op_ids else "output"
        # Label an op's outputs only when it has several (split, unbind...).
        label = f"[{e.index}]" if e.src in fv.multi_output else None
        src = e.src
        if src in unkept:  # the arrow from the op that made it
            src, nr = unkept[src]
            label = f"[{nr}]" if src in fv.multi_output else None
        if kind == "input" and (e.dst, e.index) in exits:
            label, kind = exits[(e.dst, e.index)], "input folded"
        edges.append((e.id, src, e.dst, label, kind))
    spine = set()
    if compact:  # one column, not a drift (`SPINE_WEIGHT`)
        nodes = {t.id for t in drawn} | op_ids
        spine = _longest_path(nodes, [(eid, a, b) for eid, a, b, _l, _k in edges])
    for eid, src, dst, label, kind in edges:
        _edge(
            dot,
            p + copy_of.get((src, dst), src),
            p + dst,
            id=p + eid,
            label=label,
            weight=SPINE_WEIGHT if eid in spine else None,
            **{"class": kind},
        )
    box.close(dot)
    if legend:
        draw_legend = (
            _legend_row if slide else functools.partial(_legend, rankdir=rankdir)
        )
        modules = ["module"] if any(op.id in fv.boxes for op in fv.ops) else []
        draw_legend(dot, _tensor_kinds(drawn) + ["op"] + modules, th, p)
    return dot
