"""``minigrad.optim._adafactor``: Adafactor (PyTorch's module name)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor
from ..creation import zeros_like
from .optimizer import (
    ParamsT,
    _PerParameterOptimizer,
    _step_count,
    _to_scalar,
    _value,
)

__all__ = ["Adafactor"]


class Adafactor(_PerParameterOptimizer):
    """Adafactor (Shazeer & Stern), as PyTorch writes it: a second-moment
    estimate stored factored for matrices (a row and a column vector instead
    of a whole matrix), a step relative to the parameter's RMS, and an update
    clipped to RMS ``d``:

        β2ₜ = 1 - t^beta2_decay;   ρₜ = min(lr, 1/√t);   αₜ = max(eps2, RMS(p)) · ρₜ
        R = lerp(R, mean_cols(g²), 1 - β2ₜ);  C = lerp(C, mean_rows(g²), 1 - β2ₜ)
        v̂ = R·C / mean(R)      (a vector parameter keeps v = lerp(v, g², 1 - β2ₜ))
        u = g / √max(v̂, eps1²);   p = p - αₜ / max(1, RMS(u) / d) · u
    (``weight_decay`` is decoupled: p *= 1 - lr · wd first).
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-2,
        beta2_decay: float = -0.8,
        eps: tuple[float | None, float] = (None, 1e-3),
        d: float = 1.0,
        weight_decay: float = 0.0,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
    ) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        for ok, message in (
            (0.0 <= lr, f"Learning rate should be >= 0 but is: {lr}"),
            (0.0 >= beta2_decay, f"beta2_decay should be <= 0 but is: {beta2_decay}"),
            (
                eps[0] is None or 0.0 <= eps[0],
                f"epsilon1 should be >= 0 but is: {eps[0]}",
            ),
            (0.0 <= eps[1], f"epsilon2 should be >= 0 but is: {eps[1]}"),
            (1.0 <= d, f"Clipping threshold d should be >= 1 but is: {d}"),
            (
                0.0 <= weight_decay,
                f"weight_decay should be >= 0 but is: {weight_decay}",
            ),
        ):
            if not ok:
                raise ValueError(message)
        defaults = {
            "lr": lr,
            "beta2_decay": beta2_decay,
            "eps": eps,
            "d": d,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
        }
        super().__init__(params, defaults)

    def _update(
        self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]
    ) -> None:
        if not state:
            state["step"] = _step_count()
            if grad.dim() > 1:
                state["row_var"] = grad.new_zeros([*grad.shape[:-1], 1])
                state["col_var"] = grad.new_zeros([*grad.shape[:-2], 1, grad.shape[-1]])
            else:
                state["variance"] = zeros_like(grad)
        if group["maximize"]:
            grad = -grad
        eps1, eps2 = group["eps"]
        if eps1 is None:
            # PyTorch takes the machine epsilon of the group's first parameter
            # with a gradient, for the whole group
            first = next(q for q in group["params"] if q.grad is not None)
            eps1 = float(np.finfo(first.dtype.np).eps)
        lr = _to_scalar(group["lr"])  # (a tensor lr stays one, as in PyTorch)
        state["step"] += 1
        step = state["step"].item()
        one_minus_beta2 = step ** group["beta2_decay"]
        rho = min(lr, 1 / (step**0.5))
        alpha = max(eps2, p.norm(2).item() / (p.numel() ** 0.5)) * rho
        if group["weight_decay"] != 0:
            p.mul_(1 - lr * group["weight_decay"])
        if grad.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            row_norm = grad.norm(dim=-1, keepdim=True)
            row_var.lerp_((row_norm * row_norm).div_(grad.size(-1)), one_minus_beta2)
            col_norm = grad.norm(dim=-2, keepdim=True)
            col_var.lerp_((col_norm * col_norm).div_(grad.size(-2)), one_minus_beta2)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            state["variance"].lerp_(grad * grad, one_minus_beta2)
            var_estimate = state["variance"].clone()
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_().mul_(grad)
        denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * group["d"]))
        p.add_(update, alpha=_value(-alpha / denom))
