"""``minigrad.optim.adamax``: Adamax, Adam with the infinity norm."""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from ..creation import zeros_like
from .optimizer import (
    ParamsT,
    _check_betas,
    _check_lr,
    _lerp_,
    _maximum_,
    _non_negative,
    _PerParameterOptimizer,
    _step_count,
    _to_scalar,
    _value,
)

__all__ = ["Adamax"]


class Adamax(_PerParameterOptimizer):
    """Adamax (Kingma & Ba): Adam with the second moment replaced by a decaying
    maximum of |g|:

        g = grad + weight_decay · p
        m = lerp(m, g, 1 - β1);  u = max(β2 · u, |g| + eps)
        p = p - lr / (1 - β1ᵗ) · m / u
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        _check_lr(lr)
        _non_negative(("epsilon value", eps))
        _check_betas(betas)
        _non_negative(("weight_decay value", weight_decay))
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    def _update(
        self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]
    ) -> None:
        if not state:
            state["step"] = _step_count()
            state["exp_avg"] = zeros_like(p)
            state["exp_inf"] = zeros_like(p)
        if group["maximize"]:
            grad = -grad
        beta1, beta2 = group["betas"]
        state["step"] += 1
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        _lerp_(state["exp_avg"], grad, 1 - beta1)
        exp_inf = _maximum_(state["exp_inf"].mul_(beta2), grad.abs().add_(group["eps"]))
        # (a tensor lr makes the step size a float32 tensor, as in PyTorch)
        clr = _to_scalar(group["lr"]) / (1 - beta1 ** state["step"].item())
        p.addcdiv_(state["exp_avg"], exp_inf, value=-_value(clr))
