"""``minigrad.nn.utils``: gradient clipping and flat parameter vectors."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import grad_mode
from .._tensor import Tensor
from ..creation import tensor
from ..ops.join import cat, stack


def _as_list(parameters: Any) -> list[Tensor]:
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def clip_grad_norm_(
    parameters: Any,
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """Scale all gradients by ``max_norm / (total norm + 1e-6)`` when that is
    below 1 (every gradient is multiplied, as in PyTorch); returns the total
    norm of the gradients, taken as one vector."""
    grads = [p.grad for p in _as_list(parameters) if p.grad is not None]
    if not grads:
        return tensor(0.0)
    with grad_mode.no_grad():
        norms = [g.norm(norm_type) for g in grads]
        total = stack(norms).norm(norm_type)
        if error_if_nonfinite and not bool(total.isfinite()):
            raise RuntimeError(
                f"The total norm of order {float(norm_type)} for gradients from "
                "`parameters` is non-finite, so it cannot be clipped. To disable "
                "this error and scale the gradients by the non-finite norm "
                "anyway, set `error_if_nonfinite=False`"
            )
        coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(coef)
    return total


def clip_grad_value_(
    parameters: Any, clip_value: float, foreach: bool | None = None
) -> None:
    """Clamp every gradient into ``[-clip_value, clip_value]`` in place."""
    with grad_mode.no_grad():
        for p in _as_list(parameters):
            if p.grad is not None:
                p.grad.clamp_(min=-clip_value, max=clip_value)


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """All parameters flattened and joined into one vector (with history)."""
    return cat([p.view(-1) for p in parameters], 0)


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Copy consecutive slices of ``vec`` into the parameters' data."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected minigrad.Tensor, but got: {type(vec).__name__}")
    pointer = 0
    for p in parameters:
        n = p.numel()
        p.data = vec[pointer : pointer + n].view_as(p).data
        pointer += n
