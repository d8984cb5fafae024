"""``Function``: how an operation records itself for backward.

Every differentiable operation, built-in or written by a user, is a ``Function``
subclass with ``forward`` and ``backward`` side by side. ``Function.apply`` does the
shared chores once: it decides whether a graph is needed, creates the backward node
(an instance of ``<Name>Backward``, which is also the ``ctx``), wires
``next_functions``, numbers the node, saves tensors with their version, and marks
the outputs. The engine (engine.py) later runs the node (node.py).

Built-in backward formulas are written once and run on two kinds of values: plain
numpy arrays in the common first-order case (fast), and Tensors when
``create_graph=True`` (so the formula itself is recorded and can be differentiated
again). Inside a built-in ``backward``, ``ctx.saved_tensors`` gives values of the same
kind as the incoming gradient.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _profiling, grad_mode, node
from ._anomaly import caller_stack
from ._errors import ERR_BACKWARD_TWICE
from ._saved_attrs import raw_saved_property, saved_attr_property, saved_tensor_property
from ._saved_hooks import pack_all, saved_tensors_hooks_stack, unpack_all
from .node import Node, SavedTensor, registered

_NO_EDGE = (None, 0)  # the edge of an input that needs no gradient

# The Tensor class and its constructor, handed down by engine.bind_tensor_class
# (module-level names keep Function.apply, the hottest path, free of lookups).
Tensor: Any = None
_new_tensor: Any = None  # _tensor._new_tensor(data, requires_grad, cls)
_object_new = object.__new__
_sequence_nr = itertools.count()


def bind_tensor_class(cls: type, new_tensor: Callable[..., Any]) -> None:
    """Receive the Tensor class and its constructor; hand the class down to node."""
    global Tensor, _new_tensor
    Tensor, _new_tensor = cls, new_tensor
    node.bind_tensor_class(cls)


class BackwardCFunction(Node):
    """The node class of a ``Function``; the node object is also the ``ctx`` that
    ``forward`` and ``backward`` receive (as in PyTorch)."""

    _slot_names: tuple[str, ...] = ()

    # ---- ctx API used inside forward
    def save_for_backward(self, *tensors: Any) -> None:
        self.to_save = tensors

    to_save: tuple | None = None
    _packed = False  # some saved tensor went through hooks (_saved_hooks.py)

    def save_for_forward(self, *tensors: Any) -> None:
        """Tensors a user's ``jvp`` reads back with ``ctx.saved_tensors``."""
        self._fw_saved = tensors

    def mark_dirty(self, *tensors: Any) -> None:
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors: Any) -> None:
        self._non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = value

    materialize_grads = True
    needs_input_grad: tuple[bool, ...] = ()

    # ---- saved tensors
    @property
    def saved_tensors(self) -> tuple:
        saved = self._held
        if saved is None:
            if self._released:
                raise RuntimeError(ERR_BACKWARD_TWICE)
            return self.__dict__.get("_fw_saved", ())  # (what a jvp saved)
        # Built-in formulas get plain arrays unless a graph of the backward itself
        # is being recorded; user Functions always see Tensors, as in PyTorch.
        as_arrays = self._forward_cls._array_backward and not grad_mode.state.enabled
        if self._packed:  # through saved-tensor hooks, in PyTorch's order
            return unpack_all(self, saved, as_arrays)
        values = []  # a plain loop: cheaper than a comprehension on Python 3.11
        if as_arrays:
            for s in saved:
                if s is None:
                    values.append(None)
                elif s.hooks is None and s.vc.value == s.version:  # the usual case
                    t = s.tensor
                    if t is None:
                        values.append(s.data)
                    elif t._wrapped_number:  # ``x * 0.9``: numpy keeps g's dtype
                        values.append(t._data.item())
                    else:
                        values.append(t._data)
                else:
                    values.append(s.unpack(self, as_array=True))
        else:
            for s in saved:
                if s is None:
                    values.append(None)
                elif (
                    s.tensor is not None and s.hooks is None and s.vc.value == s.version
                ):
                    values.append(s.tensor)  # a saved input: the usual case
                else:
                    values.append(s.unpack(self))
        return tuple(values)

    @property
    def saved_variables(self) -> tuple:
        return self.saved_tensors

    def saved_names(self) -> list[str]:
        saved = self._held or ()
        names = self._slot_names or [f"saved_tensors[{i}]" for i in range(len(saved))]
        return [n for n, s in zip(names, saved) if s is not None]

    def release_variables(self) -> None:
        saved = self._held
        if saved is not None:
            self._held = None
            # slots that never held a tensor still read as None afterwards
            self._released = True if None not in saved else [s is None for s in saved]

    def apply(self, grads: list) -> tuple:
        out = self._forward_cls.backward(self, *grads)
        return out if isinstance(out, tuple) else (out,)


# ------------------------------------------------------------------------ Function
class FunctionMeta(type):
    """Gives each ``Function`` subclass its node class ``<Name>Backward``."""

    def __init__(cls, name: str, bases: tuple, ns: dict) -> None:
        super().__init__(name, bases, ns)
        if not bases or ns.get("_abstract"):
            return
        node_name = ns.get("node_name") or f"{name}Backward"
        saved = ns.get("saved", ())
        attrs: dict[str, Any] = {"_forward_cls": cls, "_slot_names": saved}
        for i, slot in enumerate(saved):
            attrs[f"_saved_{slot}"] = saved_tensor_property(i)
            attrs[f"_raw_saved_{slot}"] = raw_saved_property(i)
        freed = ns.get("saved_tensor_lists", ())
        for attr in ns.get("saved_attrs", ()):
            attrs[f"_saved_{attr}"] = saved_attr_property(attr, attr in freed)
        base = ns.get("node_base", BackwardCFunction)
        cls._backward_cls = type(node_name, (base,), attrs)
        # a user's Function's node lives in minigrad.autograd.function, as
        # PyTorch's live in torch.autograd.function (its repr names it)
        builtin = cls._array_backward
        cls._backward_cls.__module__ = (
            cls.__module__ if builtin else "minigrad.autograd.function"
        )
        if not builtin:
            cls._backward_cls._repr_prefix = "minigrad.autograd.function."
        install_fast_apply = registered.get("fast_apply")  # (_fastpath.py)
        if install_fast_apply is not None:
            install_fast_apply(cls)


class Function(metaclass=FunctionMeta):
    """Base class of every differentiable operation (``torch.autograd.Function``).

    Subclasses define ``forward(ctx, *args)`` and ``backward(ctx, *grads)`` as
    static methods and are used through ``MyFunction.apply(*args)``. Built-in ops
    set ``_array_backward = True``: their forward returns numpy arrays and their
    backward runs on arrays or Tensors alike; ``node_name``, ``saved`` (names of
    the tensors passed to ``save_for_backward``) and ``saved_attrs`` give the node
    PyTorch's name and ``_saved_*`` attributes.
    """

    _array_backward = False
    _backward_cls: type[BackwardCFunction]
    optional_tensors: tuple[int, ...] = ()  # positions of tensor-or-None arguments

    @staticmethod
    def forward(ctx: Any, *args: Any) -> Any:
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    vjp = backward

    @staticmethod
    def jvp(ctx: Any, *tangents: Any) -> Any:
        """Forward mode (``autograd.forward_ad``): the outputs' tangents."""
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use "
            "it with forward mode AD."
        )

    # A user's Function runs through these two; autograd/function.py's Function
    # adds PyTorch's API on top (setup_context, vjp, its checks).
    @classmethod
    def _user_forward(cls, ctx: Any, args: tuple) -> Any:
        return cls.forward(ctx, *args)

    @classmethod
    def _user_backward(cls, ctx: Any, grads: Any) -> Any:
        return cls.backward(ctx, *grads)

    @staticmethod
    def _forward_failed(*args: Any) -> None:
        """Called when forward raised ValueError; may raise a clearer error."""

    @classmethod
    def apply(cls, *args: Any) -> Any:
        profiler = _profiling.recorder
        if profiler is not None and profiler.opens(cls, args):  # one timed range
            try:
                return _core_apply(cls, *args)  # (this method again: see opens)
            finally:
                profiler.close()
        ctx = _object_new(cls._backward_cls)
        # Which inputs need a gradient, and the edge each one's gradient will
        # take (PyTorch, too, collects the edges before running forward).
        recording = grad_mode.state.enabled
        needs = []  # plain loops: a comprehension costs a frame on Python 3.11
        edges = []
        edgeless = False  # an input that requires grad but has no edge
        for a in args:
            if not isinstance(a, Tensor):
                needs.append(False)
                edges.append(None)  # not a tensor: no edge at all
                continue
            fn = a._grad_fn
            if fn is not None and a._base is None:  # the usual non-leaf
                needs.append(True)
                edges.append((fn, a._output_nr))
            elif fn is None and not a._requires_grad and a._base is None:
                needs.append(False)  # a constant
                edges.append(_NO_EDGE)
            elif fn is None and not a.requires_grad:  # (a stale view refreshes)
                needs.append(False)  # a view of a constant
                edges.append(_NO_EDGE)
            elif a._no_grad_view and cls._array_backward:
                if recording and a._view_version != a._vc.value:
                    a._refresh_view_grad_fn()  # its base changed: this refuses
                # A view made under no_grad requires grad but takes no gradient:
                # the op is recorded, yet its formula skips this input (as
                # PyTorch's should_compute_output does; a user's Function is
                # told it requires grad).
                edgeless = True
                needs.append(False)
                edges.append(_NO_EDGE)
            else:  # a leaf that requires grad, or a view
                needs.append(True)
                edges.append(a._edge() if recording else _NO_EDGE)
        ctx.needs_input_grad = tuple(needs)
        record = recording and (True in needs or edgeless)
        if record:  # numbered and wired before forward runs, as in PyTorch
            ctx._seq = next(_sequence_nr)
            if grad_mode.state.anomaly:  # detect_anomaly: where was it called?
                ctx.metadata["traceback_"] = caller_stack()
            if None in edges:
                _non_tensor_args(ctx, edges)
            else:
                ctx.next_functions = tuple(edges)
        if not cls._array_backward:
            # a user's forward computes with Tensor ops, which must not record
            with grad_mode.no_grad():
                raw = cls._user_forward(ctx, args)
            out = _wire(ctx, args, raw, record)
            if forward_ad_level is not None:
                return _with_tangents(cls, ctx, args, out)
            return out
        try:
            raw = cls.forward(ctx, *args)
        except ValueError:  # numpy's words; an op may know PyTorch's
            cls._forward_failed(*args)
            raise
        if forward_ad_level is not None:  # forward AD: the slow path
            return _with_tangents(cls, ctx, args, _wire(ctx, args, raw, record))
        if type(raw) is tuple:
            return _wire(ctx, args, raw, record)
        # The common case, kept short: a built-in op with one array output.
        out = _new_tensor(raw, False, Tensor)
        if not record:
            return out
        if raw.dtype.kind == "f":
            out._grad_fn = ctx
            ctx._output_meta = ((raw.shape, raw.dtype),)
        to_save = ctx.to_save
        if to_save is not None:
            ctx.to_save = None
            ctx._held = _save_all(ctx, to_save, (raw,), (out,))
        return out


_core_apply = Function.__dict__["apply"].__func__  # (not a subclass's apply)


def _non_tensor_args(ctx: BackwardCFunction, edges: list) -> None:
    """Edges exist for tensor arguments only (``None`` marks the others); backward
    still returns one gradient per argument, so remember which are tensors. An
    optional tensor argument left out (``None``, e.g. layer_norm's weight) still
    has its edge, ``(None, 0)``, as in PyTorch."""
    for i in ctx._forward_cls.optional_tensors:
        if edges[i] is None:
            edges[i] = _NO_EDGE
    ctx._tensor_positions = [i for i, e in enumerate(edges) if e is not None]
    ctx._n_args = len(edges)
    ctx.next_functions = tuple([e for e in edges if e is not None])


def _wire(ctx: BackwardCFunction, args: tuple, raw: Any, record: bool) -> Any:
    """The general case of ``apply``: several outputs, or a user's Function with
    ``mark_dirty`` / ``mark_non_differentiable`` / inputs returned as outputs."""
    single = not isinstance(raw, tuple)
    outs = (raw,) if single else raw
    dirty = ctx.__dict__.get("_dirty", ())
    non_diff = ctx.__dict__.get("_non_differentiable", ())
    results = []
    for o in outs:
        if isinstance(o, Tensor):
            if any(o is a for a in args) and not any(o is d for d in dirty):
                o = o.view_as(o) if record else o  # an input returned as-is: alias
            results.append(o)
        elif isinstance(o, (np.ndarray, np.generic)):  # numpy gives scalars for 0-d
            results.append(Tensor._make(o, False))
        else:
            results.append(o)
    if record:
        ctx._num_outputs = len(results)
        ctx._output_meta = tuple(
            (r._data.shape, r._data.dtype) if isinstance(r, Tensor) else ((), None)
            for r in results
        )
        for i, r in enumerate(results):
            if isinstance(r, Tensor) and not any(r is t for t in non_diff):
                if r._data.dtype.kind == "f":
                    r._set_history(ctx, i)  # (a dirty input keeps its retain_grad)
                    if any(r is d for d in dirty):
                        r._base = None
    to_save = ctx.to_save
    if to_save is not None:
        if record:
            ctx._held = _save_all(ctx, to_save, outs, results)
        ctx.to_save = None
    if single:
        return results[0]
    return tuple(results)


# forward-mode AD (``autograd.forward_ad``): the dual level entered, or None
forward_ad_level: int | None = None  # (a plain global: read by every op)


def _with_tangents(cls: type, ctx: Any, args: tuple, out: Any) -> Any:
    """The outputs' tangents (autograd/forward_ad.py registers how)."""
    registered["propagate_tangents"](cls, ctx, args, out)
    return out


def _save_all(
    ctx: Node, to_save: tuple, raw_outs: tuple, results: tuple | list
) -> tuple:
    """The ``SavedTensor`` for each object given to ``save_for_backward``."""
    saved: list[SavedTensor | None] = []
    if len(to_save) == 1 and to_save[0] is raw_outs[0]:  # e.g. tanh's result
        saved.append(SavedTensor(results[0], True))
    else:
        single, first = len(results) == 1, results[0]
        for x in to_save:
            if x is None:
                saved.append(None)
            elif type(x) is Tensor and (
                x is not first if single else all(x is not r for r in results)
            ):
                saved.append(SavedTensor(x, False))  # the usual case: an input
            else:
                saved.append(_save_other(x, raw_outs, results))
    if saved_tensors_hooks_stack:  # the hooks keep them (_saved_hooks.py)
        pack_all(ctx, saved)
    return tuple(saved)


def _save_other(x: Any, raw_outs: tuple, results: tuple | list) -> SavedTensor:
    for raw, res in zip(raw_outs, results):
        if x is raw or x is res:  # an output (possibly saved as its array)
            return SavedTensor(res, is_output=True)
    if isinstance(x, np.ndarray):  # an array computed in forward: keep as a value
        return SavedTensor(Tensor._make(x, False), is_output=False)
    if not isinstance(x, Tensor):
        raise TypeError(
            "save_for_backward can only save variables, but argument 0 is of type "
            f"{type(x).__name__}"
        )
    return SavedTensor(x, is_output=False)


FunctionCtx = BackwardCFunction
