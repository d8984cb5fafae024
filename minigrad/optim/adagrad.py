"""``minigrad.optim.adagrad``: Adagrad."""

from __future__ import annotations

from typing import Any

from .._dtype import float32
from .._tensor import Tensor
from ..creation import full_like, tensor
from .optimizer import (
    ParamsT,
    _add_,
    _check_fused,
    _check_lr,
    _non_negative,
    _PerParameterOptimizer,
    _step_count,
    _value,
)

__all__ = ["Adagrad"]


class Adagrad(_PerParameterOptimizer):
    """Adagrad: divide by the root of the summed squared gradients:

    g = grad + weight_decay · p;   s = s + g²
    p = p - lr / (1 + (t - 1) · lr_decay) · g / (√s + eps)
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        _check_lr(lr)
        _non_negative(
            ("lr_decay value", lr_decay),
            ("weight_decay value", weight_decay),
            ("initial_accumulator_value value", initial_accumulator_value),
            ("epsilon value", eps),
        )
        defaults = {
            "lr": lr,
            "lr_decay": lr_decay,
            "eps": eps,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)
        _check_fused(defaults, (p for g in self.param_groups for p in g["params"]))
        for group in self.param_groups:  # Adagrad's state starts at once
            for p in group["params"]:
                self.state[p]["step"] = (
                    tensor(0.0, dtype=float32) if group["fused"] else _step_count()
                )
                self.state[p]["sum"] = full_like(p, initial_accumulator_value)

    def _update(
        self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]
    ) -> None:
        state["step"] += 1
        step = state["step"].item()
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        clr = _value(group["lr"]) / (1 + (step - 1) * group["lr_decay"])
        state["sum"].add_(grad * grad)
        std = state["sum"].sqrt().add_(group["eps"])
        _add_(p, grad / std, -clr)
