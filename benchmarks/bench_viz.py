"""Time viz on graphs of real size: walk, DOT and layout to SVG, in one run.

    python benchmarks/bench_viz.py [--framework torch|minigrad] [--repeat 3]

Cases: a loop of 1,500 autograd nodes reusing 8 weights, MLPs of 2 to 8
layers, a small CNN, recurrent loops of 30, 100 and 300 steps, and a graph of
5,000 autograd nodes. Each row is the best wall time of ``repeat`` runs of
``backward_graph(...).svg()`` with the pip engine (graphviz-pure) when it is
installed. Targets from issue #14 are printed next to their rows. A script
that prints measurements, not a timed unit test.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import viz  # noqa: E402
from viz import render  # noqa: E402
from viz.dot import drawn_nodes  # noqa: E402

NO_SAVED = {"show_saved": False}
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


def best_of(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--framework", default="torch")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    t = importlib.import_module(args.framework)
    engine = "pure" if render._pure_binary() else "auto"
    kind = render.find_engine(engine)[0]
    print(f"{args.framework}, engine {kind}, best of {args.repeat}")
    cases: list[tuple[str, Callable[[], tuple[Any, dict]], dict, float | None]] = [
        ("shared weights, 1,500 nodes", lambda: shared_weights(t), NO_SAVED, 1.0),
        ("shared weights, 1,500 nodes + saved", lambda: shared_weights(t), {}, None),
        *[(f"MLP, {n} layers", lambda n=n: mlp(t, n), {}, None) for n in (2, 4, 8)],
        ("small CNN", lambda: cnn(t), {}, None),
        ("recurrent loop, 30 steps", lambda: recurrent(t, 30), {}, None),
        ("recurrent loop, 100 steps", lambda: recurrent(t, 100), {}, 0.5),
        ("recurrent loop, 300 steps", lambda: recurrent(t, 300), {}, None),
        ("chain, 5,000 nodes", lambda: chain(t), NO_SAVED, 5.0),
    ]  # fmt: skip
    for name, make, options, target in cases:
        out, params = make()

        def draw(out=out, params=params, options=options) -> str:
            kw = dict(params=params, max_nodes=BIG, engine=engine, **options)
            return viz.backward_graph(out, **kw).svg()

        d = viz.backward_graph(out, params=params, max_nodes=BIG, **options)
        nodes = drawn_nodes(d.graph, d.options.show_saved)
        copies = sum(len(v) - 1 for v in d.drawn_ids.values())
        best = best_of(draw, args.repeat)
        verdict = ""
        if target is not None:
            ok = "OK" if best < target else "SLOWER THAN TARGET"
            verdict = f"  target < {target:g} s: {ok}"
        print(
            f"  {name:38s} {len(d.graph.functions):5d} grad_fn, {nodes:5d} drawn "
            f"(+{copies} leaf copies)  {best:6.2f} s{verdict}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
