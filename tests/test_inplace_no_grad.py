"""In-place arithmetic under no_grad writes straight into the tensor's memory
(_views_inplace._write_directly): the same values as the general path and as
PyTorch, the same version bumps, and PyTorch's refusals, unchanged."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import minigrad
from minigrad import _fastpath
from minigrad.ops import arithmetic as A

Program = Callable[[Any], list]  # (library) -> the tensors to compare


def _sgd(T: Any) -> list:
    w = T.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
    w.requires_grad_()
    (w * w).sum().backward()
    with T.no_grad():
        w -= 0.1 * w.grad
    return [w]


def _view(T: Any) -> list:
    base = T.arange(12.0).reshape(3, 4)
    with T.no_grad():
        row = base[1]
        row += T.ones(4)
        col = base[:, 2]  # a strided view
        col *= T.full((3,), 3.0)
    return [base, row, col]


def _ops(T: Any) -> list:
    a = T.tensor(np.linspace(0.5, 2, 6).reshape(2, 3))  # float64
    t = a.t()  # written through a transposed view
    with T.no_grad():
        a.add_(T.ones(2, 3), alpha=0.25)
        a.sub_(0.5)
        a *= 1.5
        t += T.ones(3, 2)
        a -= a  # the operand is the written memory itself
        a += 2
    return [a, t]


def _broadcast_operand(T: Any) -> list:  # not the direct path: the general one
    a = T.zeros(2, 3)
    with T.no_grad():
        a += T.tensor([1.0, 2.0, 3.0])
    return [a]


def _grows(T: Any) -> list:
    a = T.zeros(3)
    with T.no_grad():
        a += T.zeros(2, 3)
    return [a]


def _cast(T: Any) -> list:
    a = T.zeros(3, dtype=T.int64)
    with T.no_grad():
        a += T.ones(3)
    return [a]


def _expanded(T: Any) -> list:
    a = T.zeros(3).expand(2, 3)
    with T.no_grad():
        a += T.ones(2, 3)
    return [a]


def _partial_overlap(T: Any) -> list:
    a = T.arange(6.0)
    with T.no_grad():
        a[1:] += a[:-1]
    return [a]


def _inference(T: Any) -> list:
    with T.inference_mode():
        a = T.ones(3)
    with T.no_grad():
        a += T.ones(3)
    return [a]


PROGRAMS = {
    f.__name__[1:]: f
    for f in (
        _sgd,
        _view,
        _ops,
        _broadcast_operand,
        _grows,
        _cast,
        _expanded,
        _partial_overlap,
        _inference,
    )
}


def _run(program: Program, lib: Any) -> Any:
    try:
        return [(t.detach().numpy().copy(), t._version) for t in program(lib)]
    except RuntimeError as e:
        return type(e), str(e)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_inplace_under_no_grad_as_pytorch(name: str) -> None:
    """Values (bit for bit), ``_version`` of every tensor, or the error."""
    mine, theirs = _run(PROGRAMS[name], minigrad), _run(PROGRAMS[name], torch)
    if isinstance(theirs, tuple):
        assert mine == theirs
        return
    for (m, mv), (t, tv) in zip(mine, theirs):
        assert m.dtype == t.dtype and mv == tv
        np.testing.assert_array_equal(m, t)


def test_the_write_is_direct_and_equals_the_general_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under no_grad the ops' forward (a result array, then copied in) does not
    run; with grad mode on (nothing requires grad, so no node either) the
    general path runs it and computes the same bits."""
    calls: list[str] = []
    for cls in (A.Add, A.Sub, A.Mul):
        forward = cls.forward

        def counted(*args: Any, _forward: Any = forward, _name: str = cls.__name__):
            calls.append(_name)
            return _forward(*args)

        monkeypatch.setattr(cls, "forward", staticmethod(counted))
        # the fast apply holds the forward it was made with: make it again
        # over the counted one (monkeypatch puts the original back)
        monkeypatch.setattr(
            cls, "apply", _fastpath._FastApply(_fastpath.make_apply(cls))
        )
    rng = np.random.default_rng(0)
    w0 = rng.standard_normal((64, 33)).astype(np.float32)
    g = minigrad.tensor(rng.standard_normal((64, 33)).astype(np.float32))
    results = []
    for direct in (True, False):
        w, step = minigrad.tensor(w0), 0.01 * g
        del calls[:]
        with minigrad.set_grad_enabled(not direct):
            w -= step
            w.add_(g, alpha=-0.5)
            w *= 0.9
            w += 1e-3
        assert calls == ([] if direct else ["Sub", "Add", "Mul", "Add"])
        assert w._version == 4
        results.append(w.numpy())
    np.testing.assert_array_equal(*results)
