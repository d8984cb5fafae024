"""Per-op cost of minigrad against PyTorch (and MyGrad) on lesson-sized tensors.

Runs the same tiny-tensor programs in each framework, interleaved, single-threaded,
and prints the median and mean time per op (forward + backward) and minigrad's
ratio to PyTorch, with the objects made by the imports frozen out of the cycle
collector's view (``gc.freeze``). The clock is the process's CPU time, as in
``_timing.py``: on a shared machine a wall clock also counts the waits for a
core. Targets (#18): the tiny-op chain at most 1.15x
PyTorch, ``autograd.grad`` with ``create_graph=True`` at most 1.3x. MyGrad, the
nearest numpy peer, is included in the chain when it is installed. Two floors
come with it: ``bare``, the chain through the smallest engine written in Python
(the algorithm without PyTorch's semantics), and ``numpy``, its numpy kernels
alone.

    python benchmarks/bench_core.py [--repeats N]
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import statistics
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

# One BLAS thread for numpy, like torch.set_num_threads(1) below: tiny tensors
# measure per-op overhead, not parallel kernels.
import _timing  # noqa: I001 (sets one thread before numpy is imported)
import numpy as np

import minigrad

Program = tuple[Callable[[], None], int]  # (run it once, ops per run)


def chain_program(lib: ModuleType, length: int = 300, numbers: bool = False) -> Program:
    """``length`` rounds of mul, add, tanh on 10-element tensors (with
    ``numbers``: the operands are Python numbers), then sum and backward."""
    a = lib.tensor(np.random.rand(10).astype(np.float32), requires_grad=True)
    b = lib.tensor(np.random.rand(10).astype(np.float32))
    s, t = (0.9, 0.1) if numbers else (b, b)

    def run() -> None:
        x = a
        for _ in range(length):
            x = (x * s + t).tanh()
        x.sum().backward()
        a.grad = None

    return run, 3 * length + 1


def mygrad_chain_program(mygrad: ModuleType, length: int = 300) -> Program:
    """The same chain in MyGrad's API (functions instead of methods)."""
    a = mygrad.tensor(np.random.rand(10).astype(np.float32))
    b = np.random.rand(10).astype(np.float32)

    def run() -> None:
        x = a
        for _ in range(length):
            x = mygrad.tanh(x * b + b)
        mygrad.sum(x).backward()

    return run, 3 * length + 1


def numpy_chain_program(length: int = 300) -> Program:
    """The numpy work inside the chain alone: each op's forward kernel and the
    kernels of its gradient formula. Any engine on numpy pays at least this; the
    rest of minigrad's time per op is Python bookkeeping."""
    a = np.random.rand(10).astype(np.float32)
    b = np.random.rand(10).astype(np.float32)

    def run() -> None:
        x, ys = a, []
        for _ in range(length):
            x = np.tanh(x * b + b)
            ys.append(x)
        g = np.ones_like(a)
        for y in reversed(ys):
            g = g * (1 - y * y)  # tanh's gradient
            g = g * b  # mul's (add passes its gradient on)

    return run, 3 * length + 1


def bare_engine_chain_program(length: int = 300) -> Program:
    """The chain through the smallest engine that still works like PyTorch's: a
    node per op with its edges and saved arrays, and in backward a dependency
    count and a ready queue by sequence number. None of PyTorch's semantics (no
    hooks, version checks, grad modes, dtype rules, gradient checks): what
    CPython itself costs per op, the floor for an engine written in Python."""
    seq = itertools.count()

    class Node:
        __slots__ = ("formula", "edges", "saved", "seq", "grad")

        def __init__(self, formula: Any, edges: tuple, saved: tuple) -> None:
            self.formula, self.edges, self.saved = formula, edges, saved
            self.seq, self.grad = next(seq), None

    class T:
        __slots__ = ("data", "node")

        def __init__(self, data: np.ndarray, node: Node | None) -> None:
            self.data, self.node = data, node

        def __mul__(self, o: T) -> T:
            edges = (self.node, o.node)
            saved = (self.data, o.data, o.node is not None, self.node is not None)
            return T(self.data * o.data, Node(mul_grad, edges, saved))

        def __add__(self, o: T) -> T:
            return T(self.data + o.data, Node(add_grad, (self.node, o.node), ()))

        def tanh(self) -> T:
            y = np.tanh(self.data)
            return T(y, Node(tanh_grad, (self.node,), (y,)))

    def mul_grad(g: Any, a: Any, b: Any, need_b: bool, need_a: bool) -> tuple:
        return (g * b if need_a else None), (g * a if need_b else None)

    def add_grad(g: Any) -> tuple:
        return g, g

    def tanh_grad(g: Any, y: Any) -> tuple:
        return (g * (1 - y * y),)

    def backward(root: Node, g: np.ndarray) -> None:
        deps: dict = {}
        stack, seen = [root], {root}
        while stack:
            for e in stack.pop().edges:
                if e is not None:
                    deps[e] = deps.get(e, 0) + 1
                    if e not in seen:
                        seen.add(e)
                        stack.append(e)
        grads, ready = {root: g}, [(-root.seq, root)]
        while ready:
            node = heapq.heappop(ready)[1]
            g = grads.pop(node)
            if node.formula is None:  # a leaf's sink
                node.grad = g if node.grad is None else node.grad + g
                continue
            for e, ge in zip(node.edges, node.formula(g, *node.saved)):
                if e is None or ge is None:
                    continue
                grads[e] = grads[e] + ge if e in grads else ge
                deps[e] -= 1
                if deps[e] == 0:
                    heapq.heappush(ready, (-e.seq, e))

    leaf = Node(None, (), ())
    leaf.seq = 2**64  # a sink runs as soon as it is ready
    a = T(np.random.rand(10).astype(np.float32), leaf)
    b = T(np.random.rand(10).astype(np.float32), None)

    def run() -> None:
        x = a
        for _ in range(length):
            x = (x * b + b).tanh()
        backward(x.node, np.ones_like(x.data))
        leaf.grad = None

    return run, 3 * length


def single_op_program(lib: ModuleType) -> Program:
    """One mul of two 10-element leaves, a sum, and backward."""
    a = lib.rand(10, requires_grad=True)
    b = lib.rand(10, requires_grad=True)

    def run() -> None:
        (a * b).sum().backward()

    return run, 2


def create_graph_program(lib: ModuleType, length: int = 200) -> Program:
    """``autograd.grad(..., create_graph=True)`` through a 200-op chain, then the
    gradient of that gradient: the second-order path of every formula."""
    x = lib.tensor(np.random.rand(10).astype(np.float32), requires_grad=True)

    def run() -> None:
        y = x
        for i in range(length):
            y = (y * 0.9).sin() if i % 2 else y * y + 0.5
        (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
        lib.autograd.grad(g.sum(), x)

    return run, length


def time_per_op(program: Program, number: int) -> float:
    run, ops = program
    run()  # warm up
    start = time.process_time()
    for _ in range(number):
        run()
    return (time.process_time() - start) / number / ops


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        raise SystemExit("PyTorch is needed for the comparison") from None
    torch.set_num_threads(1)
    try:
        import mygrad
    except ImportError:
        mygrad = None
    _timing.freeze()  # the cycle collector's full passes would weigh on the mean only

    cases: list[tuple[str, dict[str, Program], int, str]] = [
        (
            "chain of 900 tiny ops (mul, add, tanh)",
            {
                "minigrad": chain_program(minigrad),
                "PyTorch": chain_program(torch),
                **({"MyGrad": mygrad_chain_program(mygrad)} if mygrad else {}),
                "bare": bare_engine_chain_program(),
                "numpy": numpy_chain_program(),
            },
            3,
            "<= 1.15",
        ),
        (
            "the same chain, Python-number operands",
            {
                "minigrad": chain_program(minigrad, numbers=True),
                "PyTorch": chain_program(torch, numbers=True),
            },
            3,
            "<= 1.15",
        ),
        (
            "one mul + sum, forward+backward",
            {
                "minigrad": single_op_program(minigrad),
                "PyTorch": single_op_program(torch),
            },
            2000,
            "",
        ),
        (
            "grad(create_graph=True), 200-op chain",
            {
                "minigrad": create_graph_program(minigrad),
                "PyTorch": create_graph_program(torch),
            },
            3,
            "<= 1.3",
        ),
    ]
    print(
        f"{'benchmark (per op)':40} {'framework':>9} {'median':>10} {'ratio':>7}"
        f" {'mean':>10} {'ratio':>7}"
    )
    for name, programs, number, target in cases:
        samples: dict[str, list[float]] = {fw: [] for fw in programs}
        for _ in range(args.repeats):  # interleaved, so all see the same noise
            for fw, program in programs.items():
                samples[fw].append(time_per_op(program, number))
        base = statistics.median(samples["PyTorch"])
        base_mean = statistics.fmean(samples["PyTorch"])
        for fw, times in samples.items():
            t, m = statistics.median(times), statistics.fmean(times)
            print(
                f"{name:40} {fw:>9} {t * 1e6:7.2f} us {t / base:7.2f}"
                f" {m * 1e6:7.2f} us {m / base_mean:7.2f}"
            )
            name = ""
        if target:
            print(f"{'':40} {'target':>9} {'':>10} {target:>7}")


if __name__ == "__main__":
    main()
