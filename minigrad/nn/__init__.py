"""``minigrad.nn``: modules, parameters, losses, ``init`` and ``functional``, with
PyTorch's names, reprs and parameter naming."""

from __future__ import annotations

from . import functional, init
from .layers import (
    GELU,
    Dropout,
    Flatten,
    Identity,
    LeakyReLU,
    Linear,
    LogSoftmax,
    ModuleList,
    ReLU,
    Sequential,
    Sigmoid,
    Softmax,
    Softplus,
    Tanh,
)
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module
from .parameter import Parameter

__all__ = [
    "BCELoss",
    "BCEWithLogitsLoss",
    "CrossEntropyLoss",
    "Dropout",
    "Flatten",
    "GELU",
    "Identity",
    "LeakyReLU",
    "Linear",
    "LogSoftmax",
    "MSELoss",
    "Module",
    "ModuleList",
    "NLLLoss",
    "Parameter",
    "ReLU",
    "Sequential",
    "Sigmoid",
    "Softmax",
    "Softplus",
    "Tanh",
    "functional",
    "init",
]
