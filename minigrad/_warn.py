"""Warnings that point at the user's line, as PyTorch's do."""

from __future__ import annotations

import sys
import warnings
from typing import Any

import numpy as np


def warn(message: str, category: type[Warning] = UserWarning) -> None:
    """Warn at the first caller outside minigrad: PyTorch's C++ warnings point at
    the Python line that called the op, however deep minigrad's own calls go."""
    level, frame = 2, sys._getframe(1)
    while frame.f_back is not None and _in_minigrad(frame):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


_WARNED_ONCE: set[str] = set()
# torch.set_warn_always(True) makes every warn-once warning fire each time
WARN_ALWAYS = False


def warn_once(key: str, message: str, category: type[Warning] = UserWarning) -> None:
    """`warn` the first time only, per process, whatever Python's warning
    filters say: PyTorch's TORCH_WARN_ONCE keeps that flag on its C++ side."""
    if WARN_ALWAYS or key not in _WARNED_ONCE:
        _WARNED_ONCE.add(key)
        warn(message, category)


def _in_minigrad(frame: Any) -> bool:
    return frame.f_globals.get("__name__", "").partition(".")[0] == "minigrad"


def mute_numpy_warnings() -> None:
    """PyTorch lets inf and nan arise silently; numpy would warn (overflow,
    inf - inf) from inside minigrad's ops. Only warnings raised in minigrad's own
    code are muted: the user's numpy code keeps its warnings. (Installed on
    import; a later ``warnings.simplefilter("always")`` overrides it.)"""
    warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"minigrad(\.|$)")


def quiet_mean(x: np.ndarray, **kwargs: Any) -> Any:
    """``x.mean(...)``; for an empty array (a NaN mean) without numpy's
    "Mean of empty slice" warnings, which PyTorch does not give."""
    if x.size:
        return x.mean(**kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return x.mean(**kwargs)
