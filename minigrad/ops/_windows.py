"""The sliding windows that convolution and pooling share: a strided view of
the padded input, one window per output position (no copy), and the way back,
each window's values added where it read them."""

from __future__ import annotations

import numpy as np

Geometry = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]


def windows(
    x: np.ndarray,
    kernel: tuple,
    geometry: Geometry,
    fill: float = 0.0,
    out: tuple | None = None,
) -> np.ndarray:
    """The (N, C, *out, *kernel) windows of the padded input (padded with
    ``fill``), as a view; ``out``: the output size, when not the usual one
    (pooling's ceil_mode needs room for a last, partial window)."""
    stride, padding, dilation, _ = geometry
    if out is not None:  # pad on the right too, for windows past the end
        extra = [
            max(0, (o - 1) * s + d * (k - 1) + 1 - (n + 2 * p))
            for o, s, d, k, n, p in zip(
                out, stride, dilation, kernel, x.shape[2:], padding
            )
        ]
    else:
        extra = [0] * len(padding)
    pad = [(0, 0), (0, 0)] + [(p, p + e) for p, e in zip(padding, extra)]
    xp = np.pad(x, pad, constant_values=fill) if any(padding) or any(extra) else x
    spatial = xp.shape[2:]
    if out is None:
        out = tuple(
            (n - d * (k - 1) - 1) // s + 1
            for n, k, s, d in zip(spatial, kernel, stride, dilation)
        )
    strides = xp.strides
    return np.lib.stride_tricks.as_strided(
        xp,
        xp.shape[:2] + out + tuple(kernel),
        strides[:2]
        + tuple(st * s for st, s in zip(strides[2:], stride))
        + tuple(st * d for st, d in zip(strides[2:], dilation)),
        writeable=False,
    )


def add_windows(
    target: np.ndarray, values: np.ndarray, stride: tuple, dilation: tuple
) -> None:
    """target[..., p·stride + k·dilation] += values[..., k, p] for every kernel
    offset k and output position p (``values``: (..., *kernel, *out)): one
    strided add per kernel offset (col2im)."""
    k = len(stride)
    kernel, out = values.shape[-2 * k : -k], values.shape[-k:]
    for offset in np.ndindex(*kernel):
        key = tuple(
            slice(j * d, j * d + s * (m - 1) + 1, s)
            for j, d, s, m in zip(offset, dilation, stride, out)
        )
        target[(Ellipsis,) + key] += values[(Ellipsis,) + offset + (slice(None),) * k]
