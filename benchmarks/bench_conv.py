"""conv2d and max_pool2d, forward + backward, in minigrad and in PyTorch.

Lesson-sized layers: MNIST (1x28x28 -> 8, 8 -> 32 channels) and CIFAR
(3x32x32 -> 16, 16 -> 32), batch 64, 3x3 kernels with padding 1, float32; and
a 2x2 max pooling of each layer's output. Both frameworks run single-threaded,
interleaved call by call, on the same data; the script checks the values and
gradients agree and prints median and mean per call and the ratios (targets:
conv2d at most 1.5x, max_pool2d at most 1.2x).

    python benchmarks/bench_conv.py [--repeats N]
"""

from __future__ import annotations

import argparse
from types import ModuleType

import _timing  # noqa: I001 (sets one thread before numpy is imported)
import numpy as np

import minigrad

BATCH = 64
CONVS = {  # name: (input channels, size, output channels)
    "MNIST 1->8 28x28": (1, 28, 8),
    "MNIST 8->32 14x14": (8, 14, 32),
    "CIFAR 3->16 32x32": (3, 32, 16),
    "CIFAR 16->32 16x16": (16, 16, 32),
}


def conv_step(lib: ModuleType, x: np.ndarray, w: np.ndarray, b: np.ndarray):
    xt = lib.tensor(x, requires_grad=True)
    wt = lib.tensor(w, requires_grad=True)
    bt = lib.tensor(b, requires_grad=True)

    def step() -> tuple:
        xt.grad = wt.grad = bt.grad = None
        out = lib.nn.functional.conv2d(xt, wt, bt, padding=1)
        out.sum().backward()
        return out, xt.grad, wt.grad, bt.grad

    return step


def pool_step(lib: ModuleType, x: np.ndarray):
    xt = lib.tensor(x, requires_grad=True)

    def step() -> tuple:
        xt.grad = None
        out, idx = lib.nn.functional.max_pool2d(xt, 2, return_indices=True)
        (out * out).sum().backward()
        return out, idx, xt.grad

    return step


def _agree(a: tuple, b: tuple) -> float:
    """The largest relative difference between the two steps' results."""
    worst = 0.0
    for p, q in zip(a, b):
        p, q = np.asarray(p.detach().numpy()), np.asarray(q.detach().numpy())
        scale = max(1.0, float(np.abs(q).max()))
        worst = max(worst, float(np.abs(p - q).max()) / scale)
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    _timing.freeze()
    rng = np.random.default_rng(0)
    print(f"batch {BATCH}, float32, numpy {np.__version__}, torch {torch.__version__}")
    for name, (c, n, o) in CONVS.items():
        x = rng.standard_normal((BATCH, c, n, n)).astype(np.float32)
        w = (rng.standard_normal((o, c, 3, 3)) / (3 * c**0.5)).astype(np.float32)
        b = rng.standard_normal(o).astype(np.float32)
        steps = {
            "minigrad": conv_step(minigrad, x, w, b),
            "pytorch": conv_step(torch, x, w, b),
        }
        diff = _agree(steps["minigrad"](), steps["pytorch"]())
        times = _timing.interleaved(steps, args.repeats)
        _timing.report(f"conv2d {name}, 3x3 pad 1 (max rel. diff {diff:.1e})", times)
        y = rng.standard_normal((BATCH, o, n, n)).astype(np.float32)
        steps = {"minigrad": pool_step(minigrad, y), "pytorch": pool_step(torch, y)}
        diff = _agree(steps["minigrad"](), steps["pytorch"]())
        times = _timing.interleaved(steps, args.repeats)
        _timing.report(
            f"max_pool2d 2x2 of {o}x{n}x{n} (max rel. diff {diff:.1e})", times
        )


if __name__ == "__main__":
    main()
