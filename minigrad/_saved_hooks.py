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
from collections.abc import Callable
from typing import Any

from . import node

# (pack, unpack) pairs of the active ``saved_tensors_hooks``, innermost last
saved_tensors_hooks_stack: list[tuple[Callable, Callable]] = []


def pack_all(owner: Any, saved: list) -> None:
    """Hand each saved tensor to the innermost pack hook; Python numbers wrapped
    into tensors are not packed (as in PyTorch)."""
    pack, unpack = saved_tensors_hooks_stack[-1]
    for s in saved:
        if s is not None and (s.tensor is None or not s.tensor._wrapped_number):
            s.hooks = Packed(s, pack, unpack, owner)
            s.tensor = s.data = None


class Packed:
    """What the pack hook returned, and where in the graph the tensor was."""

    __slots__ = ("unpack_hook", "packed", "history")

    def __init__(
        self, saved: Any, pack: Callable, unpack: Callable, owner: Any
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
        self.unpack_hook = unpack
        self.packed = pack(saved.unpack(owner))

    def unpack(self, saved: Any, owner: Any, as_array: bool) -> Any:
        """The unpack hook's result as PyTorch hands it out: a new tensor on its
        data, with the saved tensor's place in the graph."""
        t = self.unpack_hook(self.packed)
        if as_array:
            return t._data
        out = node.Tensor._make(t._data, False)
        out._vc = t._vc
        if not saved.requires_grad:
            return out
        history = getattr(self, "history", owner)
        if isinstance(history, weakref.ref):
            out._requires_grad, out._accumulator = True, history
        elif history is not None:
            out._grad_fn, out._output_nr = history, saved.output_nr
        return out
