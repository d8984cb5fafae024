"""Activation checkpointing: the memory it saves and the time it costs.

A deep tanh MLP (``--layers`` Linear+Tanh pairs of width ``--width``, a batch
of ``--batch``) runs forward and backward plainly, then checkpointed in
``--segments`` pieces (``checkpoint_sequential``, non-reentrant and
reentrant). For each it prints the peak memory traced during the step (numpy
reports its arrays to tracemalloc), the median time of a step, and both as
ratios to the plain run of the same process. The gradients are checked equal
to the plain ones.

    python benchmarks/bench_checkpoint.py [--layers N] [--width W] [--batch B]
                                          [--segments S] [--repeats R]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
import tracemalloc

import minigrad
from minigrad import nn
from minigrad.utils.checkpoint import checkpoint_sequential


def step(model: nn.Module, x: minigrad.Tensor, how: str, segments: int) -> None:
    model.zero_grad(set_to_none=True)
    if how == "plain":
        out = model(x)
    else:
        out = checkpoint_sequential(
            model, segments, x, use_reentrant=how == "reentrant"
        )
    out.square().mean().backward()


def measure(
    model: nn.Module, x: minigrad.Tensor, how: str, segments: int, repeats: int
):
    step(model, x, how, segments)  # warm up
    gc.collect()
    tracemalloc.start()
    step(model, x, how, segments)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    grads = [p.grad.clone() for p in model.parameters()]
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        step(model, x, how, segments)
        times.append(time.perf_counter() - start)
    return peak, statistics.median(times), grads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=16)
    parser.add_argument("--width", type=int, default=128)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--segments", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    minigrad.manual_seed(0)
    layers = []
    for _ in range(args.layers):
        layers += [nn.Linear(args.width, args.width), nn.Tanh()]
    model = nn.Sequential(*layers)
    x = minigrad.randn(args.batch, args.width, requires_grad=True)
    results = {
        how: measure(model, x, how, args.segments, args.repeats)
        for how in ("plain", "non-reentrant", "reentrant")
    }
    base_peak, base_time, base_grads = results["plain"]
    width, batch = args.width, args.batch
    print(f"{args.layers} x Linear({width}, {width}) + Tanh, batch {batch}, "
          f"{args.segments} segments")  # fmt: skip
    print(
        f"{'':>14} {'peak MiB':>9} {'x plain':>8} {'ms/step':>8} {'x plain':>8}  grads"
    )
    for how, (peak, seconds, grads) in results.items():
        same = all(minigrad.allclose(a, b) for a, b in zip(grads, base_grads))
        print(f"{how:>14} {peak / 2**20:9.2f} {peak / base_peak:8.2f} "
              f"{seconds * 1e3:8.1f} {seconds / base_time:8.2f}  "
              f"{'equal' if same else 'DIFFER'}")  # fmt: skip


if __name__ == "__main__":
    main()
