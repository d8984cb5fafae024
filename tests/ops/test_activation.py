"""Activations (ops/activation.py): relu, sigmoid and tanh (over the wider
elementwise suite), leaky_relu, gelu, softplus, the ELU family,
hardtanh, relu6, SiLU, Mish, logsigmoid; ties and zeros against PyTorch.

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py and test_ops_elementwise.py, split by
family.)
"""

from __future__ import annotations

from typing import Any

from op_harness import (
    ANY,
    ELEMENTWISE,
    NONZERO,
    act,
    family_tests,
)

# --------------------------------------------------------------- elementwise
# name -> (expression, element domain)
UNARY: dict[str, tuple[Any, Any]] = {
    "leaky_relu": (lambda T, a: act(T, "leaky_relu", a), NONZERO),
    "leaky_relu_slope": (lambda T, a: act(T, "leaky_relu", a, 0.2), NONZERO),
    "gelu": (lambda T, a: act(T, "gelu", a), ANY),
    "gelu_tanh": (lambda T, a: act(T, "gelu", a, approximate="tanh"), ANY),
    "softplus": (lambda T, a: act(T, "softplus", a), ANY),
    # beta * x exactly at the threshold (x = 0.75) is where softplus switches to
    # x: a jump there, which PyTorch's gradcheck also fails, so keep away from it
    "softplus_beta": (
        lambda T, a: act(T, "softplus", a, 2, 1.5),
        ANY.filter(lambda v: abs(2 * v - 1.5) > 1e-3),
    ),
    "elu": (lambda T, a: T.nn.functional.elu(a, 0.5), NONZERO),
    "selu": (lambda T, a: T.nn.functional.selu(a), NONZERO),
    "celu": (lambda T, a: T.nn.functional.celu(a, 0.7), NONZERO),
    "elu_": (lambda T, a: T.nn.functional.elu(a * 1, inplace=True), NONZERO),
    "celu_": (lambda T, a: T.nn.functional.celu(a * 1, 2.0, inplace=True), NONZERO),
    "hardtanh": (lambda T, a: T.nn.functional.hardtanh(a, -0.537, 0.537), NONZERO),
    "relu6": (lambda T, a: T.nn.functional.relu6(a * 3.7), NONZERO),
    "silu": (lambda T, a: T.nn.functional.silu(a), ANY),
    "mish": (lambda T, a: T.nn.functional.mish(a), ANY),
    "logsigmoid": (lambda T, a: T.nn.functional.logsigmoid(a), ANY),
}


TIE_CASES = {
    "relu_like_leaky_zero": (lambda T, a: act(T, "leaky_relu", a), ([0.0, 1.0],)),
    "softplus_threshold": (
        lambda T, a: act(T, "softplus", a, 1, 2),
        ([-3.0, 1.9, 2.1, 30.0],),
    ),
}


# the elementwise suite over this family's tables (op_harness.family_tests)
globals().update(family_tests(unary=UNARY, tie_cases=TIE_CASES))

# ------------------------------------------------ the wider elementwise suite
# name -> (expression, element domain), over op_harness.ELEMENTWISE's shapes
ELEMENTWISE_UNARY: dict[str, tuple[Any, Any]] = {
    "tanh": (lambda T, a: a.tanh(), ANY),
    "sigmoid": (lambda T, a: a.sigmoid(), ANY),
    "relu": (lambda T, a: a.relu(), NONZERO),
}
globals().update(family_tests(unary=ELEMENTWISE_UNARY, **ELEMENTWISE))
