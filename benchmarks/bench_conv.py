"""conv2d and max_pool2d, forward + backward, in minigrad and in PyTorch.

Lesson-sized layers: MNIST (1x28x28 -> 8, 8 -> 32 channels) and CIFAR
(3x32x32 -> 16, 16 -> 32), batch 64, 3x3 kernels with padding 1, float32; and
a 2x2 max pooling of each layer's output. Both frameworks run single-threaded,
interleaved call by call, on the same data; the script checks the values and
gradients agree and prints median and mean per call and the ratios (targets:
conv2d at most 1.5x, max_pool2d at most 1.2x). ``--geometries`` also times
the convolution's other paths (stride, dilation, groups, 1x1, 5x5, conv1d,
conv3d, transposed), to check a change to one path slows none of the others.

    python benchmarks/bench_conv.py [--repeats N] [--geometries]
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
# name: (op, batch, input channels, input size, output channels, kernel, keywords)
GEOMETRIES = {
    "stride 2, 16->32 32x32": ("conv2d", 64, 16, (32, 32), 32, 3, dict(stride=2)),
    "dilation 2, 16->32 16x16": ("conv2d", 64, 16, (16, 16), 32, 3, dict(dilation=2)),
    "groups 4, 32->32 16x16": ("conv2d", 64, 32, (16, 16), 32, 3, dict(groups=4)),
    "1x1, 64->32 16x16": ("conv2d", 64, 64, (16, 16), 32, 1, dict(padding=0)),
    "5x5 no padding, 3->16 32x32": ("conv2d", 64, 3, (32, 32), 16, 5, dict(padding=0)),
    "16->32, length 256, k 5": ("conv1d", 64, 16, (256,), 32, 5, dict(padding=2)),
    "4->8 8x8x8": ("conv3d", 16, 4, (8, 8, 8), 8, 3, {}),
    "32->16 16x16": ("conv_transpose2d", 64, 32, (16, 16), 16, 3, {}),
    "stride 2, 32->16 8x8": ("conv_transpose2d", 64, 32, (8, 8), 16, 4, {"stride": 2}),
}


def conv_step(
    lib: ModuleType,
    x: np.ndarray,
    w: np.ndarray,
    b: np.ndarray,
    op: str = "conv2d",
    **keywords: object,
):
    xt = lib.tensor(x, requires_grad=True)
    wt = lib.tensor(w, requires_grad=True)
    bt = lib.tensor(b, requires_grad=True)
    conv = getattr(lib.nn.functional, op)
    keywords = {"padding": 1, **keywords}

    def step() -> tuple:
        xt.grad = wt.grad = bt.grad = None
        out = conv(xt, wt, bt, **keywords)
        out.sum().backward()
        return out, xt.grad, wt.grad, bt.grad

    return step


def time_geometries(repeats: int, rng: np.random.Generator) -> None:
    """The convolution's other paths, forward + backward, against PyTorch."""
    import torch

    for name, (op, n, c, size, o, k, keywords) in GEOMETRIES.items():
        x = rng.standard_normal((n, c) + size).astype(np.float32)
        groups = int(keywords.get("groups", 1))
        if op.startswith("conv_transpose"):
            shape = (c, o // groups) + (k,) * len(size)
        else:
            shape = (o, c // groups) + (k,) * len(size)
        w = (rng.standard_normal(shape) / (k * c**0.5)).astype(np.float32)
        b = rng.standard_normal(o).astype(np.float32)
        steps = {
            "minigrad": conv_step(minigrad, x, w, b, op, **keywords),
            "pytorch": conv_step(torch, x, w, b, op, **keywords),
        }
        diff = _agree(steps["minigrad"](), steps["pytorch"]())
        times = _timing.interleaved(steps, repeats)
        _timing.report(f"{op} {name}, batch {n} (max rel. diff {diff:.1e})", times)


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
    parser.add_argument(
        "--geometries", action="store_true", help="also time the other conv paths"
    )
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
    if args.geometries:
        time_geometries(args.repeats, rng)


if __name__ == "__main__":
    main()
