"""Helpers the distributions share (``torch.distributions.utils``)."""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any

from .. import _dtype, creation, grad_mode
from .._tensor import Tensor
from ..nn import functional as F
from ..ops._common import broadcast_shape

__all__ = [
    "broadcast_all",
    "clamp_probs",
    "lazy_property",
    "logits_to_probs",
    "probs_to_logits",
]


def broadcast_all(*values: Any) -> tuple[Tensor, ...]:
    """Tensors broadcast together; numbers become tensors of the first tensor's
    dtype (the default dtype if there is none), as PyTorch's broadcast_all does."""
    if not all(isinstance(v, (Tensor, numbers.Number)) for v in values):
        raise ValueError(
            "Input arguments must all be instances of Number, "
            "minigrad.Tensor or objects implementing __torch_function__."
        )
    if not all(isinstance(v, Tensor) for v in values):
        options: dict[str, Any] = {"dtype": _dtype.get_default_dtype()}
        for value in values:
            if isinstance(value, Tensor):
                options = {"dtype": value.dtype}
                break
        values = tuple(
            v if isinstance(v, Tensor) else creation.tensor(v, **options)
            for v in values
        )
    return tuple(_broadcast_tensors(*values))


def _broadcast_tensors(*tensors: Tensor) -> tuple[Tensor, ...]:
    """``torch.broadcast_tensors``: each tensor expanded (a view) to one shape."""
    shape: tuple = ()
    for t in tensors:
        shape = broadcast_shape(shape, tuple(t.shape))
    return tuple(t if tuple(t.shape) == shape else t.expand(*shape) for t in tensors)


def _standard_normal(shape: Sequence[int], dtype: Any, device: Any = None) -> Tensor:
    # PyTorch fills an empty tensor with normal_(): the same draws as randn.
    return creation.empty(tuple(shape), dtype=dtype).normal_()


def _sum_rightmost(value: Tensor, dim: int) -> Tensor:
    """``value`` summed over its ``dim`` rightmost dimensions."""
    if dim == 0:
        return value
    return value.reshape(tuple(value.shape[:-dim]) + (-1,)).sum(-1)


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    """Log-odds to probabilities (sigmoid), or log-weights to a last-dim softmax."""
    if is_binary:
        return logits.sigmoid()
    return F.softmax(logits, dim=-1)


def clamp_probs(probs: Tensor) -> Tensor:
    """Probabilities clamped to [eps, 1 - eps], eps the dtype's machine epsilon."""
    eps = _dtype.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    """Probabilities to log-odds (binary) or to log-probabilities."""
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return ps_clamped.log() - (-ps_clamped).log1p()
    return ps_clamped.log()


class lazy_property:
    """Computed on first access (with grad enabled, so it joins the graph) and then
    stored on the instance, which is how ``Bernoulli(logits=x).probs`` works."""

    def __init__(self, wrapped: Callable[[Any], Any]) -> None:
        self.wrapped = wrapped
        self.__doc__ = wrapped.__doc__
        self.__name__ = wrapped.__name__

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        with grad_mode.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value
