"""Every elementwise op minigrad exports, run on inputs of other layouts than
row-major, against PyTorch: the result's strides and contiguity, the strides
of the gradient reaching the (non-leaf) input view (``autograd.grad``), and of
the ``.grad`` of a leaf of that layout (AccumulateGrad's layout contract).

The layouts: transposed, every other column (not dense), a 3-d permutation,
an expanded column, channels-last 4-d, and a permutation with a size-1 dim.
Ops of two tensors pair a transposed, permuted or channels-last operand with a
row-major one, either way round, and with one of the same layout.

What still differs is listed in ``KNOWN`` (op -> the checks that differ), so
the list can only shrink: the gradients' layouts of composite backward
formulas (pow's, atan2's, fmax's, the losses'), computed on numpy arrays
whose intermediate results numpy lays out its own way; and a size-1 dim's
stride in a gradient through a view, which numpy picks (PyTorch's follows the
operands).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import minigrad

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.filterwarnings("ignore")


def _mk(T: Any, shape: tuple) -> Any:
    n = 1
    for s in shape:
        n *= s
    return (T.arange(n, dtype=T.float64).reshape(shape) / n - 0.4) * 3.1


LAYOUTS: dict[str, Callable[[Any], Any]] = {
    "transposed": lambda T: _mk(T, (3, 4)).t(),
    "sliced": lambda T: _mk(T, (3, 8))[:, ::2],
    "permuted": lambda T: _mk(T, (2, 3, 4)).permute(2, 0, 1),
    "expanded": lambda T: _mk(T, (3, 1)).expand(3, 4),
    "channels_last": lambda T: _mk(T, (2, 4, 5, 3)).permute(0, 3, 1, 2),
    "size1": lambda T: _mk(T, (3, 1, 4)).permute(2, 1, 0),
}


def _f(T: Any) -> Any:
    return T.nn.functional


ONE: dict[str, Callable[[Any, Any], Any]] = {
    "exp": lambda T, x: x.exp(),
    "log": lambda T, x: x.log(),
    "sqrt": lambda T, x: x.sqrt(),
    "abs": lambda T, x: x.abs(),
    "neg": lambda T, x: -x,
    "sin": lambda T, x: x.sin(),
    "cos": lambda T, x: x.cos(),
    "tan": lambda T, x: x.tan(),
    "sign": lambda T, x: x.sign(),
    "sgn": lambda T, x: x.sgn(),
    "rsqrt": lambda T, x: x.rsqrt(),
    "reciprocal": lambda T, x: x.reciprocal(),
    "log1p": lambda T, x: x.log1p(),
    "log2": lambda T, x: x.log2(),
    "log10": lambda T, x: x.log10(),
    "exp2": lambda T, x: x.exp2(),
    "expm1": lambda T, x: x.expm1(),
    "erf": lambda T, x: x.erf(),
    "asin": lambda T, x: x.asin(),
    "acos": lambda T, x: x.acos(),
    "atan": lambda T, x: x.atan(),
    "sinh": lambda T, x: x.sinh(),
    "cosh": lambda T, x: x.cosh(),
    "asinh": lambda T, x: x.asinh(),
    "acosh": lambda T, x: x.acosh(),
    "atanh": lambda T, x: x.atanh(),
    "floor": lambda T, x: x.floor(),
    "ceil": lambda T, x: x.ceil(),
    "round": lambda T, x: x.round(),
    "round_decimals": lambda T, x: x.round(decimals=2),
    "trunc": lambda T, x: x.trunc(),
    "fix": lambda T, x: x.fix(),
    "frac": lambda T, x: x.frac(),
    "nan_to_num": lambda T, x: x.nan_to_num(),
    "nan_to_num_args": lambda T, x: x.nan_to_num(0.0, 1.0, -1.0),
    "logit": lambda T, x: x.logit(),
    "logit_eps": lambda T, x: x.logit(eps=0.1),
    "deg2rad": lambda T, x: x.deg2rad(),
    "rad2deg": lambda T, x: x.rad2deg(),
    "square": lambda T, x: x.square(),
    "relu": lambda T, x: x.relu(),
    "sigmoid": lambda T, x: x.sigmoid(),
    "tanh": lambda T, x: x.tanh(),
    "leaky_relu": lambda T, x: _f(T).leaky_relu(x, 0.1),
    "gelu": lambda T, x: _f(T).gelu(x),
    "gelu_tanh": lambda T, x: _f(T).gelu(x, approximate="tanh"),
    "softplus": lambda T, x: _f(T).softplus(x),
    "softplus_beta": lambda T, x: _f(T).softplus(x, beta=2.0, threshold=1.0),
    "elu": lambda T, x: _f(T).elu(x),
    "selu": lambda T, x: _f(T).selu(x),
    "celu": lambda T, x: _f(T).celu(x, 0.5),
    "hardtanh": lambda T, x: _f(T).hardtanh(x),
    "relu6": lambda T, x: _f(T).relu6(x),
    "silu": lambda T, x: _f(T).silu(x),
    "mish": lambda T, x: _f(T).mish(x),
    "logsigmoid": lambda T, x: _f(T).logsigmoid(x),
    "dropout_eval": lambda T, x: _f(T).dropout(x, 0.5, False),
    "clamp": lambda T, x: x.clamp(-0.5, 0.5),
    "clamp_min": lambda T, x: x.clamp_min(0.1),
    "clamp_max": lambda T, x: x.clamp_max(0.1),
    "pow_number": lambda T, x: x**2,
    "pow_half": lambda T, x: x.abs() ** 0.5,
    "number_pow": lambda T, x: 2**x,
    "add_number": lambda T, x: x + 1,
    "number_add": lambda T, x: 1 + x,
    "sub_number": lambda T, x: x - 1,
    "number_sub": lambda T, x: 1 - x,
    "mul_number": lambda T, x: x * 2,
    "div_number": lambda T, x: x / 2,
    "number_div": lambda T, x: 2 / x,
    "floor_divide_number": lambda T, x: x // 2,
    "remainder_number": lambda T, x: x % 0.7,
    "remainder_method": lambda T, x: x.remainder(0.7),
    "fmod_number": lambda T, x: x.fmod(0.7),
    "xlogy_number": lambda T, x: x.xlogy(2.0),
    "div_floor_number": lambda T, x: x.div(2, rounding_mode="floor"),
    "true_divide_number": lambda T, x: x.true_divide(2),
    "lerp_number": lambda T, x: x.lerp(x * 0 + 1, 0.3),
    "gt_number": lambda T, x: x > 0,
    "eq_number": lambda T, x: x == 0,
    "isnan": lambda T, x: x.isnan(),
    "isinf": lambda T, x: x.isinf(),
    "isfinite": lambda T, x: x.isfinite(),
    "isposinf": lambda T, x: x.isposinf(),
    "isneginf": lambda T, x: x.isneginf(),
    "logical_not": lambda T, x: x.logical_not(),
    "clone": lambda T, x: x.clone(),
    "float": lambda T, x: x.float(),
    "long": lambda T, x: x.long(),
    "bool": lambda T, x: x.bool(),
    "where_number": lambda T, x: T.where(x > 0, x, 0.0),
    "masked_fill": lambda T, x: x.masked_fill(x > 0, 0.0),
}
TWO: dict[str, Callable[[Any, Any, Any], Any]] = {
    "add": lambda T, x, y: x + y,
    "sub": lambda T, x, y: x - y,
    "mul": lambda T, x, y: x * y,
    "div": lambda T, x, y: x / (y.abs() + 1),
    "add_alpha": lambda T, x, y: x.add(y, alpha=2),
    "sub_alpha": lambda T, x, y: x.sub(y, alpha=2),
    "rsub": lambda T, x, y: T.rsub(x, y),
    "pow": lambda T, x, y: x.abs() ** y,
    "atan2": lambda T, x, y: T.atan2(x, y),
    "logaddexp": lambda T, x, y: T.logaddexp(x, y),
    "hypot": lambda T, x, y: T.hypot(x, y),
    "xlogy": lambda T, x, y: T.xlogy(x, y.abs()),
    "fmax": lambda T, x, y: T.fmax(x, y),
    "fmin": lambda T, x, y: T.fmin(x, y),
    "maximum": lambda T, x, y: T.maximum(x, y),
    "minimum": lambda T, x, y: T.minimum(x, y),
    "remainder": lambda T, x, y: x.remainder(y.abs() + 1),
    "fmod": lambda T, x, y: x.fmod(y.abs() + 1),
    "floor_divide": lambda T, x, y: x.floor_divide(y.abs() + 1),
    "div_floor": lambda T, x, y: x.div(y.abs() + 1, rounding_mode="floor"),
    "div_trunc": lambda T, x, y: x.div(y.abs() + 1, rounding_mode="trunc"),
    "lerp": lambda T, x, y: x.lerp(y, 0.3),
    "lerp_tensor_weight": lambda T, x, y: x.lerp(y, y.sigmoid()),
    "addcmul": lambda T, x, y: x.addcmul(y, y, value=0.5),
    "addcdiv": lambda T, x, y: x.addcdiv(y, y.abs() + 1, value=0.5),
    "addcmul_function": lambda T, x, y: T.addcmul(x, y, x),
    "addcdiv_function": lambda T, x, y: T.addcdiv(y, x, y.abs() + 1),
    "where": lambda T, x, y: T.where(x > 0, x, y),
    "clamp_tensor": lambda T, x, y: x.clamp(min=y),
    "lt": lambda T, x, y: x < y,
    "eq": lambda T, x, y: x == y,
    "logical_and": lambda T, x, y: T.logical_and(x, y),
    "logical_or": lambda T, x, y: T.logical_or(x, y),
    "logical_xor": lambda T, x, y: T.logical_xor(x, y),
    "isclose": lambda T, x, y: T.isclose(x, y),
    "mse_none": lambda T, x, y: _f(T).mse_loss(x, y, reduction="none"),
    "l1_none": lambda T, x, y: _f(T).l1_loss(x, y, reduction="none"),
    "huber_none": lambda T, x, y: _f(T).huber_loss(x, y, reduction="none"),
    "smooth_l1_none": lambda T, x, y: _f(T).smooth_l1_loss(x, y, reduction="none"),
    "bce_logits_none": lambda T, x, y: _f(T).binary_cross_entropy_with_logits(
        x, y.sigmoid(), reduction="none"
    ),
    "bce_none": lambda T, x, y: _f(T).binary_cross_entropy(
        x.sigmoid(), y.sigmoid(), reduction="none"
    ),
}
PAIRS = {  # (first operand, second): the layouts of ops of two tensors
    "transposed/transposed": ("transposed", "transposed"),
    "transposed/row_major": ("transposed", "row_major"),
    "row_major/transposed": ("row_major", "transposed"),
    "permuted/permuted": ("permuted", "permuted"),
    "permuted/row_major": ("permuted", "row_major"),
    "channels_last/channels_last": ("channels_last", "channels_last"),
    "channels_last/row_major": ("channels_last", "row_major"),
    "row_major/channels_last": ("row_major", "channels_last"),
    "expanded/transposed": ("expanded", "transposed"),
}

KNOWN: dict[str, dict[str, set]] = {  # op -> check -> cases (see the docstring)
    "exp": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "log": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "sqrt": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "abs": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "sin": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "cos": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "tan": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "rsqrt": {"grad": {"size1"}},
    "reciprocal": {"grad": {"size1"}},
    "log1p": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "log2": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "log10": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "expm1": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "erf": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "asin": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "acos": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "atan": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "sinh": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "cosh": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "asinh": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "acosh": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "atanh": {"grad": {"size1"}},
    "nan_to_num": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "nan_to_num_args": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "logit": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "logit_eps": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "square": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "relu": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "sigmoid": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "tanh": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "gelu": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "gelu_tanh": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "mish": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "clamp": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "clamp_min": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "clamp_max": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "pow_number": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "number_div": {"grad": {"size1"}},
    "where_number": {"grad": {"size1"}, "leaf.grad": {"size1"}},
    "pow": {
        "grad": {
            "channels_last/row_major",
            "permuted/row_major",
            "row_major/channels_last",
            "row_major/transposed",
            "transposed/row_major",
        }
    },
    "atan2": {
        "grad": {
            "channels_last/channels_last",
            "channels_last/row_major",
            "permuted/permuted",
            "permuted/row_major",
            "row_major/channels_last",
            "row_major/transposed",
            "transposed/row_major",
            "transposed/transposed",
        }
    },
    "logaddexp": {
        "grad": {
            "channels_last/row_major",
            "permuted/row_major",
            "row_major/channels_last",
            "row_major/transposed",
            "transposed/row_major",
        }
    },
    "hypot": {"grad": {"row_major/channels_last", "row_major/transposed"}},
    "xlogy": {
        "grad": {
            "channels_last/row_major",
            "permuted/row_major",
            "transposed/row_major",
        }
    },
    "clamp_tensor": {
        "grad": {
            "channels_last/row_major",
            "permuted/row_major",
            "transposed/row_major",
        }
    },
    "isclose": {
        "fwd": {"channels_last/row_major", "permuted/row_major", "transposed/row_major"}
    },
    "mse_none": {
        "fwd": {
            "channels_last/row_major",
            "permuted/row_major",
            "transposed/row_major",
        },
        "grad": {
            "channels_last/channels_last",
            "permuted/permuted",
            "transposed/transposed",
        },
    },
    "huber_none": {
        "fwd": {
            "channels_last/row_major",
            "permuted/row_major",
            "transposed/row_major",
        },
        "grad": {
            "channels_last/channels_last",
            "permuted/permuted",
            "transposed/transposed",
        },
    },
    "smooth_l1_none": {
        "fwd": {
            "channels_last/row_major",
            "permuted/row_major",
            "transposed/row_major",
        },
        "grad": {
            "channels_last/channels_last",
            "permuted/permuted",
            "transposed/transposed",
        },
    },
    "bce_logits_none": {
        "fwd": {"row_major/channels_last", "row_major/transposed"},
        "grad": {
            "channels_last/row_major",
            "permuted/row_major",
            "transposed/row_major",
        },
    },
    "bce_none": {
        "fwd": {
            "channels_last/row_major",
            "permuted/row_major",
            "transposed/row_major",
        },
        "grad": {
            "channels_last/row_major",
            "permuted/row_major",
            "transposed/row_major",
        },
    },
}


def _strides(t: Any) -> Any:
    return None if t is None else (tuple(t.shape), t.stride(), t.is_contiguous())


def _run(T: Any, op: Callable, layouts: tuple) -> dict:
    """The result's layout, the gradients ``autograd.grad`` returns for inputs
    of these layouts, and the ``.grad`` of leaves of these layouts; a
    ``row_major`` operand is shaped like the other one."""
    other = next(lay for lay in layouts if lay != "row_major")
    shape = tuple(LAYOUTS[other](T).shape)
    ins = [
        _mk(T, shape) / 7 + 0.1 if lay == "row_major" else LAYOUTS[lay](T)
        for lay in layouts
    ]
    leaves = [x.detach().requires_grad_(True) for x in ins]
    out = op(T, *leaves)
    found = {"fwd": _strides(out)}
    if out.requires_grad:
        grads = T.autograd.grad(out.sum(), leaves, allow_unused=True)
        found["grad"] = [_strides(g) for g in grads]
        op(T, *leaves).sum().backward()
        found["leaf.grad"] = [_strides(x.grad) for x in leaves]
    return found


def _compare(name: str, op: Callable, cases: dict, known: dict) -> None:
    wrong = []
    for case, layouts in cases.items():
        try:
            expected = _run(torch, op, layouts)
        except (RuntimeError, ValueError):
            continue
        got = _run(minigrad, op, layouts)
        for check in expected:
            skip = known.get(check, set())
            if case in skip:
                continue
            if got.get(check) != expected[check]:
                wrong.append(
                    f"{case} {check}: PyTorch {expected[check]}, {got.get(check)}"
                )
    assert not wrong, f"{name}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("name", sorted(ONE))
def test_ops_of_one_tensor_lay_out_results_and_gradients_as_pytorch(
    name: str,
) -> None:
    cases = {lay: (lay,) for lay in LAYOUTS}
    _compare(name, ONE[name], cases, KNOWN.get(name, {}))


@pytest.mark.parametrize("name", sorted(TWO))
def test_ops_of_two_tensors_lay_out_results_and_gradients_as_pytorch(
    name: str,
) -> None:
    _compare(name, TWO[name], PAIRS, KNOWN.get(name, {}))


def test_the_known_differences_are_still_differences() -> None:
    """A case of ``KNOWN`` that has been fixed must leave the list."""
    fixed = []
    for name, checks in KNOWN.items():
        op = ONE.get(name) or TWO[name]
        cases = {lay: (lay,) for lay in LAYOUTS} if name in ONE else PAIRS
        for check, where in checks.items():
            for case in sorted(where):
                expected = _run(torch, op, cases[case])
                if _run(minigrad, op, cases[case]).get(check) == expected[check]:
                    fixed.append(f"{name} {check} {case}")
    assert not fixed, "fixed, remove from KNOWN: " + ", ".join(fixed)
