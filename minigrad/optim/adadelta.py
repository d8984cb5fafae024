"""``minigrad.optim.adadelta``: Adadelta."""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from ..creation import zeros_like
from .optimizer import (
    ParamsT,
    _check_lr,
    _non_negative,
    _PerParameterOptimizer,
    _step_count,
    _value,
)

__all__ = ["Adadelta"]


class Adadelta(_PerParameterOptimizer):
    """Adadelta (Zeiler): the step is scaled by the ratio of the running RMS of
    past updates to that of the gradients, so it carries the parameter's units:

        g = grad + weight_decay · p
        v = ρ · v + (1 - ρ) · g²
        Δ = √(u + eps) / √(v + eps) · g;   u = ρ · u + (1 - ρ) · Δ²
        p = p - lr · Δ
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1.0,
        rho: float = 0.9,
        eps: float = 1e-6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        capturable: bool = False,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        _non_negative(("epsilon value", eps), ("weight_decay value", weight_decay))
        defaults = {
            "lr": lr,
            "rho": rho,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "capturable": capturable,
            "foreach": foreach,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _update(
        self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]
    ) -> None:
        if not state:
            state["step"] = _step_count()
            state["square_avg"] = zeros_like(p)
            state["acc_delta"] = zeros_like(p)
        state["step"] += 1
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        rho, eps = group["rho"], group["eps"]
        square_avg, acc_delta = state["square_avg"], state["acc_delta"]
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        if group["differentiable"]:
            delta = delta.clone()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        p.add_(delta, alpha=-_value(group["lr"]))
