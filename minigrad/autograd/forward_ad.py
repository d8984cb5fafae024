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
from typing import Any, NamedTuple

from .. import grad_mode
from .._tensor import Tensor
from ..function import forward_ad_state as _state  # the level entered (only 0)

_duals: dict[int, weakref.ref] = {}  # tensors holding a tangent, by id


class UnpackedDualTensor(NamedTuple):
    primal: Tensor
    tangent: Tensor | None


def enter_dual_level() -> int:
    if _state["level"] is not None:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _state["level"] = 0
    return 0


def exit_dual_level(*, level: int | None = None) -> None:
    """Leave the level: every tangent made in it is dropped."""
    for ref in list(_duals.values()):
        t = ref()
        if t is not None:
            t._fw_grad = None
    _duals.clear()
    _state["level"] = None


class dual_level:  # noqa: N801 - PyTorch's spelling
    """``with dual_level():`` forward AD inside the block."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *args: Any) -> None:
        exit_dual_level()


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A view of ``tensor`` that carries ``tangent`` as its forward gradient."""
    if _state["level"] is None:
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
    set_tangent(dual, tangent)
    return dual


def unpack_dual(tensor: Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """``(primal, tangent)``: a view of the values, and the tangent (or None)."""
    tangent = tensor._fw_grad if _state["level"] is not None else None
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    _state["level"], level = None, _state["level"]  # the view has no tangent
    try:
        primal = tensor.view_as(tensor)
    finally:
        _state["level"] = level
    return UnpackedDualTensor(primal, tangent)


def set_tangent(t: Tensor, tangent: Tensor | None) -> None:
    t._fw_grad = tangent
    if tangent is not None:
        key = id(t)
        _duals[key] = weakref.ref(t, lambda _, key=key: _duals.pop(key, None))


def active() -> bool:
    return _state["level"] is not None


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
        _state["level"], level = None, _state["level"]
        try:
            set_tangent(outputs[0], own(args, tangents).detach())
        finally:
            _state["level"] = level
        return
    from ..engine import grad

    with grad_mode.enable_grad():
        leaves = [
            a.detach().requires_grad_()
            if isinstance(a, Tensor) and t is not None
            else a
            for a, t in zip(args, tangents)
        ]
        _state["level"], level = None, _state["level"]  # no tangents in here
        try:
            again = cls.apply(*leaves)
        finally:
            _state["level"] = level
        again = again if isinstance(again, tuple) else (again,)
        wrt = [leaf for leaf, t in zip(leaves, tangents) if t is not None]
        along = [t for t in tangents if t is not None]
        for out, ref in zip(outputs, again):
            if not isinstance(out, Tensor) or not out.is_floating_point():
                continue
            if ref.grad_fn is None:  # does not depend on the dual inputs
                continue
            g = _zeros(ref).requires_grad_()  # (a fresh tensor: ref may be a view)
            vjps = grad(ref, wrt, g, create_graph=True, allow_unused=True)
            total = None
            for v, t in zip(vjps, along):
                if v is not None and v.requires_grad:
                    term = (v * t.to(v.dtype)).sum()
                    total = term if total is None else total + term
            if total is None:
                jvp = _zeros(out)
            else:
                (jvp,) = grad(total, g, allow_unused=True)
                jvp = _zeros(out) if jvp is None else jvp.detach()
            set_tangent(out, jvp)


def _zeros(t: Tensor) -> Tensor:
    from ..creation import zeros_like

    return zeros_like(t)


def _user_jvp(cls: type, ctx: Any, args: tuple, outputs: tuple, tangents: list):
    """``cls.jvp(ctx, *tangents)`` (zeros for inputs without one): the tangents of
    the outputs, from a user's Function (``Function.jvp`` refuses, as PyTorch)."""
    given = [
        t if t is not None else (_zeros(a) if isinstance(a, Tensor) else None)
        for a, t in zip(args, tangents)
    ]
    _state["level"], level = None, _state["level"]  # tangents have no tangents
    try:
        with grad_mode.no_grad():
            out_t = cls.jvp(ctx, *given)
    finally:
        _state["level"] = level
    out_t = out_t if isinstance(out_t, tuple) else (out_t,)
    for out, t in zip(outputs, out_t):
        if isinstance(out, Tensor) and t is not None:
            set_tangent(out, t)
