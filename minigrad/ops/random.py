"""Random fills: ``uniform_``, ``normal_``, ``random_``, ``exponential_``,
``geometric_``, ``cauchy_``, ``log_normal_``, ``bernoulli_``, ``bernoulli`` and
``poisson``.
The values come from a generator (drawn by the caller, ``creation.py``, and
handed in as an array), so nothing flows back to the tensor they overwrite or
to the probabilities they were drawn with: every gradient is zero, as in
PyTorch, whose nodes these record.

Classes (and the node each records):

    RandomFill           (the shared base: forward, backward)
    Uniform              UniformBackward0
    Normal               NormalBackward0
    RandomFromTo         RandomBackward0
    RandomTo             RandomBackward1
    Random               RandomBackward2
    Exponential          ExponentialBackward0
    Geometric            GeometricBackward0
    Cauchy               CauchyBackward0
    LogNormal            LogNormalBackward0
    Bernoulli            BernoulliBackward0
    BernoulliTensor      BernoulliBackward1
    BernoulliScalar      BernoulliBackward2
    Poisson              PoissonBackward0
    NormalTensorFloat    NormalBackward1
    NormalFloatTensor    NormalBackward2
    NormalTensorTensor   NormalBackward3
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _formula as f
from ._common import Ctx, Grad, Op


class RandomFill(Op):
    """The shared rule: the result is the drawn values; ``d/da = 0``."""

    _abstract = True

    @staticmethod
    def forward(ctx: Ctx, a: Any, values: np.ndarray) -> Any:
        return values

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return g * 0, None


class Uniform(RandomFill):
    """d a.uniform_(from, to) = 0"""

    node_name = "UniformBackward0"


class Normal(RandomFill):
    """d a.normal_(mean, std) = 0"""

    node_name = "NormalBackward0"


class RandomFromTo(RandomFill):
    """d a.random_(from, to) = 0"""

    node_name = "RandomBackward0"


class RandomTo(RandomFill):
    """d a.random_(to) = 0"""

    node_name = "RandomBackward1"


class Random(RandomFill):
    """d a.random_() = 0"""

    node_name = "RandomBackward2"


class Exponential(RandomFill):
    """d a.exponential_(lambd) = 0"""

    node_name = "ExponentialBackward0"


class Geometric(RandomFill):
    """d a.geometric_(p) = 0"""

    node_name = "GeometricBackward0"


class Cauchy(RandomFill):
    """d a.cauchy_(median, sigma) = 0"""

    node_name = "CauchyBackward0"


class LogNormal(RandomFill):
    """d a.log_normal_(mean, std) = 0"""

    node_name = "LogNormalBackward0"


class Bernoulli(RandomFill):
    """d bernoulli(p) = 0 (a new tensor drawn with probabilities p)"""

    node_name = "BernoulliBackward0"


class Poisson(RandomFill):
    """d poisson(rates) = 0 (a new tensor of counts drawn with those rates)"""

    node_name = "PoissonBackward0"


class BernoulliScalar(RandomFill):
    """d a.bernoulli_(p) = 0 (p a number)"""

    node_name = "BernoulliBackward2"


class BernoulliTensor(Op):
    """d a.bernoulli_(p) = (0, 0) (p a tensor)"""

    node_name = "BernoulliBackward1"

    @staticmethod
    def forward(ctx: Ctx, a: Any, p: Any, values: np.ndarray) -> Any:
        ctx.p_shape = p._data.shape
        return values

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return g * 0, f.zeros(ctx.p_shape, g), None


class NormalTensorFloat(Op):
    """d normal(mean, std) = 0 (mean a tensor, std a number)"""

    node_name, saved_attrs = "NormalBackward1", ("mean_sym_sizes",)

    @staticmethod
    def forward(ctx: Ctx, mean: Any, values: np.ndarray) -> Any:
        ctx.mean_sym_sizes = mean._data.shape
        return values

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.zeros(ctx.mean_sym_sizes, g), None


class NormalFloatTensor(Op):
    """d normal(mean, std) = 0 (mean a number, std a tensor)"""

    node_name, saved_attrs = "NormalBackward2", ("std_sym_sizes",)

    @staticmethod
    def forward(ctx: Ctx, std: Any, values: np.ndarray) -> Any:
        ctx.std_sym_sizes = std._data.shape
        return values

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return f.zeros(ctx.std_sym_sizes, g), None


class NormalTensorTensor(Op):
    """d normal(mean, std) = (0, 0) (both tensors)"""

    node_name = "NormalBackward3"
    saved_attrs = ("mean_sym_sizes", "std_sym_sizes")

    @staticmethod
    def forward(ctx: Ctx, mean: Any, std: Any, values: np.ndarray) -> Any:
        ctx.mean_sym_sizes, ctx.std_sym_sizes = mean._data.shape, std._data.shape
        return values

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        shapes = (ctx.mean_sym_sizes, ctx.std_sym_sizes)
        return f.zeros(shapes[0], g), f.zeros(shapes[1], g), None
