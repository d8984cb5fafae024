"""Step PyTorch's own backward pass, one node at a time.

PyTorch's engine is C++ and runs a whole pass in one call, but it calls Python
hooks around every node. `torch_backward_steps` runs ``backward()`` (or
``autograd.grad()``) on a worker thread and gives every node of the graph a
pre-hook that records what arrives and a post-hook that records what leaves and
then *waits for permission*. Each ``next()`` gives permission once, so exactly
one node of the real engine runs, and returns a `TorchStepEvent` shaped like
minigrad's ``StepEvent``. After step k, ``.grad`` is what PyTorch has written.

A step runs from one node's post-hook to the next one's, so everything that
belongs to a node happens in its step: its tensor hooks and ``retain_grad``
(which PyTorch runs before the node's pre-hooks), the node, its ``.grad`` write
and its post-hooks. The ready queue and dependency counts are computed beside
the engine with PyTorch's rule (highest sequence number first) and checked
against the node PyTorch really runs; a frame says when that order is not
predictable (ready nodes of equal priority: PyTorch's heap picks).

Differences from stepping minigrad, by construction:
- PyTorch frees a node's saved tensors just after its post-hook, so at the
  start of the next step; the event lists them as released already.
- Hooks a user put on a node (``register_hook``/``register_prehook``) run in
  their place, but PyTorch does not expose them, so events do not list them.
  Tensor hooks are listed for tensors still alive (found once, at the start).
- The pass starts when the task is made (PyTorch checks the arguments and
  raises at once, as minigrad does) and waits in a tensor hook put first on
  the outputs, so nothing of the first node runs before the first ``next()``.

The worker always ends: at the end of the pass, on an error (kept in PyTorch's
words and raised by ``next()``), or when `close()` (or garbage collection of
the task, or an interrupt while waiting) makes the waiting hook raise. It then
removes every hook it added. torch is imported only when this runs.
"""

from __future__ import annotations

import gc
import heapq
import io
import sys
import threading
import weakref
from collections.abc import Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from typing import Any


def is_torch_tensor(obj: Any) -> bool:
    """A real ``torch.Tensor`` (checked without importing torch)."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(obj, getattr(torch, "Tensor", ()))


@dataclass(eq=False)
class TorchStepEvent:
    """What one node of PyTorch's engine did; the fields of minigrad's
    ``StepEvent``, plus ``note`` (when PyTorch's order was not predictable)."""

    index: int
    node: Any
    grads_in: tuple = ()
    grads_out: tuple = ()
    hooks: list = field(default_factory=list)  # (kind, hook) in the order they ran
    accumulated: list = field(default_factory=list)  # (leaf, its .grad afterwards)
    retained: list = field(default_factory=list)  # (non-leaf, its .grad afterwards)
    captured: list = field(default_factory=list)  # (input index, grad): grad()
    released: list = field(default_factory=list)  # names of freed saved tensors
    ready: tuple = ()  # nodes waiting in the ready queue afterwards, next first
    executed: bool = True  # False when only captured (autograd.grad's inputs)
    note: str | None = None


class _Aborted(Exception):
    """Raised from the waiting hook to stop PyTorch's pass."""


class _Handoff:
    """Turn-taking between the caller and the worker: exactly one of them runs.

    The worker calls `wait_turn()` at the end of every step; the caller calls
    `give_turn()` to run one step and blocks until the worker is back. It holds
    what the worker recorded, never the task, so the task can be collected
    while the worker waits (its finalizer then aborts the worker)."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.back = threading.Event()
        self.aborting = False
        self.record: dict[str, Any] = {}
        self.error: BaseException | None = None
        self.result: Any = None
        self.thread: threading.Thread | None = None

    def wait_turn(self) -> None:
        """(worker) Hand the turn back and wait for the next one."""
        self.go.clear()
        if self.aborting:  # checked after clear(): an abort cannot be lost
            raise _Aborted
        self.back.set()
        self.go.wait()
        if self.aborting:
            raise _Aborted

    def give_turn(self) -> None:
        """(caller) Let the worker run until its next wait or its end; the
        first turn starts it."""
        thread = self.thread
        if thread is not None and thread.ident is not None and not thread.is_alive():
            return  # over: nothing left to run
        self.back.clear()
        if thread is not None and thread.ident is None:
            thread.start()
        else:
            self.go.set()
        try:
            self.back.wait()
        except BaseException:  # an interrupt while PyTorch runs: stop the pass
            self.abort()
            raise

    def abort(self) -> None:
        """Make the waiting hook raise, and wait for the worker to finish."""
        thread = self.thread
        if thread is None or not thread.is_alive():
            return
        self.aborting = True
        self.go.set()
        if thread is not threading.current_thread():
            thread.join()


@contextmanager
def _worker_output() -> Any:
    """Print what the worker's hooks print from the caller's thread, where
    Jupyter shows it (the caller only waits meanwhile)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with redirect_stdout(out), redirect_stderr(err):
            yield
    finally:
        sys.stdout.write(out.getvalue())
        sys.stderr.write(err.getvalue())


def _walk(roots: Sequence[Any]) -> tuple[list, dict, dict]:
    """Every node reachable from ``roots``, the number of edges into each
    (PyTorch's dependency count) and each node's parents."""
    nodes, deps, parents = [], {}, {}
    seen: set[int] = set()
    stack = [r for r in roots if r is not None]
    for r in stack:
        seen.add(id(r))
    nodes.extend(stack)
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            deps[id(nxt)] = deps.get(id(nxt), 0) + 1
            parents.setdefault(id(nxt), []).append(node)
            if id(nxt) not in seen:
                seen.add(id(nxt))
                nodes.append(nxt)
                stack.append(nxt)
    return nodes, deps, parents


def _ancestors(targets: list, parents: dict) -> set[int]:
    """Nodes with a path to one of ``targets`` (not the targets themselves)."""
    found: set[int] = set()
    stack = [p for t in targets for p in parents.get(id(t), ())]
    while stack:
        node = stack.pop()
        if id(node) not in found:
            found.add(id(node))
            stack.extend(parents.get(id(node), ()))
    return found


def _saved_names(node: Any) -> list[str]:
    """The saved tensors PyTorch frees after the node (``_raw_saved_*`` are
    the tensor slots; an empty slot reads None)."""
    names = []
    for attr in dir(node):
        if attr.startswith("_raw_saved_"):
            name = attr[len("_raw_saved_") :]
            try:
                if _read_saved(node, name) not in (None, ()):
                    names.append(name)
            except RuntimeError:  # unreadable already: freed all the same
                names.append(name)
    return names


def _read_saved(node: Any, name: str) -> Any:
    try:
        return getattr(node, "_saved_" + name)
    except AttributeError:  # a custom Function's node (e.g. reentrant
        # checkpoint's) keeps ``_raw_saved_tensors``, read as ``saved_tensors``
        return getattr(node, "saved_" + name, None)


def _snapshot(g: Any) -> Any:
    """A frame's own copy: later in-place accumulation must not change it, and
    a reference kept would stop AccumulateGrad from stealing the gradient."""
    return None if g is None else g.detach().clone()


def _hooked_tensors(nodes: list) -> list[Any]:
    """Live tensors of this graph with tensor hooks or ``retain_grad``: their
    hooks run inside the pass, and PyTorch lists them only on the tensor."""
    ids = {id(n) for n in nodes}
    torch = sys.modules["torch"]
    found = [n.variable for n in nodes if getattr(n, "variable", None) is not None]
    found = [leaf for leaf in found if leaf._backward_hooks]
    for obj in gc.get_objects():
        # type(), not isinstance(): some objects (lazy modules) warn on __class__
        if not issubclass(type(obj), torch.Tensor):
            continue
        try:
            grad_fn = obj.grad_fn
        except RuntimeError:
            # any live tensor of the program is visited: reading grad_fn of a
            # view made under no_grad whose base changed in place raises, and
            # such a view is in no graph
            continue
        if grad_fn is not None and id(grad_fn) in ids:
            if obj._backward_hooks or obj.retains_grad:
                found.append(obj)
    return found


class TorchBackwardSteps:
    """One backward pass of PyTorch's engine, one node per ``next()``.

    The same surface as minigrad's ``GraphTask`` that the stepper uses:
    iterate it for `TorchStepEvent` s; ``done``; ``running`` (the node that
    raised, if one did); ``deps`` (edges still to deliver into each node,
    by node id) and ``ready``. ``result`` is what ``autograd.grad`` returned."""

    def __init__(
        self,
        tensors: Any,
        grad_tensors: Any = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        inputs: Any = None,
        autograd_grad: bool = False,
    ) -> None:
        import torch  # only ever reached with torch tensors in hand

        outputs = [tensors] if isinstance(tensors, torch.Tensor) else list(tensors)
        inputs_list = None
        if inputs is not None:
            inputs_list = [inputs] if isinstance(inputs, torch.Tensor) else list(inputs)
        self.keep_graph = create_graph if retain_graph is None else retain_graph
        self.autograd_grad = autograd_grad
        self.running: Any = None
        self.index = 0
        self.result: Any = None
        self._handoff = _Handoff()
        self._finished = False

        roots = [_edge_of(t)[0] for t in outputs]
        self.nodes, self.deps, parents = _walk(roots)
        self._by_id = {id(n): n for n in self.nodes}
        # autograd.grad / inputs=: only nodes on a path to an input run (for
        # backward(inputs=), the inputs' own nodes too); an input's node that
        # does not run still has its gradient captured (PyTorch's exec_info)
        self.needed: set[int] | None = None
        self.captures: dict[int, list[int]] = {}
        edges_of_inputs = [_edge_of(t) for t in inputs_list or ()]
        if inputs_list:
            edges = edges_of_inputs
            for i, (fn, _nr) in enumerate(edges):
                self.captures.setdefault(id(fn), []).append(i)
            targets = [fn for fn, _ in edges if id(fn) in self._by_id]
            self.needed = _ancestors(targets, parents)
            if not autograd_grad:
                self.needed |= {id(t) for t in targets}
        self.ready: list = []
        self._count = 0
        for root in dict.fromkeys(roots):
            if root is not None and self.deps.get(id(root), 0) == 0:
                self._push(root)

        # an input's node that only captures has no node hooks: a tensor hook
        # on the input ends its step
        watched = [
            (t, i, fn)
            for i, (t, (fn, _)) in enumerate(zip(inputs_list or [], edges_of_inputs))
            if fn is not None and not self._executes(fn)
        ]
        self._worker = threading.Thread(
            target=_run_pass,
            args=(
                self._handoff,
                list(self.nodes),
                _hooked_tensors(self.nodes),
                watched,
                outputs,
                inputs_list,
            ),
            kwargs=dict(
                grad_tensors=grad_tensors,
                retain_graph=retain_graph,
                create_graph=create_graph,
                autograd_grad=autograd_grad,
            ),
            name="viz-torch-backward",
            daemon=True,
        )
        self._handoff.thread = self._worker
        weakref.finalize(self, self._handoff.abort)
        # PyTorch checks the arguments, then waits before the first node
        self._turn()
        if "error" in self._handoff.record:
            self._finish()
            raise self._handoff.record["error"]

    # ------------------------------------------------------------ the queue
    def _executes(self, node: Any) -> bool:
        return self.needed is None or id(node) in self.needed

    def _pushed(self, node: Any) -> bool:
        return self._executes(node) or id(node) in self.captures

    def _push(self, node: Any) -> None:
        heapq.heappush(self.ready, (-node._sequence_nr(), self._count, node))
        self._count += 1

    def _queue(self) -> tuple:
        return tuple(n for _, _, n in sorted(self.ready))

    def _ties(self) -> list[Any]:
        """Ready nodes sharing the head's priority (PyTorch's heap picks)."""
        if not self.ready:
            return []
        top = min(self.ready)[0]
        return [n for key, _, n in sorted(self.ready) if key == top]

    def _take(self, node: Any) -> str | None:
        """Take the node PyTorch ran out of the predicted ready queue; say so
        when it was not plainly the predicted head."""
        ties = self._ties()
        # a captured-only input whose gradient is undefined is passed unseen
        while ties and node not in ties and not self._executes(ties[0]):
            heapq.heappop(self.ready)
            ties = self._ties()
        entry = next((e for e in self.ready if e[2] is node), None)
        if entry is None:
            return f"PyTorch ran {_name(node)}, which the prediction had not queued"
        self.ready.remove(entry)
        heapq.heapify(self.ready)
        if node not in ties:
            return f"PyTorch ran {_name(node)} before the predicted {_name(ties[0])}"
        if len(ties) > 1:
            return (
                ", ".join(_name(n) for n in ties) + " were ready with equal "
                "priority: PyTorch's heap chose, its order is not predictable"
            )
        return None

    def _deliver(self, node: Any) -> None:
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            left = self.deps[id(nxt)] - 1
            self.deps[id(nxt)] = left
            if left == 0 and self._pushed(nxt):
                self._push(nxt)

    # ------------------------------------------------------------- stepping
    def __iter__(self) -> TorchBackwardSteps:
        return self

    @property
    def done(self) -> bool:
        return self._finished

    def __next__(self) -> TorchStepEvent:
        if self._finished:
            raise StopIteration
        handoff = self._handoff
        self._turn()
        record = handoff.record
        node = record.get("node")
        if "error" in record:  # before a node's pre-hook: the predicted node's
            self.running = node if node is not None else self._predicted()
            self._finish()
            raise record["error"]
        if node is None:  # the pass ended: nothing more ran
            self._finish()
            raise StopIteration
        return self._event(node, record)

    def _predicted(self) -> Any:
        ties = self._ties()
        return ties[0] if ties else None

    def _event(self, node: Any, record: dict) -> TorchStepEvent:
        executed = record.get("executed", True)
        ev = TorchStepEvent(self.index, node, note=self._take(node))
        self.index += 1
        ev.executed = executed
        ev.hooks = record["hooks"]
        ev.retained = record["retained"]
        ev.grads_in = record.get("grads_in", ())
        if executed:
            ev.grads_out = tuple(
                None if nxt is None or not self._pushed(nxt) else g
                for g, (nxt, _) in zip(record.get("grads_out", ()), node.next_functions)
            )
            ev.accumulated = record.get("accumulated", [])
            if not self.keep_graph:
                ev.released = _saved_names(node)
            self._deliver(node)
        else:
            ev.captured = record.get("captured", [])
        ev.ready = self._queue()
        ties = self._ties()
        if ev.note is None and len(ties) > 1:
            ev.note = (
                ", ".join(_name(n) for n in ties) + " are ready with equal priority: "
                "PyTorch's heap decides which runs first"
            )
        if not self.ready:  # the last node: let PyTorch finish the pass now
            self._end_pass(ev)
        return ev

    def _turn(self) -> None:
        """Let PyTorch run until its next waiting hook (or the pass's end)."""
        handoff = self._handoff
        handoff.record = {"hooks": [], "retained": []}
        try:
            with _worker_output():
                handoff.give_turn()
        except BaseException:  # interrupted: the pass was aborted
            self._finished = True
            raise

    def _end_pass(self, ev: TorchStepEvent) -> None:
        self._turn()
        record = self._handoff.record
        if "error" in record:  # e.g. autograd.grad's unused input, after the pass
            self.running = ev.node
            self._finish()
            raise record["error"]
        if record.get("node") is not None:  # PyTorch ran more than predicted
            ev.note = "PyTorch ran more nodes than the graph walk predicted"
        self._finish()

    def _finish(self) -> None:
        self._handoff.abort()  # no-op once the worker has ended
        self.result = self._handoff.result
        self._finished = True

    def close(self) -> None:
        """Stop the pass now (PyTorch's engine stops at the waiting hook)."""
        self._handoff.abort()
        self._finished = True


def _edge_of(t: Any) -> tuple[Any, int]:
    """The node a tensor's gradient enters: its grad_fn, or a leaf's
    AccumulateGrad (None when it needs no gradient)."""
    if not t.requires_grad:
        return None, 0
    edge = sys.modules["torch"].autograd.graph.get_gradient_edge(t)
    return edge.node, edge.output_nr


def _name(node: Any) -> str:
    return str(node.name()).rsplit("::", 1)[-1]


def _run_pass(
    handoff: _Handoff,
    nodes: list,
    hooked: list,
    watched: list,
    outputs: list,
    inputs: list | None,
    *,
    grad_tensors: Any,
    retain_graph: bool | None,
    create_graph: bool,
    autograd_grad: bool,
) -> None:
    """(worker thread) Hook every node, run PyTorch's pass, unhook."""
    import torch

    handles = []
    try:
        handles += _hook_nodes(handoff, nodes)
        own: set[int] = set()  # our tensor hooks' keys, not listed as the user's
        handles += _hook_start(handoff, outputs, own)
        handles += _hook_tensors(handoff, hooked, watched, own)
        if autograd_grad:
            handoff.result = torch.autograd.grad(
                outputs, inputs, grad_tensors, retain_graph, create_graph
            )
        else:
            torch.autograd.backward(
                outputs, grad_tensors, retain_graph, create_graph, inputs=inputs
            )
    except _Aborted:
        pass
    except BaseException as exc:  # shown on the frame that raised it
        handoff.record["error"] = exc
    finally:
        for handle in handles:
            handle.remove()
        handles.clear()
        nodes.clear()  # the worker's frame must not keep the graph alive
        hooked.clear()
        outputs.clear()
        handoff.record["end"] = True
        handoff.back.set()


def _hook_nodes(handoff: _Handoff, nodes: list) -> list:
    """A pre-hook that records what arrives and a post-hook that records what
    leaves and ends the step, on every node (after the user's own hooks)."""

    def pre(node: Any) -> Any:
        def pre_hook(grad_outputs: tuple) -> None:
            if threading.current_thread() is not handoff.thread:
                return  # another pass on this graph (e.g. the user's own)
            record = handoff.record
            record["node"] = node
            record["grads_in"] = tuple(_snapshot(g) for g in grad_outputs)
            for t in record.pop("retaining", ()):
                record["retained"].append((t, _snapshot(t.grad)))

        return pre_hook

    def post(node: Any) -> Any:
        variable = getattr(node, "variable", None)

        def post_hook(grad_inputs: tuple, grad_outputs: tuple) -> None:
            if threading.current_thread() is not handoff.thread:
                return  # another pass on this graph (e.g. the user's own)
            record = handoff.record
            record["grads_out"] = tuple(_snapshot(g) for g in grad_inputs)
            if variable is not None and grad_outputs[0] is not None:
                record["accumulated"] = [(variable, _snapshot(variable.grad))]
                for h in (variable._post_accumulate_grad_hooks or {}).values():
                    record["hooks"].append(("post_accumulate", h))
            handoff.wait_turn()

        return post_hook

    handles = []
    for node in nodes:
        handles.append(node.register_prehook(pre(node)))
        handles.append(node.register_hook(post(node)))
    return handles


def _hook_start(handoff: _Handoff, outputs: list, own: set[int]) -> list:
    """A tensor hook put first on every output: the pass waits there, before
    anything of the first node (its tensor hooks included) has run."""
    started = []

    def start_gate(_grad: Any) -> None:
        if threading.current_thread() is handoff.thread and not started:
            started.append(True)
            handoff.wait_turn()

    handles = []
    for t in dict.fromkeys(t for t in outputs if t.requires_grad):
        handle = t.register_hook(start_gate)
        # first in the dict PyTorch walks (in insertion order: move_to_end
        # is not seen from C), the user's hooks after it in their own order
        hooks = t._backward_hooks
        theirs = [(k, h) for k, h in hooks.items() if k != handle.id]
        for k, _ in theirs:
            del hooks[k]
        hooks.update(theirs)
        own.add(handle.id)
        handles.append(handle)
    return handles


def _hook_tensors(
    handoff: _Handoff, hooked: list, watched: list, own: set[int]
) -> list:
    """A last tensor hook on every hooked tensor notes the user's hooks that
    ran before it (and a coming ``retain_grad``); on an input whose node
    PyTorch only captures (``watched``: tensor, input index, node) it also
    ends that node's step."""

    def observer(t: Any, capture: tuple | None) -> Any:
        def tensor_hook(grad: Any) -> None:
            if threading.current_thread() is not handoff.thread:
                return  # another pass on this graph (e.g. the user's own)
            record = handoff.record
            for key, h in list(t._backward_hooks.items()):
                if key not in own:
                    record["hooks"].append(("tensor", h))
            if t.retains_grad:
                record.setdefault("retaining", []).append(t)
            if capture is not None:
                index, node = capture
                record.update(node=node, executed=False, grads_in=(_snapshot(grad),))
                record["captured"] = [(index, _snapshot(grad))]
                handoff.wait_turn()

        return tensor_hook

    captures = {id(t): (i, fn) for t, i, fn in watched}
    tensors = {id(t): t for t in hooked + [t for t, _, _ in watched]}
    handles = []
    for key, t in tensors.items():
        handle = t.register_hook(observer(t, captures.get(key)))
        own.add(handle.id)
        handles.append(handle)
    return handles
