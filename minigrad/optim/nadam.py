"""``minigrad.optim.nadam``: NAdam, Adam with Nesterov momentum."""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from ..creation import tensor, zeros_like
from .optimizer import (
    ParamsT,
    _check_betas,
    _check_lr,
    _lerp_,
    _non_negative,
    _PerParameterOptimizer,
    _step_count,
    _to_scalar,
    _value,
)

__all__ = ["NAdam"]


class NAdam(_PerParameterOptimizer):
    """NAdam (Dozat): Adam whose step looks one momentum step ahead, with the
    momentum warming up over the steps (``momentum_decay``):

        μₜ = β1 · (1 - ½ · 0.96^(t · momentum_decay));   Πₜ = μ₁ ⋯ μₜ
        m = lerp(m, g, 1 - β1);  v = β2 · v + (1 - β2) · g²;  d = √(v / (1 - β2ᵗ)) + eps
        p = p - lr · (1 - μₜ) / (1 - Πₜ) · g / d - lr · μₜ₊₁ / (1 - Πₜ · μₜ₊₁) · m / d
    (``decoupled_weight_decay`` makes it NAdamW; the product Π is kept in
    ``state["mu_product"]``).
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum_decay: float = 4e-3,
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
        _non_negative(
            ("weight_decay value", weight_decay),
            ("momentum_decay value", momentum_decay),
        )
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "momentum_decay": momentum_decay,
            "decoupled_weight_decay": decoupled_weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _update(
        self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]
    ) -> None:
        if not state:
            state["step"] = _step_count()
            state["mu_product"] = tensor(1.0)
            state["exp_avg"] = zeros_like(p)
            state["exp_avg_sq"] = zeros_like(p)
        if group["maximize"]:
            grad = -grad
        # (a tensor lr stays one: PyTorch's step sizes are then float32 tensors)
        lr, (beta1, beta2) = _to_scalar(group["lr"]), group["betas"]
        exp_avg, exp_avg_sq, mu_product = (
            state["exp_avg"],
            state["exp_avg_sq"],
            state["mu_product"],
        )
        state["step"] += 1
        step = state["step"].item()
        bias_correction2 = 1 - beta2**step
        weight_decay = group["weight_decay"]
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                p.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(p, alpha=weight_decay)
        decay = group["momentum_decay"]
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * decay))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * decay))
        mu_product *= mu  # (a float32 scalar tensor, as PyTorch keeps it)
        _lerp_(exp_avg, grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt()
        if group["differentiable"]:
            # PyTorch's form here keeps the float32 product as a tensor
            denom = denom.add(group["eps"])
            product_next = mu_product * mu_next
            p.addcdiv_(grad * (-lr * (1.0 - mu) / (1.0 - mu_product)), denom)
            p.addcdiv_(exp_avg * (-lr * mu_next / (1.0 - product_next)), denom)
            return
        denom.add_(group["eps"])
        product = mu_product.item()
        p.addcdiv_(grad, denom, value=_value(-lr * (1.0 - mu) / (1.0 - product)))
        p.addcdiv_(
            exp_avg, denom, value=_value(-lr * mu_next / (1.0 - product * mu_next))
        )
