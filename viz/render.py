"""Run a layout engine on DOT text: SVG and PNG, and PDF from the SVG.

Engines, in the order ``engine="auto"`` tries them:

* ``"system"``: Graphviz's ``dot`` on PATH (``apt install graphviz``).
* ``"pure"``: the ``graphviz-pure`` binary from ``pip install graphviz-pure``
  (a Rust port of Graphviz; no system package needed). It has no PDF output,
  so PDF goes SVG -> PDF through svglib + reportlab (pure Python).

Every failure raises `RenderError` saying what to install or what went wrong.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import struct
import subprocess
import sys
import sysconfig
import zlib
from pathlib import Path
from typing import Any

ENGINES = ("auto", "system", "pure")
TIMEOUT_S = 60.0


class RenderError(RuntimeError):
    """No engine, or the engine failed. The message says what to do."""


def _pure_binary() -> str | None:
    """Where pip put ``graphviz-pure``: PATH, then this interpreter's scripts."""
    name = "graphviz-pure" + (".exe" if os.name == "nt" else "")
    found = shutil.which(name)
    if found:
        return found
    for folder in (sysconfig.get_path("scripts"), Path(sys.executable).parent):
        candidate = Path(folder) / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def find_engine(engine: str = "auto") -> tuple[str, str]:
    """Return ``(kind, executable)`` with kind "system" or "pure"."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    if engine in ("auto", "system"):
        dot = shutil.which("dot")
        if dot:
            return "system", dot
        if engine == "system":
            raise RenderError(
                "engine='system' needs Graphviz's `dot` on PATH (for example "
                "`apt install graphviz` or `brew install graphviz`). Or use "
                "engine='pure' after `pip install graphviz-pure`."
            )
    pure = _pure_binary()
    if pure:
        return "pure", pure
    raise RenderError(
        "No Graphviz layout engine found. Install one: `pip install graphviz-pure` "
        "(no system package needed), or a system Graphviz (`apt install graphviz`)."
    )


def run_engine(
    source: str, fmt: str, engine: str = "auto", dpi: float | None = None
) -> bytes:
    """Lay out ``source`` and return the bytes of ``fmt`` ("svg", "png", ...)."""
    kind, exe = find_engine(engine)
    cmd = [exe, f"-T{fmt}"]
    if dpi:
        cmd.append(f"-Gdpi={dpi:g}")
    try:
        proc = subprocess.run(
            cmd, input=source.encode("utf-8"), capture_output=True, timeout=TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        raise RenderError(
            f"{Path(exe).name} did not finish within {TIMEOUT_S:.0f} s; the graph is "
            "probably too large to lay out. Draw a smaller part of it."
        ) from None
    except OSError as exc:
        raise RenderError(f"could not run {exe}: {exc}") from exc
    err = proc.stderr.decode("utf-8", "replace").strip()
    if proc.returncode != 0 or not proc.stdout:
        raise RenderError(
            f"{Path(exe).name} -T{fmt} failed (exit {proc.returncode}): "
            f"{err or 'no output'}"
        )
    return proc.stdout


# The faces the DOT names (`dot.FONT`, `dot.MONO`, laid out with Helvetica's
# and Courier's widths) as the SVG spells them: Helvetica and Courier first,
# so browsers and the PDF (svglib: the built-in PDF fonts, nothing embedded)
# draw the faces the layout measured, the metric twins after them.
FAMILIES = {
    "Arial": "Helvetica,Arial,Liberation Sans,sans-serif",
    "Courier New": "Courier,Courier New,Liberation Mono,monospace",
}
_FAMILY = re.compile('font-family="(' + "|".join(map(re.escape, FAMILIES)) + ')"')


def svg(source: str, engine: str = "auto") -> str:
    text = run_engine(source, "svg", engine).decode("utf-8")
    return _FAMILY.sub(lambda m: f'font-family="{FAMILIES[m.group(1)]}"', text)


def png(source: str, engine: str = "auto", dpi: float | None = None) -> bytes:
    return run_engine(source, "png", engine, dpi)


def pdf(source: str, engine: str = "auto") -> bytes:
    """PDF: system ``dot -Tpdf`` when that is the engine, else SVG -> svglib.

    A ``dot`` built without PDF support also falls back to svglib.
    """
    if find_engine(engine)[0] == "system":
        try:
            return run_engine(source, "pdf", engine)
        except RenderError:
            pass
    return svg_to_pdf(svg(source, engine))


def svg_drawing(svg_text: str) -> Any:
    """SVG text as a reportlab drawing (svglib), for PDF output."""
    try:
        from svglib.svglib import svg2rlg
    except ImportError as exc:
        raise RenderError(
            f"PDF export needs svglib: `pip install svglib` ({exc})"
        ) from exc
    # Text as written: system Graphviz marks no text xml:space="preserve",
    # and svglib drops a text of no-break spaces (a stepper's empty grad cell,
    # which the PDF pages fill in) without it.
    svg_text = svg_text.replace("<svg ", '<svg xml:space="preserve" ', 1)
    drawing = svg2rlg(io.BytesIO(svg_text.encode("utf-8")))
    if drawing is None:
        raise RenderError("svglib could not read the SVG produced by the engine")
    return drawing


def svg_to_pdf(svg_text: str) -> bytes:
    """Convert SVG text to PDF bytes with svglib + reportlab (pure Python)."""
    drawing = svg_drawing(svg_text)
    from reportlab.graphics import renderPDF  # (installed with svglib)

    return renderPDF.drawToString(drawing)


# ------------------------------------------------------------ slide pages
_SVG_SIZE = re.compile(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"\s+viewBox="[^"]*"')


def svg_size(svg_text: str) -> tuple[float, float]:
    """(width, height) in points of an SVG the layout engine wrote."""
    m = _SVG_SIZE.search(svg_text)
    if m is None:
        raise RenderError("the engine's SVG has no width/height in points")
    return float(m.group(1)), float(m.group(2))


# A slide page holds up to five drawings, each laid out on its own: the title
# at the top, under it a stepper frame's caption ("Step 3 of 8: ...") and the
# key to its highlights, the legend row at the bottom (each at its own size,
# smaller only if wider than the page) and the graph, scaled to fill what is
# left and centred in it. Laid out together, the engine put the title over
# the graph's middle and the legend at the left, so the graph sat off-centre.
# A graph too tall for the room a 16:9 page leaves under the rows can have
# the key and the legend in a column at the right instead (``side``).
PAGE_MARGIN_PT = 10.0  # all round (the graph's own pad is dropped)
PAGE_GAP_PT = 4.0  # between the title, the caption, the graph and the legend
MAX_UPSCALE = 1.0  # a small graph keeps its lecture size, centred
PAGE_PARTS = ("title", "caption", "key", "graph", "legend")
_BACKGROUND = re.compile(
    r'class="graph"[^>]*>\s*<title>[^<]*</title>\s*<polygon[^>]*points="([^"]*)"'
)
_VIEWBOX = re.compile(r'<svg\b[^>]*?viewBox="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)"')


def natural_size(svg_text: str) -> tuple[float, float]:
    """(width, height) of an engine SVG in points: its background's, which
    the viewBox rounds to whole points."""
    m = _BACKGROUND.search(svg_text)
    if m is not None:
        nums = [float(v) for v in re.findall(r"-?[\d.]+", m.group(1))]
        xs, ys = nums[0::2], nums[1::2]
        return max(xs) - min(xs), max(ys) - min(ys)
    m = _VIEWBOX.search(svg_text)
    if m is None:
        raise RenderError("the engine's SVG has no viewBox")
    return float(m.group(3)), float(m.group(4))


def page_layout(
    page_pt: tuple[float, float],
    sizes: dict[str, tuple[float, float]],
    side: tuple[str, ...] = (),
) -> dict[str, tuple[float, float, float]]:
    """Where each part goes: name -> (x, y, scale) of its top left corner in
    page points. ``sizes``: the natural size of each part present ("graph",
    and optionally "title", "caption", "key" and "legend"). The parts named
    in ``side`` are stacked in a column at the right edge, at their size
    (smaller only if taller than the room), beside the graph's room and
    centred down it; the others are rows, from the top down ("title",
    "caption", "key") or at the bottom ("legend")."""
    width, height = page_pt
    inner = width - 2 * PAGE_MARGIN_PT
    top, bottom = PAGE_MARGIN_PT, height - PAGE_MARGIN_PT
    out = {}
    for name in ("title", "caption", "key"):  # from the top down
        if name in sizes and name not in side:
            w, h = sizes[name]
            scale = min(1.0, inner / w)
            out[name] = ((width - w * scale) / 2, top, scale)
            top += h * scale + PAGE_GAP_PT
    if "legend" in sizes and "legend" not in side:
        w, h = sizes["legend"]
        scale = min(1.0, inner / w)
        bottom -= h * scale
        out["legend"] = ((width - w * scale) / 2, bottom, scale)
        bottom -= PAGE_GAP_PT
    right = width - PAGE_MARGIN_PT  # the graph's room ends here
    column = [name for name in side if name in sizes]
    if column:
        tall = sum(sizes[n][1] for n in column) + PAGE_GAP_PT * (len(column) - 1)
        scale = min(1.0, (bottom - top) / tall)
        wide = max(sizes[n][0] for n in column) * scale
        y = top + (bottom - top - tall * scale) / 2
        for name in column:
            w, h = sizes[name]
            out[name] = (right - wide, y, scale)  # (left-aligned in the column)
            y += h * scale + PAGE_GAP_PT
        right -= wide + 2 * PAGE_GAP_PT
    left = PAGE_MARGIN_PT
    w, h = sizes["graph"]
    scale = min(MAX_UPSCALE, (right - left) / w, max(bottom - top, 1.0) / h)
    out["graph"] = (
        left + (right - left - w * scale) / 2,
        top + (bottom - top - h * scale) / 2,
        scale,
    )
    return out


def _inner(svg_text: str, name: str) -> str:
    """The engine SVG's content without its ``<svg>`` element, its graph
    group renamed ``name`` (several parts on a page: no id twice)."""
    start = svg_text.index(">", svg_text.index("<svg")) + 1
    body = svg_text[start : svg_text.rindex("</svg>")]
    return body.replace(
        '<g id="graph0" class="graph"', f'<g id="{name}" class="graph"', 1
    )


def page_svg(
    page_pt: tuple[float, float],
    parts: dict[str, str],
    background: str,
    rooms: dict[str, tuple[float, float]] | None = None,
    side: tuple[str, ...] = (),
) -> str:
    """One SVG page of exactly ``page_pt`` points: each part (name -> engine
    SVG) placed by `page_layout` on a ``background`` rectangle. ``rooms``:
    the size a part is given instead of its own (a stepper's caption gets
    the room of the widest, so the graph sits on the same spot on every
    frame; a part drawn on some frames only keeps its room on the others);
    a smaller part is centred across its room, at its top (in the ``side``
    column: at its left)."""
    natural = {name: natural_size(svg) for name, svg in parts.items()}
    sizes = {**natural, **(rooms or {})}
    places = page_layout(page_pt, sizes, side)
    for name in parts:
        x, y, scale = places[name]
        if name not in side:
            x += (sizes[name][0] - natural[name][0]) * scale / 2
        places[name] = (x, y, scale)
    return placed_svg(page_pt, parts, places, background)


def placed_svg(
    size_pt: tuple[float, float],
    parts: dict[str, str],
    places: dict[str, tuple[float, float, float]],
    background: str,
) -> str:
    """One SVG of ``size_pt`` points: each part (name -> engine SVG, drawn in
    `PAGE_PARTS` order) at its place, (x, y, scale) of its top left corner,
    on a ``background`` rectangle. Each part's graph group is renamed for
    its part ("graph0", "caption0"...): no id twice."""
    w, h = size_pt
    out = [
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
        f'<svg width="{w:g}pt" height="{h:g}pt" viewBox="0 0 {w:g} {h:g}" '
        'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">',
        f'<rect x="0" y="0" width="{w:g}" height="{h:g}" fill="{background}" '
        'stroke="none"/>',
    ]
    for name in PAGE_PARTS:
        if name in parts:
            x, y, scale = places[name]
            out.append(
                f'<g id="page-{name}" transform="translate({x:.2f} {y:.2f}) '
                f'scale({scale:.5f})">{_inner(parts[name], f"{name}0")}</g>'
            )
    return "\n".join(out) + "\n</svg>\n"


def png_with_dpi(data: bytes, dpi: float) -> bytes:
    """PNG bytes with a pHYs chunk saying ``dpi`` (slides and word processors
    size the picture from it)."""
    ppm = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    end_ihdr = 8 + 8 + 13 + 4  # signature, IHDR length+type, data, crc
    rest = _without_chunk(data[end_ihdr:], b"pHYs")
    return data[:end_ihdr] + chunk + rest


def _without_chunk(chunks: bytes, kind: bytes) -> bytes:
    out, i = [], 0
    while i < len(chunks):
        (n,) = struct.unpack(">I", chunks[i : i + 4])
        if chunks[i + 4 : i + 8] != kind:
            out.append(chunks[i : i + 12 + n])
        i += 12 + n
    return b"".join(out)


def page_png(
    page_in: tuple[float, float],
    dpi: float,
    parts: dict[str, tuple[str, str]],
    background: str,
    engine: str = "auto",
) -> bytes:
    """The PNG of `page_svg`'s page, ``page_in`` inches at ``dpi``: each part
    (name -> (DOT, its engine SVG)) rasterised by the engine at its scale and
    pasted centred on its place."""
    sizes = {name: natural_size(svg) for name, (_dot, svg) in parts.items()}
    places = page_layout((page_in[0] * 72, page_in[1] * 72), sizes)
    pngs = {
        name: png(source, engine, dpi * places[name][2])
        for name, (source, _svg) in parts.items()
    }
    return paste_parts(page_in, dpi, places, sizes, pngs, background)


def paste_parts(
    page_in: tuple[float, float],
    dpi: float,
    places: dict[str, tuple[float, float, float]],
    sizes: dict[str, tuple[float, float]],
    pngs: dict[str, Any],
    background: str,
) -> bytes:
    """A page of ``page_in`` inches at ``dpi`` with each part's picture (PNG
    bytes or a PIL image, drawn at its place's scale) centred on its place
    from `page_layout` (``sizes``: the parts' natural sizes in points)."""
    from PIL import Image, ImageColor  # (a dependency of minigrad-lab)

    size = (round(page_in[0] * dpi), round(page_in[1] * dpi))
    page = Image.new("RGB", size, ImageColor.getrgb(background))
    px = dpi / 72
    for name, picture in pngs.items():
        if isinstance(picture, bytes):
            picture = Image.open(io.BytesIO(picture))
        part = picture.convert("RGB")
        x, y, scale = places[name]
        w, h = sizes[name]
        # centred on its place (the engine rounds the picture to whole pixels)
        left = round((x + w * scale / 2) * px - part.width / 2)
        top = round((y + h * scale / 2) * px - part.height / 2)
        page.paste(part, (left, top))
    out = io.BytesIO()
    page.save(out, format="PNG", dpi=(dpi, dpi))
    return out.getvalue()
