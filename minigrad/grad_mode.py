"""Grad modes: whether operations record a graph for backward."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


class _State:
    __slots__ = ("enabled", "inference", "inference_grad", "anomaly", "check_nan")

    def __init__(self) -> None:
        self.enabled = True  # operations record a graph
        self.inference = False  # inside inference_mode: new tensors are inference
        self.inference_grad = False  # ... and the grad mode switched on there
        self.anomaly = False  # autograd.detect_anomaly: forward tracebacks kept
        self.check_nan = True  # ... and backward refuses nan gradients


state = _State()  # read on every operation, so kept as one attribute lookup


def is_grad_enabled() -> bool:
    return state.inference_grad if state.inference else state.enabled


def _switch(mode: bool) -> tuple[bool, bool]:
    """Set the grad mode; return what to restore. Inside inference_mode the
    mode is only reported: nothing records there, as in PyTorch."""
    prev = (state.enabled, state.inference_grad)
    if state.inference:
        state.inference_grad = mode
    else:
        state.enabled = mode
    return prev


def _restore(prev: tuple[bool, bool]) -> None:
    state.enabled, state.inference_grad = prev


def is_inference_mode_enabled() -> bool:
    return state.inference


class _GradModeContext:
    """Base of the grad-mode switches: a context manager that is also a decorator
    (``@no_grad()`` and bare ``@no_grad`` both work, as in PyTorch)."""

    _mode: bool

    def __new__(cls, func: Callable | None = None, *args: Any) -> Any:
        self = super().__new__(cls)
        # used as a bare decorator, @no_grad: PyTorch wraps whatever it is given
        # (``no_grad(5)`` is a function that fails when called, not an error)
        if func is not None:
            self.__init__()
            return self(func)
        return self

    def __enter__(self) -> None:
        self._prev = _switch(self._mode)

    def __exit__(self, *exc: object) -> None:
        _restore(self._prev)

    def __call__(self, func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.__class__():
                return func(*args, **kwargs)

        return wrapper

    def clone(self) -> _GradModeContext:
        return self.__class__()


class no_grad(_GradModeContext):  # noqa: N801
    """Operations inside do not record a graph; results do not require grad."""

    _mode = False

    def __init__(self) -> None:
        pass


class enable_grad(_GradModeContext):  # noqa: N801
    """Turns recording back on inside a ``no_grad`` block."""

    _mode = True

    def __init__(self) -> None:
        pass


class set_grad_enabled(_GradModeContext):  # noqa: N801
    """``set_grad_enabled(False)`` works as a call, a context manager or decorator."""

    def __new__(cls, mode: bool) -> set_grad_enabled:
        return object.__new__(cls)

    def __init__(self, mode: bool) -> None:
        self._mode = mode
        self._prev = _switch(mode)  # takes effect at once when called as a function

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        _restore(self._prev)

    def __call__(self, func: Callable) -> Callable:
        _restore(self._prev)  # as a decorator it must not switch now
        mode = self._mode

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with set_grad_enabled(mode):
                return func(*args, **kwargs)

        return wrapper

    def clone(self) -> set_grad_enabled:
        return self.__class__(self._mode)


class inference_mode(_GradModeContext):  # noqa: N801
    """``no_grad`` and more: tensors made inside are *inference tensors*, which
    never get a version counter bumped outside and can never be saved for
    backward (``Tensor.is_inference()``). ``inference_mode(False)`` switches
    both back on inside an inference block."""

    def __new__(cls, mode: bool | Callable = True) -> Any:
        if callable(mode):  # used as a bare decorator: @inference_mode
            return cls()(mode)
        return object.__new__(cls)

    def __init__(self, mode: bool | Callable = True) -> None:
        self.mode = bool(mode)

    def __enter__(self) -> None:
        self._prev = (state.enabled, state.inference, state.inference_grad)
        state.enabled, state.inference = not self.mode, self.mode
        state.inference_grad = False

    def __exit__(self, *exc: object) -> None:
        state.enabled, state.inference, state.inference_grad = self._prev

    def __call__(self, func: Callable) -> Callable:
        mode = self.mode

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with inference_mode(mode):
                return func(*args, **kwargs)

        return wrapper

    def clone(self) -> inference_mode:
        return self.__class__(self.mode)
