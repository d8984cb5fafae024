"""``minigrad.special``: PyTorch's torch.special names for ops minigrad has
(each records the node of the op it names, as in PyTorch: expit is
SigmoidBackward0)."""

from __future__ import annotations

from typing import Any

from ._tensor import Tensor
from .ops import binary as B

__all__ = ["erf", "exp2", "expit", "expm1", "log1p", "log_softmax", "logit",
           "logsumexp", "round", "softmax", "xlogy"]  # fmt: skip


def erf(input: Tensor) -> Tensor:
    return input.erf()


def expit(input: Tensor) -> Tensor:
    """The logistic sigmoid ``1 / (1 + exp(-x))``."""
    return input.sigmoid()


def logit(input: Tensor, eps: float | None = None) -> Tensor:
    """``log(p / (1 - p))``, p clamped to [eps, 1 - eps] when eps is given."""
    return input.logit(eps)


def exp2(input: Tensor) -> Tensor:
    return input.exp2()


def expm1(input: Tensor) -> Tensor:
    return input.expm1()


def log1p(input: Tensor) -> Tensor:
    return input.log1p()


def round(input: Tensor, *, decimals: int = 0) -> Tensor:  # noqa: A001 - PyTorch's name
    return input.round(decimals=decimals)


def xlogy(input: Any, other: Any) -> Tensor:
    """``input * log(other)``, 0 where input is 0; either may be a number."""
    if isinstance(input, Tensor):
        return input.xlogy(other)
    return B.XlogyScalarSelf.apply(other, input)


def softmax(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    return input.softmax(dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    return input.log_softmax(dim, dtype=dtype)


def logsumexp(input: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    return input.logsumexp(dim, keepdim)
