"""What a profiler records while one is on (``autograd/profiler.py`` reads it).

When no profiler is on, ``recorder`` is None and nothing here runs: the core
checks that one name on its general path only, and the fast paths
(``_fastpath.py``) are switched off for as long as a profiler records, so every
op comes through ``Function.apply`` and every node through ``run_next``.

A ``Recorder`` keeps one ``Range`` per op call, per node the engine runs and per
``record_function`` block: its name, start and end (``perf_counter_ns``), the
range it was opened in, and the shapes of its tensor inputs. Op names are
PyTorch's ATen names, made from the node class an op records
(``MmBackward0`` -> ``aten::mm``); a user's Function is named by its class, as
PyTorch names it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from time import perf_counter_ns
from typing import Any

from .node import AccumulateGrad, Node, _call

recorder: Recorder | None = None  # the profiler recording now, if any


@dataclass(eq=False)
class Range:
    """One timed call: an op, a node, or a ``record_function`` block."""

    name: str
    start_ns: int
    parent: Range | None
    input_shapes: list = field(default_factory=list)
    flops: int = 0
    end_ns: int = -1
    children: list[Range] = field(default_factory=list)


class Recorder:
    """The ranges of one profiling session, in the order they were opened."""

    def __init__(self, record_shapes: bool, with_flops: bool = False) -> None:
        self.record_shapes, self.with_flops = record_shapes, with_flops
        self.ranges: list[Range] = []
        self.open: Range | None = None  # the innermost range not yet closed
        self._reentry = False  # see opens()

    def begin(self, name: str, args: Sequence = ()) -> Range:
        shapes = [_shape(a) for a in args] if self.record_shapes else []
        r = Range(name, perf_counter_ns(), self.open, shapes)
        if self.with_flops and name in _FLOPS:
            r.flops = _FLOPS[name](args)
        if self.open is not None:
            self.open.children.append(r)
        self.ranges.append(r)
        self.open = r
        return r

    def end(self, r: Range) -> None:
        r.end_ns = perf_counter_ns()
        self.open = r.parent

    # ``Function.apply`` asks ``opens(cls, args)``: True the first time, when it
    # opens the op's range and then calls itself to run the op; False for that
    # inner call, which runs the op (ops inside a user's forward are opened anew).
    def opens(self, cls: type, args: Sequence) -> bool:
        if self._reentry:
            self._reentry = False
            return False
        self.begin(op_name(cls), args)
        self._reentry = True
        return True

    def inplace(self, cls: type, t: Any, args: tuple) -> Any:
        """``cls.apply(t, *args)`` for an in-place op on ``t``, in one range named
        as PyTorch names the in-place op (``aten::mul_``): the op's own
        ``apply`` runs inside it and opens none."""
        r = self.begin(inplace_name(cls), (t, *args))
        self._reentry = True
        try:
            return cls.apply(t, *args)
        finally:
            self._reentry = False  # (also when apply refused before opening)
            self.end(r)

    def close(self) -> None:
        self._reentry = False  # (forward raised before the inner call began)
        self.end(self.open)

    def evaluating(self, task: Any) -> Callable[[bool], Any]:
        """``task.run_next`` inside PyTorch's ``evaluate_function`` range, named
        for the node at the head of the ready queue (the one it runs)."""
        run_next, ready, selection = task.run_next, task.ready, task.selection

        def run(trace: bool) -> Any:
            node = ready[0][2]
            r = self.begin(f"autograd::engine::evaluate_function: {node_name(node)}")
            runs = selection is None or selection.runs(node)  # (else: captured)
            try:
                if type(node) is AccumulateGrad and runs:  # it runs no formula
                    inner = self.begin(node_name(node))
                    try:
                        return run_next(trace)
                    finally:
                        self.end(inner)
                return run_next(trace)
            finally:
                self.end(r)

        return run

    def timed_call(self, node: Node, grads: list, graph: bool) -> Sequence:
        """The node's formula (``node._call``) as a range named for the node."""
        r = self.begin(node_name(node), grads)
        try:
            return _call(node, grads, graph)
        finally:
            self.end(r)


def node_name(node: Node) -> str:
    if type(node) is AccumulateGrad:  # PyTorch's C++ name, with minigrad for torch
        return "minigrad::autograd::AccumulateGrad"
    return node.name()


_BACKWARD_SUFFIX = re.compile(r"Backwards?\d*$")  # (copy_'s is CopyBackwards)
_WORD = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


# nodes named for a private ATen op (aten::reshape calls aten::_unsafe_view)
_PRIVATE = {"UnsafeView": "unsafe_view"}
# nodes whose ATen name the word rule below would split (Log1PBackward0)
_SPELLED = {"Log1P": "log1p", "Rad2Deg": "rad2deg", "Deg2Rad": "deg2rad"}


def op_name(cls: type) -> str:
    """``aten::mm`` for the op whose node is ``MmBackward0``; a user's
    Function's own class name."""
    if not cls._array_backward:
        return cls.__name__
    name = _BACKWARD_SUFFIX.sub("", cls._backward_cls.__name__)
    if name in _PRIVATE:
        return f"aten::_{_PRIVATE[name]}"
    if name in _SPELLED:
        return f"aten::{_SPELLED[name]}"
    name = re.sub(r"(\d)D", r"\1d", name)  # MaxPool2D... -> max_pool2d...
    return "aten::" + _WORD.sub("_", name).lower()


def unrecorded(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` with no range of its own: work PyTorch does inside the op
    that called for it (the clone an in-place op makes of the value it
    overwrites), which minigrad's profile, as for its ops' other insides, does
    not list."""
    global recorder
    outer, recorder = recorder, None
    try:
        return fn(*args)
    finally:
        recorder = outer


def composite(name: str, inputs: Sequence, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, under a profiler inside a range ``name``: the composite
    ATen op PyTorch records around the op it calls (``aten::conv2d`` around
    ``aten::convolution``), its input shapes those of ``inputs``."""
    if recorder is None:
        return fn(*args)
    r = recorder.begin(name, inputs)
    try:
        return fn(*args)
    finally:
        recorder.end(r)


def inplace_name(cls: type) -> str:
    """``aten::mul_`` for ``mul_``, which runs the op ``aten::mul`` in place."""
    return op_name(cls) + "_"


# ---------------------------------------------------------------------- FLOPs
# The ops PyTorch counts floating point operations of (``with_flops=True``),
# with its formulas: 2 per multiply-add of a matrix product or convolution,
# and, for mul and add, the number of elements of their first operand.
def _matmul_flops(a: Any, b: Any) -> int:
    """``2 * M * K * N`` for ``(…, M, K) @ (…, K, N)`` (a batch of them)."""
    return 2 * math.prod(_shape(a)) * _shape(b)[-1]


def _conv2d_flops(args: Sequence) -> int:
    """``2 * (output elements) * (inputs per output)`` of ``aten::conv2d``;
    0 where PyTorch counts none (an unbatched input, a padding string)."""
    x, w, _, stride, padding, dilation, _ = args
    if len(_shape(x)) != 4 or len(_shape(w)) != 4 or isinstance(padding, str):
        return 0
    n, _, *size = x.shape
    out_channels, per_group, *kernel = w.shape
    out = [
        (size[i] + 2 * _pair(padding)[i] - _pair(dilation)[i] * (kernel[i] - 1) - 1)
        // _pair(stride)[i]
        + 1
        for i in range(2)
    ]
    return 2 * n * out_channels * math.prod(out) * per_group * math.prod(kernel)


def _pair(v: Any) -> tuple:
    return (v, v) if isinstance(v, int) else tuple(v)


_FLOPS: dict[str, Callable[[Sequence], int]] = {
    "aten::mm": lambda args: _matmul_flops(args[0], args[1]),
    "aten::bmm": lambda args: _matmul_flops(args[0], args[1]),
    "aten::addmm": lambda args: _matmul_flops(args[1], args[2]),
    "aten::baddbmm": lambda args: _matmul_flops(args[1], args[2]),
    "aten::conv2d": _conv2d_flops,
    "aten::mul": lambda args: math.prod(_shape(args[0])),
    "aten::add": lambda args: math.prod(_shape(args[0])),
}


def _shape(a: Any) -> list:
    """A tensor's (or gradient array's) shape; ``[]`` for anything else, as
    PyTorch lists a number."""
    shape = getattr(a, "shape", None)
    return list(shape) if isinstance(shape, tuple) else []
