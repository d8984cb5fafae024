"""Shape errors carry PyTorch's text (``torch`` replaced by ``minigrad``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from op_harness import act, same_error, torch

import minigrad

O = np.ones

# name -> (expression, input arrays)
ERRORS: dict[str, tuple[Any, tuple]] = {
    "add_broadcast": (lambda T, a, b: a + b, (O((2, 3)), O((2, 4)))),
    "sub_broadcast": (lambda T, a, b: a - b, (O((3,)), O((4,)))),
    "mul_broadcast": (lambda T, a, b: a * b, (O((2, 1, 3)), O((4, 2)))),
    "div_broadcast": (lambda T, a, b: a / b, (O((5, 3)), O((4, 1, 2)))),
    "pow_broadcast": (lambda T, a, b: a**b, (O((2, 3)), O((3, 2)))),
    "add_alpha_broadcast": (lambda T, a, b: a.add(b, alpha=2), (O((2,)), O((3,)))),
    "iadd_broadcast": (lambda T, a, b: a.add_(b), (O((3,)), O((4,)))),
    "inplace_grows": (lambda T, a, b: a.mul_(b), (O((3,)), O((2, 3)))),
    "mm_inner": (lambda T, a, b: a.mm(b), (O((2, 3)), O((4, 5)))),
    "mm_not_matrix": (lambda T, a, b: T.mm(a, b), (O((3,)), O((3, 2)))),
    "mm_mat2_not_matrix": (lambda T, a, b: T.mm(a, b), (O((2, 3)), O((3,)))),
    "mv_size": (lambda T, a, b: a.mv(b), (O((2, 3)), O((4,)))),
    "dot_size": (lambda T, a, b: T.dot(a, b), (O((3,)), O((4,)))),
    "dot_2d": (lambda T, a, b: T.dot(a, b), (O((2, 3)), O((3,)))),
    "bmm_batch": (lambda T, a, b: a.bmm(b), (O((2, 2, 3)), O((3, 3, 4)))),
    "bmm_inner": (lambda T, a, b: a.bmm(b), (O((2, 2, 3)), O((2, 4, 4)))),
    "bmm_2d": (lambda T, a, b: a.bmm(b), (O((2, 3)), O((2, 3, 4)))),
    "matmul_1d_1d": (lambda T, a, b: a @ b, (O((3,)), O((4,)))),
    "matmul_2d_1d": (lambda T, a, b: a @ b, (O((2, 3)), O((4,)))),
    "matmul_1d_2d": (lambda T, a, b: a @ b, (O((3,)), O((4, 5)))),
    "matmul_2d_2d": (lambda T, a, b: a @ b, (O((2, 3)), O((4, 5)))),
    "matmul_3d_2d": (lambda T, a, b: a @ b, (O((2, 2, 3)), O((4, 5)))),
    "matmul_3d_3d": (lambda T, a, b: a @ b, (O((2, 2, 3)), O((2, 4, 5)))),
    "matmul_batch": (lambda T, a, b: a @ b, (O((2, 2, 3)), O((3, 3, 5)))),
    "matmul_0d": (lambda T, a, b: T.matmul(a, b), (O(()), O((3,)))),
    "view_noncontig": (lambda T, a: a.t().view(-1), (O((2, 3)),)),
    "view_bad_size": (lambda T, a: a.view(4, 2), (O((2, 3)),)),
    "view_two_infer": (lambda T, a: a.view(-1, -1), (O((2, 3)),)),
    "reshape_bad": (lambda T, a: a.reshape(4, -1), (O((2, 3)),)),
    "reshape_bad_size": (lambda T, a: a.reshape(7), (O((2, 3)),)),
    "expand_mismatch": (lambda T, a: a.expand(2, 4), (O((3,)),)),
    "expand_fewer": (lambda T, a: a.expand(3), (O((2, 3)),)),
    "index_out": (lambda T, a: a[5], (O((3,)),)),
    "index_neg_out": (lambda T, a: a[-4], (O((3,)),)),
    "index_dim1_out": (lambda T, a: a[:, 3], (O((2, 3)),)),
    "index_list_out": (lambda T, a: a[[0, 5]], (O((3,)),)),
    "index_tensor_out": (lambda T, a: a[T.tensor([0, -4])], (O((3,)),)),
    "too_many_indices": (lambda T, a: a[0, 0, 0], (O((2, 3)),)),
    "index_0d": (lambda T, a: a[0], (O(()),)),
    "select_out": (lambda T, a: a.select(0, 5), (O((3,)),)),
    "sum_dim_out": (lambda T, a: a.sum(2), (O((2, 3)),)),
    "mean_dim_out": (lambda T, a: a.mean(-3), (O((2, 3)),)),
    "transpose_dim_out": (lambda T, a: a.transpose(0, 2), (O((2, 3)),)),
    "unsqueeze_dim_out": (lambda T, a: a.unsqueeze(3), (O((2, 3)),)),
    "squeeze_dim_out": (lambda T, a: a.squeeze(2), (O((2, 3)),)),
    "t_3d": (lambda T, a: a.t(), (O((2, 3, 4)),)),
    "setitem_shape": (lambda T, a, b: a.__setitem__(0, b), (O((2, 3)), O((4,)))),
    "cat_sizes": (lambda T, a, b: T.cat([a, b]), (O((2, 3)), O((2, 4)))),
    "cat_sizes_dim1": (lambda T, a, b: T.cat([a, b], 1), (O((2, 3)), O((3, 3)))),
    "cat_ranks": (lambda T, a, b: T.cat([a, b]), (O((2, 3)), O((3,)))),
    "cat_dim": (lambda T, a, b: T.cat([a, b], 2), (O((2, 3)), O((2, 3)))),
    "cat_0d": (lambda T, a, b: T.cat([a, b]), (O(()), O(()))),
    "cat_empty": (lambda T: T.cat([]), ()),
    "stack_sizes": (lambda T, a, b: T.stack([a, b]), (O((2, 3)), O((2, 4)))),
    "stack_dim": (lambda T, a, b: T.stack([a, b], 3), (O((2, 3)), O((2, 3)))),
    "stack_empty": (lambda T: T.stack([]), ()),
    "gather_out_of_range": (
        lambda T, a: a.gather(1, T.tensor([[0], [3]])),
        (O((2, 3)),),
    ),
    "gather_negative": (lambda T, a: a.gather(1, T.tensor([[0], [-1]])), (O((2, 3)),)),
    "gather_rank": (lambda T, a: a.gather(1, T.tensor([0, 1])), (O((2, 3)),)),
    "gather_float_index": (
        lambda T, a: a.gather(1, T.tensor([[0.0], [1.0]])),
        (O((2, 3)),),
    ),
    "gather_too_big": (
        lambda T, a: a.gather(0, T.tensor([[0, 0, 0, 0]])),
        (O((2, 3)),),
    ),
    "gather_dim": (lambda T, a: a.gather(2, T.tensor([[0]])), (O((2, 3)),)),
    "scatter_out_of_range": (
        lambda T, a: a.scatter(1, T.tensor([[0], [3]]), 1.0),
        (O((2, 3)),),
    ),
    "scatter_negative": (
        lambda T, a: a.scatter(1, T.tensor([[-1], [0]]), 1.0),
        (O((2, 3)),),
    ),
    "scatter_rank": (
        lambda T, a, b: a.scatter(1, T.tensor([0, 1]), b),
        (O((2, 3)), O((2, 3))),
    ),
    "scatter_float_index": (
        lambda T, a, b: a.scatter(1, T.tensor([[0.0], [1.0]]), b),
        (O((2, 3)), O((2, 1))),
    ),
    "scatter_index_bigger_than_src": (
        lambda T, a, b: a.scatter(1, T.tensor([[0, 1], [2, 0]]), b),
        (O((2, 3)), O((2, 1))),
    ),
    "scatter_index_bigger_than_self": (
        lambda T, a, b: a.scatter(1, T.tensor([[0], [1], [2]]), b),
        (O((2, 3)), O((3, 3))),
    ),
    "scatter_value_index_too_big": (
        lambda T, a: a.scatter(0, T.tensor([[0, 0, 0, 0]]), 2.0),
        (O((2, 3)),),
    ),
    "scatter_dtypes": (
        lambda T, a, b: a.scatter(1, T.tensor([[0], [1]]), b.double()),
        (O((2, 3)), O((2, 1))),
    ),
    "scatter_add_dtypes": (
        lambda T, a, b: a.scatter_add(1, T.tensor([[0], [1]]), b.double()),
        (O((2, 3)), O((2, 1))),
    ),
    "scatter_dim": (lambda T, a: a.scatter(2, T.tensor([[0]]), 1.0), (O((2, 3)),)),
    "scatter__leaf": (
        lambda T, a, b: a.requires_grad_().scatter_(1, T.tensor([[0], [1]]), b),
        (O((2, 3)), O((2, 1))),
    ),
    "flip_repeated": (lambda T, a: a.flip(1, 1), (O((2, 3)),)),
    "layer_norm_weight_shape": (
        lambda T, a, b: T.nn.functional.layer_norm(a, (3,), b),
        (O((2, 3)), O((2,))),
    ),
    "layer_norm_bias_shape": (
        lambda T, a, b: T.nn.functional.layer_norm(a, (3,), None, b),
        (O((2, 3)), O((3, 1))),
    ),
    "layer_norm_shape": (
        lambda T, a: T.nn.functional.layer_norm(a, (2,)),
        (O((2, 3)),),
    ),
    "index_select_matrix_index": (
        lambda T, a: a.index_select(1, T.tensor([[0]])),
        (O((2, 3)),),
    ),
    "index_select_float_index": (
        lambda T, a: a.index_select(1, T.tensor([0.0])),
        (O((2, 3)),),
    ),
    "index_select_out_of_range": (
        lambda T, a: a.index_select(1, T.tensor([3])),
        (O((2, 3)),),
    ),
    "index_add_out_of_range": (
        lambda T, a, b: a.index_add(0, T.tensor([5]), b),
        (O((2, 3)), O((1, 3))),
    ),
    "index_add_count": (
        lambda T, a, b: a.index_add(0, T.tensor([0, 1]), b),
        (O((2, 3)), O((1, 3))),
    ),
    "index_add_dtype": (
        lambda T, a, b: a.index_add(0, T.tensor([0]), b.double()),
        (O((2, 3)), O((1, 3))),
    ),
    "tril_1d": (lambda T, a: a.tril(), (O((3,)),)),
    "triu_0d": (lambda T, a: a.triu(), (O(()),)),
    "roll_misaligned": (lambda T, a: a.roll(1, (0, 1)), (O((2, 3)),)),
    "roll_no_dims": (lambda T, a: a.roll((1, 2)), (O((2, 3)),)),
    "flip_dim_out": (lambda T, a: a.flip(2), (O((2, 3)),)),
    "masked_fill_long_mask": (
        lambda T, a: a.masked_fill(T.tensor([1, 0, 1]), 0.0),
        (O((2, 3)),),
    ),
    "masked_fill_float_mask": (lambda T, a: a.masked_fill(a, 0.0), (O((2, 3)),)),
    "masked_fill_shape": (
        lambda T, a, b: a.masked_fill(b > 0, 0.0),
        (O((2, 3)), O((2, 4))),
    ),
    "masked_fill_value_1d": (
        lambda T, a, b: a.masked_fill(a > 0, b),
        (O((2, 3)), O((3,))),
    ),
    "masked_fill__grows": (
        lambda T, a, b: a.masked_fill_(b > 0, 0.0),
        (O((3,)), O((2, 3))),
    ),
    "where_broadcast": (
        lambda T, a, b: T.where(a > 0, b, a),
        (O((3,)), O((2,))),
    ),
    "where_broadcast_other": (
        lambda T, a, b: T.where(a > 0, a, b),
        (O((3,)), O((2,))),
    ),
    "where_float_condition": (lambda T, a: T.where(a, a, a), (O((3,)),)),
    "maximum_shapes": (lambda T, a, b: T.maximum(a, b), (O((2, 3)), O((4,)))),
    "maximum_scalar": (lambda T, a: T.maximum(a, 2.0), (O((3,)),)),
    "clamp_none": (lambda T, a: a.clamp(), (O((2, 3)),)),
    "max_dim_out": (lambda T, a: a.max(2), (O((2, 3)),)),
    "max_empty": (lambda T, a: a.max(), (O((0,)),)),
    "max_empty_dim": (lambda T, a: a.max(1), (O((2, 0)),)),
    "min_empty": (lambda T, a: a.min(), (O((0,)),)),
    "amax_repeated": (lambda T, a: a.amax((0, 0)), (O((2, 3)),)),
    "amax_dim_out": (lambda T, a: a.amax(2), (O((2, 3)),)),
    "var_dim_out": (lambda T, a: a.var(2), (O((2, 3)),)),
    "var_int": (lambda T, a: a.long().var(), (O((2, 3)),)),
    "std_int": (lambda T, a: a.long().std(0), (O((2, 3)),)),
    "norm_int": (lambda T, a: a.long().norm(), (O((2, 3)),)),
    "norm_dim_out": (lambda T, a: a.norm(dim=3), (O((2, 3)),)),
    "prod_dim_out": (lambda T, a: a.prod(2), (O((2, 3)),)),
    "logsumexp_dim_out": (lambda T, a: a.logsumexp(-3), (O((2, 3)),)),
    "cumsum_dim_out": (lambda T, a: a.cumsum(2), (O((2, 3)),)),
    "argmax_dim_out": (lambda T, a: a.argmax(2), (O((2, 3)),)),
    "outer_2d": (lambda T, a, b: T.outer(a, b), (O((2, 3)), O((2,)))),
    "outer_2d_vec2": (lambda T, a, b: T.outer(a, b), (O((2,)), O((2, 3)))),
    "repeat_too_few": (lambda T, a: a.repeat(2), (O((2, 3)),)),
    "narrow_too_long": (lambda T, a: a.narrow(1, 2, 2), (O((2, 3)),)),
    "narrow_0d": (lambda T, a: a.narrow(0, 0, 1), (O(()),)),
    "view_as_size": (lambda T, a, b: a.view_as(b), (O((2, 3)), O((4,)))),
    "split_zero": (lambda T, a: a.split(0), (O((2, 3)),)),
    "split_sizes_sum": (lambda T, a: a.split([1, 1], 1), (O((2, 3)),)),
    "split_0d": (lambda T, a: a.split(1), (O(()),)),
    "chunk_zero": (lambda T, a: a.chunk(0), (O((2, 3)),)),
    "unbind_dim_out": (lambda T, a: a.unbind(2), (O((2, 3)),)),
    "unbind_0d": (lambda T, a: a.unbind(), (O(()),)),
    "iter_0d": (lambda T, a: list(a), (O(()),)),
    "flatten_dim_out": (lambda T, a: a.flatten(2), (O((2, 3)),)),
    "flatten_order": (lambda T, a: a.flatten(1, 0), (O((2, 3)),)),
    "movedim_counts": (lambda T, a: a.movedim((0, 1), (1,)), (O((2, 3)),)),
    "movedim_repeated": (lambda T, a: a.movedim((0, 0), (1, 0)), (O((2, 3)),)),
    "movedim_out": (lambda T, a: a.movedim(0, 2), (O((2, 3)),)),
    "gelu_approximate": (lambda T, a: act(T, "gelu", a, approximate="exact"), (O(3),)),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_text_matches_torch(name: str) -> None:
    fn, arrs = ERRORS[name]
    same_error(fn, *arrs)


def test_broadcast_error_with_grad() -> None:
    """The check happens the same way when a graph is being recorded."""
    msgs = []
    for lib in (minigrad, torch):
        a = lib.ones(2, 3, requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            a * lib.ones(4)
        msgs.append(str(info.value))
    assert msgs[0] == msgs[1].replace("torch", "minigrad")


WARNS = {
    "var_dof": lambda T: T.tensor([1.0]).var(),
    "std_dim_dof": lambda T: T.ones(1, 2).std(0),
    "non_leaf_grad": lambda T: (T.ones(1, requires_grad=True) * 2).grad,
    "softmax_implicit_dim": lambda T: T.nn.functional.softmax(T.ones(2, 2)),
    "tensor_of_tensor": lambda T: T.tensor(T.ones(2)),
    "variable_volatile": lambda T: T.autograd.Variable(T.ones(1), volatile=True),
}


@pytest.mark.parametrize("name", sorted(WARNS))
def test_warnings_point_at_the_callers_line(name: str) -> None:
    """A warning names the line that called the op, like PyTorch's (not a line
    inside minigrad, however deep the call went)."""
    for lib in (minigrad, torch):
        with pytest.warns(UserWarning) as record:
            WARNS[name](lib)
        assert [w.filename for w in record] == [__file__], (lib.__name__, name)
