"""Elementwise functions of one tensor."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from .._dtype import default_float
from ._common import Op


def _float(x: np.ndarray) -> np.ndarray:
    """Integer inputs give default-float results, as in PyTorch (``exp(int)``)."""
    return x if x.dtype.kind == "f" else x.astype(default_float.np)


class Exp(Op):
    """d exp(a) = g * result"""

    node_name, saved = "ExpBackward0", ("result",)

    @staticmethod
    def forward(ctx: Any, a: Any) -> Any:
        out = np.exp(_float(a._data))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (result,) = ctx.saved_tensors
        return g * result


class Log(Op):
    """d log(a) = g / a"""

    node_name, saved = "LogBackward0", ("self",)

    @staticmethod
    def forward(ctx: Any, a: Any) -> Any:
        ctx.save_for_backward(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(_float(a._data))

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (a,) = ctx.saved_tensors
        return g / a


class Tanh(Op):
    """d tanh(a) = g * (1 - result²)"""

    node_name, saved = "TanhBackward0", ("result",)

    @staticmethod
    def forward(ctx: Any, a: Any) -> Any:
        out = np.tanh(_float(a._data))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (y,) = ctx.saved_tensors
        return g * (1 - y * y)


class Sigmoid(Op):
    """d sigmoid(a) = g * result * (1 - result)"""

    node_name, saved = "SigmoidBackward0", ("result",)

    @staticmethod
    def forward(ctx: Any, a: Any) -> Any:
        x = _float(a._data)
        with np.errstate(over="ignore"):
            out = (1 / (1 + np.exp(-x))).astype(x.dtype, copy=False)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (y,) = ctx.saved_tensors
        return g * (y * (1 - y))


class Relu(Op):
    """d relu(a) = g * (result > 0)"""

    node_name, saved = "ReluBackward0", ("result",)

    @staticmethod
    def forward(ctx: Any, a: Any) -> Any:
        out = np.maximum(a._data, 0, dtype=a._data.dtype)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (y,) = ctx.saved_tensors
        return g * f.positive_mask(y)


class Reciprocal(Op):
    """d (1/a) = -g * result²"""

    node_name, saved = "ReciprocalBackward0", ("result",)

    @staticmethod
    def forward(ctx: Any, a: Any) -> Any:
        with np.errstate(divide="ignore"):
            out = 1 / _float(a._data)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (y,) = ctx.saved_tensors
        return -g * (y * y)


class Sqrt(Op):
    """d sqrt(a) = g / (2 * result)"""

    node_name, saved = "SqrtBackward0", ("result",)

    @staticmethod
    def forward(ctx: Any, a: Any) -> Any:
        with np.errstate(invalid="ignore"):
            out = np.sqrt(_float(a._data))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (y,) = ctx.saved_tensors
        return g / (2 * y)


class Abs(Op):
    """d |a| = g * sign(a)"""

    node_name, saved = "AbsBackward0", ("self",)

    @staticmethod
    def forward(ctx: Any, a: Any) -> Any:
        ctx.save_for_backward(a)
        return np.abs(a._data)

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (a,) = ctx.saved_tensors
        return g * f.sign(a)


class Sin(Op):
    """d sin(a) = g * cos(a)"""

    node_name, saved = "SinBackward0", ("self",)

    @staticmethod
    def forward(ctx: Any, a: Any) -> Any:
        ctx.save_for_backward(a)
        return np.sin(_float(a._data))

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (a,) = ctx.saved_tensors
        return g * f.cos(a)


class Cos(Op):
    """d cos(a) = -g * sin(a)"""

    node_name, saved = "CosBackward0", ("self",)

    @staticmethod
    def forward(ctx: Any, a: Any) -> Any:
        ctx.save_for_backward(a)
        return np.cos(_float(a._data))

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        (a,) = ctx.saved_tensors
        return -g * f.sin(a)


class Sign(Op):
    """d sign(a) = 0"""

    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx: Any, a: Any) -> Any:
        return np.sign(a._data)

    @staticmethod
    def backward(ctx: Any, g: Any) -> Any:
        return g * 0
