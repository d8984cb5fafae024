"""Rendered files: SVG / PNG / PDF / DOT with no system ``dot`` on PATH."""

from __future__ import annotations

import base64
import re
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest

import viz
from viz import render

SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def no_system_dot(monkeypatch, tmp_path):
    """PATH without Graphviz's ``dot`` (graphviz-pure is found next to python)."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert shutil.which("dot") is None
    if render._pure_binary() is None:
        pytest.skip("graphviz-pure is not installed")


def svg_ids(svg_text: str) -> dict[str, str]:
    """id -> class of every element with an id, parsed as XML."""
    root = ET.fromstring(svg_text)
    return {el.get("id"): el.get("class", "") for el in root.iter() if el.get("id")}


def pdf_text(data: bytes) -> bytes:
    """The PDF's content streams, decoded (reportlab: ASCII85 + Flate)."""
    out = []
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        raw = m.group(1).strip()
        if raw.endswith(b"~>"):
            raw = base64.a85decode(raw, adobe=True)
        try:
            out.append(zlib.decompress(raw))
        except zlib.error:
            out.append(raw)
    return b"\n".join(out)


def png_size(data: bytes) -> tuple[int, int]:
    return struct.unpack(">II", data[16:24])


@pytest.fixture
def seed2_drawing(framework, seeds):
    loss, params = seeds["seed2"](framework)
    return viz.backward_graph(loss, params={**params, "loss": loss})


def test_save_all_formats_without_system_dot(no_system_dot, framework, seeds, tmp_path):
    loss, params = seeds["seed2"](framework)
    for view in (viz.backward_graph, viz.forward_graph):
        d = view(loss, params=params)
        name = view.__name__
        svg = d.save(tmp_path / f"{name}.svg").read_bytes()
        png = d.save(tmp_path / f"{name}.png").read_bytes()
        pdf = d.save(tmp_path / f"{name}.pdf").read_bytes()
        dot = d.save(tmp_path / f"{name}.dot").read_text()
        assert svg.startswith(b"<?xml") and b"<svg" in svg
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and png_size(png) > (100, 100)
        assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
        text = pdf_text(pdf)  # vector text, not a bitmap
        assert b"Mul" in text and b"w1" in text and b"Legend" in text
        assert dot.startswith("digraph")
        ids = svg_ids(svg.decode())
        assert ids["f0"] in ("node fn function", "node op function")
        assert "legend" in ids  # saved files carry the legend


def test_svg_has_stable_ids_and_classes(no_system_dot, framework, seeds):
    def draw():
        loss, params = seeds["seed2"](framework)
        return viz.backward_graph(loss, params={**params, "loss": loss})

    ids = svg_ids(draw().svg())
    assert ids["f0"] == "node fn function"  # MeanBackward0, the root
    assert ids["e-f0-0"] == "edge next"
    assert ids["f4-self"] == "node saved saved"
    assert any(c == "node accumulate function" for c in ids.values())
    assert any(c == "node leaf tensor" for c in ids.values())
    assert any(c == "edge same-tensor" for c in ids.values())
    assert svg_ids(draw().svg()) == ids  # the same code gives the same ids


def test_escaped_label_renders_as_text(no_system_dot, framework):
    a = framework.tensor(1.0, requires_grad=True)
    nasty = "<b>x</b> & \"q\" 'w'"
    svg = viz.backward_graph(a * 2, params={nasty: a}).svg()
    texts = [el.text for el in ET.fromstring(svg).iter(f"{SVG_NS}text")]
    assert nasty in texts


def test_png_dpi_and_slide_size(no_system_dot, seed2_drawing, tmp_path):
    small = png_size(seed2_drawing.save(tmp_path / "a.png", dpi=72).read_bytes())
    big = png_size(seed2_drawing.save(tmp_path / "b.png", dpi=144).read_bytes())
    assert big[0] > 1.8 * small[0]
    fitted = seed2_drawing.save(tmp_path / "c.png", size=(3, 2), dpi=100)
    w, h = png_size(fitted.read_bytes())
    assert w <= 300 + 2 and h <= 200 + 2


def test_dark_theme_svg(no_system_dot, seed2_drawing, tmp_path):
    svg = seed2_drawing.save(tmp_path / "d.svg", theme="dark").read_text()
    assert "#1e1e1e" in svg


def test_repr_mimebundle_is_svg(no_system_dot, seed2_drawing):
    bundle = seed2_drawing._repr_mimebundle_()
    assert bundle["image/svg+xml"].lstrip().startswith("<?xml")
    assert 'id="f0"' in bundle["image/svg+xml"]
    assert "backward graph" in bundle["text/plain"]
    assert "legend" not in svg_ids(bundle["image/svg+xml"])  # no legend inline
    # text/html (what notebooks show): the same SVG, fitted to the column
    html = bundle["text/html"]
    assert html == seed2_drawing._repr_html_()
    assert html.startswith('<div class="mg-fit"') and "<?xml" not in html
    svg = bundle["image/svg+xml"]
    assert svg[svg.index("<svg") + 4 :] in html  # nothing else changed
    # fitted, but not below 70% of its natural width (pt -> px): 9 px text
    width_pt = float(re.search(r'<svg width="([\d.]+)pt"', svg)[1])
    floor = f"min-width:{width_pt * 4 / 3 * 0.7:.0f}px"
    assert f'<svg style="max-width:100%;height:auto;{floor}"' in html
    assert "classList.toggle('mg-full')" in html  # a click: full size and back


def test_single_leaf_renders(no_system_dot, framework):
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    ids = svg_ids(viz.backward_graph(a).svg())
    assert ids["t0"] == "node leaf tensor"


def test_unknown_extension(seed2_drawing, tmp_path):
    with pytest.raises(ValueError, match="cannot tell the format"):
        seed2_drawing.save(tmp_path / "graph.jpeg")


def test_system_engine_missing_names_the_fix(no_system_dot, framework):
    a = framework.tensor(1.0, requires_grad=True)
    with pytest.raises(viz.RenderError, match="apt install graphviz"):
        viz.backward_graph(a * 2, engine="system").svg()


def test_no_engine_at_all_names_what_to_install(no_system_dot, monkeypatch):
    monkeypatch.setattr(render, "_pure_binary", lambda: None)
    with pytest.raises(viz.RenderError, match="pip install graphviz-pure"):
        render.svg("digraph { a -> b }")


def test_engine_failure_is_a_clear_error(no_system_dot):
    with pytest.raises(viz.RenderError, match="failed"):
        render.svg("digraph { this is not dot ")


def test_pdf_without_svglib_names_it(no_system_dot, monkeypatch):
    monkeypatch.setitem(sys.modules, "svglib.svglib", None)
    with pytest.raises(viz.RenderError, match="pip install svglib"):
        render.svg_to_pdf("<svg/>")


@pytest.mark.skipif(shutil.which("dot") is None, reason="no system Graphviz")
def test_system_dot_when_present(seed2_drawing, tmp_path):
    pdf = seed2_drawing.save(tmp_path / "s.pdf", engine="system").read_bytes()
    assert pdf.startswith(b"%PDF-")
    svg = seed2_drawing.save(tmp_path / "s.svg", engine="system").read_text()
    assert 'id="f0"' in svg


def test_system_engine_path_with_a_stand_in_dot(
    no_system_dot, monkeypatch, tmp_path, seed2_drawing
):
    """A ``dot`` on PATH is preferred; here graphviz-pure plays it (no -Tpdf)."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    (bin_dir / "dot").symlink_to(render._pure_binary())
    monkeypatch.setenv("PATH", str(bin_dir))
    assert render.find_engine() == ("system", str(bin_dir / "dot"))
    svg = seed2_drawing.save(tmp_path / "s.svg", engine="system").read_text()
    assert 'id="f0"' in svg
    pdf = seed2_drawing.save(tmp_path / "s.pdf", engine="system").read_bytes()
    assert pdf.startswith(b"%PDF-")  # fell back to svglib


def test_demo_command_writes_every_file(no_system_dot, tmp_path):
    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "demo"
    proc = subprocess.run(
        [sys.executable, "-m", "viz", "demo", str(out)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    files = sorted(p.name for p in out.iterdir())
    assert len(files) == 16
    for f in files:
        assert str(out / f) in proc.stdout
    assert (out / "seed2-backward.pdf").read_bytes().startswith(b"%PDF-")
