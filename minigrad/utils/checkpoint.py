"""``minigrad.utils.checkpoint``: trade compute for memory (activation checkpointing).

A checkpointed region keeps none of the tensors its ops save for backward. When
backward first needs one of them, the region's function is run again (with the
random state it had in forward) and the recomputed values are handed out
instead. Two ways to do it, as in PyTorch 2.13:

* ``use_reentrant=False`` (recommended): built on saved-tensor hooks. In forward
  each saved tensor is packed into an empty ``_Holder``; the first unpack of the
  region inside one backward pass recomputes the function under a second pair of
  hooks that fill the holders, stopping as soon as all of them are filled.
* ``use_reentrant=True`` (the default when the argument is left out, with a
  warning): a ``Function`` whose forward runs the region under ``no_grad`` and
  whose backward reruns it with grad and calls ``backward`` on it, a backward
  pass inside the backward pass.
"""

from __future__ import annotations

import contextlib
import itertools
import warnings
import weakref
from collections.abc import Callable, Iterator
from typing import Any

from .. import _saved_hooks, creation, engine, grad_mode
from .._errors import version_error
from .._tensor import Tensor
from ..autograd import backward
from ..autograd.graph import saved_tensors_hooks
from ..function import Function
from ..node import SavedTensor

__all__ = [
    "CheckpointError",
    "CheckpointFunction",
    "checkpoint",
    "checkpoint_sequential",
    "detach_variable",
    "set_checkpoint_early_stop",
]


class CheckpointError(RuntimeError):
    """The recomputation did not save what the original forward saved."""


_USE_REENTRANT_WARNING = (
    "minigrad.utils.checkpoint: the use_reentrant parameter should be passed "
    "explicitly. Starting in PyTorch 2.9, calling checkpoint without "
    "use_reentrant will raise an exception. use_reentrant=False is recommended, "
    "but if you need to preserve the current default behavior, you can pass "
    "use_reentrant=True. Refer to docs for more details on the differences "
    "between the two variants."
)


def _metadata(x: Tensor) -> dict[str, Any]:
    return {"shape": x.shape, "dtype": x.dtype, "device": x.device}


_DETERMINISM_CHECKS: dict[str, Callable[[Tensor], Any]] = {
    "default": _metadata,
    "none": lambda _: None,
}

_early_stop_override: bool | None = None


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool) -> Iterator[None]:
    """Whether checkpoints made inside stop recomputing once every saved tensor
    is recomputed (the default), or run their function to the end."""
    global _early_stop_override
    prev, _early_stop_override = _early_stop_override, enable
    try:
        yield
    finally:
        _early_stop_override = prev


def detach_variable(inputs: tuple) -> tuple:
    """Each tensor detached, with its ``requires_grad`` kept."""
    if not isinstance(inputs, tuple):
        raise RuntimeError(
            "Only tuple of tensors is supported. Got Unsupported input type: "
            f"{type(inputs).__name__}"
        )
    out = []
    for inp in inputs:
        if not isinstance(inp, Tensor):
            out.append(inp)
            continue
        x = inp.detach()
        x.requires_grad = inp.requires_grad
        out.append(x)
    return tuple(out)


@contextlib.contextmanager
def _forward_rng(state: Tensor | None) -> Iterator[None]:
    """Run with the random state of the original forward (so dropout drops the
    same units), then give the caller its own state back."""
    if state is None:
        yield
        return
    outer = creation.get_rng_state()
    creation.set_rng_state(state)
    try:
        yield
    finally:
        creation.set_rng_state(outer)


# ------------------------------------------------------------ use_reentrant=True
class CheckpointFunction(Function):
    """d checkpoint(f, *args) = the gradients of f(*args), run again with grad and
    backpropagated inside backward (the inputs' tensors are its saved tensors)."""

    @staticmethod
    def forward(
        ctx: Any, run_function: Callable, preserve_rng_state: bool, *args: Any
    ) -> Any:
        if not any(isinstance(a, Tensor) and a.requires_grad for a in args):
            warnings.warn(
                "None of the inputs have requires_grad=True. Gradients will be None",
                stacklevel=2,
            )
        ctx.run_function = run_function
        ctx.rng_state = creation.get_rng_state() if preserve_rng_state else None
        tensors = [a for a in args if isinstance(a, Tensor)]
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*tensors)
        with grad_mode.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple:
        task = engine.running[-1] if engine.running else None
        if task is not None and task.selection is not None:
            raise RuntimeError(
                "When use_reentrant=True, minigrad.utils.checkpoint is incompatible"
                " with .grad() or passing an `inputs` parameter to .backward()."
                " To resolve this error, you can either set use_reentrant=False,"
                " or call .backward() without passing the `inputs` argument."
            )
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with _forward_rng(ctx.rng_state):
            detached = detach_variable(tuple(inputs))
            with grad_mode.enable_grad():
                outputs = ctx.run_function(*detached)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        pairs = [
            (out, g)
            for out, g in zip(outputs, grads)
            if isinstance(out, Tensor) and out.requires_grad
        ]
        if not pairs:
            raise RuntimeError(
                "none of output has requires_grad=True, this checkpoint() is not "
                "necessary"
            )
        backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None) + tuple(
            x.grad if isinstance(x, Tensor) else None for x in detached
        )


# ----------------------------------------------------------- use_reentrant=False
class _Holder:
    """What the forward saves in place of a tensor: per backward pass, a key
    into the recomputed values (None once unpacked)."""

    def __init__(self) -> None:
        self.handles: dict[Any, object | None] = {}


class _StopRecomputation(Exception):
    pass


class _Frame:
    """One checkpointed call: its inputs, the holders its forward handed out,
    and per backward pass (``gid``) what the recomputation produced."""

    def __init__(
        self, recompute: Callable, early_stop: bool, metadata: Callable
    ) -> None:
        self.recompute = recompute
        self.early_stop = early_stop
        self.metadata = metadata
        self.args: list[Any] = []
        self.holders: list[weakref.ref] = []
        self.forward_metadata: list[Any] = []
        # per backward pass: the recomputed tensors, how many were saved
        self.recomputed: dict[int, weakref.WeakKeyDictionary] = {}
        self.counts: dict[int, int] = {}
        self.done: set[int] = set()

    def save_inputs(self, args: tuple) -> None:
        """Keep the inputs as an op keeps its saved inputs: version-checked, and
        through the saved-tensor hooks active outside the region."""
        self.args = [
            SavedTensor(a, False) if isinstance(a, Tensor) else a for a in args
        ]
        saved = [a for a in self.args if isinstance(a, SavedTensor)]
        if _saved_hooks.saved_tensors_hooks_stack and saved:
            _saved_hooks.pack_all(None, saved)

    def inputs(self) -> list[Any]:
        out = []
        for a in self.args:
            if isinstance(a, SavedTensor):
                if a.hooks is None and a.vc.value != a.version:
                    raise RuntimeError(version_error(a, None))
                a = a.unpack(None)
            out.append(a)
        return out

    def check_recomputed(self, gid: Any) -> None:
        count = self.counts.get(gid, 0)
        if count != len(self.holders):
            raise CheckpointError(
                "minigrad.utils.checkpoint: A different number of tensors was saved "
                "during the original forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.holders)}\n"
                f"Number of tensors saved during recomputation: {count}.\n"
            )
        different = []
        for i, ref in enumerate(self.holders):
            holder = ref()
            if holder is None:  # already freed by an earlier backward
                continue
            again = self.metadata(self.recomputed[gid][holder.handles[gid]])
            if self.forward_metadata[i] != again:
                different.append((i, self.forward_metadata[i], again))
        if different:
            listed = "".join(
                f"tensor at position {i}:\nsaved metadata: {before}\n"
                f"recomputed metadata: {after}\n"
                for i, before, after in different
            )
            raise CheckpointError(
                "minigrad.utils.checkpoint: Recomputed values for the following "
                "tensors have different metadata than during the forward pass.\n"
                f"{listed}.\n"
            )

    def pack(self, x: Tensor) -> _Holder:
        """Forward: keep an empty holder instead of ``x``."""
        holder = _Holder()
        self.holders.append(weakref.ref(holder))
        with grad_mode.no_grad():
            self.forward_metadata.append(self.metadata(x))
        return holder

    def unpack(self, holder: _Holder) -> Tensor:
        """Backward: recompute the region once per pass, then hand out the value
        recomputed for this holder (each holder only once per pass)."""
        gid = _current_pass()
        if gid not in self.done:
            try:
                with _Recomputing(self, gid), grad_mode.enable_grad():
                    self.recompute(*self.inputs())
            except _StopRecomputation:
                pass
            self.done.add(gid)
            self.check_recomputed(gid)
        handle = holder.handles.get(gid)
        if handle is None:
            raise CheckpointError(
                "minigrad.utils.checkpoint: Unpack is being triggered for a tensor "
                "that was already unpacked once. If you are calling "
                "ctx.saved_tensors in backward, make sure to do so only once. "
                "Otherwise please open an issue with details on your use case."
            )
        holder.handles[gid] = None
        return self.recomputed[gid].pop(handle)


class _Recomputing(saved_tensors_hooks):
    """The hooks of the recomputation: the k-th tensor saved fills the k-th
    holder of the forward (if that holder is still alive)."""

    def __init__(self, frame: _Frame, gid: int) -> None:
        frame.recomputed.setdefault(gid, weakref.WeakKeyDictionary())

        def pack(x: Tensor) -> Tensor:
            x = x.detach() if x.requires_grad else x
            k = frame.counts.get(gid, 0)
            frame.counts[gid] = k + 1
            if k >= len(frame.holders):
                raise CheckpointError(
                    "minigrad.utils.checkpoint: trying to save more tensors during "
                    "recomputation than during the original forward pass."
                )
            holder = frame.holders[k]()
            if holder is not None:
                handle = _Handle()
                holder.handles[gid] = handle
                frame.recomputed[gid][handle] = x
            if frame.early_stop and k + 1 == len(frame.holders):
                raise _StopRecomputation
            return x

        super().__init__(pack, lambda x: x)


class _Handle:
    pass


_pass_numbers = itertools.count()
_pass_ids: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _current_pass() -> int:
    """A number for the backward pass under way (the region is recomputed once
    per pass); an unpack outside backward gets a new one each time, so it
    recomputes every time, as in PyTorch."""
    if not engine.running:
        return next(_pass_numbers)
    task = engine.running[-1]
    gid = _pass_ids.get(task)
    if gid is None:
        gid = _pass_ids[task] = next(_pass_numbers)
    return gid


def _checkpoint_without_reentrant(
    function: Callable,
    preserve_rng_state: bool,
    determinism_check: str,
    early_stop: bool,
    args: tuple,
    kwargs: dict,
) -> Any:
    if determinism_check not in _DETERMINISM_CHECKS:
        raise ValueError(
            "determinism_check should be one of "
            f"{list(_DETERMINISM_CHECKS)}, but got {determinism_check}"
        )
    if not grad_mode.is_grad_enabled():  # nothing is saved: nothing to do
        return function(*args, **kwargs)
    rng_state = creation.get_rng_state() if preserve_rng_state else None

    def recompute(*inputs: Any) -> None:
        with _forward_rng(rng_state):
            function(*inputs, **kwargs)

    if _early_stop_override is not None:
        early_stop = _early_stop_override
    frame = _Frame(recompute, early_stop, _DETERMINISM_CHECKS[determinism_check])
    frame.save_inputs(args)
    with saved_tensors_hooks(frame.pack, frame.unpack):
        return function(*args, **kwargs)


def checkpoint(
    function: Callable,
    *args: Any,
    use_reentrant: bool | None = None,
    context_fn: Callable | None = None,
    determinism_check: str = "default",
    debug: bool = False,
    early_stop: bool = True,
    **kwargs: Any,
) -> Any:
    """``function(*args)``, whose saved tensors are recomputed in backward
    instead of kept (see the module docstring)."""
    if use_reentrant is None:
        warnings.warn(_USE_REENTRANT_WARNING, stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if use_reentrant:
        if context_fn is not None or debug is not False:
            raise ValueError(
                "Passing `context_fn` or `debug` is only supported when "
                "use_reentrant=False."
            )
        return CheckpointFunction.apply(function, preserve, *args)
    if context_fn is not None or debug:
        raise NotImplementedError(
            "minigrad.utils.checkpoint: context_fn and debug=True are not supported"
        )
    return _checkpoint_without_reentrant(
        function, preserve, determinism_check, early_stop, args, kwargs
    )


def checkpoint_sequential(
    functions: Any,
    segments: int,
    input: Tensor,
    use_reentrant: bool | None = None,
    **kwargs: Any,
) -> Tensor:
    """Run ``functions`` (a list or ``nn.Sequential``) in ``segments`` pieces,
    each but the last one checkpointed."""
    if use_reentrant is None:
        warnings.warn(
            "minigrad.utils.checkpoint.checkpoint_sequential: the use_reentrant "
            "parameter should be passed explicitly. In version 2.9 we will raise "
            "an exception if use_reentrant is not passed. use_reentrant=False is "
            "recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.",
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if hasattr(functions, "children"):  # an nn.Sequential
        functions = list(functions.children())

    def run(start: int, end: int) -> Callable:
        def forward(x: Tensor) -> Tensor:
            for f in itertools.islice(functions, start, end + 1):
                x = f(x)
            return x

        return forward

    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(
            run(start, end),
            input,
            use_reentrant=use_reentrant,
            preserve_rng_state=preserve,
        )
    return run(end + 1, len(functions) - 1)(input)
