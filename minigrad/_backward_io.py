"""What ``backward()`` and ``autograd.grad()`` take and give back, checked.

The engine's entry points (engine.py) call these: the roots' edges and the
gradients to start from (``roots``), the edges of ``inputs=`` (``input_edges``),
and ``autograd.grad``'s results (``grad_results``); each refuses misuse in
PyTorch's words, in PyTorch's order of checks.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import node
from ._errors import dense
from ._warn import warn_once

# The _version a gradient array would have in PyTorch, for the arrays whose
# version is not 0 (by id, with a weak reference telling a reused id apart).
_versions: dict[int, tuple[Any, int]] = {}


def grad_version(a: Any) -> int:
    """How often PyTorch would have written gradient ``a`` in place."""
    entry = _versions.get(id(a))
    return entry[1] if entry is not None and entry[0]() is a else 0


def bump_grad_version(a: Any) -> Any:
    """Count one in-place write into gradient ``a`` (a Tensor's own counter);
    returns ``a``."""
    if isinstance(a, node.Tensor):
        a._vc.value += 1
        return a
    key, count = id(a), grad_version(a) + 1
    forget = lambda _, key=key: _versions.pop(key, None)  # noqa: E731
    _versions[key] = (weakref.ref(a, forget), count)
    return a


def _released(old: Any, held: tuple, sent: int) -> int:
    if not held:
        return 0
    grads, outs, *traced = held
    n = sum(x is old for x in grads) + sum(outs[k] is old for k in range(sent))
    return n + sum(x is old for t in traced for x in t)


def add_into_buffer(buf: list, nr: int, g: Any, held: tuple = (), sent: int = 0) -> Any:
    """``buf[nr] + g`` as PyTorch's InputBuffer adds two gradients meeting at
    one input: without create_graph, into the first one in place when it is
    dense, no view and held by the buffer alone (can_accumulate_inplace: its
    _version moves), else out of place. ``held``: lists holding references
    that PyTorch has already released: the running node's incoming gradients,
    its outputs (the first ``sent`` of them moved into buffers already) and
    what a traced pass keeps of them."""
    old = buf[nr]
    if (
        type(old) is np.ndarray
        and type(g) is np.ndarray
        and old is not g
        and old.base is None
        and old.flags.writeable
        and old.shape == g.shape
        and old.dtype == g.dtype
        and dense(old)
        # the references: buf, old and getrefcount's argument
        and sys.getrefcount(old) - _released(old, held, sent) == 3
    ):
        np.add(old, g, out=old)
        return bump_grad_version(old)
    return old + g


def roots(outputs: list, grads: list, graph: bool) -> tuple[list, list]:
    """The root edges and the gradients to start from (the gradients are
    checked first, as in PyTorch)."""
    root_grads = _root_grads(outputs, grads, graph)
    _check_counts(outputs, root_grads)
    return _root_edges(outputs), root_grads


def _root_grads(outputs: Sequence[Any], grads: Sequence[Any], graph: bool) -> list:
    """The gradients to start from: ones for a scalar output, else as given."""
    result = []
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if g is None:
            if out.requires_grad and out._data.size != 1:
                raise RuntimeError(
                    "grad can be implicitly created only for scalar outputs"
                )
            if out._data.dtype.kind != "f":
                raise RuntimeError(
                    "grad can be implicitly created only for real scalar outputs but "
                    f"got {out.dtype}"
                )
            g = np.ones(out._data.shape, out._data.dtype)
        else:
            if not isinstance(g, node.Tensor):  # backward([1.0, 1.0]): a float each
                raise TypeError(
                    "gradients can be either Tensors or None, but got "
                    f"{type(g).__name__}"
                )
            if g.shape != out.shape:
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and "
                    f"output[{i}] has a shape of {out.shape}."
                )
            if g._data.dtype != out._data.dtype:  # as PyTorch's validate_outputs
                g = g.to(out.dtype)
            g = g if graph else g._data
        result.append(node._wrap(g) if graph and not isinstance(g, node.Tensor) else g)
    return result


def _check_counts(outputs: list, grads: list) -> None:
    """PyTorch pairs outputs with gradients (extra gradients are dropped), then
    its engine wants one gradient per output."""
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")


def tensors(x: Any) -> list:
    """None, a Tensor or a sequence of them, as a list."""
    if x is None:
        return []
    if isinstance(x, node.Tensor):
        return [x]
    return list(x)


def _root_edges(outputs: list) -> list:
    edges = []
    for i, out in enumerate(outputs):
        edge = out._edge()
        if edge[0] is None:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a "
                "grad_fn"
            )
        edges.append(edge)
    return edges


def input_edges(inputs: list, for_grad: bool) -> list:
    """The edges of ``inputs=``; for backward(), PyTorch first calls
    ``retain_grad()`` on each, which is how a non-leaf input gets its .grad."""
    edges = []
    for t in inputs:
        if not isinstance(t, node.Tensor):
            raise RuntimeError(
                "all inputs have to be Tensors or GradientEdges, but got "
                f"{type(t).__name__}"
            )
        if not for_grad:
            t.retain_grad()
        elif not t.requires_grad:
            raise RuntimeError(
                "One of the differentiated Tensors does not require grad"
            )
        fn = t.grad_fn
        edges.append((t._grad_accumulator(), 0) if fn is None else (fn, t._output_nr))
    return edges


def grad_results(
    ins: list, captured: list, grads: list, allow_unused: bool, materialize: bool
) -> tuple:
    """``autograd.grad``'s answer from the gradients captured at ``inputs``."""
    result = []
    # One Tensor per buffer, so grad(y, [x, x]) gives one object twice; a given
    # grad_outputs tensor that arrives unchanged (grad(y, [y], v)) is v itself.
    made = {id(g._data): g for g in grads if isinstance(g, node.Tensor)}
    for i, (t, g) in enumerate(zip(ins, captured)):
        if g is None:
            if materialize:
                result.append(node.Tensor._make(np.zeros_like(t._data), False))
                continue
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been "
                    "used in the graph. Set allow_unused=True if this is the desired "
                    "behavior."
                )
            result.append(None)
        elif isinstance(g, node.Tensor):
            result.append(g)
        else:
            # the engine's own buffer, as PyTorch returns it (an expanded
            # gradient stays expanded: writing into it in place is refused)
            if id(g) not in made:
                data = np.asarray(g, dtype=t._data.dtype)
                made[id(g)] = out = node.Tensor._make(data, False)
                out._vc.value = grad_version(g)
                # an expanded gradient is, in PyTorch, a view made in no_grad
                # mode: an in-place change that needs grad is refused as such
                out._no_grad_view = 0 in data.strides
            result.append(made[id(g)])
    return tuple(result)


def warn_create_graph() -> None:
    warn_once(
        "backward create_graph",
        "Using backward() with create_graph=True will create a reference cycle "
        "between the parameter and its gradient which can cause a memory leak. "
        "We recommend using autograd.grad when creating the graph to avoid this. "
        "If you have to use this function, make sure to reset the .grad fields "
        "of your parameters to None after use to break the cycle and avoid the "
        "leak.",
    )


node.register(grad_version=grad_version)  # for AccumulateGrad's stolen gradient
