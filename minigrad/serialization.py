"""``minigrad.save`` / ``minigrad.load``: objects pickled to a file. Tensors
keep their values and requires_grad, as PyTorch's do. ``load`` only rebuilds
tensors, numbers, strings and containers unless ``weights_only=False`` (as
PyTorch 2.6+ does): unpickling arbitrary objects can run arbitrary code."""

from __future__ import annotations

import os
import pickle
from typing import IO, Any

_SAFE = {
    ("collections", "OrderedDict"),
    ("_codecs", "encode"),  # (how protocol 2 stores bytes)
    ("builtins", "set"),
    ("builtins", "frozenset"),
    ("builtins", "slice"),
    ("builtins", "complex"),
    ("minigrad._tensor_base", "_rebuild_tensor"),
    ("minigrad._tensor", "_rebuild_tensor"),  # (files saved before it moved)
    ("minigrad", "Tensor"),  # Tensor.__module__, as torch.Tensor is "torch"
    ("minigrad.nn.parameter", "Parameter"),
    ("minigrad.nn.parameter", "_rebuild_parameter"),
    ("numpy", "dtype"),
    ("numpy", "ndarray"),
    ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "scalar"),
    ("numpy._core.multiarray", "scalar"),
}


class _WeightsUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _SAFE or module.startswith("numpy.dtypes"):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(
            "Weights only load failed. This file can still be loaded with "
            "`weights_only=False`, but do so only if you trust the source of the "
            f"file: it can run arbitrary code. Unsupported global: GLOBAL "
            f"{module}.{name}"
        )


def save(
    obj: object,
    f: str | os.PathLike | IO[bytes],
    pickle_module: Any = pickle,
    pickle_protocol: int = 2,
    **_: Any,
) -> None:
    """Pickle ``obj`` (e.g. a model's ``state_dict()``) to a path or file."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fh:
            pickle_module.dump(obj, fh, protocol=pickle_protocol)
    else:
        pickle_module.dump(obj, f, protocol=pickle_protocol)


def load(
    f: str | os.PathLike | IO[bytes],
    map_location: Any = None,
    pickle_module: Any = None,
    *,
    weights_only: bool | None = None,
    mmap: bool | None = None,
    **_: Any,
) -> Any:
    """Unpickle what ``save`` wrote (``map_location`` is accepted: everything
    is on the CPU)."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return load(fh, weights_only=weights_only, pickle_module=pickle_module)
    if weights_only is False:
        return (pickle_module or pickle).load(f)
    return _WeightsUnpickler(f).load()
