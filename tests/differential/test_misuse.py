"""Misuse in PyTorch's words (issue #16): each scenario does one wrong thing
under PyTorch 2.13 and under minigrad; the exception's type and message must
agree ("torch" read as "minigrad"), and the tensors it touched keep their
values, ``_version`` and ``.grad``."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

Scenario = Callable[[Any], tuple[list, Callable[[], Any]]]


def _leaf(T: Any, *shape: int) -> Any:
    return T.arange(float(np.prod(shape))).reshape(*shape).requires_grad_()


def _with_grad(T: Any) -> Any:
    w = T.ones(3, requires_grad=True)
    (w * 2).sum().backward()
    return w


def _function(T: Any, backward: Callable, save: Callable | None = None) -> Any:
    """A custom Function ``forward(ctx, x, k) = x * k`` (saving ``save(x, k)``)
    whose backward returns ``backward(grad)``."""

    class Double(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any, k: Any = 2) -> Any:
            if save is not None:
                ctx.save_for_backward(*save(x, k))
            return x * k

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return backward(g)

    return Double


SCENARIOS: dict[str, Scenario] = {
    "index_select_range": lambda T: (
        [a := T.ones(3)],
        lambda: a.index_select(0, T.tensor([5])),
    ),
    "gather_range": lambda T: (
        [a := T.ones(2, 3)],
        lambda: a.gather(1, T.tensor([[7]])),
    ),
    "index_select_range_dim0": lambda T: (
        [a := T.ones(2, 3)],
        lambda: a.index_select(0, T.tensor([-1])),
    ),
    "index_add_range": lambda T: (
        [a := T.zeros(3)],
        lambda: a.index_add_(0, T.tensor([4]), T.ones(1)),
    ),
    "add_list": lambda T: ([a := T.ones(2)], lambda: T.add(a, [1, 2])),
    "bool_sub": lambda T: ([a := T.tensor([True, False])], lambda: a - a),
    "bool_sub_number": lambda T: ([a := T.tensor([True])], lambda: a - 1),
    "number_sub_bool": lambda T: ([a := T.tensor([True])], lambda: 1 - a),
    "bool_sub_": lambda T: ([a := T.tensor([True])], lambda: a.sub_(a)),
    "float_sub_bool": lambda T: ([a := T.ones(1)], lambda: a - T.tensor([True])),
    "bool_neg": lambda T: ([a := T.tensor([True])], lambda: -a),
    "float_bitwise": lambda T: ([a := T.ones(2)], lambda: a & a),
    "float_or_bool": lambda T: ([a := T.ones(2)], lambda: a | True),
    "int_and_float": lambda T: ([a := T.tensor([1, 2])], lambda: a & T.ones(2)),
    "float_invert": lambda T: ([a := T.ones(2)], lambda: ~a),
    "int_multi": lambda T: ([a := T.ones(2)], lambda: int(a)),
    "float_empty": lambda T: ([a := T.ones(0)], lambda: float(a)),
    "bool_multi": lambda T: ([a := T.ones(2)], lambda: bool(a)),
    "int_negative_pow": lambda T: (
        [a := T.tensor([2, 3])],
        lambda: a**-1,
    ),
    "setitem_shape": lambda T: (
        [a := T.zeros(2, 3)],
        lambda: a.__setitem__(0, T.ones(2)),
    ),
    "duplicate_dims": lambda T: ([a := T.ones(2, 3)], lambda: a.sum((0, 0))),
    "duplicate_dims_mean": lambda T: ([a := T.ones(2, 3)], lambda: a.mean((1, -1))),
    "duplicate_dims_std": lambda T: ([a := T.ones(2, 3)], lambda: a.std((0, 0))),
    "duplicate_dims_nansum": lambda T: ([a := T.ones(2, 3)], lambda: a.nansum((1, 1))),
    "duplicate_dims_logsumexp": lambda T: (
        [a := T.ones(2, 3)],
        lambda: a.logsumexp((1, 1)),
    ),
    "permute_too_many": lambda T: ([a := T.ones(2, 3)], lambda: a.permute(0, 1, 2)),
    "permute_too_few": lambda T: ([a := T.ones(2, 3)], lambda: T.permute(a, (0,))),
    "permute_out_of_range_and_long": lambda T: (
        [a := T.ones(2, 3)],
        lambda: a.permute(5, 1, 0),
    ),
    "permute_0d": lambda T: ([a := T.ones(())], lambda: a.permute(0)),
    "permute_repeat": lambda T: ([a := T.ones(2, 3)], lambda: a.permute(0, 0)),
    "amax_empty": lambda T: ([a := T.ones(0)], lambda: a.amax()),
    "amin_empty_dim": lambda T: ([a := T.ones(0, 3)], lambda: a.amin(0)),
    "argmin_empty_dim": lambda T: ([a := T.ones(3, 0)], lambda: a.argmin(-1)),
    "argmax_empty": lambda T: ([a := T.ones(0)], lambda: a.argmax()),
    "broadcast": lambda T: ([a := T.ones(2, 3)], lambda: a + T.ones(4)),
    "broadcast_inplace": lambda T: ([a := T.ones(3)], lambda: a.add_(T.ones(2, 3))),
    "zeros_negative": lambda T: ([], lambda: T.zeros(-1)),
    "ones_negative": lambda T: ([], lambda: T.ones(2, -1)),
    "float_multi": lambda T: ([a := T.ones(2)], lambda: float(a)),
    "bool_empty": lambda T: ([a := T.ones(0)], lambda: bool(a)),
    "pow_negative_method": lambda T: ([a := T.tensor([2])], lambda: a.pow(-2)),
    "arange_float_step_0": lambda T: ([], lambda: T.arange(0.0, 1.0, 0.0)),
    "view_minus_2": lambda T: ([a := T.ones(6)], lambda: a.view(3, -2)),
    "view_two_inferred": lambda T: ([a := T.ones(6)], lambda: a.view(-1, -1)),
    "buffer_dot": lambda T: ([], lambda: T.nn.Module().register_buffer("a.b", None)),
    "module_dot": lambda T: ([], lambda: T.nn.Module().add_module("a.b", None)),
    "mul_list": lambda T: ([a := T.ones(2)], lambda: T.mul(a, [1, 2])),
    "add_list_method": lambda T: ([a := T.ones(2)], lambda: a.add([1, 2])),
    "arange_step_0": lambda T: ([], lambda: T.arange(0, 3, 0)),
    "view_float": lambda T: ([a := T.ones(6)], lambda: a.view(2.5)),
    "reshape_minus_2": lambda T: ([a := T.ones(6)], lambda: a.reshape(-2, 3)),
    "register_parameter_dot": lambda T: (
        [],
        lambda: T.nn.Module().register_parameter("a.b", None),
    ),
    "grad_kept_on_error": lambda T: (
        [w := _with_grad(T)],
        lambda: (w * T.ones(2)).sum().backward(),
    ),
    "inplace_leaf": lambda T: ([a := _leaf(T, 3)], lambda: a.add_(1)),
    # custom Functions: the legacy instance call (a DeprecationWarning first),
    # a backward's results checked as PyTorch's PyNode does (count first, then
    # each against its forward argument), save_for_backward of a non-tensor
    "function_instance_call": lambda T: (
        [a := _leaf(T, 3)],
        lambda: _function(T, lambda g: g)()(a),
    ),
    "function_backward_float": lambda T: (
        [a := _leaf(T, 3)],
        lambda: _function(T, lambda g: 1.0).apply(a).sum().backward(),
    ),
    "function_backward_too_many": lambda T: (
        [a := _leaf(T, 3)],
        lambda: _function(T, lambda g: (g, 1.0)).apply(a).sum().backward(),
    ),
    "function_backward_too_few": lambda T: (
        [a := _leaf(T, 3)],
        lambda: _function(T, lambda g: 1.0).apply(a, 2.0).sum().backward(),
    ),
    "function_backward_non_tensor_arg": lambda T: (
        [a := _leaf(T, 3)],
        lambda: _function(T, lambda g: (g, g)).apply(a, 2.0).sum().backward(),
    ),
    "function_backward_list_for_tensor": lambda T: (
        [a := _leaf(T, 3), k := _leaf(T, 3)],
        lambda: _function(T, lambda g: (g, [g])).apply(a, k).sum().backward(),
    ),
    "function_save_float": lambda T: (
        [a := _leaf(T, 3)],
        lambda: _function(T, lambda g: g, lambda x, k: (x, k)).apply(a, 1.5),
    ),
    # index_select and index_add_ out of range, in the words of the CPU kernel
    # path PyTorch takes (dim 1's fast path, the loop, scatter_add for an int64
    # index along the first or last dim, an empty dim)
    "index_select_range_dim1_of_3d": lambda T: (
        [a := T.ones(2, 3, 4)],
        lambda: a.index_select(1, T.tensor([-1])),
    ),
    "index_select_range_last_of_3d": lambda T: (
        [a := T.ones(2, 3, 4)],
        lambda: a.index_select(2, T.tensor([4])),
    ),
    "index_select_empty_dim": lambda T: (
        [a := T.ones(2, 0)],
        lambda: a.index_select(1, T.tensor([0])),
    ),
    "index_select_empty_other_dim": lambda T: (
        [a := T.ones(2, 0)],
        lambda: a.index_select(0, T.tensor([2])),
    ),
    "index_add_range_int32": lambda T: (
        [a := T.zeros(2, 3)],
        lambda: a.index_add_(1, T.tensor([3], dtype=T.int32), T.ones(2, 1)),
    ),
    "index_add_range_middle_dim": lambda T: (
        [a := T.zeros(2, 3, 4)],
        lambda: a.index_add_(1, T.tensor([3]), T.ones(2, 1, 4)),
    ),
    "index_add_range_last_dim": lambda T: (
        [a := T.zeros(2, 3, 4)],
        lambda: a.index_add_(2, T.tensor([-1, 0, 7]), T.ones(2, 3, 3)),
    ),
    "index_add_source_shape": lambda T: (
        [a := T.zeros(2, 3)],
        lambda: a.index_add_(0, T.tensor([1]), T.ones(1, 4)),
    ),
    "index_add_source_0d": lambda T: (
        [a := T.zeros(3)],
        lambda: a.index_add_(0, T.tensor([1]), T.ones(())),
    ),
    "index_add_index_matrix": lambda T: (
        [a := T.zeros(2, 3)],
        lambda: a.index_add_(0, T.tensor([[1]]), T.ones(1, 3)),
    ),
    "index_add_index_float": lambda T: (
        [a := T.zeros(2, 3)],
        lambda: a.index_add_(0, T.tensor([1.0]), T.ones(1, 3)),
    ),
    "mm_shapes": lambda T: ([a := _leaf(T, 2, 3)], lambda: a @ T.ones(2, 3)),
    # a bool mask is checked against the dims it indexes, of what the key's
    # basic items viewed (``a[0, mask]`` checks a[0]'s shape)
    "mask_shape": lambda T: ([a := T.ones(3)], lambda: a[T.tensor([True, False])]),
    "mask_shape_2d": lambda T: (
        [a := T.ones(2, 3, 4)],
        lambda: a[T.ones(2, 4, dtype=T.bool)],
    ),
    "mask_shape_after_select": lambda T: (
        [a := T.ones(2, 3, 4)],
        lambda: a[0, T.ones(2, dtype=T.bool)],
    ),
    "mask_shape_after_none": lambda T: (
        [a := T.ones(2, 3)],
        lambda: a[None, :, T.ones(2, dtype=T.bool)],
    ),
    "mask_shape_second_mask": lambda T: (
        [a := T.ones(2, 3)],
        lambda: a[T.ones(2, dtype=T.bool), T.ones(2, dtype=T.bool)],
    ),
    "mask_shape_list": lambda T: ([a := T.ones(2, 3)], lambda: a[[True, False, True]]),
    "mask_too_many_dims": lambda T: (
        [a := T.ones(2, 3)],
        lambda: a[T.ones(2, 3, 1, dtype=T.bool)],
    ),
    "mask_shape_setitem": lambda T: (
        [a := T.ones(2, 3)],
        lambda: a.__setitem__((slice(None), T.ones(2, dtype=T.bool)), 0.0),
    ),
    "mask_shape_setitem_list": lambda T: (
        [a := T.ones(2, 3)],
        lambda: a.__setitem__([True, False, True], 0.0),
    ),
    # a uint8 index is a mask (deprecated, with PyTorch's warning)
    "byte_mask_shape": lambda T: (
        [a := T.ones(2, 3)],
        lambda: a[T.tensor([1, 0, 1], dtype=T.uint8)],
    ),
    # a write of one value goes through masked_fill_, which takes bool masks only
    "byte_mask_fill": lambda T: (
        [a := T.ones(2, 3)],
        lambda: a.__setitem__(T.tensor([1, 0], dtype=T.uint8), 5.0),
    ),
    "byte_mask_fill_tuple": lambda T: (
        [a := T.ones(2, 3)],
        lambda: a.__setitem__((T.tensor([1, 0], dtype=T.uint8), 0), T.tensor(7.0)),
    ),
    # no_grad(x) is the bare decorator applied to x: it fails when called
    "no_grad_of_a_number": lambda T: ([T.ones(1)], lambda: T.no_grad(5)()),
}


def _outcome(T: Any, name: str) -> tuple[list[str], list]:
    """The error and the warnings before it, as text, and the touched tensors'
    state after it."""
    touched, action = SCENARIOS[name](T)
    before = [_state(t) for t in touched]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            action()
            message = "no error"
        except Exception as e:  # the scenario's error is what is compared
            message = f"{type(e).__name__}: {e}"
    after = [_state(t) for t in touched]
    assert before == after, f"{name}: the error changed a tensor"
    said = [f"{w.category.__name__}: {w.message}" for w in caught] + [message]
    # PyTorch's C++ warnings name the source line that raised them
    said = [re.sub(r" \(Triggered internally at [^)]*\)", "", m) for m in said]
    return [re.sub(r"\btorch\b", "minigrad", m) for m in said], after


def _state(t: Any) -> tuple:
    grad = None if t.grad is None else t.grad.tolist()
    return t.detach().tolist(), t._version, grad


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_misuse_matches_torch(name: str) -> None:
    expected, state_torch = _outcome(torch, name)
    got, state_minigrad = _outcome(minigrad, name)
    assert expected[-1] != "no error", f"{name} is not a misuse under PyTorch"
    assert got == expected
    assert state_minigrad == state_torch
