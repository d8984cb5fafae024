"""``minigrad.optim.rprop``: Rprop, resilient backpropagation."""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from ..creation import full_like, zeros_like
from .optimizer import ParamsT, _check_lr, _PerParameterOptimizer, _step_count, _value

__all__ = ["Rprop"]


class Rprop(_PerParameterOptimizer):
    """Rprop (Riedmiller & Braun): only the sign of the gradient is used; each
    element has its own step size, grown by η+ while the sign holds and cut by
    η- when it flips (and that element then skips one update):

        s = clamp(s · (η+ if g·g_prev > 0, η- if < 0, else 1), min, max)
        g = 0 where the sign flipped;   p = p - sign(g) · s;   g_prev = g
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-2,
        etas: tuple[float, float] = (0.5, 1.2),
        step_sizes: tuple[float, float] = (1e-6, 50),
        *,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {
            "lr": lr,
            "etas": etas,
            "step_sizes": step_sizes,
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
            state["prev"] = zeros_like(p)
            state["step_size"] = full_like(grad, _value(group["lr"]))
        if group["maximize"]:
            grad = -grad
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        prev, step_size = state["prev"], state["step_size"]
        state["step"] += 1
        sign = grad.mul(prev.clone() if group["differentiable"] else prev).sign()
        sign[sign.gt(0)] = etaplus
        sign[sign.lt(0)] = etaminus
        sign[sign.eq(0)] = 1
        step_size.mul_(sign).clamp_(step_size_min, step_size_max)
        grad = grad.clone()
        grad[sign.eq(etaminus)] = 0  # a flipped sign: no step for it this time
        p.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)
