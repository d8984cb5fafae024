"""One training step of an MNIST-sized MLP in minigrad and in PyTorch.

784-256-10 with ReLU, batch 64, cross-entropy, plain SGD: forward, backward,
``zero_grad`` and ``step``. Both frameworks run single-threaded, interleaved step
by step in the same process, on the same data and initial weights; the script
prints the median step time of each and the ratio (target: at most 1.1).

    python benchmarks/bench_mlp.py [--steps N] [--dtype float32|float64]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from types import ModuleType

# One thread everywhere, set before numpy (and its BLAS) is imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import numpy as np  # noqa: E402

import minigrad  # noqa: E402

BATCH, SIZES = 64, (784, 256, 10)


def make_step(lib: ModuleType, init: dict, x: np.ndarray, y: np.ndarray, dtype: str):
    nn = lib.nn
    model = nn.Sequential(
        nn.Linear(SIZES[0], SIZES[1]), nn.ReLU(), nn.Linear(*SIZES[1:])
    )
    model.load_state_dict({k: lib.tensor(v) for k, v in init.items()})
    model.to(getattr(lib, dtype))
    opt = lib.optim.SGD(model.parameters(), lr=0.01)
    inputs = lib.tensor(x.astype(dtype))
    targets = lib.tensor(y)
    criterion = nn.CrossEntropyLoss()

    def step() -> float:
        opt.zero_grad()
        loss = criterion(model(inputs), targets)
        loss.backward()
        opt.step()
        return loss.item()

    return step


def interleaved(
    steps: dict[str, Callable[[], float]], n: int
) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in steps}
    for step in steps.values():  # warm up
        for _ in range(5):
            step()
    for _ in range(n):
        for name, step in steps.items():
            start = time.perf_counter()
            step()
            times[name].append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(0)
    reference = torch.nn.Sequential(
        torch.nn.Linear(SIZES[0], SIZES[1]),
        torch.nn.ReLU(),
        torch.nn.Linear(*SIZES[1:]),
    )
    init = {k: v.numpy() for k, v in reference.state_dict().items()}
    rng = np.random.default_rng(0)
    x = rng.standard_normal((BATCH, SIZES[0]))
    y = rng.integers(0, SIZES[2], BATCH)
    steps = {
        "minigrad": make_step(minigrad, init, x, y, args.dtype),
        "pytorch": make_step(torch, init, x, y, args.dtype),
    }
    losses = {name: [step() for _ in range(3)] for name, step in steps.items()}
    diff = np.abs(np.subtract(losses["minigrad"], losses["pytorch"])).max()
    times = interleaved(steps, args.steps)
    med = {name: statistics.median(t) * 1e6 for name, t in times.items()}
    print(f"MLP {'-'.join(map(str, SIZES))}, batch {BATCH}, {args.dtype}, SGD step")
    print(f"  loss difference over 3 steps: {diff:.2e}")
    print(f"  numpy {np.__version__}, torch {torch.__version__}, 1 thread each")
    for name, us in med.items():
        print(f"  {name:9s} median {us:8.1f} us/step")
    print(f"  ratio minigrad / pytorch: {med['minigrad'] / med['pytorch']:.2f}")


if __name__ == "__main__":
    main()
