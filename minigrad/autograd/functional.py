"""``minigrad.autograd.functional``: Jacobians, Hessians and vector products of a
function, all built on ``autograd.grad`` (reverse mode), as in PyTorch.

Each function runs ``func`` on fresh leaf copies of the inputs, so the caller's
tensors are never part of the graph; results are detached unless
``create_graph=True``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import engine
from .._tensor import Tensor
from ..grad_mode import enable_grad
from ..ops.join import stack


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


def jacobian(
    func: Callable,
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """d func(inputs) / d inputs: for output i and input j, a tensor of shape
    ``outputs[i].shape + inputs[j].shape``, one backward pass per output element."""
    ins, ins_tuple = _as_tuple(inputs)
    with enable_grad():
        ins = _leaves(ins, create_graph)
        outs, outs_tuple = _as_tuple(func(*ins))
        blocks = []
        for out in outs:
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
            blocks.append(tuple(per_input) if ins_tuple else per_input[0])
    return tuple(blocks) if outs_tuple else blocks[0]


def hessian(
    func: Callable,
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    """Second derivatives of a scalar ``func``: the Jacobian of its gradient."""
    ins, ins_tuple = _as_tuple(inputs)

    def gradient(*xs: Any) -> Any:
        out = func(*xs)
        if out.numel() != 1:
            raise RuntimeError(
                "The function given to hessian should return a single element Tensor"
            )
        g = _grads(out.reshape(()), xs, None, create_graph=True)
        return g if ins_tuple else g[0]

    return jacobian(gradient, ins if ins_tuple else ins[0], create_graph=create_graph)


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
