"""``minigrad.autograd.function``: the ``Function`` a user subclasses.

The core's ``Function.apply`` (``minigrad/function.py``) records any op, built-in
or not; this subclass adds what PyTorch's Python layer adds for a user's
Function: keyword arguments to ``apply``, ``forward`` without ``ctx`` plus
``setup_context``, ``vjp`` as the other name of ``backward``,
``boxed_grads_call``, the rules of ``mark_dirty`` / ``save_for_backward`` /
``mark_non_differentiable`` and of a backward's return value, the legacy
instance call, ``once_differentiable``, and the checks (and the ``vmap`` rule)
under ``minigrad.func``'s transforms.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

from .. import function as _core
from .. import grad_mode
from .._errors import check_inplace
from .._tensor import Tensor
from .._warn import warn
from ..function import BackwardCFunction, FunctionCtx
from ..node import counted

_FUNC_DOCS = "https://pytorch.org/docs/main/notes/extending.func.html"

# One entry per ``apply`` under way (an apply inside a forward nests):
# (how many of its inputs are positional, the keyword names of the rest,
# whether grad mode was on when it was called).
_calls: list[tuple[int, tuple[str, ...], bool]] = []

# The ``minigrad.func`` transforms running now, innermost last: ``"vmap"`` with
# its level (func.py's ``_Level``: the batch), or the name of another
# transform with None (func.py pushes them with ``transform``).
_transforms: list[tuple[str, Any]] = []


class VmapInfo(NamedTuple):
    """What a Function's ``vmap`` staticmethod receives as ``info``."""

    batch_size: int
    randomness: str


class transform:  # noqa: N801 - a context manager used as func.py's verb
    """``with transform("vmap", info):`` marks a ``minigrad.func`` transform as
    running, so a Function applied inside it is checked as PyTorch checks it."""

    def __init__(self, kind: str, info: Any = None) -> None:
        self.entry = (kind, info)

    def __enter__(self) -> None:
        _transforms.append(self.entry)

    def __exit__(self, *exc: object) -> None:
        _transforms.pop()


def _typename(obj: Any) -> str:
    """A type's name as PyTorch's C++ prints it (``numpy.ndarray``, ``float``)."""
    cls = type(obj)
    return f"numpy.{cls.__name__}" if cls.__module__ == "numpy" else cls.__name__


class Function(_core.Function):
    """Base class of a custom differentiable operation (``torch.autograd.Function``).

    Either ``forward(ctx, *args)`` sets up ``ctx`` itself, or ``forward(*args)``
    computes and ``setup_context(ctx, inputs, output)`` saves what backward
    needs. ``backward(ctx, *grads)`` (or the same written as ``vjp``) returns
    one gradient per input; ``jvp(ctx, *tangents)`` serves forward AD. Use it
    as ``MyFunction.apply(*args, **kwargs)``.
    """

    _abstract = True
    generate_vmap_rule = False
    boxed_grads_call = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn(
            f"{self.__class__} should not be instantiated. Methods on autograd "
            "functions are all static, so you should invoke them on the class "
            "itself. Instantiating an autograd function will raise an error in a "
            "future version of PyTorch.",
            DeprecationWarning,
            stacklevel=2,
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. "
            "Please use new-style autograd function with static forward method. "
            "(Example: https://pytorch.org/docs/stable/autograd.html"
            "#minigrad.autograd.Function)"
        )

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple, output: Any) -> Any:
        """Set up ``ctx`` from the inputs and output of a ``forward`` without ctx."""
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def vmap(info: VmapInfo, in_dims: tuple, *args: Any) -> Any:
        """The Function under ``func.vmap``: ``(output, out_dims)`` for a batch."""
        raise NotImplementedError(
            "To use autograd.Function with vmap, you must either override the "
            "vmap staticmethod or set generate_vmap_rule=True."
        )

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        new_style = cls.setup_context is not Function.setup_context
        if new_style:  # PyTorch binds the arguments, filling in defaults
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        if _transforms:
            vmapped = _check_transform(cls, new_style)
            if vmapped is not None:
                return _apply_vmap_rule(cls, vmapped, args, kwargs)
        # keyword arguments are inputs too (tracked after the positional ones)
        _calls.append((len(args), tuple(kwargs), grad_mode.state.enabled))
        try:
            return super().apply(*args, *kwargs.values())
        finally:
            _calls.pop()

    @classmethod
    def _user_forward(cls, ctx: Any, inputs: tuple) -> Any:
        n, names, recording = _calls[-1]
        args, kwargs = inputs[:n], dict(zip(names, inputs[n:]))
        if cls.setup_context is Function.setup_context:
            out = cls.forward(ctx, *args, **kwargs)
        else:
            out = cls.forward(*args, **kwargs)
            cls.setup_context(ctx, args, out)
        _check_ctx(ctx)
        _mark_dirty(ctx, inputs, out, recording)
        if recording and True in ctx.needs_input_grad:
            return out
        # Nothing is recorded: an input returned as an output comes back as a
        # detached alias if it requires grad, else (unless changed in place) as
        # a view of itself, never as the input object (PyTorch's _wrap_outputs).
        dirty = ctx.__dict__.get("_dirty", ())
        outs = [
            _unrecorded(o, inputs, dirty)
            for o in (out if type(out) is tuple else (out,))
        ]
        return tuple(outs) if type(out) is tuple else outs[0]

    @classmethod
    def _user_backward(cls, ctx: Any, grads: Any) -> Any:
        backward, vjp = cls.backward, cls.vjp
        if backward is not Function.backward and vjp is not Function.vjp:
            raise RuntimeError(
                "Implementing both 'backward' and 'vjp' for a custom Function is not "
                "allowed. You should only implement one of them."
            )
        user_fn = vjp if vjp is not Function.vjp else backward
        out = (
            user_fn(ctx, list(grads)) if cls.boxed_grads_call else user_fn(ctx, *grads)
        )
        # PyTorch's order: the count first, then each entry against its argument
        grads = counted(ctx, out if type(out) is tuple else (out,))
        tensors = ctx._tensor_positions
        for i, g in enumerate(grads):
            if g is None:
                continue
            if tensors is not None and i not in tensors:
                raise RuntimeError(
                    f"function {ctx.name()} returned a gradient different than None "
                    f"at position {i + 1}, but the corresponding forward input was "
                    "not a Variable"
                )
            if not isinstance(g, Tensor):
                raise RuntimeError(f"expected Variable or None (got {_typename(g)})")
        return tuple(grads)


def _unrecorded(o: Any, inputs: tuple, dirty: tuple) -> Any:
    if not any(o is a for a in inputs):
        return o
    if o.requires_grad:
        return o.detach()
    return o if any(o is d for d in dirty) else o.view_as(o)


def _check_ctx(ctx: BackwardCFunction) -> None:
    """What ``save_for_backward`` and ``mark_non_differentiable`` accept (PyTorch
    checks once forward has returned; its messages, the second one cut short)."""
    for i, t in enumerate(ctx.to_save or ()):
        if t is not None and not isinstance(t, Tensor):
            raise TypeError(
                f"save_for_backward can only save variables, but argument {i} is of "
                f"type {_typename(t)}"
            )
    for t in ctx.__dict__.get("_fw_saved", ()):
        if t is not None and not isinstance(t, Tensor):
            raise AssertionError(
                "save_for_forward expects all arguments to be tensors; you should "
                "save non-tensors as attributes on ctx."
            )
    for t in ctx.__dict__.get("_non_differentiable", ()):
        if not isinstance(t, Tensor):
            raise RuntimeError(
                "mark_non_differentiable only accepts variable arguments, but got "
            )


def _mark_dirty(
    ctx: BackwardCFunction, inputs: tuple, out: Any, recording: bool
) -> None:
    """PyTorch's order: every tensor marked dirty counts as changed (its version
    moves on), then each output marked dirty must be an input (a warning
    otherwise) that may be changed in place, and every dirty input must be
    returned."""
    dirty = ctx.__dict__.get("_dirty", ())
    if not dirty:
        return
    for t in dirty:
        if not isinstance(t, Tensor):
            raise RuntimeError("mark_dirty can only accept variables, but argument ")
        t._vc.value += 1
    returned = 0
    for o in out if isinstance(out, tuple) else (out,):
        if not any(o is d for d in dirty):
            continue
        returned += 1
        if not any(o is a for a in inputs):
            warn(
                "ctx.mark_dirty() received a tensor that was not an input. Only input "
                "Tensors that have been mutated should be passed to ctx.mark_dirty()."
            )
        elif recording and o.requires_grad:
            if o.grad_fn is None and o._base is None:
                raise RuntimeError(
                    "a leaf Variable that requires grad has been used in an in-place "
                    "operation."
                )
            check_inplace(o)
    if returned < len(dirty):
        raise RuntimeError(
            "Some elements marked as dirty during the forward method were not "
            "returned as output. The inputs that are modified inplace must all be "
            "outputs of the Function."
        )


# ---------------------------------------------------------------- func transforms
def _check_transform(cls: type, new_style: bool) -> Any:
    """PyTorch's checks for a Function inside a ``func`` transform; the vmap
    level when the innermost ``vmap`` (past the grad transforms inside it, as
    PyTorch's grad levels pass a Function's forward down to it) is mapping and
    the Function has its own ``vmap`` rule (a generated rule is minigrad's
    loop itself)."""
    if not new_style:
        raise RuntimeError(
            "In order to use an autograd.Function with functorch transforms (vmap, "
            "grad, jvp, jacrev, ...), it must override the setup_context "
            f"staticmethod. For more details, please see {_FUNC_DOCS}"
        )
    kind, info = vmap_level()
    if kind != "vmap":
        return None
    has_rule = cls.vmap is not Function.vmap
    if cls.generate_vmap_rule and has_rule:
        raise RuntimeError(
            f"You tried to vmap over {cls.__name__}, but it has both "
            "generate_vmap_rule=True and an overridden vmap staticmethod. Please set "
            "generate_vmap_rule=False or delete the overridden vmap staticmethod to "
            f"avoid ambiguity. For more details, please see {_FUNC_DOCS}"
        )
    if not (cls.generate_vmap_rule or has_rule):
        raise RuntimeError(
            f"You tried to vmap over {cls.__name__}, but it does not have vmap "
            "support. Please override and implement the vmap staticmethod or set "
            f"generate_vmap_rule=True. For more details, please see {_FUNC_DOCS}"
        )
    return info if has_rule else None


def vmap_level() -> tuple[str, Any]:
    """The innermost transform that is not a grad transform: ``("vmap",
    level)``, ``("vmap-rule", None)`` inside a rule run on a batch of one, or
    ``("", None)`` when there is none."""
    for kind, info in reversed(_transforms):
        if kind not in _GRAD_TRANSFORMS:
            return kind, info
    return "", None


_GRAD_TRANSFORMS = ("grad", "vjp", "jvp", "jacrev")


def _apply_vmap_rule(cls: type, level: Any, args: tuple, kwargs: dict) -> Any:
    """The user's ``vmap`` rule under minigrad's ``vmap``, which runs the mapped
    function once per batch element: ``level`` (func.py's ``_Level``) calls the
    rule once with every element's arguments batched and hands each element
    its part of the result."""
    return level.rule_call(cls, args, kwargs)


# ------------------------------------------------------------ once_differentiable
class _DelayedErrorNode(BackwardCFunction):
    """PyTorch's DelayedError node: the graph of a once-differentiable backward's
    result, which refuses to be differentiated."""

    def name(self) -> str:
        return "minigrad::autograd::Error"


class _DelayedError(Function):
    """d once_differentiable's result: an error ("trying to differentiate twice"),
    raised only if a second backward reaches this node."""

    node_name = "Error"
    node_base = _DelayedErrorNode

    @staticmethod
    def forward(ctx: Any, *grads: Any) -> Any:
        out = tuple(None if g is None else g.detach() for g in grads)
        return out if len(out) > 1 else out[0]

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        raise RuntimeError(
            "trying to differentiate twice a function that was marked with "
            "@once_differentiable"
        )


_DelayedError._backward_cls._repr_prefix = ""  # (a C++ node in PyTorch)


def once_differentiable(fn: Callable) -> Callable:
    """Decorates a ``backward`` that cannot itself be differentiated: it runs
    without recording, and under ``create_graph`` its results lead to a node
    that raises if a second backward reaches it."""

    @functools.wraps(fn)
    def wrapper(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        with grad_mode.no_grad():
            outputs = fn(ctx, *args, **kwargs)
        if not grad_mode.is_grad_enabled():
            return outputs
        if not any(isinstance(a, Tensor) and a.requires_grad for a in args):
            return outputs
        outs = outputs if isinstance(outputs, tuple) else (outputs,)
        # the results are made to require grad, so that they have a grad_fn
        fake = [None if o is None else o.detach().requires_grad_() for o in outs]
        return _DelayedError.apply(*fake)

    return wrapper


class InplaceFunction(Function):
    """Kept for old code, as in PyTorch: use ``Function``."""

    _abstract = True

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace


__all__ = [
    "BackwardCFunction",
    "Function",
    "FunctionCtx",
    "InplaceFunction",
    "once_differentiable",
]
