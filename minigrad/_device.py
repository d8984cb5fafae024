"""``minigrad.device``, ``minigrad.cuda`` and ``minigrad.backends``: minigrad runs
on the CPU only, so lesson code's device boilerplate
(``torch.device("cuda" if torch.cuda.is_available() else "cpu")``,
``model.to(device)``) works and picks the CPU."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

_TYPES = (
    "cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, "
    "lazy, vulkan, mps, meta, hpu, mtia, privateuseone"
)


class device:  # noqa: N801 - PyTorch's spelling
    """A device: ``device("cpu")``, ``device("cuda:0")``, ``device("cuda", 1)``."""

    __slots__ = ("type", "index")

    def __init__(self, type: Any, index: int | None = None) -> None:  # noqa: A002
        if isinstance(type, device):
            type, index = type.type, type.index
        kind, _, number = str(type).partition(":")
        if kind not in _TYPES.split(", "):
            raise RuntimeError(
                f"Expected one of {_TYPES} device type at start of device string: "
                f"{type}"
            )
        self.type = kind
        self.index = int(number) if number else index

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, device) and (self.type, self.index) == (
            other.type,
            other.index,
        )

    def __hash__(self) -> int:
        return hash((self.type, self.index))


CPU = device("cpu")


def check(where: Any) -> None:
    """Refuse a device other than the CPU, as a CPU-only PyTorch does."""
    if where is None:
        return
    kind = where.type if isinstance(where, device) else device(where).type
    if kind == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    if kind != "cpu":
        raise RuntimeError(f"PyTorch is not linked with support for {kind} devices")


def _false(*args: Any) -> bool:
    return False


def _zero(*args: Any) -> int:
    return 0


cuda = SimpleNamespace(is_available=_false, device_count=_zero, manual_seed=_false,
                       manual_seed_all=_false)  # fmt: skip
backends = SimpleNamespace(
    mps=SimpleNamespace(is_available=_false, is_built=_false),
    cudnn=SimpleNamespace(enabled=False, deterministic=False, benchmark=False),
)


def _none(*args: Any, **kwargs: Any) -> None:
    return None


# torch.accelerator as a CPU-only PyTorch has it: there is no accelerator, so
# ``current_accelerator().type if is_available() else "cpu"`` picks the CPU.
accelerator = SimpleNamespace(
    is_available=_false,
    current_accelerator=_none,
    device_count=_zero,
    synchronize=_none,
)


def set_default_device(where: Any) -> None:
    """Accepts the CPU (the only device); another is refused as PyTorch would
    refuse to make a tensor there."""
    check(where)


def get_default_device() -> device:
    return CPU
