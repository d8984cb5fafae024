"""Export a `BackwardStepper`'s pass: one HTML page, a PDF, numbered frames, a GIF.

    stepper.save("steps.html")                # steps in any browser, offline
                                              # (the player: viz/player.py)
    stepper.save("steps.pdf", size="slide", title="Backward, step by step")
                                              # one page per step, for slides
    stepper.save("frames/", fmt="png")        # frame_000.png, frame_001.png...
    stepper.save("steps.gif")                 # animated (needs Pillow)

Every export covers the whole pass: if the stepper has not finished, the rest of
backward runs first (so every leaf's ``.grad`` is final afterwards); the frame
on display stays where it was. Frame 0 is the picture before the first node
ran, frame k the picture after step k.

The look of a highlighted node comes from one place, ``widgets/graph_view.css``:
the HTML page inlines it as is; the static formats translate its rules into DOT
attributes (``color``, ``penwidth``, ``style``) set on the highlighted nodes and
edges. Only attributes change between frames, never the DOT structure, so the
layout engine places every node at the same spot on every page (tested). The PDF
goes one step further: it lays the graph out and parses the SVG once, then
recolours the shapes of the highlighted elements page by page (about four times
faster than a layout and parse per page).
"""

from __future__ import annotations

import dataclasses
import html
import io
import math
import os
import re
import struct
import sys
import threading
import xml.etree.ElementTree as ET
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphviz.quoting import quote

from . import render
from .dot import (
    FONT,
    THEMES,
    TITLE_EM,
    Theme,
    esc,
    fitted,
    grad_labels,
    lecture,
    legend_column,
    page_parts,
    shown_values,
    title_dot,
)
from .drawing import DEFAULT_DPI, Size, check_dpi, check_parent
from .player import box_states, html_page
from .stepper import screen_layouts
from .widgets.roles import PAINT_ORDER
from .widgets.roles import ROLES as ROLE_TEXT

if TYPE_CHECKING:
    from .stepper import BackwardStepper

CSS_PATH = Path(__file__).parent / "widgets" / "graph_view.css"
FILE_FORMATS = {".html": "html", ".htm": "html", ".pdf": "pdf", ".gif": "gif"}
FRAME_FORMATS = ("png", "svg")
FORMATS = ("html", "pdf", "gif", *FRAME_FORMATS)
ROLES = PAINT_ORDER  # the order roles are painted in; later ones win
MAX_RASTER_FRAMES = 150  # GIF / PNG / SVG frames: each is a layout and a file
PROGRESS_ABOVE = 10  # frames: longer exports say how far they are
GIF_DPI = 96  # screen resolution: GIFs are for web pages and slides
# The caption above every frame, in every format: "Step 3 of 8: ..." in bold
# and one row explaining the highlights. Slides (read from afar) get it larger;
# it is centred there. Above it goes the teacher's title (`save(title=...)`):
# on a slide the drawing's slide title (`dot.title_dot`), elsewhere a line as
# large as a drawing's title (`dot.TITLE_EM` times the node names).
CAPTION_FONT_PT = 15  # larger than node names
LEGEND_FONT_PT = 11
SLIDE_CAPTION = 1.4  # the caption's size on a slide page


def save(
    stepper: BackwardStepper,
    path: str | Path,
    fmt: str | None = None,
    *,
    theme: str | None = None,
    size: Size = None,
    dpi: float | None = None,
    view: str = "backward",
    legend: bool | None = None,
    frame_ms: int = 800,
    max_frames: int = MAX_RASTER_FRAMES,
    progress: bool | None = None,
    title: str | None = None,
    rankdir: str | None = None,
) -> Path:
    """Write the stepper's frames; see the module docstring. Returns ``path``.

    ``fmt``: "html", "pdf", "gif", "png" or "svg"; by default from the
    extension. "png" and "svg" write a folder of numbered frames.
    ``theme``/``size``/``legend`` as in `Drawing.save`; ``title``: a line
    above every frame's caption (on a slide, the drawing's slide title; by
    default the stepper's own ``title=``); ``dpi`` for PNG/GIF;
    ``view``: "backward" or "forward"; ``frame_ms``: GIF delay per frame.
    ``rankdir``: the graph's direction; by default the stepper's own, or on
    a slide whichever of "TB" and "LR" draws the graph larger (`slide_plan`).
    ``max_frames``: a GIF or a folder of frames with more frames is refused
    (each frame is a layout and a picture: minutes and megabytes); the PDF and
    HTML exports have no limit. ``progress``: print "frame k of n" on stderr
    (None: when there are more than a few frames to render).
    """
    path = check_parent(Path(path))
    check_dpi(dpi)
    fmt = _format_of(path, fmt)
    if view not in ("backward", "forward"):
        raise ValueError(f"view must be 'backward' or 'forward', not {view!r}")
    if fmt in ("gif", "png"):
        _need_pillow(f"{fmt.upper()} export")  # fail before running anything
    _finish(stepper)
    drawing = stepper.forward_drawing if view == "forward" else stepper.drawing
    asked = dict(theme=theme, size=size, legend=legend, title=title, rankdir=rankdir)
    opts = drawing._resolved(export=True, **asked)
    titles = [_title(stepper, k) for k in range(len(stepper.frames) + 1)]
    plan = None
    if opts.page and fmt != "html":
        free = rankdir is None and stepper.rankdir is None
        plan = slide_plan(drawing, opts, titles, free)
        opts = plan.opts
    # the title goes above each frame's caption, not into the graph's label
    # (which would put it under the caption)
    digraph = drawing._digraph(dataclasses.replace(opts, title=None))
    frames = [{}] + [f.highlight(view) for f in stepper.frames]
    labels = frame_labels(stepper, drawing, opts)
    if fmt in ("gif", *FRAME_FORMATS) and len(frames) > max_frames:
        raise ValueError(
            f"this pass has {len(frames)} frames: a {fmt.upper()} export of more "
            f"than {max_frames} frames takes minutes and many megabytes. Export a "
            "PDF or the HTML page instead (one layout for every step), or pass "
            f"max_frames={len(frames)}"
        )
    if progress is None:
        progress = len(frames) > PROGRESS_ABOVE and fmt != "html"
    report = _Progress(len(frames)) if progress else None

    if fmt == "html":  # the player steps both views, whichever is asked for

        def svgs_now() -> dict[str, str]:  # (of the drawings a box click shows)
            # each view as the widget lays it out, and left to right ("view
            # wide") where the widget would offer that too
            drawings = {"backward": stepper.drawing, "forward": stepper.forward_drawing}
            given = stepper.rankdir is not None
            svgs = {}
            for v in (view, _other(view)):
                top_down, wide = screen_layouts(drawings[v], given, True, **asked)
                svgs[v] = top_down
                if wide:
                    svgs[f"{v} wide"] = wide
            return svgs

        states = box_states(stepper, svgs_now)
        page = html_page(
            stepper, svgs_now(), THEMES[opts.theme], opts.theme, states, opts.title
        )
        return _write(path, page.encode("utf-8"))

    theme_look = THEMES[opts.theme]
    styler = _Restyler(digraph.body, opts.id_prefix, static_styles(theme_look))

    def restyled(k: int) -> Any:
        frame_dot = digraph.copy()
        frame_dot.body[:] = styler.body_for(frames[k], labels[k])
        return frame_dot

    def source(k: int) -> str:
        # a slide page lays its graph out apart from the legend (`page_parts`)
        return page_parts(restyled(k))[0] if opts.page else restyled(k).source

    def each_frame(run: Callable[[str], Any], sources: list[str] | None = None):
        # One engine process per frame; they run in parallel (the threads only
        # wait on subprocesses, so the GIL is no obstacle).
        if sources is None:
            sources = [source(k) for k in range(len(frames))]
            if report is not None:
                run = report.wrap(run)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            return list(pool.map(run, sources))

    # a slide page (`slide_plan`): the title (when there is one), the graph,
    # the key to the highlights and the legend, each laid out alone, and the
    # frame's caption under the title. Elsewhere the caption strip above the
    # frame starts with the title line and ends with the key
    # (`caption_source`).
    parts, caption_size, side = {}, None, ()
    heading = None if opts.page else opts.title
    if plan is not None:
        parts, caption_size, side = plan.parts, plan.caption_size, plan.side
    # the tags over each frame, by SVG id: the gradients just sent along
    # edges, and which repeat each folded block shows (the widget's tags)
    overlays = [{}] + [stepper.overlay(f) for f in stepper.frames]
    edges = [_prefixed(opts.id_prefix, o.get("edges", {})) for o in overlays]
    if view == "forward":  # (the forward view has no gradient edges)
        edges = [{} for _ in edges]
    folds = [_prefixed(opts.id_prefix, o.get("folds", {})) for o in overlays]
    page_pt = (opts.page[0] * 72, opts.page[1] * 72) if opts.page else None
    if fmt == "pdf":  # one layout; each page recolours its shapes
        pages = [styler.svg_changes(frame) for frame in frames]
        grads = [_prefixed(opts.id_prefix, g) for g in frame_grads(stepper, drawing)]
        if opts.page:
            svg, look = parts["graph"][1], lecture(theme_look)
        else:
            svg, look = render.svg(digraph.source, opts.engine), theme_look
        pdf = pdf_pages(
            svg,
            pages,
            titles,
            look,
            grads,
            edges,
            page_pt,
            parts.get("legend", ("", None))[1],
            caption_size,
            folds,
            title=parts.get("title", ("", None))[1],
            heading=heading,
            key=parts.get("key", ("", None))[1],
            side=side,
        )
        return _write(path, pdf)
    look = lecture(theme_look) if opts.page else theme_look
    tag_pt = TAG_EM * float(look.node_pt)
    # the caption strip of each frame: the title line (off a slide), "Step k
    # of n: ..." and the highlights
    captions = [
        slide_caption_source(title, opts.theme)
        if opts.page  # (a slide has its title and its key apart)
        else caption_source(
            title, theme_look, styler.styles, legend=k > 0, heading=heading
        )
        for k, title in enumerate(titles)
    ]
    if opts.page:  # the slide's page layout: title, caption, key, graph, legend
        sizes = {name: render.natural_size(svg) for name, (_dot, svg) in parts.items()}
        sizes["caption"] = caption_size
        places = render.page_layout(page_pt, sizes, side)
    if fmt == "svg":
        svgs = each_frame(lambda src: render.svg(src, opts.engine))
        svgs = [
            svg_with_tags(
                svg, frame_tags(svg_geometry(svg)[1], edges[k], folds[k], tag_pt)
            )
            for k, svg in enumerate(svgs)
        ]
        strips = each_frame(lambda src: render.svg(src, opts.engine), captions)
        if opts.page:
            still = {name: svg for name, (_dot, svg) in parts.items()}
            rooms = {"caption": caption_size, "key": sizes["key"]}
            svgs = [
                render.page_svg(
                    page_pt,
                    {**_shown(still, k), "caption": strip, "graph": svg},
                    theme_look.background,
                    rooms=rooms,
                    side=side,
                )
                for k, (strip, svg) in enumerate(zip(strips, svgs))
            ]
        else:
            svgs = captioned_svgs(svgs, strips, theme_look.background)
        return _write_frames(path, [s.encode() for s in svgs], "svg")
    dpi = dpi or (GIF_DPI if fmt == "gif" else DEFAULT_DPI)
    strips = each_frame(lambda src: render.png(src, opts.engine, dpi), captions)
    # where the tags go: the layout every frame shares
    graph_svg = parts["graph"][1] if opts.page else render.svg(source(0), opts.engine)
    shift, geometry = svg_geometry(graph_svg)

    def tagged(pngs: list[bytes], px: float) -> list[Any]:
        image = _need_pillow("Frame tags")
        return [
            paint_tags(
                image.open(io.BytesIO(png)),
                frame_tags(geometry, edges[k], folds[k], tag_pt),
                shift,
                px,
            )
            for k, png in enumerate(pngs)
        ]

    if not opts.page:
        pngs = each_frame(lambda src: render.png(src, opts.engine, dpi))
        pngs = captioned(tagged(pngs, dpi / 72), strips, theme_look.background, dpi)
    else:
        if places["caption"][2] < 1:  # a caption wider than the page: smaller
            strip_dpi = dpi * places["caption"][2]
            strips = each_frame(
                lambda s: render.png(s, opts.engine, strip_dpi), captions
            )
        strips = _top_aligned(strips, theme_look.background)
        scale = places["graph"][2]
        graphs = each_frame(lambda src: render.png(src, opts.engine, dpi * scale))
        graphs = tagged(graphs, dpi * scale / 72)
        pictures = {  # the parts frames share: the title, the key, the legend
            name: render.png(dot_source, opts.engine, dpi * places[name][2])
            for name, (dot_source, _svg) in parts.items()
            if name != "graph"
        }
        pngs = [
            render.paste_parts(
                opts.page,
                dpi,
                places,
                sizes,
                {**_shown(pictures, k), "caption": strip, "graph": graph},
                theme_look.background,
            )
            for k, (strip, graph) in enumerate(zip(strips, graphs))
        ]
    if fmt == "png":
        return _write_frames(path, pngs, "png")
    return _write(path, gif(pngs, frame_ms))


# ------------------------------------------------------------------ helpers
def frame_grads(stepper: BackwardStepper, drawing: Any) -> list[dict[str, str]]:
    """Per frame (0: before the first step), tensor id -> the ``.grad`` its
    cell shows: what the engine has written by then, as the widget tags it.
    The forward view draws the same tensors under the same ids."""
    out = [{}]
    for frame in stepper.frames:
        out.append(dict(stepper.overlay(frame).get("grads", {})))
    return out


def frame_labels(
    stepper: BackwardStepper, drawing: Any, opts: Any
) -> list[dict[str, str]]:
    """Per frame, drawn id -> the label of each tensor whose grad cell is
    filled in by then (`dot.grad_labels`; the node keeps its size)."""
    graph = drawing._shown_graph(opts)
    copies = drawing.grad_cell_ids
    out = []
    for grads in frame_grads(stepper, drawing):
        labels = grad_labels(
            graph,
            grads,
            copies,
            theme=opts.theme,
            slide=opts.page is not None,
            show_values=opts.show_values,
            detail=opts.detail,
        )
        out.append(_prefixed(opts.id_prefix, labels))
    return out


def _prefixed(prefix: str, by_id: dict[str, Any]) -> dict[str, Any]:
    return {prefix + k: v for k, v in by_id.items()}


def _other(view: str) -> str:
    return "backward" if view == "forward" else "forward"


class _Progress:
    """ "frame k of n" on one stderr line, as frames finish (from any thread)."""

    def __init__(self, total: int) -> None:
        self.total, self.done = total, 0
        self.lock = threading.Lock()

    def wrap(self, run: Callable[[str], Any]) -> Callable[[str], Any]:
        def counted(source: str) -> Any:
            result = run(source)
            with self.lock:
                self.done += 1
                end = "\n" if self.done == self.total else ""
                print(f"\rframe {self.done} of {self.total}", end=end, file=sys.stderr)
            return result

        return counted


def _format_of(path: Path, fmt: str | None) -> str:
    if fmt is not None:
        fmt = fmt.lower().lstrip(".")
        if fmt not in FORMATS:
            raise ValueError(f"fmt must be one of {FORMATS}, not {fmt!r}")
        return fmt
    suffix = path.suffix.lower()
    if suffix in FILE_FORMATS:
        return FILE_FORMATS[suffix]
    if suffix in (".png", ".svg"):
        raise ValueError(
            f"{path.name!r}: one {suffix} file cannot hold every step. Give a "
            f"folder and fmt='{suffix[1:]}' (frames/ -> frame_000{suffix}, ...), "
            "or save a single picture with stepper.drawing.save()."
        )
    if not suffix:
        raise ValueError(
            f"{str(path)!r} looks like a folder: say which frames to write in it "
            "with fmt='png' or fmt='svg'"
        )
    raise ValueError(
        f"cannot export a stepper to {path.name!r}: use .html, .pdf or .gif, or a "
        "folder with fmt='png' or fmt='svg'"
    )


def _finish(stepper: BackwardStepper) -> None:
    """Run the rest of backward (exports show every step), keep the display."""
    if not stepper.done:
        position = stepper.position
        stepper.run_all()
        stepper.goto(position)


def _title(stepper: BackwardStepper, k: int) -> str:
    frame = stepper.frames[k - 1] if k else None
    about = stepper.describe(frame)
    # the caption a slide needs: "Step 3 of 8: MulBackward0 — l3 = l1 * w3"
    title = about["title"]
    if frame is not None:
        title = f"{about['step']}: {title}"
    if frame is not None and frame.error:
        title += " (raised an error)"
    return title


def _shown(parts: dict[str, Any], k: int) -> dict[str, Any]:
    """The still parts frame ``k`` draws: all but the key before backward,
    which has no highlight to explain (the key keeps its room)."""
    return {name: v for name, v in parts.items() if k or name != "key"}


@dataclasses.dataclass(frozen=True)
class SlidePlan:
    """How a stepper's slide pages are laid out: the options (the direction
    chosen), the still parts (name -> (DOT, engine SVG): "graph", "title",
    "key", "legend"), the caption's room and the parts in a side column."""

    opts: Any
    parts: dict[str, tuple[str, str]]
    caption_size: tuple[float, float]
    side: tuple[str, ...]
    scale: float  # the graph's, on the page


def slide_plan(
    drawing: Any, opts: Any, titles: list[str], free_direction: bool = True
) -> SlidePlan:
    """The arrangement of a stepper's slide page that draws the graph
    largest: the graph laid out top-down or, when ``free_direction``, left
    to right too; the key to the highlights and the legend as rows (the key
    under the caption, the legend at the bottom) or in a column at the right
    (a tall graph on a wide page leaves room there). The caption gets the
    room of its widest title, so the graph sits on the same spot on every
    frame. Ties keep the earlier arrangement (top-down, rows)."""
    look = THEMES[opts.theme]
    styles = static_styles(look)
    widest = max(titles, key=_Caption(CAPTION_FONT_PT, 0).title_width)
    caption = slide_caption_source(widest, opts.theme)
    caption_size = render.natural_size(render.svg(caption, opts.engine))
    page = (opts.page[0] * 72, opts.page[1] * 72)
    rows = {"key": key_source(look, styles)}
    column = {"key": key_source(look, styles, column=True)}
    base = dataclasses.replace(opts, title=None)
    if opts.legend:
        legend = page_parts(drawing._digraph(base))[1]
        if legend is not None:
            rows["legend"] = legend
            # (its text as large as the key's, above it in the column)
            column["legend"] = legend_column(legend, LEGEND_FONT_PT * SLIDE_CAPTION)
    stills = {}  # DOT -> (DOT, SVG), laid out once
    for src in (*rows.values(), *column.values()):
        stills.setdefault(src, (src, render.svg(src, opts.engine)))
    title = None
    if opts.title:  # (the drawing's slide title: same size, same spot)
        src = title_dot(opts.title, opts.theme)
        title = (src, render.svg(src, opts.engine))
    best = None
    for rankdir in ("TB", "LR") if free_direction else (opts.rankdir,):
        o = dataclasses.replace(opts, rankdir=rankdir)
        graph = page_parts(drawing._digraph(dataclasses.replace(base, rankdir=rankdir)))
        graph_part = (graph[0], render.svg(graph[0], opts.engine))
        for side, dots in (((), rows), (("key", "legend"), column)):
            parts = {"graph": graph_part}
            if title is not None:
                parts["title"] = title
            parts.update({name: stills[src] for name, src in dots.items()})
            sizes = {n: render.natural_size(svg) for n, (_d, svg) in parts.items()}
            sizes["caption"] = caption_size
            scale = render.page_layout(page, sizes, side)["graph"][2]
            if best is None or scale > best.scale * 1.01:
                best = SlidePlan(o, parts, caption_size, side, scale)
    assert best is not None
    return best


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _write_frames(folder: Path, pages: list[bytes], ext: str) -> Path:
    if folder.exists() and not folder.is_dir():
        raise NotADirectoryError(f"{str(folder)!r} is a file: frames need a folder")
    folder.mkdir(exist_ok=True)  # the frames' own folder; its parent must exist
    for old in folder.glob(f"frame_*.{ext}"):  # a shorter pass must not leave extras
        old.unlink()
    for k, data in enumerate(pages):
        (folder / f"frame_{k:03d}.{ext}").write_bytes(data)
    return folder


# -------------------------------------------------------- static highlights
def role_styles(css: str | None = None) -> dict[str, dict[str, str]]:
    """DOT attributes per role, read from the widget's CSS rules.

    ``stroke`` becomes ``color``, ``stroke-width`` ``penwidth``, a
    ``stroke-dasharray`` a dashed ``style``, and ``opacity`` the alpha of the
    colours. So the widget, the HTML page and the slides share one look.
    """
    css = CSS_PATH.read_text(encoding="utf-8") if css is None else css
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    styles: dict[str, dict[str, str]] = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        roles = set(re.findall(r"\.mg-(\w+)", selectors)) & set(ROLES)
        decls = dict(
            (k.strip(), v.strip())
            for k, _, v in (d.partition(":") for d in body.split(";"))
            if v.strip()
        )
        for role in roles:
            attrs = styles.setdefault(role, {})
            if "stroke" in decls:
                attrs["color"] = decls["stroke"]
            if "stroke-width" in decls:
                attrs["penwidth"] = decls["stroke-width"].removesuffix("px")
            if "stroke-dasharray" in decls:
                attrs["dashed"] = str(decls["stroke-dasharray"] != "none")
            if "opacity" in decls:
                attrs["opacity"] = decls["opacity"]
    return styles


# On paper, projectors and greyscale copies a faded node reads as nothing: in
# the static exports a node that already ran is also shaded (its fill mixed
# halfway with the theme's grey), so done and pending differ in brightness.
SHADE_DONE = 0.5


def static_styles(theme: Theme) -> dict[str, dict[str, str]]:
    """`role_styles` for pictures: "done" also shades the fill."""
    styles = role_styles()
    styles.setdefault("done", {})["shade"] = theme.muted
    return styles


_ATTR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|[^\s\]]+)')


def _attrs_after_label(statement: str) -> dict[str, str]:
    """A DOT statement's attributes, skipping an HTML label (``label=<...>``),
    whose text may itself contain ``color=``."""
    start = statement.find("label=<")
    if start >= 0:
        depth, i = 0, start + len("label=")
        while i < len(statement):
            depth += {"<": 1, ">": -1}.get(statement[i], 0)
            i += 1
            if depth == 0:
                break
        statement = statement[:start] + statement[i:]
    return {k: v.strip('"') for k, v in _ATTR.findall(statement)}


def _mix(color: str, other: str, share: float) -> str:
    """``color`` moved ``share`` of the way to ``other`` (both #rrggbb)."""
    if not all(re.fullmatch(r"#[0-9a-fA-F]{6}", c) for c in (color, other)):
        return color
    a, b = (tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for c in (color, other))
    return "#" + "".join(f"{round(x + (y - x) * share):02x}" for x, y in zip(a, b))


def _with_alpha(color: str | None, opacity: float) -> str | None:
    if not color or not re.fullmatch(r"#[0-9a-fA-F]{6}", color):
        return color
    return f"{color}{round(opacity * 255):02x}"


class _Restyler:
    """Bakes a frame's highlight into the DOT body, attributes only."""

    def __init__(
        self, body: list[str], prefix: str, styles: dict[str, dict[str, str]]
    ) -> None:
        self.body = list(body)
        self.styles = styles
        self.where: dict[str, int] = {}  # drawing id -> index of its statement
        for i, statement in enumerate(self.body):
            for match in re.finditer(r" id=(\"(?:[^\"\\]|\\.)*\"|[^\s\]]+)", statement):
                self.where.setdefault(match.group(1), i)
        self.prefix = prefix

    def changes(self, highlight: dict[str, list[str]]) -> dict[int, dict[str, str]]:
        """For each statement a frame highlights, the DOT attributes it sets."""
        roles: dict[int, list[str]] = {}  # statement index -> its roles, in order
        for role in ROLES:
            for did in highlight.get(role, []):
                i = self.where.get(quote(self.prefix + did))
                if i is not None:
                    roles.setdefault(i, []).append(role)
        out = {}
        for i, its_roles in roles.items():
            style: dict[str, str] = {}
            for role in its_roles:  # later roles win, as in the CSS
                rule = self.styles.get(role, {})
                if "opacity" in rule and "shade" not in rule:
                    style.pop("shade", None)  # (running: opaque, not shaded)
                style.update(rule)
            out[i] = _restyled(_attrs_after_label(self.body[i]), style)
        return out

    def body_for(
        self, highlight: dict[str, list[str]], labels: dict[str, str] | None = None
    ) -> list[str]:
        """The DOT body of a frame: the changed attributes appended, and the
        new ``labels`` (drawn id with prefix -> HTML-like label)."""
        body = list(self.body)
        extras: dict[int, list[str]] = {}
        for i, attrs in self.changes(highlight).items():
            extras[i] = [f"{k}={quote(v)}" for k, v in attrs.items()]
        for did, label in (labels or {}).items():
            i = self.where.get(quote(did))
            if i is not None:
                extras.setdefault(i, []).append(f"label={label}")
        for i, extra in extras.items():
            k = body[i].rfind("]")  # appended attributes win in DOT
            body[i] = f"{body[i][:k]} {' '.join(extra)}{body[i][k:]}"
        return body

    def svg_changes(self, highlight: dict[str, list[str]]) -> dict[str, dict]:
        """``changes`` keyed by the id the SVG element of each statement has."""
        ids = {i: _unquote(did) for did, i in self.where.items()}
        return {ids[i]: attrs for i, attrs in self.changes(highlight).items()}


def _unquote(did: str) -> str:
    return did[1:-1].replace('\\"', '"') if did.startswith('"') else did


def _restyled(old: dict[str, str], style: dict[str, str]) -> dict[str, str]:
    """The DOT attributes that change for a node or edge drawn in ``style``."""
    new: dict[str, str] = {}
    opacity = float(style.get("opacity", 1))
    if opacity < 1:  # faded: the same colours, partly transparent
        for key in ("color", "fillcolor"):
            faded = _with_alpha(old.get(key), opacity)
            if faded:
                new[key] = faded
    if "shade" in style and old.get("fillcolor"):
        new["fillcolor"] = _mix(old["fillcolor"], style["shade"], SHADE_DONE)
    if "color" in style:
        new["color"] = style["color"]
    if "penwidth" in style:
        new["penwidth"] = style["penwidth"]
    if "dashed" in style:
        parts = [p for p in old.get("style", "").split(",") if p and p != "dashed"]
        if style["dashed"] == "True":
            parts.append("dashed")
        new["style"] = ",".join(parts) or "solid"
    return new


# ----------------------------------------------------------------- captions
# Roles that paint edges (the widget's legend draws their swatch as a line,
# a bottom border): a key shows them as a bar of the edge's colour, not as a
# node's box (which read as "the node running now").
LINE_ROLES = frozenset(
    role for role, style, _text in ROLE_TEXT if style.startswith("border-bottom")
)


def legend_roles() -> list[tuple[str, str]]:
    """(role, meaning) of the highlights a frame's legend explains. An error
    frame's caption says so itself; selected and freed are screen-only."""
    return [(r, text) for r, _style, text in ROLE_TEXT if r in ROLES and r != "error"]


def caption_source(
    title: str,
    theme: Theme,
    styles: dict[str, dict[str, str]],
    legend: bool = True,
    slide: bool = False,
    heading: str | None = None,
) -> str:
    """DOT of the strip above a PNG / GIF / SVG frame: the caption and, when
    ``legend``, one row of sample nodes painted like each highlight with
    what it means. Laid out by the same engine as the frame (same fonts).
    ``slide``: larger (`SLIDE_CAPTION`) and centred, as a slide's title.
    ``heading``: a title line above the caption, as large as a drawing's
    title (`TITLE_EM` of its node names; a slide draws its title apart)."""
    grow = SLIDE_CAPTION if slide else 1.0
    label = f"<b>{esc(title)}</b>"
    if heading:  # two lines, each aligned as the label is
        align = "center" if slide else "left"
        pt = round(float(theme.node_pt) * TITLE_EM)
        label = (
            '<table border="0" cellborder="0" cellspacing="0" cellpadding="0">'
            f'<tr><td align="{align}"><font point-size="{pt}"><b>{esc(heading)}'
            f'</b></font></td></tr><tr><td align="{align}">{label}</td></tr></table>'
        )
    body = [
        f'\tgraph [bgcolor={quote(theme.background)} pad="0.15,0.08" margin=0 '
        f"ranksep=0.1 nodesep={0.06 * grow:g} fontname={quote(FONT)} "
        f"fontsize={CAPTION_FONT_PT * grow:g} fontcolor={quote(theme.text)} "
        f"labelloc=t labeljust={'c' if slide else 'l'} label=<{label}>]",
        *_key_body(theme, styles, grow, legend),
    ]
    return "digraph caption {\n" + "\n".join(body) + "\n}\n"


def slide_caption_source(title: str, theme: str) -> str:
    """DOT of a slide page's caption: "Step 3 of 8: ..." alone, in bold,
    `SLIDE_CAPTION` times the strip's size, in a box as tight as the slide's
    title (the page places the key to the highlights apart)."""
    pt = CAPTION_FONT_PT * SLIDE_CAPTION
    return title_dot(title, theme, pt, node_id="caption-line")


def key_source(
    theme: Theme, styles: dict[str, dict[str, str]], column: bool = False
) -> str:
    """DOT of a slide's key to the highlights alone, at the slide caption's
    size: the row `caption_source` ends with, or a ``column`` of it (one
    highlight a line, the texts aligned at their left)."""
    body = [
        f'\tgraph [bgcolor={quote(theme.background)} pad="0.05" margin=0 '
        f"ranksep=0.06 nodesep={0.06 * SLIDE_CAPTION:g}]",
        *_key_body(theme, styles, SLIDE_CAPTION, True, column),
    ]
    return "digraph key {\n" + "\n".join(body) + "\n}\n"


def _key_body(
    theme: Theme,
    styles: dict[str, dict[str, str]],
    grow: float,
    legend: bool = True,
    column: bool = False,
) -> list[str]:
    """The DOT statements of the key: a sample node painted like each
    highlight and what it means, in one row (or a ``column``), ``grow``
    times the caption's size; without ``legend`` an invisible dot (an empty
    graph would draw nothing under a caption's label)."""
    fill, border = theme.colors["fn"]
    base = {"style": "rounded,filled", "fillcolor": fill, "color": border}
    base["penwidth"] = "1.2"
    size = [f"{v * grow:g}" for v in (0.3, 0.18)]  # a swatch, inches
    pt = LEGEND_FONT_PT * grow
    body = [
        f"\tnode [fontname={quote(FONT)} fontsize={pt:g} fontcolor={quote(theme.text)}]"
    ]
    roles = legend_roles() if legend else []
    # a column's texts share one width, each flush left in it ("\l")
    wide = max((_text_width(text, pt) for _r, text in roles), default=0) / 72
    names = []
    for k, (role, text) in enumerate(roles):
        look = {**base, **_restyled(base, styles.get(role, {}))}
        high = size[1]
        if role in LINE_ROLES:  # an edge's look: a bar of its colour
            colour = styles.get(role, {}).get("color", theme.edge)
            look = {"style": "filled", "fillcolor": colour, "color": colour}
            look["penwidth"] = "0"
            high = f"{float(styles.get(role, {}).get('penwidth', 2)) / 72:.3f}"
        attrs = " ".join(f"{key}={quote(v)}" for key, v in sorted(look.items()))
        # (ids of their own: a page holds the caption beside other drawings)
        body.append(
            f'\ts{k} [id="caption-s{k}" shape=box label="" width={size[0]} '
            f"height={high} fixedsize=true {attrs}]"
        )
        shape = f"width={wide + 0.1:.2f} " if column else ""
        label = quote(text + "\\l") if column else quote(text)
        # (as tall as its swatch: a plaintext node is 0.5 in by default)
        body.append(
            f'\tt{k} [id="caption-t{k}" shape=plaintext label={label} '
            f'{shape}height={size[1]} margin="0.04,0"]'
        )
        names.append((f"s{k}", f"t{k}"))
    if column:  # one line each, the swatches one under another
        body += [f"\t{{rank=same; {s} -> {t} [style=invis]}}" for s, t in names]
        body += [
            f"\t{a} -> {b} [style=invis]" for (a, _t), (b, _u) in zip(names, names[1:])
        ]
    elif names:  # one row, in this order
        chain = " -> ".join(n for pair in names for n in pair)
        body.append(f"\t{{rank=same; {chain} [style=invis]}}")
    else:
        body.append('\tspace [id="caption-space" shape=point style=invis width=0.01]')
    return body


def _text_width(text: str, pt: float, font: str = "Helvetica") -> float:
    """``text``'s width in points, in the Helvetica the layout measures."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, font, pt)


def _png_size(data: bytes) -> tuple[int, int]:
    return struct.unpack(">II", data[16:24])


def captioned(
    pngs: list[Any],
    strips: list[bytes],
    background: str,
    dpi: float,
) -> list[bytes]:
    """Each frame (PNG bytes or a PIL image) under its caption strip, every
    picture the same size (a GIF needs it), the margins in the theme's
    background. (Slide pages are laid
    out as a drawing's slide instead: `render.page_layout`.)"""
    from PIL import ImageColor

    image = _need_pillow("Frame captions")
    frames = [
        (image.open(io.BytesIO(p)) if isinstance(p, bytes) else p).convert("RGB")
        for p in pngs
    ]
    tops = [image.open(io.BytesIO(p)).convert("RGB") for p in strips]
    top = max(im.height for im in tops)
    width = max(im.width for im in frames + tops)
    height = top + max(im.height for im in frames)
    out = []
    for frame, strip in zip(frames, tops):
        page_im = image.new("RGB", (width, height), ImageColor.getrgb(background))
        page_im.paste(strip, (0, 0))
        page_im.paste(frame, ((width - frame.width) // 2, top))
        data = io.BytesIO()
        page_im.save(data, format="PNG", dpi=(dpi, dpi))
        out.append(data.getvalue())
    return out


def captioned_svgs(svgs: list[str], strips: list[str], background: str) -> list[str]:
    """Each SVG frame under its caption strip (engine SVGs), stacked as
    `captioned` stacks PNG frames: every frame the same size, the strip at
    the top left, the frame centred under it, on the theme's background."""
    frames = [render.natural_size(svg) for svg in svgs]
    tops = [render.natural_size(strip) for strip in strips]
    top = max(h for _w, h in tops)
    width = max(w for w, _h in frames + tops)
    height = top + max(h for _w, h in frames)
    return [
        render.placed_svg(
            (width, height),
            {"caption": strip, "graph": svg},
            {"caption": (0.0, 0.0, 1.0), "graph": ((width - w) / 2, top, 1.0)},
            background,
        )
        for svg, strip, (w, _h) in zip(svgs, strips, frames)
    ]


def _top_aligned(strips: list[bytes], background: str) -> list[Any]:
    """The caption strips as pictures of one height, each at the top of its
    own (a frame without a legend row keeps its title where the others are)."""
    from PIL import ImageColor

    image = _need_pillow("Frame captions")
    tops = [image.open(io.BytesIO(p)).convert("RGB") for p in strips]
    height = max(im.height for im in tops)
    out = []
    for strip in tops:
        padded = image.new("RGB", (strip.width, height), ImageColor.getrgb(background))
        padded.paste(strip, (0, 0))
        out.append(padded)
    return out


# ---------------------------------------------------------------- PDF / GIF
def pdf_pages(
    svg: str,
    pages: list[dict[str, dict]],
    titles: list[str],
    theme: Theme = THEMES["light"],
    grads: list[dict[str, str]] | None = None,
    edges: list[dict[str, str]] | None = None,
    page: tuple[float, float] | None = None,
    legend: str | None = None,
    caption_size: tuple[float, float] | None = None,
    folds: list[dict[str, str]] | None = None,
    title: str | None = None,
    heading: str | None = None,
    key: str | None = None,
    side: tuple[str, ...] = (),
) -> bytes:
    """A multi-page PDF of one laid-out SVG: page k applies ``pages[k]`` (SVG
    element id -> DOT attributes: ``color``, ``fillcolor``, ``penwidth``,
    ``style``) to the shapes of those elements, with ``titles[k]`` above, and
    writes ``grads[k]`` (SVG id of a tensor -> its ``.grad`` as text) into
    those tensors' grad cells and ``edges[k]`` (SVG id of an edge -> the
    gradient it carries) in a tag at its middle, as the widget does (`TAG_EM`
    of ``theme``'s node names), and ``folds[k]`` (SVG id of a folded block ->
    which repeat it shows) in a tag over the block. ``page``: pages of
    exactly that size in points (a slide), laid out as a drawing's slide
    (`render.page_layout`): ``title`` (the SVG of the slide's title line) at
    the top, the caption under it, ``legend`` (the SVG of the legend row) at
    the bottom, the graph scaled to fit between them and centred
    (``caption_size``: the room the caption takes, in points, as the PNG
    frames' caption strip takes it); else each page is the drawing's size
    plus the caption, which starts with the line ``heading`` (the title off
    a slide) when given. On a slide ``key`` (the SVG of the key to the
    highlights, drawn from page 1 on) goes under the caption, or with the
    legend in a column at the right when ``side`` names them
    (`slide_plan`). The SVG is parsed
    once (svglib), so a page costs a redraw, not a new layout and parse. The
    caption strip says "Step k of n" and explains the highlights; it is
    painted in the theme's background (a dark PDF is dark everywhere)."""
    drawing = render.svg_drawing(svg)
    from reportlab.graphics import renderPDF  # (installed with svglib)
    from reportlab.pdfgen.canvas import Canvas

    groups = {g.svgid: g for g in _groups(drawing) if getattr(g, "svgid", None)}
    _shift, geometry = svg_geometry(svg)
    # the group holding the graph's shapes: tags drawn last in it are on top
    top_group = groups.get("graph0") or next(iter(_groups(drawing)), drawing)
    grow = SLIDE_CAPTION if page else 1.0
    title_pt, legend_pt = CAPTION_FONT_PT * grow, LEGEND_FONT_PT * grow
    captions = [
        re.sub(r"^Step (\d+):", rf"Step \1 of {len(pages) - 1}:", title)
        for title in titles
    ]
    heading = None if page else heading  # (a slide draws ``title`` instead)
    heading_pt = float(theme.node_pt) * TITLE_EM if heading else 0.0
    strip = _Caption(title_pt, legend_pt, heading_pt)
    caption_w = max(
        [strip.legend_width(), strip.heading_width(heading or "")]
        + [strip.title_width(c) for c in captions]
    )
    parts = {"graph": drawing}
    line = None  # (a slide's caption: one line in its box)
    if page:
        room = caption_size or (caption_w, strip.height)
        line = room[1] if caption_size else None
        caption_w = room[0]
        sizes = {"graph": render.natural_size(svg), "caption": room}
        for name, part in (("title", title), ("legend", legend), ("key", key)):
            if part is not None:
                parts[name] = render.svg_drawing(part)
                sizes[name] = render.natural_size(part)
        places = render.page_layout(page, sizes, side)
    else:  # the drawing at its size under the caption, left-aligned
        page = (max(drawing.width, caption_w + 20), drawing.height + strip.height)
        places = {
            "caption": (10.0, 0.0, 1.0),
            "graph": ((page[0] - drawing.width) / 2, strip.height, 1.0),
        }
    width, height = page
    out = io.BytesIO()
    canvas = Canvas(out)
    canvas.setTitle("backward() step by step")
    for k, (changes, caption) in enumerate(zip(pages, captions)):
        undo: list[tuple[Any, str, Any]] = []
        for sid, attrs in changes.items():
            if sid in groups:
                undo += _paint(groups[sid], attrs)
        for sid, grad in (grads[k] if grads else {}).items():
            if sid in groups:  # (a slide's numbers on one line, as the cell)
                undo += _write_grad(groups[sid], shown_values(grad, theme))
        # the tags over everything, in the graph's group (its coordinates)
        tags = frame_tags(
            geometry,
            edges[k] if edges else {},
            folds[k] if folds else {},
            TAG_EM * float(theme.node_pt),
        )
        undo += _add_tags(top_group, tags)
        canvas.setPageSize((width, height))
        canvas.setFillColor(_rl_color(_css_color(theme.background)))
        canvas.rect(0, 0, width, height, stroke=0, fill=1)
        for name, part in _shown(parts, k).items():  # (top left corners, y down)
            x, y, scale = places[name]
            canvas.saveState()
            canvas.translate(x, height - y - part.height * scale)
            canvas.scale(scale, scale)
            renderPDF.draw(part, canvas, 0, 0)
            canvas.restoreState()
        x, y, scale = places["caption"]
        centre = x + caption_w * scale / 2 if grow > 1 else None
        legend_row = k > 0 and "key" not in parts  # (a slide's key is a part)
        strip.draw(
            canvas, caption, x, height - y, scale, theme, centre, legend_row,
            heading, room=line,
        )  # fmt: skip
        canvas.showPage()
        for shape, name, value in reversed(undo):  # back to the plain picture
            setattr(shape, name, value)
    canvas.save()
    return out.getvalue()


def _css_color(name: str) -> str:
    return "#ffffff" if name == "white" else name


class _Caption:
    """The PDF's caption strip: the title line in bold and, under it, a sample
    stroke per highlight and its meaning (the widget's legend, in the CSS
    colours and dash patterns; "already run" shaded as the pages shade it).
    ``heading_pt``: room for a heading line above the title (off slides)."""

    PAD = 6.0  # above the title and under the legend row, in points

    def __init__(self, title_pt: float, legend_pt: float, heading_pt: float = 0.0):
        self.title_pt, self.legend_pt = title_pt, legend_pt
        self.heading_pt = heading_pt
        self.height = 2 * self.PAD + 1.25 * (heading_pt + title_pt) + 1.35 * legend_pt

    def title_width(self, text: str) -> float:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        return stringWidth(text, "Helvetica-Bold", self.title_pt)

    def heading_width(self, text: str) -> float:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        return stringWidth(text, "Helvetica-Bold", self.heading_pt)

    def _items(self) -> list[tuple[str, str, float]]:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        pt = self.legend_pt
        return [
            (role, text, 2.9 * pt + stringWidth(text, "Helvetica", pt))
            for role, text in legend_roles()
        ]

    def legend_width(self) -> float:
        return sum(w for _r, _t, w in self._items()) - 0.9 * self.legend_pt

    def draw(
        self,
        canvas: Any,
        title: str,
        x: float,
        top: float,
        scale: float,
        theme: Theme,
        centre: float | None = None,
        legend: bool = True,
        heading: str | None = None,
        room: float | None = None,
    ) -> None:
        """At ``x`` (or each line centred on ``centre``), ``top`` the strip's
        top in PDF points (y up), ``scale`` times its size; ``heading`` on a
        line of its own above the title. ``room``: the title alone, in the
        middle of a box that tall (a slide's caption, `slide_caption_source`)."""
        canvas.saveState()
        canvas.translate(x, top)
        canvas.scale(scale, scale)
        mid = None if centre is None else (centre - x) / scale
        pt = self.legend_pt
        canvas.setFillColor(_rl_color(theme.text))
        baseline = -self.PAD
        if room is not None:  # one line, where the engine puts it in its box
            baseline = self.title_pt - room / 2 - 0.3 * self.title_pt
        if heading and self.heading_pt:
            canvas.setFont("Helvetica-Bold", self.heading_pt)
            baseline -= self.heading_pt
            left = 0.0 if mid is None else mid - self.heading_width(heading) / 2
            canvas.drawString(left, baseline, heading)
            baseline -= 0.25 * self.heading_pt
        canvas.setFont("Helvetica-Bold", self.title_pt)
        baseline -= self.title_pt
        left = 0.0 if mid is None else mid - self.title_width(title) / 2
        canvas.drawString(left, baseline, title)
        if legend:  # (the picture before backward has no highlight to explain)
            styles = static_styles(theme)
            y = baseline - 0.25 * self.title_pt - 1.1 * pt
            left = 0.0 if mid is None else mid - self.legend_width() / 2
            canvas.setFont("Helvetica", pt)
            for role, text, width in self._items():
                style = styles.get(role, {})
                canvas.setStrokeColor(_rl_color(style.get("color", theme.muted)))
                if role in LINE_ROLES:  # (an edge's look: a line of its colour)
                    canvas.setLineWidth(float(style.get("penwidth", 2)) * pt / 11)
                    canvas.line(left, y + 0.35 * pt, left + 1.55 * pt, y + 0.35 * pt)
                    canvas.setFillColor(_rl_color(theme.text))
                    canvas.drawString(left + 2.0 * pt, y, text)
                    left += width
                    continue
                line = min(float(style.get("penwidth", 1.5)), 4) * pt / 9
                canvas.setLineWidth(line)
                canvas.setDash(*([3, 2] if style.get("dashed") == "True" else []))
                fill = _restyled({"fillcolor": theme.colors["fn"][0]}, style)
                if fill.get("fillcolor"):
                    canvas.setFillColor(_rl_color(fill["fillcolor"]))
                canvas.rect(
                    left, y - 0.1 * pt, 1.55 * pt, 0.9 * pt, stroke=1,
                    fill=1 if fill.get("fillcolor") else 0,
                )  # fmt: skip
                canvas.setDash()
                canvas.setFillColor(_rl_color(theme.text))
                canvas.drawString(left + 2.0 * pt, y, text)
                left += width
        canvas.restoreState()


def _groups(node: Any) -> Any:
    """Every group of a reportlab drawing, depth first."""
    for child in getattr(node, "contents", ()):
        if hasattr(child, "contents"):
            yield child
            yield from _groups(child)


def _paint(group: Any, attrs: dict[str, str]) -> list[tuple[Any, str, Any]]:
    """Apply DOT attributes to the shapes of one node or edge, as the layout
    engine would draw them; returns what to set back afterwards."""
    undo = []

    def put(shape: Any, name: str, value: Any) -> None:
        undo.append((shape, name, getattr(shape, name)))
        setattr(shape, name, value)

    stack = list(group.contents)
    while stack:
        shape = stack.pop()
        if hasattr(shape, "contents"):
            stack.extend(shape.contents)
            continue
        if not hasattr(shape, "strokeColor") or hasattr(shape, "text"):
            continue  # text keeps its colour
        # a shape filled with its stroke colour (an arrowhead) follows `color`
        fill = getattr(shape, "fillColor", None)  # (a polyline has none)
        solid = fill is not None and fill == shape.strokeColor
        if "color" in attrs:
            put(shape, "strokeColor", _rl_color(attrs["color"]))
            if solid:
                put(shape, "fillColor", _rl_color(attrs["color"]))
        if "fillcolor" in attrs and fill is not None and not solid:
            put(shape, "fillColor", _rl_color(attrs["fillcolor"]))
        if "penwidth" in attrs:
            put(shape, "strokeWidth", float(attrs["penwidth"]))
        if "style" in attrs:
            dashed = "dashed" in attrs["style"].split(",")
            put(shape, "strokeDashArray", [5, 2] if dashed else None)
    return undo


def _write_grad(group: Any, grad: str) -> list[tuple[Any, str, Any]]:
    """Write ``grad`` into a tensor node's grad cell: the lines of no-break
    spaces under its "grad:" line (`dot.blank_grad`), cut to their size.
    Returns what to set back afterwards."""
    texts = [s for s in _strings(group)]
    heads = [i for i, s in enumerate(texts) if s.text.strip() == "grad:"]
    if not heads:
        return []
    cell = []
    for s in texts[heads[0] + 1 :]:
        if s.text.strip("\u00a0"):
            break
        cell.append(s)
    lines = fitted(grad, "\n".join(s.text for s in cell)).splitlines()
    undo = []
    for s, line in zip(cell, lines + [""] * len(cell)):
        undo.append((s, "text", s.text))
        s.text = line
    return undo


# The tags the widget draws over the picture (graph_view.css): the gradient
# an edge just carried, at its middle, and which repeat a folded block shows,
# over its top right corner. Every frame format draws them the same way.
EDGE_TAG = {"fill": "#fff3e0", "stroke": "#d55e00", "text": "#1a1a1a"}
FOLD_TAG = {"fill": "#f6eaf2", "stroke": "#cc79a7", "text": "#1a1a1a"}
TAG_EM = 0.8  # the tag's text to a node name's (the widget: 10 px to 12 pt)


@dataclasses.dataclass(frozen=True)
class Tag:
    """A tag in the engine SVG's coordinates (its graph group's, y down): the
    text's baseline starts at (x, y), or ends there when ``end``."""

    x: float
    y: float
    text: str
    pt: float
    colors: dict[str, str]
    bold: bool = False
    end: bool = False
    kind: str = "mg-edge-value"  # the widget's class for it (graph_view.css)
    # the edge's middle, when the tag had to move off it: a thin line joins
    # them (from the box's nearest point)
    lead: tuple[float, float] | None = None

    @property
    def font(self) -> str:
        return "Helvetica-Bold" if self.bold else "Helvetica"

    def width(self) -> float:
        """The text's width in points, in the Helvetica the SVG names first."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        return stringWidth(self.text, self.font, self.pt)

    def box(self, width: float) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the tag around text ``width`` wide."""
        left = self.x - width if self.end else self.x
        return (
            left - 3,
            self.y - 0.9 * self.pt,
            left + width + 3,
            self.y + 0.3 * self.pt,
        )

    def lead_line(self) -> tuple[float, float, float, float] | None:
        """(x0, y0, x1, y1): from the box's point nearest `lead` to it."""
        if self.lead is None:
            return None
        x0, y0, x1, y1 = self.box(self.width())
        ax, ay = self.lead
        return (min(max(ax, x0), x1), min(max(ay, y0), y1), ax, ay)


def edge_tag(
    points: list[float],
    value: str,
    pt: float,
    avoid: list[Box] = (),
    bounds: Box | None = None,
) -> Tag:
    """The tag of the gradient ``value`` on an edge drawn along ``points``:
    just right of and below its middle, as the widget puts it, unless that
    covers a box of ``avoid`` (nodes, edge labels, tags already placed) or
    leaves ``bounds``: then the free place nearest the middle (`_free_spot`).
    On a slide a short edge between two nodes has no room for a tag of
    lecture size at its middle: it covered a node's name there."""
    x, y = _middle(points)
    tag = Tag(x + 4, y + 4, value, pt, EDGE_TAG)
    return _free_spot(tag, (x, y), avoid, bounds)


# Tags keep this far (points) from a node's or another tag's box, and move at
# most TAG_REACH tag heights away from their edge's middle looking for room
# (a wide tag on a short edge between two wide nodes: beside the nodes).
TAG_GAP = 2.0
TAG_REACH = 8.0


def _free_spot(
    tag: Tag, anchor: tuple[float, float], avoid: list[Box], bounds: Box | None
) -> Tag:
    """``tag`` moved to the place nearest ``anchor`` where its box meets no
    box of ``avoid`` and stays inside ``bounds`` (its own place first); if
    there is none within `TAG_REACH` tag heights, the place covering the
    least of them."""
    width = tag.width()
    x0, y0, x1, y1 = tag.box(width)
    w, h = x1 - x0, y1 - y0
    ax, ay = anchor
    # only the boxes a spot within reach can meet (a big graph has hundreds)
    near = (ax - w - (TAG_REACH + 1) * h, ay - (TAG_REACH + 2) * h)
    near += (ax + w + (TAG_REACH + 1) * h, ay + (TAG_REACH + 2) * h)
    avoid = [b for b in avoid if _overlap(_grown(b, TAG_GAP), near) > 0]

    def cost(left: float, top: float) -> float:
        box = (left, top, left + w, top + h)
        covered = sum(_overlap(box, _grown(b, TAG_GAP)) for b in avoid)
        if bounds is not None:  # (outside the drawing a tag is cut off)
            inside = _overlap(box, bounds)
            covered += 4 * (w * h - inside)
        return covered

    if cost(x0, y0) == 0:
        return tag
    step = h / 4
    reach = int(TAG_REACH * h / step)
    spots = []
    for i in range(-reach - int(w / step), reach + 1):
        for j in range(-reach - 4, reach + 1):
            left, top = ax + i * step, ay + j * step
            # the distance from the edge's middle to the box
            dx = max(left - ax, 0.0, ax - (left + w))
            dy = max(top - ay, 0.0, ay - (top + h))
            if math.hypot(dx, dy) <= TAG_REACH * h:
                spots.append((math.hypot(dx, dy), abs(j), left, top))
    spots.sort()
    best, least = (x0, y0), cost(x0, y0)
    for _d, _j, left, top in spots:
        c = cost(left, top)
        if c < least:
            best, least = (left, top), c
            if c == 0:
                break
    dx, dy = best[0] - x0, best[1] - y0
    left, top = best
    off = math.hypot(
        max(left - ax, 0.0, ax - left - w), max(top - ay, 0.0, ay - top - h)
    )
    lead = anchor if off > h / 2 else None
    return dataclasses.replace(tag, x=tag.x + dx, y=tag.y + dy, lead=lead)


Box = tuple[float, float, float, float]  # (left, top, right, bottom)


class Obstacle(tuple):
    """A box (left, top, right, bottom) tags must not cover, in the graph
    group's coordinates: a node's shape or an edge's label (`svg_geometry`)."""


def _grown(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _overlap(a: Box, b: Box) -> float:
    """The area two boxes share."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def fold_tag(box: tuple[float, float, float, float], note: str, pt: float) -> Tag:
    """The tag over a folded block's box (left, top, right, bottom) saying
    which repeat it shows: "× 99: repeat 8 of 99 running (7 done)"."""
    return Tag(
        box[2] - 6, box[1] - 5, note, pt, FOLD_TAG, bold=True, end=True,
        kind="mg-fold-tag",
    )  # fmt: skip


def frame_tags(
    geometry: dict[str, Any],
    edges: dict[str, str],
    folds: dict[str, str],
    pt: float,
) -> list[Tag]:
    """A frame's tags: ``edges`` (SVG id -> gradient) and ``folds`` (SVG id of
    a folded block -> its note), placed by ``geometry`` (`svg_geometry`):
    the fold tags over their blocks, then each edge's tag where it covers
    no node, edge label or tag placed before it (`edge_tag`)."""
    tags = [
        fold_tag(geometry[sid], note, pt)
        for sid, note in folds.items()
        if isinstance(geometry.get(sid), tuple)
        and not isinstance(geometry[sid], Obstacle)
    ]
    avoid: list[Box] = [v for v in geometry.values() if isinstance(v, Obstacle)]
    avoid += [t.box(t.width()) for t in tags]
    bounds = geometry.get(BOUNDS)
    edge_tags = []
    for sid, value in edges.items():
        points = geometry.get(sid)
        if isinstance(points, list) and len(points) >= 8:
            tag = edge_tag(points, value, pt, avoid, bounds)
            avoid.append(tag.box(tag.width()))
            edge_tags.append(tag)
    return edge_tags + tags


def svg_geometry(svg: str) -> tuple[tuple[float, float], dict[str, Any]]:
    """The graph group's translation and, by element id, each edge's path
    (x0 y0 then 6 numbers a cubic segment) and each cluster's box (left,
    top, right, bottom), in the group's coordinates, from an engine SVG (or
    a page or captioned frame holding one: its part "graph0",
    `render.placed_svg`). Also the boxes tags must keep off: each node's
    shape (an `Obstacle` under the node's id) and each edge label's text
    (under the edge's id + ":label" + its number), and under `BOUNDS` the
    drawing's own box."""
    root = ET.fromstring(svg[svg.index("<svg") :])
    graphs = [g for g in root.iter(f"{_SVG}g") if g.get("class") == "graph"]
    graph = next((g for g in graphs if g.get("id") == "graph0"), graphs[0])
    m = re.search(r"translate\(([-\d.]+)[ ,]([-\d.]+)\)", graph.get("transform", ""))
    shift = (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)
    out: dict[str, Any] = {}
    back = graph.find(f"{_SVG}polygon")
    if back is not None:
        out[BOUNDS] = _shape_box(back)
    for g in graph.iter(f"{_SVG}g"):
        kind, gid = (g.get("class") or "").split(), g.get("id")
        if "edge" in kind:
            path = g.find(f"{_SVG}path")
            if path is not None:
                out[gid] = [float(v) for v in re.findall(r"-?[\d.]+", path.get("d"))]
            for i, text in enumerate(g.iter(f"{_SVG}text")):
                out[f"{gid}:label{i}"] = Obstacle(_text_box(text))
        elif "node" in kind:
            boxes = [
                _shape_box(s)
                for s in g.iter()
                if s.tag in (f"{_SVG}polygon", f"{_SVG}ellipse", f"{_SVG}path")
            ]
            boxes = [b for b in boxes if b is not None]
            if boxes:
                out[gid] = Obstacle(
                    (
                        min(b[0] for b in boxes),
                        min(b[1] for b in boxes),
                        max(b[2] for b in boxes),
                        max(b[3] for b in boxes),
                    )
                )
        elif "cluster" in kind:
            shape = g.find(f"{_SVG}polygon")
            if shape is None:
                shape = g.find(f"{_SVG}path")
            if shape is not None:
                out[gid] = _shape_box(shape)
    return shift, out


BOUNDS = "(bounds)"  # svg_geometry's key of the drawing's box (no SVG id)


def _shape_box(shape: ET.Element) -> Box | None:
    """(left, top, right, bottom) of an SVG polygon, path or ellipse."""
    if shape.tag == f"{_SVG}ellipse":
        cx, cy, rx, ry = (float(shape.get(k, 0)) for k in ("cx", "cy", "rx", "ry"))
        return (cx - rx, cy - ry, cx + rx, cy + ry)
    text = shape.get("points") or shape.get("d") or ""
    nums = [float(v) for v in re.findall(r"-?[\d.]+", text)]
    if len(nums) < 2:
        return None
    xs, ys = nums[0::2], nums[1::2]
    return (min(xs), min(ys), max(xs), max(ys))


def _text_box(text: ET.Element) -> Box:
    """About where an SVG text's line is: its Helvetica width, from a bit
    above its capitals to under its descenders."""
    x, y = float(text.get("x", 0)), float(text.get("y", 0))
    size = float(text.get("font-size", 14))
    bold = text.get("font-weight") == "bold"
    width = _text_width(
        text.text or "", size, "Helvetica-Bold" if bold else "Helvetica"
    )
    anchor = text.get("text-anchor", "start")
    left = x - (width / 2 if anchor == "middle" else width if anchor == "end" else 0)
    return (left, y - 0.9 * size, left + width, y + 0.25 * size)


_SVG = "{http://www.w3.org/2000/svg}"


def _rl_tag(tag: Tag) -> Any:
    """The tag as a reportlab group, in the SVG's coordinates (y down)."""
    from reportlab.graphics.shapes import Group, Line, Rect, String

    width = tag.width()
    left = -width if tag.end else 0.0
    box = Rect(left - 3, -0.3 * tag.pt, width + 6, 1.2 * tag.pt, rx=3, ry=3)
    box.strokeWidth = 0.8
    box.fillColor = _rl_color(tag.colors["fill"])
    box.strokeColor = _rl_color(tag.colors["stroke"])
    text = String(left, 0, tag.text, fontName=tag.font, fontSize=tag.pt)
    text.fillColor = _rl_color(tag.colors["text"])
    shapes = [box, text]
    line = tag.lead_line()
    if line is not None:  # (in the tag's flipped coordinates)
        x0, y0, x1, y1 = line
        lead = Line(x0 - tag.x, tag.y - y0, x1 - tag.x, tag.y - y1)
        lead.strokeColor = _rl_color(tag.colors["stroke"])
        lead.strokeWidth = 1.2
        shapes.insert(0, lead)
    # (the drawing's y axis points down, as in SVG: the tag is flipped back)
    return Group(*shapes, transform=(1, 0, 0, -1, tag.x, tag.y))


def _add_tags(group: Any, tags: list[Tag]) -> list[tuple[Any, str, Any]]:
    """Draw ``tags`` last in ``group`` (over everything); returns the undo."""
    if not tags:
        return []
    undo = [(group, "contents", group.contents)]
    group.contents = [*group.contents, *(_rl_tag(t) for t in tags)]
    return undo


def svg_with_tags(svg: str, tags: list[Tag]) -> str:
    """An engine SVG with ``tags`` drawn last in its graph group (over
    everything, in the group's coordinates), each a ``<g>`` of the widget's
    class (``mg-edge-value``, ``mg-fold-tag``) holding a rect and its text,
    coloured inline as the PDF pages colour them."""
    if not tags:
        return svg
    family = html.escape(render.FAMILIES["Arial"])
    out = ['<g class="mg-overlay">']
    for tag in tags:
        x0, y0, x1, y1 = tag.box(tag.width())
        c = tag.colors
        weight = ' font-weight="bold"' if tag.bold else ""
        line = tag.lead_line()
        lead = (
            ""
            if line is None
            else '<line x1="{:.2f}" y1="{:.2f}" x2="{:.2f}" y2="{:.2f}" '.format(*line)
            + f'stroke="{c["stroke"]}" stroke-width="1.2"/>'
        )
        out.append(
            f'<g class="{tag.kind}">{lead}<rect x="{x0:.2f}" y="{y0:.2f}" '
            f'width="{x1 - x0:.2f}" height="{y1 - y0:.2f}" rx="3" '
            f'fill="{c["fill"]}" stroke="{c["stroke"]}" stroke-width="0.8"/>'
            f'<text x="{tag.x:.2f}" y="{tag.y:.2f}" '
            f'text-anchor="{"end" if tag.end else "start"}" font-family="{family}" '
            f'font-size="{tag.pt:.2f}"{weight} fill="{c["text"]}">'
            f"{html.escape(tag.text, quote=False)}</text></g>"
        )
    out.append("</g>\n")
    end = svg.rindex("</g>")  # the graph group's end: the engine's last </g>
    return svg[:end] + "\n".join(out) + svg[end:]


def paint_tags(
    picture: Any, tags: list[Tag], shift: tuple[float, float], px: float
) -> Any:
    """``picture`` (a PIL image of the engine's PNG of that SVG, ``px`` pixels
    a point) with ``tags`` drawn on it, as the PDF pages draw them."""
    if not tags:
        return picture
    from PIL import ImageDraw

    picture = picture.convert("RGB")
    draw = ImageDraw.Draw(picture)
    for tag in tags:
        font = _tag_font(tag.pt * px, tag.bold)
        width = draw.textlength(tag.text, font=font) / px
        x0, y0, x1, y1 = tag.box(width)
        box = [((v + d) * px) for v, d in zip((x0, y0, x1, y1), shift * 2)]
        line = tag.lead_line()
        if line is not None:
            draw.line(
                [((v + d) * px) for v, d in zip(line, shift * 2)],
                fill=tag.colors["stroke"],
                width=max(1, round(1.2 * px)),
            )
        draw.rounded_rectangle(
            box,
            radius=3 * px,
            fill=tag.colors["fill"],
            outline=tag.colors["stroke"],
            width=max(1, round(0.8 * px)),
        )
        left = tag.x - width if tag.end else tag.x
        draw.text(
            ((left + shift[0]) * px, (tag.y + shift[1]) * px),
            tag.text,
            font=font,
            fill=tag.colors["text"],
            anchor="ls",  # (x, y): the start of the baseline, as in the PDF
        )
    return picture


def _tag_font(size_px: float, bold: bool = False) -> Any:
    """A Helvetica-like font for the tags of raster frames: a system one where
    there is one, else Pillow's own (scalable since Pillow 10.1)."""
    from PIL import ImageFont

    names = (
        (
            "Arial Bold.ttf",
            "arialbd.ttf",
            "LiberationSans-Bold.ttf",
            "DejaVuSans-Bold.ttf",
        )
        if bold
        else ("Arial.ttf", "arial.ttf", "LiberationSans-Regular.ttf", "DejaVuSans.ttf")
    )
    size = max(1.0, size_px)
    for name in names:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size)


def _middle(points: list[float]) -> tuple[float, float]:
    """The point half way along a path of cubic Béziers (x0 y0, then 6
    numbers a segment), as the widget finds it (``getPointAtLength`` of
    half the length): each segment walked in `_MIDDLE_STEPS` straight steps.
    (The joint between the middle segments can sit at one end of a long
    curved edge: the tag covered the node there.)"""
    walk = [(points[0], points[1])]
    for i in range(2, len(points) - 5, 6):
        x0, y0 = walk[-1]
        x1, y1, x2, y2, x3, y3 = points[i : i + 6]
        for k in range(1, _MIDDLE_STEPS + 1):
            t = k / _MIDDLE_STEPS
            a, b, c, d = (1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t**3
            walk.append(
                (a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3)
            )
    steps = [math.dist(p, q) for p, q in zip(walk, walk[1:])]
    left = sum(steps) / 2
    for (p, q), step in zip(zip(walk, walk[1:]), steps):
        if step >= left and step > 0:
            share = left / step
            return p[0] + (q[0] - p[0]) * share, p[1] + (q[1] - p[1]) * share
        left -= step
    return walk[-1]


_MIDDLE_STEPS = 24  # straight steps a Bézier segment is measured in


def _strings(node: Any) -> Any:
    """The text strings of a reportlab group, in drawing order."""
    for child in getattr(node, "contents", ()):
        if hasattr(child, "contents"):
            yield from _strings(child)
        elif hasattr(child, "text"):
            yield child


def _rl_color(value: str) -> Any:
    """A DOT colour (a name, #rrggbb or #rrggbbaa) as a reportlab colour."""
    from reportlab.lib import colors

    if re.fullmatch(r"#[0-9a-fA-F]{8}", value):
        r, g, b, a = (int(value[i : i + 2], 16) / 255 for i in (1, 3, 5, 7))
        return colors.Color(r, g, b, alpha=a)
    return colors.toColor(value)


def _need_pillow(what: str = "GIF export") -> Any:
    try:
        from PIL import Image
    except ImportError as exc:
        raise ImportError(
            f"{what} needs Pillow: `pip install pillow` (or export frames with "
            "fmt='svg' or a PDF)"
        ) from exc
    return Image


def gif(pngs: list[bytes], frame_ms: int = 800) -> bytes:
    """An animated GIF from PNG frames of one size (loops forever)."""
    image = _need_pillow()
    # Graph drawings have few colours: a fast palette is 3x quicker than the
    # default quantizer and looks the same.
    frames = [
        image.open(io.BytesIO(p))
        .convert("RGB")
        .quantize(method=image.Quantize.FASTOCTREE)
        for p in pngs
    ]
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=frame_ms,
        loop=0,
    )
    return out.getvalue()
