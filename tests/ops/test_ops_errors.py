"""Shape errors carry PyTorch's text (``torch`` replaced by ``minigrad``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from op_harness import same_error, torch

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
