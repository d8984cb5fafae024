"""``minigrad.autograd.graph``: the node type and small graph utilities."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from .. import _saved_hooks
from ..engine import running
from ..node import Node


class GradientEdge(NamedTuple):
    node: Node
    output_nr: int
    ownership_token: Any = None


def get_gradient_edge(tensor: Any) -> GradientEdge:
    """Where the gradient of ``tensor`` enters the graph."""
    if not tensor.requires_grad:
        raise RuntimeError(
            "It is not possible to get the gradient edge for a Tensor that does not "
            "require gradients"
        )
    node, nr = tensor._edge()
    return GradientEdge(node, nr)


def increment_version(tensor: Any) -> None:
    tensor._vc.value += 1


class saved_tensors_hooks:  # noqa: N801 - PyTorch's spelling
    """Inside this context every tensor an op saves for backward goes through
    ``pack_hook(tensor)``; backward gets it back with ``unpack_hook(packed)``.
    (The version check is then the hooks' business, as in PyTorch.)"""

    def __init__(self, pack_hook: Callable, unpack_hook: Callable) -> None:
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self) -> saved_tensors_hooks:
        if _disabled:
            raise RuntimeError(_disabled[-1])
        _saved_hooks.saved_tensors_hooks_stack.append(
            (self.pack_hook, self.unpack_hook)
        )
        return self

    def __exit__(self, *exc: object) -> None:
        _saved_hooks.saved_tensors_hooks_stack.pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801
    """Keeps saved tensors where they are (minigrad only has the CPU)."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        super().__init__(lambda t: t, lambda t: t)


class _AllowMutationOnSavedContext:
    """What ``allow_mutation_on_saved_tensors()`` yields; ``active`` until the
    block ends."""

    def __init__(self) -> None:
        self.active = True


@contextmanager
def allow_mutation_on_saved_tensors() -> Iterator[_AllowMutationOnSavedContext]:
    """Inside, a tensor saved for backward may be changed in place afterwards:
    backward still sees the value it had when saved. PyTorch clones a saved
    tensor when it is first mutated; minigrad clones each one as it is saved
    (the same values, more memory). The graph must be run backward inside the
    block."""
    ctx = _AllowMutationOnSavedContext()

    def pack(t: Any) -> Any:
        return t.detach().clone()

    def unpack(copy: Any) -> Any:
        if not ctx.active:
            raise AssertionError(
                "Trying to backward outside of the 'allow_mutation_on_saved_tensors' "
                "contextin which the graph was originally recorded."
            )
        return copy

    with saved_tensors_hooks(pack, unpack):
        try:
            yield ctx
        finally:
            ctx.active = False


_disabled: list[str] = []


@contextmanager
def disable_saved_tensors_hooks(error_message: str) -> Iterator[None]:
    """Inside, registering saved-tensor hooks raises ``error_message``."""
    _disabled.append(error_message)
    try:
        yield
    finally:
        _disabled.pop()


__all__ = [
    "GradientEdge",
    "allow_mutation_on_saved_tensors",
    "Node",
    "disable_saved_tensors_hooks",
    "get_gradient_edge",
    "increment_version",
    "register_multi_grad_hook",
    "save_on_cpu",
    "saved_tensors_hooks",
]


class _MultiHandle:
    """Removes every per-tensor hook of one ``register_multi_grad_hook``."""

    def __init__(self, handles: tuple) -> None:
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()

    def __enter__(self) -> _MultiHandle:
        return self

    def __exit__(self, *args: Any) -> None:
        self.remove()


def register_multi_grad_hook(
    tensors: Any, fn: Callable, *, mode: str = "all"
) -> _MultiHandle:
    """``fn`` runs once per backward pass: with ``mode="all"``, after the
    gradients of all of ``tensors`` that this pass computes (a list, None for
    the others); with ``mode="any"``, with the first of them. It is built from
    ordinary tensor hooks, so it runs in their order."""
    supported = ("all", "any")
    if mode not in supported:
        raise ValueError(f"Expects mode to be one of {supported} but got {mode}")
    tensors = tuple(tensors)

    def current() -> Any:
        if not running:
            raise RuntimeError("expected this hook to be called inside a backward call")
        return running[-1]

    if mode == "any":
        seen: weakref.WeakSet = weakref.WeakSet()  # passes that already ran fn

        def first(grad: Any) -> None:
            task = current()
            if task not in seen:
                seen.add(task)
                fn(grad)

        first.__qualname__ = "multi_grad_hook"  # (its name in the stepper's panel)
        handles = tuple(t.register_hook(first) for t in tensors if t.requires_grad)
        return _MultiHandle(handles)

    nodes = [t.grad_fn or t._grad_accumulator() for t in tensors]
    pending: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def collector(i: int) -> Callable:
        def hook(grad: Any) -> None:
            task = current()
            if task not in pending:  # the first gradient of this pass
                expected = sum(task.will_execute(n) for n in nodes)
                pending[task] = [expected, [None] * len(tensors)]
            state = pending[task]
            state[1][i] = grad
            state[0] -= 1
            if state[0] == 0:
                del pending[task]
                fn(state[1])

        hook.__qualname__ = "multi_grad_hook"  # (its name in the stepper's panel)
        return hook

    handles = tuple(
        t.register_hook(collector(i)) for i, t in enumerate(tensors) if t.requires_grad
    )
    return _MultiHandle(handles)
