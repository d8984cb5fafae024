"""`Drawing`: what `backward_graph` / `forward_graph` return.

A Drawing holds the graph model and the look (theme, direction, legend...). It
shows itself inline in Jupyter as SVG, gives its DOT text (`.source`), and saves
SVG / PNG / PDF / DOT files for slides (`.save("loss.pdf", size="slide")`).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any, Literal

import graphviz

from . import render
from .dot import (
    DETAILS,
    LIGHT_COPIES_ABOVE,
    THEMES,
    backward_dot,
    collapse_forward_to_fit,
    collapse_to_fit,
    fold_to_fit,
    forward_dot,
    forward_nodes,
    legend_rows,
    page_parts,
    shared_copies,
    shared_forward_copies,
    title_dot,
)
from .graph import (
    DEFAULT_MAX_NODES,
    Fold,
    Graph,
    build_graph,
    forward_clusters,
    forward_view,
    grouped,
)

# Slide presets, in inches: pages of exactly that size, the graph scaled to
# fit, lecture-sized text, a one-row legend, room for a title. A (w, h) size
# in inches is an upper bound instead (Graphviz shrinks a larger drawing).
SIZES: dict[str, tuple[float, float]] = {
    "slide": (40 / 3, 7.5),  # 16:9 (13.33 in)
    "slide43": (10.0, 7.5),  # 4:3
    "slide-4:3": (10.0, 7.5),  # (the same, by its older name)
    "half-slide": (6.5, 7.5),  # one column of a two-column slide
}
DEFAULT_DPI = 150
LEGEND_MIN_SCALE = 0.4  # a slide's legend row smaller than this wraps in two
DPI_RANGE = (10, 600)  # 600 dpi is print quality; more only makes huge files
FORMATS = {".svg": "svg", ".png": "png", ".pdf": "pdf", ".dot": "dot", ".gv": "dot"}
RANKDIRS = ("TB", "LR", "BT", "RL")

Size = str | tuple[float, float] | None


@dataclasses.dataclass(frozen=True)
class Options:
    """How a drawing looks; `Drawing.save` can override any of them."""

    theme: str = "light"
    rankdir: str = "TB"
    legend: bool | None = None  # None: off inline, on in saved files
    size: Size = None
    engine: str = "auto"
    show_saved: bool = True
    show_values: bool = True
    show_attrs: bool = True
    id_prefix: str = ""
    compact: bool | None = None  # None: automatic, by node count
    split_shared: bool | None = None  # None: automatic, by node count
    collapse: bool | None = None  # None: automatic, above dot.COLLAPSE_ABOVE
    fold: bool | None = None  # None: automatic, above dot.FOLD_ABOVE
    group: bool = False  # a box around each module's nodes
    depth: int | None = None  # modules this deep drawn as one box each
    detail: str = "beginner"  # or "expert": every attribute PyTorch saved
    title: str | None = None  # above the graph (slides)
    # the stepper screen's layout: smaller gaps, leaves beside their
    # AccumulateGrad (see dot.backward_dot)
    dense: bool = False
    leaf_beside: bool = False
    # boxes drawn open: module boxes ("module-fc1") and folds ("fold0") by id
    expand: frozenset[str] = frozenset()

    @property
    def page(self) -> tuple[float, float] | None:
        """The page in inches when ``size`` is a slide preset, else None."""
        return SIZES[self.size] if isinstance(self.size, str) else None

    def check(self) -> Options:
        if self.theme not in THEMES:
            raise ValueError(f"theme must be one of {list(THEMES)}, not {self.theme!r}")
        if self.rankdir not in RANKDIRS:
            raise ValueError(f"rankdir must be one of {RANKDIRS}, not {self.rankdir!r}")
        if self.engine not in render.ENGINES:
            raise ValueError(f"engine must be one of {render.ENGINES}")
        if self.detail not in DETAILS:
            raise ValueError(f"detail must be one of {DETAILS}, not {self.detail!r}")
        if self.depth is not None and (
            isinstance(self.depth, bool)
            or not isinstance(self.depth, int)
            or self.depth < 1
        ):
            raise ValueError(f"depth must be 1 or more, not {self.depth!r}")
        _size_attr(self.size)
        if not isinstance(self.expand, frozenset):  # any collection of ids
            if isinstance(self.expand, str):
                raise TypeError("expand must be a collection of box ids, not a str")
            return dataclasses.replace(self, expand=frozenset(self.expand))
        return self


def _size_attr(size: Size) -> str | None:
    """DOT ``size`` from a preset name or ``(width, height)`` in inches."""
    if size is None:
        return None
    if isinstance(size, str):
        if size not in SIZES:
            raise ValueError(f"size must be one of {list(SIZES)} or (w, h) inches")
        size = SIZES[size]
    w, h = size
    if not (w > 0 and h > 0):
        raise ValueError(f"size must be positive, got {size!r}")
    return f"{w:g},{h:g}"


def check_dpi(dpi: float | None) -> float | None:
    """``dpi`` itself, or ValueError when it is outside `DPI_RANGE`."""
    low, high = DPI_RANGE
    if dpi is not None and not (low <= dpi <= high):
        raise ValueError(f"dpi must be between {low} and {high}, got {dpi!r}")
    return dpi


def check_parent(path: Path) -> Path:
    """``path``, once its folder exists.

    The file's own folder is created when its parent exists (``slides/x.pdf``
    next to a notebook); a longer missing path is refused, naming the first
    missing folder (likely a typo), and so is a file standing in the path.
    """
    parent = path.parent
    for folder in (parent, *parent.parents):
        if folder.exists() and not folder.is_dir():
            raise NotADirectoryError(
                f"cannot write {str(path)!r}: {str(folder)!r} is a file, not a folder"
            )
    if not parent.is_dir():
        if not parent.parent.is_dir():
            missing = next(f for f in reversed(parent.parents) if not f.is_dir())
            raise FileNotFoundError(
                f"cannot write {str(path)!r}: the folder {str(missing)!r} does not "
                "exist (create it first)"
            )
        parent.mkdir()
    return path


class Drawing:
    """A drawn autograd graph: inline SVG in Jupyter, files for slides."""

    def __init__(
        self, graph: Graph, view: Literal["backward", "forward"], options: Options
    ) -> None:
        self.graph = graph
        self.view = view
        self.options = options.check()
        self._svg: dict[Options, str] = {}
        self._roomy: dict[Options, bool] = {}  # (`_digraph`: one layout each)

    # -- DOT -------------------------------------------------------------

    def _resolved(self, export: bool, **overrides: Any) -> Options:
        given = {k: v for k, v in overrides.items() if v is not None}
        opts = dataclasses.replace(self.options, **given).check()
        if opts.legend is None:
            opts = dataclasses.replace(opts, legend=export)
        return opts

    def digraph(self) -> graphviz.Digraph:
        """The `graphviz.Digraph`, as shown inline."""
        return self._digraph(self._resolved(export=False))

    def _digraph(self, o: Options) -> graphviz.Digraph:
        """The DOT of ``o``; a slide's ranks further apart when at the usual
        gap an edge's words would lie over a node (`_labels_collide`)."""
        dot = self._digraph_at(o, roomy=False)
        if o.page is None or o.dense:
            return dot
        if o not in self._roomy:
            self._roomy[o] = _labels_collide(render.svg(dot.source, o.engine))
        return self._digraph_at(o, roomy=True) if self._roomy[o] else dot

    def _digraph_at(self, o: Options, roomy: bool) -> graphviz.Digraph:
        common = dict(
            theme=o.theme,
            rankdir=o.rankdir,
            show_values=o.show_values,
            legend=bool(o.legend),
            size=None if o.page else _size_attr(o.size),  # a page is fitted later
            slide=o.page is not None,
            title=o.title,
            prefix=o.id_prefix,
            compact=o.compact,
            detail=o.detail,
            dense=o.dense,
            roomy=roomy,
        )
        graph = self._shown_graph(o)
        group = o.group or o.depth is not None
        if self.view == "forward":
            fv = forward_view(graph)
            clusters = forward_clusters(graph, fv) if group else None
            return forward_dot(
                fv, split_shared=o.split_shared, clusters=clusters, **common
            )
        return backward_dot(
            graph,
            leaf_beside=o.leaf_beside,
            show_saved=o.show_saved,
            show_attrs=o.show_attrs,
            split_shared=o.split_shared,
            group=group,
            **common,
        )

    def _shown_graph(self, o: Options) -> Graph:
        """The model as drawn: repeated blocks folded, a huge backward graph
        collapsed to its part nearest the outputs."""
        graph = self.graph
        if o.depth is not None:
            graph = grouped(graph, o.depth, o.expand)
        graph = fold_to_fit(graph, o.show_saved, o.fold, o.expand)
        if o.collapse is not False and self.view == "backward":
            graph = collapse_to_fit(graph, o.show_saved)
        elif o.collapse is not False:
            graph = collapse_forward_to_fit(graph)
        return graph

    @property
    def folds(self) -> list[Fold]:
        """The repeated blocks drawn once (empty when nothing was folded)."""
        return self._shown_graph(self._resolved(export=False)).folds

    @property
    def drawn_ids(self) -> dict[str, list[str]]:
        """Model id -> all its drawn ids, for ids drawn more than once (a shared
        leaf drawn once per use); highlight them together."""
        o = self._resolved(export=False)
        graph = self._shown_graph(o)
        if self.view == "forward":
            copies: dict[str, list[str]] = {}
            fv = forward_view(graph)
            for (tid, _op), did in shared_forward_copies(fv, o.split_shared).items():
                copies.setdefault(tid, []).append(did)
            return copies
        return shared_copies(graph, o.show_saved, o.split_shared)

    @property
    def grad_cell_ids(self) -> dict[str, list[str]]:
        """`drawn_ids`, keeping only the copies whose label has the tensor's
        grad cell: a big forward drawing draws a shared leaf's values and
        grad once, at its first use (`dot.LIGHT_COPIES_ABOVE`)."""
        copies = self.drawn_ids
        if self.view == "forward":
            fv = forward_view(self._shown_graph(self._resolved(export=False)))
            if forward_nodes(fv) > LIGHT_COPIES_ABOVE:
                return {tid: ids[:1] for tid, ids in copies.items()}
        return copies

    @property
    def source(self) -> str:
        """DOT text of the drawing as shown inline."""
        return self.digraph().source

    # -- rendering ---------------------------------------------------------

    def _svg_for(self, opts: Options) -> str:
        if opts not in self._svg:
            if opts.page:
                page = (opts.page[0] * 72, opts.page[1] * 72)
                parts = {k: svg for k, (_dot, svg) in self._page_parts(opts).items()}
                svg = render.page_svg(page, parts, THEMES[opts.theme].background)
            else:
                svg = render.svg(self._digraph(opts).source, opts.engine)
            self._svg[opts] = svg
        return self._svg[opts]

    def _page_parts(self, opts: Options) -> dict[str, tuple[str, str]]:
        """A slide's parts, each laid out alone: name ("title", "graph",
        "legend") -> (DOT, SVG)."""
        graph, legend = page_parts(self._digraph(opts))
        sources = {"graph": graph}
        if opts.title:
            sources["title"] = title_dot(opts.title, opts.theme)
        parts = {k: (src, render.svg(src, opts.engine)) for k, src in sources.items()}
        if legend is not None:
            # one row, unless the page is so narrow that it would shrink below
            # LEGEND_MIN_SCALE: then two, at nearly twice the size
            one = (legend, render.svg(legend, opts.engine))
            width = opts.page[0] * 72 - 2 * render.PAGE_MARGIN_PT
            if width / render.natural_size(one[1])[0] < LEGEND_MIN_SCALE:
                two = legend_rows(legend, 2)
                one = (two, render.svg(two, opts.engine))
            parts["legend"] = one
        return parts

    def svg(self) -> str:
        """SVG text, laid out by `engine` (cached)."""
        return self._svg_for(self._resolved(export=False))

    def save(
        self,
        path: str | Path,
        *,
        size: Size = None,
        dpi: float | None = None,
        theme: str | None = None,
        rankdir: str | None = None,
        legend: bool | None = None,
        engine: str | None = None,
        title: str | None = None,
    ) -> Path:
        """Write ``.svg``, ``.png``, ``.pdf`` or ``.dot`` (by extension).

        ``size``: "slide" (16:9), "slide43" (4:3) or "half-slide" give a page
        of exactly that size (13.333 x 7.5 in for "slide") with lecture-sized
        text and a one-row legend, the graph scaled to fit; (w, h) inches is
        an upper bound. ``title``: a line above the graph. ``dpi`` for PNG
        (default 150, written into the file); the legend is on unless
        ``legend=False``. Returns the path written.
        """
        path = check_parent(Path(path))
        check_dpi(dpi)
        fmt = FORMATS.get(path.suffix.lower())
        if fmt is None:
            raise ValueError(
                f"cannot tell the format of {path.name!r}: use one of "
                + ", ".join(FORMATS)
            )
        opts = self._resolved(
            export=True,
            size=size,
            theme=theme,
            rankdir=rankdir,
            legend=legend,
            engine=engine,
            title=title,
        )
        source = self._digraph(opts).source
        dpi = dpi or DEFAULT_DPI
        background = THEMES[opts.theme].background
        if fmt == "dot":
            data = source.encode("utf-8")
        elif fmt == "svg":
            data = self._svg_for(opts).encode("utf-8")
        elif fmt == "png" and opts.page:
            parts = self._page_parts(opts)
            data = render.page_png(opts.page, dpi, parts, background, opts.engine)
        elif fmt == "png":
            data = render.png_with_dpi(render.png(source, opts.engine, dpi), dpi)
        elif opts.page:  # the composed page, as SVG -> PDF
            data = render.svg_to_pdf(self._svg_for(opts))
        else:
            data = render.pdf(source, opts.engine)
        path.write_bytes(data)
        return path

    # -- Jupyter -----------------------------------------------------------

    def _repr_html_(self) -> str:
        """The SVG inline, scaled down to the output column; a click toggles
        full size (`fit_html`)."""
        return fit_html(self.svg())

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        # Errors propagate: IPython shows the traceback instead of a blank cell.
        # Front ends prefer text/html (it fits the column); the SVG stays for
        # tools that only take pictures.
        svg = self.svg()
        return {
            "text/html": fit_html(svg),
            "image/svg+xml": svg,
            "text/plain": repr(self),
        }

    def __repr__(self) -> str:
        g = self.graph
        return (
            f"<viz.Drawing {self.view} graph: {len(g.functions)} functions, "
            f"{len(g.shown_tensors)} tensors, {len(g.saved)} saved>"
        )


# A drawing wider than the output column is scaled down to it (aspect kept),
# but not below FIT_MIN_SCALE, where 10 pt node text is 9 px (the stepper's
# least zoom): lesson 09's training step in JupyterLab at 1366x768 had 6 px
# text; past that it scrolls sideways in its box. A click shows it at full
# size and another fits it again. The rules go in a <style> and, for the
# fitted look, inline on the <svg> too.
FIT_MIN_SCALE = 0.7
FIT_CSS = (
    ".mg-fit{max-width:100%;overflow-x:auto}"
    ".mg-fit>svg{max-width:100%;height:auto;cursor:zoom-in}"
    ".mg-fit.mg-full>svg{max-width:none!important;cursor:zoom-out}"
)
_SVG_START = re.compile(r"<svg\b")
_SVG_WIDTH = re.compile(r'<svg\b[^>]*?\swidth="([\d.]+)(pt|px)?"')


def fit_html(svg_text: str) -> str:
    """HTML for a notebook output: the SVG (without its XML prolog) in a box
    that fits it to the column; clicking toggles its natural size."""
    body = svg_text[svg_text.index("<svg") :]
    style = "max-width:100%;height:auto"
    width = _SVG_WIDTH.match(body)
    if width:  # (min-width wins over max-width: the floor holds)
        px = float(width[1]) * (4 / 3 if width[2] == "pt" else 1)
        style += f";min-width:{px * FIT_MIN_SCALE:.0f}px"
    body = _SVG_START.sub(f'<svg style="{style}"', body, count=1)
    toggle = "this.classList.toggle('mg-full')"
    # Enter or space too; kept from the notebook (Enter would edit the cell)
    stop = "event.preventDefault();event.stopPropagation()"
    keys = f"if(event.key==='Enter'||event.key===' '){{{toggle};{stop}}}"
    return (
        f'<div class="mg-fit" title="click: full size / fit to the column" '
        f'tabindex="0" role="button" aria-label="drawing: toggle full size" '
        f'onclick="{toggle}" onkeydown="{keys}"><style>{FIT_CSS}</style>{body}</div>'
    )


def _labels_collide(svg: str) -> bool:
    """Whether an edge's words lie over a node's box in an engine SVG."""
    # (export reads SVG geometry for the frames' tags; it imports this module)
    from .export import Obstacle, svg_geometry

    _shift, geometry = svg_geometry(svg)
    labels = [b for k, b in geometry.items() if ":label" in k]
    nodes = [
        b for k, b in geometry.items() if isinstance(b, Obstacle) and ":label" not in k
    ]
    # (a label's box is its line's, a bit taller than its ink: 2 pt of slack)
    return any(
        min(a[2], b[2]) - max(a[0], b[0]) > 2 and min(a[3], b[3]) - max(a[1], b[1]) > 2
        for a in labels
        for b in nodes
    )


def _drawing(view, outputs, params, max_nodes, **options) -> Drawing:
    if len(outputs) == 1:
        outputs = outputs[0]
    opts = Options(**options).check()  # bad options fail before the walk
    # The limit counts what is drawn: saved tensors unless show_saved=False
    # hides them (the forward view draws them as the ops' output tensors).
    count_saved = view == "forward" or opts.show_saved
    graph = build_graph(
        outputs, params=params, max_nodes=max_nodes, count_saved=count_saved
    )
    return Drawing(graph, view, opts)


def backward_graph(
    *outputs: Any,
    params: Any = None,
    show_saved: bool = True,
    show_values: bool = True,
    show_attrs: bool = True,
    theme: str = "light",
    rankdir: str = "TB",
    legend: bool | None = None,
    size: Size = None,
    engine: str = "auto",
    max_nodes: int = DEFAULT_MAX_NODES,
    id_prefix: str = "",
    compact: bool | None = None,
    split_shared: bool | None = None,
    collapse: bool | None = None,
    detail: str = "beginner",
    fold: bool | None = None,
    group: bool = False,
    depth: int | None = None,
) -> Drawing:
    """Draw the graph autograd built behind ``outputs``.

    Shows every grad_fn node by its PyTorch name, ``next_functions`` edges
    (labelled with ``output_nr`` for multi-output nodes), ``AccumulateGrad``
    nodes with their leaf ``variable``, the outputs (double border) with their
    ``grad_fn``, saved tensors per (node, slot) with shape, values and version,
    linked (dotted) to the leaf or output they are, and non-tensor saved
    attributes (``exponent=2``, ``dim=(1,)``...). Hooks and ``retains_grad``
    are written in the labels.

    ``outputs``: tensors, or a tuple / list / dict of them (dict keys are names).
    ``params``: dict name -> tensor (e.g. ``dict(model.named_parameters())``),
    or an ``nn.Module`` (its parameter names, and its module classes for
    ``group`` and ``depth``);
    other tensors are labelled by their shape.
    ``show_attrs``: the non-tensor saved attributes; ``show_values``: numbers.
    ``theme``: "light" or "dark"; ``rankdir``: "TB", "LR", "BT" or "RL".
    ``legend``: None means off inline and on in saved files.
    ``engine``: "auto", "system" (Graphviz ``dot``) or "pure" (graphviz-pure).
    ``max_nodes``: refuse larger graphs (raises `GraphTooLargeError`).
    ``id_prefix``: prepended to SVG ids when several drawings share a page.
    ``compact``: drop edge labels and saved->tensor links for a fast layout;
    None (default) turns it on above a few hundred nodes.
    ``split_shared``: draw a leaf used by several nodes (a weight shared by the
    steps of a loop) once per use, marked "N uses", so the layout stays fast;
    None (default) turns it on above a few dozen nodes (in the backward view,
    above a few hundred only its AccumulateGrad, naming it; the leaf once).
    ``collapse``: a graph too large to lay out in seconds (thousands of
    nodes) is drawn as its part nearest the outputs plus one box saying how
    many nodes were left out; False draws everything (it may take minutes).
    ``fold``: a block that repeats several times in a row (the steps of a
    recurrent loop) is drawn once, in a box saying "× 100" and how many
    nodes it stands for; None (default) folds graphs of more than a few
    hundred nodes, False draws every repeat.
    ``group``: a box around each module's nodes, named from the parameter
    names (``params=model`` also gives the class: "Linear fc1"); a nested
    module's box (``encoder.0``) sits inside its parent's (``encoder``).
    ``depth``: draw each module that deep (1: ``fc1`` or ``encoder``, 2:
    ``encoder.0``) as one box with its in- and out-edges, saying how many
    autograd nodes and which parameters it stands for
    ("Sequential encoder (3 layers)"); shallower modules are drawn as boxes
    around their parts.
    ``detail``: "beginner" (default) hides PyTorch internals (``*_sym_sizes``,
    ``*_sym_strides``, slots left None), prints enums by name
    (``reduction='mean'``, ``ignore_index=-100``), "scalar" for 0-d tensors
    and ``_version`` only where an in-place change explains it; "expert"
    shows everything PyTorch saved as it is.
    Works for minigrad and torch tensors (viz never imports either).
    """
    return _drawing(
        "backward",
        outputs,
        params,
        max_nodes,
        show_saved=show_saved,
        show_values=show_values,
        show_attrs=show_attrs,
        theme=theme,
        rankdir=rankdir,
        legend=legend,
        size=size,
        engine=engine,
        id_prefix=id_prefix,
        compact=compact,
        split_shared=split_shared,
        collapse=collapse,
        detail=detail,
        fold=fold,
        group=group,
        depth=depth,
    )


def forward_graph(
    *outputs: Any,
    params: Any = None,
    show_values: bool = True,
    theme: str = "light",
    rankdir: str = "TB",
    legend: bool | None = None,
    size: Size = None,
    engine: str = "auto",
    max_nodes: int = DEFAULT_MAX_NODES,
    id_prefix: str = "",
    compact: bool | None = None,
    detail: str = "beginner",
    split_shared: bool | None = None,
    collapse: bool | None = None,
    fold: bool | None = None,
    group: bool = False,
    depth: int | None = None,
) -> Drawing:
    """Draw the computation as written: tensors and the ops between them.

    Leaves are green, non-leaf tensors blue, tensors without grad grey and
    dashed; ops are ellipses named after the forward op (``Mul`` for
    ``MulBackward0``). The forward graph is rebuilt from the backward one, so
    constants that do not require grad are visible only when an op saved them
    (``x * w`` saves ``x``); otherwise a "tensor" placeholder stands in.
    ``split_shared``: a leaf read by several ops (a weight of a loop) is drawn
    next to each, marked "N uses" (default: above a few dozen nodes; above
    a few hundred its values and grad are drawn at its first use only).
    ``compact`` (default: above a few hundred nodes) also writes an input
    nothing is known of (the ``0.1`` of ``x + 0.1``: no grad, saved by no
    op) into its op's label, and draws an intermediate no op saved (no
    name, shape or values) as the arrow between the ops, not as a box.
    ``collapse``: a graph too large to lay out in seconds is drawn as its
    part nearest the outputs, fed by one box saying how many nodes were
    left out; False draws everything. ``fold``: repeated blocks drawn once;
    ``group`` and ``depth``: modules as boxes, as in `backward_graph`.
    Other arguments as in `backward_graph`.
    """
    return _drawing(
        "forward",
        outputs,
        params,
        max_nodes,
        show_values=show_values,
        theme=theme,
        rankdir=rankdir,
        legend=legend,
        size=size,
        engine=engine,
        id_prefix=id_prefix,
        compact=compact,
        detail=detail,
        split_shared=split_shared,
        collapse=collapse,
        fold=fold,
        group=group,
        depth=depth,
    )
