"""Time viz on graphs of real size: walk, DOT and layout to SVG, in one run.

    python benchmarks/bench_viz.py [--framework torch|minigrad] [--repeat 3]
    python benchmarks/bench_viz.py --profile   # CPU seconds per stage


Cases: a loop of 1,500 autograd nodes reusing 8 weights, MLPs of 2 to 8
layers, a small CNN, recurrent loops of 30, 100 and 300 steps, and a graph of
5,000 autograd nodes. Each row is the best wall time of ``repeat`` runs of
``backward_graph(...).svg()`` (walk, DOT and layout), and the "forward view"
row under it of ``forward_graph(...).svg()`` on the same graph, with the pip
engine (graphviz-pure) when it is installed, with the default options: graphs of
more than a few hundred nodes are drawn with their repeated steps folded
(``fold=``); the "unfolded" rows draw every node (``fold=False``). The last
rows time how fast a graph over the node limit is refused. Targets from issue
#14 are printed next to their rows (the unfolded rows have the same targets).
A script that prints measurements, not a timed unit test; the machine's load
average is printed first (on a shared machine wall times grow with it), and
each row also gives the CPU time.

``--profile`` splits the two slow cases into walk, DOT, layout and SVG, and
times the layout of the same DOT with the levers of issue #14. It shows where
the time goes: unfolded, the layout is ~80% (linear in the drawn nodes, so
splitting the layout gains nothing; SVG writing, walk and DOT are small);
straight or polyline edges change little once shared leaves are drawn per
use; the HTML-like labels are a large part (a bare "x" label is the engine's
floor); ``nslimit=0`` (no network simplex for x) saves ~10% but lets a long
loop drift sideways. What worked (2026-12-02): drawing only the AccumulateGrad
of a shared leaf once per use, its leaf once (-35%), and grad_fn labels as
lines of text instead of tables (-15-20%), both above a few hundred nodes;
the spine weight (`dot.SPINE_WEIGHT`) keeps a loop in one column. Fewer
nodes (folding, the default) remains the largest lever.

The forward view draws a node per tensor as well as per op, so it had twice
the nodes of the backward view (the 1,510-node loop: 4,003 and 2,012) and
took twice its time (2026-12-03). Its nodes nothing is known of were the
lever: the 500 bare "tensor" boxes of ``+ 0.1`` (a None input saved by no
op), now a line of their op's label, were ~30% of its layout; the 1,001 bare
boxes of intermediates no op saved, now arrows between the ops, ~15% more;
lines-of-text labels ~10% and shared leaves' copies without their values
~5%. ``nslimit=0`` or lower limits drift sideways again.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import viz  # noqa: E402
from viz import render  # noqa: E402
from viz.dot import drawn_nodes  # noqa: E402
from viz.graph import GraphTooLargeError, build_graph  # noqa: E402

NO_SAVED = {"show_saved": False}
# the default, named: a case only the backward view has (the forward view
# draws no saved slots, so it would repeat the case without them)
SAVED = {"show_saved": True}
BIG = 10**6  # max_nodes for the cases: they measure, the limit is tested elsewhere


def shared_weights(t: Any, functions: int = 1500) -> tuple[Any, dict]:
    """``x = (x * w[k % 8] + 0.1).tanh()`` until ``functions`` autograd nodes."""
    t.manual_seed(0)
    ws = [t.randn(4, requires_grad=True) for _ in range(8)]
    x = t.randn(4, requires_grad=True)
    for k in range(functions // 3):  # Mul, Add, Tanh per step
        x = (x * ws[k % 8] + 0.1).tanh()
    return x.sum(), {f"w{i}": w for i, w in enumerate(ws)}


def recurrent(t: Any, steps: int) -> tuple[Any, dict]:
    """An Elman cell unrolled: ``h = tanh(Wh @ h + Wx @ x_t + b)``."""
    t.manual_seed(0)
    wh = t.randn(8, 8, requires_grad=True)
    wx = t.randn(8, 4, requires_grad=True)
    b = t.zeros(8, requires_grad=True)
    h = t.zeros(8)
    for _ in range(steps):
        h = t.tanh(wh @ h + wx @ t.randn(4) + b)
    return h.sum(), {"Wh": wh, "Wx": wx, "b": b}


def mlp(t: Any, layers: int) -> tuple[Any, dict]:
    t.manual_seed(0)
    sizes = [16] * layers + [4]
    mods = [t.nn.Linear(a, b) for a, b in zip(sizes, sizes[1:], strict=False)]
    x = t.randn(32, 16)
    for i, m in enumerate(mods):
        x = m(x)
        if i < len(mods) - 1:
            x = t.relu(x)
    loss = t.nn.functional.cross_entropy(x, t.zeros(32, dtype=t.long))
    params = {
        f"layer{i}.{n}": p for i, m in enumerate(mods) for n, p in m.named_parameters()
    }
    return loss, params


def cnn(t: Any) -> tuple[Any, dict]:
    t.manual_seed(0)
    nn = t.nn
    model = nn.Sequential(
        nn.Conv2d(1, 4, 3), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(4, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 4 * 4, 10),
    )  # fmt: skip
    loss = nn.functional.cross_entropy(model(t.randn(2, 1, 14, 14)), t.tensor([1, 2]))
    return loss, dict(model.named_parameters())


def chain(t: Any, functions: int = 5000) -> tuple[Any, dict]:
    """``functions`` autograd nodes in a long chain with a few shared weights."""
    w = t.tensor([1.01, 0.99], requires_grad=True)
    x = t.tensor([0.5, -0.25], requires_grad=True)
    for _ in range(functions // 2):
        x = (x * w).tanh()
    return x.sum(), {"w": w}


def make_graph(t: Any, nodes: int) -> Any:
    """Steps of ``x = (x * w + 0.1).tanh()`` until the drawing has ``nodes`` nodes.

    Each step adds 3 grad_fn nodes (Mul, Add, Tanh) and 3 saved tensors; every
    10 steps a new leaf ``w`` joins, so leaves are shared across steps (used
    by bench_stepper.py).
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


def refuse(draw: Callable[[], Any]) -> None:
    try:
        draw()
    except GraphTooLargeError:
        return
    raise AssertionError("the graph was drawn, not refused")


def tall_chain(t: Any, steps: int) -> Any:
    x = t.tensor(1.0, requires_grad=True)
    for _ in range(steps):
        x = (x * 1.0001).tanh()  # 2 autograd nodes and 2 saved tensors a step
    return x


VIEWS = ["backward", "forward"]
# a node statement of a DOT text (an edge has "->" after its tail)
_NODE = re.compile(r'^\t+(?:"[^"]*"|[^\s"]+) \[label=', re.M)


def drawn_summary(d: Any) -> str:
    """How many nodes a drawing draws: its grad_fn nodes (the backward view)
    or ops, the nodes drawn (shared-leaf copies apart), and what was folded
    or collapsed."""
    shown = d._shown_graph(d._resolved(export=False))
    copies = sum(len(v) - 1 for v in d.drawn_ids.values())  # of shared leaves
    if d.view == "backward":
        nodes = drawn_nodes(shown, d.options.show_saved)
        size = f"{len(d.graph.functions):5d} grad_fn,"
    else:  # tensors nothing is known of are not boxes in a compact drawing
        nodes = len(_NODE.findall(d.source)) - copies
        ops = sum(not f.is_accumulate_grad for f in d.graph.functions.values())
        size = f"{ops:5d} ops,    "
    folds = "".join(f", x {f.count} folded" for f in d.folds)
    more = f", {shown.hidden:,} collapsed" if shown.hidden else ""
    return f"{size} {nodes:5d} drawn (+{copies} copies{more}{folds})"


def cpu_seconds() -> float:
    """CPU time of this process and the layout engines it ran."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def best_of(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Best wall time and best CPU time of ``repeat`` runs. On an idle
    machine they agree (one thread); on a shared one wall time also counts
    the waits for a core, CPU time does not."""
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), cpu_seconds()
        fn()
        walls.append(time.perf_counter() - start)
        cpus.append(cpu_seconds() - cpu)
    return min(walls), min(cpus)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--framework", default="torch")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--profile", action="store_true", help="where the time goes, per stage"
    )
    args = parser.parse_args()
    t = importlib.import_module(args.framework)
    engine = "pure" if render._pure_binary() else "auto"
    kind = render.find_engine(engine)[0]
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    if args.profile:
        return profile(t, engine, args.repeat)
    print(f"{args.framework}, engine {kind}, best of {args.repeat}, load {load}")
    off = {"fold": False}
    cases: list[tuple[str, Callable[[], tuple[Any, dict]], dict, float | None]] = [
        ("shared weights, 1,500 nodes", lambda: shared_weights(t), NO_SAVED, 1.0),
        ("  unfolded", lambda: shared_weights(t), NO_SAVED | off, 1.0),
        ("shared weights, 1,500 nodes + saved", lambda: shared_weights(t), SAVED, None),
        *[(f"MLP, {n} layers", lambda n=n: mlp(t, n), {}, None) for n in (2, 4, 8)],
        ("small CNN", lambda: cnn(t), {}, None),
        ("recurrent loop, 30 steps", lambda: recurrent(t, 30), {}, None),
        ("recurrent loop, 100 steps", lambda: recurrent(t, 100), {}, 0.5),
        ("  unfolded", lambda: recurrent(t, 100), off, 0.5),
        ("recurrent loop, 300 steps", lambda: recurrent(t, 300), {}, None),
        ("  unfolded", lambda: recurrent(t, 300), off, None),
        ("chain, 5,000 nodes", lambda: chain(t), NO_SAVED, 5.0),
        ("  unfolded (collapsed to fit)", lambda: chain(t), NO_SAVED | off, 5.0),
    ]  # fmt: skip
    for name, make, options, target in cases:
        out, params = make()
        for view in ["backward"] if options is SAVED else VIEWS:
            # show_saved is an option of the backward view only
            kw = dict(options, params=params, max_nodes=BIG)
            if view == "forward":
                kw.pop("show_saved", None)
            draw_view = getattr(viz, f"{view}_graph")

            def draw(out=out, kw=kw, draw_view=draw_view) -> str:
                return draw_view(out, engine=engine, **kw).svg()

            d = draw_view(out, **kw)
            best = best_of(draw, args.repeat)
            label = name if view == "backward" else "  forward view"
            print(
                f"  {label:38s} {drawn_summary(d)}  "
                f"{best[0]:6.2f} s (cpu {best[1]:5.2f} s){verdict(best, target)}",
                flush=True,
            )
    # The node limit refuses a graph too big to draw from a cheap pre-walk.
    tall = tall_chain(t, 3000)  # 6,001 autograd nodes, 6,000 saved tensors
    long = tall_chain(t, 200)
    refusals = [
        ("refusal: 401 nodes, max_nodes=100", lambda: build_graph(long, max_nodes=100)),
        ("refusal: 12,000 nodes, default limit", lambda: viz.backward_graph(tall)),
        ("refusal: same, forward view", lambda: viz.forward_graph(tall)),
    ]  # fmt: skip
    for name, draw in refusals:
        best = best_of(lambda draw=draw: refuse(draw), args.repeat)
        print(
            f"  {name:38s} {best[0]:6.2f} s (cpu {best[1]:5.2f} s){verdict(best, 1.0)}",
            flush=True,
        )
    return 0


def profile(t: Any, engine: str, repeat: int) -> int:
    """CPU seconds per stage of the two slow cases, in both views, unfolded
    and folded: the walk, the DOT text, the layout alone (``-Tplain``) and
    layout + SVG, and layout + SVG with other edge routings (the levers of
    issue #14)."""
    print(f"CPU seconds per stage, best of {repeat} (engine {engine})")
    cases = [
        ("recurrent loop, 100 steps", lambda: recurrent(t, 100), {}),
        ("shared weights, 1,500 nodes", lambda: shared_weights(t), NO_SAVED),
    ]
    for name, make, options in cases:
        out, params = make()
        for view, fold in [(v, f) for v in VIEWS for f in (False, None)]:
            kw = dict(params=params, max_nodes=BIG, engine=engine, fold=fold)
            kw |= options if view == "backward" else {}  # (only show_saved)
            draw_view = getattr(viz, f"{view}_graph")
            walk = best_of(lambda o=out, kw=kw, f=draw_view: f(o, **kw), repeat)
            d = draw_view(out, **kw)
            dot = best_of(lambda d=d: d.source, repeat)
            src = d.source
            row = [f"walk {walk[1]:.2f}", f"DOT {dot[1]:.2f}"]
            variants = [
                ("layout", "plain", src),
                ("layout+SVG", "svg", src),
                ("polyline", "svg", with_graph_attr(src, "splines=polyline")),
                ("line", "svg", with_graph_attr(src, "splines=line")),
                ("one-font labels", "svg", one_font_labels(src)),
                ("label 'x' (floor)", "svg", ANY_LABEL.sub('label="x" ', src)),
                ("no leaf copies", "svg", without_leaf_copies(src)),
                ("nslimit=0", "svg", without_x_simplex(src)),
            ]
            for what, fmt, text in variants:
                run = lambda text=text, fmt=fmt: render.run_engine(text, fmt, engine)  # noqa: E731
                row.append(f"{what} {best_of(run, repeat)[1]:.2f}")
            label = f"{name}, {view} ({'unfolded' if fold is False else 'folded'})"
            print(f"  {label:52s} " + ", ".join(row), flush=True)
    return 0


# A node's HTML-like label: a table of rows (a bold name, small grey details,
# Courier numbers). The profile's label variants rewrite it to measure what
# the labels cost the layout (the drawing itself is not changed).
LABEL = re.compile(r"label=<<table.*?</table>>\s")
# any node's HTML-like label, a table or lines of text (big drawings' grad_fn)
ANY_LABEL = re.compile(r"label=<.*?>\s(?=class=)")
_CELL = re.compile(r"<td[^>]*>(.*?)</td>")
_FONT = re.compile(r"<font[^>]*>|</font>")


def with_graph_attr(src: str, attr: str) -> str:
    return src.replace("{", "{\n\t" + attr + "\n", 1)


def without_x_simplex(src: str) -> str:
    """``nslimit=0``: x positions without network-simplex iterations (the
    compact drawings' own ``nslimit`` would override an attribute added
    first)."""
    if re.search(r"\bnslimit=", src):
        return re.sub(r"\bnslimit=[\d.]+", "nslimit=0", src, count=1)
    return with_graph_attr(src, "nslimit=0")


def one_font_labels(src: str) -> str:
    """Each label without its table: the bold name, then every detail line in
    one small grey font (numbers no longer in Courier)."""

    def rewrite(m: re.Match) -> str:
        name, *rest = _CELL.findall(m.group(0))
        body = name
        if rest:
            lines = "<br/>".join(_FONT.sub("", c) for c in rest)
            body += f'<br/><font point-size="10" color="#555555">{lines}</font>'
        return f"label=<{body}> "

    return LABEL.sub(rewrite, src)


# A shared leaf's copy (t3-use2) and the edge into it, one DOT line each
_LEAF_COPY = re.compile(r'^\t(?:"?t\d+-use\d+"? \[|.*-> "?t\d+-use\d+"? \[).*\n', re.M)


def without_leaf_copies(src: str) -> str:
    """The DOT without the copies of shared leaves (each use keeps its
    AccumulateGrad copy): what drawing the leaf inside that copy would save."""
    return _LEAF_COPY.sub("", src)


def verdict(best: tuple[float, float], target: float | None) -> str:
    """The target met by wall time, by CPU time only (a loaded machine), or
    not at all."""
    if target is None:
        return ""
    wall, cpu = best
    if wall < target:
        ok = "OK"
    elif cpu < target:
        ok = "OK by CPU time (wall time includes waiting for a core)"
    else:
        ok = "SLOWER THAN TARGET"
    return f"  target < {target:g} s: {ok}"


if __name__ == "__main__":
    sys.exit(main())
