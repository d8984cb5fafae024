"""``minigrad.profiler`` (``torch.profiler``): PyTorch's current profiler API over
``minigrad.autograd.profiler``'s recorder. ``ProfilerActivity.CPU`` is what
there is; asking for ``CUDA`` records the CPU only, with PyTorch's warning where
CUDA is not available."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from typing import Any

from ._warn import warn
from .autograd import profiler as _autograd_profiler
from .autograd.profiler import EventList, record_function

__all__ = ["ProfilerActivity", "profile", "record_function"]


class ProfilerActivity(enum.Enum):
    """The kinds of activity PyTorch's profiler can record (``CPU`` here)."""

    CPU = 0
    XPU = 1
    MTIA = 2
    CUDA = 3
    HPU = 4
    PrivateUse1 = 5

    def __repr__(self) -> str:
        return f"<ProfilerActivity.{self.name}: {self.value}>"


class profile(_autograd_profiler.profile):  # noqa: N801 - PyTorch's spelling
    """``with torch.profiler.profile(activities=[ProfilerActivity.CPU]) as prof:``.
    ``schedule`` and ``on_trace_ready`` are accepted: with a schedule, minigrad
    records every step (there are no warm-up or skipped steps) and calls
    ``on_trace_ready(prof)`` once, when the block ends."""

    def __init__(
        self,
        *,
        activities: Iterable[ProfilerActivity] | None = None,
        schedule: Callable[[int], Any] | None = None,
        on_trace_ready: Callable[[Any], Any] | None = None,
        record_shapes: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_flops: bool = False,
        with_modules: bool = False,
        experimental_config: Any = None,
        execution_trace_observer: Any = None,
        acc_events: bool = False,
        use_cuda: bool | None = None,
        custom_trace_id_callback: Any = None,
    ) -> None:
        activities = set(activities) if activities else {ProfilerActivity.CPU}
        super().__init__(
            record_shapes=record_shapes,
            profile_memory=profile_memory,
            with_flops=with_flops,
        )
        if ProfilerActivity.CUDA in activities or use_cuda:
            warn("CUDA is not available, disabling CUDA profiling")
        self.activities = activities
        self.on_trace_ready = on_trace_ready
        self.step_num = 0

    def __exit__(self, *exc: Any) -> None:
        super().__exit__(*exc)
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def start(self) -> None:
        """``prof.start()``: begin recording (``stop()`` ends it)."""
        self.__enter__()

    def stop(self) -> None:
        self.__exit__(None, None, None)

    def step(self) -> None:
        """Mark the end of one training step (every step is recorded)."""
        self.step_num += 1

    def events(self) -> EventList:
        """Every recorded event, in the order they began."""
        if self.function_events is None:
            raise AssertionError("Profiler must be initialized before accessing events")
        return self.function_events

    def key_averages(
        self,
        group_by_input_shape: bool = False,
        group_by_stack_n: int = 0,
        group_by_overload_name: bool = False,
    ) -> EventList:
        if self.function_events is None:
            raise AssertionError(
                "Profiler must be initialized before getting key averages"
            )
        return self.function_events.key_averages(group_by_input_shape)
