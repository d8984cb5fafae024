"""Memory of a long training loop: peak traced memory stays flat.

Trains a small MLP (8-64-3, Adam) for 2,000 steps under tracemalloc with the cycle
collector off, and prints the traced memory every 250 steps; flat numbers mean
every step's graph and saved tensors were freed by reference counting alone.

    python benchmarks/bench_memory.py [--steps N]
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc

import minigrad
from minigrad import nn, optim


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    args = parser.parse_args()
    minigrad.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 64), nn.Tanh(), nn.Linear(64, 3))
    opt = optim.Adam(model.parameters(), lr=1e-2)
    x, target = minigrad.randn(128, 8), minigrad.randint(0, 3, (128,))
    loss_fn = nn.CrossEntropyLoss()
    gc.disable()
    tracemalloc.start()
    start = time.perf_counter()
    print(f"{'step':>6} {'current KiB':>12} {'peak KiB':>10} {'loss':>8}")
    for step in range(1, args.steps + 1):
        opt.zero_grad()
        loss = loss_fn(model(x), target)
        loss.backward()
        opt.step()
        if step % 250 == 0 or step == 1:
            current, peak = tracemalloc.get_traced_memory()
            print(f"{step:6d} {current / 1024:12.1f} {peak / 1024:10.1f} "
                  f"{loss.item():8.4f}")  # fmt: skip
            tracemalloc.reset_peak()
    tracemalloc.stop()
    gc.enable()
    print(f"{args.steps} steps in {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
