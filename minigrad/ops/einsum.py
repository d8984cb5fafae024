"""``einsum``, built from other ops the way PyTorch's CPU code builds it, so its
graph shows PyTorch's nodes.

Three steps (as in ``aten/src/ATen/native/Linear.cpp``):

1. parse the equation into labels per operand and for the output;
2. line every operand up on one common order of labels (output labels first,
   then the summed ones): a repeated label takes a ``diagonal``, a missing one an
   ``unsqueeze``, then one ``permute``;
3. multiply the operands left to right, two at a time, each pair as a ``bmm`` of
   permuted and reshaped operands (``sumproduct_pair``), summing a label as soon
   as no operand still to come has it.

Not supported: opt_einsum's contraction paths (PyTorch uses them for three or
more operands when the ``opt_einsum`` package is installed).
"""

from __future__ import annotations

from typing import Any

from ._common import is_tensor

ELLIPSIS = "..."


def _order(label: str) -> int:
    """PyTorch's label order: A-Z before a-z."""
    return ord(label) - ord("A") if label.isupper() else ord(label) - ord("a") + 26


def _is_label(ch: str) -> bool:
    return ch.isascii() and ch.isalpha()


def _parse_inputs(lhs: str, num_ops: int) -> list[list[str]]:
    labels: list[list[str]] = [[]]
    ellipsis_seen, i = False, 0
    while i < len(lhs):
        ch = lhs[i]
        op = len(labels) - 1
        if ch == ".":
            if ellipsis_seen:
                raise RuntimeError(
                    f"einsum(): found '.' for operand {op} for which an ellipsis was "
                    "already found"
                )
            if lhs[i : i + 3] != ELLIPSIS:
                raise RuntimeError(
                    f"einsum(): found '.' for operand {op} that is not part of any "
                    "ellipsis"
                )
            labels[-1].append(ELLIPSIS)
            ellipsis_seen, i = True, i + 2
        elif ch == ",":
            if len(labels) == num_ops:
                raise RuntimeError(
                    "einsum(): fewer operands were provided than specified in the "
                    "equation"
                )
            labels.append([])
            ellipsis_seen = False
        elif ch != " ":
            if not _is_label(ch):
                raise RuntimeError(
                    f"einsum(): invalid subscript given at index {i} in the equation "
                    "string, subscripts must be in [a-zA-Z]"
                )
            labels[-1].append(ch)
        i += 1
    if len(labels) != num_ops:
        raise RuntimeError(
            "einsum(): more operands were provided than specified in the equation"
        )
    return labels


def einsum_op(equation: str, operands: list) -> Any:
    """``einsum`` of Tensors (the equation string form)."""
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    lhs, arrow, rhs = equation.partition("->")
    op_labels = _parse_inputs(lhs, len(operands))

    # How often each label appears, and how many dims the ellipsis covers.
    count: dict[str, int] = {}
    ell_num_dim = 0
    for i, (op, labels) in enumerate(zip(operands, op_labels)):
        n = len([s for s in labels if s != ELLIPSIS])
        has_ellipsis = ELLIPSIS in labels
        for s in labels:
            if s != ELLIPSIS:
                count[s] = count.get(s, 0) + 1
        if has_ellipsis:
            ell_num_dim = max(ell_num_dim, op.dim() - n)
        if (n > op.dim()) if has_ellipsis else (n != op.dim()):
            relation = "is more than" if has_ellipsis else "does not match"
            tail = "" if has_ellipsis else " and no ellipsis was given"
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({n}) {relation} "
                f"the number of dimensions ({op.dim()}) for operand {i}{tail}"
            )

    # Where each label goes in the common order: output labels, then summed ones.
    index: dict[str, int] = {}
    position, ell_index, ell_in_output = 0, 0, False
    if not arrow:  # implicit output: the ellipsis, then labels seen once
        position, ell_in_output = ell_num_dim, True
        for s in sorted(count, key=_order):
            if count[s] == 1:
                index[s], position = position, position + 1
    else:
        i = 0
        while i < len(rhs):
            ch = rhs[i]
            if ch == ".":
                if ell_in_output:
                    raise RuntimeError(
                        "einsum(): found '.' for output but an ellipsis (...) was "
                        "already found"
                    )
                if rhs[i : i + 3] != ELLIPSIS:
                    raise RuntimeError(
                        "einsum(): found '.' for output that is not part of any "
                        "ellipsis (...)"
                    )
                ell_index, position, ell_in_output = (
                    position,
                    position + ell_num_dim,
                    True,
                )
                i += 2
            elif ch != " ":
                if not _is_label(ch):
                    at = len(lhs) + 2 + i  # counted in the whole equation
                    raise RuntimeError(
                        f"einsum(): invalid subscript given at index {at} in the "
                        "equation string, subscripts must be in [a-zA-Z]"
                    )
                if count.get(ch, 0) == 0 or ch in index:
                    why = (
                        "appears more than once in the output"
                        if ch in index
                        else "does not appear in the equation for any input operand"
                    )
                    raise RuntimeError(f"einsum(): output subscript {ch} {why}")
                index[ch], position = position, position + 1
            i += 1
    out_num_dim = position
    if not ell_in_output:  # a summed-over ellipsis
        ell_index, position = position, position + ell_num_dim
    for s in sorted(count, key=_order):
        if s not in index:
            index[s], position = position, position + 1
    total = position

    # Line each operand up on the common order.
    label_size: dict[str, int] = {}
    ell_sizes = [1] * ell_num_dim
    dim_counts = [0] * total  # operands with a size other than 1 there
    ops = []
    for i, (op, labels) in enumerate(zip(operands, op_labels)):
        permutation = [-1] * total
        dim = 0
        for s in labels:
            if s == ELLIPSIS:
                covered = operands[i].dim() - (len(labels) - 1)
                for j in range(ell_num_dim - covered, ell_num_dim):
                    size = op.shape[dim]
                    if size != 1:
                        if ell_sizes[j] not in (1, size):
                            raise RuntimeError(
                                f"einsum(): dimension {dim} covered by ellipsis in "
                                f"operand {i}has size {size} which does not "
                                "broadcast with previously seen ellipsis with size "
                                f"{ell_sizes[j]} for the respective dimension"
                            )
                        ell_sizes[j] = size
                        dim_counts[ell_index + j] += 1
                    permutation[ell_index + j] = dim
                    dim += 1
            elif permutation[index[s]] == -1:
                size = op.shape[dim]
                if size != 1:
                    seen = label_size.get(s, 1)
                    if seen not in (1, size):
                        raise RuntimeError(
                            f"einsum(): subscript {s} has size {size} for operand {i} "
                            f"which does not broadcast with previously seen size {seen}"
                        )
                    label_size[s] = size
                    dim_counts[index[s]] += 1
                permutation[index[s]] = dim
                dim += 1
            else:  # a repeated label: its diagonal, in the first one's place
                prev = permutation[index[s]]
                if op.shape[dim] != op.shape[prev]:
                    raise RuntimeError(
                        f"einsum(): subscript {s} is repeated for operand {i} but the "
                        f"sizes don't match, {op.shape[dim]} != {op.shape[prev]}"
                    )
                op = op.diagonal(0, prev, dim).movedim(-1, prev)
        for k in range(total):
            if permutation[k] == -1:
                op = op.unsqueeze(dim)
                permutation[k], dim = dim, dim + 1
        ops.append(op.permute(permutation))

    # Multiply left to right; sum a label once no later operand has it.
    while len(ops) > 1:
        a, b = ops[0], ops[1]
        del ops[:2]
        sum_dims, a_sums, b_sums = [], [], []
        for d in range(out_num_dim, total):
            if a.shape[d] != 1 and b.shape[d] != 1:
                dim_counts[d] -= 1
                if dim_counts[d] == 1:
                    sum_dims.append(d)
                    dim_counts[d] = 0
            elif dim_counts[d] == 1:
                if a.shape[d] != 1:
                    a_sums.append(d)
                    dim_counts[d] = 0
                elif b.shape[d] != 1:
                    b_sums.append(d)
                    dim_counts[d] = 0
        if a_sums:
            a = a.sum(a_sums, keepdim=True)
        if b_sums:
            b = b.sum(b_sums, keepdim=True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))

    result = ops[0]
    if total > out_num_dim:  # drop the summed labels' dims
        if len(operands) > 1:  # already summed to size 1
            return result.view(list(result.shape[:out_num_dim]))
        return result.sum(list(range(out_num_dim, total)))
    return result


def _sumproduct_pair(left: Any, right: Any, sum_dims: list[int]) -> Any:
    """``(left * right).sum(sum_dims, keepdim=True)`` as one ``bmm``: the dims
    both keep (batch), the dims only one keeps, and the summed dims, each
    group flattened into one."""
    if not sum_dims:
        return left * right
    both, only_left, only_right = [], [], []
    both_size = left_size = right_size = sum_size = 1
    for i in range(left.dim()):
        in_left, in_right = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if in_left and in_right:
                if left.shape[i] != right.shape[i]:
                    raise RuntimeError("non-broadcast dimensions must match")
                sum_size *= left.shape[i]
            elif in_left:  # only one side has it: sum it there first
                left = left.sum(i, keepdim=True)
            elif in_right:
                right = right.sum(i, keepdim=True)
        elif in_left and in_right:
            if left.shape[i] != right.shape[i]:
                raise RuntimeError("non-broadcast dimensions must match")
            both.append(i)
            both_size *= left.shape[i]
        elif in_left:
            only_left.append(i)
            left_size *= left.shape[i]
        else:
            only_right.append(i)
            right_size *= right.shape[i]
    if only_left and only_right and only_right[-1] < only_left[0]:
        # PyTorch swaps the operands when every right-only dim comes first: the
        # product is then laid out in the output's order
        left, right = right, left
        only_left, only_right = only_right, only_left
        left_size, right_size = right_size, left_size
    out_size = (
        [left.shape[d] for d in both + only_left]
        + [1] * len(sum_dims)
        + [right.shape[d] for d in only_right]
    )
    back = [0] * len(out_size)  # where each dim of the product ends up
    for position, d in enumerate(both + only_left + sum_dims + only_right):
        back[d] = position
    left = left.permute(both + only_left + sum_dims + only_right).reshape(
        both_size, left_size, sum_size
    )
    right = right.permute(both + sum_dims + only_right + only_left).reshape(
        both_size, sum_size, right_size
    )
    return left.bmm(right).view(out_size).permute(back)


def einsum(*args: Any) -> Any:
    """``einsum(equation, *operands)``, ``einsum(equation, [operands])`` or the
    sublist form ``einsum(op1, [0, 1], op2, [1, 2], [0, 2])``."""
    if len(args) < 2:
        raise ValueError(
            "einsum(): must specify the equation string and at least one operand, "
            "or at least one operand and its subscripts list"
        )
    if is_tensor(args[0]):  # the sublist form

        def label(n: Any) -> str:
            if n is Ellipsis:
                return ELLIPSIS
            if 0 <= n < 26:
                return chr(ord("A") + n)
            if 26 <= n < 52:
                return chr(ord("a") + n - 26)
            raise ValueError(
                "einsum(): subscript in subscript list is not within the valid range "
                "[0, 52)"
            )

        equation = ",".join("".join(map(label, s)) for s in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + "".join(map(label, args[-1]))
            operands = list(args[:-1:2])
        else:
            operands = list(args[::2])
    else:
        equation, operands = args[0], list(args[1:])
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = list(operands[0])
    return einsum_op(equation, operands)
