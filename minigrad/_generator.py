"""Random numbers drawn the way PyTorch's CPU generator draws them.

PyTorch's CPU generator is a Mersenne Twister (mt19937) seeded with the low 32
bits of the seed: the very generator behind numpy's legacy ``RandomState``,
which supplies the raw 32-bit words here.  What PyTorch then makes of those
words (ATen's ``uniform_real_distribution``, ``normal_fill``, ``random_from_to``,
``randperm``) is repeated below, so a seeded lesson draws PyTorch's numbers:
``rand``/``uniform_``, ``randint`` and ``randperm`` bit for bit, ``randn``/
``normal_`` bit for bit in float64 and for float32 tensors of fewer than 16
elements; larger float32 tensors differ in the last bit now and then (PyTorch
takes log, sin and cos from its own vectorised library).
"""

from __future__ import annotations

import math
import secrets
from typing import Any

import numpy as np

from ._device import device as device_type
from ._tensor import Tensor

# PyTorch's default_rng_seed_val: the seed of a generator nobody seeded.
DEFAULT_SEED = 67280421310721
_MASK32 = np.uint64(0xFFFFFFFF)


class Generator:
    """``torch.Generator``: a seeded source of random numbers (CPU only)."""

    def __init__(self, device: Any = "cpu") -> None:
        self.device = device_type(device)
        self.manual_seed(DEFAULT_SEED)

    # ------------------------------------------------------------- seeding
    def manual_seed(self, seed: Any) -> Generator:
        """Restart the stream from ``seed`` (PyTorch keeps its low 32 bits)."""
        seed = int(seed)
        if not -(2**63) <= seed < 2**64:
            raise ValueError("Overflow when unpacking long long")
        self._initial_seed = seed % 2**64
        self._mt = np.random.RandomState(self._initial_seed & 0xFFFFFFFF)
        self._next_normal: float | None = None  # Box-Muller's second value
        return self

    def seed(self) -> int:
        """Seed from the operating system's entropy; return that seed."""
        seed = secrets.randbits(63)
        self.manual_seed(seed)
        return seed

    def initial_seed(self) -> int:
        return self._initial_seed

    def get_state(self) -> Tensor:
        """The generator's whole state as a uint8 tensor (for ``set_state``)."""
        _, key, pos, _, _ = self._mt.get_state()
        cached = math.nan if self._next_normal is None else self._next_normal
        raw = b"".join(
            (
                key.astype("<u4").tobytes(),
                np.array([pos, self._initial_seed], "<u8").tobytes(),
                np.array([cached], "<f8").tobytes(),
            )
        )
        return Tensor._make(np.frombuffer(raw, np.uint8).copy(), False)

    def set_state(self, new_state: Tensor) -> Generator:
        raw = np.ascontiguousarray(new_state._data, np.uint8).tobytes()
        if len(raw) != 624 * 4 + 24:
            raise RuntimeError("Expected a state made by minigrad's get_state()")
        key = np.frombuffer(raw[: 624 * 4], "<u4")
        pos, initial = np.frombuffer(raw[624 * 4 : 624 * 4 + 16], "<u8")
        (cached,) = np.frombuffer(raw[624 * 4 + 16 :], "<f8")
        self._mt.set_state(("MT19937", key, int(pos), 0, 0.0))
        self._initial_seed = int(initial)
        self._next_normal = None if math.isnan(cached) else float(cached)
        return self

    # ------------------------------------------------------------ raw words
    def _random(self, n: int) -> np.ndarray:
        """``n`` 32-bit words (as uint64), PyTorch's ``random()``."""
        return self._mt.randint(0, 2**32, size=n, dtype=np.uint32).astype(np.uint64)

    def _random64(self, n: int) -> np.ndarray:
        """``n`` 64-bit words, two 32-bit words each (the first is high)."""
        words = self._random(2 * n)
        return (words[0::2] << np.uint64(32)) | words[1::2]

    def _unit(self, n: int, dtype: np.dtype) -> np.ndarray:
        """``n`` floats in [0, 1) with the dtype's mantissa bits, as float64."""
        digits = np.finfo(dtype).nmant + 1
        words = self._random64(n) if dtype == np.float64 else self._random(n)
        return (words & np.uint64((1 << digits) - 1)).astype(np.float64) * (
            2.0**-digits
        )

    # --------------------------------------------------------- distributions
    def uniform(
        self, shape: tuple, dtype: Any, low: float = 0.0, high: float = 1.0
    ) -> np.ndarray:
        """U(low, high) in ``dtype``, as ``Tensor.uniform_``."""
        dtype = np.dtype(dtype)
        low, high = (float(dtype.type(v)) for v in (low, high))
        x = self._unit(math.prod(shape), dtype)
        return (x * (high - low) + low).astype(dtype).reshape(shape)

    def normal(
        self, shape: tuple, dtype: Any, mean: float = 0.0, std: float = 1.0
    ) -> np.ndarray:
        """N(mean, std²) in ``dtype``, as ``Tensor.normal_``: Box-Muller on
        blocks of 16 uniforms for 16 or more elements, else one value at a time
        (each pair of uniforms gives two values; the second is kept for the
        next draw)."""
        dtype = np.dtype(dtype)
        n = math.prod(shape)
        if n < 16:
            out = np.array([self._one_normal() for _ in range(n)]) * std + mean
            return out.astype(dtype).reshape(shape)
        data = self._unit(n, dtype).astype(dtype)
        for start in range(0, n - 15, 16):
            _box_muller_16(data[start : start + 16], mean, std)
        if n % 16:  # the tail: PyTorch redraws the last 16 values
            data[n - 16 :] = self._unit(16, dtype).astype(dtype)
            _box_muller_16(data[n - 16 :], mean, std)
        return data.reshape(shape)

    def _one_normal(self) -> float:
        if self._next_normal is not None:
            value, self._next_normal = self._next_normal, None
            return value
        u1, u2 = self._unit(2, np.dtype(np.float64))
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        self._next_normal = radius * math.sin(theta)
        return radius * math.cos(theta)

    def integers(self, low: int, high: int, shape: tuple) -> np.ndarray:
        """Integers in [low, high), as ``randint``/``random_(low, high)``."""
        span = int(high) - int(low)
        n = math.prod(shape)
        words = self._random64(n) if span >= 2**32 else self._random(n)
        values = (words % np.uint64(span)).astype(np.int64) + int(low)
        return values.reshape(shape)

    def permutation(self, n: int) -> np.ndarray:
        """A random order of ``range(n)``, as ``randperm`` (Fisher-Yates)."""
        order = np.arange(n, dtype=np.int64)
        picks = self._random(max(n - 1, 0))
        for i in range(n - 1):
            j = i + int(picks[i] % np.uint64(n - i))
            order[i], order[j] = order[j], order[i]
        return order

    def random_int64(self) -> int:
        """A non-negative int64, as ``empty((), dtype=int64).random_()``."""
        return int(self._random64(1)[0] % np.uint64(2**63))


def _box_muller_16(block: np.ndarray, mean: float, std: float) -> None:
    """PyTorch's ``normal_fill_16``: uniforms in ``block`` -> normals, in place."""
    kind = block.dtype.type
    u1 = 1 - block[:8]  # [0, 1) -> (0, 1] for the log
    u2 = block[8:].copy()
    radius = np.sqrt(-2 * np.log(u1))
    theta = (kind(2.0 * math.pi) * u2).astype(block.dtype)
    block[:8] = radius * np.cos(theta) * kind(std) + kind(mean)
    block[8:] = radius * np.sin(theta) * kind(std) + kind(mean)


default_generator = Generator()
