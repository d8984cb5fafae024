"""Anomaly mode (``autograd.detect_anomaly``) as the core runs it.

While it is on, ``Function.apply`` keeps the Python stack of each op's forward
call in its node's metadata (``caller_stack``), and the engine runs each node
through ``call_in_anomaly_mode``: a nan gradient is an error (with
``check_nan``), and any error first shows where the node's forward was called.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Sequence

import numpy as np

from . import grad_mode
from ._warn import warn
from .node import Node, _call, _unwrap


def _users(filename: str) -> bool:
    """A frame of the user's code: not minigrad's, nor runpy's (``python -m
    minigrad lesson.py`` starts the lesson through runpy; ``python lesson.py``,
    which the lesson's PyTorch traceback comes from, shows no such frames)."""
    if f"{os.sep}minigrad{os.sep}" in filename:
        return False
    return filename != "<frozen runpy>" and not filename.endswith(f"{os.sep}runpy.py")


def caller_stack() -> list[str]:
    """The Python stack of the user's code (minigrad's and runpy's frames left out)."""
    frames = [f for f in traceback.extract_stack() if _users(f.filename)]
    return traceback.format_list(frames)


def call_in_anomaly_mode(node: Node, grads: list, graph: bool) -> Sequence:
    """``node._call`` under anomaly mode."""
    try:
        outs = _call(node, grads, graph)
        if grad_mode.state.check_nan:
            for i, g in enumerate(outs):
                if g is not None and np.isnan(_unwrap(g)).any():
                    raise RuntimeError(
                        f"Function '{node.name()}' returned nan values in its "
                        f"{i}th output."
                    )
        return outs
    except Exception:
        stack = node.__dict__.get("_metadata", {}).get("traceback_")
        if stack:
            warn(
                f"Error detected in {node.name()}. Traceback of forward call that "
                "caused the error:\n" + "".join(stack)
            )
        raise
