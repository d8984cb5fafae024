"""Data types: thin names over numpy dtypes, printed the way PyTorch prints them."""

from __future__ import annotations

import builtins
import math

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


class _NoNumpyType(dtype):
    """A dtype PyTorch has and numpy lacks (``bfloat16``): it can be named,
    compared and asked about (``finfo``), but making a tensor of it fails with
    an error naming the limitation, never a silent float32."""

    __slots__ = ()

    def __init__(self, name: str, itemsize: int, legacy: str, cpp: str) -> None:
        self.name, self.itemsize = name, itemsize
        self.is_floating_point = self.is_signed = True
        self._legacy, self._cpp = legacy, cpp

    @property
    def np(self) -> np.dtype:  # type: ignore[override]
        raise TypeError(
            f"minigrad.{self.name} is not supported: numpy, which holds minigrad's "
            f"data, has no {self.name} type (use minigrad.float16 or "
            "minigrad.float32 instead)"
        )


bfloat16 = _NoNumpyType("bfloat16", 2, "BFloat16Tensor", "c10::BFloat16")

ALL = (float16, float32, float64, int8, uint8, int16, int32, int64, bool)
_BY_NP = {d.np: d for d in ALL}

# What ``tensor([1.5])``, ``ones(2)`` and ``Tensor(2)`` make; set_default_dtype
# changes it, so read it as ``_dtype.default_float`` at each use.
default_float = float32


def set_default_dtype(d: dtype) -> None:
    """Make ``d`` (a floating dtype) what float factories and literals give."""
    global default_float
    if not isinstance(d, dtype):
        raise TypeError(
            "invalid dtype object: only floating-point types are supported as the "
            "default type"
        )
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    d.np  # noqa: B018 - refuses bfloat16 here, not at the first tensor made
    default_float = d


def get_default_dtype() -> dtype:
    return default_float


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


# ---- finfo and iinfo: the limits of a dtype, printed as PyTorch prints them
# (bits, mantissa bits, largest exponent) of each floating format
_FLOAT_FORMATS = {"float16": (16, 10, 15), "bfloat16": (16, 7, 127),
                  "float32": (32, 23, 127), "float64": (64, 52, 1023)}  # fmt: skip


class finfo:  # noqa: N801 - PyTorch's spelling
    """``finfo(float32).eps`` ...: the limits of a floating dtype (the default
    dtype when none is given)."""

    def __init__(self, type: dtype | None = None) -> None:  # noqa: A002
        d = default_float if type is None else type
        if not isinstance(d, dtype):
            raise TypeError(
                "finfo(): argument 'type' (position 1) must be minigrad.dtype, not "
                f"{builtins.type(d).__name__}"
            )
        if not d.is_floating_point:
            raise TypeError(
                "minigrad.finfo() requires a floating point input type. Use "
                "minigrad.iinfo to handle 'minigrad.finfo'"
            )
        self.bits, mant, top = _FLOAT_FORMATS[d.name]
        self.eps = 2.0**-mant
        self.max = (2.0 - self.eps) * 2.0**top
        self.min = -self.max
        self.tiny = self.smallest_normal = 2.0 ** (1 - top)
        # PyTorch's resolution: 10 ** -(the decimal digits the mantissa holds)
        self.resolution = 10.0 ** -math.floor(-math.log10(self.eps))
        self.dtype = d.name

    def __eq__(self, other: object) -> builtins.bool:
        return isinstance(other, finfo) and other.dtype == self.dtype

    def __hash__(self) -> builtins.int:
        return hash(self.dtype)

    def __repr__(self) -> str:
        return (
            f"finfo(resolution={self.resolution:g}, min={self.min:g}, "
            f"max={self.max:g}, eps={self.eps:g}, "
            f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, "
            f"dtype={self.dtype})"
        )


class iinfo:  # noqa: N801 - PyTorch's spelling
    """``iinfo(int64).max`` ...: the limits of an integer dtype."""

    def __init__(self, type: dtype) -> None:  # noqa: A002
        if not isinstance(type, dtype):
            raise TypeError(
                "iinfo(): argument 'type' (position 1) must be minigrad.dtype, not "
                f"{builtins.type(type).__name__}"
            )
        if type is bool:
            raise TypeError("minigrad.bool is not supported by minigrad.iinfo")
        if type.is_floating_point:
            raise TypeError(
                "minigrad.iinfo() requires an integer input type. Use "
                "minigrad.finfo to handle 'minigrad.iinfo'"
            )
        limits = np.iinfo(type.np)
        self.bits, self.max, self.min = (
            limits.bits,
            builtins.int(limits.max),
            builtins.int(limits.min),
        )
        self.dtype = type.name

    def __eq__(self, other: object) -> builtins.bool:
        return isinstance(other, iinfo) and other.dtype == self.dtype

    def __hash__(self) -> builtins.int:
        return hash(self.dtype)

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"
