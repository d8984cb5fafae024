"""What the built-in ops share: the base class and dtype handling."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import default_float, result_type
from ..function import Function


class Op(Function):
    """A built-in op: forward computes numpy arrays from the inputs' ``_data``;
    backward formulas run on arrays or Tensors (see function.py)."""

    _abstract = True
    _array_backward = True


def binary_out(out: Any, a: Any, b: Any) -> Any:
    """Cast numpy's result to the dtype PyTorch's promotion rules give."""
    ad, bd = a._data.dtype, b._data.dtype
    if ad == bd and out.dtype == ad:
        return out
    want = result_type(a, b).np
    return out if out.dtype == want else np.asarray(out).astype(want)


def float_out(out: Any, *operands: Any) -> Any:
    """Like ``binary_out`` but integer results become the default float (``/``)."""
    want = result_type(*operands)
    if not want.is_floating_point:
        want = default_float
    return out if out.dtype == want.np else np.asarray(out).astype(want.np)
