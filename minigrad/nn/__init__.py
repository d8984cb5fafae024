"""``minigrad.nn``: modules, parameters, losses, ``init`` and ``functional``, with
PyTorch's names, reprs and parameter naming."""

from __future__ import annotations

from . import functional, init
from .layers import (
    CELU,
    ELU,
    GELU,
    SELU,
    Dropout,
    Flatten,
    Hardtanh,
    Identity,
    LeakyReLU,
    Linear,
    LogSigmoid,
    LogSoftmax,
    Mish,
    ModuleList,
    ReLU,
    ReLU6,
    Sequential,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .module import Module
from .parameter import Parameter

__all__ = [
    "CELU",
    "ELU",
    "Hardtanh",
    "HuberLoss",
    "L1Loss",
    "LogSigmoid",
    "Mish",
    "ReLU6",
    "SELU",
    "SiLU",
    "SmoothL1Loss",
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
