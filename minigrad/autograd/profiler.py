"""``minigrad.autograd.profiler`` (``torch.autograd.profiler``): a small, honest
profiler. ``with profile() as prof:`` records every op that goes through
``Function.apply`` and every node the engine runs, with their CPU times (wall
clock, ``perf_counter_ns``), and ``record_function("name")`` blocks;
``prof.key_averages().table(sort_by=..., row_limit=...)`` prints PyTorch's table.

What it names: ``aten::mm`` for the op whose node is ``MmBackward0`` (one range
per op; PyTorch's composite ops also record the ATen ops they call, e.g.
``aten::linear`` around ``aten::t`` and ``aten::addmm``, and minigrad records
only the op it runs, but for ``square`` and ``conv2d``: ``_profiling.composite``),
a user's Function by its class, and in backward
``autograd::engine::evaluate_function: XBackward0`` around ``XBackward0`` (the
formula). A formula that runs on numpy arrays records no ops inside its node;
under ``create_graph=True`` its ops are recorded, as PyTorch's are. Tensors made
without an op (factories, ``.grad``'s seed of ones) are not recorded. The
ranges' bookkeeping lives in ``minigrad/_profiling.py``.
"""

from __future__ import annotations

import contextlib
import json
import math
from time import perf_counter_ns
from typing import Any

from .. import _fastpath, _profiling
from .._warn import warn

__all__ = [
    "EventList",
    "FunctionEvent",
    "FunctionEventAvg",
    "profile",
    "record_function",
]


def _format_time(time_us: float) -> str:
    """PyTorch's time format: microseconds, milliseconds or seconds."""
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _format_share(time_us: float, total_us: float) -> str:
    return "NaN" if total_us == 0 else f"{time_us * 100.0 / total_us:.2f}%"


class _Times:
    """The ``*_str`` forms and the device columns (always zero on the CPU)."""

    cpu_time_total: float
    self_cpu_time_total: float
    count: int
    device_time_total = self_device_time_total = 0.0
    cuda_time_total = self_cuda_time_total = 0.0
    is_async = False
    node_id = -1
    overload_name = ""
    # what PyTorch's events also say: no device, memory, flops or stack recorded
    device_type = "CPU"
    use_device = None
    is_legacy = is_user_annotation = False
    cpu_memory_usage = self_cpu_memory_usage = 0
    device_memory_usage = self_device_memory_usage = 0
    flops = 0  # (counted for PyTorch's ops with with_flops=True: _profiling.py)
    stack: list[str] = []

    @property
    def cpu_time(self) -> float:
        """The average time per call."""
        return self.cpu_time_total / self.count if self.count else 0.0

    @property
    def cpu_time_str(self) -> str:
        return _format_time(self.cpu_time)

    @property
    def cpu_time_total_str(self) -> str:
        return _format_time(self.cpu_time_total)

    @property
    def self_cpu_time_total_str(self) -> str:
        return _format_time(self.self_cpu_time_total)


class FunctionEvent(_Times):
    """One recorded call: an op, a backward node, or a ``record_function`` block.
    Times are in microseconds, as PyTorch gives them."""

    def __init__(self, id: int, r: _profiling.Range, origin_ns: int) -> None:
        self.id = id
        self.name = self.key = r.name
        self.count = 1
        self.thread = 1
        self.input_shapes = r.input_shapes
        self.flops = r.flops
        self.start_us = (r.start_ns - origin_ns) / 1000
        self.end_us = (r.end_ns - origin_ns) / 1000
        self.cpu_time_total = self.end_us - self.start_us
        self.cpu_parent: FunctionEvent | None = None
        self.cpu_children: list[FunctionEvent] = []

    @property
    def self_cpu_time_total(self) -> float:  # type: ignore[override]
        """Its time less its children's."""
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    def __repr__(self) -> str:
        return (
            f"<FunctionEvent id={self.id} name={self.name} cpu_time="
            f"{self.cpu_time_str} start_us={self.start_us:.3f} end_us="
            f"{self.end_us:.3f} cpu_children={[c.id for c in self.cpu_children]} "
            f"input_shapes={self.input_shapes}>"
        )


class FunctionEventAvg(_Times):
    """The calls of one name (and input shapes, when grouped by them) summed."""

    def __init__(self, key: str, input_shapes: Any = None) -> None:
        self.key = key
        self.input_shapes = input_shapes
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.cpu_parent: FunctionEvent | None = None  # the first call's, as PyTorch's
        self.cpu_children: list[FunctionEvent] = []

    def add(self, e: FunctionEvent) -> FunctionEventAvg:
        if self.count == 0:
            self.cpu_parent, self.cpu_children = e.cpu_parent, e.cpu_children
        self.count += e.count
        self.cpu_time_total += e.cpu_time_total
        self.self_cpu_time_total += e.self_cpu_time_total
        self.flops += e.flops
        return self

    def __repr__(self) -> str:
        shapes = "" if self.input_shapes is None else self.input_shapes
        return (
            f"<FunctionEventAvg key={self.key} self_cpu_time="
            f"{self.self_cpu_time_total_str} cpu_time={self.cpu_time_str}  "
            f"input_shapes={shapes}>"
        )


class EventList(list):
    """A list of events (or of their averages) that prints as PyTorch's table
    (with a FLOPs column when profiled ``with_flops``)."""

    _with_flops = False

    def _like(self, events: Any) -> EventList:
        """``events`` as an EventList profiled as this one was."""
        out = EventList(events)
        out._with_flops = self._with_flops
        return out

    def table(
        self,
        sort_by: str | None = None,
        row_limit: int = 100,
        max_src_column_width: int = 75,
        max_name_column_width: int = 55,
        max_shapes_column_width: int = 80,
        header: str | None = None,
        top_level_events_only: bool = False,
        time_unit: str | None = None,
    ) -> str:
        return _table(
            self,
            sort_by,
            row_limit,
            max_name_column_width,
            max_shapes_column_width,
            header,
            top_level_events_only,
            time_unit,
            self._with_flops,
        )

    def __str__(self) -> str:
        return self.table()

    def key_averages(
        self, group_by_input_shapes: bool = False, group_by_stack_n: int = 0
    ) -> EventList:
        """One ``FunctionEventAvg`` per name (per name and input shapes), in the
        order the names first appear."""
        stats: dict[tuple, FunctionEventAvg] = {}
        for e in self:
            shapes = str(e.input_shapes) if group_by_input_shapes else ""
            avg = stats.get((e.key, shapes))
            if avg is None:
                kept = e.input_shapes if group_by_input_shapes else None
                avg = stats[e.key, shapes] = FunctionEventAvg(e.key, kept)
            avg.add(e)
        return self._like(stats.values())

    def total_average(self) -> FunctionEventAvg:
        total = FunctionEventAvg("Total")
        for e in self:
            total.add(e)
        return total

    @property
    def self_cpu_time_total(self) -> float:
        return sum(e.self_cpu_time_total for e in self)

    def export_chrome_trace(self, path: str) -> None:
        """The events as a Chrome trace (chrome://tracing, Perfetto)."""
        trace = [
            {
                "ph": "X",
                "cat": "cpu_op",
                "name": e.name,
                "pid": 0,
                "tid": e.thread,
                "ts": e.start_us,
                "dur": e.cpu_time_total,
                "args": {"Input Dims": e.input_shapes},
            }
            for e in self
        ]
        with open(path, "w") as f:
            json.dump({"traceEvents": trace}, f)


def _table(
    events: list,
    sort_by: str | None,
    row_limit: int,
    name_width_max: int | None,
    shapes_width_max: int | None,
    header: str | None,
    top_level_only: bool,
    time_unit: str | None,
    with_flops: bool = False,
) -> str:
    """PyTorch's table: the same columns, widths, truncation and footer."""
    if not events:
        return ""
    if sort_by is not None:
        key = sort_by.replace("cuda", "device")
        events = sorted(events, key=lambda e: getattr(e, key), reverse=True)
    shapes_on = any(e.input_shapes for e in events)
    name_width = max(len(e.key) for e in events) + 4
    if name_width_max is not None:
        name_width = min(name_width, name_width_max)
    shapes_width = max(len(str(e.input_shapes)) for e in events) + 4
    if shapes_width_max is not None:
        shapes_width = min(shapes_width, shapes_width_max)
    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total"]
    headers += ["CPU time avg", "# of Calls"]
    widths = [name_width] + [12] * 6
    if shapes_on:
        headers.append("Input Shapes")
        widths.append(shapes_width)
    counted = [e.flops for e in events if e.flops > 0]
    if with_flops and counted:  # in the unit of the smallest count
        power = min(int(math.log10(min(counted)) // 3), 5)
        scale = 10.0 ** (power * -3.0)
        headers.append("Total " + ["", "K", "M", "G", "T", "P"][power] + "FLOPs")
        widths.append(12)
    row = "".join("{:>" + str(w) + "}  " for w in widths)
    sep = "".join("-" * w + "  " for w in widths)
    line_length = sum(w + 2 for w in widths) - 2

    def time(us: float, default: str) -> str:
        scale = {"s": 1e6, "ms": 1e3, "us": 1.0}.get(time_unit or "")
        return default if scale is None else f"{us / scale:.3f}{time_unit}"

    total = sum(e.self_cpu_time_total for e in events)
    lines = []
    if header is not None:
        lines += ["=" * line_length, header]
    if top_level_only:
        lines += [
            "=" * line_length,
            "This report only display top-level ops statistics",
        ]
    lines += [sep, row.format(*headers), sep]
    shown = 0
    for e in events:
        if shown == row_limit:
            break
        if top_level_only and getattr(e, "cpu_parent", None) is not None:
            continue
        shown += 1
        name = e.key
        if name_width_max is not None and len(name) >= name_width_max - 3:
            name = name[: name_width_max - 3] + "..."
        values = [
            name,
            _format_share(e.self_cpu_time_total, total),
            time(e.self_cpu_time_total, e.self_cpu_time_total_str),
            _format_share(e.cpu_time_total, total),
            time(e.cpu_time_total, e.cpu_time_total_str),
            time(e.cpu_time, e.cpu_time_str),
            e.count,
        ]
        if shapes_on:
            values.append(str(e.input_shapes)[:shapes_width])
        if with_flops and counted:
            values.append(f"{e.flops * scale:8.3f}" if e.flops > 0 else "--")
        lines.append(row.format(*values))
    lines += [sep, f"Self CPU time total: {time(total, _format_time(total))}"]
    return "".join(line + "\n" for line in lines)


class profile:  # noqa: N801 - PyTorch's spelling
    """``with profile() as prof:`` records the ops and nodes run inside the
    block (``torch.autograd.profiler.profile``). There is no GPU: ``use_cuda``
    and ``use_device`` are accepted and profile nothing more, as PyTorch does
    where CUDA is not available (with its warnings)."""

    def __init__(
        self,
        enabled: bool = True,
        *,
        use_cuda: bool = False,
        use_device: str | None = None,
        record_shapes: bool = False,
        with_flops: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_modules: bool = False,
        use_kineto: bool = False,
        use_cpu: bool = True,
        experimental_config: Any = None,
        acc_events: bool = False,
        custom_trace_id_callback: Any = None,
    ) -> None:
        self.enabled = enabled
        self.record_shapes, self.with_flops = record_shapes, with_flops
        if use_cuda:
            warn(
                "The attribute `use_cuda` will be deprecated soon, please use "
                "``use_device = 'cuda'`` instead.",
                FutureWarning,
            )
            use_device = "cuda"
        if use_device == "cuda" and enabled:
            warn("CUDA is not available, disabling CUDA profiling")
        self.use_device = None
        self.entered = False
        self.function_events: EventList | None = None
        self._recorder: _profiling.Recorder | None = None

    def __enter__(self) -> profile:
        if not self.enabled:
            return self
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        self._start()
        return self

    def _start(self) -> None:
        self._recorder = _profiling.Recorder(self.record_shapes, self.with_flops)
        # every op through Function.apply, every node through run_next
        self._fast_before, _fastpath.enabled = _fastpath.enabled, False
        self._origin_ns = perf_counter_ns()
        # a profiler inside another records alone; the outer one resumes after
        self._outer, _profiling.recorder = _profiling.recorder, self._recorder

    def _stop(self) -> None:
        _profiling.recorder = self._outer
        _fastpath.enabled = self._fast_before
        recorder, self._recorder = self._recorder, None
        if recorder is not None:
            self.function_events = _events(recorder, self._origin_ns)
            self.function_events._with_flops = self.with_flops

    def __exit__(self, *exc: Any) -> None:
        if not self.enabled:
            return
        self._stop()

    def _check_finished(self) -> EventList:
        """The events recorded (none while the block runs, as PyTorch's)."""
        return self.function_events if self.function_events is not None else EventList()

    def key_averages(
        self,
        group_by_input_shape: bool = False,
        group_by_stack_n: int = 0,
        group_by_overload_name: bool = False,
    ) -> EventList:
        return self._check_finished().key_averages(group_by_input_shape)

    def table(self, sort_by: str | None = None, row_limit: int = 100, **kw: Any) -> str:
        return self._check_finished().table(sort_by, row_limit, **kw)

    def total_average(self) -> FunctionEventAvg:
        return self._check_finished().total_average()

    @property
    def self_cpu_time_total(self) -> float:
        return self._check_finished().self_cpu_time_total

    def export_chrome_trace(self, path: str) -> None:
        self._check_finished().export_chrome_trace(path)

    def __str__(self) -> str:
        return self.table()


def _events(recorder: _profiling.Recorder, origin_ns: int) -> EventList:
    """The ranges as ``FunctionEvent``s, numbered from 1, with parents and
    children (a range still open when the block ended ends there)."""
    made: dict[int, FunctionEvent] = {}
    stop = perf_counter_ns()
    out = EventList()
    for i, r in enumerate(recorder.ranges, 1):
        if r.end_ns < 0:
            r.end_ns = stop
        e = FunctionEvent(i, r, origin_ns)
        made[id(r)] = e
        if r.parent is not None and id(r.parent) in made:
            e.cpu_parent = made[id(r.parent)]
            e.cpu_parent.cpu_children.append(e)
        out.append(e)
    return out


class record_function(contextlib.ContextDecorator):  # noqa: N801
    """``with record_function("name"):`` a named range in the profile (also a
    decorator); outside a profiler it records nothing."""

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name
        self.args = args
        self._range: _profiling.Range | None = None

    def __enter__(self) -> record_function:
        recorder = _profiling.recorder
        if recorder is not None:
            self._range = recorder.begin(self.name)
            self._recorder = recorder
        return self

    def __exit__(self, *exc: Any) -> None:
        r, self._range = self._range, None
        if r is not None and _profiling.recorder is self._recorder:
            self._recorder.end(r)

    def _recreate_cm(self) -> record_function:
        # a decorator's calls may nest (recursion): each gets its own range
        return type(self)(self.name, self.args)
