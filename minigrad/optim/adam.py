"""``minigrad.optim.adam``: Adam (and, with ``decoupled_weight_decay``, AdamW)."""

from __future__ import annotations

from typing import Any

from .._dtype import float32
from .._tensor import Tensor
from ..creation import tensor, zeros_like
from .optimizer import (
    ParamsT,
    _add_,
    _check_betas,
    _check_fused,
    _check_lr,
    _lerp_,
    _maximum_,
    _non_negative,
    _PerParameterOptimizer,
    _step_count,
    _to_scalar,
    _value,
)

__all__ = ["Adam"]


class Adam(_PerParameterOptimizer):
    """Adam (Kingma & Ba), with bias-corrected moment estimates:

        g = grad + weight_decay · p        (or p *= 1 - lr·wd, decoupled: AdamW)
        m = lerp(m, g, 1 - β1);  v = β2 · v + (1 - β2) · g²
        p = p - lr / (1 - β1ᵗ) · m / (√v / √(1 - β2ᵗ) + eps)
    (with amsgrad, v is replaced by its running maximum in the last line).
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ) -> None:
        if isinstance(lr, Tensor) and foreach and not capturable:
            raise ValueError(
                "lr as a Tensor is not supported for capturable=False and foreach=True"
            )
        _check_lr(lr)
        _non_negative(("epsilon value", eps))
        _check_betas(betas)
        _non_negative(("weight_decay value", weight_decay))
        if not (
            all(isinstance(b, float) for b in betas)
            or all(isinstance(b, Tensor) for b in betas)
        ):
            raise ValueError("betas must be either both floats or both Tensors")
        for i, beta in enumerate(betas):
            if isinstance(beta, Tensor):
                if not capturable and foreach:
                    raise ValueError(
                        f"betas[{i}] as a Tensor is not supported for capturable=False "
                        "and foreach=True"
                    )
                if beta.numel() != 1:
                    raise ValueError(f"Tensor betas[{i}] must be 1-element")
        defaults = {
            "lr": lr,
            "betas": tuple(map(_to_scalar, betas)),
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
            "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay,
        }
        super().__init__(params, defaults)
        _check_fused(defaults, (p for g in self.param_groups for p in g["params"]))

    def _update(
        self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]
    ) -> None:
        if not state:  # lazy initialisation, as in PyTorch
            # (fused kernels count steps in float32 whatever the default dtype)
            state["step"] = (
                tensor(0.0, dtype=float32) if group["fused"] else _step_count()
            )
            state["exp_avg"] = zeros_like(p)
            state["exp_avg_sq"] = zeros_like(p)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = zeros_like(p)
        if group["maximize"]:
            grad = -grad
        # a tensor lr or betas stay tensors: PyTorch computes the bias
        # corrections and the step size with them, in their dtype
        lr, (beta1, beta2) = _to_scalar(group["lr"]), group["betas"]
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        state["step"] += 1
        weight_decay = group["weight_decay"]
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                p.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(p, alpha=weight_decay)
        weight1 = 1 - (beta1.to(p.dtype) if isinstance(beta1, Tensor) else beta1)
        _lerp_(exp_avg, grad, _value(weight1))
        exp_avg_sq.mul_(beta2).add_(grad * grad, alpha=_value(1 - beta2))
        if group["differentiable"]:
            _differentiable_tail(p, state, group, lr, beta1, beta2)
            return
        step = state["step"].item()
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2**0.5
        if group["amsgrad"]:
            max_sq = _maximum_(state["max_exp_avg_sq"], exp_avg_sq)
            denom = (max_sq.sqrt() / bias_correction2_sqrt).add_(group["eps"])
        else:
            denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(group["eps"])
        _add_(p, exp_avg / denom, -_value(step_size))


def _differentiable_tail(
    p: Tensor,
    state: dict[str, Any],
    group: dict[str, Any],
    lr: float,
    beta1: float,
    beta2: float,
) -> None:
    """The end of Adam's step as PyTorch writes it for differentiable=True: the
    bias corrections are tensors made from the (float32) step count, and the
    step size is folded into the denominator."""
    step = state["step"]
    step_size_neg = (lr / (1 - beta1**step)).neg()
    bias_correction2_sqrt = (1 - beta2**step).sqrt()
    exp_avg_sq = state["exp_avg_sq"]
    if group["amsgrad"]:
        max_sq = state["max_exp_avg_sq"]
        exp_avg_sq = max_sq.copy_(max_sq.clone().maximum(exp_avg_sq))
    denom = (exp_avg_sq.sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(
        group["eps"] / step_size_neg
    )
    p.addcdiv_(state["exp_avg"].clone(), denom)
