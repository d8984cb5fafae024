"""``minigrad.autograd.function``: where PyTorch keeps ``Function`` and friends."""

from ..function import (  # noqa: F401
    BackwardCFunction,
    Function,
    FunctionCtx,
    InplaceFunction,
    once_differentiable,
)
