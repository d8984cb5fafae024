"""Shared timing for the kernel benchmarks (bench_conv.py, bench_mlp.py): one
thread, the cycle collector's long-lived objects frozen, minigrad and PyTorch
interleaved call by call so both see the same machine load; median and mean.

The clock is the process's CPU time (``time.process_time``): on a machine
shared with other jobs a wall clock also counts the time the process waited
for a core, which is noise for both frameworks (each runs on one thread, so
CPU time is the time of the work)."""

from __future__ import annotations

import gc
import os
import statistics
import time
from collections.abc import Callable

# One thread everywhere, set before numpy (and its BLAS) is imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"


def freeze() -> None:
    """Move everything imported so far out of the cycle collector's view: its
    full collections would otherwise walk every module object now and then, and
    the mean step would carry them (the median would not)."""
    gc.collect()
    gc.freeze()


def interleaved(
    steps: dict[str, Callable[[], object]], n: int, warmup: int = 5
) -> dict[str, list[float]]:
    """CPU seconds per call of each step, the steps taking turns."""
    times: dict[str, list[float]] = {name: [] for name in steps}
    for step in steps.values():
        for _ in range(warmup):
            step()
    for _ in range(n):
        for name, step in steps.items():
            start = time.process_time()
            step()
            times[name].append(time.process_time() - start)
    return times


def report(title: str, times: dict[str, list[float]], base: str = "pytorch") -> dict:
    """Print median and mean (µs) and each one's ratio to ``base``; return the
    median ratios."""
    med = {k: statistics.median(v) for k, v in times.items()}
    mean = {k: statistics.fmean(v) for k, v in times.items()}
    print(title)
    for name in times:
        m, a = med[name], mean[name]
        print(
            f"  {name:9s} median {m * 1e6:9.1f} us ({m / med[base]:.2f}x)"
            f"   mean {a * 1e6:9.1f} us ({a / mean[base]:.2f}x)"
        )
    return {k: med[k] / med[base] for k in times}
