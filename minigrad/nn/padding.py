"""Padding modules (``nn.ZeroPad2d``, ``nn.ReflectionPad1d``, ...): each holds
its padding as PyTorch's does (an int repeated to 2 per padded dim, the first
pair for the last dim) and calls ``F.pad``."""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from . import functional as F
from .module import Module


def _ntuple(padding: Any, n: int) -> tuple:
    return tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * n


class _PadNd(Module):
    mode: str
    dims: int

    def __init__(self, padding: Any) -> None:
        super().__init__()
        self.padding = _ntuple(padding, 2 * self.dims)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    mode = "constant"

    def __init__(self, padding: Any, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class _CircularPadNd(_PadNd):
    mode = "circular"

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in (self.dims + 1, self.dims + 2):
            raise ValueError(
                f"expected {self.dims + 1}D or {self.dims + 2}D input "
                f"(got {input.dim()}D input)"
            )
        return F.pad(input, self.padding, "circular")


def _constant(k: int) -> type:
    def __init__(self: Any, padding: Any, value: float) -> None:
        _ConstantPadNd.__init__(self, padding, value)

    return type(
        f"ConstantPad{k}d",
        (_ConstantPadNd,),
        {"dims": k, "__init__": __init__, "__module__": __name__},
    )


def _zero(base: type, k: int) -> type:
    def __init__(self: Any, padding: Any) -> None:
        _ConstantPadNd.__init__(self, padding, 0.0)

    def extra_repr(self: Any) -> str:
        return f"{self.padding}"

    ns = {"__init__": __init__, "extra_repr": extra_repr, "__module__": __name__}
    return type(f"ZeroPad{k}d", (base,), ns)


def _padding(base: type, name: str, mode: str, k: int) -> type:
    return type(
        f"{name}{k}d", (base,), {"mode": mode, "dims": k, "__module__": __name__}
    )


ConstantPad1d, ConstantPad2d, ConstantPad3d = (_constant(k) for k in (1, 2, 3))
ZeroPad1d = _zero(ConstantPad1d, 1)
ZeroPad2d = _zero(ConstantPad2d, 2)
ZeroPad3d = _zero(ConstantPad3d, 3)
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = (
    _padding(_PadNd, "ReflectionPad", "reflect", k) for k in (1, 2, 3)
)
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = (
    _padding(_PadNd, "ReplicationPad", "replicate", k) for k in (1, 2, 3)
)
CircularPad1d, CircularPad2d, CircularPad3d = (
    _padding(_CircularPadNd, "CircularPad", "circular", k) for k in (1, 2, 3)
)

__all__ = [
    "CircularPad1d",
    "CircularPad2d",
    "CircularPad3d",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
    "ZeroPad1d",
    "ZeroPad2d",
    "ZeroPad3d",
]
