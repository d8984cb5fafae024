"""``minigrad.autograd``: the engine's entry points and ``Function``."""

from __future__ import annotations

from typing import Any

from .. import engine, grad_mode
from .._warn import warn
from ..engine import StepEvent, backward, backward_steps
from ..grad_mode import enable_grad, no_grad, set_grad_enabled
from ..gradcheck import GradcheckError, gradcheck, gradgradcheck
from . import forward_ad, function, functional, graph, profiler, variable
from .function import Function
from .variable import Variable


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool | None = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> tuple:
    """Return the gradients of ``outputs`` with respect to ``inputs`` (nothing is
    accumulated into ``.grad``). With ``is_grads_batched``, the first dim of
    each grad_output is a batch: one gradient per element, stacked (PyTorch
    vmaps its one pass; here the engine runs once per element)."""
    if not is_grads_batched:
        return engine.grad(
            outputs, inputs, grad_outputs, retain_graph, create_graph, only_inputs,
            allow_unused, materialize_grads=materialize_grads,
        )  # fmt: skip
    return functional.batched_grad(
        outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
        materialize_grads,
    )  # fmt: skip


def set_detect_anomaly(mode: bool, check_nan: bool = True) -> None:
    """Anomaly mode: each node keeps the forward call's traceback (in
    ``metadata["traceback_"]``), an error in backward shows it, and with
    ``check_nan`` a formula that returns nan raises."""
    if mode:
        warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime "
            "and should only be enabled for debugging."
        )
    grad_mode.state.anomaly, grad_mode.state.check_nan = bool(mode), check_nan


def is_anomaly_enabled() -> bool:
    return grad_mode.state.anomaly


def is_anomaly_check_nan_enabled() -> bool:
    return grad_mode.state.check_nan


class detect_anomaly:  # noqa: N801 - PyTorch's spelling
    """``with autograd.detect_anomaly():`` anomaly mode inside the block."""

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan

    def __enter__(self) -> None:
        self.prev = (grad_mode.state.anomaly, grad_mode.state.check_nan)
        set_detect_anomaly(True, self.check_nan)

    def __exit__(self, *exc: Any) -> None:
        grad_mode.state.anomaly, grad_mode.state.check_nan = self.prev


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
    "profiler",
    "grad",
    "gradcheck",
    "gradgradcheck",
    "graph",
    "detect_anomaly",
    "is_anomaly_check_nan_enabled",
    "is_anomaly_enabled",
    "no_grad",
    "set_detect_anomaly",
    "set_grad_enabled",
    "variable",
]
