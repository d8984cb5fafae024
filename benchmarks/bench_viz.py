"""Time viz on a 1,000-node backward graph: walk, DOT, layout to SVG.

    python benchmarks/bench_viz.py [--framework torch|minigrad] [--nodes 1000]

Target: the whole `backward_graph(...).svg()` under 0.5 s. A script that prints
measurements, not a timed unit test.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import viz  # noqa: E402
from viz import render  # noqa: E402
from viz.graph import build_graph  # noqa: E402

TARGET_S = 0.5


def drawn_nodes(g) -> int:
    """Nodes in the default backward drawing: functions, tensors, saved slots."""
    return len(g.functions) + len(g.shown_tensors) + len(g.saved)


def make_graph(t, nodes: int):
    """Steps of ``x = (x * w + 0.1).tanh()`` until the drawing has ``nodes`` nodes.

    Each step adds 3 grad_fn nodes (Mul, Add, Tanh) and 3 saved tensors; every
    10 steps a new leaf ``w`` joins, so leaves are shared across steps.
    """
    x = t.tensor([0.5, -0.25], requires_grad=True)
    w = t.tensor([1.01, 0.99], requires_grad=True)
    step = 0
    while True:
        if step % 10 == 9:
            w = t.tensor([1.0, 1.0], requires_grad=True)
        x = (x * w + 0.1).tanh()
        step += 1
        out = x.sum()
        if step % 10 == 0 and drawn_nodes(build_graph(out)) >= nodes:
            return out


def best_of(fn, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--framework", default="torch")
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--full-detail", action="store_true", help="also time compact=False (slow)"
    )
    args = parser.parse_args()
    t = importlib.import_module(args.framework)
    out = make_graph(t, args.nodes)
    g = build_graph(out)
    kind, exe = render.find_engine()
    print(
        f"{args.framework}: {drawn_nodes(g)} nodes drawn ({len(g.functions)} grad_fn, "
        f"{len(g.saved)} saved, {len(g.shown_tensors)} tensors), "
        f"{len(g.edges)} next_functions edges; engine: {kind}"
    )

    def svg_with_saved():
        return viz.backward_graph(out).svg()

    def svg_no_saved():
        return viz.backward_graph(out, show_saved=False).svg()

    def svg_full_detail():
        return viz.backward_graph(out, compact=False).svg()

    def forward_svg():
        return viz.forward_graph(out).svg()

    rows = [
        ("walk (build_graph)", lambda: build_graph(out)),
        ("walk + DOT source", lambda: viz.backward_graph(out).source),
        ("backward svg, show_saved=False", svg_no_saved),
        ("backward svg (default)", svg_with_saved),
        ("forward svg (default)", forward_svg),
    ]
    if args.full_detail:
        rows.append(("backward svg, compact=False", svg_full_detail))
    for name, fn in rows:
        best, median = best_of(fn, args.repeat)
        print(
            f"  {name:40s} best {best * 1000:7.1f} ms  median {median * 1000:7.1f} ms"
        )
    best, _ = best_of(svg_with_saved, args.repeat)
    verdict = "OK" if best < TARGET_S else "SLOWER THAN TARGET"
    print(
        f"{drawn_nodes(g)}-node backward graph to SVG: best {best:.3f} s "
        f"(target < {TARGET_S} s) {verdict}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
