"""Fast paths: the common case of ``Function.apply`` and of the engine's loop, in
fewer steps, with the same result as the general path.

The general path (``function.Function.apply``, ``engine.GraphTask.run_next``) is
the reference and reads as PyTorch's order of steps; these shortcuts only skip
checks whose answer is known in the common case, and hand everything else to
it. ``tests/test_fastpath.py`` runs a set of programs with and without them
(``disabled()``) and compares values, gradients, nodes, versions, hooks and
errors.

- ``make_apply(cls)``: each built-in op's ``apply``, made once when the class is
  created (``FunctionMeta`` calls ``install`` through ``node.registered``): for
  one or two plain Tensors it finds the edges, runs forward and makes the
  output without the general loop over arguments.
- ``run_all(task, ...)``: a backward pass without tracing or ``inputs=`` runs
  each node that has no hooks inline, and hands the others to ``run_next``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from heapq import heappop, heappush
from sys import getrefcount
from typing import Any

from numpy import asarray, ndarray

from . import function, grad_mode, node
from ._saved_hooks import saved_tensors_hooks_stack
from .function import _NO_EDGE, Function, _save_all, _sequence_nr, _wire
from .node import (
    AccumulateGrad,
    SavedTensor,
    _arrange,
    _call,
    _conform,
    accumulate_into,
)

enabled = True  # False: every op and every node takes the general path

# The Tensor class and its version counter, handed down by engine.bind_tensor_class.
Tensor: Any = None
VersionCounter: Any = None
_object_new = object.__new__
_generic_apply = Function.__dict__["apply"].__func__  # the reference
# needs_input_grad, one shared tuple per value (a node only reads it)
_NEEDS1 = {need: (need,) for need in (True, False)}
_TT, _TF, _FT, _FF = (True, True), (True, False), (False, True), (False, False)


# ``_output_meta`` of a node with one output, ``((shape, dtype),)``: one tuple per
# shape and dtype, shared by the nodes this module makes (nodes only read it),
# so a node costs two objects fewer to make and for the cycle collector to walk.
_single_metas: dict[tuple, tuple] = {}


def single_output_meta(shape: tuple, dtype: Any) -> tuple:
    key = (shape, dtype)
    meta = _single_metas.get(key)
    if meta is None:
        if len(_single_metas) >= 1024:  # a bound, for programs of many shapes
            _single_metas.clear()
        meta = _single_metas[key] = (key,)
    return meta


def bind_tensor_class(cls: type, new_tensor: Callable[..., Any]) -> None:
    """Receive the Tensor class (from engine.bind_tensor_class), and the class
    of the version counters its constructor makes."""
    global Tensor, VersionCounter
    Tensor = cls
    VersionCounter = type(new_tensor(ndarray(0), False, cls)._vc)


@contextmanager
def disabled() -> Iterator[None]:
    """Run everything on the general path (the fast paths' tests compare)."""
    global enabled
    prev, enabled = enabled, False
    try:
        yield
    finally:
        enabled = prev


def make_apply(cls: type) -> Callable[..., Any]:
    """``cls.apply`` for a built-in op. For one or two plain Tensors (not a
    subclass, not a view) outside anomaly mode and forward AD, it finds each
    input's edge as ``Function.apply``'s loop does for those (a non-leaf: its
    grad_fn; a constant: no edge; a leaf that requires grad: its
    AccumulateGrad) and makes the one array output; anything else, e.g. a
    non-tensor argument, a view made under no_grad or several outputs, goes to
    the general path (a tuple output to its wiring)."""
    node_cls, forward, failed = cls._backward_cls, cls.forward, cls._forward_failed

    def apply(*args: Any) -> Any:
        state = grad_mode.state
        n = len(args)
        if (
            not enabled
            or n > 2
            or state.anomaly
            or function.forward_ad_level is not None
        ):
            return _generic_apply(cls, *args)
        recording = state.enabled
        a = args[0]
        if type(a) is not Tensor or a._base is not None:
            return _generic_apply(cls, *args)
        fn = a._grad_fn
        if fn is not None:
            need_a, edge_a = True, (fn, a._output_nr)
        elif not a._requires_grad:
            need_a, edge_a = False, _NO_EDGE
        elif a._no_grad_view:
            return _generic_apply(cls, *args)
        else:
            need_a, edge_a = True, (a._grad_accumulator(), 0) if recording else _NO_EDGE
        ctx = _object_new(node_cls)
        if n == 1:
            ctx.needs_input_grad = _NEEDS1[need_a]
            record = recording and need_a
            if record:  # numbered and wired before forward runs, as in PyTorch
                ctx._seq = next(_sequence_nr)
                ctx.next_functions = (edge_a,)
        else:
            b = args[1]
            if type(b) is not Tensor or b._base is not None:
                return _generic_apply(cls, *args)
            fn = b._grad_fn
            if fn is not None:
                need_b, edge_b = True, (fn, b._output_nr)
            elif not b._requires_grad:
                need_b, edge_b = False, _NO_EDGE
            elif b._no_grad_view:
                return _generic_apply(cls, *args)
            else:
                need_b = True
                edge_b = (b._grad_accumulator(), 0) if recording else _NO_EDGE
            ctx.needs_input_grad = (
                (_TT if need_b else _TF) if need_a else (_FT if need_b else _FF)
            )
            record = recording and (need_a or need_b)
            if record:
                ctx._seq = next(_sequence_nr)
                ctx.next_functions = (edge_a, edge_b)
        if record:
            # The class-level defaults that forward, the engine and
            # saved_tensors read on every node, stored on the node itself (the
            # same values): on CPython 3.11 an instance attribute reads several
            # times faster than a class attribute read through an instance.
            ctx.to_save = ctx._held = None
            ctx._forward_cls, ctx._hooked, ctx._packed = cls, False, False
            ctx._tensor_positions, ctx._num_outputs = None, 1
        try:
            raw = forward(ctx, *args)
        except ValueError:  # numpy's words; an op may know PyTorch's
            failed(*args)
            raise
        if type(raw) is tuple:
            return _wire(ctx, args, raw, record)
        # HOT-PATH INLINE of Function.apply's tail and _tensor._new_tensor
        out = _object_new(Tensor)
        out._data = raw if type(raw) is ndarray else asarray(raw)
        out._requires_grad = False
        out._vc = vc = VersionCounter()
        vc.value = 0
        out._output_nr, out._base, out._wrapped_number = 0, None, False
        out._inference = state.inference
        if record and raw.dtype.kind == "f":
            out._grad_fn = ctx
            shape, dtype = raw.shape, raw.dtype  # (single_output_meta, inline)
            meta = _single_metas.get((shape, dtype))
            ctx._output_meta = meta or single_output_meta(shape, dtype)
        else:
            out._grad_fn = None
        if record:
            to_save = ctx.to_save
            if to_save is not None:
                ctx.to_save = None
                # HOT-PATH INLINE of _save_all for what most ops save: their own
                # result (tanh), their arguments, some left out as None (mul).
                # The arguments are plain Tensors (checked above), never the new
                # output, so each is kept as itself; the result is kept as its
                # data. Anything else (an array made in forward, a constant) or
                # saved-tensor hooks go to _save_all.
                if saved_tensors_hooks_stack:
                    ctx._held = _save_all(ctx, to_save, (raw,), (out,))
                elif len(to_save) == 1 and to_save[0] is raw:
                    ctx._held = (SavedTensor(out, True),)
                else:
                    held = []
                    for s in to_save:
                        if s is None:
                            held.append(None)
                        elif s is a or (n == 2 and s is b):
                            held.append(SavedTensor(s, False))
                        elif s is raw:
                            held.append(SavedTensor(out, True))
                        else:
                            held = None
                            break
                    if held is None:
                        ctx._held = _save_all(ctx, to_save, (raw,), (out,))
                    else:
                        ctx._held = tuple(held)
        return out

    return apply


def install(cls: type) -> None:
    """Give a built-in op its fast ``apply``, unless it (or a parent) defines
    its own ``apply`` (e.g. ``NotDifferentiable``)."""
    if not (cls._array_backward and "_backward_cls" in cls.__dict__):
        return
    definer = next(k for k in cls.__mro__ if "apply" in k.__dict__)
    if definer is Function or isinstance(definer.__dict__["apply"], _FastApply):
        cls.apply = _FastApply(make_apply(cls))


class _FastApply(staticmethod):
    """The staticmethod that holds a fast ``apply`` (so ``install`` knows it)."""


def stealable(grads: list, graph: bool) -> bool:
    """May a leaf take its first gradient ``grads[0]`` without a copy? When
    nothing but ``grads`` refers to the array or its memory (run_all's check,
    for run_next)."""
    g = grads[0]
    if graph or type(g) is not ndarray:
        return False
    base = g.base
    return getrefcount(g) == 3 and (
        base is None
        or (
            type(base) is ndarray
            and base.base is None
            and getrefcount(base) == 3
            and base.nbytes == g.nbytes
        )
    )


def run_all(task: Any, add_to_buffer: Callable[..., None]) -> Any:
    """Run a whole untraced pass. A node without hooks runs here: it skips the
    step recorder (nothing is traced) and the three hook steps (there are
    none), so it is run_next's call, release and send; an AccumulateGrad whose
    leaf has no hooks only accumulates (a first gradient nothing else refers
    to is taken without a copy, as PyTorch takes it). With ``inputs=`` (e.g.
    autograd.grad) a node whose gradient is captured, or that does not run,
    goes to run_next, and the send skips edges to nodes not needed, as
    ``_send`` does. Any other node, or anomaly mode, goes to ``run_next``.
    Returns the last node run, as ``run`` does. (``add_to_buffer`` is the
    engine's.)"""
    ready, buffers, deps = task.ready, task.buffers, task.deps
    graph, keep = task.graph, task.keep_graph
    selection = task.selection
    if selection is not None:
        captures, running, needed = (
            selection.captures,
            selection.running,
            selection.needed,
        )
    state = grad_mode.state
    last = None
    while ready:
        last = ready[0][2]
        if (
            last._hooked
            or state.anomaly
            or (selection is not None and (last in captures or last not in running))
        ):
            task.run_next(False)
            continue
        if type(last) is AccumulateGrad:
            if last.variable._hooks:
                task.run_next(False)
                continue
            heappop(ready)
            task.running = last
            task.index += 1
            grads = buffers.pop(last, None) or [None]
            g = grads[0]
            if g is not None:
                # Nothing else refers to g (the references are grads, g and
                # getrefcount's argument; a second edge's buffer, a user's
                # tensor, a hook's or a saved tensor would add one), nor to its
                # memory when it is a view (its base: by g.base, base and the
                # argument alone): the leaf may take it without a copy.
                base = g.base if type(g) is ndarray else None
                sole = getrefcount(g) == 3 and (
                    base is None
                    or (
                        type(base) is ndarray
                        and base.base is None
                        and getrefcount(base) == 3
                        and base.nbytes == g.nbytes
                    )
                )
                base = None
                accumulate_into(last.variable, g, graph, sole and not graph)
            task.running = None
            g = None
            continue
        heappop(ready)
        task.running = last
        task.index += 1
        grads = buffers.pop(last, None) or [None]
        cls = last._forward_cls
        if (
            len(grads) == 1
            and grads[0] is not None
            and cls is not None  # (None: CopySlices and the engine's other nodes)
            and cls._array_backward
        ):
            # HOT-PATH INLINE of node._call for a built-in op's one gradient:
            # nothing to materialize, nothing to wrap (a built-in formula takes
            # arrays or, under create_graph, the Tensors as they come)
            outs = cls.backward(last, grads[0])
            if type(outs) is not tuple:
                outs = (outs,)
            if len(outs) != len(last.next_functions) or last._tensor_positions:
                outs = _arrange(last, outs)
        elif grads[0] is not None or any(g is not None for g in grads):
            outs = _call(last, grads, graph)
        else:
            outs = [None] * len(last.next_functions)
        if not keep:
            last.release_variables()
        # HOT-PATH INLINE of GraphTask._send with every node needed and nothing
        # recorded (tests/test_fastpath.py compares the two)
        for i, (nxt, nr) in enumerate(last.next_functions):
            if nxt is None or (selection is not None and nxt not in needed):
                continue
            g = outs[i]
            if g is not None:
                meta = nxt._output_meta
                if meta:
                    shape, dtype = meta[nr]
                    d = g if type(g) is ndarray else getattr(g, "_data", g)
                    if d.shape != shape or d.dtype is not dtype:
                        g = _conform(last, i, g, shape, dtype)
                if nr == 0 and nxt._num_outputs == 1 and nxt not in buffers:
                    buffers[nxt] = [g]
                else:
                    add_to_buffer(buffers, nxt, nr, g, (grads, outs), i)
            left = deps[nxt] - 1
            deps[nxt] = left
            if left == 0:
                heappush(ready, (-nxt._seq, task.counter, nxt))
                task.counter += 1
        outs = grads = g = d = None  # (a gradient sent: held by its buffer only)
        task.running = None
    return last


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


# Classes made from now on get theirs from FunctionMeta; those made already, here.
node.register(fast_apply=install)
for _cls in list(_subclasses(Function)):
    install(_cls)
