"""Step events: what the engine records of one node when asked to (viz's stepper).

``GraphTask.run_next`` hands every step a recorder. An untraced step gets the
shared ``SILENT``, which records nothing; a traced one (``next(task)``) gets a
``Recorder``, which builds the step's ``StepEvent``. So the loop never asks
whether it is tracing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .node import Node, _wrap


@dataclass(eq=False)
class StepEvent:
    """What happened when the engine ran one node (recorded with ``trace=True``)."""

    index: int  # 0 for the first node executed
    node: Node
    grads_in: tuple  # gradients the node received, after hooks (None: no grad)
    grads_out: tuple  # gradients it sent along next_functions (None: nothing sent)
    hooks: list = field(default_factory=list)  # (kind, hook) in the order they ran
    accumulated: list = field(default_factory=list)  # (leaf, its .grad afterwards)
    retained: list = field(default_factory=list)  # (non-leaf, its .grad afterwards)
    captured: list = field(default_factory=list)  # (input index, grad): grad()
    released: list = field(default_factory=list)  # names of freed saved tensors
    ready: tuple = ()  # nodes waiting in the ready queue afterwards, next first
    executed: bool = True  # False when only captured (autograd.grad's inputs)


class Silent:
    """The recorder of an untraced step: it records nothing."""

    keeps_sent = False

    def hook(self, kind: str, hook: Any) -> None:
        pass

    def accumulated(self, var: Any) -> None:
        pass

    def retained(self, t: Any) -> None:
        pass

    def captured(self, i: int, g: Any) -> None:
        pass

    def release(self, node: Node) -> None:
        node.release_variables()

    def finish(self, node: Node, grads: list, sent: Any, ready: list) -> Any:
        return node


SILENT = Silent()


class Recorder(Silent):
    """Builds the ``StepEvent`` of one traced step."""

    keeps_sent = True

    def __init__(self, index: int, node: Node) -> None:
        self.event = StepEvent(index, node, (), ())

    def hook(self, kind: str, hook: Any) -> None:
        self.event.hooks.append((kind, hook))

    def accumulated(self, var: Any) -> None:
        self.event.accumulated.append((var, var._grad))
        for h in (var._post_acc_hooks or {}).values():
            self.event.hooks.append(("post_accumulate", h))

    def retained(self, t: Any) -> None:
        self.event.retained.append((t, t._grad))

    def captured(self, i: int, g: Any) -> None:
        self.event.captured.append((i, g))

    def release(self, node: Node) -> None:
        self.event.released = node.saved_names()
        node.release_variables()

    def finish(self, node: Node, grads: list, sent: Any, ready: list) -> StepEvent:
        ev = self.event
        ev.grads_in = tuple(_wrap(g) for g in grads)
        if sent is None:  # autograd.grad only captured this node's gradient
            ev.executed = False
        else:
            ev.grads_out = tuple(_wrap(g) for g in sent)
        ev.ready = tuple(n for _, _, n in sorted(ready))
        return ev
