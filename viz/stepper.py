"""Step through the real backward pass, one node at a time.

``BackwardStepper(loss)`` draws the backward graph once, then each ``next()``
runs exactly one node of minigrad's engine (its step iterator, the same engine
``loss.backward()`` drains). After step k, ``w.grad`` in the notebook is exactly
what the engine has written so far. ``prev()`` and ``goto()`` revisit earlier
frames for display only: the engine never runs backwards.

Each executed node becomes a `Frame`: plain data saying which node ran, the
gradients it received and sent, the hooks that fired, what ``.grad`` it wrote,
what it freed, and which drawing ids to highlight (running node, edges the
gradients flowed along, ready queue, nodes done). The widget and the exports
only read frames.
"""

from __future__ import annotations

import itertools
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .drawing import Drawing, Options
from .graph import Graph, build_graph, edge_id, node_name, value_preview
from .torch_engine import TorchBackwardSteps, is_torch_tensor

_instances = itertools.count()


@dataclass
class Frame:
    """What one executed node did (``index`` 0 is the first node run)."""

    index: int
    node: Any  # the node object (grad_fn / AccumulateGrad) that ran
    node_id: str  # its id in the drawing ("f3")
    name: str  # "MulBackward0"
    grads_in: tuple = ()  # the gradients it received (tensors or None)
    grads_out: tuple = ()  # one per next_functions edge (None: nothing sent)
    ready: tuple = ()  # node objects waiting in the ready queue afterwards
    hooks: list[str] = field(default_factory=list)  # "tensor hook <lambda>", ...
    accumulated: list[tuple[str, Any]] = field(default_factory=list)  # leaf, .grad
    retained: list[tuple[str, Any]] = field(default_factory=list)  # non-leaf, .grad
    released: list[str] = field(default_factory=list)  # "_saved_self", ...
    error: str | None = None  # the error this node raised, worded by the engine
    note: str | None = None  # e.g. PyTorch's order here was not predictable
    # what to highlight, as drawing ids
    flow: list[str] = field(default_factory=list)  # edges gradients flowed along
    ready_ids: list[str] = field(default_factory=list)
    done_ids: list[str] = field(default_factory=list)  # all nodes run so far
    written: list[str] = field(default_factory=list)  # tensors whose .grad changed

    def highlight(self, view: str = "backward") -> dict[str, list[str]]:
        """Drawing ids by role, for the backward or the forward view."""
        if view == "forward":
            roles = {
                "running": [self._forward_id(self.node_id)],
                "ready": [self._forward_id(i) for i in self.ready_ids],
                "done": [self._forward_id(i) for i in self.done_ids],
                "flow": [],
                "written": list(self.written),
                "error": [self._forward_id(self.node_id)] if self.error else [],
            }
            return _every_copy(roles, self._drawn_forward)
        roles = {
            "running": [self.node_id],
            "ready": list(self.ready_ids),
            "done": list(self.done_ids),
            "flow": list(self.flow),
            "written": list(self.written),
            "error": [self.node_id] if self.error else [],
        }
        return _every_copy(roles, self._drawn)

    # AccumulateGrad is drawn in the forward view as its leaf tensor
    _leaf_of: dict[str, str] = field(default_factory=dict, repr=False)
    # model id -> its drawn ids, for ids drawn more than once (Drawing.drawn_ids)
    _drawn: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _drawn_forward: dict[str, list[str]] = field(default_factory=dict, repr=False)

    def _forward_id(self, fid: str) -> str:
        return self._leaf_of.get(fid, fid)


def _every_copy(
    roles: dict[str, list[str]], drawn: dict[str, list[str]]
) -> dict[str, list[str]]:
    """A shared leaf drawn once per use lights up in every copy."""
    return {r: [d for i in ids for d in drawn.get(i, (i,))] for r, ids in roles.items()}


def _engine_of(tensor: Any) -> Any:
    """The autograd package a tensor belongs to, if it can be stepped."""
    if is_torch_tensor(tensor):  # PyTorch's engine, gated node by node
        return TorchBackwardSteps
    package = sys.modules.get(type(tensor).__module__.split(".")[0])
    steps = getattr(getattr(package, "autograd", None), "backward_steps", None)
    if steps is None:
        raise TypeError(
            "BackwardStepper needs minigrad or torch tensors; got "
            f"{type(tensor).__module__}.{type(tensor).__qualname__}."
        )
    return steps


class BackwardStepper:
    """Run ``backward()`` of ``outputs`` one node per ``next()``, with pictures.

    ``params``: dict name -> tensor naming the leaves in the drawing and panel.
    ``gradient``: as in ``backward(gradient)``, for non-scalar outputs.
    ``retain_graph``: keep saved tensors after the pass (default False).
    ``create_graph``, ``inputs``: as in ``backward()``. ``autograd_grad=True``
    steps ``autograd.grad(outputs, inputs, gradient, ...)`` instead (torch
    tensors); its result is `result` once the pass is over.
    Other keyword arguments go to the drawing (``theme``, ``rankdir``...).
    In Jupyter the stepper shows itself as a widget (see `widget()`).
    """

    def __init__(
        self,
        *outputs: Any,
        params: Any = None,
        gradient: Any = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        inputs: Any = None,
        autograd_grad: bool = False,
        **drawing_options: Any,
    ) -> None:
        if not outputs:
            raise ValueError("BackwardStepper needs the tensor to run backward from")
        targets = outputs[0] if len(outputs) == 1 else outputs
        first = targets[0] if isinstance(targets, (tuple, list)) else targets
        backward_steps = _engine_of(first)
        prefix = drawing_options.pop("id_prefix", None) or f"s{next(_instances)}-"
        self.graph: Graph = build_graph(targets, params=params)
        options = Options(id_prefix=prefix, **drawing_options)
        self.drawing = Drawing(self.graph, "backward", options)
        self.forward_drawing = Drawing(self.graph, "forward", options)
        pass_options = {"create_graph": create_graph, "inputs": inputs}
        if autograd_grad:  # only PyTorch's engine steps autograd.grad
            pass_options["autograd_grad"] = True
        self._task = backward_steps(targets, gradient, retain_graph, **pass_options)
        self._outputs = targets  # keeps the graph's nodes (and their ids) alive
        self.frames: list[Frame] = []
        self.position = 0  # frames shown: 0 = before the first node ran
        self.error: str | None = None
        self._done_ids: list[str] = []
        self._leaf_of = {
            fid: f.variable
            for fid, f in self.graph.functions.items()
            if f.is_accumulate_grad and f.variable is not None
        }
        self._names = {tid: t.label for tid, t in self.graph.tensors.items()}
        self._drawn_ids = self.drawing.drawn_ids
        self._drawn_forward_ids = self.forward_drawing.drawn_ids
        self._widget: Any = None

    # ------------------------------------------------------------------ state
    @property
    def step(self) -> int:
        """How many nodes the engine has executed so far."""
        return len(self.frames)

    @property
    def done(self) -> bool:
        """The pass is over (every node ran, or one raised)."""
        return self.error is not None or self._task.done

    @property
    def total(self) -> int:
        """Nodes in the drawing that backward may run (an upper bound)."""
        return len(self.graph.functions)

    @property
    def result(self) -> Any:
        """What ``autograd.grad`` returned (``autograd_grad=True``, pass over)."""
        return getattr(self._task, "result", None)

    @property
    def current(self) -> Frame | None:
        """The frame on display (None before the first step)."""
        return self.frames[self.position - 1] if self.position else None

    # ---------------------------------------------------------------- moving
    def next(self) -> Frame | None:
        """Show the next frame, running one more engine node if needed.
        Returns the frame, or None when the pass is over."""
        if self.position < len(self.frames):
            self.position += 1
        elif not self.done:
            self._execute()
            self.position = len(self.frames)
        else:
            return None
        self._changed()
        return self.current

    def prev(self) -> Frame | None:
        """Show the previous frame (display only; nothing is undone)."""
        if self.position > 0:
            self.position -= 1
            self._changed()
        return self.current

    def goto(self, position: int) -> Frame | None:
        """Show frame ``position``, running engine nodes until it exists."""
        position = max(0, position)
        while len(self.frames) < position and not self.done:
            self._execute()
        self.position = min(position, len(self.frames))
        self._changed()
        return self.current

    def reset(self) -> None:
        """Back to the picture before the first node (display only)."""
        self.goto(0)

    def run_all(self) -> list[Frame]:
        """Run the rest of the pass and show its last frame."""
        while not self.done:
            self._execute()
        self.position = len(self.frames)
        self._changed()
        return self.frames

    def close(self) -> None:
        """Stop a pass under way: PyTorch's worker aborts and unhooks the graph."""
        close = getattr(self._task, "close", None)
        if close is not None:
            close()

    def _execute(self) -> None:
        """Run exactly one engine node and record its frame."""
        try:
            event = next(self._task)
        except StopIteration:
            return
        except Exception as exc:  # shown on the frame that raised it
            node = self._task.running
            self.error = f"{type(exc).__name__}: {exc}"
            frame = self._frame_for(node, len(self.frames))
            frame.error = self.error
            self.frames.append(frame)
            return
        self.frames.append(self._frame_from(event))

    # ---------------------------------------------------------------- frames
    def _id(self, node: Any) -> str:
        return self.graph.node_ids.get(id(node), "?")

    def _frame_for(self, node: Any, index: int) -> Frame:
        fid = self._id(node)
        return Frame(
            index=index,
            node=node,
            node_id=fid,
            name=node_name(node) if node is not None else "?",
            done_ids=list(self._done_ids),
            _leaf_of=self._leaf_of,
            _drawn=self._drawn_ids,
            _drawn_forward=self._drawn_forward_ids,
        )

    def _frame_from(self, ev: Any) -> Frame:
        frame = self._frame_for(ev.node, ev.index)
        fid = frame.node_id
        self._done_ids.append(fid)
        frame.done_ids = list(self._done_ids)
        frame.grads_in, frame.grads_out = ev.grads_in, ev.grads_out
        frame.ready = ev.ready
        frame.ready_ids = [self._id(n) for n in ev.ready]
        frame.flow = [
            edge_id(fid, i) for i, g in enumerate(ev.grads_out) if g is not None
        ]
        frame.hooks = [f"{kind} hook {_hook_name(h)}" for kind, h in ev.hooks]
        variable = self.graph.functions.get(fid)
        leaf = variable.variable if variable is not None else None
        for _tensor, grad in ev.accumulated:
            frame.accumulated.append((self._names.get(leaf, "leaf"), grad))
            if leaf is not None:
                frame.written.append(leaf)
        for tensor, grad in ev.retained:
            frame.retained.append((_tensor_label(tensor, self.graph), grad))
        frame.released = [f"_saved_{n}" for n in ev.released]
        frame.note = getattr(ev, "note", None)
        return frame

    def _changed(self) -> None:
        if self._widget is not None:
            self._widget.refresh()

    # ------------------------------------------------------------ the panel
    def describe(self, frame: Frame | None = None) -> dict[str, Any]:
        """The detail panel's content for a frame, as plain data."""
        frame = frame or self.current
        if frame is None:
            return {"title": "Before backward", "rows": []}
        return self.describe_node(frame.node_id, frame)

    def describe_node(self, fid: str, frame: Frame | None = None) -> dict[str, Any]:
        """What the panel shows for node ``fid`` (with ``frame``'s values when
        that frame ran it)."""
        info = self.graph.functions.get(fid)
        if info is None:
            return {"title": fid, "rows": []}
        rows: list[tuple[str, str]] = []
        nexts = [
            f"({self.graph.functions[e.dst].name}, {e.output_nr})"
            if e.dst
            else "(None, 0)"
            for e in self.graph.next_of(fid)
        ]
        rows.append(("next_functions", ", ".join(nexts) or "()"))
        for sid in info.saved:
            slot = self.graph.saved[sid]
            t = self.graph.tensors.get(slot.tensor) if slot.tensor else None
            if t is None:
                text = slot.state
            else:
                name = f"{t.name} " if t.name else ""
                version = slot.saved_version or 0
                text = (
                    f"{name}{tuple(t.shape or ())} {t.dtype}, saved at version "
                    f"{version}: {t.value}"
                )
            rows.append((slot.attr, text))
        for key, value in info.attrs.items():
            rows.append((f"_saved_{key}", value))
        if info.variable:
            rows.append(("variable", self._names.get(info.variable, "leaf")))
        if frame is not None and frame.node_id == fid:
            rows.append(("grads in", _grads(frame.grads_in)))
            rows.append(("grads out", _grads(frame.grads_out)))
            for hook in frame.hooks:
                rows.append(("hook fired", hook))
            for name, grad in frame.accumulated:
                rows.append((f"{name}.grad =", value_preview(grad)))
            for name, grad in frame.retained:
                rows.append((f"{name}.grad (retain_grad) =", value_preview(grad)))
            if frame.released:
                rows.append(("freed", ", ".join(frame.released)))
            if frame.error:
                rows.append(("error", frame.error))
            if frame.note:
                rows.append(("note", frame.note))
        title = info.name
        if frame is not None and frame.node_id == fid:
            title = f"Step {frame.index + 1}: {info.name}"
        return {"title": title, "rows": rows}

    # -------------------------------------------------------------- export
    def save(self, path: str | Path, fmt: str | None = None, **options: Any) -> Path:
        """Export every step: ``"steps.html"`` (one self-contained page that
        steps with no kernel and no network), ``"steps.pdf"`` (one page per
        step, for slides), ``"steps.gif"`` (needs Pillow), or a folder with
        ``fmt="png"`` / ``"svg"`` (``frame_000.png``...: before, then each step).

        If the pass is not over, the rest of backward runs first (so ``.grad``
        is final afterwards); the frame on display does not change. Options:
        ``theme``, ``size``, ``dpi``, ``view``, ``legend``, ``frame_ms`` (see
        `viz.export.save`).
        """
        from .export import save

        return save(self, path, fmt, **options)

    # ------------------------------------------------------------- display
    def widget(self) -> Any:
        """The Jupyter widget (created once; needs ipywidgets and anywidget)."""
        if self._widget is None:
            from .widgets.stepper_widget import StepperWidget

            self._widget = StepperWidget(self)
            # a closed widget (its comm gone) stops a pass under way
            self._widget.observe(lambda c: c["new"] is None and self.close(), "comm")
        return self._widget

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Any:
        try:
            return self.widget()._repr_mimebundle_(include=include, exclude=exclude)
        except ImportError as exc:  # no widget support: show the picture
            warnings.warn(f"stepper widget unavailable ({exc})", stacklevel=2)
            return self.drawing._repr_mimebundle_(include, exclude)

    def __repr__(self) -> str:
        state = "done" if self.done else f"{self.step} of about {self.total} nodes run"
        return f"<BackwardStepper: {state}, showing frame {self.position}>"


def _hook_name(hook: Any) -> str:
    return getattr(hook, "__qualname__", None) or type(hook).__name__


def _grads(grads: tuple) -> str:
    return ", ".join("None" if g is None else value_preview(g) for g in grads) or "()"


def _tensor_label(tensor: Any, graph: Graph) -> str:
    fn = getattr(tensor, "grad_fn", None)
    fid = graph.node_ids.get(id(fn)) if fn is not None else None
    nr = getattr(tensor, "output_nr", 0)
    for t in graph.tensors.values():
        if t.producer == (fid, nr):
            return t.label
    return "tensor"
