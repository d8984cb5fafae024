"""``Variable``: PyTorch's pre-0.4 wrapper, kept so old lesson code runs.

Since PyTorch 0.4 every tensor is a Variable: ``isinstance(t, Variable)`` holds
for any tensor, and ``Variable(t, requires_grad=True)`` makes a new leaf that
shares ``t``'s data (and version counter), as ``t.detach().requires_grad_()``.
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from .._warn import warn
from ..creation import tensor


class _VariableMeta(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, Tensor)


class Variable(metaclass=_VariableMeta):
    def __new__(  # type: ignore[misc]
        cls, data: Any = None, requires_grad: bool = False, volatile: bool = False
    ) -> Tensor:
        if volatile:
            warn(
                "volatile was removed and now has no effect. Use `with "
                "minigrad.no_grad():` instead."
            )
        if data is None:
            return tensor([]).requires_grad_(requires_grad)
        if not isinstance(data, Tensor):
            raise TypeError(
                f"Variable data has to be a tensor, but got {type(data).__name__}"
            )
        return data.detach().requires_grad_(requires_grad)
