"""``inputs=``: which nodes a pass needs, and the gradients captured at the inputs.

``backward(inputs=...)`` and ``autograd.grad(outputs, inputs)`` give the engine a
``Selection``; a plain ``backward()`` gives none (``GraphTask.selection is None``)
and runs every node it reaches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .node import AccumulateGrad, Node


class Selection:
    """What ``inputs=`` asks of a pass: the nodes from which an input can be
    reached (only they are needed), which of them run, and the gradients
    captured at the inputs' edges.

    autograd.grad runs a node only if it leads on to another needed node;
    backward(inputs=...) runs every needed node, the inputs' own included."""

    def __init__(
        self,
        parents: dict[Node, list[Node]],
        inputs: Sequence[tuple[Node, int]],
        reachable: set,
        accumulate: bool,
    ) -> None:
        self.captures: dict[Node, list[tuple[int, int]]] = {}
        for i, (fn, nr) in enumerate(inputs):
            self.captures.setdefault(fn, []).append((i, nr))
        targets = {fn for fn in self.captures if fn in reachable}
        self.needed, leads = _needed(parents, targets)
        self.running = self.needed if accumulate else leads
        self.accumulate = accumulate
        self.captured: list[Any] = [None] * len(inputs)

    def runs(self, node: Node) -> bool:
        return node in self.running

    def capture(self, node: Node, grads: list, record: Any) -> None:
        """Keep the gradient arriving at an ``inputs=`` edge of ``node``."""
        for i, nr in self.captures.get(node, ()):
            g = grads[nr]
            if g is None:
                continue
            old = self.captured[i]
            self.captured[i] = g if old is None else old + g
            record.captured(i, self.captured[i])

    def will_execute(self, node: Node) -> bool:
        if isinstance(node, AccumulateGrad) and not self.accumulate:
            if node in self.captures:
                raise RuntimeError(
                    "A leaf node was passed to _will_engine_execute_node but we are "
                    "currently running autograd.grad(). This is currently not "
                    "supported."
                )
            return False
        return node in self.needed


def _needed(parents: dict, targets: set) -> tuple[set, set]:
    """The nodes from which some target can be reached (only they need to run),
    and those of them that lead on to another needed node (only they execute)."""
    needed, leads = set(targets), set()
    stack = list(needed)
    while stack:
        for p in parents.get(stack.pop(), ()):
            leads.add(p)
            if p not in needed:
                needed.add(p)
                stack.append(p)
    return needed, leads
