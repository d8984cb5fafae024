"""Views (ops/views.py): flatten, movedim, narrow and the other reshapes.

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py, split by family.)
"""

from __future__ import annotations

import numpy as np
import pytest
from op_harness import (
    check_gradcheck,
    differential,
    second_order,
    torch,
)

import minigrad

# ------------------------------------------------------------ shape: others
OTHERS = {
    "flatten": (lambda T, a: a.flatten(), (2, 3, 2)),
    "flatten_1": (lambda T, a: a.flatten(1), (2, 3, 2)),
    "flatten_0_1": (lambda T, a: T.flatten(a, 0, 1), (2, 3, 2)),
    "flatten_noncontig": (lambda T, a: a.transpose(0, 1).flatten(1), (2, 3, 2)),
    "flatten_0d": (lambda T, a: a.flatten(), ()),
    "flatten_1d": (lambda T, a: (a * 2).flatten(), (3,)),
    "contiguous_t": (lambda T, a: a.t().contiguous(), (2, 3)),
    "contiguous": (lambda T, a: (a * 2).contiguous(), (2, 3)),
    "repeat": (lambda T, a: a.repeat(2, 1, 3), (2, 3)),
    "repeat_same": (lambda T, a: a.repeat(2, 3), (2, 3)),
    "repeat_tuple": (lambda T, a: a.repeat((2, 2)), (3,)),
    "repeat_0d": (lambda T, a: a.repeat(3), ()),
    "narrow": (lambda T, a: a.narrow(1, 1, 2), (2, 4)),
    "narrow_neg": (lambda T, a: T.narrow(a, -1, -3, 2), (2, 4)),
    "narrow_full": (lambda T, a: a.narrow(0, 0, 2), (2, 4)),
    "view_as": (lambda T, a: a.view_as(T.zeros(3, 2)), (2, 3)),
    "reshape_as": (lambda T, a: a.t().reshape_as(T.zeros(6)), (2, 3)),
    "movedim": (lambda T, a: a.movedim(0, 2), (2, 3, 4)),
    "movedim_many": (lambda T, a: T.movedim(a, (0, 1), (2, 0)), (2, 3, 4)),
    "movedim_same": (lambda T, a: a.movedim(-1, -1), (2, 3)),
    "moveaxis": (lambda T, a: T.moveaxis(a, 1, 0), (2, 3)),
    "swapaxes": (lambda T, a: a.swapaxes(0, 2), (2, 3, 4)),
    "swapdims": (lambda T, a: T.swapdims(a, 0, -1), (2, 3)),
}


@pytest.mark.parametrize("name", sorted(OTHERS))
def test_shape_ops(name: str) -> None:
    fn, shape = OTHERS[name]
    x = np.random.default_rng(14).normal(size=shape)
    check_gradcheck(fn, x)
    differential(fn, [x])
    differential(fn, [x], dtype=np.float32)
    second_order(lambda T, a: fn(T, a) ** 2, [x])


def test_flatten_and_contiguous_return_self() -> None:
    for lib in (minigrad, torch):
        x = lib.ones(2, 3, requires_grad=True)
        v = lib.ones(3, requires_grad=True)
        assert x.contiguous() is x and v.flatten() is v and x.flatten(1, 1) is x
