"""Bitwise and shift operators, their in-place and functional forms, integer
powers with negative exponents, and size, matmul and where argument errors: PyTorch
2.13's values, dtypes, versions and messages (431 programs, each run in both)."""

from __future__ import annotations

import operator as o
from collections.abc import Callable
from typing import Any

import numpy as np  # noqa: F401 - (named in WHERE_ARGS)
import pytest

import minigrad

torch = pytest.importorskip("torch")


def attempt(lib: Any, f: Callable) -> str:
    try:
        r = f(lib)
        if isinstance(r, lib.Tensor):
            r = (r.tolist(), str(r.dtype), r._version)
        return f"ok {r!r}".replace("minigrad", "torch")
    except Exception as e:  # noqa: BLE001 - the error is what is compared
        return f"{type(e).__name__}: {e}".replace("minigrad", "torch")


def inplace(op: Callable, a: Callable, b: Callable) -> Callable:
    return lambda T: (lambda x: (op(x, b(T)), x)[1])(a(T))


def binary(op: Callable, a: Callable, b: Callable) -> Callable:
    return lambda T: op(a(T), b(T))


def function(name: str) -> Callable:
    return lambda T: getattr(T, name)(I(T), T.tensor([1, 1, 2, 2]))


def I(T: Any) -> Any:  # noqa: E743, N802, N803
    return T.tensor([1, 2, -3, 12])


def B(T: Any) -> Any:  # noqa: E743, N802, N803
    return T.tensor([True, False, True, False])


cases: dict[str, Callable] = {}
for name, op in [
    ("and", o.and_),
    ("or", o.or_),
    ("xor", o.xor),
    ("lshift", o.lshift),
    ("rshift", o.rshift),
]:
    for rn, rhs in [
        ("int", lambda T: 2),
        ("tensor", lambda T: T.tensor([1, 3, 0, 2])),
        ("neg", lambda T: -1),
        ("big", lambda T: 70),
        ("bool", lambda T: True),
        ("bt", B),
        ("u8", lambda T: T.tensor([1, 2, 3, 4], dtype=T.uint8)),
        ("i32", lambda T: T.tensor([1, 2, 3, 4], dtype=T.int32)),
        ("f", lambda T: 1.5),
        ("ft", lambda T: T.ones(4)),
    ]:
        for ln, lhs in [
            ("I", I),
            ("B", B),
            ("u8", lambda T: T.tensor([1, 2, 3, 250], dtype=T.uint8)),
            ("i8", lambda T: T.tensor([1, -2, 3, -128], dtype=T.int8)),
        ]:
            cases[f"{ln} {name} {rn}"] = binary(op, lhs, rhs)
            iop = getattr(
                o, "i" + ("and" if name == "and" else "or" if name == "or" else name)
            )
            cases[f"{ln} i{name} {rn}"] = inplace(iop, lhs, rhs)
    cases[f"3 {name} I"] = binary(op, lambda T: 3, I)
for fn in [
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_left_shift",
    "bitwise_right_shift",
]:
    cases[fn] = function(fn)
    cases[fn + "_"] = inplace(
        lambda x, b, fn=fn: getattr(x, fn + "_")(b), I, lambda T: 1
    )
cases["bitwise_not"] = lambda T: T.bitwise_not(I(T))
cases["bitwise_not_"] = lambda T: (lambda x: (x.bitwise_not_(), x)[1])(I(T))
for fn in ["logical_not_"]:
    cases[fn] = lambda T: (lambda x: (x.logical_not_(), x)[1])(
        T.tensor([1.0, 0.0, 2.0])
    )
cases["logical_and_"] = lambda T: (
    lambda x: (x.logical_and_(T.tensor([1, 0, 1])), x)[1]
)(T.tensor([1.0, 0.0, 2.0]))
cases["logical_or_ bool"] = lambda T: (
    lambda x: (x.logical_or_(T.tensor([1, 0, 0])), x)[1]
)(T.tensor([True, False, False]))
cases["int neg pow tensor"] = lambda T: (
    T.tensor([2, 3, 1, -1, -1, 0, -2]) ** T.tensor([-1, 2, -5, -3, -2, -1, -2])
)
cases["int neg pow scalar"] = lambda T: T.tensor([2, 3]) ** -1
cases["int pow_"] = lambda T: T.tensor([2, 3]).pow_(T.tensor([-1, 1]))
cases["int rpow neg"] = lambda T: 2 ** T.tensor([-1, 2])
cases["int rpow neg 1"] = lambda T: (-1) ** T.tensor([-1, -2, 3])
cases["torch.pow int"] = lambda T: T.pow(T.tensor([2, 4]), T.tensor([-2, 1]))
cases["matmul list"] = lambda T: T.ones(2, 2).matmul([[1.0, 2.0], [3.0, 4.0]])
cases["matmul list fn"] = lambda T: T.matmul(T.ones(2, 2), [[1.0, 2.0], [3.0, 4.0]])
cases["matmul list first"] = lambda T: T.matmul([[1.0, 2.0]], T.ones(2, 2))
cases["@ list"] = lambda T: T.ones(2, 2) @ [[1.0, 2.0], [3.0, 4.0]]
cases["expanded ior"] = lambda T: (lambda x: x.__ior__(1))(T.tensor([1]).expand(3))

SIZE_ERRORS = [
    "x.view((2.5,))", "x.view([2.5])", "x.view((2, 2.5))", "x.view(2, 2.5)",
    "x.reshape((2.5,))", "x.reshape(2, 2.5)", "x.view([2, 2.0])", "x.expand((2.5,))",
    "x.view(2.5, 2)", "x.reshape(2.5, 2)", "lib.ones(2.5, 2)", "lib.ones((2.5, 2))",
    "lib.zeros([2.5])", "x.expand(2.5, 4)", "x.view([True])", "x.reshape([True, 2])",
    "x.view(True)", "x.view([2, True])", "x.view(())", "x.view([4])",
]  # fmt: skip


@pytest.mark.parametrize("name", list(cases))
def test_like_pytorch(name: str) -> None:
    assert attempt(minigrad, cases[name]) == attempt(torch, cases[name])


@pytest.mark.parametrize("expr", SIZE_ERRORS)
def test_size_argument_errors(expr: str) -> None:
    outs = []
    for lib in (torch, minigrad):
        x = lib.ones(1 if expr == "x.view(())" else 4)
        outs.append(attempt(lib, lambda _, x=x, lib=lib: eval(expr)))
    assert outs[1] == outs[0]


WHERE_ARGS = [
    "c, t, [1., 2.]", "c, [1., 2.], t", "c, [1, 2], [3, 4]", "c, t, 'a'", "c, t, None",
    "c, 1.0, [1.]", "c, (1,), t", "[True, False], t, t", "c, lib.nn.Parameter(t), 'x'",
    "c, t, 2", "c, 1, t", "c, True, t", "c, t, np.int64(2)", "c, np.float32(2), t",
    "c, t, np.bool_(True)",
]  # fmt: skip


@pytest.mark.parametrize("args", WHERE_ARGS)
def test_where_argument_errors(args: str) -> None:
    # PyTorch's parser lists where's five overloads and marks each argument
    # whose type name is not the signature's ('Number' matches none)
    outs = []
    for lib in (torch, minigrad):
        c, t = lib.tensor([True, False]), lib.ones(2)
        outs.append(
            attempt(lib, lambda _, c=c, t=t, lib=lib: eval(f"lib.where({args})"))
        )
    assert outs[1] == outs[0]
