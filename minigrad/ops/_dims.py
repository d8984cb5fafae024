"""The dim helpers that reductions, ordering and shape ops share: dims
normalised and checked with PyTorch's errors, reduced dims put back, and the
named result tuples (``minigrad.return_types.max`` and the like).

Classes (and the node each records):

    ReturnType  (the named (values, indices) result tuples)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f


def normalize_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    n = max(ndim, 1)
    out = []
    for d in dims:
        if not -n <= d < n:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-n}, {n - 1}],"
                f" but got {d})"
            )
        out.append(d % n if ndim else 0)
    return tuple(out)


# ------------------------------------------------------------ helpers of the rest
def reduce_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """``normalize_dims`` for a reduction, which also refuses a repeated dim."""
    dims = normalize_dims(dim, ndim)
    for i, d in enumerate(dims):
        if d in dims[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return dims


def checked_dims(normalize: Any, dim: Any, ndim: int) -> tuple[int, ...]:
    """The dims to reduce; a 0-d tensor has none, but its dims are still
    checked (``-1`` and ``0`` are accepted, as in PyTorch)."""
    dims = normalize(dim, ndim)
    return dims if ndim else ()


def as_saved(dim: Any) -> Any:
    """A dim argument as PyTorch's node reports it (negative ints as uint64)."""
    if isinstance(dim, int):
        return f.u64(dim)
    return tuple(f.u64(d) for d in dim)


def restore_dims(g: Any, dims: tuple, ndim: int, keepdim: bool) -> Any:
    """Put the reduced dims back (size 1) into a gradient or a saved result."""
    return g if keepdim or not ndim else f.unsqueeze_dims(g, dims, ndim)


# ----------------------------------------------------------------- max and min
class ReturnType(tuple):
    """A ``(values, indices)`` pair with names, printed like PyTorch's
    ``torch.return_types.max``."""

    _name = ""

    def __new__(cls, values: Any, indices: Any) -> ReturnType:
        return super().__new__(cls, (values, indices))

    @property
    def values(self) -> Any:
        return self[0]

    @property
    def indices(self) -> Any:
        return self[1]

    def __repr__(self) -> str:
        return (
            f"minigrad.return_types.{self._name}(\nvalues={self[0]!r},\n"
            f"indices={self[1]!r})"
        )


def return_type(name: str) -> type:
    return type(name, (ReturnType,), {"_name": name, "__module__": __name__})


def along_key(index: np.ndarray, dim: int) -> tuple:
    """An advanced-indexing key that picks ``index`` along ``dim`` and keeps the
    position in every other dim (``gather``'s access pattern)."""
    key = []
    for d, n in enumerate(index.shape):
        if d == dim:
            key.append(index)
        else:
            shape = [1] * index.ndim
            shape[d] = n
            key.append(np.arange(n).reshape(shape))
    return tuple(key)
