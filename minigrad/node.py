"""Nodes of the backward graph, and running one node.

Read this second, after the Tensor's autograd surface (``_tensor.py``). A ``Node``
is one step of backward: ``next_functions`` are its edges to the nodes that
receive its output gradients; ``AccumulateGrad`` is the sink that writes a
leaf's ``.grad``; a ``SavedTensor`` is a value kept for backward with the version
it had when saved (PyTorch's ``SavedVariable``). ``call_node`` runs one node's
formula and checks the gradients it returns against the inputs they are for
(shape and dtype, undoing broadcasting), as PyTorch's ``validate_outputs``.

Nothing here imports an op or the Tensor: ``_tensor.py`` hands the Tensor class
down once (``bind_tensor_class``), and the layers above register the few ops the
core records itself (``registered``).
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import _errors, grad_mode
from ._dtype import from_numpy_dtype
from ._errors import ERR_INFERENCE_SAVED, first_stale, refuse_overlap, version_error
from .utils.hooks import RemovableHandle

UINT64_MAX = 2**64 - 1
_ARRAY = (np.ndarray, np.generic)  # numpy returns scalars for 0-d results

# The Tensor class. It is defined above the core (its methods bind the ops), so
# _tensor.py hands it down once, through engine.bind_tensor_class; a module-level
# name keeps the hot paths free of attribute lookups.
Tensor: Any = None


def bind_tensor_class(cls: type) -> None:
    """Receive the Tensor class (called once, when ``_tensor.py`` is imported)."""
    global Tensor
    Tensor = cls


# What the layers above register for the core to call, by name: the op that
# AccumulateGrad records under create_graph ("Copy", from ops/copies.py), the ops
# the formula helpers record on Tensors (_formula.py), forward AD's tangent rules
# (autograd/forward_ad.py). Every one is registered when ``import minigrad`` ends.
registered: dict[str, Callable[..., Any]] = {}


def register(**fns: Callable[..., Any]) -> None:
    registered.update(fns)


# --------------------------------------------------------------------------- nodes
class Node:
    """A node of the backward graph (PyTorch's ``torch.autograd.graph.Node``).

    ``next_functions[i]`` is the ``(node, output_nr)`` edge that receives the
    gradient for this node's i-th input (``(None, 0)`` when that input needs none).
    """

    next_functions: tuple = ()
    _seq: int = 0
    _num_outputs = 1  # how many forward outputs, i.e. incoming gradient slots
    # (shape, dtype) per forward output: the gradients sent to this node along
    # its callers' edges are checked against it (as PyTorch's input_metadata)
    _output_meta: tuple = ()
    # Class-level defaults, overridden per node only when used, keep nodes cheap.
    _held: tuple | None = None  # SavedTensors; None once released
    _released = False
    _hooked = False  # any hook registered: the engine then looks for them
    _pre_hooks = _post_hooks = _tensor_pre_hooks = _retains_grad = None
    _n_args = 0  # set (with _tensor_positions) when some arguments aren't tensors
    _tensor_positions: list[int] | None = None
    _forward_cls: Any = None  # the Function whose backward this node runs

    def name(self) -> str:
        return type(self).__name__

    def _sequence_nr(self) -> int:
        return self._seq

    _repr_prefix = ""  # (a user's Function's nodes name their module)

    def __repr__(self) -> str:
        return f"<{self._repr_prefix}{type(self).__name__} object at {hex(id(self))}>"

    @property
    def metadata(self) -> dict:
        meta = self.__dict__.get("_metadata")
        if meta is None:
            meta = self.__dict__["_metadata"] = {}
        return meta

    @property
    def requires_grad(self) -> bool:
        return True

    # Hooks live in dicts created on first use, so nodes without hooks stay cheap.
    def _hook_dict(self, name: str) -> OrderedDict:
        d = getattr(self, name)
        if d is None:
            d = OrderedDict()
            setattr(self, name, d)
            self._hooked = True
        return d

    def register_hook(self, fn: Callable) -> RemovableHandle:
        """``fn(grad_inputs, grad_outputs)`` runs after this node; it may return
        replacement ``grad_inputs``."""
        return RemovableHandle.add(self._hook_dict("_post_hooks"), fn)

    def register_prehook(self, fn: Callable) -> RemovableHandle:
        """``fn(grad_outputs)`` runs before this node; it may return replacements."""
        return RemovableHandle.add(self._hook_dict("_pre_hooks"), fn)

    def _register_tensor_prehook(self, output_nr: int, fn: Callable) -> RemovableHandle:
        """A tensor hook of this node's output ``output_nr``."""
        slots = self._hook_dict("_tensor_pre_hooks")
        return RemovableHandle.add(slots.setdefault(output_nr, OrderedDict()), fn)

    def _retain_grad_of(self, output_nr: int, tensor: Any) -> None:
        self._hook_dict("_retains_grad")[output_nr] = weakref.ref(tensor)

    def __call__(self, *grads: Any) -> Any:
        """Run this node's backward on Tensors, as PyTorch allows (``y.grad_fn(g)``);
        in grad mode the computation is recorded, as any other op would be."""
        graph = grad_mode.state.enabled
        args = [_wrap(g) if graph else _unwrap(g) for g in grads]
        out = call_node(self, args, graph=graph)
        out = tuple(None if g is None else _wrap(g) for g in out)
        return out[0] if len(out) == 1 else out

    # Subclasses implement these two.
    def apply(self, grads: list) -> tuple:
        raise NotImplementedError

    def saved_names(self) -> list[str]:
        """The names of the tensors this node holds for backward (none by default)."""
        return []

    def release_variables(self) -> None:
        """Free the saved tensors (backward does this unless ``retain_graph``)."""


class AccumulateGrad(Node):
    """The sink for a leaf: adds the incoming gradient into ``variable.grad``.

    One per leaf, reused while the leaf lives (the leaf keeps only a weak
    reference to it, the graph keeps the node and the node keeps the leaf).
    """

    _seq = UINT64_MAX  # runs as soon as it is ready (engine order)

    def __init__(self, variable: Any) -> None:
        self.variable = variable
        self._output_meta = ((variable._data.shape, variable._data.dtype),)

    def name(self) -> str:
        return "minigrad::autograd::AccumulateGrad"

    def __call__(self, *grads: Any) -> Any:
        graph = grad_mode.state.enabled
        g = _wrap(grads[0]) if graph else _unwrap(grads[0])
        accumulate_into(self.variable, g, create_graph=graph)
        return ()


class SavedTensor:
    """A tensor kept for backward, with the version it had when saved.

    An input is kept as the original object (``node._saved_self is a``). An output
    is kept as its data only: holding the output Tensor would make a cycle
    output -> node -> output, so unpacking builds a fresh Tensor on the same data
    whose ``grad_fn`` is the owning node.
    """

    __slots__ = (
        "tensor", "data", "vc", "version", "output_nr", "requires_grad", "hooks",
        "view_grad_fn",
    )  # fmt: skip

    def __init__(self, tensor: Any, is_output: bool) -> None:
        self.vc = tensor._vc
        self.version = tensor._vc.value
        self.output_nr = tensor._output_nr
        self.hooks = None
        self.view_grad_fn = None  # see _views_inplace._remember_view_grad_fn
        if is_output:
            self.tensor = None
            self.data = tensor._data
            self.requires_grad = tensor._grad_fn is not None  # outputs aren't leaves
        else:
            if tensor._inference:
                raise RuntimeError(ERR_INFERENCE_SAVED)
            self.tensor = tensor
            self.data = None

    def unpack(self, owner: Node, as_array: bool = False) -> Any:
        if self.hooks is not None:  # saved_tensors_hooks keep it (_saved_hooks.py)
            return self.hooks.unpack(self, owner, as_array)
        if self.vc.value != self.version:
            raise RuntimeError(version_error(first_stale(owner, self), owner))
        t = self.tensor
        if as_array:
            return t._data if t is not None else self.data
        if t is not None:
            return t
        out = Tensor._make(self.data, self.requires_grad)
        if self.requires_grad:
            out._grad_fn, out._output_nr = owner, self.output_nr
        out._vc = self.vc
        return out


def _wrap(g: Any) -> Any:
    """A gradient as a Tensor (None stays None): what hooks and users see."""
    if g is None or isinstance(g, Tensor):
        return g
    return Tensor._make(g, False)


def _unwrap(g: Any) -> Any:
    """A gradient as an array (None stays None): what array formulas take."""
    return None if g is None else getattr(g, "_data", g)


def sum_to(g: Any, shape: tuple) -> Any:
    """Sum ``g`` down to ``shape``: undoes broadcasting in a gradient (on arrays,
    or on Tensors, recording the sum)."""
    lead = g.ndim - len(shape)
    dims = tuple(range(lead)) + tuple(
        i + lead for i, n in enumerate(shape) if n == 1 and g.shape[i + lead] != 1
    )
    if isinstance(g, _ARRAY):
        if dims:
            g = g.sum(axis=dims, keepdims=True)
        return g.reshape(shape)
    if not shape:  # PyTorch's sum_to: a plain sum() (SumBackward0) for a scalar
        return g.sum()
    if dims:
        g = g.sum(dims, keepdim=True)
    return g if tuple(g.shape) == tuple(shape) else g.view(shape)


# ------------------------------------------------------------- running one node
def _validate(node: Node, grads: Sequence) -> list:
    """Check a node's output gradients (one per edge, from ``_call``) against the
    forward outputs they are the gradients of (shape, dtype), undoing
    broadcasting with a sum where needed (PyTorch's validate_outputs). The engine
    does the same check as it sends."""
    return [
        None if g is None or nxt is None else _conformed(node, i, g, nxt, nr)
        for i, (g, (nxt, nr)) in enumerate(zip(grads, node.next_functions))
    ]


def _conformed(node: Node, i: int, g: Any, nxt: Node, nr: int) -> Any:
    meta = nxt._output_meta
    if meta:
        shape, dtype = meta[nr]
        d = g if type(g) is np.ndarray else getattr(g, "_data", g)
        if d.shape != shape or d.dtype is not dtype:
            return _conform(node, i, g, shape, dtype)
    return g


def counted(node: Node, grads: Sequence) -> list:
    """One gradient per argument of the forward, extra trailing Nones dropped; a
    wrong count is the formula's error."""
    n = node._n_args or len(node.next_functions)
    grads = list(grads)
    while len(grads) > n and grads[-1] is None:  # extra Nones are allowed
        grads.pop()
    if len(grads) != n:
        raise RuntimeError(
            f"function {node.name()} returned an incorrect number of gradients "
            f"(expected {n}, got {len(grads)})"
        )
    return grads


def _arrange(node: Node, grads: Sequence) -> list:
    """One gradient per edge: ``counted``, then the entries of non-tensor
    arguments removed."""
    grads = counted(node, grads)
    if node._tensor_positions:  # drop the entries of non-tensor arguments
        grads = [grads[i] for i in node._tensor_positions]
    return grads


def _conform(node: Node, i: int, g: Any, shape: tuple, dtype: Any) -> Any:
    """Sum a broadcast gradient down to its input's shape and cast its dtype."""
    if tuple(g.shape) != shape:
        try:  # the input's shape must expand to the gradient's (a broadcast)
            ok = np.broadcast_shapes(tuple(g.shape), shape) == tuple(g.shape)
        except ValueError:
            ok = False
        if not ok:
            raise RuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {i}"
                f" - got {list(g.shape)} but expected shape compatible with "
                f"{list(shape)}"
            )
        g = sum_to(g, shape)
    if isinstance(g, _ARRAY):
        return g if g.dtype == dtype else np.asarray(g, dtype=dtype)
    if g._data.dtype != dtype:
        g = g.to(from_numpy_dtype(dtype))
    return g


def call_node(node: Node, grads: list, graph: bool) -> list:
    """Run one node's backward. ``grads`` are arrays, or Tensors when ``graph``
    (create_graph): built-in formulas then record their own graph."""
    state = grad_mode.state
    prev, state.enabled = state.enabled, graph  # record only for create_graph
    try:
        return _validate(node, _call(node, grads, graph))
    finally:
        state.enabled = prev


def _call(node: Node, grads: list, graph: bool) -> Sequence:
    """Run a node's formula, with the grad mode already set; one gradient per
    edge comes back, not yet checked against the inputs."""
    cls = node._forward_cls
    if cls is None:  # the engine's own nodes: CopySlices, AsStridedBackward0
        out = node.apply(grads)
    else:
        if len(grads) > 1 and node.materialize_grads and any(g is None for g in grads):
            # e.g. an unused output of a multi-output op gets a zero gradient
            grads = [
                _zeros_for(node, i, graph) if g is None else g
                for i, g in enumerate(grads)
            ]
        array_formula = cls._array_backward
        if not (graph or array_formula):  # user Functions always see Tensors
            grads = [_wrap(g) for g in grads]  # (with create_graph they are)
        if array_formula:
            out = cls.backward(node, *grads)
        else:
            out = cls._user_backward(node, grads)
        if type(out) is not tuple:
            out = (out,)
        if not graph and not array_formula:
            out = [_unwrap(g) for g in out]
    if len(out) != len(node.next_functions) or node._tensor_positions:
        out = _arrange(node, out)
    return out


def _zeros_for(node: Node, output_nr: int, graph: bool) -> Any:
    shape, dtype = node._output_meta[output_nr]
    zeros = np.zeros(shape, dtype)
    return _wrap(zeros) if graph else zeros


def accumulate_into(var: Any, g: Any, create_graph: bool, sole: bool = False) -> bool:
    """What AccumulateGrad does: ``var.grad = g`` the first time, ``+= g`` after;
    nothing for a leaf that stopped requiring grad since the forward (a frozen
    weight), as PyTorch's AccumulateGrad, whose post-accumulate hooks still run.
    Returns whether it accumulated.

    The first gradient goes into a fresh buffer laid out like the leaf (never
    shared with another gradient; row-major for a leaf that is not dense). With
    ``create_graph`` that is a recorded copy (CopyBackwards) and later ones add
    out of place (AddBackward0); otherwise later ones add in place, into the
    same ``.grad`` object, as PyTorch does. ``sole``: the caller counted that
    nothing else refers to the array ``g`` or its memory (PyTorch's use_count
    rule): a first gradient with the leaf's layout is then taken as it is,
    with no copy, as PyTorch steals such a buffer."""
    frozen = not var.requires_grad
    old = var._grad
    if frozen:
        pass  # its .grad stays as it was
    elif old is None:
        if isinstance(g, Tensor):  # create_graph: the copy is part of the graph
            shell = Tensor._make(_errors.grad_buffer(var._data), False)
            new = registered["Copy"](shell, g)
            new._vc.value += 1  # copy_ wrote into the buffer
            var._grad = new
        elif (
            sole
            and g.flags.writeable
            and g.dtype == var._data.dtype
            and g.shape == var._data.shape
            and _errors.obeys_layout_contract(g, var._data)
        ):
            var._grad = Tensor._make(g, False)
            var._grad._vc.value = registered["grad_version"](g)  # buffer adds
        else:
            grad = _errors.grad_buffer(var._data)
            grad[...] = g
            var._grad = Tensor._make(grad, False)
            var._grad._vc.value = int(_errors.dense(var._data))  # (its copy_)
    elif create_graph:
        var._grad = old + g
    else:
        refuse_overlap(old._data)  # (an expanded .grad the user set)
        old._data += g._data if isinstance(g, Tensor) else g
        old._vc.value += 1
    for hook in (var._post_acc_hooks or {}).values():
        hook(var)
    return not frozen
