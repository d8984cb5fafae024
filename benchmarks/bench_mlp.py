"""One training step of an MNIST-sized MLP in minigrad and in PyTorch (and
MyGrad, when it is installed), in two forms.

784-256-10 with ReLU, batch 64:

- ``nn``: ``nn.Sequential`` of ``nn.Linear``, cross-entropy, ``optim.SGD``
  (``zero_grad``, forward, ``backward``, ``step``);
- ``hand``: hand-written, ``x @ w.t() + b``, MSE, and the update
  ``w -= lr * w.grad`` under ``no_grad`` (then ``w.grad = None``).

The frameworks run single-threaded, interleaved step by step in the same
process, on the same data and initial weights; the script checks the losses
agree and prints median and mean CPU time per step and the ratios to PyTorch
(target: at most 1.1).

    python benchmarks/bench_mlp.py [--steps N] [--dtype float32|float64]
"""

from __future__ import annotations

import argparse
from types import ModuleType

import _timing  # noqa: I001 (sets one thread before numpy is imported)
import numpy as np

import minigrad

BATCH, SIZES, LR = 64, (784, 256, 10), 0.01


def nn_step(lib: ModuleType, init: dict, x: np.ndarray, y: np.ndarray, dtype: str):
    nn = lib.nn
    model = nn.Sequential(
        nn.Linear(SIZES[0], SIZES[1]), nn.ReLU(), nn.Linear(*SIZES[1:])
    )
    model.load_state_dict({k: lib.tensor(v) for k, v in init.items()})
    model.to(getattr(lib, dtype))
    opt = lib.optim.SGD(model.parameters(), lr=LR)
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


def hand_step(lib: ModuleType, init: dict, x: np.ndarray, y: np.ndarray, dtype: str):
    params = [
        lib.tensor(init[k].astype(dtype), requires_grad=True)
        for k in ("0.weight", "0.bias", "2.weight", "2.bias")
    ]
    w1, b1, w2, b2 = params
    inputs = lib.tensor(x.astype(dtype))
    targets = lib.tensor(np.eye(SIZES[2], dtype=dtype)[y])

    def step() -> float:
        h = (inputs @ w1.t() + b1).relu()
        loss = ((h @ w2.t() + b2 - targets) ** 2).mean()
        loss.backward()
        with lib.no_grad():
            for p in params:
                p -= LR * p.grad
                p.grad = None
        return loss.item()

    return step


def mygrad_hand_step(
    mg: ModuleType, init: dict, x: np.ndarray, y: np.ndarray, dtype: str
):
    """The hand-written step in MyGrad's API (its own no_grad and in-place)."""
    params = [
        mg.tensor(init[k].astype(dtype))
        for k in ("0.weight", "0.bias", "2.weight", "2.bias")
    ]
    w1, b1, w2, b2 = params
    inputs, targets = x.astype(dtype), np.eye(SIZES[2], dtype=dtype)[y]

    def step() -> float:
        h = mg.nnet.relu(mg.matmul(inputs, w1.T) + b1)
        loss = mg.mean((mg.matmul(h, w2.T) + b2 - targets) ** 2)
        loss.backward()
        with mg.no_autodiff:
            for p in params:
                p -= LR * p.grad
        return loss.item()

    return step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    args = parser.parse_args()
    import torch

    try:
        import mygrad
    except ImportError:
        mygrad = None
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
    _timing.freeze()
    print(f"MLP {'-'.join(map(str, SIZES))}, batch {BATCH}, {args.dtype}, SGD step")
    print(f"numpy {np.__version__}, torch {torch.__version__}, 1 thread each")
    for form, make in (("nn.Linear + optim.SGD", nn_step), ("hand-written", hand_step)):
        steps = {
            "minigrad": make(minigrad, init, x, y, args.dtype),
            "pytorch": make(torch, init, x, y, args.dtype),
        }
        if mygrad is not None and make is hand_step:
            steps["mygrad"] = mygrad_hand_step(mygrad, init, x, y, args.dtype)
        losses = {name: [step() for _ in range(3)] for name, step in steps.items()}
        diff = max(abs(a - b) for a, b in zip(losses["minigrad"], losses["pytorch"]))
        times = _timing.interleaved(steps, args.steps)
        _timing.report(f"{form} (loss difference over 3 steps {diff:.1e})", times)
    if mygrad is None:
        print("MyGrad is not installed: no MyGrad figures")


if __name__ == "__main__":
    main()
