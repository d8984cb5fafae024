"""``minigrad.autograd.forward_ad``: forward-mode AD with dual tensors.

Inside ``with dual_level():``, ``make_dual(x, t)`` attaches a tangent ``t`` to
``x``; every op then carries a tangent along with its result, the
Jacobian-vector product ``J t``, and ``unpack_dual(y)`` returns both.

minigrad computes ``J t`` from the op's backward formula, which gives ``Jᵀ g``
for any ``g``: that is linear in ``g``, so differentiating ``<Jᵀ g, t>`` with
respect to ``g`` gives ``J t`` (the "double backward trick"). Every op thus has
forward mode without a second formula. Tangents carry no graph of their own
(PyTorch records one when the primal requires grad: forward-over-reverse).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from .. import (
    function,  # function.forward_ad_level: the level entered (only 0)
    grad_mode,
)
from .._tensor import Tensor
from ..creation import zeros_like
from ..engine import grad
from ..node import register

_duals: dict[int, weakref.ref] = {}  # tensors holding a tangent, by id


class UnpackedDualTensor(NamedTuple):
    primal: Tensor
    tangent: Tensor | None


def enter_dual_level() -> int:
    if function.forward_ad_level is not None:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    function.forward_ad_level = 0
    return 0


def exit_dual_level(*, level: int | None = None) -> None:
    """Leave the level: every tangent made in it is dropped."""
    for ref in list(_duals.values()):
        t = ref()
        if t is not None:
            t._fw_grad = None
    _duals.clear()
    function.forward_ad_level = None


class dual_level:  # noqa: N801 - PyTorch's spelling
    """``with dual_level():`` forward AD inside the block."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *args: Any) -> None:
        exit_dual_level()


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A view of ``tensor`` that carries ``tangent`` as its forward gradient."""
    if function.forward_ad_level is None:
        raise RuntimeError(
            "Trying to create a dual Tensor for forward AD but no level exists, make "
            "sure to enter_dual_level() first."
        )
    for name, t in (("primal", tensor), ("tangent", tangent)):
        if not t.is_floating_point():
            raise ValueError(
                f"Expected {name} to be floating point or complex, but got: {t.dtype}"
            )
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of "
            "the original Tensor, this is not supported. Tensor is of size "
            f"{list(tensor.shape)} while the given forward gradient is of size "
            f"{list(tangent.shape)}."
        )
    dual = tensor.view_as(tensor)
    dual._dual_root = True  # its tangent is its own, not a view of tensor's
    set_tangent(dual, tangent)
    return dual


def unpack_dual(tensor: Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """``(primal, tangent)``: a view of the values, and the tangent (or None)."""
    tangent = tensor._fw_grad if function.forward_ad_level is not None else None
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    with _no_tangents():  # the primal is a plain view
        primal = tensor.view_as(tensor)
    return UnpackedDualTensor(primal, tangent)


@contextmanager
def _no_tangents() -> Iterator[None]:
    """Ops run here make no tangents (forward AD's own bookkeeping)."""
    function.forward_ad_level, level = None, function.forward_ad_level
    try:
        yield
    finally:
        function.forward_ad_level = level


def write_tangent(t: Tensor, tangent: Tensor) -> None:
    """After an in-place op on ``t``: the op's tangent, written into ``t``'s
    tangent; for a view, into its base's tangent (zeros if it had none), of
    which the view's tangent is a view, as in PyTorch."""
    old = t._fw_grad
    if old is not None and old.shape == tangent.shape:
        # in place, like the values: a view's tangent is a view of its owner's
        old._data[...] = tangent._data
        return
    base = t._base
    if base is None or t.__dict__.get("_dual_root"):
        set_tangent(t, tangent)
        return
    whole = base._fw_grad
    if whole is None:
        whole = _zeros(base)
        set_tangent(base, whole)
    region = t._view_fn(whole._data)
    region[...] = tangent._data
    set_tangent(t, Tensor._make(region, False))


def view_tangent(view: Tensor, of: Tensor, view_fn: Any) -> None:
    """A view of a dual tensor has the same view of its tangent (so writing
    through either view changes the owner's tangent, as in PyTorch)."""
    set_tangent(view, Tensor._make(view_fn(of._fw_grad._data), False))


def set_tangent(t: Tensor, tangent: Tensor | None) -> None:
    t._fw_grad = tangent
    if tangent is not None:
        key = id(t)
        _duals[key] = weakref.ref(t, lambda _, key=key: _duals.pop(key, None))


def propagate(cls: type, ctx: Any, args: tuple, result: Any) -> None:
    """Give ``result`` (an op's output, or a tuple of them) its tangents."""
    tangents = [
        a._fw_grad if isinstance(a, Tensor) and a._fw_grad is not None else None
        for a in args
    ]
    if all(t is None for t in tangents):
        return
    outputs = result if isinstance(result, tuple) else (result,)
    if not cls._array_backward:  # a user's Function brings its own jvp
        _user_jvp(cls, ctx, args, outputs, tangents)
        return
    own = cls.__dict__.get("fw_tangent")
    if own is not None:  # an op whose backward is not its exact derivative
        with _no_tangents():
            set_tangent(outputs[0], own(args, tangents).detach())
        return
    # The op once more, on leaves, so its backward formula can be asked for J t
    with grad_mode.enable_grad(), _no_tangents():
        leaves = [
            a.detach().requires_grad_()
            if isinstance(a, Tensor) and t is not None
            else a
            for a, t in zip(args, tangents)
        ]
        again = cls.apply(*leaves)
        again = again if isinstance(again, tuple) else (again,)
        wrt = [leaf for leaf, t in zip(leaves, tangents) if t is not None]
        along = [t for t in tangents if t is not None]
        for out, ref in zip(outputs, again):
            if not isinstance(out, Tensor) or not out.is_floating_point():
                continue
            if ref.grad_fn is None:  # does not depend on the dual inputs
                continue
            set_tangent(out, double_backward_jvp(ref, wrt, along).detach())


def double_backward_jvp(
    out: Tensor, xs: list, tangents: list, create_graph: bool = False
) -> Tensor:
    """``J t``, the derivative of ``out`` with respect to ``xs`` along
    ``tangents``: the backward formula gives ``Jᵀ g``, linear in ``g``, so the
    gradient of ``<Jᵀ g, t>`` with respect to ``g`` is ``J t``."""
    g = _zeros(out).requires_grad_()  # (fresh: out may be a view of an input)
    vjps = grad(out, xs, g, create_graph=True, allow_unused=True)
    total = None
    for v, t in zip(vjps, tangents):
        if v is not None and v.requires_grad:  # (else it does not depend on g)
            term = (v * t.to(v.dtype)).sum()
            total = term if total is None else total + term
    if total is None:
        return _zeros(out)
    (jt,) = grad(total, g, create_graph=create_graph, allow_unused=True)
    return _zeros(out) if jt is None else jt


def _zeros(t: Tensor) -> Tensor:
    return zeros_like(t)


def _user_jvp(cls: type, ctx: Any, args: tuple, outputs: tuple, tangents: list):
    """``cls.jvp(ctx, *tangents)`` (zeros for inputs without one): the tangents of
    the outputs, from a user's Function (``Function.jvp`` refuses, as PyTorch)."""
    given = [
        t if t is not None else (_zeros(a) if isinstance(a, Tensor) else None)
        for a, t in zip(args, tangents)
    ]
    # in the caller's grad mode: where an input requires grad the tangent is
    # recorded, as PyTorch's forward-over-reverse records it
    with _no_tangents():  # tangents have no tangents
        out_t = cls.jvp(ctx, *given)
    out_t = out_t if isinstance(out_t, tuple) else (out_t,)
    for out, t in zip(outputs, out_t):
        if isinstance(out, Tensor) and t is not None:
            set_tangent(out, t)


# Ops, views and in-place writes carry tangents through these (the core and the
# Tensor sit below this module and do not import it).
register(
    propagate_tangents=propagate,
    view_tangent=view_tangent,
    write_tangent=write_tangent,
)
