"""The backward engine: PyTorch's algorithm, written as a step generator.

1. Count, for every node reachable from the roots, how many edges lead into it.
2. Put the roots' gradients into their input buffers; a node whose count drops to
   zero is *ready*. The ready queue pops the highest sequence number first, i.e.
   the op created last; AccumulateGrad has the largest number, so it runs as soon
   as it is ready.
3. For each node: tensor pre-hooks (and retain_grad) -> node pre-hooks -> the
   node's backward -> node hooks; then free its saved tensors unless
   ``retain_graph``; then add each output gradient into the buffer of the node
   at the other end of the edge.

``GraphTask.run_next()`` executes one node. ``backward()`` and ``grad()`` run them
all; iterating a ``GraphTask`` runs one node per ``next()`` and returns its event,
which is how viz's stepper advances the real pass one node per click. There is
one engine.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _backward_io, _fastpath, _profiling, function, grad_mode
from ._anomaly import call_in_anomaly_mode
from ._backward_io import tensors as tensors_of
from ._dtype import from_numpy_dtype
from ._selection import Selection
from ._step_events import SILENT, Recorder, Silent, StepEvent
from .node import (
    AccumulateGrad,
    Node,
    _call,
    _conform,
    _unwrap,
    _validate,
    _wrap,
    accumulate_into,
)

# The Tensor class, handed down by _tensor.py (see bind_tensor_class).
Tensor: Any = None


def bind_tensor_class(cls: type, new_tensor: Any) -> None:
    """Receive the Tensor class from ``_tensor.py`` (once, as it is imported) and
    hand it down to function.py and node.py, which sit below the Tensor too."""
    global Tensor
    Tensor = cls
    function.bind_tensor_class(cls, new_tensor)
    _fastpath.bind_tensor_class(cls, new_tensor)


def _run_hooks(hooks: Any, grad: Any, graph: bool, record: Silent) -> Any:
    """Run tensor hooks on one gradient; a hook may return a replacement."""
    for hook in list(hooks.values()):
        out = hook(_wrap(grad))
        record.hook("tensor", hook)
        if out is not None:
            _check_hook_result(hook, grad, out)
            grad = out if graph else _unwrap(out)
    return grad


def _check_hook_result(hook: Any, grad: Any, out: Any) -> None:
    """A tensor hook may replace the gradient only by a Tensor of its dtype and
    size (PyTorch's check_variable_result)."""
    if not isinstance(out, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(out).__name__}'")
    name = getattr(hook, "__name__", "<unknown>")
    data = _unwrap(grad)
    if out._data.dtype != data.dtype:
        was = from_numpy_dtype(data.dtype)._legacy
        raise RuntimeError(
            f"hook '{name}' has changed the type of value (was minigrad.{was} got "
            f"minigrad.{out.dtype._legacy})"
        )
    if out._data.shape != data.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")


running: list[GraphTask] = []  # the backward passes under way, innermost last


class GraphTask:
    """The state of one backward pass: dependency counts, input buffers, the ready
    queue, and what ``inputs=`` asks for (a ``Selection``, None without it)."""

    def __init__(
        self,
        roots: Sequence[tuple[Node, int]],
        root_grads: Sequence[Any],
        keep_graph: bool,
        graph: bool,
        inputs: Sequence[tuple[Node, int]] | None,
        accumulate: bool,
    ) -> None:
        self.keep_graph, self.graph = keep_graph, graph
        # one dict: each node seen, with its count of incoming edges
        self.deps = deps = dict.fromkeys([fn for fn, _ in roots], 0)
        # with inputs=, the walk also notes each node's parents (see _needed)
        parents: dict[Node, list[Node]] | None = {} if inputs is not None else None
        stack = list(deps)
        while stack:  # 1. count the edges into every reachable node
            node = stack.pop()
            for nxt, _ in node.next_functions:
                if nxt is not None:
                    count = deps.get(nxt)
                    if count is None:  # seen for the first time
                        deps[nxt] = 1
                        stack.append(nxt)
                    else:
                        deps[nxt] = count + 1
                    if parents is not None:
                        ps = parents.get(nxt)
                        if ps is None:
                            parents[nxt] = [node]
                        else:
                            ps.append(node)

        self.nodes = deps  # every node the pass can reach (its keys)
        self.selection: Selection | None = None
        if parents is not None:
            self.selection = Selection(parents, inputs, deps, accumulate)

        self.buffers: dict[Node, list] = {}
        for (fn, nr), g in zip(roots, root_grads):  # 2. seed the roots' buffers
            _add_to_buffer(self.buffers, fn, nr, g)
        self.ready: list = []
        self.counter = 0
        self.index = 0
        self.running: Node | None = None  # the node being run (kept if it raised)
        for fn in dict.fromkeys(fn for fn, _ in roots):
            if self.deps.get(fn, 0) == 0:  # a root's tensor hooks always run
                self._push(fn)

    # Iterating a task runs it one node per next(), returning that node's
    # StepEvent; the user's grad mode is back in place between steps.
    def __iter__(self) -> GraphTask:
        return self

    def __next__(self) -> StepEvent:
        if not self.ready:
            raise StopIteration
        return self.run(1, trace=True)

    @property
    def done(self) -> bool:
        return not self.ready

    @property
    def captured(self) -> list:
        """The gradients arriving at the ``inputs=`` edges (autograd.grad's)."""
        return self.selection.captured if self.selection is not None else []

    def run(self, limit: int | None = None, trace: bool = False) -> Any:
        """Run up to ``limit`` nodes (all when None); returns the last event.
        Hooks and formulas run in grad mode only when a graph of the backward
        pass is wanted (``create_graph``), as in PyTorch."""
        state = grad_mode.state
        prev, state.enabled = state.enabled, self.graph
        running.append(self)  # for hooks that ask which pass they are in
        try:
            # inf and nan in gradients pass silently, as in PyTorch
            with np.errstate(all="ignore"):
                event = None
                ready, run_next = self.ready, self.run_next
                if _profiling.recorder is not None:  # each node as a timed range
                    run_next = _profiling.recorder.evaluating(self)
                if limit is None and not trace and _fastpath.enabled:
                    # the common nodes inline, the rest by run_next
                    event = _fastpath.run_all(self, _add_to_buffer)
                elif limit is None:
                    while ready:
                        event = run_next(trace)
                else:
                    while ready and limit > 0:
                        event = run_next(trace)
                        limit -= 1
            return event
        finally:
            running.pop()
            state.enabled = prev

    def will_execute(self, node: Node) -> bool:
        """Whether this pass runs ``node`` (or captures its gradient), as
        PyTorch's ``_will_engine_execute_node`` answers for multi-grad hooks."""
        if self.selection is None:  # a plain backward runs every node it reaches
            return node in self.nodes
        return self.selection.will_execute(node)

    def _push(self, fn: Node) -> None:
        heapq.heappush(self.ready, (-fn._seq, self.counter, fn))
        self.counter += 1

    def run_next(self, trace: bool) -> Any:
        """3. Pop the next ready node and run it, in PyTorch's order of steps.
        Most nodes have no hooks, no ``inputs=`` and are no leaf: each of those
        is behind one check."""
        _, _, node = heapq.heappop(self.ready)
        self.running = node
        grads = self.buffers.pop(node, None) or [None]
        record = Recorder(self.index, node) if trace else SILENT
        self.index += 1
        hooked, is_acc = node._hooked, type(node) is AccumulateGrad
        selection = self.selection
        runs = selection is None or selection.runs(node)
        if selection is not None and runs:  # capture for inputs= (before hooks)
            selection.capture(node, grads, record)
        if hooked or is_acc:  # tensor pre-hooks (and retain_grad)
            self._tensor_pre_hooks(node, grads, record)
        if not runs:  # autograd.grad needs only this node's gradient
            selection.capture(node, grads, record)
            self.running = None
            return record.finish(node, grads, None, self.ready)
        if hooked and node._pre_hooks:  # node pre-hooks
            grads = self._pre_hooks(node, grads, record)
        outs: Sequence = ()  # call: AccumulateGrad, or the node's formula
        if is_acc and grads[0] is not None:
            sole = _fastpath.stealable(grads, self.graph)
            if accumulate_into(node.variable, grads[0], self.graph, sole):
                record.accumulated(node.variable)
        elif grads[0] is not None or any(g is not None for g in grads):
            call = call_in_anomaly_mode if grad_mode.state.anomaly else _call
            if _profiling.recorder is not None:  # a profiler times the formula
                call = _profiling.recorder.timed_call
            outs = call(node, grads, self.graph)
        else:
            outs = [None] * len(node.next_functions)
        if hooked and node._post_hooks:  # post-hooks
            outs = self._post_hooks(node, grads, outs, record)
        if not self.keep_graph:  # release the saved tensors
            record.release(node)
        sent = self._send(node, outs, record, grads) if outs else []  # send
        self.running = None
        return record.finish(node, grads, sent, self.ready)

    def _tensor_pre_hooks(self, node: Node, grads: list, record: Silent) -> None:
        """Hooks on the tensor whose gradient arrives: a leaf's live on the
        tensor; a non-leaf's on its grad_fn, followed by its retain_grad()."""
        if type(node) is AccumulateGrad and node.variable._hooks:
            hooks = node.variable._hooks
            grads[0] = _run_hooks(hooks, grads[0], self.graph, record)
            return
        for nr, hooks in (node._tensor_pre_hooks or {}).items():
            if grads[nr] is not None:
                grads[nr] = _run_hooks(hooks, grads[nr], self.graph, record)
        for nr, ref in (node._retains_grad or {}).items():
            t = ref()
            if t is not None and grads[nr] is not None:
                _retain(t, grads[nr], self.graph)
                record.retained(t)

    def _pre_hooks(self, node: Node, grads: list, record: Silent) -> list:
        """``hook(grad_outputs)`` may return replacement gradients."""
        for hook in list(node._pre_hooks.values()):
            res = hook(tuple(_wrap(g) for g in grads))
            record.hook("prehook", hook)
            if res is not None:
                grads = [g if self.graph else _unwrap(g) for g in res]
        return grads

    def _post_hooks(self, node: Node, grads: list, outs: list, record: Silent) -> list:
        """``hook(grad_inputs, grad_outputs)`` may return replacement grad_inputs.
        The hooks see the checked gradients, and None where no edge (or, with
        ``inputs=``, no needed edge) takes one, as PyTorch's formulas give."""
        needed = self.selection.needed if self.selection is not None else None
        outs = [
            None if needed is not None and nxt not in needed else g
            for g, (nxt, _) in zip(_validate(node, outs), node.next_functions)
        ]
        for hook in list(node._post_hooks.values()):
            res = hook(tuple(_wrap(g) for g in outs), tuple(_wrap(g) for g in grads))
            record.hook("hook", hook)
            if res is not None:
                outs = [g if self.graph else _unwrap(g) for g in res]
        return outs

    def _send(self, node: Node, outs: Sequence, record: Any, ins: list) -> list | None:
        """4. Check each gradient against its input (as ``_validate``) and add it
        into the buffer at the other end of its edge; a node whose last edge has
        delivered becomes ready. Returns what was sent when recording."""
        needed = self.selection.needed if self.selection is not None else None
        deps, buffers = self.deps, self.buffers
        sent = [] if record.keeps_sent else None
        for i, ((nxt, nr), g) in enumerate(zip(node.next_functions, outs)):
            if nxt is None or (needed is not None and nxt not in needed):
                if sent is not None:
                    sent.append(None)
                continue
            if g is not None:
                # HOT-PATH INLINE of node._conformed (tests/test_engine.py checks
                # that the two agree): the common gradient needs no call at all
                meta = nxt._output_meta
                if meta:
                    shape, dtype = meta[nr]
                    d = g if type(g) is np.ndarray else getattr(g, "_data", g)
                    if d.shape != shape or d.dtype is not dtype:
                        g = _conform(node, i, g, shape, dtype)
                buf = buffers.get(nxt)
                if buf is None and nr == 0 and nxt._num_outputs == 1:
                    buffers[nxt] = [g]
                else:
                    _add_to_buffer(buffers, nxt, nr, g, (ins, outs, sent or ()), i)
            if sent is not None:
                sent.append(g)
            left = deps[nxt] - 1
            deps[nxt] = left
            if left == 0:
                heapq.heappush(self.ready, (-nxt._seq, self.counter, nxt))
                self.counter += 1
        return sent


def _add_to_buffer(buffers: dict, fn: Node, nr: int, g: Any, *held: Any) -> None:
    buf = buffers.get(fn)
    if buf is None:
        buf = buffers[fn] = [None] * max(getattr(fn, "_num_outputs", 1), nr + 1)
    buf[nr] = g if buf[nr] is None else _backward_io.add_into_buffer(buf, nr, g, *held)


def _retain(t: Any, g: Any, graph: bool) -> None:
    """retain_grad(): keep a non-leaf's gradient in its ``.grad``."""
    if graph:
        t._grad = g.clone() if t._grad is None else t._grad + g
    elif t._grad is None:
        t._grad = Tensor._make(np.array(g, copy=True), False)
    else:
        t._grad = Tensor._make(t._grad._data + g, False)


def backward_steps(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> GraphTask:
    """``backward()``'s pass, set up but not run (arguments are checked at once):
    ``.run()`` runs it all; each ``next()`` runs exactly one node and returns
    its ``StepEvent`` (viz's stepper); ``.done`` tells when it is over and
    ``.running`` names the node that raised, if one did."""
    outputs = tensors_of(tensors)
    grads = (
        tensors_of(grad_tensors) if grad_tensors is not None else [None] * len(outputs)
    )
    if retain_graph is None:
        retain_graph = create_graph
    input_list = tensors_of(inputs)
    if inputs is not None and not input_list:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    roots, root_grads = _backward_io.roots(outputs, grads, create_graph)
    edges = _backward_io.input_edges(input_list, False) if input_list else None
    return GraphTask(roots, root_grads, retain_graph, create_graph, edges, True)


def backward(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    grad_variables: Any = None,
    inputs: Any = None,
) -> None:
    """Compute gradients of ``tensors`` and accumulate them into the leaves."""
    if grad_variables is not None:
        grad_tensors = grad_variables
    task = backward_steps(tensors, grad_tensors, retain_graph, create_graph, inputs)
    try:
        task.run()
    finally:  # PyTorch's warning surfaces once the pass has run (or raised)
        if create_graph:
            _backward_io.warn_create_graph()


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool | None = None,
    materialize_grads: bool = False,
) -> tuple:
    """Return the gradients of ``outputs`` with respect to ``inputs`` (nothing is
    accumulated into ``.grad``); ``autograd.grad`` adds ``is_grads_batched``."""
    if outputs is None:  # PyTorch makes a tuple of it
        raise TypeError("'NoneType' object is not iterable")
    outs = tensors_of(outputs)
    ins = tensors_of(inputs)
    if not ins:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grads = tensors_of(grad_outputs) if grad_outputs is not None else [None] * len(outs)
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    roots, root_grads = _backward_io.roots(outs, grads, create_graph)
    edges = _backward_io.input_edges(ins, True)
    task = GraphTask(roots, root_grads, retain_graph, create_graph, edges, False)
    task.run()
    return _backward_io.grad_results(
        ins, task.captured, grads, allow_unused, materialize_grads
    )
