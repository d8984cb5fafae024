"""Making tensors: ``tensor, ones, zeros, full, rand, randn, arange, eye, *_like``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _dtype as dt
from . import grad_mode
from ._from_data import (
    checked_shape,
    finish_leaf,
    legacy_new,
    to_array,
    warn_copy_construct,
)
from ._generator import Generator, default_generator
from ._tensor import Tensor
from ._views_inplace import bump_version
from .ops import arithmetic as A
from .ops import random as R
from .ops._common import broadcast_shape
from .ops._layout import preserve_layout


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


def tensor(
    data: Any,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """A new leaf tensor holding a copy of ``data``."""
    if isinstance(data, Tensor):
        warn_copy_construct("minigrad.tensor")
    return finish_leaf(Tensor._make(to_array(data, dtype), False), requires_grad)


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


def _sized(
    size: tuple, fill: Any, dtype: dt.dtype | None, requires_grad: bool, fn: str
) -> Tensor:
    shape = checked_shape(size, fn)
    d = dtype or dt.default_float
    return finish_leaf(
        Tensor._make(np.full(shape, fill, dtype=d.np), False), requires_grad
    )


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
    shape = checked_shape(_sizes(sizes, size), "rand")
    d = dtype or dt.default_float
    if not d.is_floating_point:
        raise NotImplementedError(
            f"\"check_uniform_bounds\" not implemented for '{d._scalar_type}'"
        )
    data = (generator or default_generator).uniform(shape, d.np)
    return finish_leaf(Tensor._make(data, False), requires_grad)


def randn(
    *sizes: Any,
    size: Any = None,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Any = None,
) -> Tensor:
    shape = checked_shape(_sizes(sizes, size), "randn")
    d = dtype or dt.default_float
    if not d.is_floating_point:
        raise NotImplementedError(
            f"\"normal_kernel_cpu\" not implemented for '{d._scalar_type}'"
        )
    data = (generator or default_generator).normal(shape, d.np)
    return finish_leaf(Tensor._make(data, False), requires_grad)


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
    return finish_leaf(Tensor._make(data, False), requires_grad)


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
    return finish_leaf(Tensor._make(data, False), requires_grad)


# ---- arange and linspace with PyTorch's float rounding -------------------
# A lesson's x = arange(-8.0, 8.0, 0.1) has a value near 0 whose sign decides
# relu's gradient there, so the last bit matters: PyTorch's CPU kernels
# (aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp) compute arange as
# start + step * i in double, but in 32-byte vectors, each from its own first
# value rounded to the dtype (then a serial tail, the length modulo two
# vectors); linspace computes start + step * i (end - step * (steps - 1 - i)
# from halfway on) in the dtype. Both contract to fused multiply-adds, rounded
# once: emulated with error-free sums and products in double (_fused). Ranges
# of more than 32,768 values, which PyTorch splits between threads, can differ
# at the split points.
_RANGE_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_VECTOR_BYTES = 32


def _two_sum(a: np.ndarray, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """``a + b`` rounded, and its rounding error (exactly: a + b = s + e)."""
    total = a + b
    back = total - a
    return total, (a - (total - back)) + (b - back)


def _fused(a: Any, b: Any, c: Any, out: np.dtype) -> np.ndarray:
    """``a * b + c`` rounded once to ``out`` (float32 or float64), as a fused
    multiply-add does, from error-free sums and products in double."""
    a, b = np.asarray(a, np.float64), np.float64(b)
    if out == np.float32:  # the product of two floats is exact in double
        total, error = _two_sum(a * b, np.float64(c))
        # a double exactly between two floats goes the way the exact sum lies
        total = np.where(
            error != 0, np.nextafter(total, np.copysign(np.inf, error)), total
        )
        return total.astype(out)
    product = a * b  # double: the product's error from Dekker's split
    a_hi, a_lo = _split(a)
    b_hi, b_lo = _split(b)
    low = ((a_hi * b_hi - product) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    total, error = _two_sum(product, np.float64(c))
    rest, rest_error = _two_sum(error, low)  # a * b + c = total + rest + rest_error
    out_, tie = _two_sum(total, rest)
    # total + rest rounded at a tie between doubles: the tiny rest_error
    # decides which way the exact value lies
    toward = np.nextafter(out_, np.copysign(np.inf, tie))
    halfway = (tie != 0) & (np.abs(toward - out_) == 2 * np.abs(tie))
    same_way = np.sign(rest_error) == np.sign(tie)
    return np.where(halfway & same_way, toward, out_)


def _split(x: Any) -> tuple[Any, Any]:
    """``x`` as two halves of 26 bits, whose products are exact (Veltkamp)."""
    t = 134217729.0 * x  # 2**27 + 1
    hi = t - (t - x)
    return hi, x - hi


def _arange_values(start: float, step: float, n: int, kind: np.dtype) -> np.ndarray:
    i = np.arange(n, dtype=np.float64)
    width = _VECTOR_BYTES // kind.itemsize
    vectored = n - n % (2 * width)  # pairs of vectors; the rest one at a time
    first = i[:vectored] - i[:vectored] % width  # each vector's first index
    base = _fused(first, step, start, np.dtype(np.float64)).astype(kind)
    head = _fused(i[:vectored] - first, step, base, np.dtype(np.float64))
    tail = _fused(i[vectored:], step, start, np.dtype(np.float64))
    return np.concatenate([head, tail]).astype(kind)


def _linspace_values(
    start: float, end: float, steps: int, kind: np.dtype
) -> np.ndarray:
    first, last = kind.type(start), kind.type(end)
    step = (last - first) / kind.type(steps - 1)  # (in the dtype, as PyTorch)
    i = np.arange(steps, dtype=np.float64)
    half = steps // 2
    low = _fused(i[:half], step, first, kind)
    high = _fused(steps - 1 - i[half:], -step, last, kind)
    return np.concatenate([low, high])


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
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is None:
        is_float = any(isinstance(v, float) for v in (start, end, step))
        dtype = dt.default_float if is_float else dt.int64
    if dtype.np in _RANGE_FLOATS:
        n = max(0, math.ceil((float(end) - float(start)) / float(step)))
        data = _arange_values(float(start), float(step), n, dtype.np)
    else:
        data = np.arange(start, end, step, dtype=np.float64).astype(dtype.np)
    return finish_leaf(Tensor._make(data, False), requires_grad)


def linspace(
    start: float,
    end: float,
    steps: int,
    *,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    kind = (dtype or dt.default_float).np
    if kind in _RANGE_FLOATS and steps > 1:
        data = _linspace_values(float(start), float(end), int(steps), kind)
    else:
        data = np.linspace(start, end, steps).astype(kind)
    return finish_leaf(Tensor._make(data, False), requires_grad)


def eye(
    n: int,
    m: int | None = None,
    *,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    data = np.eye(n, m, dtype=(dtype or dt.default_float).np)
    return finish_leaf(Tensor._make(data, False), requires_grad)


def _check_input(t: Any, fn: str) -> None:
    if not isinstance(t, Tensor):
        raise TypeError(
            f"{fn}(): argument 'input' (position 1) must be Tensor, not "
            f"{type(t).__name__}"
        )


def _like(
    t: Tensor,
    maker: Any,
    dtype: dt.dtype | None,
    requires_grad: bool,
    *args: Any,
    **kwargs: Any,
) -> Tensor:
    _check_input(t, f"{maker.__name__}_like")
    d = dtype or t.dtype
    out = maker(t.shape, *args, dtype=d, requires_grad=requires_grad, **kwargs)
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
    generator: Any = None,
) -> Tensor:
    return _like(t, rand, dtype, requires_grad, generator=generator)


def randn_like(
    t: Tensor,
    *,
    dtype: dt.dtype | None = None,
    requires_grad: bool = False,
    device: Any = None,
    generator: Any = None,
) -> Tensor:
    return _like(t, randn, dtype, requires_grad, generator=generator)


def randint_like(
    t: Tensor,
    low: int,
    high: int | None = None,
    *,
    dtype: dt.dtype | None = None,
    requires_grad: bool = False,
    device: Any = None,
    generator: Any = None,
) -> Tensor:
    """Integers in [low, high) (or [0, low)) shaped like ``t``, in its dtype."""
    _check_input(t, "randint_like")
    out = _random_(empty_like(t, dtype=dtype), low, high, generator=generator)
    return finish_leaf(out, requires_grad)


# ---- random fills and draws (``t.uniform_(a, b)``, ``bernoulli(p)``,
# ``multinomial``), bound onto the Tensor here: they draw from the generator,
# which sits above the Tensor in the import order. Each in-place fill records
# its node (ops/random.py: a zero gradient), as PyTorch's do.
def _gen(generator: Any, fn: str) -> Generator:
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(
            f"{fn}(): argument 'generator' must be minigrad.Generator, not "
            f"{type(generator).__name__}"
        )
    return generator


def _float_only(t: Tensor, kernel: str) -> None:
    """The check of PyTorch's float-only random kernels (an integer tensor)."""
    if not t.is_floating_point():
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{t.dtype._scalar_type}'"
        )


def _units(gen: Generator, shape: tuple) -> np.ndarray:
    """Uniform float64 values in [0, 1)."""
    return gen.uniform(tuple(shape), np.float64)


def _uniform_(
    self: Tensor, from_: float = 0.0, to: float = 1.0, *, generator: Any = None
) -> Tensor:
    """Fill with U(from, to) in place."""
    _float_only(self, "check_uniform_bounds")
    if from_ > to:
        raise RuntimeError(
            "uniform_ expects to return a [from, to) range, but found "
            f"from={from_:g} > to={to:g}"
        )
    gen = _gen(generator, "uniform_")
    return self._inplace(
        R.Uniform, gen.uniform(self.shape, self._data.dtype, from_, to)
    )


def _check_std(std: float) -> None:
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


def _normal_(
    self: Tensor, mean: float = 0.0, std: float = 1.0, *, generator: Any = None
) -> Tensor:
    """Fill with N(mean, std²) in place."""
    _float_only(self, "normal_kernel_cpu")
    _check_std(std)
    gen = _gen(generator, "normal_")
    return self._inplace(R.Normal, gen.normal(self.shape, self._data.dtype, mean, std))


def _random_(
    self: Tensor, from_: Any = None, to: Any = None, *, generator: Any = None
) -> Tensor:
    """Fill with integers: in [from, to), [0, to) with one argument, or with no
    argument every integer the dtype holds exactly, from 0."""
    gen = _gen(generator, "random_")
    if from_ is None:
        dtype = self._data.dtype
        if dtype.kind == "f":
            top = 2 ** (np.finfo(dtype).nmant + 1)
        else:
            top = 1 if dtype == np.bool_ else int(np.iinfo(dtype).max)
        cls, low, high = R.Random, 0, top + 1
    elif to is None:
        cls, low, high = R.RandomTo, 0, from_
    else:
        cls, low, high = R.RandomFromTo, from_, to
    if low >= high:
        raise RuntimeError(
            "random_ expects 'from' to be less than 'to', but got "
            f"from={low} >= to={high}"
        )
    values = gen.integers(low, high, self.shape).astype(self._data.dtype)
    return self._inplace(cls, values)


def _exponential_(self: Tensor, lambd: float = 1.0, *, generator: Any = None) -> Tensor:
    """Fill with Exp(lambd) in place: ``-log(1 - u) / lambd``."""
    if not self.is_floating_point():
        raise RuntimeError(
            "Exponential distribution is a continuous probability distribution. "
            "dtype must be a floating point but you specified "
            + self.dtype._scalar_type
        )
    if lambd <= 0:
        raise RuntimeError(
            f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}"
        )
    u = _units(_gen(generator, "exponential_"), self.shape)
    return self._inplace(
        R.Exponential, (-np.log1p(-u) / lambd).astype(self._data.dtype)
    )


def _geometric_(self: Tensor, p: float, *, generator: Any = None) -> Tensor:
    """Fill with the number of trials to the first success (1, 2, ...)."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    u = 1 - _units(_gen(generator, "geometric_"), self.shape)  # in (0, 1]
    values = np.floor(np.log(u) / np.log1p(-p)) + 1
    return self._inplace(R.Geometric, values.astype(self._data.dtype))


def _cauchy_(
    self: Tensor, median: float = 0.0, sigma: float = 1.0, *, generator: Any = None
) -> Tensor:
    """Fill with Cauchy(median, sigma) in place."""
    if not self.is_floating_point():
        raise RuntimeError(
            "Cauchy distribution is a continuous probability distribution. dtype "
            f"must be a floating point but you specified {self.dtype._cpp}"
        )
    if sigma <= 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
    u = _units(_gen(generator, "cauchy_"), self.shape)
    values = median + sigma * np.tan(np.pi * (u - 0.5))
    return self._inplace(R.Cauchy, values.astype(self._data.dtype))


def _log_normal_(
    self: Tensor, mean: float = 1.0, std: float = 2.0, *, generator: Any = None
) -> Tensor:
    """Fill with exp(N(mean, std²)) in place."""
    _float_only(self, "log_normal_cpu")
    if std <= 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
    normal = _gen(generator, "log_normal_").normal(self.shape, np.float64, mean, std)
    return self._inplace(R.LogNormal, np.exp(normal).astype(self._data.dtype))


def _bernoulli_draw(gen: Generator, p: Any, shape: tuple, dtype: np.dtype) -> Any:
    return (_units(gen, shape) < p).astype(dtype)


def _check_probabilities(p: Tensor) -> None:
    _float_only(p, "bernoulli_tensor_cpu_p_")
    if not ((p._data >= 0) & (p._data <= 1)).all():
        raise RuntimeError(
            "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could "
            "this error message be improved?  If so, please report an enhancement "
            "request to PyTorch.)"
        )


def _bernoulli_(self: Tensor, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    """Fill with 1 with probability ``p`` (a number, or a tensor that
    broadcasts to this one), else 0."""
    gen = _gen(generator, "bernoulli_")
    if isinstance(p, Tensor):
        _check_probabilities(p)
        probs = p.detach().expand(*self.shape)._data
        values = _bernoulli_draw(gen, probs, self.shape, self._data.dtype)
        return self._inplace(R.BernoulliTensor, p, values)
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
    values = _bernoulli_draw(gen, p, self.shape, self._data.dtype)
    return self._inplace(R.BernoulliScalar, values)


def bernoulli(
    input: Tensor, p: float | None = None, *, generator: Any = None
) -> Tensor:
    """0 or 1 per element, 1 with the probability the element holds (or ``p``)."""
    _check_input(input, "bernoulli")
    if p is not None:  # a form PyTorch has no derivative for
        with grad_mode.no_grad():
            drawn = input.new_empty(input.shape).bernoulli_(p, generator=generator)
        return A.NotDifferentiable.apply(input, None, drawn._data, "bernoulli")
    _check_probabilities(input)
    values = _bernoulli_draw(
        _gen(generator, "bernoulli"), input._data, input.shape, input._data.dtype
    )
    return R.Bernoulli.apply(input, values)


def poisson(input: Tensor, generator: Any = None) -> Tensor:
    """Counts drawn from Poisson(rate), one per element of ``input`` (the
    rates), in its dtype. numpy's sampler draws them, seeded from the
    generator, so a seed repeats them (PyTorch's own stream differs)."""
    _check_input(input, "poisson")
    _float_only(input, "poisson_cpu")
    rates = input._data
    if not (rates >= 0).all():  # (nan too)
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    seed = _gen(generator, "poisson").random_int64() % 2**63
    counts = np.asarray(np.random.default_rng(seed).poisson(rates.astype(np.float64)))
    return R.Poisson.apply(input, counts.astype(rates.dtype).reshape(rates.shape))


def _sample_count(n: Any) -> int:
    if n <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    return int(n)


def multinomial(
    input: Tensor,
    num_samples: int,
    replacement: bool = False,
    *,
    generator: Any = None,
    out: Tensor | None = None,
) -> Tensor:
    """Category indices drawn with the row's (unnormalised) weights: with
    replacement by inverting the cumulative weights, without by the
    exponential race (each category's ``Exp(1) / weight``, smallest first).
    One draw with replacement is a race too: PyTorch takes that fast path.
    ``out=`` (an int64 tensor) is resized to the result and written."""
    _check_input(input, "multinomial")
    if out is not None:
        if not isinstance(out, Tensor):
            raise TypeError(
                "multinomial(): argument 'out' must be Tensor, not "
                f"{type(out).__name__}"
            )
        if out.dtype is not dt.int64:
            raise RuntimeError(
                f"multinomial expects Long tensor out, got: {out.dtype._scalar_type}"
            )
    if not input.is_floating_point():
        raise RuntimeError(
            "multinomial only supports floating-point dtypes for input, got: "
            f"{input.dtype._scalar_type}"
        )
    if input.dim() not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    n = _sample_count(num_samples)
    if not replacement and n > input.shape[-1]:
        raise RuntimeError(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
        )
    rows = input._data.astype(np.float64).reshape(-1, input.shape[-1])
    if not (np.isfinite(rows) & (rows >= 0)).all():
        raise RuntimeError(
            "probability tensor contains either `inf`, `nan` or element < 0"
        )
    totals = rows.sum(axis=1, keepdims=True)
    if (totals <= 0).any():
        raise RuntimeError(
            "invalid multinomial distribution (sum of probabilities <= 0)"
        )
    gen = _gen(generator, "multinomial")
    by_cumsum = replacement and n > 1
    u = _units(gen, (rows.shape[0], n if by_cumsum else rows.shape[1]))
    if by_cumsum:
        edges = np.cumsum(rows / totals, axis=1)
        picks = [np.searchsorted(e, x, side="right") for e, x in zip(edges, u)]
        picks = np.minimum(np.array(picks), rows.shape[1] - 1)
    else:
        with np.errstate(divide="ignore"):
            race = -np.log1p(-u) / rows  # a zero weight never wins (inf)
        picks = np.argsort(race, axis=1, kind="stable")[:, :n]
    drawn = picks.astype(np.int64).reshape(*input.shape[:-1], n)
    if out is None:
        return Tensor._make(drawn, False)
    out._data = drawn  # resized to the draw, as PyTorch resizes out
    bump_version(out)
    return out


for _fill in (
    _uniform_, _normal_, _random_, _exponential_, _geometric_, _cauchy_,
    _log_normal_, _bernoulli_,
):  # fmt: skip
    _fill.__name__ = _fill.__qualname__ = _fill.__name__[1:]
    setattr(Tensor, _fill.__name__, _fill)
Tensor.bernoulli = bernoulli


_NORMAL_SIGNATURES = (
    " * (Tensor mean, Tensor std, *, minigrad.Generator generator = None, Tensor out "
    "= None)\n"
    " * (Tensor mean, float std = 1, *, minigrad.Generator generator = None, Tensor "
    "out = None)\n"
    " * (float mean, Tensor std, *, minigrad.Generator generator = None, Tensor out "
    "= None)\n"
    " * (float mean, float std, tuple of ints size, *, minigrad.Generator generator "
    "= None, Tensor out = None, minigrad.dtype dtype = None, minigrad.layout layout "
    "= None, minigrad.device device = None, bool pin_memory = False, bool "
    "requires_grad = False)\n"
)


def normal(
    mean: Any,
    std: Any = 1.0,
    size: Any = None,
    *,
    generator: Any = None,
    dtype: dt.dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """Values drawn from N(mean, std²): of ``size`` for numbers, else of the
    broadcast shape of the mean and std tensors given (no gradient flows to
    them: PyTorch's NormalBackward nodes give zeros)."""
    gen = _gen(generator, "normal")
    tensors = [t for t in (mean, std) if isinstance(t, Tensor)]
    if not tensors:
        if size is None:
            got = f"{type(mean).__name__}, {type(std).__name__}"
            raise TypeError(
                f"normal() received an invalid combination of arguments - got ({got}"
                f"), but expected one of:\n{_NORMAL_SIGNATURES}"
            )
        _check_std(std)
        d = dtype or dt.default_float
        data = gen.normal(checked_shape((size,), "normal"), d.np, mean, std)
        return finish_leaf(Tensor._make(data, False), requires_grad)
    for t in tensors:
        _float_only(t, "normal_kernel_cpu")
    if not isinstance(std, Tensor):
        _check_std(std)
    elif (std._data < 0).any():
        raise RuntimeError("normal expects all elements of std >= 0.0")
    shape = tuple(tensors[0].shape)
    if len(tensors) == 2:
        shape = broadcast_shape(shape, tuple(tensors[1].shape))
    kind = tensors[0]._data.dtype  # the mean's dtype, if it is a tensor
    m, s = (t._data if isinstance(t, Tensor) else t for t in (mean, std))
    values = (m + s * gen.normal(shape, kind)).astype(kind)
    if len(tensors) == 2:
        return R.NormalTensorTensor.apply(mean, std, values)
    cls = R.NormalTensorFloat if tensors[0] is mean else R.NormalFloatTensor
    return cls.apply(tensors[0], values)


Tensor.multinomial = multinomial


class tensortype(type):  # noqa: N801 - PyTorch's spelling
    """The type of ``FloatTensor``, ``LongTensor``...: calling one makes a tensor
    of its dtype, and ``isinstance(x, FloatTensor)`` asks for ``x``'s dtype
    (the tensor itself is a plain Tensor, as in PyTorch)."""

    __module__ = "minigrad"  # <class 'minigrad.tensortype'>, as torch's
    dtype: dt.dtype

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return legacy_new(Tensor, cls.dtype, args, kwargs)

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype


def _legacy_type(d: dt.dtype) -> tensortype:
    attrs = {"dtype": d, "is_cuda": False, "is_sparse": False, "__module__": "minigrad"}
    return tensortype(d._legacy, (), attrs)


FloatTensor = _legacy_type(dt.float32)
DoubleTensor = _legacy_type(dt.float64)
HalfTensor = _legacy_type(dt.float16)
BFloat16Tensor = _legacy_type(dt.bfloat16)
ByteTensor = _legacy_type(dt.uint8)
CharTensor = _legacy_type(dt.int8)
ShortTensor = _legacy_type(dt.int16)
IntTensor = _legacy_type(dt.int32)
LongTensor = _legacy_type(dt.int64)
BoolTensor = _legacy_type(dt.bool)
