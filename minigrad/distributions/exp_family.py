"""``ExponentialFamily``: densities ``exp(<t(x), theta> - F(theta) + k(x))``.

A family gives its natural parameters ``theta`` and log normalizer ``F``; then
entropy and same-family KL follow from ``F`` and its gradient (a Bregman
divergence, taken with autograd), which is how PyTorch cross-checks its
closed forms. Normal and Bernoulli are families; their own formulas win.
"""

from __future__ import annotations

from typing import Any

from .. import autograd
from .._tensor import Tensor
from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """Base class of the distributions that are exponential families."""

    @property
    def _natural_params(self) -> tuple[Tensor, ...]:
        raise NotImplementedError

    def _log_normalizer(self, *natural_params: Tensor) -> Tensor:
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> float:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        """H = F(theta) - <theta, grad F(theta)> - E[k(x)]."""
        result: Any = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result += lg_normal
        for np_, g in zip(nparams, gradients):
            result -= (np_ * g).reshape(tuple(self._batch_shape) + (-1,)).sum(-1)
        return result
