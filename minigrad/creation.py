"""Making tensors: ``tensor, ones, zeros, full, rand, randn, arange, eye, *_like``."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from . import _dtype as dt
from . import grad_mode
from ._generator import Generator, default_generator
from ._tensor import Tensor
from ._tensor_base import _shape_arg, warn_scalar_conversion
from ._views_inplace import bump_version
from .ops._common import preserve_layout


def manual_seed(seed: int) -> Generator:
    """Seed the default generator (it draws PyTorch's numbers for a seed)."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    """Seed the default generator from the OS's entropy; return the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    return default_generator.get_state()


def set_rng_state(new_state: Tensor) -> None:
    default_generator.set_state(new_state)


def _infer_dtype(data: Any) -> dt.dtype:
    """Python floats -> the default float, ints -> int64, bools -> bool, a
    tensor element -> its own dtype, all combined by promotion (PyTorch's
    rules: ``[float64_tensor, 2]`` is float64); numpy arrays keep their dtype."""
    if isinstance(data, (np.ndarray, np.generic)):
        return dt.from_numpy_dtype(data.dtype)
    if isinstance(data, Tensor):
        return data.dtype
    found: list[dt.dtype] = []

    def walk(x: Any) -> None:
        if isinstance(x, (list, tuple)):
            for y in x:
                walk(y)
        elif isinstance(x, Tensor):
            found.append(x.dtype)
        elif isinstance(x, (bool, np.bool_)):
            found.append(dt.bool)
        elif isinstance(x, (int, np.integer)):
            found.append(dt.int64)
        elif isinstance(x, (float, np.floating)):
            found.append(dt.default_float)
        else:
            raise TypeError(f"Could not infer dtype of {type(x).__name__}")

    walk(data)
    result = found[0] if found else dt.default_float  # an empty list
    for d in found[1:]:
        result = dt.promote(result, d)
    return result


def _element_scalar(t: Tensor, dtype: dt.dtype) -> Any:
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


def _to_array(data: Any, dtype: dt.dtype | None) -> np.ndarray:
    if dtype is None:
        dtype = _infer_dtype(data)
    if isinstance(data, Tensor):
        data = data._data
    elif isinstance(data, (list, tuple)):

        def scalars(x: Any) -> Any:
            if isinstance(x, (list, tuple)):
                return [scalars(y) for y in x]
            return _element_scalar(x, dtype) if isinstance(x, Tensor) else x

        data = scalars(data)
    return np.array(data, dtype=dtype.np)


def _finish(t: Tensor, requires_grad: bool) -> Tensor:
    if requires_grad:
        if not t._data.dtype.kind == "f":
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        t._requires_grad = True
    return t


def tensor(
    data: Any,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """A new leaf tensor holding a copy of ``data``."""
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use "
            "sourceTensor.detach().clone() or "
            "sourceTensor.detach().clone().requires_grad_(True), rather than "
            "minigrad.tensor(sourceTensor).",
            UserWarning,
            stacklevel=2,
        )
    return _finish(Tensor._make(_to_array(data, dtype), False), requires_grad)


def as_tensor(data: Any, dtype: dt.dtype | None = None, device: Any = None) -> Tensor:
    if isinstance(data, Tensor) and (dtype is None or dtype is data.dtype):
        return data
    if isinstance(data, np.ndarray) and (dtype is None or dtype.np == data.dtype):
        return from_numpy(data)
    return tensor(data, dtype=dtype)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``array``."""
    dt.from_numpy_dtype(array.dtype)  # refuses unsupported dtypes
    return Tensor._make(array, False)


def _sizes(sizes: tuple, size: Any) -> tuple:
    """The shape given as ``f(2, 3)``, ``f((2, 3))`` or ``f(size=(2, 3))``."""
    if size is None:
        return sizes
    return (tuple(size) if isinstance(size, (tuple, list)) else size,)


def _shape(size: tuple, fn: str) -> tuple:
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


def _sized(
    size: tuple, fill: Any, dtype: dt.dtype | None, requires_grad: bool, fn: str
) -> Tensor:
    shape = _shape(size, fn)
    d = dtype or dt.default_float
    return _finish(Tensor._make(np.full(shape, fill, dtype=d.np), False), requires_grad)


def ones(
    *sizes: Any,
    size: Any = None,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    return _sized(_sizes(sizes, size), 1, dtype, requires_grad, "ones")


def zeros(
    *sizes: Any,
    size: Any = None,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    return _sized(_sizes(sizes, size), 0, dtype, requires_grad, "zeros")


def empty(
    *sizes: Any,
    size: Any = None,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    return _sized(_sizes(sizes, size), 0, dtype, requires_grad, "empty")


def full(
    size: Any,
    fill_value: Any,
    *,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    if dtype is None:
        dtype = dt.scalar_dtype(fill_value)
        dtype = dt.default_float if dtype is dt.float64 else dtype
    return _sized(
        (tuple(size),) if isinstance(size, (tuple, list)) else (size,),
        fill_value,
        dtype,
        requires_grad,
        "full",
    )


def rand(
    *sizes: Any,
    size: Any = None,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Any = None,
) -> Tensor:
    shape = _shape(_sizes(sizes, size), "rand")
    d = dtype or dt.default_float
    data = (generator or default_generator).uniform(shape, d.np)
    return _finish(Tensor._make(data, False), requires_grad)


def randn(
    *sizes: Any,
    size: Any = None,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Any = None,
) -> Tensor:
    shape = _shape(_sizes(sizes, size), "randn")
    d = dtype or dt.default_float
    data = (generator or default_generator).normal(shape, d.np)
    return _finish(Tensor._make(data, False), requires_grad)


def randint(
    low: int,
    high: int | None = None,
    size: Any = (),
    *,
    generator: Generator | None = None,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    if high is None or isinstance(high, (tuple, list)):  # randint(high, size)
        low, high, size = 0, low, size if high is None else high
    data = (generator or default_generator).integers(low, high, tuple(size))
    data = data.astype((dtype or dt.int64).np)
    return _finish(Tensor._make(data, False), requires_grad)


def randperm(
    n: int,
    *,
    generator: Generator | None = None,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """A random order of ``0 .. n-1``."""
    data = (generator or default_generator).permutation(int(n))
    data = data.astype((dtype or dt.int64).np)
    return _finish(Tensor._make(data, False), requires_grad)


def arange(
    start: Any,
    end: Any = None,
    step: Any = 1,
    *,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if dtype is None:
        is_float = any(isinstance(v, float) for v in (start, end, step))
        dtype = dt.default_float if is_float else dt.int64
    data = np.arange(start, end, step, dtype=np.float64).astype(dtype.np)
    return _finish(Tensor._make(data, False), requires_grad)


def linspace(
    start: float,
    end: float,
    steps: int,
    *,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    data = np.linspace(start, end, steps).astype((dtype or dt.default_float).np)
    return _finish(Tensor._make(data, False), requires_grad)


def eye(
    n: int,
    m: int | None = None,
    *,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    data = np.eye(n, m, dtype=(dtype or dt.default_float).np)
    return _finish(Tensor._make(data, False), requires_grad)


def _check_input(t: Any, fn: str) -> None:
    if not isinstance(t, Tensor):
        raise TypeError(
            f"{fn}(): argument 'input' (position 1) must be Tensor, not "
            f"{type(t).__name__}"
        )


def _like(
    t: Tensor, maker: Any, dtype: dt.dtype | None, requires_grad: bool, *args: Any
) -> Tensor:
    _check_input(t, f"{maker.__name__}_like")
    out = maker(t.shape, *args, dtype=dtype or t.dtype, requires_grad=requires_grad)
    out._data = preserve_layout(out._data, t._data)  # PyTorch's preserve_format
    return out


def ones_like(
    t: Tensor,
    *,
    dtype: dt.dtype | None = None,
    requires_grad: bool = False,
    device: Any = None,
) -> Tensor:
    return _like(t, ones, dtype, requires_grad)


def zeros_like(
    t: Tensor,
    *,
    dtype: dt.dtype | None = None,
    requires_grad: bool = False,
    device: Any = None,
) -> Tensor:
    return _like(t, zeros, dtype, requires_grad)


def empty_like(
    t: Tensor,
    *,
    dtype: dt.dtype | None = None,
    requires_grad: bool = False,
    device: Any = None,
) -> Tensor:
    _check_input(t, "empty_like")
    return _like(t, zeros, dtype, requires_grad)


def full_like(
    t: Tensor,
    fill_value: Any,
    *,
    dtype: dt.dtype | None = None,
    requires_grad: bool = False,
    device: Any = None,
) -> Tensor:
    return _like(t, full, dtype, requires_grad, fill_value)


def rand_like(
    t: Tensor,
    *,
    dtype: dt.dtype | None = None,
    requires_grad: bool = False,
    device: Any = None,
) -> Tensor:
    return _like(t, rand, dtype, requires_grad)


def randn_like(
    t: Tensor,
    *,
    dtype: dt.dtype | None = None,
    requires_grad: bool = False,
    device: Any = None,
) -> Tensor:
    return _like(t, randn, dtype, requires_grad)


# ---- in-place random fills (``t.uniform_(a, b)``, ``t.normal_()``), bound onto
# the Tensor here: they draw from the generator, which sits above the Tensor in
# the import order.
def _fill_randomly(t: Tensor, values: np.ndarray) -> Tensor:
    if t.requires_grad and t.is_leaf and grad_mode.is_grad_enabled():
        raise RuntimeError(
            "a leaf Variable that requires grad is being used in an in-place operation."
        )
    t._data[...] = values
    bump_version(t)
    return t


def _uniform_(
    self: Tensor, from_: float = 0.0, to: float = 1.0, *, generator: Any = None
) -> Tensor:
    """Fill with U(from, to) in place."""
    gen = generator or default_generator
    return _fill_randomly(self, gen.uniform(self.shape, self._data.dtype, from_, to))


def _normal_(
    self: Tensor, mean: float = 0.0, std: float = 1.0, *, generator: Any = None
) -> Tensor:
    """Fill with N(mean, std²) in place."""
    gen = generator or default_generator
    return _fill_randomly(self, gen.normal(self.shape, self._data.dtype, mean, std))


Tensor.uniform_ = _uniform_
Tensor.normal_ = _normal_
