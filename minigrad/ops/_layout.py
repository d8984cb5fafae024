"""Where results live in memory: the strides PyTorch gives a new result.

numpy computes every value; these helpers only lay the result out as PyTorch
would, because the strides are visible (``stride()``, ``is_contiguous()``) and
decide what a later ``view`` accepts and in what order the next elementwise op
walks. The rules:

- an elementwise result (TensorIterator): row-major when every input is
  contiguous and of the result's shape; the inputs' own strides when they all
  share them and fill their memory (channels-last ones get channels-last
  strides); else its dims ordered by the inputs' strides (``stride_order``);
- a reduction's result: row-major (``row_major``);
- a copy that preserves the layout (``clone``, ``to``, ``empty_like``): the
  input's strides when it fills its memory, else the order of its strides;
- an advanced index's result: the order of its index kernel (``index_layout``).

numpy calls an array contiguous whatever the strides of its size-1 dims, and
picks its own for them; PyTorch keeps or computes them, so they are compared
too.
"""

from __future__ import annotations

import numpy as np

from .._errors import dense as is_dense

# channels-last orders of PyTorch's 4-d and 5-d tensors, fastest dim first
_CHANNELS_LAST = {4: (1, 3, 2, 0), 5: (1, 4, 3, 2, 0)}
_NUMBER = np.zeros(())  # a Python number as TensorIterator sees it: 0-d


def is_row_major(a: np.ndarray) -> bool:
    """Row-major with PyTorch's strides, size-1 dims included (each stride the
    product of the later sizes, counted as at least 1)."""
    shape = a.shape
    if 1 not in shape or not a.size:
        return a.flags.c_contiguous  # (numpy's flag skips size-1 dims only)
    key = (shape, a.strides, a.itemsize)
    if key in _ROW_MAJOR:  # (layouts repeat: a training loop has a few)
        return True
    want = tuple(st * a.itemsize for st in _row_major_strides(shape))
    if a.strides != want:
        return False
    if len(_ROW_MAJOR) < 4096:
        _ROW_MAJOR.add(key)
    return True


_ROW_MAJOR: set = set()  # (shape, strides, itemsize) found row-major


def row_major(a: np.ndarray) -> np.ndarray:
    """``a`` in row-major memory with PyTorch's strides for it."""
    return a if is_row_major(a) else _restrided(a, _row_major_strides(a.shape))


def _row_major_strides(shape: tuple) -> list:
    step, strides = 1, []
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return strides[::-1]


def _restrided(a: np.ndarray, strides: list) -> np.ndarray:
    """A copy of ``a`` with the given strides (in elements), which must lay its
    elements out densely."""
    buffer = np.empty(max(a.size, 1), a.dtype)
    out = np.lib.stride_tricks.as_strided(
        buffer, a.shape, [st * a.itemsize for st in strides]
    )
    out[...] = a
    return out


def like(out: np.ndarray, x: np.ndarray, scalar: bool = False) -> np.ndarray:
    """The result of an elementwise op of one tensor ``x`` (``exp``, ``relu``;
    with ``scalar``, of ``x`` and a number, ``x * 2``, which PyTorch iterates as
    a 0-d operand) laid out as PyTorch lays it out; the common case costs one
    check."""
    if is_row_major(x):
        return out  # numpy's row-major result is PyTorch's too
    return elementwise_layout(out, (x, _NUMBER) if scalar else (x,))


def plain(x: np.ndarray, y: np.ndarray) -> bool:
    """Two operands row-major with PyTorch's strides, the common case: then
    PyTorch's result is row-major (however they broadcast), as numpy's is."""
    return is_row_major(x) and is_row_major(y)


def binary_layout(out: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The result of an elementwise op of ``x`` and ``y`` laid out as PyTorch's."""
    return out if out.ndim < 2 or plain(x, y) else elementwise_layout(out, (x, y))


def elementwise_layout(out: np.ndarray, inputs: tuple) -> np.ndarray:
    """``out`` with the memory order PyTorch's TensorIterator gives an
    elementwise result of ``inputs`` (the first input deciding ties)."""
    shape, ndim = out.shape, out.ndim
    if ndim == 0:
        return out
    if all(x.shape == shape for x in inputs):  # TensorIterator's fast setups
        if all(x.flags.c_contiguous for x in inputs):
            return row_major(out)
        order = _CHANNELS_LAST.get(ndim)
        if order is not None and all(_contiguous_in(x, order) for x in inputs):
            strides, step = [0] * ndim, 1
            for d in order:
                strides[d] = step
                step *= shape[d]
            return _with(out, strides)
        first = inputs[0]
        if all(x.strides == first.strides for x in inputs) and is_dense(first):
            return _with(out, _elem_strides(first))
    rows = []
    for x in inputs:  # each input's strides against the result (0: broadcast)
        lead = ndim - x.ndim
        row = [0] * ndim
        for i, (n, st) in enumerate(zip(x.shape, x.strides)):
            if n == shape[lead + i]:
                row[lead + i] = st
        rows.append(row)
    return in_stride_order(out, rows)


def _with(out: np.ndarray, strides: list) -> np.ndarray:
    """``out`` itself when it has these strides (in elements), else a copy."""
    want = tuple(st * out.itemsize for st in strides)
    return out if out.strides == want else _restrided(out, strides)


def _contiguous_in(x: np.ndarray, order: tuple) -> bool:
    """Contiguous in the dim order ``order`` (fastest first), size-1 dims aside:
    PyTorch's ``is_contiguous(memory_format=channels_last)``."""
    expected = x.itemsize
    for d in order:
        n = x.shape[d]
        if n != 1:
            if x.strides[d] != expected:
                return False
            expected *= n
    return True


def stride_order(rows: list, shape: tuple) -> list[int]:
    """The dims, fastest first, sorted by their strides in ``rows`` (one row of
    strides per tensor: the first that tells two dims apart decides; a 0 stride
    tells nothing): the stable insertion sort of c10's TensorIterator and
    ``infer_dense_strides``."""

    def should_swap(d0: int, d1: int) -> int:  # 1: d0 goes after d1
        for row in rows:
            s0, s1 = row[d0], row[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))  # fastest dim first
    for i in range(1, ndim):  # insertion sort, stopping at a clear order
        d1 = i
        for d0 in range(i - 1, -1, -1):
            order = should_swap(perm[d0], perm[d1])
            if order > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif order < 0:
                break
    return perm


def in_stride_order(out: np.ndarray, rows: list) -> np.ndarray:
    """``out`` laid out as TensorIterator lays out a result whose operands have
    strides ``rows`` (one row per operand, 0 where it broadcasts): row-major
    when the order is the dims' own, else each dim's stride the product of the
    sizes of the dims faster than it."""
    perm = stride_order(rows, out.shape)
    if perm == list(range(out.ndim - 1, -1, -1)):
        return row_major(out)
    strides, step = [0] * out.ndim, 1
    for d in perm:
        strides[d] = step
        step *= out.shape[d]
    if not out.size:  # (strides past an empty dim are 0: numpy needs them dense)
        return out
    return _with(out, strides)


def reshaped(x: np.ndarray, shape: tuple) -> np.ndarray:
    """``x.reshape(shape)`` as PyTorch's ``view`` strides it: numpy picks its
    own strides for size-1 dims, PyTorch's ``computeStride`` gives each the
    stride of the chunk of old dims it falls in (a copy when no view exists)."""
    out = x.reshape(shape)
    if 1 not in out.shape or not out.size or out.base is None:
        return out  # (the other strides are the only ones possible)
    old, olds = x.shape, [st // x.itemsize for st in x.strides]
    if not old:
        return _as_view(x, out, [1] * out.ndim)
    strides = [0] * out.ndim
    view_d, base = out.ndim - 1, olds[-1]
    numel = view_numel = 1
    for d in range(len(old) - 1, -1, -1):  # each chunk of old dims, last first
        numel *= old[d]
        if d == 0 or (old[d - 1] != 1 and olds[d - 1] != numel * base):
            while view_d >= 0 and (view_numel < numel or out.shape[view_d] == 1):
                strides[view_d] = view_numel * base
                view_numel *= out.shape[view_d]
                view_d -= 1
            if view_numel != numel:
                return out  # no view: numpy's reshape copied
            if d > 0:
                base, numel, view_numel = olds[d - 1], 1, 1
    return _as_view(x, out, strides)


def _as_view(x: np.ndarray, out: np.ndarray, strides: list) -> np.ndarray:
    want = tuple(st * x.itemsize for st in strides)
    if out.strides == want:
        return out
    view = np.lib.stride_tricks.as_strided
    return view(out, out.shape, want, writeable=x.flags.writeable)


def preserve_layout(out: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``out`` (shaped like ``x``) with ``x``'s strides when ``x`` fills its
    memory without gaps or overlaps, else in the order of ``x``'s strides:
    PyTorch's ``preserve_format`` (``clone``, ``to``, ``empty_like``, ``sort``)."""
    if x.flags.c_contiguous and 1 not in x.shape:
        return row_major(out)
    if is_dense(x):
        return _with(out, _elem_strides(x))
    return in_stride_order(out, [list(x.strides)])


def index_layout(out: np.ndarray, x: np.ndarray, indices: tuple) -> np.ndarray:
    """``x[indices]`` (computed by numpy as ``out``) in the memory order PyTorch's
    index kernel gives it: a TensorIterator over ``x`` restrided (the indexed
    dims replaced by the indices' broadcast shape, with stride 0; moved to the
    front when they are not adjacent) and each index viewed to the result's
    rank (a mask as the columns of its ``nonzero()``)."""
    if out.ndim < 2:
        return np.ascontiguousarray(out)
    per_dim: list = []  # (shape, strides) of each dim's index, or None
    for t in indices:
        if t is None:
            per_dim.append(None)
        elif t._data.dtype == np.bool_:  # k columns of a (nnz, k) nonzero()
            k = t._data.ndim
            per_dim += [((int(t._data.sum()),), (k,))] * k
        else:
            per_dim.append((t._data.shape, _elem_strides(t._data)))
    per_dim += [None] * (x.ndim - len(per_dim))
    used = [d for d, i in enumerate(per_dim) if i is not None]
    if not used:  # (a 0-d mask)
        return row_major(out)
    shape = np.broadcast_shapes(*(per_dim[d][0] for d in used))
    strides = _elem_strides(x)
    if used != list(range(used[0], used[-1] + 1)):  # not adjacent: to the front
        order = used + [d for d in range(x.ndim) if d not in used]
        strides = [strides[d] for d in order]
        per_dim = [per_dim[d] for d in order]
        used = list(range(len(used)))
    before, after = used[0], x.ndim - used[-1] - 1
    rows = [strides[:before] + [0] * len(shape) + strides[x.ndim - after :]]
    idx_dims = range(before, before + len(shape))
    for d in used:  # each index expanded to the common shape, then reshaped
        ishape, istrides = per_dim[d]
        lead = len(shape) - len(ishape)
        row = [0] * lead + [
            st if n == m else 0 for n, m, st in zip(ishape, shape[lead:], istrides)
        ]
        # the reshape's size-1 dims (their strides count where the result's
        # dim is 1 too): the index's extent before it, its last stride after
        first, last = (shape[0] * row[0], row[-1]) if shape else (1, 1)
        row = [first] * before + row + [last] * after
        rows.append(
            [
                st if m == 1 or i in idx_dims else 0
                for i, (st, m) in enumerate(zip(row, out.shape))
            ]
        )
    return in_stride_order(out, rows)


def _elem_strides(a: np.ndarray) -> list:
    return [st // a.itemsize for st in a.strides]


def of(out: np.ndarray, *inputs: np.ndarray) -> np.ndarray:
    """The result of an elementwise op of several tensors (``addcmul``,
    ``lerp``, a backward kernel of the gradient and a saved input) laid out as
    PyTorch's TensorIterator lays it out, the first input deciding ties; the
    common case, all row-major (or broadcast numbers), costs one check each."""
    if out.ndim < 2 or all(is_row_major(x) or not any(x.strides) for x in inputs):
        return out
    return elementwise_layout(out, inputs)
