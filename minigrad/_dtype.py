"""Data types: thin names over numpy dtypes, printed the way PyTorch prints them."""

from __future__ import annotations

import builtins

import numpy as np


class dtype:  # noqa: N801 - PyTorch's spelling
    """A tensor element type, e.g. ``minigrad.float32``."""

    __slots__ = (
        "name", "np", "is_floating_point", "is_signed", "itemsize", "_legacy", "_cpp"
    )  # fmt: skip

    def __init__(self, name: str, np_type: type, legacy: str, cpp: str) -> None:
        self.name = name
        self.np = np.dtype(np_type)
        self.is_floating_point = self.np.kind == "f"
        self.is_signed = self.np.kind in "fi"
        self.itemsize = self.np.itemsize
        self._legacy = legacy  # the old tensor-type name used in error messages
        self._cpp = cpp  # the C++ type name some of PyTorch's messages print

    @property
    def _scalar_type(self) -> str:
        """``Float``, ``Long``...: the name PyTorch's ScalarType prints."""
        return self._legacy.removesuffix("Tensor")

    def __repr__(self) -> str:
        return f"minigrad.{self.name}"

    def __reduce__(self) -> str:
        return self.name


float16 = half = dtype("float16", np.float16, "HalfTensor", "c10::Half")
float32 = float = dtype("float32", np.float32, "FloatTensor", "float")  # noqa: A001
float64 = double = dtype("float64", np.float64, "DoubleTensor", "double")
int8 = dtype("int8", np.int8, "CharTensor", "signed char")
uint8 = dtype("uint8", np.uint8, "ByteTensor", "unsigned char")
int16 = short = dtype("int16", np.int16, "ShortTensor", "short int")
int32 = int = dtype("int32", np.int32, "IntTensor", "int")  # noqa: A001
int64 = long = dtype("int64", np.int64, "LongTensor", "long int")
bool = dtype("bool", np.bool_, "BoolTensor", "bool")  # noqa: A001

ALL = (float16, float32, float64, int8, uint8, int16, int32, int64, bool)
_BY_NP = {d.np: d for d in ALL}

default_float = float32


def from_numpy_dtype(np_dtype: np.dtype) -> dtype:
    """The minigrad dtype of a numpy dtype (TypeError for ones PyTorch lacks)."""
    try:
        return _BY_NP[np_dtype]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np_dtype}. The only supported "
            "types are: float64, float32, float16, int64, int32, int16, int8, uint8, "
            "and bool."
        ) from None


def _category(d: dtype) -> int:
    """bool < integer < floating: the order PyTorch promotes across."""
    return 2 if d.is_floating_point else (0 if d is bool else 1)


def promote(a: dtype, b: dtype) -> dtype:
    """The dtype two tensors of the same priority combine into."""
    if a is b:
        return a
    ca, cb = _category(a), _category(b)
    if ca != cb:  # float32 with int64 stays float32 (numpy would say float64)
        return a if ca > cb else b
    return from_numpy_dtype(np.promote_types(a.np, b.np))


def scalar_dtype(value: object) -> dtype:
    """The dtype PyTorch wraps a Python scalar into (``2`` -> int64, ``2.5`` -> f64)."""
    if isinstance(value, (np.bool_, builtins.bool)):
        return bool
    if isinstance(value, (np.integer, builtins.int)):
        return int64
    return float64


def result_type(*operands: object) -> dtype:
    """PyTorch's type promotion: dimensioned tensors outrank 0-d tensors, which
    outrank Python scalars; a lower-priority operand only matters when it is of
    a higher category (bool < int < float), e.g. ``int_tensor * 2.5`` is float32."""
    groups: list[dtype | None] = [None, None, None]  # dim>0, 0-d, scalars
    for x in operands:
        data = getattr(x, "_data", None)
        if data is not None:
            d, g = _BY_NP[data.dtype], 0 if data.ndim else 1
            if g and getattr(x, "_wrapped_number", False):
                # a Python number PyTorch wrapped into a 0-d tensor still ranks
                # as a scalar: ``float32_0d + 2.5`` stays float32
                d, g = (default_float if d is float64 else d), 2
        else:
            d, g = scalar_dtype(x), 2
            if d is float64:
                d = default_float
        groups[g] = d if groups[g] is None else promote(groups[g], d)
    result = None
    for d in groups:
        if d is None:
            continue
        if result is None or _category(d) > _category(result):
            result = d
    return result
