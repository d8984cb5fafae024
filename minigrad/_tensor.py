"""``Tensor``: a numpy array plus what autograd needs to know about it.

A tensor is a *leaf* when no recorded operation produced it (``grad_fn is None``);
only leaves that require grad get ``.grad`` filled by backward. A non-leaf knows
which node made it (``grad_fn``) and which of that node's outputs it is
(``output_nr``). Tensors that share memory (views, ``detach()``) share one version
counter, bumped by every in-place change, so backward can tell that a value it
saved has been overwritten.

This file is the first of the teaching core (minigrad/README.md gives the order:
then node.py, function.py, engine.py, grad_mode.py). It holds the Tensor's
autograd surface; the methods that bind the ops come from ``TensorBase``
(``_tensor_base.py``), the view and in-place machinery (with a view's fresh
``grad_fn`` after its base changed) from ``_views_inplace.py``.
"""

from __future__ import annotations

import warnings
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

from . import engine, grad_mode
from ._errors import ERR_DETACH_VIEW, NON_LEAF_GRAD_WARNING, check_grad_assignment
from ._from_data import finish_leaf, legacy_new, to_array, warn_copy_construct
from ._tensor_base import (
    TensorBase,
    _rebuild_tensor,  # noqa: F401 - files saved before name it here
    bind_tensor_class,
)
from .node import AccumulateGrad, Node
from .utils.hooks import RemovableHandle


class VersionCounter:
    """How many in-place changes the shared data has seen (``value``, set to 0
    where a tensor is made: a slot reads faster than a class-level default)."""

    __slots__ = ("value",)


def _new_tensor(data: Any, requires_grad: bool, cls: type) -> Any:
    """``cls._make``; a plain function, as every op's result is made here."""
    t = _object_new(cls)
    if type(data) is not np.ndarray:
        data = np.asarray(data)
    t._data = data
    t._requires_grad = requires_grad
    t._grad_fn = None
    t._vc = vc = VersionCounter()
    vc.value = 0
    t._output_nr, t._base, t._wrapped_number = 0, None, False
    t._inference = grad_mode.state.inference  # made in inference_mode
    return t


_object_new = object.__new__


class Tensor(TensorBase):
    # The attributes every operation touches are slots, set when a tensor is
    # made (_new_tensor): reading a slot is several times faster than reading a
    # class-level default through an instance (CPython 3.11 has no fast path for
    # that). The rest are class-level defaults that an instance overrides only
    # when it needs to (cheaper tensors).
    __slots__ = (
        "_data",
        "_requires_grad",
        "_grad_fn",
        "_vc",
        "_output_nr",  # which output of grad_fn this tensor is
        "_base",  # for a view: the tensor whose memory it shares (else None)
        "_wrapped_number",  # a Python number an operator wrapped (``a * 2``)
        "_inference",  # made in inference_mode (``is_inference()``)
        "__weakref__",
        "__dict__",
    )
    _grad: Tensor | None = None
    _fw_grad: Tensor | None = None  # the tangent, in a forward-AD dual level
    _view_fn: Callable | None = None  # base array -> this view's array
    _view_version = 0  # the version when the view's grad_fn was made
    # an output of split/unbind: made in grad mode? (in-place on it is refused)
    _multi_view: bool | None = None
    # a view made under no_grad of a tensor that requires grad: it says it
    # requires grad, but no gradient flows through it, and in-place changes in
    # grad mode are refused (PyTorch's rules)
    _no_grad_view = False
    _inference_view = False  # ... made under inference_mode (its own message)
    # a view of such a view made in grad mode: it has history, but in-place
    # changes are refused all the same (PyTorch propagates the CreationMeta)
    _of_no_grad_view = False
    _hooks: Any = None  # a leaf's tensor hooks (a non-leaf's live on grad_fn)
    _post_acc_hooks: Any = None
    _accumulator: Any = None  # weak reference to this leaf's AccumulateGrad
    _retains_grad = False
    # numpy defers ``ndarray <op> tensor`` to the tensor (which refuses it, as
    # PyTorch does) instead of looping over the tensor's elements
    __array_priority__ = 1000

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        """PyTorch's legacy constructor: ``Tensor(2, 3)``, ``Tensor([1, 2])``."""
        return legacy_new(cls, None, args, kwargs)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass  # everything happens in __new__

    def new_tensor(
        self, data: Any, dtype: Any = None, requires_grad: bool = False
    ) -> Tensor:
        """A new leaf holding a copy of ``data``, of this tensor's dtype by default."""
        if isinstance(data, Tensor):
            warn_copy_construct("tensor.new_tensor")
        data = to_array(data, dtype or self.dtype)
        return finish_leaf(Tensor._make(data, False), requires_grad)

    @classmethod
    def _make(cls, data: Any, requires_grad: bool) -> Tensor:
        """Wrap an array without copying (the internal constructor)."""
        return _new_tensor(data, requires_grad, cls)

    # ------------------------------------------------------------ autograd state
    @property
    def requires_grad(self) -> bool:
        if self._requires_grad or self._grad_fn is not None:
            return True
        # a view requires grad when its base does, read without regenerating
        # its grad_fn (PyTorch's DifferentiableViewMeta::requires_grad)
        return self._base is not None and self._base.requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self.requires_grad_(value, _setter=True)

    def requires_grad_(
        self, requires_grad: bool = True, _setter: bool = False
    ) -> Tensor:
        if self._grad_fn is not None:
            if requires_grad and not _setter:
                return self
            msg = "you can only change requires_grad flags of leaf variables."
            if not requires_grad:
                msg += (
                    " If you want to use a computed variable in a subgraph that "
                    "doesn't require differentiation use var_no_grad = var.detach()."
                )
            raise RuntimeError(msg)
        if requires_grad and not self._data.dtype.kind == "f":
            kind = "floating point and complex" if _setter else "floating point"
            raise RuntimeError(f"only Tensors of {kind} dtype can require gradients")
        if requires_grad and self._inference and not grad_mode.state.inference:
            raise RuntimeError(
                "Setting requires_grad=True on inference tensor outside "
                "InferenceMode is not allowed."
            )
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def grad_fn(self) -> Node | None:
        if self._base is not None and self._view_version != self._vc.value:
            self._refresh_view_grad_fn()
        return self._grad_fn

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def output_nr(self) -> int:
        return self._output_nr

    @property
    def grad(self) -> Tensor | None:
        if self._grad_fn is not None and not self._retains_grad and self._grad is None:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            check_grad_assignment(self, value, Tensor)
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    @property
    def _backward_hooks(self) -> Any:
        """The tensor hooks, where PyTorch keeps them (viz reads this)."""
        if self._grad_fn is None:
            return self._hooks
        return (self._grad_fn._tensor_pre_hooks or {}).get(self._output_nr)

    @property
    def _post_accumulate_grad_hooks(self) -> Any:
        return self._post_acc_hooks

    @property
    def _version(self) -> int:
        if self._inference:
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._vc.value

    def is_inference(self) -> bool:
        return self._inference

    def _edge(self) -> tuple[Node | None, int]:
        """Where the gradient for this tensor goes: its grad_fn, or for a leaf
        that requires grad, its AccumulateGrad."""
        fn = self._grad_fn
        if self._base is not None and self._view_version != self._vc.value:
            fn = self.grad_fn  # a view whose base changed: refresh first
        if fn is not None:
            return fn, self._output_nr
        if self._requires_grad:
            if self._no_grad_view:  # nothing flows back through it
                return None, 0
            return self._grad_accumulator(), 0
        return None, 0

    def _grad_accumulator(self) -> AccumulateGrad:
        acc = self._accumulator() if self._accumulator is not None else None
        if acc is None:
            acc = AccumulateGrad(self)
            self._accumulator = weakref.ref(acc)
        return acc

    def retain_grad(self) -> None:
        if not self.requires_grad:
            raise RuntimeError(
                "can't retain_grad on Tensor that has requires_grad=False"
            )
        # a leaf keeps its grad anyway; as in PyTorch, a view that never had a
        # grad_fn of its own counts as one (even when its base changed since)
        if self._grad_fn is None or self._retains_grad:
            return
        self.grad_fn._retain_grad_of(self._output_nr, self)
        self._retains_grad = True

    def register_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(grad)`` runs when the gradient for this tensor is computed; it may
        return a replacement gradient."""
        if not self.requires_grad:
            raise RuntimeError(
                "cannot register a hook on a tensor that doesn't require gradient"
            )
        fn = self.grad_fn
        if fn is not None:
            return fn._register_tensor_prehook(self._output_nr, hook)
        if self._hooks is None:
            self._hooks = OrderedDict()
        return RemovableHandle.add(self._hooks, hook)

    def register_post_accumulate_grad_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(tensor)`` runs after backward has accumulated into ``.grad``."""
        if not self.requires_grad:
            raise RuntimeError(
                "cannot register a hook on a tensor that doesn't require gradient"
            )
        if self.grad_fn is not None:
            raise RuntimeError(
                "post accumulate grad hooks cannot be registered on non-leaf tensors"
            )
        if self._post_acc_hooks is None:
            self._post_acc_hooks = OrderedDict()
        return RemovableHandle.add(self._post_acc_hooks, hook)

    def backward(
        self,
        gradient: Tensor | None = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        inputs: Any = None,
    ) -> None:
        engine.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self) -> Tensor:
        """Same data and version counter, no history: a leaf that needs no grad."""
        out = Tensor._make(self._data, False)
        out._vc = self._vc
        if self._inference or out._inference:  # a view: inference if self is
            out._inference = self._inference
        return out

    def detach_(self) -> Tensor:
        if self._base is not None:
            raise RuntimeError(ERR_DETACH_VIEW)
        self._grad_fn, self._requires_grad, self._output_nr = None, False, 0
        return self

    @property
    def data(self) -> Tensor:
        """The values without history, with a version counter of their own, which is
        why changes through ``.data`` escape backward's checks."""
        return Tensor._make(self._data, False)

    @data.setter
    def data(self, value: Tensor) -> None:
        self._data = value._data


# The method bindings, the view and in-place machinery, the core (node, function,
# engine) and the ops sit below this module and never import it: the class is
# handed down to them here, once.
bind_tensor_class(Tensor, _new_tensor)
