"""The rest of the operator set: more elementwise functions, where/masked_fill/
maximum/clamp, gather, max/min/amax/var/std/prod/logsumexp/norm/cumsum, outer,
and cat/stack/split/chunk/unbind/repeat/narrow/flatten/movedim.

Each op: float64 gradcheck over drawn shapes, the same expression against
PyTorch (values, gradients, nodes, next_functions, ``_saved_*``), second order
for the elementwise ones, and PyTorch's error texts for likely mistakes."""

from __future__ import annotations

from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import (
    arrays,
    away_from_zero,
    broadcast_pairs,
    check_gradcheck,
    differential,
    floats,
    same_error,
    second_order,
    small_shapes,
    torch,
)

import minigrad
from minigrad.ops import activation as AC

FAST = settings(max_examples=10, deadline=None)
ANY, POS, NONZERO = floats(-2, 2), floats(0.2, 2), away_from_zero()
ABOVE_M1 = floats(-0.8, 2)
UNIT, ABOVE_1 = floats(-0.9, 0.9), floats(1.2, 3)
# away from the steps of floor/ceil/round/trunc (integers and halves)
OFF_STEPS = st.builds(lambda k, u: k + u, st.integers(-3, 3), st.floats(0.1, 0.4))


def act(T: Any, name: str, x: Any, *args: Any, **kwargs: Any) -> Any:
    """``torch.nn.functional.<name>`` for PyTorch; minigrad's op directly (its
    ``nn.functional`` is wired up separately)."""
    if T is torch:
        return getattr(torch.nn.functional, name)(x, *args, **kwargs)
    cls = {"gelu": AC.Gelu, "leaky_relu": AC.LeakyRelu, "softplus": AC.Softplus}[name]
    return cls.apply(x, *args, *kwargs.values())


# --------------------------------------------------------------- elementwise
# name -> (expression, element domain)
UNARY: dict[str, tuple[Any, Any]] = {
    "rsqrt": (lambda T, a: a.rsqrt(), POS),
    "log1p": (lambda T, a: a.log1p(), ABOVE_M1),
    "log2": (lambda T, a: T.log2(a), POS),
    "log10": (lambda T, a: a.log10(), POS),
    "exp2": (lambda T, a: a.exp2(), ANY),
    "expm1": (lambda T, a: T.expm1(a), ANY),
    "erf": (lambda T, a: a.erf(), ANY),
    "leaky_relu": (lambda T, a: act(T, "leaky_relu", a), NONZERO),
    "leaky_relu_slope": (lambda T, a: act(T, "leaky_relu", a, 0.2), NONZERO),
    "gelu": (lambda T, a: act(T, "gelu", a), ANY),
    "gelu_tanh": (lambda T, a: act(T, "gelu", a, approximate="tanh"), ANY),
    "softplus": (lambda T, a: act(T, "softplus", a), ANY),
    "softplus_beta": (lambda T, a: act(T, "softplus", a, 2, 1.5), ANY),
    "clamp_min": (lambda T, a: a.clamp(min=0.123), NONZERO),
    "clamp_max": (lambda T, a: a.clamp(max=-0.123), NONZERO),
    "clamp_both": (lambda T, a: T.clamp(a, -0.777, 0.777), NONZERO),
    "clip": (lambda T, a: a.clip(-0.777, 0.777), NONZERO),
    "clamp_min_fn": (lambda T, a: a.clamp_min(0.123), NONZERO),
    "clamp_max_fn": (lambda T, a: T.clamp_max(a, 0.123), NONZERO),
    "masked_fill": (lambda T, a: a.masked_fill(a > 0, 2.5), NONZERO),
    "masked_fill_0d": (lambda T, a: a.masked_fill(a < 0, T.tensor(-1.5)), NONZERO),
    "where_scalar": (lambda T, a: T.where(a > 0, a, 0.0), NONZERO),
    "where_scalar_first": (lambda T, a: T.where(a > 0, 1.5, a), NONZERO),
    "where_method": (lambda T, a: a.where(a < 0, 2), NONZERO),
    "square": (lambda T, a: a.square(), ANY),
    "tan": (lambda T, a: a.tan(), UNIT),
    "asin": (lambda T, a: a.asin(), UNIT),
    "arcsin": (lambda T, a: T.arcsin(a), UNIT),
    "acos": (lambda T, a: T.acos(a), UNIT),
    "atan": (lambda T, a: a.arctan(), ANY),
    "sinh": (lambda T, a: a.sinh(), ANY),
    "cosh": (lambda T, a: T.cosh(a), ANY),
    "asinh": (lambda T, a: a.asinh(), ANY),
    "acosh": (lambda T, a: a.acosh(), ABOVE_1),
    "atanh": (lambda T, a: T.atanh(a), UNIT),
    "floor": (lambda T, a: a.floor(), OFF_STEPS),
    "ceil": (lambda T, a: T.ceil(a), OFF_STEPS),
    "round": (lambda T, a: a.round(), OFF_STEPS),
    "round_decimals": (lambda T, a: T.round(a * 10, decimals=-1), OFF_STEPS),
    "trunc": (lambda T, a: a.trunc(), OFF_STEPS),
    "fix": (lambda T, a: T.fix(a), OFF_STEPS),
    "frac": (lambda T, a: a.frac() * a, OFF_STEPS),
    "nan_to_num": (lambda T, a: (a.log() * 2).nan_to_num(), NONZERO),
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
    "nan_to_num_args": (lambda T, a: T.nan_to_num(a.log(), 1.5, 9.0, -9.0), NONZERO),
}


def _pair(a: Any, b: Any) -> tuple:
    """``a`` and ``b`` broadcast against each other (by ops that record)."""
    return a + b * 0, b * 0.5 + a * 0


# two inputs that broadcast: (expression, domains)
BINARY: dict[str, tuple[Any, tuple]] = {
    "maximum": (lambda T, a, b: T.maximum(a, b), (ANY, ANY)),
    "atan2": (lambda T, a, b: T.atan2(a, b), (NONZERO, NONZERO)),
    "addcmul": (lambda T, a, b: a.addcmul(b, a * b, value=-1.5), (ANY, ANY)),
    "addcdiv": (lambda T, a, b: T.addcdiv(a, b, a * a + 1, value=2), (ANY, ANY)),
    "lerp": (lambda T, a, b: a.lerp(b, 0.25), (ANY, ANY)),
    "lerp_tensor": (lambda T, a, b: T.lerp(a, b, (a * b).sigmoid()), (ANY, ANY)),
    # (losses of the broadcast pair: a target of another size would warn)
    "l1_loss": (lambda T, a, b: T.nn.functional.l1_loss(*_pair(a, b)), (ANY, NONZERO)),
    "smooth_l1": (
        lambda T, a, b: T.nn.functional.smooth_l1_loss(*_pair(a, b), beta=0.37),
        (ANY, ANY),
    ),
    "huber": (
        lambda T, a, b: T.nn.functional.huber_loss(*_pair(a, b), "sum", 0.61),
        (ANY, ANY),
    ),
    "arctan2": (lambda T, a, b: a.arctan2(b), (NONZERO, NONZERO)),
    "minimum": (lambda T, a, b: a.minimum(b), (ANY, ANY)),
    "max_ab": (lambda T, a, b: T.max(a, b), (ANY, ANY)),
    "min_ab": (lambda T, a, b: a.min(b), (ANY, ANY)),
    "where": (lambda T, a, b: T.where(a > 0, a, b), (NONZERO, ANY)),
    "clamp_tensor_min": (lambda T, a, b: a.clamp(min=b), (ANY, ANY)),
    "clamp_tensor_max": (lambda T, a, b: T.clamp(a, max=b), (ANY, ANY)),
    "clamp_min_tensor": (lambda T, a, b: a.clamp_min(b), (ANY, ANY)),
    "clamp_max_tensor": (lambda T, a, b: a.clamp_max(b), (ANY, ANY)),
    "clamp_tensor_both": (lambda T, a, b: a.clamp(b, b + 0.5), (ANY, ANY)),
    "masked_fill_0d_grad": (
        lambda T, a, b: a.masked_fill(a > 0, b.sum()),
        (NONZERO, ANY),
    ),
    "remainder": (lambda T, a, b: T.remainder(a, b), (ANY, NONZERO)),
    "mod_operator": (lambda T, a, b: (a * 3) % b, (ANY, NONZERO)),
    "fmod": (lambda T, a, b: T.fmod(a * 3, b), (ANY, NONZERO)),
    "remainder_": (lambda T, a, b: (a + b * 0).remainder_(b * 1), (ANY, NONZERO)),
}
# ties make maximum/clamp non-differentiable: gradcheck draws distinct values
TIES = {n for n in BINARY if "max" in n or "min" in n or "clamp" in n}
# remainders jump where a / b is a whole number: gradcheck stays away from there
STEPS = {"remainder": 1, "mod_operator": 3, "fmod": 3, "remainder_": 1}


@pytest.mark.parametrize("name", sorted(UNARY))
@FAST
@given(data=st.data(), shape=small_shapes)
def test_unary_gradcheck(name: str, data: st.DataObject, shape: tuple) -> None:
    fn, dom = UNARY[name]
    check_gradcheck(fn, data.draw(arrays(shape, dom)))


@pytest.mark.parametrize("name", sorted(BINARY))
@FAST
@given(data=st.data(), shapes=broadcast_pairs)
def test_binary_gradcheck(name: str, data: st.DataObject, shapes: Any) -> None:
    fn, (da, db) = BINARY[name]
    sa, sb = shapes.input_shapes
    a = data.draw(arrays(sa, da))
    b = data.draw(arrays(sb, db))
    if name in TIES:  # keep every pair of values at least 1e-3 apart
        both = np.concatenate([a.ravel(), b.ravel(), b.ravel() + 0.5])
        gaps = np.abs(both[:, None] - both[None, :]) + np.eye(both.size)
        if both.size > 1 and gaps.min() < 1e-3:
            return
    if name in STEPS:
        q = STEPS[name] * a / b
        if np.abs(q - np.round(q)).min(initial=1) < 1e-3:
            return
    check_gradcheck(fn, a, b)


SHAPES = [(), (1,), (3,), (2, 3)]
PAIRS = [((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2, 3)), ((2, 3), ())]


def _draw(shape: tuple, dom: Any, rng: np.random.Generator) -> np.ndarray:
    """Deterministic values in the op's domain."""
    x = rng.uniform(0.2, 2.0, shape)
    if dom is POS:
        return x
    if dom is UNIT:
        return x / 2.2 * np.where(rng.random(shape) < 0.5, -1.0, 1.0)
    if dom is ABOVE_1:
        return x + 1
    if dom is OFF_STEPS:
        return np.floor(x * 3) - 3 + rng.uniform(0.1, 0.4, shape)
    if dom is ABOVE_M1:
        return x - 0.9
    return x * np.where(rng.random(shape) < 0.5, -1.0, 1.0)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_vs_torch(name: str, shape: tuple, dtype: Any) -> None:
    fn, dom = UNARY[name]
    differential(fn, [_draw(shape, dom, np.random.default_rng(2))], dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shapes", PAIRS, ids=str)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_vs_torch(name: str, shapes: tuple, dtype: Any) -> None:
    fn, doms = BINARY[name]
    rng = np.random.default_rng(0)
    differential(fn, [_draw(s, d, rng) for s, d in zip(shapes, doms)], dtype)


@pytest.mark.parametrize("needs", [(True, False), (False, True)])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_one_input_requires_grad(name: str, needs: tuple) -> None:
    fn, doms = BINARY[name]
    rng = np.random.default_rng(1)
    arrs = [_draw(s, d, rng) for s, d in zip(((2, 3), (3,)), doms)]
    differential(fn, arrs, requires_grad=needs)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_second_order(name: str) -> None:
    fn, dom = UNARY[name]
    second_order(fn, [_draw((2, 3), dom, np.random.default_rng(4))])


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_second_order(name: str) -> None:
    fn, doms = BINARY[name]
    rng = np.random.default_rng(3)
    second_order(fn, [_draw(s, d, rng) for s, d in zip(((2, 3), (3,)), doms)])


TIE_CASES = {
    # equal values: PyTorch halves maximum's gradient, shares max()'s evenly
    "maximum": (lambda T, a, b: T.maximum(a, b), ([1.0, 2.0, 3.0], [1.0, 0.0, 3.0])),
    "minimum": (lambda T, a, b: T.minimum(a, b), ([1.0, 2.0, 3.0], [1.0, 5.0, 3.0])),
    "clamp_at_bounds": (lambda T, a: a.clamp(-1, 1), ([-1.0, 0.0, 1.0, 2.0],)),
    "clamp_min_gt_max": (lambda T, a: a.clamp(1, -1), ([-2.0, 0.0, 2.0],)),
    "clamp_tensor_crossed": (
        lambda T, a, lo, hi: a.clamp(lo, hi),
        ([-2.0, 0.5, 2.0, 1.0], [1.0, 0.0, 1.0, 1.0], [-1.0, 1.0, -1.0, 1.0]),
    ),
    "clamp_min_tie": (lambda T, a, b: a.clamp_min(b), ([1.0, 2.0], [1.0, 3.0])),
    "max_all": (lambda T, a: a.max(), ([3.0, 1.0, 3.0, 3.0],)),
    "min_all": (lambda T, a: a.min(), ([[0.0, 1.0], [0.0, 4.0]],)),
    "max_dim": (lambda T, a: a.max(1).values, ([[3.0, 1.0, 3.0], [2.0, 2.0, 0.0]],)),
    "amax": (lambda T, a: a.amax(1), ([[3.0, 1.0, 3.0], [2.0, 2.0, 2.0]],)),
    "amin_all": (lambda T, a: a.amin(), ([[3.0, 1.0, 1.0], [2.0, 1.0, 2.0]],)),
    "norm_inf": (lambda T, a: a.norm(float("inf")), ([3.0, -3.0, 1.0],)),
    "norm_zero": (lambda T, a: a.norm(dim=1), ([[0.0, 0.0], [3.0, 4.0]],)),
    "norm3_zero": (lambda T, a: a.norm(3, dim=1), ([[0.0, 0.0], [3.0, 4.0]],)),
    "std_zero": (lambda T, a: a.std(1), ([[1.0, 1.0], [3.0, 4.0]],)),
    "prod_one_zero": (lambda T, a: a.prod(), ([2.0, 0.0, 3.0],)),
    "prod_two_zeros": (lambda T, a: a.prod(), ([0.0, 2.0, 0.0],)),
    "prod_dim_zero": (lambda T, a: a.prod(1), ([[2.0, 0.0, 3.0], [1.0, 2.0, 3.0]],)),
    "prod_dim_zeros": (lambda T, a: a.prod(0, True), ([[0.0, 0.0], [0.0, 2.0]],)),
    "relu_like_leaky_zero": (lambda T, a: act(T, "leaky_relu", a), ([0.0, 1.0],)),
    "softplus_threshold": (
        lambda T, a: act(T, "softplus", a, 1, 2),
        ([-3.0, 1.9, 2.1, 30.0],),
    ),
}


@pytest.mark.parametrize("name", sorted(TIE_CASES))
def test_ties_and_zeros_vs_torch(name: str) -> None:
    fn, arrs = TIE_CASES[name]
    differential(fn, [np.array(a) for a in arrs])


@pytest.mark.parametrize("name", [n for n in sorted(TIE_CASES) if "prod" in n])
def test_prod_with_zeros_second_order(name: str) -> None:
    fn, arrs = TIE_CASES[name]
    second_order(fn, [np.array(a) for a in arrs])


# ------------------------------------------------------------------ reductions
@st.composite
def dims_for(draw: Any, ndim: int, single: bool = False) -> Any:
    """An int dim (possibly negative), or a tuple of distinct dims."""
    n = max(ndim, 1)
    if single:
        d = draw(st.integers(0, n - 1))
        return d - n if draw(st.booleans()) else d
    picks = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    signed = tuple(d - n if draw(st.booleans()) else d for d in picks)
    return signed[0] if len(signed) == 1 and draw(st.booleans()) else signed


def distinct(shape: tuple, lo: float = -2, hi: float = 2) -> Any:
    """Arrays of distinct values (no ties: max/min/prod are smooth there)."""
    return hnp.arrays(
        np.float64,
        shape,
        elements=floats(lo, hi).map(lambda v: round(v, 3)),
        unique=True,
    ).filter(lambda a: a.size < 2 or np.diff(np.sort(a.ravel())).min() > 1e-2)


# name -> (expression builder taking (dim, keepdim), element strategy factory,
#          whether the dim is a single int)
REDUCE: dict[str, tuple[Any, Any, bool]] = {
    "max_dim": (lambda d, k: lambda T, a: a.max(d, keepdim=k)[0], distinct, True),
    "min_dim": (lambda d, k: lambda T, a: T.min(a, d, k).values, distinct, True),
    "amax": (lambda d, k: lambda T, a: a.amax(d, k), distinct, False),
    "amin": (lambda d, k: lambda T, a: T.amin(a, d, keepdim=k), distinct, False),
    "var": (lambda d, k: lambda T, a: a.var(d, keepdim=k), arrays, False),
    "var_c0": (
        lambda d, k: lambda T, a: a.var(d, keepdim=k, correction=0),
        arrays,
        False,
    ),
    "std": (
        lambda d, k: lambda T, a: a.std(d, unbiased=False, keepdim=k),
        distinct,
        False,
    ),
    "prod": (lambda d, k: lambda T, a: a.prod(d, k), arrays, True),
    "logsumexp": (lambda d, k: lambda T, a: a.logsumexp(d, k), arrays, False),
    "norm": (lambda d, k: lambda T, a: a.norm(dim=d, keepdim=k), distinct, False),
    "norm1": (lambda d, k: lambda T, a: a.norm(1, d, k), distinct, False),
    "norm_inf": (lambda d, k: lambda T, a: a.norm(float("inf"), d, k), distinct, False),
    "norm3": (lambda d, k: lambda T, a: T.norm(a, 3, d, k), distinct, False),
    "cumsum": (lambda d, k: lambda T, a: a.cumsum(d), arrays, True),
}
FULL: dict[str, Any] = {
    "max": (lambda T, a: a.max(), distinct),
    "min": (lambda T, a: T.min(a), distinct),
    "amax": (lambda T, a: a.amax(), distinct),
    "var": (lambda T, a: a.var(), arrays),
    "var_unbiased_false": (lambda T, a: a.var(unbiased=False), arrays),
    "std": (lambda T, a: T.std(a), distinct),
    "prod": (lambda T, a: a.prod(), arrays),
    "norm": (lambda T, a: a.norm(), distinct),
    "norm_p1": (lambda T, a: a.norm(p=1), distinct),
}


def _needs_spread(name: str, shape: tuple) -> bool:
    """var/std need two or more elements; norms need a nonzero slice."""
    return ("var" in name or "std" in name) and int(np.prod(shape)) < 2


@pytest.mark.parametrize("name", sorted(REDUCE))
@FAST
@given(data=st.data(), shape=small_shapes, keepdim=st.booleans())
def test_reduction_dim_gradcheck(name: str, data: Any, shape: tuple, keepdim: bool):
    build, elems, single = REDUCE[name]
    dim = data.draw(dims_for(len(shape), single))
    n = int(np.prod([shape[d] for d in np.atleast_1d(dim)])) if shape else 1
    if ("var" in name or "std" in name) and n < 2:
        return
    x = data.draw(elems(shape) if elems is distinct else arrays(shape, NONZERO))
    check_gradcheck(build(dim, keepdim), x)


@pytest.mark.parametrize("name", sorted(FULL))
@FAST
@given(data=st.data(), shape=small_shapes)
def test_reduction_full_gradcheck(name: str, data: Any, shape: tuple) -> None:
    fn, elems = FULL[name]
    if _needs_spread(name, shape):
        return
    x = data.draw(elems(shape) if elems is distinct else arrays(shape, NONZERO))
    check_gradcheck(fn, x)


DIM_CASES = [
    ((2, 3), 0, False),
    ((2, 3), 1, True),
    ((2, 3), -1, False),
    ((2, 3, 4), (0, 2), False),
    ((2, 3, 4), (-1, 0), True),
    ((2, 3, 4), -2, True),
    ((4,), 0, False),
    ((), 0, False),
]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("case", DIM_CASES, ids=str)
@pytest.mark.parametrize("name", sorted(REDUCE))
def test_reduction_dim_vs_torch(name: str, case: tuple, dtype: Any) -> None:
    shape, dim, keepdim = case
    build, _, single = REDUCE[name]
    if single and isinstance(dim, tuple):
        dim = dim[0]
    if name.startswith(("var", "std")) and shape == ():
        return  # one element: NaN (with a warning); see test_var_dof_warning
    x = np.random.default_rng(7).permutation(np.arange(1, np.prod(shape) + 1))
    x = (x.reshape(shape) * 0.37 - 0.6).astype(np.float64)
    differential(build(dim, keepdim), [x], dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 1, 3)], ids=str)
@pytest.mark.parametrize("name", sorted(FULL))
def test_reduction_full_vs_torch(name: str, shape: tuple, dtype: Any) -> None:
    fn, _ = FULL[name]
    if _needs_spread(name, shape):
        return
    x = np.random.default_rng(8).permutation(np.arange(1, np.prod(shape) + 1))
    differential(fn, [(x.reshape(shape) * 0.41 - 0.9).astype(np.float64)], dtype)


@pytest.mark.parametrize(
    "name", ["var", "std", "prod", "logsumexp", "norm", "norm3", "cumsum", "amax"]
)
def test_reduction_second_order(name: str) -> None:
    build, _, single = REDUCE[name]
    x = np.random.default_rng(9).permutation(np.arange(1.0, 7.0)).reshape(2, 3) * 0.3
    second_order(build(1 if single else (1,), False), [x - 0.8])


def test_var_correction_values_and_dof_warning() -> None:
    x = np.array([[1.0, 2.0, 4.0], [0.5, 0.5, 3.0]])
    for fn in (
        lambda T, a: a.var(1, True),
        lambda T, a: a.var(correction=2),
        lambda T, a: a.std(dim=[0, 1], correction=0, keepdim=True),
        lambda T, a: a.var(dim=[]),
    ):
        differential(fn, [x])
    msgs = []
    for lib in (minigrad, torch):
        with pytest.warns(UserWarning) as rec:
            y = lib.tensor([2.0], requires_grad=True).std()
        msgs.append(str(rec[0].message).split(" (Triggered")[0])
        assert np.isnan(float(y.detach()))
    assert msgs[0] == msgs[1]


def test_argmax_argmin_vs_torch() -> None:
    x = np.array([[1.0, 5.0, 5.0], [7.0, -1.0, 0.0]])
    for fn in (
        lambda T, a: a.argmax(),
        lambda T, a: a.argmax(1),
        lambda T, a: T.argmin(a, 0, keepdim=True),
        lambda T, a: a.argmax(keepdim=True),
        lambda T, a: a[0, 0].argmax(),
    ):
        y_mg, y_th = differential(fn, [x])
        assert y_mg.dtype is minigrad.int64 and y_mg.grad_fn is None


def test_max_dim_return_type() -> None:
    out = []
    for lib in (minigrad, torch):
        x = lib.tensor([[1.0, 4.0], [3.0, 2.0]], requires_grad=True)
        r = x.max(1)
        values, indices = r
        assert r.values is values and r.indices is indices
        assert indices.grad_fn is None and not indices.requires_grad
        assert values.output_nr == 0
        out.append(repr(r).replace("torch", "minigrad"))
        out.append(repr(x.min(dim=0, keepdim=True)).replace("torch", "minigrad"))
    assert out[:2] == out[2:]


# ------------------------------------------------------------------- gather
def _gather(dim: int, index: list) -> Any:
    return lambda T, a: a.gather(dim, T.tensor(index))


GATHER = {
    "rows": (_gather(1, [[0, 0], [2, 1]]), (2, 3)),
    "cols": (_gather(0, [[1, 0, 1]]), (2, 3)),
    "neg_dim": (_gather(-1, [[2], [0]]), (2, 3)),
    "repeats": (_gather(0, [2, 2, 0, 2]), (3,)),
    "smaller": (_gather(1, [[1]]), (2, 3)),
    "3d": (_gather(1, [[[0, 1], [1, 1]], [[0, 0], [1, 0]]]), (2, 3, 2)),
}


@pytest.mark.parametrize("name", sorted(GATHER))
def test_gather(name: str) -> None:
    check_one_input_op(*GATHER[name])


def check_one_input_op(fn: Any, shape: tuple) -> None:
    """gradcheck, the same expression in PyTorch, and second order."""
    x = np.random.default_rng(10).normal(size=shape)
    check_gradcheck(fn, x)
    differential(fn, [x])
    second_order(lambda T, a: fn(T, a) ** 2, [x])


def test_gather_0d() -> None:
    differential(lambda T, a: a.gather(0, T.tensor(0)), [np.array(1.5)])


ORDERING = {
    "sort": lambda T, a: a.sort().values,
    "sort_dim0_desc": lambda T, a: T.sort(a, 0, descending=True)[0],
    "sort_stable": lambda T, a: a.sort(dim=-1, stable=True).values,
    "msort": lambda T, a: a.msort(),
    "topk": lambda T, a: a.topk(2).values,
    "topk_smallest": lambda T, a: T.topk(a, 1, 0, largest=False).values,
    "kthvalue": lambda T, a: a.kthvalue(2).values,
    "kthvalue_keepdim": lambda T, a: T.kthvalue(a, 1, 0, keepdim=True).values,
    "median": lambda T, a: a.median(),
    "median_dim": lambda T, a: T.median(a, 1).values,
    "median_0d": lambda T, a: a.sum().median(0).values,
}


@pytest.mark.parametrize("name", sorted(ORDERING))
@FAST
@given(perm=st.permutations([-1.7, -0.9, -0.2, 0.4, 1.1, 1.8]))
def test_ordering_ops(name: str, perm: list) -> None:
    """Values, indices and nodes as PyTorch's; the gradient goes back where each
    value came from (values well apart: ties are PyTorch's implementation's
    choice, and gradcheck's steps must not reorder them)."""
    fn, a = ORDERING[name], np.array(perm).reshape(2, 3)
    check_gradcheck(fn, a)
    differential(fn, [a])
    second_order(lambda T, x: fn(T, x) ** 2, [a])


def test_predicates_and_logical_ops() -> None:
    """Boolean results without history, as PyTorch's (values and dtypes)."""
    x = np.array([0.0, np.nan, np.inf, -np.inf, -1.5, 2.0])
    y = np.array([1.0, 0.0, 0.0, 2.0, np.nan, 0.0])
    for fn in (
        lambda T, a, b: a.isnan(),
        lambda T, a, b: T.isinf(a),
        lambda T, a, b: a.isfinite(),
        lambda T, a, b: a.isposinf(),
        lambda T, a, b: T.isneginf(a),
        lambda T, a, b: a.logical_not(),
        lambda T, a, b: a.logical_and(b),
        lambda T, a, b: T.logical_or(a, b),
        lambda T, a, b: a.logical_xor(b),
        lambda T, a, b: a.nan_to_num(),
        lambda T, a, b: T.nan_to_num(a, nan=1.0, posinf=2.0),
        lambda T, a, b: a.floor().long(),
        lambda T, a, b: a.long().round(),
    ):
        differential(fn, [x, y], requires_grad=(False, False))


def test_pow_gradients_at_zero_like_pytorch() -> None:
    """0 ** b and a ** 0: PyTorch's formulas give 0 there (not 0 * inf = nan),
    for tensor exponents, for a scalar base of 0, and for the exponent 0."""
    a = np.array([0.0, 0.0, 2.0, 0.0])
    b = np.array([0.0, 2.0, 0.0, -1.0])
    differential(lambda T, x, y: x**y, [a, b])
    differential(lambda T, y: 0.0**y, [b])
    differential(lambda T, x: x**0, [a])
    second_order(lambda T, x, y: (x + 1) ** y, [a, b])


# ------------------------------------------------------------ scatter, flip
SCATTER = {  # (fn of (T, self, src), self shape, src shape)
    "src_rows": (
        lambda T, a, b: a.scatter(1, T.tensor([[0, 2], [1, 0]]), b),
        (2, 3),
        (2, 2),
    ),
    "src_cols": (
        lambda T, a, b: a.scatter(0, T.tensor([[1, 0, 1]]), b),
        (2, 3),
        (1, 3),
    ),
    "src_bigger": (
        lambda T, a, b: a.scatter(-1, T.tensor([[2], [0]]), b),
        (2, 3),
        (3, 4),
    ),
    "src_3d": (
        lambda T, a, b: a.scatter(2, T.tensor([[[1, 0]], [[0, 1]]]), b),
        (2, 2, 2),
        (2, 1, 2),
    ),
    "value": (
        lambda T, a, b: a.scatter(1, T.tensor([[0], [2]]), 0.5) * b,
        (2, 3),
        (2, 3),
    ),
    "value_kw": (
        lambda T, a, b: a.scatter(0, T.tensor([[1, 0, 1]]), value=-2.0) + b,
        (2, 3),
        (3,),
    ),
    "add_repeats": (
        lambda T, a, b: a.scatter_add(1, T.tensor([[0, 0], [2, 2]]), b),
        (2, 3),
        (2, 2),
    ),
    "add_bigger_src": (
        lambda T, a, b: T.scatter_add(a, 0, T.tensor([[1, 1, 0]]), b),
        (2, 3),
        (2, 3),
    ),
    "add_0d": (lambda T, a, b: a.scatter_add(0, T.tensor(0), b), (), ()),
    "int32_index": (
        lambda T, a, b: a.scatter(1, T.tensor([[0], [1]]).int(), b),
        (2, 3),
        (2, 1),
    ),
}


@pytest.mark.parametrize("name", sorted(SCATTER))
def test_scatter(name: str) -> None:
    """scatter (ScatterBackward0/1) and scatter_add (ScatterAddBackward0): values,
    graphs, saved ``dim``/``index`` and gradients against PyTorch; src's gradient
    is self's gathered at the index."""
    fn, sa, sb = SCATTER[name]
    rng = np.random.default_rng(16)
    a, b = rng.normal(size=sa), rng.normal(size=sb)
    differential(fn, [a, b], requires_grad=(True, False))
    if "bigger" in name:  # src's gradient has the index's shape: see below
        return
    differential(fn, [a, b])
    differential(fn, [a, b], requires_grad=(False, True))
    second_order(lambda T, x, y: fn(T, x, y) ** 2, [a, b])
    check_gradcheck(fn, a, b)


def test_scatter_src_bigger_than_index_gradient_error() -> None:
    """PyTorch's formula gives src a gradient shaped like the index; when src is
    bigger, its engine refuses that gradient, and so does minigrad's."""
    for name in ("src_bigger", "add_bigger_src"):
        fn, sa, sb = SCATTER[name]

        def run(T: Any, a: Any, b: Any, fn: Any = fn) -> Any:
            fn(T, a, b.requires_grad_()).sum().backward()

        same_error(run, np.ones(sa), np.ones(sb))


FLIP = {
    "one": (lambda T, a: a.flip(1), (2, 3)),
    "list": (lambda T, a: a.flip([0, -1]), (2, 3)),
    "varargs": (lambda T, a: a.flip(0, 2), (2, 3, 2)),
    "none": (lambda T, a: a.flip([]), (2, 3)),
    "function": (lambda T, a: T.flip(a, (-1,)), (4,)),
    "0d": (lambda T, a: a.flip(0), ()),
}


@pytest.mark.parametrize("name", sorted(FLIP))
def test_flip(name: str) -> None:
    check_one_input_op(*FLIP[name])


MORE_SHAPE_OPS = {
    "index_select": (lambda T, a: a.index_select(1, T.tensor([2, 0, 2])), (2, 3)),
    "index_select_0d": (lambda T, a: a.index_select(0, T.tensor([0])), ()),
    "index_select_fn": (lambda T, a: T.index_select(a, -1, T.tensor([1])), (3,)),
    "index_add": (
        lambda T, a: a.index_add(0, T.tensor([2, 0]), a[:2] * 2),
        (3, 2),
    ),
    "index_add_alpha": (
        lambda T, a: T.index_add(a, 1, T.tensor([0]), a[:, 1:], alpha=-0.5),
        (2, 2),
    ),
    "index_add_": (lambda T, a: (a * 1).index_add_(0, T.tensor([1]), a[:1]), (2, 3)),
    "tril": (lambda T, a: a.tril(), (3, 3)),
    "tril_offset": (lambda T, a: T.tril(a, -1), (2, 3, 4)),
    "triu": (lambda T, a: a.triu(1), (3, 2)),
    "triu_": (lambda T, a: (a * 1).triu_(), (3, 3)),
    "roll": (lambda T, a: a.roll(1, 1), (2, 3)),
    "roll_dims": (lambda T, a: T.roll(a, (1, -2), (0, -1)), (2, 3)),
    "roll_flat": (lambda T, a: a.roll(-4), (2, 3)),
    "tile": (lambda T, a: a.tile(2, 1), (2, 3)),
    "cumprod": (lambda T, a: a.cumprod(1), (2, 4)),
    "cumprod_zero": (lambda T, a: (a * T.tensor([1.0, 0.0, 1.0])).cumprod(-1), (2, 3)),
    "masked_select": (lambda T, a: a.masked_select(a > 0.1), (2, 3)),
    "masked_scatter": (lambda T, a: a.masked_scatter(a < 0.2, a.flip(0) * 2), (2, 3)),
    "diagonal": (lambda T, a: a.diagonal(), (2, 3)),
    "diagonal_3d": (lambda T, a: T.diagonal(a, -1, 2, 0), (2, 3, 4)),
    "diag_matrix": (lambda T, a: a.diag(1), (3, 3)),
    "diag_vector": (lambda T, a: T.diag(a, -1), (3,)),
    "diag_embed": (lambda T, a: a.diag_embed(1, 0, 2), (2, 3)),
    "trace": (lambda T, a: a.trace(), (3, 2)),
    "index_fill": (lambda T, a: a.index_fill(1, T.tensor([0, 2]), -1.5), (2, 3)),
    "index_fill_tensor": (
        lambda T, a: T.index_fill(a, 0, T.tensor([1]), a[0, 0] * 2),
        (2, 3),
    ),
    "diagonal_written": (lambda T, a: _diagonal_zeroed(a), (3, 3)),
    "max_pool2d": (lambda T, a: T.nn.functional.max_pool2d(a, 2), (1, 2, 4, 4)),
    "max_pool2d_pad_ceil": (
        lambda T, a: T.nn.functional.max_pool2d(a, 3, 2, 1, ceil_mode=True),
        (2, 1, 5, 4),
    ),
    "avg_pool2d": (lambda T, a: T.nn.functional.avg_pool2d(a, 2), (1, 2, 4, 4)),
    "max_pool1d": (lambda T, a: T.nn.functional.max_pool1d(a, 3, 2, 1), (2, 2, 7)),
    "avg_pool1d": (lambda T, a: T.nn.functional.avg_pool1d(a, 2), (2, 5)),
    "adaptive_avg_pool2d": (
        lambda T, a: T.nn.functional.adaptive_avg_pool2d(a, (2, 3)),
        (1, 2, 5, 4),
    ),
    "adaptive_max_pool2d": (
        lambda T, a: T.nn.functional.adaptive_max_pool2d(a, (2, 3)),
        (1, 2, 5, 7),
    ),
    "adaptive_max_pool2d_none": (
        lambda T, a: T.nn.functional.adaptive_max_pool2d(a, (None, 2)),
        (2, 3, 4),
    ),
    "adaptive_max_pool1d": (
        lambda T, a: T.nn.functional.adaptive_max_pool1d(a, 3),
        (2, 2, 7),
    ),
    "adaptive_avg_pool1d": (
        lambda T, a: T.nn.functional.adaptive_avg_pool1d(a, 4),
        (2, 2, 7),
    ),
    "avg_pool2d_pad": (
        lambda T, a: T.nn.functional.avg_pool2d(
            a, 3, 2, 1, ceil_mode=True, count_include_pad=False
        ),
        (2, 5, 4),
    ),
    "batch_norm_train": (
        lambda T, a: T.nn.functional.batch_norm(
            a, None, None, a[0, :, 0] * 0 + 1.5, None, training=True
        ),
        (3, 2, 2),
    ),
    "batch_norm_eval": (
        lambda T, a: T.nn.functional.batch_norm(
            a, T.zeros(2, dtype=a.dtype), T.ones(2, dtype=a.dtype), a[0] + 1, a[1]
        ),
        (3, 2),
    ),
    "layer_norm": (lambda T, a: T.nn.functional.layer_norm(a, (3,)), (2, 3)),
    "layer_norm_affine": (
        lambda T, a: T.nn.functional.layer_norm(a, (2,), a[0] + 1, a[1] * 3),
        (3, 2),
    ),
    "embedding": (
        lambda T, a: T.nn.functional.embedding(T.tensor([[0, 2], [1, 0]]), a),
        (3, 2),
    ),
    "tile_more": (lambda T, a: T.tile(a, (2, 1, 2)), (3,)),
    "scatter_reduce_sum": (lambda T, a: _scatter_reduce(T, a, "sum", True), (2, 3)),
    "scatter_reduce_mean": (lambda T, a: _scatter_reduce(T, a, "mean", False), (2, 3)),
    "scatter_reduce_prod": (lambda T, a: _scatter_reduce(T, a, "prod", True), (2, 3)),
    "scatter_reduce_prod_excl": (
        lambda T, a: _scatter_reduce(T, a, "prod", False),
        (2, 3),
    ),
    "scatter_reduce_amax": (lambda T, a: _scatter_reduce(T, a, "amax", True), (2, 3)),
    "scatter_reduce_amin": (lambda T, a: _scatter_reduce(T, a, "amin", False), (2, 3)),
    "logaddexp": (lambda T, a: T.logaddexp(a, a.flip(0) * 2), (2, 3)),
    "hypot": (lambda T, a: a.hypot(a * a + 1), (2, 3)),
    "xlogy": (lambda T, a: a.xlogy(a * a + 1), (2, 3)),
    "xlogy_number": (lambda T, a: a.xlogy(2.5), (2, 3)),
    "xlogy_number_self": (lambda T, a: T.xlogy(2, a * a + 1), (2, 3)),
    "logit": (lambda T, a: a.sigmoid().logit(), (2, 3)),
    "logit_eps": (lambda T, a: T.logit(a * 0.1 + 0.5, 0.01), (2, 3)),
    "deg2rad": (lambda T, a: a.deg2rad(), (2, 3)),
    "rad2deg": (lambda T, a: T.rad2deg(a), (2, 3)),
}


def _scatter_reduce(T: Any, a: Any, reduce: str, include_self: bool) -> Any:
    """a's first two columns, into which all of a is reduced (two per place)."""
    index = T.tensor([[0, 0, 1], [1, 1, 0]])
    return a[:, :2].scatter_reduce(1, index, a * 1.5, reduce, include_self=include_self)


def _diagonal_zeroed(a: Any) -> Any:
    y = a * 1
    y.diagonal().mul_(3)  # through the view: CopySlices on y
    return y


@pytest.mark.parametrize("name", sorted(MORE_SHAPE_OPS))
def test_more_shape_ops(name: str) -> None:
    check_one_input_op(*MORE_SHAPE_OPS[name])


CONV = {  # (fn of (T, input, weight), input shape, weight shape)
    "conv2d": (
        lambda T, x, w: T.nn.functional.conv2d(x, w),
        (1, 2, 4, 4),
        (3, 2, 2, 2),
    ),
    "conv2d_stride_pad": (
        lambda T, x, w: T.nn.functional.conv2d(
            x, w, w[:, 0, 0, 0], stride=2, padding=1
        ),
        (2, 2, 5, 4),
        (3, 2, 3, 2),
    ),
    "conv2d_groups_dilation": (
        lambda T, x, w: T.nn.functional.conv2d(x, w, dilation=(2, 1), groups=2),
        (1, 4, 5, 3),
        (2, 2, 2, 2),
    ),
    "conv2d_same_unbatched": (
        lambda T, x, w: T.nn.functional.conv2d(x, w, padding="same"),
        (2, 3, 3),
        (2, 2, 3, 3),
    ),
    "conv1d": (
        lambda T, x, w: T.nn.functional.conv1d(x, w, stride=2, padding=2),
        (2, 2, 5),
        (3, 2, 3),
    ),
    "conv3d": (
        lambda T, x, w: T.nn.functional.conv3d(x, w),
        (1, 1, 3, 3, 3),
        (2, 1, 2, 2, 2),
    ),
    "conv_transpose2d": (
        lambda T, x, w: T.nn.functional.conv_transpose2d(x, w),
        (1, 2, 3, 3),
        (2, 3, 2, 2),
    ),
    "conv_transpose2d_stride_pad_output_padding": (
        lambda T, x, w: T.nn.functional.conv_transpose2d(
            x, w, w[0, :, 0, 0], stride=2, padding=1, output_padding=1
        ),
        (2, 2, 3, 2),
        (2, 3, 3, 2),
    ),
    "conv_transpose2d_groups_dilation": (
        lambda T, x, w: T.nn.functional.conv_transpose2d(
            x, w, stride=(1, 2), groups=2, dilation=(2, 1), output_padding=(1, 0)
        ),
        (1, 4, 3, 3),
        (4, 1, 2, 2),
    ),
    "conv_transpose1d_unbatched": (
        lambda T, x, w: T.nn.functional.conv_transpose1d(x, w, stride=3, padding=1),
        (2, 4),
        (2, 3, 3),
    ),
    "conv_transpose3d": (
        lambda T, x, w: T.nn.functional.conv_transpose3d(x, w, stride=2),
        (1, 1, 2, 2, 2),
        (1, 2, 2, 1, 2),
    ),
}


@pytest.mark.parametrize("name", sorted(CONV))
def test_convolutions(name: str) -> None:
    """gradcheck, PyTorch's values, graph, saved attributes and gradients, and
    second order (through ConvolutionBackwardBackward0) for both arguments."""
    fn, sx, sw = CONV[name]
    rng = np.random.default_rng(19)
    x, w = rng.normal(size=sx), rng.normal(size=sw)
    check_gradcheck(fn, x, w)
    differential(fn, [x, w])
    differential(fn, [x, w], requires_grad=(False, True))
    second_order(lambda T, a, b: fn(T, a, b) ** 2, [x, w])


def test_embedding_padding_and_frequency_scaling() -> None:
    """Not the derivative on purpose (no gradient for the padding row, shares
    divided by counts), so no gradcheck: PyTorch's values and graphs."""
    x = np.random.default_rng(18).normal(size=(3, 2))

    def fn(T: Any, a: Any) -> Any:
        i = T.tensor([2, 0, 2])
        return T.nn.functional.embedding(i, a, padding_idx=0, scale_grad_by_freq=True)

    differential(fn, [x])
    second_order(lambda T, a: fn(T, a) ** 2, [x])


@settings(max_examples=25, deadline=None)
@given(a=arrays(small_shapes.filter(lambda s: len(s) >= 1)), data=st.data())
def test_flip_and_cumsum_drawn(a: np.ndarray, data: Any) -> None:
    """flip along a drawn dim, and cumsum, whose gradient is a flipped cumsum
    (FlipBackward0, CumsumBackward0, FlipBackward0 under create_graph)."""
    d = data.draw(st.integers(-a.ndim, a.ndim - 1))
    check_gradcheck(lambda T, x: x.flip(d), a)
    differential(lambda T, x: x.flip(d).cumsum(d), [a])


# -------------------------------------------------------------------- outer
def test_outer() -> None:
    rng = np.random.default_rng(11)
    a, b = rng.normal(size=3), rng.normal(size=4)
    check_gradcheck(lambda T, x, y: T.outer(x, y), a, b)
    differential(lambda T, x, y: T.outer(x, y), [a, b])
    differential(lambda T, x, y: x.outer(y), [a, b], requires_grad=(False, True))
    differential(lambda T, x, y: x[::2].outer(y), [a, b])
    second_order(lambda T, x, y: T.outer(x, y) ** 2, [a, b])


# ------------------------------------------------------------- shape: joins
@st.composite
def join_case(draw: Any) -> tuple:
    """Shapes equal except along ``dim`` (cat) and the dim to join along."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3))
    d = draw(st.integers(0, len(shape) - 1))
    sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    shapes = [shape[:d] + (n,) + shape[d + 1 :] for n in sizes]
    return shapes, d - len(shape) if draw(st.booleans()) else d


@FAST
@given(data=st.data(), case=join_case())
def test_cat_gradcheck(data: Any, case: tuple) -> None:
    shapes, dim = case
    arrs = [data.draw(arrays(s)) for s in shapes]
    check_gradcheck(lambda T, *xs: T.cat(xs, dim) * 1.5, *arrs)


@FAST
@given(data=st.data(), shape=small_shapes, n=st.integers(1, 3))
def test_stack_gradcheck(data: Any, shape: tuple, n: int) -> None:
    dim = data.draw(st.integers(-len(shape) - 1, len(shape)))
    arrs = [data.draw(arrays(shape)) for _ in range(n)]
    check_gradcheck(lambda T, *xs: T.stack(xs, dim) * 1.5, *arrs)


JOINS = {
    "cat0": (lambda T, a, b: T.cat([a, b]), ((2, 3), (1, 3))),
    "cat1": (lambda T, a, b: T.cat((a, b), 1), ((2, 3), (2, 1))),
    "cat_neg": (lambda T, a, b: T.cat([a, b, a], dim=-1), ((2, 3), (2, 2))),
    "cat_view": (lambda T, a, b: T.cat([a.t(), b]), ((3, 2), (1, 3))),
    "concat": (lambda T, a, b: T.concat([a, b]), ((3,), (2,))),
    "stack0": (lambda T, a, b: T.stack([a, b]), ((2, 3), (2, 3))),
    "stack_neg": (lambda T, a, b: T.stack([a, b], -1), ((2, 3), (2, 3))),
    "stack_0d": (lambda T, a, b: T.stack([a, b]), ((), ())),
}


@pytest.mark.parametrize("needs", [(True, True), (True, False)])
@pytest.mark.parametrize("name", sorted(JOINS))
def test_joins_vs_torch(name: str, needs: tuple) -> None:
    fn, shapes = JOINS[name]
    rng = np.random.default_rng(12)
    arrs = [rng.normal(size=s) for s in shapes]
    differential(fn, arrs, requires_grad=needs)
    differential(fn, arrs, dtype=np.float32)
    second_order(lambda T, a, b: fn(T, a, b) ** 2, arrs)


def test_cat_promotes_dtype() -> None:
    outs = []
    for lib in (minigrad, torch):
        a = lib.ones(2, requires_grad=True)
        b = lib.ones(2, dtype=lib.float64, requires_grad=True)
        y = lib.cat([a, b])
        (y * lib.arange(4.0, dtype=lib.float64)).sum().backward()
        outs.append((str(y.dtype).split(".")[1], a.grad.tolist(), b.grad.dtype))
    assert outs[0][:2] == outs[1][:2]


# --------------------------------------------------- shape: several outputs
SPLITS = {
    "split": (lambda T, a: a.split(2, 1), (3, 5)),
    "split_sizes": (lambda T, a: a.split([1, 3, 1], -1), (2, 5)),
    "split_even": (lambda T, a: T.split(a, 1), (3, 2)),
    "chunk": (lambda T, a: a.chunk(2, 1), (2, 3)),
    "chunk_more_than_size": (lambda T, a: T.chunk(a, 5), (3,)),
    "unbind": (lambda T, a: a.unbind(1), (2, 3)),
    "unbind_neg": (lambda T, a: T.unbind(a, -1), (2, 3)),
    "iter": (lambda T, a: tuple(a), (3, 2)),
}


def _combine(T: Any, outs: tuple, skip: int | None = None) -> Any:
    """A scalar using every output but ``skip`` (its gradient comes as zeros)."""
    return sum(((o * (i + 1.5)) ** 2).sum() for i, o in enumerate(outs) if i != skip)


@pytest.mark.parametrize("name", sorted(SPLITS))
def test_multi_output_views(name: str) -> None:
    fn, shape = SPLITS[name]
    x = np.random.default_rng(13).normal(size=shape)
    check_gradcheck(fn, x)
    for skip in (None, 0):
        differential(lambda T, a, s=skip: _combine(T, fn(T, a), s), [x])
    second_order(lambda T, a: _combine(T, fn(T, a)), [x])
    # one node shared by every output, numbered 0, 1, ...
    for lib in (minigrad, torch):
        outs = fn(lib, lib.tensor(x, requires_grad=True))
        assert len({id(o.grad_fn) for o in outs}) == 1
        assert [o.output_nr for o in outs] == list(range(len(outs)))
        assert all(o._is_view() for o in outs)
    mine = fn(minigrad, minigrad.tensor(x, requires_grad=True))
    theirs = fn(torch, torch.tensor(x, requires_grad=True))
    assert [tuple(o.shape) for o in mine] == [tuple(o.shape) for o in theirs]


def _inplace_error(lib: Any, case: str) -> str:
    x = lib.ones(4, 2, requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError) as info:
        if case == "split":
            y.split(2)[1].add_(1)
        elif case == "split_sizes":
            y.split([1, 3])[0].mul_(2)
        elif case == "chunk":
            y.chunk(2, 1)[1].zero_()
        elif case == "unbind":
            y.unbind(1)[1].clamp_(0, 1)
        elif case == "iter":
            list(y)[2][0] = 5.0
        elif case == "leaf":
            x.split(1)[0].add_(1)
        elif case == "no_grad_base":
            lib.ones(4).split(2)[0].add_(lib.ones(2, requires_grad=True))
        elif case == "made_in_no_grad":
            with lib.no_grad():
                piece = y.unbind()[0]
            piece.add_(1)
    return str(info.value).replace("torch", "minigrad")


@pytest.mark.parametrize(
    "case",
    [
        "split",
        "split_sizes",
        "chunk",
        "unbind",
        "iter",
        "leaf",
        "no_grad_base",
        "made_in_no_grad",
    ],
)
def test_multi_output_view_inplace_error(case: str) -> None:
    assert _inplace_error(minigrad, case) == _inplace_error(torch, case)


def test_multi_output_view_inplace_allowed_without_grad() -> None:
    for lib in (minigrad, torch):
        z = lib.zeros(4)
        z.split(2)[1].add_(1)
        with lib.no_grad():
            y = lib.ones(4, requires_grad=True) * 1
            y.split(2)[0].mul_(3)
        assert z.tolist() == [0.0, 0.0, 1.0, 1.0] and y.tolist()[:2] == [3.0, 3.0]


# ------------------------------------------------------------ shape: others
OTHERS = {
    "flatten": (lambda T, a: a.flatten(), (2, 3, 2)),
    "flatten_1": (lambda T, a: a.flatten(1), (2, 3, 2)),
    "flatten_0_1": (lambda T, a: T.flatten(a, 0, 1), (2, 3, 2)),
    "flatten_noncontig": (lambda T, a: a.transpose(0, 1).flatten(1), (2, 3, 2)),
    "flatten_0d": (lambda T, a: a.flatten(), ()),
    "flatten_1d": (lambda T, a: (a * 2).flatten(), (3,)),
    "contiguous_t": (lambda T, a: a.t().contiguous(), (2, 3)),
    "contiguous": (lambda T, a: (a * 2).contiguous(), (2, 3)),
    "repeat": (lambda T, a: a.repeat(2, 1, 3), (2, 3)),
    "repeat_same": (lambda T, a: a.repeat(2, 3), (2, 3)),
    "repeat_tuple": (lambda T, a: a.repeat((2, 2)), (3,)),
    "repeat_0d": (lambda T, a: a.repeat(3), ()),
    "narrow": (lambda T, a: a.narrow(1, 1, 2), (2, 4)),
    "narrow_neg": (lambda T, a: T.narrow(a, -1, -3, 2), (2, 4)),
    "narrow_full": (lambda T, a: a.narrow(0, 0, 2), (2, 4)),
    "view_as": (lambda T, a: a.view_as(T.zeros(3, 2)), (2, 3)),
    "reshape_as": (lambda T, a: a.t().reshape_as(T.zeros(6)), (2, 3)),
    "movedim": (lambda T, a: a.movedim(0, 2), (2, 3, 4)),
    "movedim_many": (lambda T, a: T.movedim(a, (0, 1), (2, 0)), (2, 3, 4)),
    "movedim_same": (lambda T, a: a.movedim(-1, -1), (2, 3)),
    "moveaxis": (lambda T, a: T.moveaxis(a, 1, 0), (2, 3)),
    "swapaxes": (lambda T, a: a.swapaxes(0, 2), (2, 3, 4)),
    "swapdims": (lambda T, a: T.swapdims(a, 0, -1), (2, 3)),
}


@pytest.mark.parametrize("name", sorted(OTHERS))
def test_shape_ops(name: str) -> None:
    fn, shape = OTHERS[name]
    x = np.random.default_rng(14).normal(size=shape)
    check_gradcheck(fn, x)
    differential(fn, [x])
    differential(fn, [x], dtype=np.float32)
    second_order(lambda T, a: fn(T, a) ** 2, [x])


def test_flatten_and_contiguous_return_self() -> None:
    for lib in (minigrad, torch):
        x = lib.ones(2, 3, requires_grad=True)
        v = lib.ones(3, requires_grad=True)
        assert x.contiguous() is x and v.flatten() is v and x.flatten(1, 1) is x


@FAST
@given(data=st.data(), shape=small_shapes)
def test_repeat_gradcheck(data: Any, shape: tuple) -> None:
    extra = data.draw(st.integers(0, 2))
    reps = tuple(data.draw(st.integers(1, 3)) for _ in range(len(shape) + extra))
    check_gradcheck(lambda T, a: a.repeat(reps), data.draw(arrays(shape)))


# --------------------------------------------------------- in-place forms
INPLACE = {
    "addcmul_": (lambda T, a: (a * 1).addcmul_(a, a, value=0.5), (2, 3)),
    "addcdiv_": (lambda T, a: (a * 1).addcdiv_(a, a * a + 1), (2, 3)),
    "lerp_": (lambda T, a: (a * 1).lerp_(a * a, 0.7), (2, 3)),
    "sqrt_": (lambda T, a: (a * a + 1).sqrt_(), (2, 3)),
    "log_": (lambda T, a: (a * a + 1).log_() * a, (2, 3)),
    "abs_": (lambda T, a: (a * 2).abs_() * a, (2, 3)),
    "sin_cos_": (lambda T, a: (a * 1).sin_().cos_(), (2, 3)),
    "reciprocal_": (lambda T, a: (a * a + 1).reciprocal_(), (2, 3)),
    "asin_": (lambda T, a: (a * 0.2).arcsin_(), (2, 3)),
    "expm1_": (lambda T, a: (a * a).expm1_() * a, (2, 3)),
    "log1p_": (lambda T, a: (a * a).log1p_() * a, (2, 3)),
    "rsqrt_": (lambda T, a: (a * a + 1).rsqrt_() * a, (2, 3)),
    "floor_": (lambda T, a: (a * 3).floor_() * a, (2, 3)),
    "ceil_": (lambda T, a: (a * 3).ceil_() + a, (2, 3)),
    "round_": (lambda T, a: (a * 3).round_() * a, (2, 3)),
    "trunc_": (lambda T, a: (a * 3).trunc_() * a, (2, 3)),
    "frac_": (lambda T, a: (a * 3).frac_(), (2, 3)),
    "scatter_": (
        lambda T, a: (a * 1).scatter_(1, T.tensor([[2], [0]]), a[:, :1]),
        (2, 3),
    ),
    "scatter_value_": (
        lambda T, a: (a * 1).scatter_(0, T.tensor([[1, 0, 1]]), 0.0),
        (2, 3),
    ),
    "scatter_add_": (
        lambda T, a: (a * 1).scatter_add_(1, T.tensor([[1, 1]]), a[:1, 1:] * 2),
        (2, 3),
    ),
    "scatter_on_view": (
        lambda T, a: _on_view(a, lambda v: v.scatter_(0, T.tensor([2]), 5.0)),
        (2, 3),
    ),
    "clamp_": (lambda T, a: (a * 1).clamp_(-0.5, 0.5), (2, 3)),
    "clamp_min_": (lambda T, a: (a * 1).clamp_(min=0.1), (2, 3)),
    "clamp_tensor_": (lambda T, a: (a * 1).clamp_(max=a[0].detach()), (2, 3)),
    "masked_fill_": (lambda T, a: (a * 1).masked_fill_(a > 0.3, 0.0), (2, 3)),
    "masked_fill_bcast_": (
        lambda T, a: (a * 1).masked_fill_(T.tensor([True, False, True]), -1.0),
        (2, 3),
    ),
    "masked_fill_0d_": (
        lambda T, a: (a * 1).masked_fill_(a < 0, a.sum()),
        (2, 3),
    ),
    "clamp_on_view": (lambda T, a: _on_view(a, lambda v: v.clamp_(max=0.0)), (2, 3)),
    "masked_fill_on_view": (
        lambda T, a: _on_view(a, lambda v: v.masked_fill_(v > 0, 9.0)),
        (2, 3),
    ),
    "unsqueeze_": (lambda T, a: (a * 1).unsqueeze_(1) * a, (3,)),
    "squeeze_": (lambda T, a: (a * 1).squeeze_() * a[0], (1, 3)),
    "squeeze_dim_": (lambda T, a: (a * 1).squeeze_(-1).exp(), (3, 1)),
}


def _on_view(a: Any, op: Any) -> Any:
    y = a * 1
    op(y[1])
    return y


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_forms(name: str) -> None:
    fn, shape = INPLACE[name]
    x = np.random.default_rng(15).normal(size=shape)
    differential(fn, [x])
    second_order(lambda T, a: fn(T, a) ** 2, [x])


# ------------------------------------------------------------------- errors
O = np.ones
ERRORS: dict[str, tuple[Any, tuple]] = {
    "cat_sizes": (lambda T, a, b: T.cat([a, b]), (O((2, 3)), O((2, 4)))),
    "cat_sizes_dim1": (lambda T, a, b: T.cat([a, b], 1), (O((2, 3)), O((3, 3)))),
    "cat_ranks": (lambda T, a, b: T.cat([a, b]), (O((2, 3)), O((3,)))),
    "cat_dim": (lambda T, a, b: T.cat([a, b], 2), (O((2, 3)), O((2, 3)))),
    "cat_0d": (lambda T, a, b: T.cat([a, b]), (O(()), O(()))),
    "cat_empty": (lambda T: T.cat([]), ()),
    "stack_sizes": (lambda T, a, b: T.stack([a, b]), (O((2, 3)), O((2, 4)))),
    "stack_dim": (lambda T, a, b: T.stack([a, b], 3), (O((2, 3)), O((2, 3)))),
    "stack_empty": (lambda T: T.stack([]), ()),
    "gather_out_of_range": (
        lambda T, a: a.gather(1, T.tensor([[0], [3]])),
        (O((2, 3)),),
    ),
    "gather_negative": (lambda T, a: a.gather(1, T.tensor([[0], [-1]])), (O((2, 3)),)),
    "gather_rank": (lambda T, a: a.gather(1, T.tensor([0, 1])), (O((2, 3)),)),
    "gather_float_index": (
        lambda T, a: a.gather(1, T.tensor([[0.0], [1.0]])),
        (O((2, 3)),),
    ),
    "gather_too_big": (
        lambda T, a: a.gather(0, T.tensor([[0, 0, 0, 0]])),
        (O((2, 3)),),
    ),
    "gather_dim": (lambda T, a: a.gather(2, T.tensor([[0]])), (O((2, 3)),)),
    "scatter_out_of_range": (
        lambda T, a: a.scatter(1, T.tensor([[0], [3]]), 1.0),
        (O((2, 3)),),
    ),
    "scatter_negative": (
        lambda T, a: a.scatter(1, T.tensor([[-1], [0]]), 1.0),
        (O((2, 3)),),
    ),
    "scatter_rank": (
        lambda T, a, b: a.scatter(1, T.tensor([0, 1]), b),
        (O((2, 3)), O((2, 3))),
    ),
    "scatter_float_index": (
        lambda T, a, b: a.scatter(1, T.tensor([[0.0], [1.0]]), b),
        (O((2, 3)), O((2, 1))),
    ),
    "scatter_index_bigger_than_src": (
        lambda T, a, b: a.scatter(1, T.tensor([[0, 1], [2, 0]]), b),
        (O((2, 3)), O((2, 1))),
    ),
    "scatter_index_bigger_than_self": (
        lambda T, a, b: a.scatter(1, T.tensor([[0], [1], [2]]), b),
        (O((2, 3)), O((3, 3))),
    ),
    "scatter_value_index_too_big": (
        lambda T, a: a.scatter(0, T.tensor([[0, 0, 0, 0]]), 2.0),
        (O((2, 3)),),
    ),
    "scatter_dtypes": (
        lambda T, a, b: a.scatter(1, T.tensor([[0], [1]]), b.double()),
        (O((2, 3)), O((2, 1))),
    ),
    "scatter_add_dtypes": (
        lambda T, a, b: a.scatter_add(1, T.tensor([[0], [1]]), b.double()),
        (O((2, 3)), O((2, 1))),
    ),
    "scatter_dim": (lambda T, a: a.scatter(2, T.tensor([[0]]), 1.0), (O((2, 3)),)),
    "scatter__leaf": (
        lambda T, a, b: a.requires_grad_().scatter_(1, T.tensor([[0], [1]]), b),
        (O((2, 3)), O((2, 1))),
    ),
    "flip_repeated": (lambda T, a: a.flip(1, 1), (O((2, 3)),)),
    "layer_norm_weight_shape": (
        lambda T, a, b: T.nn.functional.layer_norm(a, (3,), b),
        (O((2, 3)), O((2,))),
    ),
    "layer_norm_bias_shape": (
        lambda T, a, b: T.nn.functional.layer_norm(a, (3,), None, b),
        (O((2, 3)), O((3, 1))),
    ),
    "layer_norm_shape": (
        lambda T, a: T.nn.functional.layer_norm(a, (2,)),
        (O((2, 3)),),
    ),
    "index_select_matrix_index": (
        lambda T, a: a.index_select(1, T.tensor([[0]])),
        (O((2, 3)),),
    ),
    "index_select_float_index": (
        lambda T, a: a.index_select(1, T.tensor([0.0])),
        (O((2, 3)),),
    ),
    "index_select_out_of_range": (
        lambda T, a: a.index_select(1, T.tensor([3])),
        (O((2, 3)),),
    ),
    "index_add_out_of_range": (
        lambda T, a, b: a.index_add(0, T.tensor([5]), b),
        (O((2, 3)), O((1, 3))),
    ),
    "index_add_count": (
        lambda T, a, b: a.index_add(0, T.tensor([0, 1]), b),
        (O((2, 3)), O((1, 3))),
    ),
    "index_add_dtype": (
        lambda T, a, b: a.index_add(0, T.tensor([0]), b.double()),
        (O((2, 3)), O((1, 3))),
    ),
    "tril_1d": (lambda T, a: a.tril(), (O((3,)),)),
    "triu_0d": (lambda T, a: a.triu(), (O(()),)),
    "roll_misaligned": (lambda T, a: a.roll(1, (0, 1)), (O((2, 3)),)),
    "roll_no_dims": (lambda T, a: a.roll((1, 2)), (O((2, 3)),)),
    "flip_dim_out": (lambda T, a: a.flip(2), (O((2, 3)),)),
    "masked_fill_long_mask": (
        lambda T, a: a.masked_fill(T.tensor([1, 0, 1]), 0.0),
        (O((2, 3)),),
    ),
    "masked_fill_float_mask": (lambda T, a: a.masked_fill(a, 0.0), (O((2, 3)),)),
    "masked_fill_shape": (
        lambda T, a, b: a.masked_fill(b > 0, 0.0),
        (O((2, 3)), O((2, 4))),
    ),
    "masked_fill_value_1d": (
        lambda T, a, b: a.masked_fill(a > 0, b),
        (O((2, 3)), O((3,))),
    ),
    "masked_fill__grows": (
        lambda T, a, b: a.masked_fill_(b > 0, 0.0),
        (O((3,)), O((2, 3))),
    ),
    "where_broadcast": (
        lambda T, a, b: T.where(a > 0, b, a),
        (O((3,)), O((2,))),
    ),
    "where_broadcast_other": (
        lambda T, a, b: T.where(a > 0, a, b),
        (O((3,)), O((2,))),
    ),
    "where_float_condition": (lambda T, a: T.where(a, a, a), (O((3,)),)),
    "maximum_shapes": (lambda T, a, b: T.maximum(a, b), (O((2, 3)), O((4,)))),
    "maximum_scalar": (lambda T, a: T.maximum(a, 2.0), (O((3,)),)),
    "clamp_none": (lambda T, a: a.clamp(), (O((2, 3)),)),
    "max_dim_out": (lambda T, a: a.max(2), (O((2, 3)),)),
    "max_empty": (lambda T, a: a.max(), (O((0,)),)),
    "max_empty_dim": (lambda T, a: a.max(1), (O((2, 0)),)),
    "min_empty": (lambda T, a: a.min(), (O((0,)),)),
    "amax_repeated": (lambda T, a: a.amax((0, 0)), (O((2, 3)),)),
    "amax_dim_out": (lambda T, a: a.amax(2), (O((2, 3)),)),
    "var_dim_out": (lambda T, a: a.var(2), (O((2, 3)),)),
    "var_int": (lambda T, a: a.long().var(), (O((2, 3)),)),
    "std_int": (lambda T, a: a.long().std(0), (O((2, 3)),)),
    "norm_int": (lambda T, a: a.long().norm(), (O((2, 3)),)),
    "norm_dim_out": (lambda T, a: a.norm(dim=3), (O((2, 3)),)),
    "prod_dim_out": (lambda T, a: a.prod(2), (O((2, 3)),)),
    "logsumexp_dim_out": (lambda T, a: a.logsumexp(-3), (O((2, 3)),)),
    "cumsum_dim_out": (lambda T, a: a.cumsum(2), (O((2, 3)),)),
    "argmax_dim_out": (lambda T, a: a.argmax(2), (O((2, 3)),)),
    "outer_2d": (lambda T, a, b: T.outer(a, b), (O((2, 3)), O((2,)))),
    "outer_2d_vec2": (lambda T, a, b: T.outer(a, b), (O((2,)), O((2, 3)))),
    "repeat_too_few": (lambda T, a: a.repeat(2), (O((2, 3)),)),
    "narrow_too_long": (lambda T, a: a.narrow(1, 2, 2), (O((2, 3)),)),
    "narrow_0d": (lambda T, a: a.narrow(0, 0, 1), (O(()),)),
    "view_as_size": (lambda T, a, b: a.view_as(b), (O((2, 3)), O((4,)))),
    "split_zero": (lambda T, a: a.split(0), (O((2, 3)),)),
    "split_sizes_sum": (lambda T, a: a.split([1, 1], 1), (O((2, 3)),)),
    "split_0d": (lambda T, a: a.split(1), (O(()),)),
    "chunk_zero": (lambda T, a: a.chunk(0), (O((2, 3)),)),
    "unbind_dim_out": (lambda T, a: a.unbind(2), (O((2, 3)),)),
    "unbind_0d": (lambda T, a: a.unbind(), (O(()),)),
    "iter_0d": (lambda T, a: list(a), (O(()),)),
    "flatten_dim_out": (lambda T, a: a.flatten(2), (O((2, 3)),)),
    "flatten_order": (lambda T, a: a.flatten(1, 0), (O((2, 3)),)),
    "movedim_counts": (lambda T, a: a.movedim((0, 1), (1,)), (O((2, 3)),)),
    "movedim_repeated": (lambda T, a: a.movedim((0, 0), (1, 0)), (O((2, 3)),)),
    "movedim_out": (lambda T, a: a.movedim(0, 2), (O((2, 3)),)),
    "gelu_approximate": (lambda T, a: act(T, "gelu", a, approximate="exact"), (O(3),)),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_text_matches_torch(name: str) -> None:
    fn, arrs = ERRORS[name]
    same_error(fn, *arrs)


@settings(max_examples=30, deadline=None)
@given(
    k=st.integers(1, 2),
    groups=st.integers(1, 2),
    stride=st.integers(1, 3),
    padding=st.integers(0, 2),
    dilation=st.integers(1, 2),
    kernel=st.integers(1, 3),
    size=st.integers(1, 4),
    extra=st.integers(0, 2),
)
def test_conv_transpose_random_geometry(
    k: int,
    groups: int,
    stride: int,
    padding: int,
    dilation: int,
    kernel: int,
    size: int,
    extra: int,
) -> None:
    """Transposed convolutions of random geometry: values, graph and gradients
    as PyTorch's, or PyTorch's error."""
    output_padding = extra if extra < max(stride, dilation) else 0
    rng = np.random.default_rng(size * 31 + kernel)
    x = rng.standard_normal((1, 2 * groups) + (size,) * k)
    w = rng.standard_normal((2 * groups, 2) + (kernel,) * k)
    conv = "conv_transpose1d" if k == 1 else "conv_transpose2d"

    def fn(T: Any, a: Any, b: Any) -> Any:
        return getattr(T.nn.functional, conv)(
            a, b, None, stride, padding, output_padding, groups, dilation
        )

    try:
        fn(torch, torch.tensor(x), torch.tensor(w))
    except RuntimeError as e:
        with pytest.raises(RuntimeError) as mine:
            fn(minigrad, minigrad.tensor(x), minigrad.tensor(w))
        assert str(mine.value) == str(e)
        return
    differential(fn, [x, w])


@settings(max_examples=30, deadline=None)
@given(
    k=st.integers(1, 2),
    groups=st.integers(1, 2),
    stride=st.integers(1, 3),
    padding=st.integers(0, 2),
    dilation=st.integers(1, 2),
    kernel=st.integers(1, 3),
    size=st.integers(1, 5),
)
def test_conv_random_geometry(
    k: int,
    groups: int,
    stride: int,
    padding: int,
    dilation: int,
    kernel: int,
    size: int,
) -> None:
    """Convolutions of random geometry: as PyTorch's, or PyTorch's error."""
    rng = np.random.default_rng(size * 17 + kernel)
    x = rng.standard_normal((2, 2 * groups) + (size,) * k)
    w = rng.standard_normal((2 * groups, 2) + (kernel,) * k)
    conv = "conv1d" if k == 1 else "conv2d"

    def fn(T: Any, a: Any, b: Any) -> Any:
        return getattr(T.nn.functional, conv)(
            a, b, None, stride, padding, dilation, groups
        )

    try:
        fn(torch, torch.tensor(x), torch.tensor(w))
    except RuntimeError as e:
        with pytest.raises(RuntimeError) as mine:
            fn(minigrad, minigrad.tensor(x), minigrad.tensor(w))
        assert str(mine.value) == str(e)
        return
    differential(fn, [x, w])


@settings(max_examples=40, deadline=None)
@given(
    reduce=st.sampled_from(["sum", "prod", "mean", "amax", "amin"]),
    include_self=st.booleans(),
    dim=st.integers(0, 1),
    data=st.data(),
)
def test_scatter_reduce_random(
    reduce: str, include_self: bool, dim: int, data: Any
) -> None:
    """Random indices (repeats, untouched places, zeros in src for prod): values
    and gradients as PyTorch's."""
    rng = np.random.default_rng(data.draw(st.integers(0, 999)))
    base = np.round(rng.standard_normal((3, 4)), 1)
    # src as large as the index: PyTorch's backward refuses a larger one
    src = np.round(rng.standard_normal((2, 3)), 1)  # (ties and zeros happen)
    index = rng.integers(0, base.shape[dim], size=(2, 3))

    def fn(T: Any, a: Any, s: Any) -> Any:
        idx = T.tensor(index)
        return a.scatter_reduce(dim, idx, s, reduce, include_self=include_self)

    differential(fn, [base, src], check_graph=False)


@settings(max_examples=60, deadline=None)
@given(
    op=st.sampled_from(["%", "//", "fmod", "div_floor", "div_trunc"]),
    dtypes=st.sampled_from(
        [("f", "f"), ("i", "i"), ("i", "f"), ("f", "i"), ("i", "n")]
    ),
    data=st.data(),
)
def test_remainder_and_floor_division_random(op: str, dtypes: tuple, data: Any) -> None:
    """Signs, integer and float operands, numbers, zero divisors: the same values,
    dtypes and errors as PyTorch's."""
    rng = np.random.default_rng(data.draw(st.integers(0, 999)))
    a = rng.integers(-9, 10, size=(2, 3)).astype(np.int64)
    b = rng.integers(-4, 5, size=(3,)).astype(np.int64)
    if dtypes[0] == "f":
        a = a / 2.0
    number = dtypes[1] == "n"
    if dtypes[1] == "f":
        b = b / 2.0

    def fn(T: Any) -> Any:
        x = T.tensor(a)
        y = 3 if number else T.tensor(b)
        if op == "%":
            return x % y
        if op == "//":
            return x // y
        if op == "fmod":
            return T.fmod(x, y)
        return T.div(x, y, rounding_mode=op[4:])

    try:
        want = fn(torch)
    except RuntimeError as e:
        with pytest.raises(RuntimeError) as mine:
            fn(minigrad)
        assert str(mine.value) == str(e)
        return
    got = fn(minigrad)
    assert str(got.dtype).replace("minigrad", "torch") == str(want.dtype)
    np.testing.assert_array_equal(got.numpy(), want.numpy())
