"""Step through the real backward pass, one node at a time.

``BackwardStepper(loss)`` draws the backward graph once, then each ``next()``
runs exactly one node of minigrad's engine (its step iterator, the same engine
``loss.backward()`` drains). After step k, ``w.grad`` in the notebook is exactly
what the engine has written so far. ``prev()`` and ``goto()`` revisit earlier
frames for display only: the engine never runs backwards.

Each executed node becomes a `Frame`: plain data saying which node ran, the
gradients it received and sent, the hooks that fired, what ``.grad`` it wrote,
what it freed, and which drawing ids to highlight (running node, edges the
gradients flowed along, ready queue, nodes done). A frame is the engine's state
*after* that step, so it also carries what the picture overlays: the value on
each edge just travelled, the leaves' ``.grad``, the saved slots freed, the
nodes still waiting for gradients ("2 of 3 arrived") and the ready queue in the
engine's order. The widget and the exports only read frames and the stepper's
public methods (`describe`, `describe_node`, `describe_tensor`, `overlay`,
`svg`, `picture`, `leaf_of`).
"""

from __future__ import annotations

import dataclasses
import itertools
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import render
from .dot import beginner_attrs, blank_grad
from .drawing import Drawing, Options
from .graph import (
    MORE_ID,
    Fold,
    Graph,
    build_graph,
    edge_id,
    module_of,
    node_name,
    shape_label,
    value_preview,
)
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
    # what the picture overlays (drawing ids -> short texts)
    edge_values: dict[str, str] = field(default_factory=dict)  # edge -> gradient
    leaf_grads: dict[str, str] = field(default_factory=dict)  # tensor -> its .grad
    freed: list[str] = field(default_factory=list)  # saved slots released
    # node -> [gradients arrived, gradients expected, its input buffer]
    waiting: dict[str, list] = field(default_factory=dict)
    queue: list[tuple[str, int]] = field(default_factory=list)  # (id, seq nr)
    # folded blocks (drawn id -> "× 100: repeat 37 of 100 running (36 done)")
    # and the repeat each one shows
    folds: dict[str, str] = field(default_factory=dict)
    fold_repeat: dict[str, int] = field(default_factory=dict)

    def highlight(self, view: str = "backward") -> dict[str, list[str]]:
        """Drawing ids by role, for the backward or the forward view. A node
        of a folded repeat lights the node standing for it in the drawn
        block (done: only the repeat the block shows); a node inside a
        module box lights the box (done once all of it ran)."""
        roles = {
            "running": [self.node_id],
            "ready": list(self.ready_ids),
            "done": list(self.done_ids),
            "flow": list(self.flow) if view != "forward" else [],
            "written": list(self.written),
            "error": [self.node_id] if self.error else [],
        }
        if self._stand_ins is not None:
            roles = self._stand_ins.roles(roles, self, view)
        if view == "forward":
            for role in ("running", "ready", "done", "error"):
                roles[role] = [self._forward_id(i) for i in roles[role]]
            return _every_copy(roles, self._drawn_forward)
        return _every_copy(roles, self._drawn)

    # AccumulateGrad is drawn in the forward view as its leaf tensor
    _leaf_of: dict[str, str] = field(default_factory=dict, repr=False)
    # model id -> its drawn ids, for ids drawn more than once (Drawing.drawn_ids)
    _drawn: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _drawn_forward: dict[str, list[str]] = field(default_factory=dict, repr=False)
    # what stands for nodes the drawing does not show (`StandIns`)
    _stand_ins: StandIns | None = field(default=None, repr=False)

    def _forward_id(self, fid: str) -> str:
        return self._leaf_of.get(fid, fid)


def _every_copy(
    roles: dict[str, list[str]], drawn: dict[str, list[str]]
) -> dict[str, list[str]]:
    """A shared leaf drawn once per use lights up in every copy."""
    return {r: [d for i in ids for d in drawn.get(i, (i,))] for r, ids in roles.items()}


class StandIns:
    """What the picture shows for nodes it does not draw one by one: a node
    of a folded repeat is stood for by its twin in the drawn block, a node
    inside a module box (``depth=``) by the box, a node `truncated` left out
    by the "N more" box. Per view, as model id -> drawn model id."""

    def __init__(self, backward: Graph, forward: Graph, graph: Graph) -> None:
        self.folds: dict[str, Fold] = {f.id: f for f in backward.folds}
        self.repeat_of: dict[str, tuple[str, int]] = {
            i: (f.id, r) for f in backward.folds for i, r in f.repeat_of.items()
        }
        self.per_repeat = {
            f.id: f.nodes_per_repeat(graph.functions) for f in backward.folds
        }
        self.boxes = {b.id: set(b.functions) for b in backward.boxes.values()}
        self.view: dict[str, dict[str, str]] = {}
        for name, shown in (("backward", backward), ("forward", forward)):
            stand: dict[str, str] = {}
            for f in shown.folds:
                stand.update(f.twin)
            for b in shown.boxes.values():
                stand.update(dict.fromkeys(b.functions, b.id))
                stand.update(dict.fromkeys(b.params, b.id))
            if shown.hidden:  # `truncated`: the rest is one box
                for fid in graph.functions:
                    if fid not in shown.functions and fid not in stand:
                        stand[fid] = MORE_ID
            self.view[name] = stand
        # runs so far per fold and repeat, while frames are made
        self._runs = {f: [0] * fold.count for f, fold in self.folds.items()}
        self._shows: dict[str, int] = {}

    @staticmethod
    def of(stepper_drawings: tuple[Drawing, Drawing], graph: Graph) -> StandIns | None:
        """None when every node is drawn as itself."""
        shown = [d._shown_graph(d._resolved(export=False)) for d in stepper_drawings]
        if all(s is graph for s in shown):
            return None
        return StandIns(shown[0], shown[1], graph)

    def ran(self, fid: str) -> tuple[dict[str, str], dict[str, int]]:
        """Count node ``fid`` as run; the folds' notes and shown repeats now."""
        where = self.repeat_of.get(fid)
        if where is not None:
            fold_id, r = where
            self._runs[fold_id][r] += 1
            self._shows[fold_id] = r
        notes = {}
        for fold_id, fold in self.folds.items():
            runs, size = self._runs[fold_id], self.per_repeat[fold_id]
            done = sum(n == size for n in runs)
            n = fold.count
            if fold_id not in self._shows:
                notes[fold_id] = f"× {n}: none of the {n} repeats has run yet"
            elif done == n:
                notes[fold_id] = f"× {n}: all {n} repeats done"
            else:
                r = self._shows[fold_id]
                now = " running" if where is not None and where[0] == fold_id else ""
                notes[fold_id] = f"× {n}: repeat {r + 1} of {n}{now} ({done} done)"
        return notes, dict(self._shows)

    def shown(self, i: str, frame: Frame) -> bool:
        """``i`` is not in a folded repeat, or in the one the block shows."""
        where = self.repeat_of.get(i)
        return where is None or frame.fold_repeat.get(where[0], 0) == where[1]

    def block(self, fold_ids: list[str]) -> list[str]:
        """The drawn ids (nodes, slots, own leaves) of these folds' blocks."""
        wanted = set(fold_ids)
        return [i for i, (f, r) in self.repeat_of.items() if f in wanted and r == 0]

    def to(self, i: str, view: str = "backward") -> str:
        return self.view[view].get(i, i)

    def roles(
        self, roles: dict[str, list[str]], frame: Frame, view: str
    ) -> dict[str, list[str]]:
        """``roles`` in drawn ids: each id through its stand-in, "done" only
        for the repeat on display, a module box done once all of it is."""
        out = {r: list(dict.fromkeys(self.to(i, view) for i in ids))
               for r, ids in roles.items() if r != "done"}  # fmt: skip
        done_set = set(roles["done"])
        done: dict[str, None] = {}
        for i in roles["done"]:
            if not self.shown(i, frame):
                continue
            d = self.to(i, view)
            if d in self.boxes and not self.boxes[d] <= done_set:
                continue
            done[d] = None
        out["done"] = list(done)
        return out


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
    Other keyword arguments go to the drawing (``theme``, ``rankdir``,
    ``fold``, ``depth``...): a big graph folds its repeated blocks and the
    drawn block stands for the repeat that runs (see `StandIns`).
    In Jupyter the stepper shows itself as a widget (see `widget()`). A graph
    of modules too big for a laptop's screen is shown there with its modules
    as boxes a click opens (`fit_screen`), unless ``depth`` is given:
    ``depth=None`` draws every node.
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
        # A big graph folds (fold=None: above dot.FOLD_ABOVE nodes) as in a
        # drawing: the drawn block then stands for the repeat that runs
        # (`StandIns`), so the running node is always on the picture.
        self.graph: Graph = build_graph(targets, params=params)
        # A grad cell is empty until the step that writes that .grad has run
        # (the widget tags it then, frame exports fill it in): "None" on every
        # frame read as if the gradient never came.
        for t in self.graph.tensors.values():
            if t.grad is None and ((t.requires_grad and t.is_leaf) or t.retains_grad):
                t.grad = blank_grad(t)
        options = Options(id_prefix=prefix, **drawing_options)
        self.drawing = Drawing(self.graph, "backward", options)
        self.forward_drawing = Drawing(self.graph, "forward", options)
        pass_options = {"create_graph": create_graph, "inputs": inputs}
        if autograd_grad:  # only PyTorch's engine steps autograd.grad
            pass_options["autograd_grad"] = True
        self._task = backward_steps(targets, gradient, retain_graph, **pass_options)
        # `fit_screen` leaves a depth the teacher chose (None included) alone
        self._depth_given = "depth" in drawing_options
        self._screen_fitted = False
        self.screen_note = ""  # why the screen draws modules as boxes, if it does
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
        # the drawings per options (the opened boxes, the depth): closing a box
        # again shows the picture laid out before, not a new layout
        self._drawings = {self.drawing.options: (self.drawing, self.forward_drawing)}
        self._opened: dict[str, str] = {}  # opened box -> its title when closed
        self._use_drawings()
        self._made = {
            t.producer: tid for tid, t in self.graph.tensors.items() if t.producer
        }
        # The engine's dependency counts before the first step: how many
        # gradients each node waits for (the badges "2 of 3 arrived").
        self._expected = {
            self._id(n): count for n, count in _engine_deps(self._task).items()
        }
        reachable = getattr(self._task, "nodes", None)
        self._total = len(reachable) if reachable else len(self.graph.functions)
        # a theme given here wins over the notebook's; a direction given here
        # is kept (else the widget may show the graph left to right to fit)
        self.theme: str | None = drawing_options.get("theme")
        self.rankdir: str | None = drawing_options.get("rankdir")
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
        """How many nodes the pass runs, known before the first step (the
        engine's reachable set); the steps so far if an error stopped it."""
        return self.step if self.error else max(self._total, self.step)

    @property
    def result(self) -> Any:
        """What ``autograd.grad`` returned (``autograd_grad=True``, pass over)."""
        return getattr(self._task, "result", None)

    @property
    def current(self) -> Frame | None:
        """The frame on display (None before the first step)."""
        return self.frames[self.position - 1] if self.position else None

    # ----------------------------------------------------------------- boxes
    def _use_drawings(self) -> None:
        """Read the stand-ins and copies of the drawings on display."""
        self._drawn_ids = self.drawing.drawn_ids
        self._drawn_forward_ids = self.forward_drawing.drawn_ids
        self._stand_ins = StandIns.of((self.drawing, self.forward_drawing), self.graph)

    def boxes(self, view: str = "backward") -> dict[str, dict[str, Any]]:
        """The boxes a click opens or closes, by drawn id: a module drawn as
        one box (``depth=``), a folded block, and those opened. Each says
        ``kind`` ("module" or "fold"), ``title``, ``open`` and, when open,
        ``cluster``: the drawn id of the frame around its nodes ("" when it
        has none, as an opened fold)."""
        drawing = self.forward_drawing if view == "forward" else self.drawing
        o = drawing._resolved(export=False)
        shown = drawing._shown_graph(o)
        out: dict[str, dict[str, Any]] = {}
        for bid, box in shown.boxes.items():
            if bid in shown.functions:
                out[bid] = {"kind": "module", "title": box.title, "open": False}
        for fold in shown.folds:
            title = f"× {fold.count} block"
            out[fold.id] = {"kind": "fold", "title": title, "open": False}
        for bid in sorted(o.expand):
            module = bid.startswith("module-")
            cluster = f"cluster-{bid}" if module else ""
            out[bid] = {
                "kind": "module" if module else "fold",
                "title": self._opened.get(bid, bid),
                "open": True,
                "cluster": cluster,
            }
        return out

    def expand(self, box: str) -> None:
        """Draw the module box or folded block ``box`` (a drawn id, see
        `boxes`) open: a module's submodules as boxes and its own nodes, a
        fold's every repeat. The pass and its frames stay as they are."""
        known = self.boxes()
        if box not in known:
            raise ValueError(
                f"no box {box!r} to open; the drawing has {sorted(known) or 'none'}"
            )
        if known[box]["open"]:
            return
        self._opened[box] = known[box]["title"]
        self.show_expanded(self.drawing.options.expand | {box})

    def collapse(self, box: str) -> None:
        """Close an opened box again (and the boxes opened inside it)."""
        opened = self.drawing.options.expand
        if box not in opened:
            raise ValueError(f"{box!r} is not open; open boxes: {sorted(opened)}")
        inside = {b for b in opened if b.startswith(box + ".")}
        self.show_expanded(opened - {box} - inside)

    @property
    def stand_ins(self) -> StandIns | None:
        """What stands in for the folded repeats and collapsed boxes of the
        drawing on show (None when every node is drawn as itself)."""
        return self._stand_ins

    def show_expanded(self, expand: frozenset[str]) -> None:
        """Draw with exactly the boxes in ``expand`` opened (the frames stay)."""
        self._show(dataclasses.replace(self.drawing.options, expand=frozenset(expand)))

    def fit_screen(self) -> int | None:
        """Before the stepper is first shown on a screen (`widget`): when its
        graph has modules (parameters named ``fc1.weight``...) and none of
        the screen's layouts shows it whole on a laptop (`SCREEN_ROOM` at
        `SCREEN_MIN_ZOOM`), draw each module as one box (``depth=``, the
        deepest that fits, else 1), which a click opens; `screen_note` says
        so. Exports show what the screen shows, as after a click on a box.
        Nothing changes when ``depth`` was given (``depth=None`` included),
        a box is open, or it ran before. Returns the depth drawn."""
        if self._screen_fitted or self._depth_given or self.drawing.options.expand:
            return self.drawing.options.depth
        self._screen_fitted = True
        depth = screen_depth(self.drawing, self.rankdir is not None)
        if depth is not None:
            self._show(dataclasses.replace(self.drawing.options, depth=depth))
            self.screen_note = (
                f"modules drawn as boxes (depth={depth}) to fit the screen: "
                "click a box to open it"
            )
        return depth

    def _show(self, options: Options) -> None:
        """Draw with ``options`` (the frames stay, their highlights follow)."""
        if options not in self._drawings:
            self._drawings[options] = (
                Drawing(self.graph, "backward", options),
                Drawing(self.graph, "forward", options),
            )
        self.drawing, self.forward_drawing = self._drawings[options]
        self._use_drawings()
        # the frames light what this drawing shows; a fold's notes are
        # counted again over the nodes run, in order
        stand = self._stand_ins
        for frame in self.frames:
            frame._drawn = self._drawn_ids
            frame._drawn_forward = self._drawn_forward_ids
            frame._stand_ins = stand
            frame.folds, frame.fold_repeat = {}, {}
            if stand is not None and frame.error is None:
                frame.folds, frame.fold_repeat = stand.ran(frame.node_id)
        if self._widget is not None:
            self._widget.redraw()

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
        incoming = _next_inputs(self._task)
        try:
            event = next(self._task)
        except StopIteration:
            return
        except Exception as exc:  # shown on the frame that raised it
            node = self._task.running
            self.error = f"{type(exc).__name__}: {exc}"
            frame = self._frame_for(node, len(self.frames))
            frame.error = self.error
            frame.grads_in = incoming  # what arrived before it raised
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
            _stand_ins=self._stand_ins,
        )

    def _frame_from(self, ev: Any) -> Frame:
        frame = self._frame_for(ev.node, ev.index)
        fid = frame.node_id
        self._done_ids.append(fid)
        frame.done_ids = list(self._done_ids)
        if self._stand_ins is not None:
            frame.folds, frame.fold_repeat = self._stand_ins.ran(fid)
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
                frame.leaf_grads[leaf] = compact_value(grad)
        for tensor, grad in ev.retained:
            frame.retained.append((_tensor_label(tensor, self.graph), grad))
        frame.released = [f"_saved_{n}" for n in ev.released]
        frame.note = getattr(ev, "note", None)
        self._overlay(frame, ev)
        return frame

    def _overlay(self, frame: Frame, ev: Any) -> None:
        """What the picture shows on top of the roles after this step."""
        fid = frame.node_id
        for i, g in enumerate(ev.grads_out):
            if g is not None:
                frame.edge_values[edge_id(fid, i)] = compact_value(g)
        info = self.graph.functions.get(fid)
        if ev.released and info is not None:  # a node frees all its slots at once
            frame.freed = list(info.saved)
        left = _engine_deps(self._task)
        buffers = getattr(self._task, "buffers", {})
        for node, count in left.items():
            nid = self._id(node)
            expected = self._expected.get(nid, count)
            if 0 < count < expected:
                buffered = buffers.get(node) or ()
                text = ", ".join(
                    "None" if g is None else compact_value(g) for g in buffered
                )
                frame.waiting[nid] = [expected - count, expected, text]
        frame.queue = [(self._id(n), _sequence_nr(n)) for n in ev.ready]

    def _changed(self) -> None:
        if self._widget is not None:
            self._widget.refresh()

    # ------------------------------------------------------------ the panel
    def describe(self, frame: Frame | None = None) -> dict[str, Any]:
        """The detail panel's content for a frame, as plain data: ``title``,
        ``step`` ("Step 3 of 8"), ``formula``, ``chain`` and ``rows``."""
        frame = frame or self.current
        if frame is None:
            return {
                "title": "Before backward",
                "step": f"Step 0 of {self.total}",
                "rows": [("next", "press Next to run the first node")],
            }
        return self.describe_node(frame.node_id, frame)

    def headline(self, fid: str) -> str:
        """A node named by what it computes: ``MulBackward0 — l3 = l1 * w3``."""
        info = self.graph.functions.get(fid)
        if info is None:
            return fid
        if info.is_accumulate_grad:
            leaf = self._names.get(info.variable or "", "leaf")
            return f"AccumulateGrad — {leaf}.grad += incoming gradient"
        args = [self._input_name(e) for e in self.graph.next_of(fid)]
        out = self._made.get((fid, 0))
        named = [n for n in args if n[0] != "("]
        if not named and not (
            out and self.graph.tensors[out].name
        ):  # nothing the student called by name: the name alone
            return info.name
        op = info.op
        symbol = _INFIX.get(op)
        if symbol and len(args) == 2:
            expr = f"{args[0]} {symbol} {args[1]}"
        else:
            expr = f"{op.lower()}({', '.join(args)})"
        lhs = self.graph.tensors[out].name if out else None
        return f"{info.name} — {lhs} = {expr}" if lhs else f"{info.name} — {expr}"

    def _input_name(self, edge: Any) -> str:
        """The forward input behind one ``next_functions`` edge."""
        if edge.dst is None:
            return "const"
        dst = self.graph.functions[edge.dst]
        if dst.is_accumulate_grad:
            return self._names.get(dst.variable or "", "leaf")
        tid = self._made.get((edge.dst, edge.output_nr))
        return self._names.get(tid or "", "tensor")

    def _destination(self, edge: Any) -> str:
        """Where a gradient goes: ``AccumulateGrad (w1)``, ``AddBackward0 (l2)``."""
        if edge.dst is None:
            return "nowhere (no grad needed)"
        name = self.graph.functions[edge.dst].name
        return f"{name} ({self._input_name(edge)})"

    def describe_node(
        self, fid: str, frame: Frame | None = None, position: int | None = None
    ) -> dict[str, Any]:
        """What the panel shows for node ``fid`` (with ``frame``'s values when
        that frame ran it) after ``position`` steps (default: the frame on
        display); a tensor's id gives `describe_tensor`."""
        position = self.position if position is None else position
        info = self.graph.functions.get(fid)
        if info is None:
            return self.describe_tensor(fid, position)
        rows: list[tuple[str, str]] = []
        edges = self.graph.next_of(fid)
        nexts = [
            f"({self.graph.functions[e.dst].name}, {e.output_nr})"
            if e.dst
            else "(None, 0)"
            for e in edges
        ]
        rows.append(("next_functions", ", ".join(nexts) or "()"))
        freed = set(self.freed_slots(position))
        for sid in info.saved:
            slot = self.graph.saved[sid]
            t = self.graph.tensors.get(slot.tensor) if slot.tensor else None
            if sid in freed:
                text = "freed (released after this node ran)"
            elif t is None:
                text = slot.state
            else:
                name = f"{t.name} " if t.name else ""
                version = slot.saved_version or 0
                text = (
                    f"{name}{tuple(t.shape or ())} {t.dtype}, saved at version "
                    f"{version}: {t.value}"
                )
            rows.append((slot.attr, text))
        expert = self.drawing.options.detail == "expert"
        attrs = info.attrs.items() if expert else beginner_attrs(info)
        rows.extend((f"_saved_{key}", value) for key, value in attrs)
        if info.variable:
            rows.append(("variable", self._names.get(info.variable, "leaf")))
        out: dict[str, Any] = {"title": self.headline(fid), "rows": rows}
        formula = _formula(frame.node if frame is not None else None)
        if frame is None or frame.node_id != fid:
            shown = self.frames[position - 1] if position else None
            waiting = shown.waiting.get(fid) if shown else None
            if waiting:
                rows.append(("gradients", f"{waiting[0]} of {waiting[1]} arrived"))
                rows.append(("input buffer", waiting[2]))
            return out
        out["step"] = f"Step {frame.index + 1} of {self.total}"
        if formula:
            out["formula"] = formula
        out_tid = self._made.get((fid, 0))
        chain = _chain_line(
            frame,
            (self.graph.tensors[out_tid].name if out_tid else None) or "out",
            [self._input_name(e) for e in edges],
        )
        if chain:
            out["chain"] = chain
        for k, g in enumerate(frame.grads_in):
            key = "grad in" if len(frame.grads_in) == 1 else f"grad in [{k}]"
            rows.append((key, "None" if g is None else value_preview(g)))
        if frame.error and not frame.grads_in:
            rows.append(("grad in", "(nothing had arrived)"))
        for e, g in zip(edges, frame.grads_out):
            rows.append((f"-> {self._destination(e)}", _grads((g,))))
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
        return out

    def describe_tensor(self, tid: str, position: int | None = None) -> dict[str, Any]:
        """A tensor box (leaf, non-leaf, output or saved slot) in the panel:
        name, shape, dtype, values, version, requires_grad, is_leaf, ``.grad``
        at the frame on display, the node that made it, the nodes that saved it."""
        slot = self.graph.saved.get(tid)
        if slot is not None:
            tid = slot.tensor or ""
        t = self.graph.tensors.get(tid)
        if t is None:
            title = slot.attr if slot is not None else tid
            return {"title": title, "rows": [("state", slot.state if slot else "?")]}
        position = self.position if position is None else position
        grad = self.grads_at(position).get(tid)
        maker = self.graph.functions.get(t.producer[0]) if t.producer else None
        savers = [
            f"{self.graph.functions[s.node].name} ({s.attr})"
            for s in self.graph.saved.values()
            if s.tensor == tid
        ]
        rows = [
            ("name", t.name or "(unnamed)"),
            ("shape", shape_label(t.shape)),
            ("dtype", t.dtype),
            ("values", t.value),
            ("_version", "?" if t.version is None else str(t.version)),
            ("requires_grad", str(t.requires_grad)),
            ("is_leaf", str(t.is_leaf)),
            (".grad now", grad or "None"),
            ("made by", maker.name if maker else "(a leaf: nobody)"),
            ("saved by", ", ".join(savers) or "(no node)"),
        ]
        if slot is not None:
            freed = slot.id in self.freed_slots(position)
            rows.insert(0, ("slot", f"{slot.attr}, {'freed' if freed else 'saved'}"))
        return {"title": f"tensor {t.label}", "rows": rows}

    def grads_at(self, position: int | None = None) -> dict[str, str]:
        """Tensor id -> its ``.grad`` as drawn, after ``position`` steps."""
        position = self.position if position is None else position
        grads: dict[str, str] = {}
        for frame in self.frames[:position]:
            grads.update(frame.leaf_grads)
        return grads

    def freed_slots(self, position: int | None = None) -> list[str]:
        """Saved slots released within the first ``position`` steps."""
        position = self.position if position is None else position
        return [sid for frame in self.frames[:position] for sid in frame.freed]

    def overlay(self, frame: Frame | None = None) -> dict[str, Any]:
        """What the picture draws over the roles at a frame: edge values, the
        leaves' ``.grad`` so far, freed slots, waiting badges, the ready queue."""
        frame = frame or self.current
        if frame is None:
            return {}
        k = frame.index + 1
        out = {
            "edges": dict(frame.edge_values),
            "grads": self.grads_at(k),
            "freed": self.freed_slots(k),
            "waiting": {n: f"{a} of {b} gradients arrived" for n, (a, b, _t) in
                        frame.waiting.items()},
            "queue": [[nid, _seq_text(seq), self._short_name(nid)]
                      for nid, seq in frame.queue],
        }  # fmt: skip
        stand = self._stand_ins
        if stand is None:
            return out
        # in drawn ids; what builds up (grads, freed) only for the repeat shown;
        # a module box names each of its leaves ("0.bias.grad = ...; ...")
        grads: dict[str, str] = {}
        for i, v in out["grads"].items():
            if not stand.shown(i, frame):
                continue
            d = stand.to(i)
            if d in stand.boxes:
                line = f"{self._names.get(i, 'leaf')}.grad = {v}"
                grads[d] = f"{grads[d]}; {line}" if d in grads else line
            else:
                grads[d] = v
        return {
            "edges": {stand.to(i): v for i, v in out["edges"].items()},
            "grads": grads,
            "freed": [stand.to(i) for i in out["freed"] if stand.shown(i, frame)],
            "waiting": {stand.to(i): v for i, v in out["waiting"].items()},
            "queue": [[stand.to(i), *rest] for i, *rest in out["queue"]],
            "folds": dict(frame.folds),
        }  # fmt: skip

    def _short_name(self, fid: str) -> str:
        info = self.graph.functions.get(fid)
        if info is None:
            return "?"
        if info.is_accumulate_grad:
            return f"AccumulateGrad ({self._names.get(info.variable or '', 'leaf')})"
        return info.name

    @property
    def leaf_of(self) -> dict[str, str]:
        """AccumulateGrad id -> its leaf tensor's id (the forward drawing shows
        the leaf where the backward one shows its AccumulateGrad)."""
        return dict(self._leaf_of)

    def svg(
        self,
        view: str = "backward",
        theme: str | None = None,
        rankdir: str | None = None,
    ) -> str:
        """The drawing as the widget shows it, laid out once (``theme``
        overrides the stepper's, unless one was given explicitly to the
        stepper; ``rankdir`` lays it out in another direction, with the same
        ids). It is the screen's dense layout (see `dot.backward_dot`): the
        graph shares a laptop's height with the controls."""
        drawing = self.forward_drawing if view == "forward" else self.drawing
        if self.theme is not None:
            theme = None
        opts = drawing._resolved(export=False, theme=theme, rankdir=rankdir, dense=True)
        return screen_svg(drawing, opts)

    def wide_svg(self, view: str = "backward", theme: str | None = None) -> str:
        """`svg` laid out left to right, which the widget shows instead where
        it fits the room better; "" when none is offered (`screen_layouts`)."""
        drawing = self.forward_drawing if view == "forward" else self.drawing
        if self.theme is not None:
            theme = None
        return screen_layouts(drawing, self.rankdir is not None, theme=theme)[1]

    def other_svg(
        self,
        view: str = "backward",
        theme: str | None = None,
        rankdir: str | None = None,
    ) -> str:
        """`svg` with the leaves placed the other way (beside their
        AccumulateGrad or below it), which the widget shows where that fits
        its room better; "" when none is offered (`screen_variants`)."""
        drawing = self.forward_drawing if view == "forward" else self.drawing
        if self.theme is not None:
            theme = None
        opts = drawing._resolved(export=False, theme=theme, rankdir=rankdir, dense=True)
        return screen_variants(drawing, opts)[1]

    def picture(self, view: str = "backward") -> str:
        """The frame on display as one static SVG (the roles' classes and
        their CSS written into it): what a saved notebook shows with no kernel."""
        svg = self.svg(view)
        frame = self.current
        if frame is None:
            return svg
        from .widgets.roles import static_svg

        return static_svg(svg, self.drawing.options.id_prefix, frame.highlight(view))

    # -------------------------------------------------------------- export
    def save(self, path: str | Path, fmt: str | None = None, **options: Any) -> Path:
        """Export every step: ``"steps.html"`` (one self-contained page that
        steps with no kernel and no network), ``"steps.pdf"`` (one page per
        step, for slides), ``"steps.gif"`` (needs Pillow), or a folder with
        ``fmt="png"`` / ``"svg"`` (``frame_000.png``...: before, then each step).

        If the pass is not over, the rest of backward runs first (so ``.grad``
        is final afterwards); the frame on display does not change. Options:
        ``theme``, ``size``, ``title`` (above every frame's caption; on a
        slide where a drawing's slide has it), ``dpi``, ``view``, ``legend``,
        ``frame_ms`` (see `viz.export.save`).
        """
        from .export import save

        return save(self, path, fmt, **options)

    # ------------------------------------------------------------- display
    def widget(self) -> Any:
        """The Jupyter widget (created once; needs ipywidgets and anywidget).
        Its graph fits the screen first (`fit_screen`)."""
        if self._widget is None or self._widget.comm is None:  # none, or closed
            from .widgets.stepper_widget import StepperWidget

            self.fit_screen()
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

    def _ipython_display_(self) -> None:
        """In IPython: the widget's two outputs (its picture, then the widget),
        so a saved notebook shows the graph without a kernel."""
        try:
            widget = self.widget()
        except ImportError:  # no widget support: the picture alone
            from IPython.display import display

            display(self._repr_mimebundle_(), raw=True)
            return
        widget._ipython_display_()

    def __repr__(self) -> str:
        state = "done" if self.done else f"{self.step} of about {self.total} nodes run"
        return f"<BackwardStepper: {state}, showing frame {self.position}>"


# A drawing of more nodes is offered in its one direction only, and with its
# leaves below their AccumulateGrad: a second layout of a big graph costs more
# than it gains (a long loop laid out left to right is a strip far wider than
# any screen).
WIDE_MAX_NODES = 80
# The room the stepper's view has in JupyterLab 4 at 1366x768 (default layout,
# file browser open; px), and the view's least zoom (graph_view.js, MIN_ZOOM):
# of its two dense drawings the screen is given the one that fits this room
# best (`screen_svg`).
SCREEN_ROOM = (932, 577)
SCREEN_MIN_ZOOM = 0.7


def screen_svg(drawing: Drawing, opts: Options) -> str:
    """The stepper screen's drawing in ``opts``' direction: the dense layout
    (see `dot.backward_dot`) with each leaf beside its AccumulateGrad or a
    rank below it, whichever fits `SCREEN_ROOM` best: whole at
    `SCREEN_MIN_ZOOM` first, then as wide as the room at that zoom (no
    sideways panning), then at the larger scale. Lesson 03's seed graph:
    beside, 1272x797 px, whole (below: 1147x955); lesson 10's, whose three
    leaves share the bottom rank: below, 1136x611, whole (beside: 1437x469);
    lesson 11's loop: below, 1216x1299, across (beside: 1436x1191)."""
    return screen_variants(drawing, opts)[0]


def screen_variants(drawing: Drawing, opts: Options) -> tuple[str, str]:
    """`screen_svg`, and the drawing with its leaves placed the other way
    ("" when none is offered: a forward view, more than `WIDE_MAX_NODES`
    nodes, or both the same). The widget may show the second where its room
    is larger than a laptop's: lesson 11's loop is whole at 1920x1080 with
    its leaves beside (1436x1191 px), 20 px too tall with them below
    (1216x1299)."""
    below = drawing._svg_for(dataclasses.replace(opts, dense=True, leaf_beside=False))
    if drawing.view != "backward" or below.count('class="node') > WIDE_MAX_NODES:
        return below, ""  # (node kinds follow the class's first word)
    beside = drawing._svg_for(dataclasses.replace(opts, dense=True, leaf_beside=True))
    if beside == below:  # (no leaf to place: all of them in module boxes)
        return below, ""
    if _laptop_fit(beside) >= _laptop_fit(below):
        return beside, below
    return below, beside


def _laptop_fit(svg: str) -> tuple[bool, bool, float]:
    """How ``svg`` fits `SCREEN_ROOM`: whole at `SCREEN_MIN_ZOOM`, as wide as
    the room at that zoom, the scale that shows it whole."""
    w, h = (size * 4 / 3 for size in render.svg_size(svg))  # pt -> px
    scale = min(SCREEN_ROOM[0] / w, SCREEN_ROOM[1] / h)
    return scale >= SCREEN_MIN_ZOOM, SCREEN_ROOM[0] / w >= SCREEN_MIN_ZOOM, scale


def screen_depth(drawing: Drawing, direction_given: bool) -> int | None:
    """The depth at which the stepper's screen draws modules as boxes
    (`BackwardStepper.fit_screen`): None when one of the screen's layouts
    (either leaf placement, or left to right where offered) is whole in
    `SCREEN_ROOM` at `SCREEN_MIN_ZOOM`, or the graph has no modules; else the
    deepest depth whose drawing is, or 1 (the fewest boxes). Lesson 09's
    training step: 2087x1280 px at best left to right 2037x897, at depth 1
    1115x711 (whole at 70%)."""

    def fits(d: Drawing) -> bool:
        opts = d._resolved(export=False, dense=True)
        shown = [*screen_variants(d, opts), screen_layouts(d, direction_given)[1]]
        return any(svg and _laptop_fit(svg)[0] for svg in shown)

    if drawing.view != "backward" or fits(drawing):
        return None
    paths = set(module_of(drawing.graph).values())
    if not paths:
        return None
    for depth in range(max(p.count(".") + 1 for p in paths), 1, -1):
        options = dataclasses.replace(drawing.options, depth=depth)
        if fits(Drawing(drawing.graph, drawing.view, options)):
            return depth
    return 1


def screen_layouts(
    drawing: Drawing, direction_given: bool, export: bool = False, **options: Any
) -> tuple[str, str]:
    """The stepper screen's drawing (`screen_svg`) as laid out, and the same
    drawing left to right: the widget and the HTML player show whichever fits
    their room (graph_view.js, arrange). The second is "" when the stepper
    was given a direction (``rankdir=``) or the drawing has more than
    `WIDE_MAX_NODES` nodes. ``options`` override the drawing's (``theme``...;
    ``export``: as in a saved file)."""
    opts = drawing._resolved(export=export, **options)
    top_down = screen_svg(drawing, opts)
    if direction_given or top_down.count('class="node') > WIDE_MAX_NODES:
        return top_down, ""
    return top_down, screen_svg(drawing, dataclasses.replace(opts, rankdir="LR"))


SMALL_TENSOR = 4  # up to this many numbers, values are drawn; else the shape


def compact_value(t: Any) -> str:
    """A gradient as drawn on an edge: its numbers when small, else its shape."""
    shape = tuple(getattr(t, "shape", ()))
    if int(np.prod(shape)) > SMALL_TENSOR:
        return "shape " + shape_label(shape)
    return " ".join(value_preview(t, max_chars=40).split())  # on one line


def _engine_deps(task: Any) -> dict:
    """The engine's dependency counts (node -> gradients still to come); empty
    for an engine that does not expose them."""
    return dict(getattr(task, "deps", None) or {})


def _next_inputs(task: Any) -> tuple:
    """The input buffer of the node the engine runs next (shown on an error
    frame, whose node raised before the engine reported what it received)."""
    ready = getattr(task, "ready", None)
    if not ready:
        return ()
    node = ready[0][-1]  # the ready heap's head: (-seq, counter, node)
    return tuple(getattr(task, "buffers", {}).get(node) or ())


def _seq_text(seq: int) -> str:
    # AccumulateGrad's number is UINT64_MAX in PyTorch and minigrad: it runs
    # as soon as it is ready
    return "max" if seq >= 2**63 else str(seq)


def _sequence_nr(node: Any) -> int:
    try:
        return int(node._sequence_nr())
    except Exception:  # a node type without one
        return -1


def _hook_name(hook: Any) -> str:
    return getattr(hook, "__qualname__", None) or type(hook).__name__


_INFIX = {"Mul": "*", "Add": "+", "Sub": "-", "Div": "/", "Pow": "**", "Mm": "@",
          "MatMul": "@", "Bmm": "@"}  # fmt: skip


def _formula(node: Any) -> str | None:
    """The op's rule: the first docstring line of a minigrad op class (torch
    nodes have none)."""
    cls = getattr(node, "_forward_cls", None)
    doc = (getattr(cls, "__doc__", None) or "").strip()
    return doc.splitlines()[0] if doc else None


def _numbers(t: Any) -> np.ndarray | None:
    """A small gradient's values (None when it is large or missing)."""
    if t is None or int(np.prod(tuple(getattr(t, "shape", ())))) > SMALL_TENSOR:
        return None
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t, dtype=float)


def _fmt(a: np.ndarray) -> str:
    """A number, or the one number of a tensor whose elements are all equal."""
    if a.size and np.all(a == a.flat[0]):
        return f"{a.flat[0]:.4g}"
    with np.printoptions(precision=4, suppress=True):
        return " ".join(np.array2string(a, separator=", ").split())


def _chain_line(frame: Frame, out_name: str, names: list[str]) -> str | None:
    """The chain rule with this step's numbers, for small tensors:
    ``dL/dl1 = dL/dl3 · ∂l3/∂l1 = 0.25 · 4.0 = 1.0``. The local derivative is
    read off the numbers (grad out / grad in) where the shapes agree."""
    g_in = _numbers(frame.grads_in[0]) if len(frame.grads_in) == 1 else None
    if g_in is None:
        return None
    parts = []
    for name, g in zip(names, frame.grads_out):
        g_out = _numbers(g)
        if g_out is None:
            continue
        if g_out.shape == g_in.shape and np.all(g_in != 0):
            local = _fmt(g_out / g_in)
            parts.append(
                f"dL/d{name} = dL/d{out_name} · ∂{out_name}/∂{name} = "
                f"{_fmt(g_in)} · {local} = {_fmt(g_out)}"
            )
        else:
            parts.append(f"dL/d{name} = {_fmt(g_out)} (dL/d{out_name} = {_fmt(g_in)})")
    return "; ".join(parts) or None


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
