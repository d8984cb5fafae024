"""Group and instance normalization modules (``nn.GroupNorm``,
``nn.InstanceNorm1d/2d/3d``), with PyTorch's parameters, buffers and reprs."""

from __future__ import annotations

import warnings
from typing import Any

from .._tensor import Tensor
from . import functional as F
from .layers import _affine_parameters, _BatchNorm
from .module import Module


class GroupNorm(Module):
    """Normalizes each group of ``num_channels / num_groups`` channels of each
    sample, then scales and shifts per channel."""

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        eps: float = 1e-5,
        affine: bool = True,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(
                f"num_channels ({num_channels}) must be divisible by num_groups "
                f"({num_groups})"
            )
        self.num_groups, self.num_channels = num_groups, num_channels
        self.eps, self.affine = eps, affine
        _affine_parameters(self, num_channels, affine, bias, dtype)

    def forward(self, input: Tensor) -> Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
            f"affine={self.affine}, bias={self.bias is not None}"
        )


class _InstanceNorm(_BatchNorm):
    """Each sample's channels normalized on their own (its batch-norm base
    gives the parameters and buffers; the defaults differ)."""

    no_batch_dim: int

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float = 0.1,
        affine: bool = False,
        track_running_stats: bool = False,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__(
            num_features,
            eps,
            momentum,
            affine,
            track_running_stats,
            dtype=dtype,
            bias=bias,
        )

    def _instance_norm(self, input: Tensor) -> Tensor:
        return F.instance_norm(
            input,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            self.training or not self.track_running_stats,
            self.momentum if self.momentum is not None else 0.0,
            self.eps,
        )

    def forward(self, input: Tensor) -> Tensor:
        k = self.no_batch_dim
        if input.dim() not in (k, k + 1):
            raise ValueError(
                f"expected {k}D or {k + 1}D input (got {input.dim()}D input)"
            )
        feature_dim = input.dim() - k
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(
                    f"expected input's size at dim={feature_dim} to match "
                    f"num_features ({self.num_features}), but got: "
                    f"{input.size(feature_dim)}."
                )
            warnings.warn(
                f"input's size at dim={feature_dim} does not match num_features. "
                "You can silence this warning by not passing in num_features, "
                "which is not used because affine=False",
                stacklevel=2,
            )
        if input.dim() == k:  # unbatched: a batch of one
            return self._instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    no_batch_dim = 2


class InstanceNorm2d(_InstanceNorm):
    no_batch_dim = 3


class InstanceNorm3d(_InstanceNorm):
    no_batch_dim = 4


__all__ = ["GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]
