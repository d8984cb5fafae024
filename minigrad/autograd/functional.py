"""``minigrad.autograd.functional``: Jacobians, Hessians and vector products of a
function, all built on ``autograd.grad`` (reverse mode), as in PyTorch.

Each function runs ``func`` on fresh leaf copies of the inputs, so the caller's
tensors are never part of the graph; results are detached unless
``create_graph=True``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import _backward_io, engine
from .._tensor import Tensor
from ..creation import ones_like, zeros_like
from ..grad_mode import enable_grad
from ..ops.join import stack
from . import forward_ad


def _as_tuple(x: Any) -> tuple[tuple, bool]:
    """``(x,)`` for one tensor (and remember that it was one)."""
    if isinstance(x, tuple):
        return x, True
    if isinstance(x, list):
        return tuple(x), True
    return (x,), False


def _leaves(inputs: tuple, create_graph: bool) -> tuple:
    """Fresh leaves that require grad: the function's graph starts here."""
    out = []
    for i, t in enumerate(inputs):
        if not isinstance(t, Tensor):
            raise TypeError(
                f"The inputs given to jacobian must be either a Tensor or a tuple of "
                f"Tensors but the value at index {i} has type {type(t)}."
            )
        leaf = t if create_graph and t.requires_grad else t.detach()
        out.append(leaf.requires_grad_(True) if not leaf.requires_grad else leaf)
    return tuple(out)


def _grads(output: Tensor, inputs: tuple, seed: Any, create_graph: bool) -> tuple:
    """d(output · seed)/d(inputs), zeros where an input was not used."""
    if not output.requires_grad:
        return tuple(Tensor._make(np.zeros_like(t._data), False) for t in inputs)
    grads = engine.grad(
        output,
        inputs,
        seed,
        retain_graph=True,
        create_graph=create_graph,
        allow_unused=True,
    )
    return tuple(
        Tensor._make(np.zeros_like(t._data), False) if g is None else g
        for g, t in zip(grads, inputs)
    )


def _done(t: Tensor, create_graph: bool) -> Tensor:
    return t if create_graph else t.detach()


def _output_and(
    out: Tensor, grads: tuple, ins_tuple: bool, create_graph: bool
) -> tuple:
    """``(func's output, the gradients)`` shaped like the inputs were given."""
    result = tuple(_done(t, create_graph) for t in grads)
    return _done(out, create_graph), result if ins_tuple else result[0]


def batch_size(sizes: list[int]) -> int:
    """The one size of the mapped dims (``vmap``'s, or a batched grad_output's),
    with vmap's errors when no tensor is mapped or the sizes differ."""
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(n != sizes[0] for n in sizes):
        raise ValueError(
            "vmap: Expected all tensors to have the same size in the mapped "
            f"dimension, got sizes {sizes} for the mapped dimension"
        )
    return sizes[0]


def batched_grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any,
    retain_graph: bool | None,
    create_graph: bool,
    allow_unused: bool | None,
    materialize_grads: bool,
) -> tuple:
    """``autograd.grad(..., is_grads_batched=True)``: the first dim of each
    grad_output is a batch; one gradient per element, stacked (PyTorch vmaps
    its one backward pass; here the engine runs once per element)."""
    outs = _backward_io.tensors(outputs)
    given = grad_outputs if grad_outputs is not None else [None] * len(outs)
    batches = _backward_io.tensors(given)
    for i, (out, g) in enumerate(zip(outs, batches)):
        if g is None and out.requires_grad:  # PyTorch's seed: ones, then batched
            if out.numel() != 1:
                raise RuntimeError(
                    "grad can be implicitly created only for scalar outputs"
                )
            if out.dim() == 0:
                raise ValueError(
                    "vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, "
                    "but that input is a Tensor of dimensionality 0 so expected in_dim "
                    "to satisfy 0 <= in_dim < 0."
                )
            batches[i] = g = ones_like(out)
        if isinstance(g, Tensor) and g[0].shape != out.shape:  # (g[0]: as PyTorch)
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of "
                "each grad_output as the batch dimension. The sizes of the remaining "
                "dimensions are expected to match the shape of corresponding output, "
                f"but a mismatch was detected: grad_output[{i}] has a shape of "
                f"{g[0].shape[1:]} and output[{i}] has a shape of {out.shape}. If you "
                "only want some tensors in `grad_output` to be considered batched, "
                "consider using vmap."
            )
    size = batch_size([g.shape[0] for g in batches if isinstance(g, Tensor)])
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    rows = [
        engine.grad(
            outputs,
            inputs,
            [g if g is None else g[b] for g in batches],
            retain_graph or b < size - 1,  # (the graph serves every element)
            create_graph,
            allow_unused=allow_unused,
        )
        for b in range(size)
    ]
    ins = _backward_io.tensors(inputs)
    columns = [[row[j] for row in rows] for j in range(len(ins))]
    result = tuple(None if col[0] is None else stack(col) for col in columns)
    if materialize_grads:  # (PyTorch's zeros have no batch dim)
        result = tuple(
            zeros_like(t, requires_grad=create_graph) if r is None else r
            for r, t in zip(result, ins)
        )
    return result


def jacobian(
    func: Callable,
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """d func(inputs) / d inputs: for output i and input j, a tensor of shape
    ``outputs[i].shape + inputs[j].shape``: one backward pass per output element
    (``vectorize=True``: one batched ``autograd.grad`` over all of them, as
    PyTorch's; ``strategy="forward-mode"``: one forward-mode pass per input
    element)."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: '
            'If your function has more outputs than inputs, "forward-mode" tends to '
            'be more performant. Otherwise, prefer to use "reverse-mode".'
        )
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                "minigrad.autograd.functional.jacobian: `create_graph=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please '
                'either set `create_graph=False` or `strategy="reverse-mode"`.'
            )
        return _jacfwd(func, inputs, strict, vectorize)
    ins, ins_tuple = _as_tuple(inputs)
    with enable_grad():
        ins = _leaves(ins, create_graph)
        outs, outs_tuple = _as_tuple(func(*ins))
        if vectorize:
            if strict:
                raise RuntimeError(
                    "minigrad.autograd.functional.jacobian: `strict=True` and "
                    "`vectorized=True` are not supported together. Please either set "
                    "`strict=False` or `vectorize=False`."
                )
            blocks = _jacobian_batched(outs, ins, create_graph)
        else:
            blocks = [_jacobian_rows(out, ins, create_graph) for out in outs]
    blocks = [tuple(b) if ins_tuple else b[0] for b in blocks]
    return tuple(blocks) if outs_tuple else blocks[0]


def _jacobian_rows(out: Tensor, ins: tuple, create_graph: bool) -> list:
    """One Jacobian block per input for ``out``, a backward pass per element."""
    rows = []
    flat = out.reshape(-1)
    for k in range(flat.numel()):
        rows.append(_grads(flat[k], ins, None, create_graph))
    per_input = []
    for j, t in enumerate(ins):
        shape = tuple(out.shape) + tuple(t.shape)
        if rows:
            block = stack([r[j] for r in rows]).reshape(shape)
        else:
            block = Tensor._make(np.zeros(shape, t._data.dtype), False)
        per_input.append(_done(block, create_graph))
    return per_input


def _jacobian_batched(outs: tuple, ins: tuple, create_graph: bool) -> list:
    """Every block at once, as PyTorch's ``vectorize=True``: the outputs
    flattened, the rows of the identity split among them as batched
    grad_outputs, one ``is_grads_batched`` gradient per input split back."""
    numels = [o.numel() for o in outs]
    basis = _standard_basis(outs, numels)
    used = [k for k, o in enumerate(outs) if o.requires_grad]
    found = (None,) * len(ins)
    if used:
        found = batched_grad(
            [outs[k].reshape(-1) for k in used], ins, [basis[k] for k in used],
            True, create_graph, True, False,
        )  # fmt: skip
    total = sum(numels)
    per_input = [
        zeros_like(t).expand(total, *t.shape) if g is None else g
        for g, t in zip(found, ins)
    ]
    blocks: list[list] = [[] for _ in outs]
    for g, t in zip(per_input, ins):
        for block, part, o in zip(blocks, g.split(numels, 0), outs):
            block.append(_done(part.view(*o.shape, *t.shape), create_graph))
    return blocks


def _standard_basis(tensors: Sequence[Tensor], numels: list[int]) -> list[Tensor]:
    """The rows of the identity of size ``sum(numels)``, split by columns among
    ``tensors`` (each part in its tensor's dtype)."""
    total = sum(numels)
    eye = np.eye(total)
    parts, start = [], 0
    for t, n in zip(tensors, numels):
        parts.append(
            Tensor._make(eye[:, start : start + n].astype(t._data.dtype), False)
        )
        start += n
    return parts


def _jacfwd(func: Callable, inputs: Any, strict: bool, vectorize: bool) -> Any:
    """The Jacobian by forward mode, as PyTorch's: one dual pass per input
    element (PyTorch vmaps them), each giving a column of every block."""
    if not vectorize:
        raise NotImplementedError(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
            "only implemented for `vectorize=True`."
        )
    if strict:
        raise RuntimeError(
            "minigrad.autograd.functional.jacobian: `strict=True` and "
            '`strategy="forward-mode"` are not supported together (yet). Please '
            'either set `strict=False` or `strategy="reverse-mode"`.'
        )
    ins, ins_tuple = _as_tuple(inputs)
    numels = [t.numel() for t in ins]
    basis = _standard_basis(ins, numels)
    columns, primals, outs_tuple = [], [], False
    for k in range(sum(numels)):
        with forward_ad.dual_level():
            duals = [
                forward_ad.make_dual(t, b[k].view_as(t)) for t, b in zip(ins, basis)
            ]
            outs, outs_tuple = _as_tuple(func(*duals))
            unpacked = [forward_ad.unpack_dual(o) for o in outs]
        primals = [u.primal for u in unpacked]
        columns.append(
            [
                zeros_like(p) if u.tangent is None else u.tangent
                for p, u in zip(primals, unpacked)
            ]
        )
    blocks = []
    for i, p in enumerate(primals):
        stacked = stack([c[i] for c in columns])  # input elements first
        row = []
        for part, t in zip(stacked.split(numels, 0), ins):
            moved = part.permute(*range(1, part.dim()), 0)
            row.append(moved.reshape(*p.shape, *t.shape))
        blocks.append(row)
    # PyTorch returns these lists as they are when both are tuples
    if not ins_tuple:
        blocks = [row[0] for row in blocks]
    return blocks if outs_tuple else blocks[0]


def hessian(
    func: Callable,
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    """Second derivatives of a scalar ``func``: the Jacobian of its gradient
    (``outer_jacobian_strategy="forward-mode"``: forward over reverse)."""
    ins, ins_tuple = _as_tuple(inputs)
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode".'
        )
    forward = outer_jacobian_strategy == "forward-mode"

    def gradient(*xs: Any) -> Any:
        if forward:  # the dual inputs are differentiated too, as in PyTorch
            xs = tuple(t.requires_grad_(True) for t in xs)
        out = func(*xs)
        if out.numel() != 1:
            raise RuntimeError(
                "The function given to hessian should return a single element Tensor"
            )
        g = _grads(out.reshape(()), xs, None, create_graph=True)
        return g if ins_tuple else g[0]

    return jacobian(
        gradient,
        ins if ins_tuple else ins[0],
        create_graph=create_graph,
        vectorize=vectorize,
        strategy=outer_jacobian_strategy,
    )


def vjp(
    func: Callable,
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple:
    """``(func(inputs), vᵀ·J)``: one backward pass with ``v`` as the gradient."""
    ins, ins_tuple = _as_tuple(inputs)
    with enable_grad():
        ins = _leaves(ins, create_graph)
        out = func(*ins)
        if v is None and out.numel() != 1:
            raise RuntimeError(
                "The vector v can only be None if the user-provided function returns "
                "a single Tensor with a single element."
            )
        g = _grads(out, ins, v, create_graph)
    return _output_and(out, g, ins_tuple, create_graph)


def jvp(
    func: Callable,
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple:
    """``(func(inputs), J·v)`` by the double-backward trick: the vjp with a dummy
    vector ``u`` is linear in ``u``, and its own vjp with ``v`` is ``J·v``."""
    ins, _ = _as_tuple(inputs)
    vs, _ = _as_tuple(v) if v is not None else ((None,) * len(ins), False)
    with enable_grad():
        ins = _leaves(ins, create_graph)
        out = func(*ins)
        u = Tensor._make(np.zeros_like(out._data), True)
        g = _grads(out, ins, u, create_graph=True)
        seeds = [
            Tensor._make(np.ones_like(t._data), False) if s is None else s
            for s, t in zip(vs, ins)
        ]
        total = sum((gi * si).sum() for gi, si in zip(g, seeds))
        (jv,) = _grads(total, (u,), None, create_graph)
    return _done(out, create_graph), _done(jv, create_graph)


def hvp(
    func: Callable,
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple:
    """``(func(inputs), H·v)`` for a scalar ``func``."""
    ins, ins_tuple = _as_tuple(inputs)
    vs, _ = _as_tuple(v)
    with enable_grad():
        ins = _leaves(ins, create_graph)
        out = func(*ins)
        g = _grads(out, ins, None, create_graph=True)
        total = sum((gi * vi).sum() for gi, vi in zip(g, vs))
        hv = _grads(total, ins, None, create_graph)
    return _output_and(out, hv, ins_tuple, create_graph)


def vhp(
    func: Callable,
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple:
    """``(func(inputs), vᵀ·H)``; equal to ``hvp`` since a Hessian is symmetric."""
    return hvp(func, inputs, v, create_graph, strict)


__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]
