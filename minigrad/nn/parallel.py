"""``nn.DataParallel`` as PyTorch has it on a machine without CUDA: the wrapped
module runs as it is, on the CPU (``device_ids`` is empty), and its parameters
are named under ``module.``, so a lesson written for several GPUs runs here."""

from __future__ import annotations

from typing import Any

from .module import Module


class DataParallel(Module):
    """Run ``module`` on the one device there is (a pass-through)."""

    def __init__(
        self,
        module: Module,
        device_ids: Any = None,
        output_device: Any = None,
        dim: int = 0,
    ) -> None:
        super().__init__()
        self.module = module
        self.device_ids: list = []  # PyTorch keeps nothing else without CUDA

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)
