"""Read an autograd graph into plain dataclasses.

`build_graph(outputs)` walks ``grad_fn`` / ``next_functions`` from the outputs and
records what it sees: function nodes, tensors, saved-tensor slots and edges. It
uses only PyTorch's public autograd surface (``grad_fn``, ``next_functions``,
``variable``, ``_saved_*``, ``name()``, ``metadata``, ``is_leaf``, ...), so the
same code reads real ``torch`` graphs and ``minigrad`` graphs. Nothing here
imports torch, minigrad or graphviz.

Both drawings come from this one model: the backward view draws it almost as
is; `forward_view()` turns it back into "tensors and the ops between them".

Ids (``f0``, ``t3``, ``f2-self``...) follow the walk order from the outputs, so
they depend only on the graph's structure and are stable from run to run.
"""

from __future__ import annotations

import copy
import dataclasses
import heapq
import inspect
import re
import warnings
import weakref
from collections import OrderedDict, deque
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

# Nodes = autograd nodes + saved tensors. 2,500 lays out in about 2 s.
DEFAULT_MAX_NODES = 2500


class GraphTooLargeError(ValueError):
    """The graph has more nodes than the caller allowed."""


# ------------------------------------------------- what viz reads from a graph


class AutogradNode(Protocol):
    """A grad_fn node as PyTorch exposes it (and minigrad mirrors).

    Also read when present: ``variable`` (AccumulateGrad's leaf), ``metadata``,
    ``_saved_<slot>`` properties, ``saved_tensors`` (custom Functions) and the
    hook dicts; they vary by node, so they are looked up by name."""

    @property
    def next_functions(self) -> tuple[tuple[AutogradNode | None, int], ...]: ...

    def name(self) -> str: ...


@runtime_checkable
class TensorLike(Protocol):
    """The tensor attributes the walk needs (`is_tensor` checks these).

    Also read when present: ``output_nr``, ``_version``, ``retains_grad``,
    ``grad``, ``dtype``, the hook dicts, and ``detach()``/``numpy()`` for the
    value preview."""

    @property
    def grad_fn(self) -> AutogradNode | None: ...

    @property
    def requires_grad(self) -> bool: ...

    @property
    def is_leaf(self) -> bool: ...

    @property
    def shape(self) -> tuple[int, ...]: ...


# --------------------------------------------------------------------------- model


@dataclass
class TensorInfo:
    """One tensor the walk met: an output, a leaf, a param or a saved tensor."""

    id: str
    name: str | None  # from params= or an output dict; None means "use the shape"
    shape: tuple[int, ...] | None  # None for tensors we only know exist
    dtype: str
    requires_grad: bool
    is_leaf: bool
    retains_grad: bool = False
    version: int | None = None
    # the values at walk time (`value_snapshot`); `value` formats them
    snapshot: np.ndarray | str | None = field(default=None, repr=False, compare=False)
    grad: str | None = None  # preview of .grad when it is populated
    hooks: int = 0  # tensor hooks (register_hook, post-accumulate hooks)
    is_output: bool = False
    producer: tuple[str, int] | None = None  # (function id, output_nr)

    @property
    def value(self) -> str:
        """A short preview of the values ("" when unknown)."""
        if not isinstance(self.snapshot, str):
            self.snapshot = "" if self.snapshot is None else preview_text(self.snapshot)
        return self.snapshot

    @property
    def kind(self) -> str:
        """One of "leaf" (requires grad), "nonleaf" or "constant" (no grad)."""
        if not self.requires_grad:
            return "constant"
        return "leaf" if self.is_leaf else "nonleaf"

    @property
    def label(self) -> str:
        return self.name if self.name is not None else shape_label(self.shape)


@dataclass
class SavedSlot:
    """What one node saved under one name: ``node._saved_<slot>``."""

    id: str  # "<function id>-<slot>"
    node: str  # function id
    slot: str  # "self", "other", "result", "indices[0]", ...
    tensor: str | None  # TensorInfo id; None when it can no longer be read
    state: str = "ok"  # "ok", "freed" (after backward) or "stale" (in-place)
    saved_version: int | None = None
    version_now: int | None = None  # stale slots: the tensor's version today
    detail: str = ""  # error text for freed / stale slots
    # a freed slot whose tensor is known from an earlier walk (`SLOT_MEMORY`)
    remembered: bool = False

    @property
    def attr(self) -> str:
        """The attribute to type: ``_saved_self`` or ``saved_tensors[0]``."""
        if self.slot == "tensors" or self.slot.startswith("tensors["):
            return "saved_" + self.slot
        return "_saved_" + self.slot


@dataclass
class FunctionInfo:
    """One grad_fn node (``MulBackward0``, ``AccumulateGrad``, ...)."""

    id: str
    name: str  # PyTorch's name, e.g. "MulBackward0", "AccumulateGrad"
    attrs: dict[str, str] = field(default_factory=dict)  # non-tensor saved values
    saved: list[str] = field(default_factory=list)  # SavedSlot ids
    variable: str | None = None  # AccumulateGrad only: the leaf's TensorInfo id
    hooks: int = 0
    metadata: dict[str, str] = field(default_factory=dict)

    @property
    def is_accumulate_grad(self) -> bool:
        return self.name == "AccumulateGrad"

    @property
    def op(self) -> str:
        """The forward op's name: ``MulBackward0`` -> ``Mul``."""
        return op_label(self.name)


@dataclass
class Edge:
    """``src.next_functions[input_nr] == (dst, output_nr)``; dst None = no grad."""

    id: str
    src: str
    dst: str | None
    input_nr: int
    output_nr: int


@dataclass
class Graph:
    functions: dict[str, FunctionInfo] = field(default_factory=dict)
    tensors: dict[str, TensorInfo] = field(default_factory=dict)
    saved: dict[str, SavedSlot] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)  # TensorInfo ids, in order
    shown_tensors: list[str] = field(default_factory=list)  # outputs, leaves, params
    # id(node object) -> function id, for tools that meet the same node objects
    # again (the stepper); valid while those nodes are alive.
    node_ids: dict[int, str] = field(default_factory=dict, repr=False, compare=False)
    # autograd nodes left out by `truncated` (drawn as one "N more" box)
    hidden: int = 0
    folds: list[Fold] = field(default_factory=list)  # repeated blocks drawn once
    # module path -> class name ("fc1" -> "Linear"), when params= was a Module
    module_kinds: dict[str, str] = field(default_factory=dict)
    # box id -> what a module drawn as one box stands for (`grouped`)
    boxes: dict[str, ModuleBox] = field(default_factory=dict)

    def use_of_edge(self) -> dict[str, str]:
        """Edge id -> the drawn id of the shared-leaf copy it points to.

        A leaf used by several nodes (a weight shared across the steps of a
        loop) is drawn once per using node, so no edge runs across the whole
        picture (those long edges are what make big layouts slow). Edges from
        the same node share a copy. Only shared AccumulateGrad nodes appear.
        """
        users: dict[str, list[str]] = {}
        for e in self.edges:
            if e.dst in self.functions and self.functions[e.dst].is_accumulate_grad:
                srcs = users.setdefault(e.dst, [])
                if e.src not in srcs:
                    srcs.append(e.src)
        out = {}
        for e in self.edges:
            srcs = users.get(e.dst or "", [])
            if len(srcs) > 1:
                out[e.id] = use_id(e.dst, srcs.index(e.src))
        return out

    def split_ids(self, leaf_copies: bool = True) -> dict[str, list[str]]:
        """Model id -> every drawn id, for shared leaves drawn once per use.

        Both the AccumulateGrad node and its leaf tensor map to their copies
        (``f3`` -> ``["f3", "f3-use2", ...]``); a tool that highlights ``f3``
        highlights all of them. Ids that are drawn once are absent.
        ``leaf_copies=False``: only the AccumulateGrad node is drawn once per
        use, its leaf once (a big drawing, see `dot.LIGHT_COPIES_ABOVE`).
        """
        uses: dict[str, int] = {}
        for drawn in self.use_of_edge().values():
            fid, _, k = drawn.partition(USE_SUFFIX)
            uses[fid] = max(uses.get(fid, 1), int(k or 1))
        out: dict[str, list[str]] = {}
        for fid, n in uses.items():
            out[fid] = [use_id(fid, k) for k in range(n)]
            variable = self.functions[fid].variable
            if variable is not None and leaf_copies:
                out[variable] = [use_id(variable, k) for k in range(n)]
        return out

    def next_of(self, fid: str) -> list[Edge]:
        """The edges of ``fid.next_functions``, in order."""
        return [e for e in self.edges if e.src == fid]

    def edges_by_src(self) -> dict[str, list[Edge]]:
        index: dict[str, list[Edge]] = {}
        for e in self.edges:
            index.setdefault(e.src, []).append(e)
        return index

    def multi_output(self) -> set[str]:
        """Function ids whose outputs are reached through more than one output_nr."""
        seen: dict[str, set[int]] = {}
        for e in self.edges:
            if e.dst is not None:
                seen.setdefault(e.dst, set()).add(e.output_nr)
        for t in self.tensors.values():
            if t.producer is not None:
                seen.setdefault(t.producer[0], set()).add(t.producer[1])
        return {fid for fid, nrs in seen.items() if nrs != {0}}


# ---------------------------------------------------------------- small helpers


def edge_id(src: str, input_nr: int) -> str:
    """The id of the edge ``src.next_functions[input_nr]`` in the drawing."""
    return f"e-{src}-{input_nr}"


USE_SUFFIX = "-use"


def use_id(did: str, k: int) -> str:
    """Drawn id of the k-th use (from 0) of a shared leaf: ``f3``, ``f3-use2``..."""
    return did if k == 0 else f"{did}{USE_SUFFIX}{k + 1}"


def op_label(node_name: str) -> str:
    """The forward op a drawing names for a node: ``MulBackward0`` -> ``Mul``,
    ``SumBackward1`` -> ``Sum`` (no overload number); names without
    ``Backward`` are kept. Not minigrad's ``_errors.forward_op_name``, which
    spells ops as PyTorch's error messages do (``Sum1``): viz draws torch
    graphs without importing minigrad, so it keeps this one line."""
    return re.sub(r"Backward\d*$", "", node_name) or node_name


def shape_label(shape: tuple[int, ...] | None) -> str:
    if shape is None:
        return "tensor"
    return str(tuple(shape))  # "(2, 2)", "(3,)", "()" as Python prints them


_TENSOR_TYPES: set[type] = set()


def is_tensor(obj: Any) -> bool:
    """Duck-typed: anything with the tensor attributes autograd needs
    (`TensorLike`; a runtime Protocol check is the same hasattr test). A
    type that passed once passes again: the Protocol check costs more than
    the rest of a node's visit."""
    if type(obj) in _TENSOR_TYPES:
        return True
    if isinstance(obj, TensorLike):
        _TENSOR_TYPES.add(type(obj))
        return True
    return False


def node_name(node: AutogradNode) -> str:
    """PyTorch's node name without a C++ namespace (``torch::autograd::``)."""
    try:
        name = str(node.name())
    except Exception:
        name = type(node).__name__
    return name.rsplit("::", 1)[-1]


def _to_numpy(t: Any) -> np.ndarray:
    d = t.detach() if hasattr(t, "detach") else t
    if hasattr(d, "cpu"):
        d = d.cpu()
    try:
        return np.asarray(d.numpy())
    except Exception:
        return np.asarray(d.tolist())


# Tensors up to this size keep a copy of their values and are formatted only
# when drawn (a folded loop draws a few of thousands); larger ones now.
LAZY_PREVIEW_SIZE = 4096


def value_snapshot(t: TensorLike) -> np.ndarray | str:
    """The values of ``t`` now: a copy of a small array (formatted later by
    `preview_text`), or the preview text itself for a large one."""
    try:
        arr = _to_numpy(t)
    except Exception as exc:  # e.g. a meta tensor
        return f"<{type(exc).__name__}>"
    return arr.copy() if arr.size <= LAZY_PREVIEW_SIZE else preview_text(arr)


def value_preview(t: TensorLike, max_chars: int = 60) -> str:
    """A few numbers of ``t`` (all of them when small)."""
    try:
        arr = _to_numpy(t)
    except Exception as exc:  # e.g. a meta tensor
        return f"<{type(exc).__name__}>"
    return preview_text(arr, max_chars)


def preview_text(arr: np.ndarray | str, max_chars: int = 60) -> str:
    """A few numbers of ``arr``; text (a snapshot's preview) is kept."""
    if isinstance(arr, str):
        return arr
    if arr.size == 0:
        return "[]"
    text = np.array2string(  # (arguments, not np.printoptions: 30% faster)
        arr,
        separator=", ",
        max_line_width=40,
        precision=4,
        threshold=12,
        edgeitems=2,
        suppress_small=True,
    )
    if len(text) > max_chars:
        text = text[: max_chars - 1] + "…"
    return text


def _dtype_name(t: Any) -> str:
    return str(getattr(t, "dtype", "")).rsplit(".", 1)[-1]


def _count_hooks(obj: Any, names: Iterable[str]) -> int:
    """Count registered hooks in the hook dicts/lists named ``names``."""
    total = 0
    for name in names:
        try:
            hooks = getattr(obj, name, None)
        except Exception:
            continue
        if isinstance(hooks, Mapping):
            for v in hooks.values():
                total += len(v) if isinstance(v, Mapping) else 1
        elif isinstance(hooks, (list, tuple)):
            total += len(hooks)
    return total


def _short_repr(value: Any, max_chars: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= max_chars else text[: max_chars - 1] + "…"


def _is_saved_attr(node: Any, name: str) -> bool:
    """``_saved_<slot>``, read through a property (not plain class data)."""
    if not name.startswith("_saved_"):
        return False
    if name in getattr(node, "__dict__", {}):
        return True
    try:
        static = inspect.getattr_static(type(node), name)
    except AttributeError:
        return True
    return hasattr(static, "__get__") and not callable(static)


_ATTR_NAMES: dict[tuple, tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _attr_names(node: AutogradNode) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(saved slot names, hook attribute names) of a node, ``self`` first.

    ``dir()`` and the property checks cost more than the rest of a node's
    visit; nodes of one class with the same instance attributes share them.
    """
    key = (type(node), tuple(getattr(node, "__dict__", ())))
    names = _ATTR_NAMES.get(key)
    if names is None:
        attrs = dir(node)
        saved = [n[len("_saved_") :] for n in attrs if _is_saved_attr(node, n)]
        saved.sort(key=lambda n: n != "self")  # dir() sorts; put `self` first
        hooks = [n for n in attrs if n.endswith("hooks") and n != "hooks"]
        names = _ATTR_NAMES[key] = (tuple(saved), tuple(hooks))
    return names


_VERSION_RE = re.compile(r"is at version (\d+); expected version (\d+)")


# ------------------------------------------------------- freed slots' memory


class _SlotMemory:
    """What each saved slot held when a graph was walked before backward().

    backward() frees saved tensors: reading ``_saved_self`` afterwards raises,
    so a later walk cannot tell which tensor a freed slot was, and the drawing
    would lose the slot's link (and the tensors only the slot reached), which
    moves every node. A walk that finds a freed slot it saw before keeps the
    slot's tensor, so the drawing keeps its structure (marked freed).

    Holds no graph object: a node is known by its id(), name and sequence
    number (`node_key`), a saved leaf by a weak reference. Only small graphs
    (lesson sized) are remembered, and only the most recent `MAX_NODES` nodes.
    """

    MAX_GRAPH = 300  # nodes in one walk; larger graphs are not remembered
    MAX_NODES = 1500  # nodes over all walks; the oldest are forgotten first

    def __init__(self) -> None:
        # node_key -> slot -> (tensor key, tensor info at save time,
        #                      producer's node_key and output_nr, leaf weakref)
        self.entries: OrderedDict[tuple, dict[str, tuple]] = OrderedDict()

    def remember(self, node: Any, slots: dict[str, tuple]) -> None:
        key = node_key(node)
        self.entries.pop(key, None)
        self.entries[key] = slots
        while len(self.entries) > self.MAX_NODES:
            self.entries.popitem(last=False)

    def recall(self, node: Any, slot: str) -> tuple | None:
        return self.entries.get(node_key(node), {}).get(slot)

    def clear(self) -> None:
        self.entries.clear()


def node_key(node: Any) -> tuple:
    """A node's identity without holding it: id() alone could be reused by a
    later node; the name and PyTorch's sequence number tell them apart."""
    try:
        seq = int(node._sequence_nr())
    except Exception:  # a node type without one
        seq = -1
    return id(node), node_name(node), seq


SLOT_MEMORY = _SlotMemory()


# ------------------------------------------------------------------- the walk


def _weak(obj: Any) -> Any:
    try:
        return weakref.ref(obj)
    except TypeError:  # no weak references: its id() cannot be trusted later
        return None


def _find_node(node: AutogradNode, key: tuple) -> AutogradNode | None:
    """The node known by ``key`` among ``node`` and its next functions (where
    the tensors a node saved come from: its inputs, or its own result)."""
    for candidate in (node, *(n for n, _ in node.next_functions)):
        if candidate is not None and node_key(candidate) == key:
            return candidate
    return None


def flatten_outputs(outputs: Any) -> list[tuple[str | None, TensorLike]]:
    """(name, tensor) pairs from a tensor or a nested tuple / list / dict."""
    found: list[tuple[str | None, TensorLike]] = []

    def visit(obj: Any, name: str | None) -> None:
        if is_tensor(obj):
            found.append((name, obj))
        elif isinstance(obj, Mapping):
            for k, v in obj.items():
                visit(v, str(k))
        elif isinstance(obj, (tuple, list)):
            for v in obj:
                visit(v, None)
        else:
            raise TypeError(
                "viz expects tensors (or tuples, lists or dicts of tensors), got "
                f"{type(obj).__module__}.{type(obj).__qualname__}"
            )

    visit(outputs, None)
    if not found:
        raise ValueError("viz needs at least one output tensor to draw")
    return found


def _module_kinds(params: Any) -> dict[str, str]:
    """Module path -> class name, when ``params`` is an ``nn.Module``."""
    if not hasattr(params, "named_modules"):
        return {}
    return {path: type(m).__name__ for path, m in params.named_modules() if path}


def _param_pairs(params: Any) -> list[tuple[str, TensorLike]]:
    if params is None:
        return []
    if hasattr(params, "named_parameters"):  # an nn.Module: its parameter names
        params = dict(params.named_parameters())
    pairs = list(params.items()) if isinstance(params, Mapping) else list(params)
    for name, t in pairs:
        if not is_tensor(t):
            raise TypeError(
                f"params[{name!r}] is not a tensor "
                f"({type(t).__module__}.{type(t).__qualname__})"
            )
    return [(str(n), t) for n, t in pairs]


class _Builder:
    """One breadth-first walk from the outputs; ids are given in walk order."""

    def __init__(
        self, params: list[tuple[str, TensorLike]], max_nodes: int, count_saved: bool
    ) -> None:
        self.g = Graph()
        self.max_nodes = max_nodes
        self.count_saved = count_saved
        self.fn_ids: dict[int, str] = {}  # id(node) -> function id
        self.tensor_ids: dict[tuple, str] = {}  # _key(tensor) -> tensor id
        self.alive: list[Any] = []  # keeps objects alive so id() stays unique
        self.queue: deque[AutogradNode] = deque()
        self.param_names = {self._key(t): name for name, t in params}
        self.params = params
        # id(node) -> its next_functions, read once by the size pre-walk
        # (PyTorch builds a new tuple per read)
        self.next_functions: dict[int, tuple] = {}
        self.nodes: dict[str, AutogradNode] = {}  # function id -> node
        self.slot_keys: dict[str, tuple] = {}  # readable slot id -> tensor key
        self.recalled: set[str] = set()  # tensor ids known only from memory

    # Identity of a tensor: leaves by object, results by (grad_fn, output_nr),
    # because PyTorch hands out a fresh object for a saved output.
    def _key(self, t: TensorLike) -> tuple:
        self.alive.append(t)
        fn = t.grad_fn
        if fn is None:
            return ("obj", id(t))
        self.alive.append(fn)
        return ("out", id(fn), int(getattr(t, "output_nr", 0)))

    def function_id(self, node: AutogradNode) -> str:
        fid = self.fn_ids.get(id(node))
        if fid is None:
            self._check_size()
            fid = self.fn_ids[id(node)] = f"f{len(self.fn_ids)}"
            self.alive.append(node)
            self.queue.append(node)
        return fid

    def _check_size(self) -> None:
        drawn = len(self.fn_ids) + (len(self.g.saved) if self.count_saved else 0)
        if drawn >= self.max_nodes:
            self.refuse()

    def refuse(self) -> None:
        """Raise `GraphTooLargeError`: the graph has more than max_nodes nodes."""
        what = "autograd nodes"
        if self.count_saved:
            what += " and saved tensors"
        raise GraphTooLargeError(
            f"this graph has more than {self.max_nodes} nodes ({what}); "
            "drawing it would be slow and unreadable. Draw a smaller part "
            "(e.g. one layer's output), or pass max_nodes=... to raise the limit."
        )

    def tensor(self, t: TensorLike, name: str | None = None) -> str:
        """Register ``t`` (once) and return its id."""
        key = self._key(t)
        tid = self.tensor_ids.get(key)
        if tid is not None and tid not in self.recalled:
            info = self.g.tensors[tid]
            if name is not None and info.name is None:
                info.name = name
            return tid
        if tid is None:
            tid = self.tensor_ids[key] = f"t{len(self.tensor_ids)}"
        else:  # known from memory so far, met alive now: read it afresh
            self.recalled.discard(tid)
            name = name if name is not None else self.g.tensors[tid].name
        is_leaf = bool(t.is_leaf)
        retains = bool(getattr(t, "retains_grad", False))
        grad = None
        if is_leaf or retains:  # reading .grad of other non-leaves warns
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                g = getattr(t, "grad", None)
            grad = None if g is None else value_preview(g)
        producer = None
        if t.grad_fn is not None:
            producer = (self.function_id(t.grad_fn), int(getattr(t, "output_nr", 0)))
        self.g.tensors[tid] = TensorInfo(
            id=tid,
            name=name if name is not None else self.param_names.get(key),
            shape=tuple(int(s) for s in t.shape),
            dtype=_dtype_name(t),
            requires_grad=bool(t.requires_grad),
            is_leaf=is_leaf,
            retains_grad=retains,
            version=getattr(t, "_version", None),
            snapshot=value_snapshot(t),
            grad=grad,
            hooks=_count_hooks(t, ("_backward_hooks", "_post_accumulate_grad_hooks")),
            producer=producer,
        )
        return tid

    def recall(self, node: AutogradNode, slot: str) -> str | None:
        """The tensor id of a freed slot that `SLOT_MEMORY` saw readable."""
        found = SLOT_MEMORY.recall(node, slot)
        if found is None:
            return None
        key, info, producer, leaf = found
        if key[0] == "obj" and (leaf is None or leaf() is None):
            key = ("gone", node_key(node), slot)  # its id() may be another's now
        tid = self.tensor_ids.get(key)
        if tid is None:
            tid = self.tensor_ids[key] = f"t{len(self.tensor_ids)}"
            info = copy.copy(info)
            info.id, info.grad, info.producer = tid, None, None
            info.name = self.param_names.get(key, info.name)
            if producer is not None:  # in walk order, as a live tensor would
                made_by = _find_node(node, producer[0])
                if made_by is not None:
                    info.producer = (self.function_id(made_by), producer[1])
            self.g.tensors[tid] = info
            self.recalled.add(tid)
        return tid

    def _remember(self) -> None:
        """Tell `SLOT_MEMORY` what each readable slot of a small graph holds."""
        if len(self.fn_ids) > SLOT_MEMORY.MAX_GRAPH:
            return
        for fid, node in self.nodes.items():
            held = {}
            for sid in self.g.functions[fid].saved:
                if sid in self.slot_keys:
                    key, t = self.slot_keys[sid]
                    nr = int(getattr(t, "output_nr", 0))
                    fn = t.grad_fn
                    producer = None if fn is None else (node_key(fn), nr)
                    info = self.g.tensors[self.g.saved[sid].tensor]
                    leaf = _weak(t) if fn is None else None
                    held[self.g.saved[sid].slot] = (key, info, producer, leaf)
            if held:
                SLOT_MEMORY.remember(node, held)

    def show(self, tid: str) -> None:
        if tid not in self.g.shown_tensors:
            self.g.shown_tensors.append(tid)

    def visit(self, node: AutogradNode) -> None:
        fid = self.fn_ids[id(node)]
        info = FunctionInfo(id=fid, name=node_name(node))
        self.g.functions[fid] = info
        self.nodes[fid] = node
        variable = getattr(node, "variable", None)
        if variable is not None and is_tensor(variable):
            info.variable = self.tensor(variable)
            self.show(info.variable)
        self._read_saved(node, info)
        info.hooks = _count_hooks(node, _attr_names(node)[1])
        meta = getattr(node, "metadata", None)
        if isinstance(meta, Mapping):
            info.metadata = {str(k): _short_repr(v) for k, v in meta.items()}
        nexts = self.next_functions.pop(id(node), None)
        if nexts is None:
            nexts = node.next_functions
        for i, (nxt, nr) in enumerate(nexts):
            dst = None if nxt is None else self.function_id(nxt)
            self.g.edges.append(Edge(edge_id(fid, i), fid, dst, i, int(nr)))

    def _read_saved(self, node: AutogradNode, info: FunctionInfo) -> None:
        names = list(_attr_names(node)[0])
        if not names and hasattr(node, "saved_tensors"):  # custom Function ctx
            names = ["tensors"]
        for slot in names:
            attr = "saved_tensors" if slot == "tensors" else f"_saved_{slot}"
            try:
                value = getattr(node, attr)
            except Exception as exc:  # freed by backward, or changed in place
                self._add_slot(info, slot, None, exc, node)
                continue
            if is_tensor(value):
                self._add_slot(info, slot, value)
            elif isinstance(value, (tuple, list)) and any(map(is_tensor, value)):
                for i, v in enumerate(value):
                    if is_tensor(v):
                        self._add_slot(info, f"{slot}[{i}]", v)
                    else:
                        info.attrs[f"{slot}[{i}]"] = _short_repr(v)
            elif slot != "tensors":  # a ctx with nothing saved shows nothing
                info.attrs[slot] = _short_repr(value)

    def _add_slot(
        self,
        info: FunctionInfo,
        slot: str,
        t: Any,
        exc: Exception | None = None,
        node: AutogradNode | None = None,
    ) -> None:
        self._check_size()
        sid = f"{info.id}-" + re.sub(r"[^A-Za-z0-9_]+", "-", slot).strip("-")
        s = SavedSlot(id=sid, node=info.id, slot=slot, tensor=None)
        if exc is None:
            s.tensor = self.tensor(t)
            s.saved_version = self.g.tensors[s.tensor].version
            self.slot_keys[sid] = (self._key(t), t)
        else:
            s.detail = str(exc).split(". ")[0]
            m = _VERSION_RE.search(str(exc))
            if m:
                s.state, s.saved_version = "stale", int(m.group(2))
                s.version_now = int(m.group(1))
            else:
                s.state = "freed"
                s.tensor = None if node is None else self.recall(node, slot)
                if s.tensor is not None:
                    s.remembered = True
                    s.saved_version = self.g.tensors[s.tensor].version
        self.g.saved[sid] = s
        info.saved.append(sid)

    def run(self, outputs: list[tuple[str | None, TensorLike]]) -> Graph:
        for name, t in outputs:
            tid = self.tensor(t, name)
            self.g.tensors[tid].is_output = True
            if tid not in self.g.outputs:
                self.g.outputs.append(tid)
            self.show(tid)
        while self.queue:
            self.visit(self.queue.popleft())
        # Named params inside the graph are drawn too (e.g. a named intermediate).
        for _, t in self.params:
            key = self._key(t)
            if key in self.tensor_ids or (key[0] == "out" and key[1] in self.fn_ids):
                self.show(self.tensor(t))
        self._remember()
        self.alive.clear()
        self.g.node_ids = dict(self.fn_ids)
        return self.g


def build_graph(
    outputs: Any,
    params: Any = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    count_saved: bool = True,
) -> Graph:
    """Walk the autograd graph behind ``outputs`` and return the model.

    ``outputs``: a tensor, or a tuple / list / dict of them (dict keys name them).
    ``params``: a dict (or pairs) name -> tensor, used to name tensors.
    Raises `GraphTooLargeError` as soon as more than ``max_nodes`` nodes
    (autograd nodes, plus saved tensors when ``count_saved``: the drawing
    shows them) are found, so a huge graph is refused quickly.
    """
    pairs = flatten_outputs(outputs)
    builder = _Builder(_param_pairs(params), max_nodes, count_saved)
    builder.g.module_kinds = _module_kinds(params)
    # A walk of next_functions alone is ~100x cheaper than the full walk (which
    # reads saved tensors and formats values): refuse a huge graph with it.
    seen: set[int] = set()
    todo = [t.grad_fn for _, t in pairs if t.grad_fn is not None]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if len(seen) >= max_nodes:
            builder.refuse()
        nexts = builder.next_functions[id(node)] = node.next_functions
        todo.extend(n for n, _ in nexts if n is not None)
    return builder.run(pairs)


MORE_ID = "more"  # the box standing for the nodes `truncated` left out


def truncated(g: Graph, keep: int) -> Graph:
    """The ``keep`` grad_fn nodes nearest the outputs; the rest become one box.

    Ids follow the breadth-first walk from the outputs, so the first ``keep``
    are the last ops of the forward pass (the loss, the last layers, the last
    steps of a loop). Edges into left-out nodes go to `MORE_ID`, and
    ``hidden`` says how many nodes that box stands for. AccumulateGrad nodes
    (and their leaves) are kept while a kept node uses them.
    """
    order = list(g.functions)
    kept = set(order[:keep])
    for e in g.edges:  # the leaves the kept ops read
        if (
            e.src in kept
            and e.dst is not None
            and g.functions[e.dst].is_accumulate_grad
        ):
            kept.add(e.dst)
    if len(kept) == len(order):
        return g
    out = derived(g)
    out.functions = {fid: f for fid, f in g.functions.items() if fid in kept}
    out.folds = [f for f in g.folds if kept.issuperset(f.shown)]
    out.hidden = len(order) - len(kept)
    for e in g.edges:
        if e.src in kept:
            dst = e.dst if e.dst is None or e.dst in kept else MORE_ID
            out.edges.append(Edge(e.id, e.src, dst, e.input_nr, e.output_nr))
    _keep_tensors(g, out)
    return out


def _keep_tensors(g: Graph, out: Graph) -> None:
    """Fill ``out``'s saved slots and tensors from ``g`` for the functions
    ``out`` kept: their saved slots, the leaves they accumulate into, the
    outputs, and the shown tensors they produce."""
    out.saved = {sid: s for sid, s in g.saved.items() if s.node in out.functions}
    variables = {f.variable for f in out.functions.values()}
    out.shown_tensors = [
        tid
        for tid in g.shown_tensors
        if tid in variables
        or g.tensors[tid].is_output
        or (g.tensors[tid].producer or ("",))[0] in out.functions
    ]
    needed = set(out.shown_tensors) | {s.tensor for s in out.saved.values()}
    out.tensors = {tid: t for tid, t in g.tensors.items() if tid in needed}


# ---------------------------------------------------------------- forward view


@dataclass
class ForwardEdge:
    id: str
    src: str
    dst: str
    index: int  # input position (tensor -> op) or output_nr (op -> tensor)


@dataclass
class ForwardView:
    """Tensors and the ops between them, as the student wrote the code."""

    ops: list[FunctionInfo]
    tensors: list[TensorInfo]
    edges: list[ForwardEdge]
    multi_output: set[str]
    folds: list[Fold] = field(default_factory=list)  # as in `Graph.folds`
    boxes: dict[str, ModuleBox] = field(default_factory=dict)  # `Graph.boxes`
    module_kinds: dict[str, str] = field(default_factory=dict)  # `Graph.module_kinds`
    # autograd nodes `truncated` left out: one box (`MORE_ID`) feeds the ops
    # whose inputs they made
    hidden: int = 0


def forward_view(g: Graph) -> ForwardView:
    """Rebuild the forward computation from the backward graph.

    Every grad_fn except AccumulateGrad is one op (``MulBackward0`` -> ``Mul``).
    Its inputs are what ``next_functions`` points to: a leaf (via AccumulateGrad's
    ``variable``) or another op's output. Intermediate tensors are known when
    they were saved, named in ``params`` or given as outputs; otherwise they are
    drawn without shape or values.

    Limitation: inputs that do not require grad (constants, python numbers)
    appear as ``None`` in ``next_functions``. They are shown only when the op
    saved them (e.g. ``x * w`` saves ``x``), matched to the ``None`` inputs in
    slot order; otherwise a placeholder "constant" is drawn.
    """
    tensors: dict[str, TensorInfo] = {}
    by_producer = {t.producer: t for t in g.tensors.values() if t.producer}
    edges: list[ForwardEdge] = []

    def output_of(fid: str, nr: int) -> str:
        t = by_producer.get((fid, nr))
        if t is None:  # an intermediate nobody kept: draw it without data
            f = g.functions[fid]
            t = TensorInfo(f"{fid}-out{nr}", None, None, "", True, False)
            t.producer = (fid, nr)
            by_producer[(fid, nr)] = t
            if f.is_accumulate_grad:  # unreachable in practice
                t.is_leaf = True
        tensors.setdefault(t.id, t)
        return t.id

    ops = [f for f in g.functions.values() if not f.is_accumulate_grad]
    next_edges = g.edges_by_src()
    for op in ops:
        constants = [
            g.saved[sid].tensor
            for sid in op.saved
            if g.saved[sid].tensor is not None
            and g.tensors[g.saved[sid].tensor].kind == "constant"
        ]
        for e in next_edges.get(op.id, []):
            if e.dst is None:
                if constants:
                    src = constants.pop(0)
                    tensors.setdefault(src, g.tensors[src])
                else:
                    src = f"{op.id}-in{e.input_nr}"
                    tensors[src] = TensorInfo(src, None, None, "", False, True)
            elif e.dst == MORE_ID:  # made by a node `truncated` left out
                src = MORE_ID
            elif g.functions[e.dst].is_accumulate_grad:
                src = g.functions[e.dst].variable or output_of(e.dst, 0)
                tensors.setdefault(src, g.tensors[src])
            else:
                src = output_of(e.dst, e.output_nr)
            fe_id = f"fe-{src}-{op.id}-{e.input_nr}"
            edges.append(ForwardEdge(fe_id, src, op.id, e.input_nr))
    for tid in g.shown_tensors:  # outputs and params, even if unused by any op
        tensors.setdefault(tid, g.tensors[tid])
    for t in list(tensors.values()):
        if t.producer is not None and t.producer[0] in g.functions:
            fid, nr = t.producer
            edges.append(ForwardEdge(f"fe-{fid}-{t.id}", fid, t.id, nr))
    multi = g.multi_output() - set(g.boxes)  # a box's outputs are not numbered
    return ForwardView(
        ops,
        list(tensors.values()),
        edges,
        multi,
        g.folds,
        g.boxes,
        g.module_kinds,
        g.hidden,
    )


def forward_clusters(g: Graph, fv: ForwardView) -> dict[str, str]:
    """Drawn id -> module cluster, for the forward view of ``g``: an op as
    in `cluster_of`, a parameter with its module, a tensor with the op that
    made it."""
    where = cluster_of(g)
    for f in g.functions.values():
        if f.variable is not None and f.id in where:
            where[f.variable] = where[f.id]
    for t in fv.tensors:
        if t.producer is not None and t.producer[0] in where:
            where[t.id] = where[t.producer[0]]
    return where


# ------------------------------------------------------- folding repeated steps


@dataclass
class Fold:
    """A block of the graph repeated ``count`` times in a row (the steps of a
    recurrent loop, a stack of identical layers), drawn once.

    ``shown``: the function ids of the repetition nearest the outputs, which
    is drawn; ``hidden``: how many autograd nodes the other ``count - 1``
    repetitions hold (not drawn). ``exit``: the node after the last
    repetition, which the drawn block's outgoing edges now point to;
    ``exits``: those edges, as (node, input_nr).
    """

    id: str
    shown: list[str]
    count: int
    hidden: int
    exit: str | None
    exits: list[tuple[str, int]] = field(default_factory=list)
    # folded layers' own parameters, not drawn (their names or shapes)
    params: list[str] = field(default_factory=list)
    # every node of the repeats (and each repeat's own AccumulateGrad nodes)
    # -> which repeat it is in, 0 being the drawn one
    repeat_of: dict[str, int] = field(default_factory=dict, repr=False)
    # a node (or its edge, saved slot, leaf) of a folded repeat -> the one
    # that stands for it in the drawn block: the stepper lights that one
    twin: dict[str, str] = field(default_factory=dict, repr=False)

    def nodes_per_repeat(self, functions: Iterable[str]) -> int:
        """Nodes in one repeat (its own AccumulateGrad nodes included), of the
        graph's ``functions`` (``repeat_of`` also holds slots and leaves)."""
        return sum(self.repeat_of.get(f) == 0 for f in functions)


FOLD_MIN_COUNT = 3  # fewer repetitions than this are drawn as they are
_MAX_PERIOD = 64  # segments per repeated block (8 steps of Mul, Add, Tanh: 24)


def _walk_index(fid: str) -> int:
    return int(fid[1:]) if fid[1:].isdigit() else 0


def _topological(
    roots: set[str], children: dict[str, list[str]], indeg: dict[str, int], key
) -> list[str]:
    """Kahn's order from ``roots``; among ready nodes the smallest ``key``
    first (``indeg`` is used up)."""
    ready = [(key(f), f) for f in roots]
    heapq.heapify(ready)
    order: list[str] = []
    while ready:
        _, fid = heapq.heappop(ready)
        order.append(fid)
        for c in children[fid]:
            indeg[c] -= 1
            if indeg[c] == 0:
                heapq.heappush(ready, (key(c), c))
    return order


def _segments(g: Graph) -> list[list[str]]:
    """The graph without AccumulateGrad nodes, cut at the nodes every later
    node is reached through (a loop's hidden state, a layer's output).

    Nodes are in a topological order (ties by walk order); node ``v`` starts
    a segment when no edge jumps over it and no second root lies after it,
    so everything after ``v`` hangs below ``v`` alone.
    """
    inner = {fid for fid, f in g.functions.items() if not f.is_accumulate_grad}
    edges = [(e.src, e.dst) for e in g.edges if e.src in inner and e.dst in inner]
    indeg = dict.fromkeys(inner, 0)
    children: dict[str, list[str]] = {fid: [] for fid in inner}
    for src, dst in edges:
        indeg[dst] += 1
        children[src].append(dst)
    roots = {f for f, d in indeg.items() if d == 0}
    # height: the longest way down to the end of the graph. Side branches
    # (a weight's TBackward0) are low and go first, so the spine node after
    # them (the next layer's input) can start a segment.
    height: dict[str, int] = {}
    for fid in reversed(_topological(roots, children, dict(indeg), _walk_index)):
        height[fid] = 1 + max((height[c] for c in children[fid]), default=0)
    order = _topological(roots, children, indeg, lambda f: (height[f], _walk_index(f)))
    pos = {fid: i for i, fid in enumerate(order)}
    # jumps[i]: edges (and virtual root edges) passing over position i
    jumps = [0] * (len(order) + 1)
    spans = [(pos[s], pos[d]) for s, d in edges] + [(-1, pos[r]) for r in roots]
    for a, b in spans:
        jumps[a + 1] += 1
        jumps[b] -= 1
    segments: list[list[str]] = []
    running = 0
    for i, fid in enumerate(order):
        running += jumps[i]
        if running == 0 or not segments:
            segments.append([])
        segments[-1].append(fid)
    return segments


_LAYER_INDEX = re.compile(r"(?:(?<=\.)|^)\d+(?=\.)")


def _leaf_role(g: Graph, acc: str) -> tuple[str, str]:
    """What a step reads through AccumulateGrad ``acc``: that very leaf, or,
    for a parameter of a numbered layer (``layers.3.weight``), that role in
    any layer (``layers.#.weight``), so a stack of identical layers folds."""
    tid = g.functions[acc].variable or acc
    name = g.tensors[tid].name if tid in g.tensors else None
    if name is not None and _LAYER_INDEX.search(name):
        return ("layer", _LAYER_INDEX.sub("#", name))
    return ("leaf", tid)


def _signature(g: Graph, seg: list[str], nxt: str | None, out_edges, made) -> tuple:
    """What a segment looks like, without its ids: names, attributes, saved
    slots, named tensors it makes and where its edges go (inside, to the next
    segment, to which leaf's AccumulateGrad)."""
    local = {fid: i for i, fid in enumerate(seg)}
    sig = []
    for fid in seg:
        f = g.functions[fid]
        targets = []
        for e in out_edges.get(fid, []):
            if e.dst is None:
                where: tuple = ("none",)
            elif e.dst in local:
                where = ("in", local[e.dst])
            elif e.dst == nxt:
                where = ("next",)
            else:  # an AccumulateGrad: which leaf (or which layer's) it is
                where = _leaf_role(g, e.dst)
            targets.append((e.input_nr, e.output_nr, where))
        slots = tuple((g.saved[s].slot, g.saved[s].state) for s in f.saved)
        named = tuple(
            (t.name, t.is_output) for t in made.get(fid, []) if t.name or t.is_output
        )
        sig.append((f.name, tuple(f.attrs.items()), slots, named, tuple(targets)))
    return tuple(sig)


def find_folds(
    g: Graph, min_count: int = FOLD_MIN_COUNT
) -> tuple[list[tuple[int, int, int]], list[list[str]]]:
    """Runs of repeated segments, as (first segment, segments per block,
    count), longest first wins; and the segments (see `_segments`)."""
    segs = _segments(g)
    out_edges = g.edges_by_src()
    made: dict[str, list[TensorInfo]] = {}
    for tid in g.shown_tensors:
        t = g.tensors[tid]
        if t.producer is not None:
            made.setdefault(t.producer[0], []).append(t)
    heads = [s[0] for s in segs] + [None]
    kinds: dict[tuple, int] = {}  # signature -> small int: cheap to compare
    sigs = [
        kinds.setdefault(_signature(g, seg, heads[k + 1], out_edges, made), len(kinds))
        for k, seg in enumerate(segs)
    ]
    sizes = [len(s) for s in segs]
    kind_of = np.array(sigs)
    ends = np.concatenate([[0], np.cumsum(sizes)])  # nodes before segment k
    candidates = []
    for p in range(1, min(_MAX_PERIOD, len(segs) // min_count) + 1):
        # stretches where segment k looks like segment k + p
        same = np.concatenate([[False], kind_of[:-p] == kind_of[p:], [False]])
        edges = np.flatnonzero(same[1:] != same[:-1])
        for k, j in zip(edges[::2], edges[1::2], strict=True):
            count = (j - k + p) // p
            if count >= min_count:
                hidden = int(ends[k + count * p] - ends[k + p])
                candidates.append((hidden, int(k), p, int(count)))
    runs: list[tuple[int, int, int]] = []
    taken: set[int] = set()
    for _hidden, k, p, count in sorted(candidates, key=lambda c: (-c[0], c[1])):
        span = set(range(k, k + count * p))
        if not span & taken:
            taken |= span
            runs.append((k, p, count))
    return sorted(runs), segs


def folded(
    g: Graph, min_count: int = FOLD_MIN_COUNT, expand: Collection[str] = frozenset()
) -> Graph:
    """`g` with each run of repeated blocks drawn once (see `Fold`).

    The repetition nearest the outputs stays; the others leave the model, and
    the edges that went into them go to the node after the run. Nothing is
    left out silently: each `Fold` says how many repetitions and nodes it
    stands for. Leaves and AccumulateGrad nodes stay while a drawn node
    uses them. Returns ``g`` itself when nothing repeats ``min_count`` times.
    ``expand``: fold ids (``"fold0"``) drawn in full; the others keep their
    ids (a widget opens and closes one block at a time).
    """
    runs, segs = find_folds(g, min_count)
    numbered = [(f"fold{n}", run) for n, run in enumerate(runs)]
    runs = [run for fid, run in numbered if fid not in expand]
    ids = [fid for fid, _run in numbered if fid not in expand]
    if not runs:
        return g
    hidden: set[str] = set()
    folds: list[Fold] = []
    exit_of: dict[str, str | None] = {}  # first hidden node -> node after the run
    for n, (k, p, count) in enumerate(runs):
        gone = [fid for seg in segs[k + p : k + count * p] for fid in seg]
        hidden.update(gone)
        after = segs[k + count * p][0] if k + count * p < len(segs) else None
        exit_of[segs[k + p][0]] = after
        shown = [fid for seg in segs[k : k + p] for fid in seg]
        folds.append(Fold(ids[n], shown, count, len(gone), after))
    fold_of = {fid: f for f in folds for fid in f.shown}
    out = derived(g)
    used = set()
    for e in g.edges:
        if e.src in hidden:
            continue
        dst = e.dst
        if dst in exit_of:
            dst = exit_of[dst]
            fold_of[e.src].exits.append((e.src, e.input_nr))
        if dst is not None and dst in hidden:  # (cuts make this unreachable)
            raise AssertionError(f"edge {e.id} into a folded node")
        out.edges.append(Edge(e.id, e.src, dst, e.input_nr, e.output_nr))
        if dst is not None:
            used.add(dst)
    out.functions = {
        fid: f
        for fid, f in g.functions.items()
        if fid not in hidden and (not f.is_accumulate_grad or fid in used)
    }
    # parameters only the folded repeats read (a stack of layers): say which
    for fold, (k, p, count) in zip(folds, runs, strict=True):
        gone = {fid for seg in segs[k + p : k + count * p] for fid in seg}
        accs = {
            e.dst
            for e in g.edges
            if e.src in gone and e.dst is not None and e.dst not in out.functions
        }
        accs = {a for a in accs if g.functions[a].is_accumulate_grad}
        fold.hidden += len(accs)
        fold.params = [
            g.tensors[v].label
            for a in sorted(accs, key=_walk_index)
            if (v := g.functions[a].variable) is not None
        ]
    for fold, (k, p, count) in zip(folds, runs, strict=True):
        _pair_repeats(
            g, fold, [segs[k + j * p : k + (j + 1) * p] for j in range(count)]
        )
    _keep_tensors(g, out)
    out.folds = folds
    return out


def _pair_repeats(g: Graph, fold: Fold, repeats: list[list[list[str]]]) -> None:
    """Fill ``fold.repeat_of`` and ``fold.twin``: the repeats have the same
    signature (`_signature`), so the i-th node of each is the same step, and
    so are its i-th edge, its slots and a leaf it alone reads."""
    out_edges = g.edges_by_src()
    drawn = [fid for seg in repeats[0] for fid in seg]
    for j, repeat in enumerate(repeats):
        nodes = [fid for seg in repeat for fid in seg]
        for fid, twin in zip(nodes, drawn, strict=True):
            fold.repeat_of[fid] = j
            fold.repeat_of.update(dict.fromkeys(g.functions[fid].saved, j))
            pairs = zip(out_edges.get(fid, []), out_edges.get(twin, []), strict=True)
            for e, te in pairs:
                own = e.dst is not None and e.dst != te.dst  # a layer's own leaf
                if own and g.functions[e.dst].is_accumulate_grad:
                    leaf = g.functions[e.dst].variable
                    twin_leaf = g.functions[te.dst].variable
                    fold.repeat_of[e.dst] = fold.repeat_of[leaf or e.dst] = j
                    fold.repeat_of[te.dst] = fold.repeat_of[twin_leaf or te.dst] = 0
                    if j:
                        fold.twin[e.dst] = te.dst
                        if leaf is not None and twin_leaf is not None:
                            fold.twin[leaf] = twin_leaf
                if j:
                    fold.twin[e.id] = te.id
            if not j:
                continue
            fold.twin[fid] = twin
            slots = {g.saved[s].slot: s for s in g.functions[twin].saved}
            for sid in g.functions[fid].saved:
                if g.saved[sid].slot in slots:
                    fold.twin[sid] = slots[g.saved[sid].slot]


# ------------------------------------------------------------ grouping by module


def module_path(param_name: str) -> str:
    """``"fc1.weight"`` -> ``"fc1"``; a top-level parameter's module is ``""``."""
    return param_name.rpartition(".")[0]


def _meet(a: str | None, b: str | None) -> str | None:
    """The innermost module containing both dotted paths (None: no news)."""
    if a is None or b is None:
        return b if a is None else a
    common = []
    for x, y in zip(a.split("."), b.split("."), strict=False):
        if x != y:
            break
        common.append(x)
    return ".".join(common)


def module_of(g: Graph) -> dict[str, str]:
    """Function id -> the module path it belongs to, from the parameter names.

    A module owns the AccumulateGrad nodes of its parameters, the nodes that
    only lead to them (``TBackward0`` of a Linear's weight), the nodes that
    read them directly (``AddmmBackward0``, ``ConvolutionBackward0``) and,
    for a nested module, the nodes between two of its parts (the
    ``ReluBackward0`` between ``encoder.0`` and ``encoder.2`` is
    ``encoder``'s). A module drawn as one box (`grouped`) owns its box.
    Nodes of no module are absent.
    """
    owner: dict[str, str] = {}
    for fid, f in g.functions.items():
        if f.is_accumulate_grad and f.variable is not None:
            name = g.tensors[f.variable].name
            if name is not None and "." in name:
                owner[fid] = module_path(name)
    by_src = g.edges_by_src()
    # nodes whose every input comes from one module's parameters, bottom-up
    changed = True
    while changed:
        changed = False
        for fid in g.functions:
            if fid in owner:
                continue
            # (an input without grad is a None edge: the node reads data too)
            mods = {owner.get(e.dst or "") for e in by_src.get(fid, [])}
            if len(mods) == 1 and None not in mods:
                owner[fid] = mods.pop()
                changed = True
    params_only = dict(owner)
    for fid in g.functions:  # the nodes that read a module's parameters
        if fid not in owner:
            for e in by_src.get(fid, []):
                if e.dst in params_only:
                    owner[fid] = params_only[e.dst]
                    break
    # (a box is its module; what reads it is not, unless it lies between two
    # parts of one module)
    owner.update({bid: b.path for bid, b in g.boxes.items() if bid in g.functions})
    owner.update(_between(g, owner))
    return owner


def _between(g: Graph, owner: dict[str, str]) -> dict[str, str]:
    """Unowned nodes whose every way up (towards the outputs) and down (to
    the leaves) first meets nodes of one module: that module's. A way that
    ends without meeting a module counts as "" (the top level)."""
    children: dict[str, list[str]] = {fid: [] for fid in g.functions}
    indeg = dict.fromkeys(g.functions, 0)
    for e in g.edges:
        if e.dst in children and e.src in children:
            children[e.src].append(e.dst)
            indeg[e.dst] += 1
    roots = {f for f, d in indeg.items() if d == 0}
    order = _topological(roots, children, indeg, _walk_index)

    def seen_from(fid: str, reach: dict[str, str | None]) -> str | None:
        return owner[fid] if fid in owner else reach[fid]

    up: dict[str, str | None] = dict.fromkeys(roots, "")
    for fid in order:  # outputs first: what each node is reached from
        for c in children[fid]:
            up[c] = _meet(up.get(c), seen_from(fid, up))
    down: dict[str, str | None] = {}
    for fid in reversed(order):  # leaves first: what each node leads to
        down[fid] = None
        for c in children[fid]:
            down[fid] = _meet(down[fid], seen_from(c, down))
        if not children[fid]:
            down[fid] = ""
    found = {}
    for fid in order:
        if fid not in owner and not g.functions[fid].is_accumulate_grad:
            path = _meet(up.get(fid), down[fid])
            if path:
                found[fid] = path
    return found


@dataclass
class ModuleBox:
    """A module drawn as one box by `grouped`: what it stands for."""

    id: str  # "module-fc1"
    path: str  # "fc1", "encoder.0"
    kind: str  # "Linear" ("" when unknown)
    functions: list[str]  # the autograd nodes it replaces
    params: list[str]  # their leaf tensor ids
    parts: int = 0  # its direct submodules (a Sequential's layers)
    # its parameters as "weight (4, 3)", named from inside the module
    described: list[str] = field(default_factory=list)

    @property
    def title(self) -> str:
        """``Linear fc1``, ``Sequential encoder (3 layers)``."""
        title = f"{self.kind} {self.path}".strip()
        if self.parts:
            noun = "layer" if self.kind in _CONTAINERS else "submodule"
            title += f" ({self.parts} {noun}{'s' if self.parts > 1 else ''})"
        return title


_CONTAINERS = {"Sequential", "ModuleList", "ModuleDict"}


def _parts(kinds: Mapping[str, str], path: str) -> int:
    """How many direct submodules the module at ``path`` has."""
    return sum(module_path(p) == path for p in kinds if p != path)


def derived(g: Graph) -> Graph:
    """An empty graph that keeps ``g``'s outputs and what its drawing needs
    to know about modules (for `folded`, `truncated`, `grouped`)."""
    return Graph(
        outputs=list(g.outputs),
        node_ids=g.node_ids,
        hidden=g.hidden,
        module_kinds=g.module_kinds,
        boxes=dict(g.boxes),
        folds=list(g.folds),
    )


def grouped(g: Graph, depth: int, expand: Collection[str] = frozenset()) -> Graph:
    """``g`` with each module ``depth`` levels deep (``fc1`` is 1,
    ``encoder.0`` is 2), and each shallower module without submodules,
    drawn as one box with its in- and out-edges.

    ``expand``: box ids (``"module-encoder"``) opened one level: that module
    is drawn as its cluster, each submodule in it a box (unless expanded
    too), its own nodes as they are.

    The box stands for the module's autograd nodes and parameters, its
    submodules' included (`Graph.boxes` says which); shallower modules stay
    as they are (drawn as clusters around their boxes). A tensor the box
    makes and the drawing shows (an output) comes out of the box.
    """
    if depth < 1:
        raise ValueError(f"depth must be 1 or more, got {depth}")
    owner = module_of(g)
    known = set(owner.values()) | set(g.module_kinds)
    # every module with a submodule (the ancestors of each known path)
    parents = {
        ".".join(parts[:k])
        for parts in (p.split(".") for p in known)
        for k in range(1, len(parts))
    }
    top = {}
    for fid, path in owner.items():
        parts = path.split(".")
        k = min(depth, len(parts))
        if k < depth and path in parents:
            continue  # a shallower module's own nodes, around its submodules
        while k <= len(parts) and f"module-{'.'.join(parts[:k])}" in expand:
            k += 1  # opened: the next level down is boxed
        if k <= len(parts):
            top[fid] = ".".join(parts[:k])
    if not top:
        return g
    box_of = {fid: f"module-{path}" for fid, path in top.items()}
    out = derived(g)
    for fid, f in g.functions.items():
        bid = box_of.get(fid)
        if bid is None:
            out.functions[fid] = f
            continue
        if bid not in out.boxes:
            path = top[fid]
            kinds = g.module_kinds
            box = ModuleBox(bid, path, kinds.get(path, ""), [], [], _parts(kinds, path))
            out.boxes[bid] = box
            out.functions[bid] = FunctionInfo(bid, box.title)
        out.boxes[bid].functions.append(fid)
        if f.variable is not None:
            out.boxes[bid].params.append(f.variable)
    # a box's outputs: the (node, output_nr) pairs read from outside, numbered
    outs: dict[tuple[str, int], int] = {}
    n_outs: dict[str, int] = dict.fromkeys(out.boxes, 0)

    def way_out(fid: str, nr: int) -> tuple[str, int]:
        bid = box_of.get(fid)
        if bid is None:
            return fid, nr
        if (fid, nr) not in outs:
            outs[(fid, nr)] = n_outs[bid]
            n_outs[bid] += 1
        return bid, outs[(fid, nr)]

    seen: set[tuple[str, str | None]] = set()
    for e in g.edges:
        src = box_of.get(e.src, e.src)
        if src in out.boxes and box_of.get(e.dst or "") == src:
            continue  # inside one box
        dst, nr = (None, e.output_nr) if e.dst is None else way_out(e.dst, e.output_nr)
        if src in out.boxes and (src, dst) in seen:
            continue  # one arrow per neighbour is enough for a box
        seen.add((src, dst))
        out.edges.append(Edge(e.id, src, dst, e.input_nr, nr))
    _keep_tensors(g, out)
    for tid in g.shown_tensors:  # tensors the boxes make
        t = g.tensors[tid]
        if t.producer is not None and t.producer[0] in box_of and t.is_output:
            out.tensors[tid] = dataclasses.replace(t, producer=way_out(*t.producer))
            if tid not in out.shown_tensors:
                out.shown_tensors.append(tid)
    leaves = {t for b in out.boxes.values() for t in b.params}
    out.shown_tensors = [t for t in out.shown_tensors if t not in leaves]
    out.tensors.update({t: g.tensors[t] for t in leaves})  # the boxes list them
    for b in out.boxes.values():
        b.params.sort(key=lambda t: _natural(g.tensors[t].name or ""))
        names = [(g.tensors[t].name or "", g.tensors[t].shape) for t in b.params]
        b.described = [
            f"{n[len(b.path) + 1 :] if n.startswith(b.path + '.') else n} "
            f"{shape_label(shape)}".strip()
            for n, shape in names
        ]
    return out


def _natural(name: str) -> list:
    """Sort key: ``layers.2.weight`` before ``layers.10.weight``."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def cluster_of(g: Graph) -> dict[str, str]:
    """Function id -> the module whose cluster it is drawn in (`module_of`;
    a module drawn as one box sits in its parent's cluster, if any)."""
    found = {}
    for fid, path in module_of(g).items():
        if fid in g.boxes:
            path = module_path(path)
        if path:
            found[fid] = path
    return found
