"""Per-op cost of minigrad against PyTorch on lesson-sized tensors.

Runs the same tiny-tensor program in both frameworks, interleaved, single-threaded,
and prints the median time per op (forward + backward) and the ratio. The target
for the core engine is a ratio of at most 2.0 (the speed issue tightens it to 1.0).

    python benchmarks/bench_core.py [--repeats N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from types import ModuleType

# One BLAS thread for numpy, like torch.set_num_threads(1) below: tiny tensors
# measure per-op overhead, not parallel kernels.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import minigrad  # noqa: E402


def chain_program(lib: ModuleType, length: int) -> tuple[Callable[[], None], int]:
    """``length`` rounds of mul, add, tanh on 10-element tensors, then sum and
    backward; returns the program and its number of ops."""
    a = lib.rand(10, requires_grad=True)
    b = lib.rand(10)

    def run() -> None:
        x = a
        for _ in range(length):
            x = (x * b + b).tanh()
        x.sum().backward()
        a.grad = None

    return run, 3 * length + 1


def single_op_program(lib: ModuleType) -> tuple[Callable[[], None], int]:
    """One mul of two 10-element leaves, a sum, and backward."""
    a = lib.rand(10, requires_grad=True)
    b = lib.rand(10, requires_grad=True)

    def run() -> None:
        (a * b).sum().backward()

    return run, 2


def time_per_op(program: Callable[[], None], ops: int, number: int) -> float:
    program()  # warm up
    start = time.perf_counter()
    for _ in range(number):
        program()
    return (time.perf_counter() - start) / number / ops


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        raise SystemExit("PyTorch is needed for the comparison") from None
    torch.set_num_threads(1)

    cases = {
        "chain of 900 ops (mul, add, tanh)": lambda lib: chain_program(lib, 300),
        "one mul + sum, forward+backward": single_op_program,
    }
    print(f"{'benchmark':40} {'minigrad':>11} {'PyTorch':>11} {'ratio':>7}")
    for name, make in cases.items():
        progs = {lib: make(lib) for lib in (minigrad, torch)}
        number = 3 if "chain" in name else 2000
        samples: dict[ModuleType, list[float]] = {minigrad: [], torch: []}
        for _ in range(args.repeats):  # interleaved, so both see the same noise
            for lib, (program, ops) in progs.items():
                samples[lib].append(time_per_op(program, ops, number))
        mg = statistics.median(samples[minigrad]) * 1e6
        th = statistics.median(samples[torch]) * 1e6
        print(f"{name:40} {mg:8.2f} us {th:8.2f} us {mg / th:7.2f}")
    print("target (core issue): ratio <= 2.0 per op; the speed issue aims for 1.0")


if __name__ == "__main__":
    main()
