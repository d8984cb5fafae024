"""``python -m viz demo [outdir]``: draw the two seed graphs into a folder.

Builds the graphs with minigrad when it is importable, else with torch (the
only place viz touches torch itself, and only for this demo), and writes SVG,
PNG, PDF and DOT of the backward and forward views.
"""

from __future__ import annotations

import argparse
import importlib
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m viz")
    sub = parser.add_subparsers(dest="command", required=True)
    p_demo = sub.add_parser("demo", help="draw the seed graphs as svg/png/pdf/dot")
    p_demo.add_argument("outdir", nargs="?", default="viz-demo", type=Path)
    args = parser.parse_args(argv)
    if args.command == "demo":
        demo(args.outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
