"""``minigrad.optim.radam``: RAdam, Adam with a rectified adaptive rate."""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from ..creation import zeros_like
from .optimizer import (
    ParamsT,
    _check_betas,
    _check_lr,
    _lerp_,
    _non_negative,
    _PerParameterOptimizer,
    _step_count,
    _value,
)

__all__ = ["RAdam"]


class RAdam(_PerParameterOptimizer):
    """RAdam (Liu et al.): while the variance estimate is unreliable (ρₜ ≤ 5)
    take a plain momentum step; after, Adam's step times a rectification r:

        m = lerp(m, g, 1 - β1);  v = β2 · v + (1 - β2) · g²;  m̂ = m / (1 - β1ᵗ)
        ρ∞ = 2 / (1 - β2) - 1;   ρₜ = ρ∞ - 2t · β2ᵗ / (1 - β2ᵗ)
        p = p - lr · m̂                                     (ρₜ ≤ 5)
        p = p - lr · m̂ · √(1 - β2ᵗ) / (√v + eps) · r         (ρₜ > 5)
        r = √((ρₜ - 4)(ρₜ - 2)ρ∞ / ((ρ∞ - 4)(ρ∞ - 2)ρₜ))
    (``decoupled_weight_decay`` gives RAdamW).
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
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
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "decoupled_weight_decay": decoupled_weight_decay,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _update(
        self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]
    ) -> None:
        if not state:
            state["step"] = _step_count()
            state["exp_avg"] = zeros_like(p)
            state["exp_avg_sq"] = zeros_like(p)
        if group["maximize"]:
            grad = -grad
        lr, (beta1, beta2) = _value(group["lr"]), group["betas"]
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        state["step"] += 1
        step = state["step"].item()
        weight_decay = group["weight_decay"]
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                p.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(p, alpha=weight_decay)
        _lerp_(exp_avg, grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        corrected = exp_avg / bias_correction1
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
        if rho_t > 5.0:
            rect = (
                (rho_t - 4)
                * (rho_t - 2)
                * rho_inf
                / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
            ) ** 0.5
            adaptive = (bias_correction2**0.5) / exp_avg_sq.sqrt().add_(group["eps"])
            p.add_(corrected * lr * adaptive * rect, alpha=-1.0)
        else:
            p.add_(corrected * lr, alpha=-1.0)
