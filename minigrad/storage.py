"""``Tensor.storage()``: the flat buffer a tensor and its views share.

PyTorch 2.13 hands back a ``torch.storage.TypedStorage`` (deprecated, with a
warning) that lessons print to show that ``view`` copies nothing: the makemore
lecture prints ``a.storage()`` after ``a.view(...)``. minigrad's buffer is the
numpy array at the root of the tensor's view chain.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._device import device as _device_cls
from ._warn import warn

_DEPRECATED = (
    "TypedStorage is deprecated. It will be removed in the future and "
    "UntypedStorage will be the only storage class. This should only matter "
    "to you if you are using storages directly.  To access UntypedStorage "
    "directly, use tensor.untyped_storage() instead of tensor.storage()"
)


_warned = False


def _root(arr: np.ndarray) -> np.ndarray:
    """The array owning the memory ``arr`` views (numpy's ``.base`` chain)."""
    while isinstance(arr.base, np.ndarray):
        arr = arr.base
    return arr


class TypedStorage:
    """The elements of a tensor's whole buffer, in memory order, with its dtype."""

    def __init__(self, data: np.ndarray, dtype: Any) -> None:
        global _warned
        if not _warned:  # once a process, as PyTorch's own flag (not warn_always)
            _warned = True
            warn(_DEPRECATED)
        self._flat = _root(data).reshape(-1, order="A")
        self.dtype = dtype

    @property
    def device(self) -> Any:
        return _device_cls("cpu")

    def size(self) -> int:
        return int(self._flat.size)

    def __len__(self) -> int:
        return self.size()

    def __getitem__(self, i: int) -> Any:
        return self._flat[i].item()

    def tolist(self) -> list:
        return self._flat.tolist()

    def __str__(self) -> str:
        # PyTorch's layout: one element a line, then the type line.
        items = " " + "\n ".join(str(v) for v in self.tolist())
        return (
            f"{items}\n[minigrad.storage.TypedStorage(dtype={self.dtype}, "
            f"device={self.device}) of size {len(self)}]"
        )

    __repr__ = __str__
