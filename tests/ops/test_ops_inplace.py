"""In-place ops on non-leaf tensors and on views of them: the history is
rewritten (AddBackward0 over the old node, CopySlices on the base,
AsStridedBackward0 on the view) and gradients still flow."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import (
    arrays,
    away_from_zero,
    broadcast_pairs,
    check_gradcheck,
    differential,
    floats,
    second_order,
    torch,
)

import minigrad

FAST = settings(max_examples=15, deadline=None)
ANY, POS, NONZERO = floats(-2, 2), floats(0.2, 2), away_from_zero()


def _ip(method: str, *args: Any) -> Any:
    """``a.clone().<method>(b, ...)``: the in-place op on a non-leaf."""

    def fn(T: Any, a: Any, b: Any) -> Any:
        return getattr(a.clone(), method)(b, *args)

    return fn


def _iadd(T: Any, a: Any, b: Any) -> Any:
    y = a * 1
    y += b
    return y


def _isub(T: Any, a: Any, b: Any) -> Any:
    y = a * 1
    y -= b
    return y


def _imul(T: Any, a: Any, b: Any) -> Any:
    y = a * 1
    y *= b
    return y


def _idiv(T: Any, a: Any, b: Any) -> Any:
    y = a * 1
    y /= b
    return y


def _ipow(T: Any, a: Any, b: Any) -> Any:
    y = a * 1
    y **= b
    return y


# in-place binary ops (b broadcasts into a's shape)
BINARY: dict[str, tuple[Any, tuple]] = {
    "add_": (_ip("add_"), (ANY, ANY)),
    "sub_": (_ip("sub_"), (ANY, ANY)),
    "mul_": (_ip("mul_"), (ANY, ANY)),
    "div_": (_ip("div_"), (ANY, NONZERO)),
    "pow_tensor": (_ip("pow_"), (POS, ANY)),
    "copy_": (_ip("copy_"), (ANY, ANY)),
    "iadd": (_iadd, (ANY, ANY)),
    "isub": (_isub, (ANY, ANY)),
    "imul": (_imul, (ANY, ANY)),
    "idiv": (_idiv, (ANY, NONZERO)),
    "ipow": (_ipow, (POS, ANY)),
    "add_alpha": (lambda T, a, b: a.clone().add_(b, alpha=2), (ANY, ANY)),
    "sub_alpha": (lambda T, a, b: a.clone().sub_(b, alpha=0.5), (ANY, ANY)),
    "fill_tensor": (lambda T, a, b: a.clone().fill_(b.sum()), (ANY, ANY)),
    # writes through views of a non-leaf
    "view_mul_": (
        lambda T, a, b: _view_write(a, lambda v: v.mul_(b.sum())),
        (ANY, ANY),
    ),
    "view_copy_": (
        lambda T, a, b: _view_write(a, lambda v: v.copy_(b.sum() * 2)),
        (ANY, ANY),
    ),
}


def _view_write(a: Any, op: Any) -> Any:
    """Write into the last column of a clone of ``a`` through a view."""
    y = a.clone()
    op(y[..., -1:])
    return y


UNARY: dict[str, tuple[Any, Any]] = {
    "add_scalar": (lambda T, a: a.clone().add_(2), ANY),
    "sub_scalar": (lambda T, a: a.clone().sub_(2, alpha=3), ANY),
    "mul_scalar": (lambda T, a: a.clone().mul_(3), ANY),
    "div_scalar": (lambda T, a: a.clone().div_(4), ANY),
    "pow_scalar": (lambda T, a: a.clone().pow_(2), ANY),
    "pow_half": (lambda T, a: a.clone().pow_(0.5), POS),
    "neg_": (lambda T, a: a.clone().neg_(), ANY),
    "exp_": (lambda T, a: a.clone().exp_(), ANY),
    "tanh_": (lambda T, a: a.clone().tanh_(), ANY),
    "sigmoid_": (lambda T, a: a.clone().sigmoid_(), ANY),
    "relu_": (lambda T, a: a.clone().relu_(), NONZERO),
    "zero_": (lambda T, a: a.clone().zero_() + a, ANY),
    "fill_": (lambda T, a: a.clone().fill_(1.5) * a, ANY),
    "chain": (lambda T, a: (a * 2).add_(1).mul_(a).tanh_(), ANY),
    "view_of_nonleaf": (lambda T, a: _flat_tail_exp(a), ANY),
}


def _flat_tail_exp(a: Any) -> Any:
    y = a * 1
    y.view(-1)[-1:].exp_()  # a view of a view of a non-leaf, changed in place
    return y


def test_modified_saved_tensor_error_vs_torch() -> None:
    """Changing a tensor a node saved fails at backward with PyTorch's message."""
    from op_harness import same_error

    def fn(T: Any, a: Any) -> Any:
        a.requires_grad_()
        y = a.exp()
        y.mul_(2)  # ExpBackward0 saved y itself (its result)
        y.sum().backward()

    same_error(fn, np.ones((2, 3)))


@pytest.mark.parametrize("name", sorted(BINARY))
@FAST
@given(data=st.data(), shapes=broadcast_pairs)
def test_inplace_binary_gradcheck(name: str, data: st.DataObject, shapes: Any) -> None:
    fn, (da, db) = BINARY[name]
    sa, sb = shapes.input_shapes
    full = np.broadcast_shapes(sa, sb)
    if name.startswith("view_") and not full:
        full = (1,)
    # the tensor changed in place must already have the broadcast shape
    check_gradcheck(fn, data.draw(arrays(full, da)), data.draw(arrays(sb, db)))


@pytest.mark.parametrize("name", sorted(UNARY))
@FAST
@given(data=st.data(), shape=st.sampled_from([(), (1,), (3,), (2, 3)]))
def test_inplace_unary_gradcheck(name: str, data: st.DataObject, shape: tuple) -> None:
    fn, dom = UNARY[name]
    check_gradcheck(fn, data.draw(arrays(shape, dom)))


def _draw(shape: tuple, dom: Any, rng: np.random.Generator) -> np.ndarray:
    x = rng.uniform(0.2, 2.0, shape)
    return x if dom is POS else x * np.where(rng.random(shape) < 0.5, -1.0, 1.0)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shapes", [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 3), ())])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_inplace_binary_vs_torch(name: str, shapes: tuple, dtype: Any) -> None:
    fn, doms = BINARY[name]
    rng = np.random.default_rng(0)
    differential(fn, [_draw(s, d, rng) for s, d in zip(shapes, doms)], dtype)


@pytest.mark.parametrize("needs", [(True, False), (False, True)])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_inplace_binary_one_input_requires_grad(name: str, needs: tuple) -> None:
    fn, doms = BINARY[name]
    rng = np.random.default_rng(1)
    arrs = [_draw(s, d, rng) for s, d in zip(((2, 3), (3,)), doms)]
    differential(fn, arrs, requires_grad=needs)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)], ids=str)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_inplace_unary_vs_torch(name: str, shape: tuple, dtype: Any) -> None:
    fn, dom = UNARY[name]
    differential(fn, [_draw(shape, dom, np.random.default_rng(2))], dtype)


# ------------------------------------------------------- writes through views
def _set_item(key: Any, value: Any = None) -> Any:
    def fn(T: Any, a: Any, b: Any) -> Any:
        y = a.clone()
        y[key] = b if value is None else value
        return y

    return fn


SETITEM: dict[str, tuple[Any, tuple, tuple]] = {
    # name: (expression, shape of a, shape of b)
    "int": (_set_item(0), (3, 2), (2,)),
    "int_broadcast": (_set_item(1), (3, 2), ()),
    "slice": (_set_item(slice(1, None)), (3, 2), (2, 2)),
    "slice_step": (_set_item(slice(None, None, 2)), (4, 2), (2,)),
    "int_int": (_set_item((1, 0)), (3, 2), ()),
    "ellipsis": (_set_item((Ellipsis, 1)), (3, 2), (3,)),
    "scalar_value": (_set_item(2, 5.0), (3, 2), (2,)),
    "list": (_set_item([0, 2]), (3, 2), (2, 2)),
    "mask": (_set_item(np.array([True, False, True])), (3, 2), (2,)),
    "neg_index": (_set_item(-1), (3, 2), (2,)),
    "view_of_view": (
        lambda T, a, b: _view_write(a.t(), lambda v: v[0].mul_(b[0, 0])),
        (3, 2),
        (2, 2),
    ),
    "base_then_view": (lambda T, a, b: _base_then_view(a, b), (3, 2), (2,)),
    "return_view": (lambda T, a, b: _return_view(a, b), (3, 2), (2,)),
    "into_zeros": (lambda T, a, b: _into_zeros(T, a, b), (3, 2), (2,)),
}


def _base_then_view(a: Any, b: Any) -> Any:
    y = a.clone()
    v = y[1]
    y.mul_(2)  # the base changes: v's grad_fn becomes AsStridedBackward0
    return v * b


def _return_view(a: Any, b: Any) -> Any:
    y = a.clone()
    v = y[1]
    v.add_(b)
    return v


def _into_zeros(T: Any, a: Any, b: Any) -> Any:
    z = T.zeros(4, 2, dtype=a.dtype)
    z[0] = a[0] * 2
    z[1:3] = b
    return z


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", sorted(SETITEM))
def test_setitem_and_view_writes_vs_torch(name: str, dtype: Any) -> None:
    fn, sa, sb = SETITEM[name]
    rng = np.random.default_rng(3)
    if name == "mask":  # the mask must be a tensor of the library being run

        def fn(T: Any, a: Any, b: Any) -> Any:  # noqa: F811
            y = a.clone()
            y[T.tensor([True, False, True])] = b
            return y

    differential(fn, [rng.normal(size=sa), rng.normal(size=sb)], dtype)


@FAST
@given(data=st.data(), name=st.sampled_from(sorted(SETITEM)))
def test_setitem_gradcheck(data: st.DataObject, name: str) -> None:
    fn, sa, sb = SETITEM[name]
    if name == "mask":
        return  # covered by the differential test (needs a tensor mask)
    check_gradcheck(fn, data.draw(arrays(sa)), data.draw(arrays(sb)))


def test_versions_vs_torch() -> None:
    """Every in-place op bumps the shared version counter once, as in PyTorch."""
    seen = []
    for lib in (torch, minigrad):
        a = lib.ones(2, 3, requires_grad=True)
        y = a.clone()
        v = y[0]
        versions = []
        for op in ("add_", "mul_v", "setitem", "zero_", "fill_", "copy_", "exp_"):
            if op == "add_":
                y.add_(1)
            elif op == "mul_v":
                v.mul_(2)
            elif op == "setitem":
                y[1] = 3.0
            elif op == "zero_":
                y.zero_()
            elif op == "fill_":
                y.fill_(2)
            elif op == "copy_":
                y.copy_(a)
            else:
                y.exp_()
            versions.append((y._version, v._version, a._version))
        seen.append(versions)
    assert seen[0] == seen[1]


# ---------------------------------------------------------------- second order
@pytest.mark.parametrize("name", sorted(UNARY))
def test_inplace_unary_second_order(name: str) -> None:
    fn, dom = UNARY[name]
    second_order(fn, [_draw((2, 3), dom, np.random.default_rng(4))])


@pytest.mark.parametrize("name", sorted(BINARY))
def test_inplace_binary_second_order(name: str) -> None:
    fn, doms = BINARY[name]
    rng = np.random.default_rng(5)
    second_order(fn, [_draw(s, d, rng) for s, d in zip(((2, 3), (3,)), doms)])


# ---------------------------------------------- in-place forms of more ops
# --------------------------------------------------------- in-place forms
INPLACE = {
    "addcmul_": (lambda T, a: (a * 1).addcmul_(a, a, value=0.5), (2, 3)),
    "addcdiv_": (lambda T, a: (a * 1).addcdiv_(a, a * a + 1), (2, 3)),
    "lerp_": (lambda T, a: (a * 1).lerp_(a * a, 0.7), (2, 3)),
    "sqrt_": (lambda T, a: (a * a + 1).sqrt_(), (2, 3)),
    "log_": (lambda T, a: (a * a + 1).log_() * a, (2, 3)),
    "abs_": (lambda T, a: (a * 2).abs_() * a, (2, 3)),
    "sin_cos_": (lambda T, a: (a * 1).sin_().cos_(), (2, 3)),
    "reciprocal_": (lambda T, a: (a * a + 1).reciprocal_(), (2, 3)),
    "asin_": (lambda T, a: (a * 0.2).arcsin_(), (2, 3)),
    "expm1_": (lambda T, a: (a * a).expm1_() * a, (2, 3)),
    "log1p_": (lambda T, a: (a * a).log1p_() * a, (2, 3)),
    "rsqrt_": (lambda T, a: (a * a + 1).rsqrt_() * a, (2, 3)),
    "floor_": (lambda T, a: (a * 3).floor_() * a, (2, 3)),
    "ceil_": (lambda T, a: (a * 3).ceil_() + a, (2, 3)),
    "round_": (lambda T, a: (a * 3).round_() * a, (2, 3)),
    "trunc_": (lambda T, a: (a * 3).trunc_() * a, (2, 3)),
    "frac_": (lambda T, a: (a * 3).frac_(), (2, 3)),
    "scatter_": (
        lambda T, a: (a * 1).scatter_(1, T.tensor([[2], [0]]), a[:, :1]),
        (2, 3),
    ),
    "scatter_value_": (
        lambda T, a: (a * 1).scatter_(0, T.tensor([[1, 0, 1]]), 0.0),
        (2, 3),
    ),
    "scatter_add_": (
        lambda T, a: (a * 1).scatter_add_(1, T.tensor([[1, 1]]), a[:1, 1:] * 2),
        (2, 3),
    ),
    "scatter_on_view": (
        lambda T, a: _on_view(a, lambda v: v.scatter_(0, T.tensor([2]), 5.0)),
        (2, 3),
    ),
    "clamp_": (lambda T, a: (a * 1).clamp_(-0.5, 0.5), (2, 3)),
    "clamp_min_": (lambda T, a: (a * 1).clamp_(min=0.1), (2, 3)),
    "clamp_tensor_": (lambda T, a: (a * 1).clamp_(max=a[0].detach()), (2, 3)),
    "masked_fill_": (lambda T, a: (a * 1).masked_fill_(a > 0.3, 0.0), (2, 3)),
    "masked_fill_bcast_": (
        lambda T, a: (a * 1).masked_fill_(T.tensor([True, False, True]), -1.0),
        (2, 3),
    ),
    "masked_fill_0d_": (
        lambda T, a: (a * 1).masked_fill_(a < 0, a.sum()),
        (2, 3),
    ),
    "clamp_on_view": (lambda T, a: _on_view(a, lambda v: v.clamp_(max=0.0)), (2, 3)),
    "masked_fill_on_view": (
        lambda T, a: _on_view(a, lambda v: v.masked_fill_(v > 0, 9.0)),
        (2, 3),
    ),
    "unsqueeze_": (lambda T, a: (a * 1).unsqueeze_(1) * a, (3,)),
    "squeeze_": (lambda T, a: (a * 1).squeeze_() * a[0], (1, 3)),
    "squeeze_dim_": (lambda T, a: (a * 1).squeeze_(-1).exp(), (3, 1)),
}


def _on_view(a: Any, op: Any) -> Any:
    y = a * 1
    op(y[1])
    return y


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_forms(name: str) -> None:
    fn, shape = INPLACE[name]
    x = np.random.default_rng(15).normal(size=shape)
    differential(fn, [x])
    second_order(lambda T, a: fn(T, a) ** 2, [x])
