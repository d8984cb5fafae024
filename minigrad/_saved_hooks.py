"""Saved-tensor hooks (``autograd.graph.saved_tensors_hooks``) as the core runs them.

Inside a ``saved_tensors_hooks(pack, unpack)`` block every tensor an op saves for
backward is handed to ``pack``; backward gets it back from ``unpack``. The hooks
keep the tensor from then on, so the ``SavedTensor`` lets go of it (activation
checkpointing relies on that to free memory) and keeps a ``Packed`` instead,
in its ``hooks`` slot: ``SavedTensor.unpack`` hands over to it. Only the
autograd metadata stays behind (PyTorch's ``save_metadata``), to be given back
to what ``unpack`` returns.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

from . import node

# (pack, unpack) pairs of the active ``saved_tensors_hooks``, innermost last
saved_tensors_hooks_stack: list[tuple[Callable, Callable]] = []


def hook_order(owner: Any, saved: Sequence) -> list[int]:
    """The order in which PyTorch's nodes pack and unpack their saved tensors:
    the saved inputs by name (``other`` before ``self``, ``bias`` before
    ``input``), then the saved outputs (``result``); a user's Function keeps the
    order of its ``save_for_backward``."""
    names = getattr(owner, "_slot_names", ())  # (no owner: a checkpoint's inputs)
    if len(names) != len(saved):
        return list(range(len(saved)))
    outputs = [
        s is not None
        and (s.hooks.output if s.hooks is not None else s.tensor is None)
        or name.startswith("result")  # (e.g. layer_norm's mean, kept as a value)
        for s, name in zip(saved, names)
    ]
    return sorted(range(len(saved)), key=lambda i: (outputs[i], names[i]))


def pack_all(owner: Any, saved: list) -> None:
    """Hand each saved tensor to the innermost pack hook, in PyTorch's order;
    Python numbers wrapped into tensors are not packed (as in PyTorch)."""
    pack, unpack = saved_tensors_hooks_stack[-1]
    for i in hook_order(owner, saved):
        s = saved[i]
        if s is not None and (s.tensor is None or not s.tensor._wrapped_number):
            s.hooks = Packed(s, pack, unpack, owner)
            s.tensor = s.data = None
    if owner is not None:
        owner._packed = True


def unpack_all(owner: Any, saved: tuple, as_array: bool) -> tuple:
    """``ctx.saved_tensors`` of a node whose tensors went through hooks: each
    unpacked in PyTorch's order, handed back in the node's own."""
    values: list[Any] = [None] * len(saved)
    for i in hook_order(owner, saved):
        s = saved[i]
        if s is not None:
            values[i] = s.unpack(owner, as_array)
    return tuple(values)


class Packed:
    """What the pack hook returned, and where in the graph the tensor was."""

    __slots__ = ("unpack_hook", "packed", "history", "output")

    def __init__(
        self,
        saved: Any,
        pack: Callable,
        unpack: Callable,
        owner: Any,
        data_only: bool = False,
    ) -> None:
        t = saved.tensor
        if t is not None:  # an input: its grad_fn, or a leaf's AccumulateGrad
            saved.requires_grad = t.requires_grad
            fn = t.grad_fn
            if fn is None and t._requires_grad and not t._no_grad_view:
                self.history = weakref.ref(t._grad_accumulator())
            else:
                self.history = fn
        # (a saved output leaves history unset: its node is the owner)
        self.output = t is None
        self.unpack_hook = unpack
        if data_only:  # SavedTensor.register_hooks: the data, unchecked
            t = node.Tensor._make(saved.data if t is None else t._data, False)
            t._vc = saved.vc
            self.packed = pack(t)
        else:
            self.packed = pack(saved.unpack(owner))

    def unpack(self, saved: Any, owner: Any, as_array: bool) -> Any:
        """The unpack hook's result as PyTorch hands it out: a new tensor on its
        data, with the saved tensor's place in the graph."""
        t = self.unpack_hook(self.packed)
        if not isinstance(t, node.Tensor):
            raise TypeError(
                "Output of saved tensor unpack_hook expected to be a Tensor but got "
                f"result of type {type(t).__name__}"
            )
        if as_array:
            return t._data
        out = node.Tensor._make(t._data, False)
        out._vc = t._vc
        if not saved.requires_grad:
            return out
        history = owner if self.output else self.history
        if isinstance(history, weakref.ref):
            out._requires_grad, out._accumulator = True, history
        elif history is not None:
            out._grad_fn, out._output_nr = history, saved.output_nr
        return out


class SavedTensor:
    """``grad_fn._raw_saved_<name>``: one saved tensor of a node, as PyTorch's
    ``torch._C._autograd.SavedTensor``; ``register_hooks(pack, unpack)`` gives
    it its own pair of saved-tensor hooks."""

    __module__ = "minigrad._C._autograd"  # (PyTorch's name for it, in reprs)
    __slots__ = ("owner", "i")

    def __init__(self, owner: Any, i: int) -> None:
        self.owner, self.i = owner, i

    def register_hooks(self, pack_hook: Callable, unpack_hook: Callable) -> None:
        if not (callable(pack_hook) and callable(unpack_hook)):
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following "
                "argument types are supported:\n    1. (self: "
                "minigrad._C._autograd.SavedTensor, arg0: collections.abc.Callable, "
                "arg1: collections.abc.Callable) -> None\n\nInvoked with: "
                f"{self!r}, {pack_hook!r}, {unpack_hook!r}"
            )
        saved = self.owner._held
        if saved is None:
            released = self.owner._released
            if released is True or not released[self.i]:
                raise RuntimeError(ERR_HOOKS_FREED)
        s = None if saved is None else saved[self.i]
        if s is None:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor with value None is forbidden"
            )
        if s.hooks is not None:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor whose hooks have already "
                "been set. Hint: only one pair of hooks is allowed at a time."
            )
        s.hooks = Packed(s, pack_hook, unpack_hook, self.owner, data_only=True)
        s.tensor = s.data = None
        self.owner._packed = True


ERR_HOOKS_FREED = (
    "Calling register_hooks on a saved tensor after it has been freed. Saved "
    "intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through "
    "the graph a second time or if you need to access saved variables after "
    "calling backward."
)


def raw_saved(owner: Any, i: int) -> SavedTensor:
    """The node's ``SavedTensor`` for slot ``i`` (the same object each time)."""
    handles = owner.__dict__.setdefault("_raw_handles", {})
    if i not in handles:
        handles[i] = SavedTensor(owner, i)
    return handles[i]
