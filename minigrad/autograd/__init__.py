"""``minigrad.autograd``: the engine's entry points and ``Function``."""

from __future__ import annotations

import warnings

from ..engine import StepEvent, backward, backward_steps, grad
from ..function import Function
from ..grad_mode import enable_grad, no_grad, set_grad_enabled
from ..gradcheck import GradcheckError, gradcheck, gradgradcheck
from . import function, functional, graph, variable
from .variable import Variable

_anomaly = False


def set_detect_anomaly(mode: bool, check_nan: bool = True) -> None:
    """Accepted for compatibility; minigrad keeps no forward tracebacks."""
    global _anomaly
    if mode:
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime "
            "and should only be enabled for debugging.",
            UserWarning,
            stacklevel=2,
        )
    _anomaly = bool(mode)


def is_anomaly_enabled() -> bool:
    return _anomaly


__all__ = [
    "Function",
    "GradcheckError",
    "StepEvent",
    "Variable",
    "backward",
    "backward_steps",
    "enable_grad",
    "function",
    "functional",
    "grad",
    "gradcheck",
    "gradgradcheck",
    "graph",
    "is_anomaly_enabled",
    "no_grad",
    "set_detect_anomaly",
    "set_grad_enabled",
    "variable",
]
