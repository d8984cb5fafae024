"""Forward-mode AD against PyTorch: for every expression of the op tests, the
tangent minigrad computes (from the op's backward formula, by the double
backward trick) equals PyTorch's forward-mode derivative."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import test_activation
import test_arithmetic
import test_binary
import test_loss
import test_selection
import test_unary
from op_harness import draw_values as _draw
from test_fused_backward import REDUCTIONS

import minigrad

torch = pytest.importorskip("torch")
# the expressions of the elementwise op tests, all families together
UNARY = {
    **test_unary.UNARY,
    **test_activation.UNARY,
    **test_selection.UNARY,
    **test_arithmetic.UNARY,
}
BINARY = {
    **test_arithmetic.BINARY,
    **test_binary.BINARY,
    **test_loss.BINARY,
    **test_selection.BINARY,
}
# PyTorch 2.13's forward_ad calls the deprecated torch.jit.script on each use
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _tangent(lib: Any, fn: Any, arrays: list, tangents: list) -> Any:
    fw = lib.autograd.forward_ad
    with fw.dual_level():
        duals = [
            fw.make_dual(lib.tensor(a), lib.tensor(t)) for a, t in zip(arrays, tangents)
        ]
        out = fn(lib, *duals)
        tangent = fw.unpack_dual(out).tangent
        return None if tangent is None else tangent.detach().numpy().copy()


def _check(fn: Any, arrays: list) -> None:
    rng = np.random.default_rng(3)
    tangents = [rng.standard_normal(a.shape) for a in arrays]
    try:
        want = _tangent(torch, fn, arrays, tangents)
    except (NotImplementedError, RuntimeError) as e:  # no forward AD in PyTorch
        pytest.skip(f"PyTorch: {e}")
    got = _tangent(minigrad, fn, arrays, tangents)
    if want is None:  # no tangent in PyTorch: none here either, or PyTorch lacks
        if got is not None and np.any(got):  # that op's forward formula
            pytest.skip("PyTorch gives this op no tangent (no forward formula)")
        return
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_tangents(name: str) -> None:
    fn, dom = UNARY[name]
    _check(fn, [_draw((2, 3), dom, np.random.default_rng(4))])


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_tangents(name: str) -> None:
    fn, doms = BINARY[name]
    rng = np.random.default_rng(5)
    _check(fn, [_draw(s, d, rng) for s, d in zip(((2, 3), (3,)), doms)])


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_reduction_and_shape_tangents(name: str) -> None:
    x = np.random.default_rng(6).permutation(np.arange(1.0, 7.0)).reshape(2, 3) / 3
    _check(lambda lib, a: REDUCTIONS[name](lib, a), [x])


def test_tangents_leave_with_the_level() -> None:
    fw = minigrad.autograd.forward_ad
    x = minigrad.tensor([1.0, 2.0])
    with fw.dual_level():
        y = fw.make_dual(x, minigrad.ones(2)) * 3
        assert fw.unpack_dual(y).tangent is not None
    assert fw.unpack_dual(y).tangent is None
    with fw.dual_level():  # a new level starts clean
        assert fw.unpack_dual(y).tangent is None
        assert "tangent" not in repr(y)
