"""``minigrad.optim.rmsprop``: RMSprop."""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from ..creation import zeros_like
from .optimizer import (
    ParamsT,
    _add_,
    _check_lr,
    _lerp_,
    _non_negative,
    _PerParameterOptimizer,
    _step_count,
    _value,
)

__all__ = ["RMSprop"]


class RMSprop(_PerParameterOptimizer):
    """RMSprop: divide by a running root mean square of the gradients:

    g = grad + weight_decay · p
    v = α · v + (1 - α) · g²;   avg = √v + eps   (centered: √(v - ḡ²) + eps)
    p = p - lr · g / avg     (with momentum: buf = μ · buf + g / avg; p -= lr · buf)
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check_lr(lr)
        _non_negative(
            ("epsilon value", eps),
            ("momentum value", momentum),
            ("weight_decay value", weight_decay),
            ("alpha value", alpha),
        )
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "alpha": alpha,
            "eps": eps,
            "centered": centered,
            "weight_decay": weight_decay,
            "capturable": capturable,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _update(
        self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]
    ) -> None:
        if not state:
            state["step"] = _step_count()
            state["square_avg"] = zeros_like(p)
            if group["momentum"] > 0:
                state["momentum_buffer"] = zeros_like(p)
            if group["centered"]:
                state["grad_avg"] = zeros_like(p)
        if group["maximize"]:
            grad = -grad
        state["step"] += 1
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        alpha, square_avg = group["alpha"], state["square_avg"]
        square_avg.mul_(alpha).add_(grad * grad, alpha=1 - alpha)
        if group["centered"]:
            grad_avg = state["grad_avg"]
            _lerp_(grad_avg, grad, 1 - alpha)
            avg = square_avg.add(grad_avg * grad_avg, alpha=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(group["eps"])
        lr = _value(group["lr"])
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]
            buf.mul_(group["momentum"]).add_(grad / avg)
            _add_(p, buf, -lr)
        else:
            _add_(p, grad / avg, -lr)
