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


def fit_scale(svg_text: str, page_pt: tuple[float, float]) -> float:
    """How much to scale the drawing so it just fits the page."""
    w, h = svg_size(svg_text)
    return min(page_pt[0] / w, page_pt[1] / h)


def fit_svg(svg_text: str, page_pt: tuple[float, float], background: str) -> str:
    """The SVG as a page of exactly ``page_pt`` points, the drawing scaled to
    fit and centred, the margins painted ``background``."""
    w, h = svg_size(svg_text)
    scale = fit_scale(svg_text, page_pt)
    vw, vh = page_pt[0] / scale, page_pt[1] / scale
    vx, vy = (w - vw) / 2, (h - vh) / 2
    root = (
        f'<svg width="{page_pt[0]:g}pt" height="{page_pt[1]:g}pt" '
        f'viewBox="{vx:.2f} {vy:.2f} {vw:.2f} {vh:.2f}"'
    )
    page = _SVG_SIZE.sub(root, svg_text, count=1)
    # the margins: a rectangle under everything the engine drew
    rect = (
        f'<rect x="{vx:.2f}" y="{vy:.2f}" width="{vw:.2f}" height="{vh:.2f}" '
        f'fill="{background}" stroke="none"/>'
    )
    start = page.index(">", page.index("<svg ")) + 1
    return page[:start] + "\n" + rect + page[start:]


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


def fit_png(
    source: str,
    svg_text: str,
    page_in: tuple[float, float],
    dpi: float,
    background: str,
    engine: str = "auto",
) -> bytes:
    """A PNG page of exactly ``page_in`` inches at ``dpi``: the drawing laid
    out by the engine at the scale that fits, centred on ``background``."""
    from PIL import Image, ImageColor  # (a dependency of minigrad-lab)

    scale = fit_scale(svg_text, (page_in[0] * 72, page_in[1] * 72))
    drawing = Image.open(io.BytesIO(png(source, engine, dpi * scale))).convert("RGB")
    size = (round(page_in[0] * dpi), round(page_in[1] * dpi))
    drawing.thumbnail(size)  # (rounding can make it a pixel too large)
    page = Image.new("RGB", size, ImageColor.getrgb(background))
    page.paste(
        drawing, ((size[0] - drawing.width) // 2, (size[1] - drawing.height) // 2)
    )
    out = io.BytesIO()
    page.save(out, format="PNG", dpi=(dpi, dpi))
    return out.getvalue()
