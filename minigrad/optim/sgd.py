"""``minigrad.optim.sgd``: stochastic gradient descent."""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from .optimizer import ParamsT, _add_, _check_fused, _PerParameterOptimizer, _value

__all__ = ["SGD"]


class SGD(_PerParameterOptimizer):
    """Stochastic gradient descent, optionally with momentum (heavy-ball or
    Nesterov), dampening and L2 weight decay:

        g = grad + weight_decay · p
        buf = g (first step), else momentum · buf + (1 - dampening) · g
        g = g + momentum · buf (nesterov) or buf
        p = p - lr · g
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay: float = 0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "dampening": dampening,
            "weight_decay": weight_decay,
            "nesterov": nesterov,
            "maximize": maximize,
            "foreach": foreach,
            "differentiable": differentiable,
            "fused": fused,
        }
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        _check_fused(defaults, (p for g in self.param_groups for p in g["params"]))

    def _update(
        self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]
    ) -> None:
        if group["maximize"]:
            grad = -grad
        weight_decay, momentum = group["weight_decay"], group["momentum"]
        if weight_decay != 0:
            grad = grad.add(p, alpha=weight_decay)
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = grad.clone().detach()
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
        _add_(p, grad, -_value(group["lr"]))
