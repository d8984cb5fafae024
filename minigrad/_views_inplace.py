"""Views, versions and in-place changes: how autograd stays right when memory is shared.

A view (``view``, ``transpose``, indexing with slices...) shares its base's data
and version counter, and remembers how to find itself inside the base
(``_view_fn``). An in-place op bumps the shared version counter, so a saved
tensor can tell that it was overwritten, and rewrites history: the tensor's
``grad_fn`` becomes the in-place op's node; for a view, the base's ``grad_fn``
becomes a ``CopySlices`` (the written region's gradient goes through the op) and
the view's an ``AsStridedBackward0`` (its gradient is read out of the base's).

``ViewsAndInplace`` holds the machinery the Tensor's view and in-place methods
(``_tensor_base.py``) call: ``_view``, ``_views``, ``_inplace_view``, ``_inplace``,
``_set_history`` and ``_refresh_view_grad_fn``.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _dtype as dt
from . import _formula as f
from . import _profiling, engine, function, grad_mode
from . import node as core
from ._backward_io import bump_grad_version
from ._errors import (
    ERR_BACKWARD_TWICE,
    check_inplace,
    forward_op_name,
    refuse_overlap,
    refuse_partial_overlap,
)
from .function import _sequence_nr
from .node import Node, SavedTensor, call_node
from .ops._common import Ctx, Grad, Op, _Qualified, operand
from .ops.copies import Clone

# The Tensor class, handed down by _tensor_base.bind_tensor_class.
Tensor: Any = None


def bind_tensor_class(cls: type, new_tensor: Callable[..., Any]) -> None:
    """Receive the Tensor class and hand it down to the engine (and below)."""
    global Tensor
    Tensor = cls
    engine.bind_tensor_class(cls, new_tensor)


class ViewsAndInplace:
    """The view and in-place machinery of a Tensor (a base class of it)."""

    __slots__ = ()

    def _view(self, cls: type, *args: Any) -> Tensor:
        """Apply a view op: the result shares data and version counter with
        ``self`` and remembers how to find itself inside its base."""
        out = cls.apply(self, *args)
        if self._fw_grad is not None and function.forward_ad_level is not None:
            core.registered["view_tangent"](out, self, lambda x: cls.view_fn(x, *args))
        base = self if self._base is None else self._base
        parent = self._view_fn
        if parent is None:
            out._view_fn = lambda x: cls.view_fn(x, *args)
        else:
            out._view_fn = lambda x: cls.view_fn(parent(x), *args)
        out._base, out._vc, out._view_version = base, self._vc, self._vc.value
        if self._multi_view is not None:  # a view of a split's output is one too
            out._multi_view = self._multi_view and grad_mode.state.enabled
        # made under no_grad: it requires grad as its base does (a view that was
        # made a leaf by requires_grad_() does not pass that on)
        if not grad_mode.state.enabled and (base.requires_grad or self._no_grad_view):
            out._no_grad_view = out._requires_grad = True
        elif self._no_grad_view or self._of_no_grad_view:
            out._of_no_grad_view = True
        _inherit_inference(out, self)
        return out

    def _views(self, cls: type, *args: Any) -> tuple:
        """A view op with several outputs (split, unbind): one node for all, each
        output a view of ``self``'s base that refuses in-place changes."""
        outs = cls.apply(self, *args)
        base = self if self._base is None else self._base
        parent = self._view_fn
        made_in_grad_mode = grad_mode.state.enabled
        for i, out in enumerate(outs):
            if parent is None:
                out._view_fn = lambda x, i=i: cls.view_fn(x, *args)[i]
            else:
                out._view_fn = lambda x, i=i: cls.view_fn(parent(x), *args)[i]
            out._base, out._vc, out._view_version = base, self._vc, self._vc.value
            out._multi_view = made_in_grad_mode
            if not made_in_grad_mode and self.requires_grad:
                out._no_grad_view = out._requires_grad = True
            _inherit_inference(out, self)
        return outs

    def _inplace_view(self, cls: type, *args: Any) -> Tensor:
        """``x.t_()``: x itself takes the view's shape (same memory) as a new
        version whose history ends in the op's node (TBackward1). A view stays a
        view of its base, found by one more step."""
        if grad_mode.state.enabled:
            check_inplace(self)
            if self._base is not None and self._view_version != self._vc.value:
                self._refresh_view_grad_fn()
        out = _apply_inplace(cls, self, args)
        self._data = out._data
        bump_version(self)
        if out._grad_fn is not None:
            self._set_history(out._grad_fn)
        parent = self._view_fn
        if parent is not None:
            self._view_fn = lambda x: cls.view_fn(parent(x), *args)
            self._view_version = self._vc.value
        return self

    def _inplace(self, cls: type, *args: Any) -> Tensor:
        """Run op ``cls`` out of place, write the result into this tensor's memory,
        bump the shared version, and make this tensor's history end in the op's
        node (or, for a view, make the base's history a ``CopySlices``)."""
        recording = grad_mode.state.enabled
        if recording:  # (autograd's checks come before the kernel's overlap check)
            if (
                self._multi_view is not None
                or self._no_grad_view
                or self._of_no_grad_view
            ):
                _check_multi_view(self, args)
            check_inplace(self)
            if self._base is not None and self._view_version != self._vc.value:
                self._refresh_view_grad_fn()
        refuse_overlap(self._data)
        for a in args:
            if isinstance(a, Tensor):
                refuse_partial_overlap(self._data, a._data)
        # (a profiler records every op: no shortcut around the op's range)
        unprofiled = _profiling.recorder is None
        if not recording and unprofiled and _write_directly(self, cls, args):
            bump_version(self)
            return self
        out = _apply_inplace(cls, self, args)
        node = out._grad_fn
        if out._data.shape != self._data.shape:
            raise RuntimeError(
                f"output with shape {list(self.shape)} doesn't match the broadcast "
                f"shape {list(out.shape)}"
            )
        if out._data.dtype != self._data.dtype:
            _check_cast(out.dtype, self.dtype, cls)
        if node is not None:
            _snapshot_saved_self(node, self)
        self._data[...] = out._data
        bump_version(self)
        if out._fw_grad is not None:  # forward AD: the tangent comes along
            core.registered["write_tangent"](self, out._fw_grad)
        if node is None:
            return self
        _rebind_saved_result(node, self)
        base = self._base
        if base is None:
            self._set_history(node)
            return self
        base._set_history(CopySlices(base, self._view_fn, node))
        self._set_history(AsStridedBackward0(base, self._view_fn))
        self._view_version = self._vc.value
        _remember_view_grad_fn(node, self)
        return self

    def _set_history(self, fn: Node, output_nr: int = 0) -> None:
        """Make ``fn`` this tensor's grad_fn (after an in-place change). A
        retain_grad() follows the tensor to it, as in PyTorch; hooks registered
        before stay with the old node (they see the gradient of the old value)."""
        old, old_nr = self._grad_fn, self._output_nr
        self._grad_fn, self._output_nr, self._requires_grad = fn, output_nr, False
        if self._retains_grad and old is not None and old is not fn:
            retained = old._retains_grad or {}
            ref = retained.get(old_nr)
            if ref is not None and ref() is self:
                del retained[old_nr]
            fn._retain_grad_of(output_nr, self)

    def _refresh_view_grad_fn(self) -> None:
        """A view whose base changed in place gets a fresh grad_fn that reads its
        gradient out of the base's new history (PyTorch: AsStridedBackward0);
        an output of split/unbind or a view made under no_grad cannot get one."""
        base = self._base
        # PyTorch's VariableHooks::grad_fn, in any grad mode: a view without
        # history of a base that does not require grad is left as it is (its
        # version unrecorded, so a later requires_grad_() still regenerates)
        if not base.requires_grad:
            if self._grad_fn is not None:
                self._view_version = self._vc.value
            return
        if self._multi_view or self._no_grad_view or self._of_no_grad_view:
            raise RuntimeError(_stale_view_message(self))
        self._view_version = self._vc.value
        requires_grad = self._requires_grad  # (kept: a no_grad view's flag)
        self._set_history(AsStridedBackward0(base, self._view_fn))
        self._requires_grad = requires_grad


def _apply_inplace(cls: type, t: Tensor, args: tuple) -> Tensor:
    """``cls.apply(t, *args)``; under a profiler, in one range named for the
    in-place op, as PyTorch names it (``aten::mul_``, ``aten::t_``)."""
    profiler = _profiling.recorder
    return cls.apply(t, *args) if profiler is None else profiler.inplace(cls, t, args)


def _check_multi_view(t: Tensor, args: tuple) -> None:
    """PyTorch refuses in-place changes that need grad to an output of a
    function returning several views (split, unbind, chunk, iteration)."""
    base_needs = t._base is not None and t._base.requires_grad
    if not (
        t._requires_grad
        or t._grad_fn is not None
        or base_needs
        or any(getattr(a, "requires_grad", False) for a in args)
    ):
        return
    fn = t._grad_fn  # (as it was: PyTorch refuses before regenerating it)
    if fn is not None and t._multi_view:
        op = forward_op_name(fn)
        msg = f"Output {t._output_nr} of {op} is a view and is being modified inplace."
    elif t._inference_view:
        msg = (
            "A view was created in inference mode and is being modified inplace in "
            "normal mode."
        )
    else:
        msg = (
            f"{_no_grad_view_prefix(t)} no_grad mode and is being modified inplace "
            "with grad mode enabled."
        )
    if t._multi_view:
        raise RuntimeError(msg + _MULTI_VIEW_TAIL)
    raise RuntimeError(msg + _no_grad_tail(t))


_MULTI_VIEW_TAIL = (
    " This view is the output of a function that returns multiple views. "
    "Such functions do not allow the output views to be modified inplace. "
    "You should replace the inplace operation by an out-of-place one."
)


def _no_grad_tail(t: Tensor) -> str:
    block = "inference_mode" if t._inference_view else "no_grad"
    return (
        " Given that this use case is ambiguous and error-prone, it is "
        "forbidden. You can clarify your code by moving both the view and the "
        f"inplace either both inside the {block} block (if you don't want the "
        "inplace to be tracked) or both outside (if you want the inplace to be "
        "tracked)."
    )


_INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed."
    "You can make a clone to get a normal tensor before doing inplace update."
    "See https://github.com/pytorch/rfcs/pull/17 for more details."
)


def _write_directly(t: Tensor, cls: type, args: tuple) -> bool:
    """Under no_grad, ``add_``, ``sub_`` and ``mul_`` of a float tensor by a
    tensor of its dtype and shape (or a Python number) compute straight into its
    memory (``w -= lr * w.grad``): the op's own numpy kernel with ``out=``, so
    the values are the general path's, without the result array, its copy and
    the op's bookkeeping (under no_grad there is no node to record). The checks
    PyTorch makes still run around it (overlaps before, the version bump and
    the inference refusal after); anything else (a broadcast that would grow
    ``t``, a dtype to cast, forward AD) takes the general path and its errors."""
    ufunc = getattr(cls, "inplace_ufunc", None)
    if ufunc is None or function.forward_ad_level is not None:
        return False
    data, other = t._data, args[0]
    if data.dtype.kind != "f" or not (
        other._wrapped_number
        or (other._data.dtype is data.dtype and other._data.shape == data.shape)
    ):
        return False
    alpha = args[1] if len(args) > 1 else 1
    ufunc(data, operand(other, t) if alpha == 1 else other._data * alpha, out=data)
    return True


def bump_version(t: Tensor) -> None:
    """Count an in-place change. An inference tensor has no version to count
    outside inference_mode: PyTorch refuses here, after the data is written."""
    if t._inference and not grad_mode.state.inference:
        raise RuntimeError(_INFERENCE_INPLACE)
    t._vc.value += 1


def _inherit_inference(out: Tensor, src: Tensor) -> None:
    """A view is an inference tensor exactly when what it views is one (a view
    of a normal tensor made in inference_mode stays normal); one made there of
    a tensor that requires grad refuses in-place changes outside."""
    if src._inference or out._inference:
        out._inference = src._inference
    if out._no_grad_view and grad_mode.state.inference:
        out._inference_view = True


def _stale_view_message(t: Tensor) -> str:
    """PyTorch's refusal to regenerate the grad_fn of such a view after its base
    changed in place (it raises on every use of the view then)."""
    if t._multi_view:
        op = forward_op_name(t._grad_fn)
        return (
            f"Output {t._output_nr} of {op} is a view and its base or another view "
            "of its base has been modified inplace." + _MULTI_VIEW_TAIL
        )
    if t._inference_view:
        mode, then = "inference mode", "in normal mode"
    else:
        mode, then = "no_grad mode", "with grad mode enabled"
    return (
        f"{_no_grad_view_prefix(t)} {mode} and its base or another view of its "
        f"base has been modified inplace {then}." + _no_grad_tail(t)
    )


def _no_grad_view_prefix(t: Tensor) -> str:
    """How PyTorch's refusal names a view made under no_grad, or a view with
    history of one (``Output 0 of Slice is a view of a view which...``)."""
    if t._of_no_grad_view and t._grad_fn is not None:
        op = forward_op_name(t._grad_fn)
        return f"Output {t._output_nr} of {op} is a view of a view which was created in"
    return "A view was created in"


def _check_cast(result: dt.dtype, target: dt.dtype, op: type) -> None:
    """PyTorch's canCast for an in-place result: no float into an integer
    tensor, nothing but bool into a bool one (numpy would truncate silently)."""
    if (result.is_floating_point and not target.is_floating_point) or (
        target is dt.bool and result is not dt.bool
    ):
        name = target._cpp if getattr(op, "cast_error_cpp", False) else None
        raise RuntimeError(
            f"result type {result._scalar_type} can't be cast to the desired "
            f"output type {name or target._scalar_type}"
        )


def _snapshot_saved_self(node: Node, t: Tensor) -> None:
    """An in-place op's node may have saved the tensor it is about to overwrite;
    keep the old values instead (PyTorch saves ``original_self``)."""
    saved = node._held
    names = node._slot_names or ("self",)
    # only the ``self`` slot holds the old value; another slot that saved the
    # same tensor (``t.mul_(t)``'s ``other``) sees the write and will fail its
    # version check in backward, as in PyTorch
    is_self = [
        s is not None and s.tensor is t and name == "self"
        for name, s in zip(names, saved or ())
    ]
    if any(is_self):
        # a recorded clone (CloneBackward0), as PyTorch's: create_graph
        # differentiates through it to t's history
        old = _profiling.unrecorded(Clone.apply, t)
        node._held = tuple(
            SavedTensor(old, False) if self_slot else s
            for self_slot, s in zip(is_self, saved)
        ) + tuple(saved[len(is_self) :])


def _rebind_saved_result(node: Node, t: Tensor) -> None:
    """A saved result of an in-place op is the tensor itself after the write."""
    for s in node._held or ():
        if s is not None and s.tensor is None:
            s.data, s.vc, s.version = t._data, t._vc, t._vc.value


def _remember_view_grad_fn(node: Node, view: Tensor) -> None:
    """A saved result of an in-place op on a view keeps a weak reference to the
    view's new grad_fn: PyTorch's version error names it while something (the
    view, a later node) still holds it, else the node that saved it."""
    for s in node._held or ():
        if s is not None and s.tensor is None and s.data is view._data:
            s.view_grad_fn = weakref.ref(view._grad_fn)


class CopySlices(_Qualified, Node):
    """The base's new grad_fn after an in-place op on one of its views: the
    gradient for the written region goes through the in-place op's node ``fn``,
    the rest flows to the base's previous history unchanged."""

    def __init__(self, base: Any, view_fn: Any, fn: Node) -> None:
        self.fn, self.view_fn = fn, view_fn
        self._seq = next(_sequence_nr)  # its own, after fn's (as PyTorch numbers it)
        self.next_functions = (base._edge(),) + fn.next_functions[1:]
        self._output_meta = ((base._data.shape, base._data.dtype),)

    def apply(self, grads: list) -> tuple:
        (g,) = grads
        if self.fn is None:  # released by an earlier backward
            raise RuntimeError(ERR_BACKWARD_TWICE)
        if not _is_array(g):  # create_graph: on Tensors
            # PyTorch's steps, so the gradient's graph has its nodes: g copied
            # into a fresh tensor, whose strided view (the written region) is
            # cloned for fn, and overwritten with fn's gradient for the view
            result = type(g)._make(np.zeros(g.shape, f.data(g).dtype), False)
            result.copy_(g)
            region = result._view(AsStrided, self.view_fn)
            res = call_node(self.fn, [Clone.apply(region, "C")], graph=True)
            if res[0] is not None:
                region.copy_(res[0])
            return (result,) + tuple(res[1:])
        result = np.array(g, copy=True)
        region = self.view_fn(result)
        res = call_node(self.fn, [np.array(region, copy=True)], graph=False)
        region[...] = 0 if res[0] is None else res[0]
        return (result,) + tuple(res[1:])

    def saved_names(self) -> list[str]:
        return [] if self.fn is None else self.fn.saved_names()

    def release_variables(self) -> None:
        # PyTorch drops the wrapped node (a second backward through it raises)
        # without releasing it: a create_graph gradient may still reach it
        # (through a saved result of the in-place op), and then runs it
        self.fn = None


class AsStridedBackward0(Node):
    """A view's grad_fn after its base was changed in place: the gradient of
    the view is placed into zeros shaped like the base."""

    def __init__(self, base: Any, view_fn: Any) -> None:
        self.view_fn = view_fn
        self.base_shape = base._data.shape
        # the view's geometry in its base's memory, as PyTorch saves it
        view = view_fn(base._data)
        geometry = _geometry(base._data, view)
        self._saved_size, self._saved_stride, self._saved_storage_offset = geometry
        self.next_functions = (base._edge(),)
        self._output_meta = ((view.shape, view.dtype),)
        self._seq = next(_sequence_nr)

    def apply(self, grads: list) -> tuple:
        return (as_strided_backward(grads[0], self.base_shape, self.view_fn),)


class AsStrided(Op):
    """d a.as_strided(the geometry ``pick`` takes of a) = g placed into zeros
    like a: the strided view PyTorch's formulas take (CopySlices' gradient and
    as_strided's, under create_graph)"""

    node_name = "AsStridedBackward0"
    saved_attrs = ("size", "stride", "storage_offset")

    @staticmethod
    def view_fn(x: np.ndarray, pick: Callable) -> np.ndarray:
        return pick(x)

    @staticmethod
    def forward(ctx: Ctx, a: Any, pick: Callable) -> Any:
        out = pick(a._data)
        ctx.size, ctx.stride, ctx.storage_offset = _geometry(a._data, out)
        ctx.pick, ctx.base_shape = pick, a._data.shape
        return out

    @staticmethod
    def backward(ctx: Ctx, g: Grad) -> tuple:
        return as_strided_backward(g, ctx.base_shape, ctx.pick), None


def _geometry(base: np.ndarray, view: np.ndarray) -> tuple:
    """A view's size, stride and storage offset in its base's memory, in
    elements."""
    item = view.itemsize
    offset = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return view.shape, tuple(st // item for st in view.strides), offset // item


def as_strided_backward(g: Grad, shape: tuple, pick: Callable) -> Any:
    """The gradient of the strided view ``pick`` takes of a tensor shaped
    ``shape``: ``g`` placed into zeros, added where the view repeats an element.
    As PyTorch's as_strided_backward: ``g`` summed first over the view's
    expanded dims (stride 0), then written into the zeros' strided view with
    ``copy_`` (added with ``index_add_`` where the view still overlaps, as an
    unfolded one), the result a strided view of the whole (what create_graph
    records)."""
    zeros = np.zeros(shape, f.data(g).dtype)
    view = pick(zeros)
    expanded = tuple(
        d
        for d, (n, st) in enumerate(zip(view.shape, view.strides))
        if st == 0 and n > 1
    )
    if expanded:
        g = f.sum_dims(g, expanded, keepdim=True)
        key = tuple(
            slice(0, 1) if d in expanded else slice(None) for d in range(g.ndim)
        )
        pick = _then(pick, key)
        view = pick(zeros)
    if _is_array(g):
        if _may_overlap(view):
            np.add.at(view, (), g)  # unbuffered: a repeated element sums
        else:
            view[...] = g
        # PyTorch's result is a strided view of the zeros it wrote into (so
        # at version 1, and never added into in place by the engine)
        return bump_grad_version(_whole(zeros))
    make = type(g)._make
    if _may_overlap(view):
        flat = _view_positions(pick, shape).reshape(-1)
        storage = make(zeros.reshape(-1), False)
        storage.index_add_(0, make(flat, False), g.reshape(-1))
        return storage._view(AsStrided, lambda x: x.reshape(shape))
    storage = make(zeros, False)
    storage._view(AsStrided, pick).copy_(g)
    return storage._view(AsStrided, _whole)


def _is_array(g: Any) -> bool:
    return isinstance(g, (np.ndarray, np.generic))


def _then(pick: Callable, key: tuple) -> Callable:
    return lambda x: pick(x)[key]


def _whole(x: np.ndarray) -> np.ndarray:
    return x[...]  # (a new array object: a view is never its base's own array)


def _may_overlap(view: np.ndarray) -> bool:
    """Whether two elements of a view may share memory (an expanded or unfolded
    view): false when each dim's stride, smallest first, steps over all the
    memory the smaller ones span."""
    span = view.itemsize
    for n, st in sorted(zip(view.shape, map(abs, view.strides)), key=lambda d: d[1]):
        if n == 0:
            return False
        if n > 1:
            if st < span:
                return True
            span += (n - 1) * st
    return False


def _view_positions(view_fn: Any, shape: tuple) -> np.ndarray:
    """For each element of a view, its flat position in the base (so that a
    view's gradient can be read and written with recorded index ops)."""
    return np.array(view_fn(np.arange(int(np.prod(shape))).reshape(shape)))
