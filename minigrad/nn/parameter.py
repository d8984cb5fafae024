"""``Parameter``: a tensor that a ``Module`` registers as one of its weights."""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from ..creation import empty


class Parameter(Tensor):
    """A leaf tensor that requires grad (by default) and that a ``Module`` finds
    when it is assigned as an attribute. It shares data and version counter with
    the tensor it is made from, as PyTorch's does."""

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Any:
        if data is None:
            data = empty(0)
        if requires_grad and data._data.dtype.kind != "f":
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        p = cls._make(data._data, False)
        p._vc = data._vc
        if data._inference or p._inference:  # a Parameter of an inference tensor
            p._inference = data._inference  # is one (and refuses grad outside)
        return p.requires_grad_(requires_grad)

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        pass  # everything happens in __new__ (Tensor.__init__ would start afresh)

    def __repr__(self, **kwargs: Any) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (_rebuild_parameter, (self._data.copy(), self._requires_grad))


def _rebuild_parameter(data: Any, requires_grad: bool) -> Parameter:
    return Parameter(Tensor._make(data, False), requires_grad)
