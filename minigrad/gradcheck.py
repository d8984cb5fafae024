"""``gradcheck``: compare backward's gradients with finite differences."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from . import engine
from ._dtype import float64
from ._generator import default_generator
from ._tensor import Tensor
from ._tensor_str import tensor_repr


class GradcheckError(RuntimeError):
    pass


def _as_tuple(x: Any) -> tuple:
    return x if isinstance(x, tuple) else (x,)


def _numerical_jacobian(
    fn: Callable, inputs: tuple, i: int, out_index: int, eps: float
) -> np.ndarray:
    """d out / d inputs[i] by central differences, one input element at a time."""
    x = inputs[i]._data
    out0 = _as_tuple(fn(*inputs))[out_index]._data
    jac = np.zeros((x.size, out0.size))
    flat = x.reshape(-1)  # a view: writing into it perturbs the input in place
    for k in range(x.size):
        orig = flat[k]
        flat[k] = orig + eps
        plus = _as_tuple(fn(*inputs))[out_index]._data.reshape(-1).copy()
        flat[k] = orig - eps
        minus = _as_tuple(fn(*inputs))[out_index]._data.reshape(-1).copy()
        flat[k] = orig
        jac[k] = (plus - minus) / (2 * eps)
    return jac


def _analytical_jacobian(
    outputs: tuple, inputs: tuple, i: int, out_index: int
) -> np.ndarray:
    """d out / d inputs[i] from backward, one output element at a time."""
    out = outputs[out_index]
    x = inputs[i]
    jac = np.zeros((x._data.size, out._data.size))
    for k in range(out._data.size):
        seed = np.zeros(out._data.size, out._data.dtype)
        seed[k] = 1
        (g,) = engine.grad(
            out,
            x,
            Tensor._make(seed.reshape(out._data.shape), False),
            retain_graph=True,
            allow_unused=True,
        )
        if g is not None:
            jac[:, k] = g._data.reshape(-1)
    return jac


def _forward_jacobian(
    fn: Callable, inputs: tuple, i: int, out_index: int
) -> np.ndarray:
    """d out / d inputs[i] from forward AD, one input element (a one-hot
    tangent) at a time."""
    from .autograd import forward_ad as fwad  # (autograd imports gradcheck)

    x = inputs[i]
    jac = None
    for k in range(x._data.size):
        seed = np.zeros(x._data.size, x._data.dtype)
        seed[k] = 1
        with fwad.dual_level():
            dual = fwad.make_dual(x, Tensor._make(seed.reshape(x.shape), False))
            args = inputs[:i] + (dual,) + inputs[i + 1 :]
            out = _as_tuple(fn(*args))[out_index]
            tangent = fwad.unpack_dual(out).tangent
        if jac is None:
            jac = np.zeros((x._data.size, out._data.size))
        if tangent is not None:
            jac[k] = tangent._data.reshape(-1)
    return np.zeros((0, 0)) if jac is None else jac


def gradcheck(
    func: Callable,
    inputs: Any,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    check_forward_ad: bool = False,
    check_backward_ad: bool = True,
    **_ignored: Any,
) -> bool:
    """Check ``func``'s backward (``check_backward_ad``) and/or its forward-mode
    tangents (``check_forward_ad``) against finite differences for every input
    that requires grad (use float64 inputs, as with PyTorch)."""
    inputs = _as_tuple(inputs)
    for i, x in enumerate(inputs):
        if isinstance(x, Tensor) and x.requires_grad and x.dtype is not float64:
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating "
                "point or complex. This check will likely fail if all the inputs are "
                "not of double precision floating point or complex. ",
                UserWarning,
                stacklevel=2,
            )
    outputs = _as_tuple(func(*inputs))
    for i, x in enumerate(inputs):
        if not (isinstance(x, Tensor) and x.requires_grad):
            continue
        for j, out in enumerate(outputs):
            if not isinstance(out, Tensor) or not out.requires_grad:
                continue
            numerical = _numerical_jacobian(func, inputs, i, j, eps)
            checks = []
            if check_backward_ad:
                checks.append(("", _analytical_jacobian(outputs, inputs, i, j)))
            if check_forward_ad:
                mode = "computed with forward mode "
                checks.append((mode, _forward_jacobian(func, inputs, i, j)))
            for mode, analytical in checks:
                if np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                    continue
                if not raise_exception:
                    return False
                raise GradcheckError(
                    f"Jacobian {mode}mismatch for output {j} with respect to "
                    f"input {i},\nnumerical:{_fmt(numerical, x)}\nanalytical:"
                    f"{_fmt(analytical, x)}\n"
                )
    return True


def gradgradcheck(
    func: Callable, inputs: Any, grad_outputs: Any = None, **kwargs: Any
) -> bool:
    """Check second derivatives, as PyTorch does: gradcheck of the map
    (inputs, grad_outputs) -> vector-Jacobian product, with ``grad_outputs``
    drawn from U(-1, 1) by the default generator when not given (so the
    stream moves on as PyTorch's does)."""
    kwargs.pop("gen_non_contig_grad_outputs", None)
    inputs = _as_tuple(inputs)

    def differentiable(outs: Any) -> list:
        return [o for o in _as_tuple(outs) if isinstance(o, Tensor) and o.requires_grad]

    if grad_outputs is None:
        grad_outputs = tuple(
            Tensor._make(default_generator.uniform(o.shape, o._data.dtype, -1, 1), True)
            for o in differentiable(func(*inputs))
        )
    grad_outputs = _as_tuple(grad_outputs)
    n = len(inputs)

    def vjp(*args: Any) -> tuple:
        xs = args[:n]
        diff = [x for x in xs if isinstance(x, Tensor) and x.requires_grad]
        grads = engine.grad(
            differentiable(func(*xs)),
            diff,
            args[n:],
            create_graph=True,
            allow_unused=True,
        )
        return tuple(g for g in grads if g is not None)

    return gradcheck(vjp, inputs + grad_outputs, **kwargs)


def _fmt(a: np.ndarray, x: Tensor) -> str:
    """A Jacobian printed in the input's dtype, as PyTorch prints it."""
    return tensor_repr(a.astype(x._data.dtype), x.dtype.name)
