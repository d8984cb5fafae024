"""Time the stepper on a ~300-node backward graph: preparing it, and one step.

    python benchmarks/bench_stepper.py [--nodes 300] [--repeat 5]

Targets: preparing a stepper (graph walk, layout to SVG, the widget) under 1 s;
the kernel-side work of one step (one engine node, its frame, the widget's
refresh and the JSON of the messages sent to the browser) under 10 ms. Also
the memory 50 widgets keep after they are shown and closed (the widget leak of
#13: 59 MB before the fix), by tracemalloc. The
widget's comm is replaced by one that serialises each message as the kernel
would, so the measured step includes building and encoding what is sent.
A script that prints measurements, not a timed unit test.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import comm  # noqa: E402
from bench_viz import make_graph  # noqa: E402
from comm.base_comm import BaseComm  # noqa: E402

import minigrad  # noqa: E402
from viz import BackwardStepper  # noqa: E402
from viz.dot import _quote, drawn_nodes  # noqa: E402
from viz.graph import SLOT_MEMORY, build_graph  # noqa: E402

PREPARE_TARGET_S = 1.0
STEP_TARGET_MS = 10.0


class JsonComm(BaseComm):
    """Encodes every message as the kernel would, and counts the bytes."""

    sent_bytes = 0
    messages = 0

    def publish_msg(self, msg_type: str, data: Any = None, metadata: Any = None,
                    buffers: Any = None, **keys: Any) -> None:  # fmt: skip
        JsonComm.sent_bytes += len(json.dumps({"data": data, "metadata": metadata}))
        JsonComm.messages += 1


def fresh_loss(nodes: int) -> Any:
    return make_graph(minigrad, nodes)


def prepare(loss: Any) -> tuple[BackwardStepper, dict[str, float]]:
    times = {}
    t0 = time.perf_counter()
    stepper = BackwardStepper(loss)
    t1 = time.perf_counter()
    stepper.drawing.svg()
    t2 = time.perf_counter()
    stepper.widget()
    t3 = time.perf_counter()
    times = {"walk": t1 - t0, "layout": t2 - t1, "widget": t3 - t2, "total": t3 - t0}
    return stepper, times


def widget_memory(nodes: int, count: int = 50) -> tuple[float, float, float]:
    """MB traced while ``count`` widgets are open, MB left after closing them
    and dropping the steppers, and MB left once viz's bounded caches are
    cleared too (the walk's memory of saved slots, `viz.graph.SLOT_MEMORY`, and
    the DOT writer's cache of quoted strings, 4,096 entries): what the widgets
    themselves still hold. Each stepper is stepped halfway first."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    steppers = []
    for _ in range(count):
        stepper = BackwardStepper(fresh_loss(nodes))
        stepper.widget()._repr_mimebundle_()  # as when displayed
        stepper.goto(stepper.total // 2)
        steppers.append(stepper)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    for stepper in steppers:
        stepper.widget().close()
    del steppers, stepper
    gc.collect()
    left = tracemalloc.get_traced_memory()[0] - base
    SLOT_MEMORY.clear()
    _quote.cache_clear()
    gc.collect()
    cleared = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return held / 2**20, left / 2**20, cleared / 2**20


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--memory-nodes", type=int, default=40)
    args = parser.parse_args()
    comm.create_comm = lambda **kw: JsonComm(**kw)

    loss = fresh_loss(args.nodes)
    g = build_graph(loss)
    print(
        f"graph: {drawn_nodes(g)} drawn nodes ({len(g.functions)} grad_fn / "
        f"AccumulateGrad nodes, {len(g.saved)} saved tensors)"
    )

    prepares, steps, replays, per_step_bytes = [], [], [], []
    steps_cpu: list[float] = []  # CPU time: what the step costs on an idle machine
    for _ in range(args.repeat):
        stepper, times = prepare(fresh_loss(args.nodes))
        prepares.append(times)
        while True:
            before = JsonComm.sent_bytes
            t, cpu = time.perf_counter(), time.process_time()
            frame = stepper.next()
            dt, dcpu = time.perf_counter() - t, time.process_time() - cpu
            if frame is None:
                break
            steps.append(dt)
            steps_cpu.append(dcpu)
            per_step_bytes.append(JsonComm.sent_bytes - before)
        for k in range(stepper.step, 0, -1):  # Prev through every frame
            t = time.perf_counter()
            stepper.goto(k - 1)
            replays.append(time.perf_counter() - t)

    def med(key: str) -> float:
        return statistics.median(p[key] for p in prepares)

    total = med("total")
    print(
        f"prepare: {total:.3f} s median of {args.repeat} (walk {med('walk'):.3f}, "
        f"layout {med('layout'):.3f}, widget {med('widget'):.3f})  "
        f"target < {PREPARE_TARGET_S:.1f} s  "
        f"{'OK' if total < PREPARE_TARGET_S else 'OVER'}"
    )
    steps_ms = sorted(s * 1000 for s in steps)
    p95 = steps_ms[int(0.95 * (len(steps_ms) - 1))]
    step_med = statistics.median(steps_ms)
    print(
        f"next(): {step_med:.2f} ms median, {p95:.2f} ms p95, {steps_ms[-1]:.2f} ms "
        f"max over {len(steps_ms)} steps  target < {STEP_TARGET_MS:.0f} ms  "
        f"{'OK' if p95 < STEP_TARGET_MS else 'OVER'}"
    )
    cpu_ms = sorted(s * 1000 for s in steps_cpu)
    print(
        f"next() CPU time: {statistics.median(cpu_ms):.2f} ms median, "
        f"{cpu_ms[int(0.95 * (len(cpu_ms) - 1))]:.2f} ms p95 (wall time above "
        "includes waiting for a shared CPU)"
    )
    replay_ms = statistics.median(r * 1000 for r in replays)
    print(f"prev/goto (replay): {replay_ms:.2f} ms median")
    print(
        f"sent per step: {statistics.median(per_step_bytes):.0f} B median, "
        f"{max(per_step_bytes)} B max ({JsonComm.messages} messages in all)"
    )
    widget_memory(args.memory_nodes, 2)  # first-use caches, not counted
    held, left, cleared = widget_memory(args.memory_nodes)
    print(
        f"50 widgets ({args.memory_nodes}-node graphs, stepped halfway): "
        f"{held:.1f} MB while open, {left:.2f} MB left after close() "
        f"({cleared:.2f} MB once viz's bounded caches are cleared)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
