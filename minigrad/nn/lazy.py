"""Lazy layers: ``LazyLinear`` learns ``in_features`` from its first input.

Until then its weight and bias are ``UninitializedParameter`` placeholders; the
first call makes them, initialises them as ``Linear`` does (so a seeded model
draws PyTorch's numbers in PyTorch's order) and turns the layer into a plain
``Linear``, as PyTorch's ``cls_to_become`` does (``type(m) == nn.Linear`` holds
afterwards, which initialisation code written for Linear relies on).
"""

from __future__ import annotations

from typing import Any

from .. import creation
from .._tensor import Tensor
from .layers import Linear
from .module import Module
from .parameter import Parameter


class UninitializedParameter(Parameter):
    """A parameter whose shape is not known yet."""

    def __repr__(self, **kwargs: Any) -> str:
        return "<UninitializedParameter>"

    __str__ = __repr__


class LazyLinear(Linear):
    """``Linear`` whose ``in_features`` is the last size of its first input."""

    def __init__(
        self,
        out_features: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        Module.__init__(self)
        self.in_features, self.out_features, self._dtype = 0, out_features, dtype
        self.weight = UninitializedParameter()
        if bias:
            self.bias = UninitializedParameter()
        else:
            self.register_parameter("bias", None)

    def forward(self, input: Tensor) -> Tensor:
        self.in_features = input.shape[-1]
        self.weight = Parameter(
            creation.empty((self.out_features, self.in_features), dtype=self._dtype)
        )
        if self.bias is not None:
            self.bias = Parameter(creation.empty(self.out_features, dtype=self._dtype))
        self.reset_parameters()
        del self._dtype
        self.__class__ = Linear
        return self.forward(input)
