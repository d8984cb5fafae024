"""``minigrad.autograd.graph``: the node type and small graph utilities."""

from __future__ import annotations

from typing import Any, NamedTuple

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


__all__ = ["Node", "GradientEdge", "get_gradient_edge", "increment_version"]
