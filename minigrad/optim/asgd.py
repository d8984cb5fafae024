"""``minigrad.optim.asgd``: ASGD, averaged stochastic gradient descent."""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from ..creation import tensor, zeros_like
from .optimizer import (
    ParamsT,
    _check_lr,
    _non_negative,
    _PerParameterOptimizer,
    _step_count,
    _to_scalar,
    _value,
)

__all__ = ["ASGD"]


class ASGD(_PerParameterOptimizer):
    """Averaged SGD (Polyak & Juditsky): SGD with a decaying rate η and a
    running average ``ax`` of the iterates, started after ``t0`` steps:

        p = p · (1 - λ·η) - η · (grad + weight_decay · p)
        ax = ax + μ · (p - ax)     (ax = p while μ = 1)
        η = lr / (1 + λ · lr · t)^α;   μ = 1 / max(1, t - t0)
    (``eta`` and ``mu`` live in the state as float scalar tensors.)
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-2,
        lambd: float = 1e-4,
        alpha: float = 0.75,
        t0: float = 1e6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        _check_lr(lr)
        _non_negative(("weight_decay value", weight_decay))
        defaults = {
            "lr": lr,
            "lambd": lambd,
            "alpha": alpha,
            "t0": t0,
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
        lr, lambd = _value(group["lr"]), group["lambd"]
        if not state:
            state["step"] = _step_count()
            state["eta"] = tensor(lr)
            state["mu"] = tensor(1.0)
            state["ax"] = zeros_like(p)
        if group["maximize"]:
            grad = -grad
        state["step"] += 1
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        eta = state["eta"].item()
        p.mul_(1 - lambd * eta)  # decay term
        p.add_(grad, alpha=-eta)
        ax, mu = state["ax"], state["mu"]
        if mu.item() != 1:
            ax.add_(p.sub(ax).mul_(mu))
        else:
            ax.copy_(p)
        step = state["step"].item()
        # (through a default-dtype tensor, so a float64 eta loaded from a state
        # dict still gets float32-rounded values, as in PyTorch; a tensor lr
        # makes it float32 arithmetic)
        lr = _to_scalar(group["lr"])
        eta = lr / ((1 + lambd * lr * step) ** group["alpha"])
        state["eta"].copy_(eta if isinstance(eta, Tensor) else tensor(eta))
        state["mu"].copy_(tensor(1 / max(1, step - group["t0"])))
