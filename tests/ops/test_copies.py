"""Copies and casts (ops/copies.py): clone, contiguous, ``to`` a dtype (and the
forms that take a tensor or a device), double, float; a cast to the same dtype
returns the tensor itself; the root gradient is cast to the output's dtype.

Each against PyTorch (values, gradients, nodes, next_functions, ``_saved_*``).
(These came from test_ops_shape.py, split by family.)
"""

from __future__ import annotations

from typing import Any

from op_harness import cases_vs_torch, torch

CASES: dict[str, tuple[tuple, Any]] = {
    "clone": ((2, 3), lambda T, a: a.clone()),
    "contiguous_contig": ((2, 3), lambda T, a: a.contiguous()),
    "contiguous_noncontig": ((2, 3), lambda T, a: a.t().contiguous()),
    "to_float64": ((2, 3), lambda T, a: a.to(T.float64)),
    "to_float32": ((2, 3), lambda T, a: a.to(T.float32)),
    "to_kwarg": ((2, 3), lambda T, a: a.to(dtype=T.float64)),
    "to_tensor": ((2, 3), lambda T, a: a.to(T.zeros(1, dtype=T.float64))),
    "double": ((2, 3), lambda T, a: a.double()),
    "float": ((2, 3), lambda T, a: a.float()),
    "to_cpu": ((2, 3), lambda T, a: a.to("cpu", T.float64)),
}
test_shape_ops_vs_torch = cases_vs_torch(CASES)


def test_same_dtype_to_returns_self() -> None:
    for lib in (torch, __import__("minigrad")):
        a = lib.ones(2, requires_grad=True)
        assert a.to(lib.float32) is a and a.float() is a
        b = a.t() if a.dim() == 2 else a
        assert b.contiguous() is b


def test_root_gradient_cast_to_output_dtype() -> None:
    import minigrad

    grads = []
    for lib in (torch, minigrad):
        x = lib.ones(2, dtype=lib.float64, requires_grad=True)
        x.float().backward(lib.tensor([1 / 3, 1 / 3], dtype=lib.float64))
        grads.append(x.grad.tolist())
    assert grads[0] == grads[1]
