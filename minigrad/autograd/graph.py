"""``minigrad.autograd.graph``: the node type and small graph utilities."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from .. import function
from ..function import Node


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
        function.saved_tensors_hooks_stack.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc: object) -> None:
        function.saved_tensors_hooks_stack.pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801
    """Keeps saved tensors where they are (minigrad only has the CPU)."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        super().__init__(lambda t: t, lambda t: t)


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
    "Node",
    "disable_saved_tensors_hooks",
    "get_gradient_edge",
    "increment_version",
    "save_on_cpu",
    "saved_tensors_hooks",
]
