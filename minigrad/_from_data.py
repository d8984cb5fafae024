"""Python data to tensor memory: nested lists to arrays and the legacy
constructors (``Tensor(2, 3)``, ``Tensor([1, 2])``, ``FloatTensor(...)``).

It sits below the Tensor class (it knows tensors as ``TensorBase``, their
base) so that ``Tensor.__new__`` and ``Tensor.new_tensor`` use it with no
import running back up to ``creation.py``; the class to build is passed in.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from . import _device
from . import _dtype as dt
from ._tensor_base import (
    Size,
    TensorBase,
    _is_size_int,
    _shape_arg,
    warn_scalar_conversion,
)
from .ops import views as V
from .ops._common import argument_desc, type_name


def _infer_dtype(data: Any) -> dt.dtype:
    """Python floats -> the default float, ints -> int64, bools -> bool, a
    tensor element -> its own dtype, all combined by promotion (PyTorch's
    rules: ``[float64_tensor, 2]`` is float64); numpy arrays keep their dtype."""
    if isinstance(data, (np.ndarray, np.generic)):
        return dt.from_numpy_dtype(data.dtype)
    if isinstance(data, TensorBase):
        return data.dtype
    found: list[dt.dtype] = []

    def walk(x: Any) -> None:
        if isinstance(x, (list, tuple)):
            for y in x:
                walk(y)
        elif isinstance(x, TensorBase):
            found.append(x.dtype)
        elif isinstance(x, (bool, np.bool_)):
            found.append(dt.bool)
        elif isinstance(x, (int, np.integer)):
            found.append(dt.int64)
        elif isinstance(x, (float, np.floating)):
            found.append(dt.default_float)
        elif isinstance(x, str):
            raise TypeError("new(): invalid data type 'str'")
        else:
            raise RuntimeError(f"Could not infer dtype of {type(x).__name__}")

    walk(data)
    result = found[0] if found else dt.default_float  # an empty list
    for d in found[1:]:
        result = dt.promote(result, d)
    return result


def _element_scalar(t: TensorBase, dtype: dt.dtype) -> Any:
    """A tensor inside a nested list is one number, as PyTorch reads it: it
    must hold one element, and only an integer one may fill an integer tensor."""
    if t._data.size != 1:
        raise ValueError("only one element tensors can be converted to Python scalars")
    if t.is_floating_point() and not dtype.is_floating_point:
        raise TypeError(
            "only integer tensors of a single element can be converted to an index"
        )
    warn_scalar_conversion(t)
    return t._data.reshape(()).item()


def to_array(data: Any, dtype: dt.dtype | None) -> np.ndarray:
    if isinstance(data, (list, tuple)):
        shape = _nested_shape(data)
        if dtype is None:
            dtype = _infer_dtype(data)
        try:
            return np.array(_scalars(data, shape, 0, dtype), dtype=dtype.np)
        except OverflowError:  # (numpy: "Python integer -1 out of bounds for uint8")
            raise RuntimeError(
                f"value cannot be converted to type {dtype.name} without overflow"
            ) from None
    if dtype is None:
        dtype = _infer_dtype(data)
    if isinstance(data, TensorBase):
        data = data._data
    return np.array(data, dtype=dtype.np)


def _nested_shape(data: Any) -> list[int]:
    """The shape PyTorch reads off a nested list: each dim's length is that of
    the first element one level up (numpy arrays inside count as lists)."""
    shape, x = [], data
    while isinstance(x, (list, tuple, np.ndarray, str)):
        if isinstance(x, str):  # a string is a sequence of strings, forever
            raise ValueError("too many dimensions 'str'")
        shape.append(len(x))
        if not len(x):
            break
        x = x[0]
    return shape


def _scalars(x: Any, shape: list[int], dim: int, dtype: dt.dtype) -> Any:
    """The nested list as numbers, with PyTorch's errors for a ragged one
    (``expected sequence of length 2 at dim 1 (got 3)``) or a non-number."""
    if isinstance(x, np.ndarray) and x.ndim:
        x = x.tolist()
    if dim == len(shape):  # a number's place
        if isinstance(x, TensorBase):
            return _element_scalar(x, dtype)
        if not isinstance(x, (int, float, np.number, np.bool_)):
            if dtype.is_floating_point:
                raise TypeError(f"must be real number, not {type(x).__name__}")
            raise TypeError(
                f"'{type(x).__name__}' object cannot be interpreted as an integer"
            )
        return x
    if not isinstance(x, (list, tuple)):
        raise TypeError("not a sequence")
    if len(x) != shape[dim]:
        raise ValueError(
            f"expected sequence of length {shape[dim]} at dim {dim} (got {len(x)})"
        )
    return [_scalars(y, shape, dim + 1, dtype) for y in x]


def warn_copy_construct(call: str) -> None:
    """PyTorch's warning for ``tensor(t)`` / ``t.new_tensor(t)`` of a tensor."""
    warnings.warn(
        "To copy construct from a tensor, it is recommended to use "
        "sourceTensor.detach().clone() or "
        "sourceTensor.detach().clone().requires_grad_(True), rather than "
        f"{call}(sourceTensor).",
        UserWarning,
        stacklevel=3,
    )


def finish_leaf(t: TensorBase, requires_grad: bool) -> TensorBase:
    if requires_grad:
        if not t._data.dtype.kind == "f":
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        t._requires_grad = True
    return t


def checked_shape(size: tuple, fn: str) -> tuple:
    """The ints of a constructor's shape, none negative (PyTorch's checks)."""
    shape = _shape_arg(size, fn)
    if fn == "zeros" and min(shape, default=0) < 0:  # zeros checks on its own
        raise RuntimeError("zeros: Dimension size must be non-negative.")
    for n in shape:
        if n < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {n}: {list(shape)}"
            )
    return shape


# ---- the legacy constructors: ``Tensor(2, 3)``, ``Tensor(data)``, ``FloatTensor``
_NEW_SIGNATURES = (
    "(*, minigrad.device device = None)",
    "(minigrad.Storage storage)",
    "(Tensor other)",
    "(tuple of ints size, *, minigrad.device device = None)",
    "(object data, *, minigrad.device device = None)",
)


def legacy_new(cls: type, dtype: dt.dtype | None, args: tuple, kwargs: dict) -> Any:
    """``Tensor(*args)`` (of the default dtype) or ``FloatTensor(*args)``...:
    no arguments make an empty tensor, ints or a Size an uninitialised one of
    that shape (zeros here), a list its data; a tensor is aliased."""
    if not args and set(kwargs) & {"data", "size"}:  # Tensor(data=...), (size=...)
        kwargs = dict(kwargs)
        args = (kwargs.pop("data") if "data" in kwargs else Size(kwargs.pop("size")),)
    unknown = [k for k in kwargs if k != "device"]
    if unknown:
        why = "some of the keywords were incorrect: " + ", ".join(reversed(unknown))
        raise TypeError(_new_mismatch(args, kwargs, why))
    where = kwargs.get("device")
    if where is not None and _device.device(where).type != "cpu":
        raise RuntimeError(
            "legacy constructor expects device type: cpu but device type: "
            f"{_device.device(where).type} was passed"
        )
    want = dtype or dt.default_float
    first = args[0] if args else None
    # a size: ints (a 0-d integer tensor among them) or a Size
    sized = isinstance(first, (int, np.integer)) and not isinstance(first, bool)
    sized = sized or (len(args) > 1 and _is_size_int(first, alone=True))
    if len(args) > 1 and not sized:
        why = "some of the arguments have invalid types: "
        why += "(" + ", ".join(f"!{argument_desc(a)}!" for a in args) + ")"
        raise TypeError(_new_mismatch(args, kwargs, why))
    if sized or isinstance(first, Size):
        return cls._make(np.zeros(checked_shape(args, "new"), want.np), False)
    if isinstance(first, TensorBase):
        if dtype is not None and first.dtype is not dtype:
            raise TypeError(f"expected {_options(dtype)} (got {_options(first.dtype)})")
        return first._view(V.Alias)
    if isinstance(first, str):
        raise TypeError("new(): invalid data type 'str'")
    if isinstance(first, np.ndarray) and first.dtype == want.np:
        return cls._make(first, False)  # shares the array's memory, as PyTorch
    if args and not isinstance(first, (list, tuple, np.ndarray)):
        raise TypeError(f"new(): data must be a sequence (got {type_name(first)})")
    data = to_array(first, want) if args else np.zeros(0, want.np)
    return cls._make(data, False)


def _options(d: dt.dtype) -> str:
    return (
        f"TensorOptions(dtype={d._cpp}, device=cpu, layout=Strided, "
        "requires_grad=false (default), pinned_memory=false (default), "
        "memory_format=(nullopt))"
    )


def _new_mismatch(args: tuple, kwargs: dict, why: str) -> str:
    """PyTorch's "invalid combination of arguments" for ``new()``; the reason
    shows under the signatures that take as many arguments as were given."""
    # (PyTorch lists the keywords last to first)
    kws = [f"{k}={type_name(v)}" for k, v in reversed(kwargs.items())]
    got = (
        ", ".join([type_name(a) for a in args] + kws) if args else ", ".join(kws) + ", "
    )
    count = len(args) + len(kwargs)
    under = (1, 2) if count == 1 else (0,) if count == 2 else (3, 4)
    lines = [f" * {sig}" for sig in _NEW_SIGNATURES]
    for i in under:
        lines[i] += f"\n      didn't match because {why}"
    return (
        f"new() received an invalid combination of arguments - got ({got}), but "
        "expected one of:\n" + "\n".join(lines) + "\n"
    )
