"""``minigrad.optim.sparse_adam``: SparseAdam. minigrad has no sparse tensors,
so every gradient is dense and ``step`` refuses it with PyTorch's error; the
constructor, options and repr are PyTorch's, so lesson code building one runs
up to its first step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import grad_mode
from .._tensor import Tensor
from .optimizer import Optimizer, ParamsT, _check_betas

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """Adam for sparse gradients (embedding rows): only the moments of the
    rows a gradient touches are updated. Refuses dense gradients, the only kind
    minigrad makes."""

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        maximize: bool = False,
    ) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        _check_betas(betas)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "maximize": maximize}
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Raises at the first parameter with a gradient (all are dense)."""
        loss = None
        if closure is not None:
            with grad_mode.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    raise RuntimeError(
                        "SparseAdam does not support dense gradients, please "
                        "consider Adam instead"
                    )
        return loss
