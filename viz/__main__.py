"""``python -m viz demo [outdir]``: draw the two seed graphs into a folder.

Builds the graphs with minigrad when it is importable, else with torch (the
only place viz touches torch itself, and only for this demo), and writes SVG,
PNG, PDF and DOT of the backward and forward views.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from .drawing import backward_graph, forward_graph

FORMATS = ("svg", "png", "pdf", "dot")


def framework() -> ModuleType:
    """minigrad if it is usable, else torch."""
    for name in ("minigrad", "torch"):
        try:
            module = importlib.import_module(name)
        except Exception:  # absent, or half-written
            continue
        if hasattr(module, "tensor") and hasattr(module, "ones"):
            return module
    raise SystemExit("the demo needs minigrad or torch: `pip install torch`")


def seed_graphs(t: ModuleType) -> dict[str, tuple[Any, dict[str, Any]]]:
    """name -> (output, params) for the two seed examples."""
    a = t.tensor(2.0, requires_grad=True)
    b = t.tensor(3.0, requires_grad=True)
    c = a * b
    d = t.tensor(4.0, requires_grad=True)
    e = c * d
    seed1 = (e, dict(a=a, b=b, c=c, d=d, e=e))

    x = t.ones(2, 2)
    w1 = t.tensor(2.0, requires_grad=True)
    w2 = t.tensor(3.0, requires_grad=True)
    w3 = t.tensor(4.0, requires_grad=True)
    l1 = x * w1
    l2 = l1 + w2
    l3 = l1 * w3
    l4 = l2 * l3
    loss = l4.mean()
    names = dict(input=x, w1=w1, w2=w2, w3=w3, l1=l1, l2=l2, l3=l3, l4=l4)
    seed2 = (loss, {**names, "loss": loss})
    return {"seed1": seed1, "seed2": seed2}


def demo(outdir: Path) -> list[Path]:
    fw = framework()
    print(f"building the seed graphs with {fw.__name__}")
    written = []
    for name, (output, params) in seed_graphs(fw).items():
        for view, draw in (("backward", backward_graph), ("forward", forward_graph)):
            drawing = draw(output, params=params)
            for fmt in FORMATS:
                start = time.perf_counter()
                path = drawing.save(outdir / f"{name}-{view}.{fmt}", size="slide")
                ms = (time.perf_counter() - start) * 1000
                print(f"  {path}  ({ms:.0f} ms)")
                written.append(path)
    return written


def lessons_command(folder: Path | None, extra: list[str]) -> list[str]:
    """The command that opens JupyterLab on the lesson notebooks."""
    if folder is None:  # a source checkout keeps notebooks/ beside viz/
        folder = Path(__file__).resolve().parents[1] / "notebooks"
    if not (folder / "00_index.ipynb").exists():
        raise SystemExit(f"no lessons in {folder}: pass the notebooks folder")
    cmd = [sys.executable, "-m", "jupyter", "lab", str(folder / "00_index.ipynb")]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # JupyterLab refuses root without it
    return cmd + extra


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m viz")
    sub = parser.add_subparsers(dest="command", required=True)
    p_demo = sub.add_parser("demo", help="draw the seed graphs as svg/png/pdf/dot")
    p_demo.add_argument("outdir", nargs="?", default="viz-demo", type=Path)
    p_lessons = sub.add_parser("lessons", help="open the lessons in JupyterLab")
    p_lessons.add_argument("folder", nargs="?", type=Path, default=None)
    args, extra = parser.parse_known_args(argv)
    if args.command == "demo":
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        demo(args.outdir)
    elif args.command == "lessons":
        cmd = lessons_command(args.folder, extra)
        print(" ".join(cmd))
        os.execv(cmd[0], cmd)  # JupyterLab takes over this process
    return 0


if __name__ == "__main__":
    sys.exit(main())
