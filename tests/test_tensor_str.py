"""Differential tests: minigrad's tensor printing against PyTorch's repr."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from minigrad import _tensor_str  # noqa: E402
from minigrad._tensor_str import (  # noqa: E402
    get_printoptions,
    set_printoptions,
    tensor_repr,
)

nan, inf = math.nan, math.inf


@pytest.fixture(autouse=True)
def default_printoptions():
    """Every test starts and ends with default options in both libraries."""
    torch.set_printoptions(profile="default")
    set_printoptions(profile="default")
    yield
    torch.set_printoptions(profile="default")
    set_printoptions(profile="default")


def expected_text(t: torch.Tensor) -> str:
    return repr(t).replace("dtype=torch.", "dtype=minigrad.")


def minigrad_text(t: torch.Tensor, prefix: str = "tensor") -> str:
    grad_fn = None if t.grad_fn is None else type(t.grad_fn).__name__
    return tensor_repr(
        t.detach().numpy(),
        str(t.dtype).removeprefix("torch."),
        requires_grad=t.requires_grad,
        grad_fn_name=grad_fn,
        prefix=prefix,
    )


def assert_same(t: torch.Tensor) -> None:
    assert minigrad_text(t) == expected_text(t)


def seeded(fn: Callable[[], torch.Tensor]) -> Callable[[], torch.Tensor]:
    """Wrap a tensor factory so random cases are identical on every run."""

    def make() -> torch.Tensor:
        torch.manual_seed(0)
        return fn()

    return make


def leaf(*args, **kwargs) -> torch.Tensor:
    return torch.tensor(*args, **kwargs).requires_grad_()


T = torch.tensor
f64, f16 = torch.float64, torch.float16

# name -> factory; factories keep torch's global RNG use deterministic.
CASES: dict[str, Callable[[], torch.Tensor]] = {
    # What lesson code typically prints.
    "ones_plus_2": lambda: torch.ones(2, 2) + 2,
    "scalar_27": lambda: T(27.0),
    "arange_column": lambda: torch.arange(10.0).reshape(10, 1),
    "decades": lambda: T([2.0000, 0.2000, 0.0200, 0.0020]),
    "four_and_half": lambda: torch.full((5,), 4.5),
    "four_and_half_2d": lambda: torch.full((2, 3), 4.5),
    "randn_3": seeded(lambda: torch.randn(3)),
    "randn_2x3": seeded(lambda: torch.randn(2, 3)),
    "randn_2x3x4": seeded(lambda: torch.randn(2, 3, 4)),
    "randn_2x2x2x2": seeded(lambda: torch.randn(2, 2, 2, 2)),
    "rand_5x5": seeded(lambda: torch.rand(5, 5)),
    "randn_f64": seeded(lambda: torch.randn(3, 3, dtype=f64)),
    "arange_int": lambda: torch.arange(12).reshape(3, 4),
    "int_list": lambda: T([1, 2, 3]),
    "int_scalar": lambda: T(5),
    "linspace": lambda: torch.linspace(0, 1, 11),
    "eye": lambda: torch.eye(3),
    "zeros": lambda: torch.zeros(3),
    "zeros_int": lambda: torch.zeros(2, 3, dtype=torch.int64),
    "leaf_vector": lambda: leaf([1.0, 2.0, 3.0]),
    "sum_backward": lambda: (leaf([1.0, 2.0, 3.0]) * 2).sum(),
    "pow_backward": lambda: leaf([1.0, 2.0, 3.0]).pow(2),
    "mean_backward": lambda: leaf([[1.5, 2.0], [3.0, 4.0]]).mean(),
    "mul_backward_2d": seeded(lambda: torch.randn(2, 3, requires_grad=True) * 1),
    "leaf_scalar": lambda: leaf(3.14),
    "exp_arange": lambda: torch.arange(10.0).exp(),
    "sigmoid": seeded(lambda: torch.randn(4).sigmoid()),
    # Empty tensors.
    "empty_1d": lambda: T([]),
    "empty_0x3": lambda: torch.zeros(0, 3),
    "empty_0x3_int": lambda: torch.zeros(0, 3, dtype=torch.int64),
    "empty_int": lambda: torch.zeros(0, dtype=torch.int64),
    "empty_2x0": lambda: torch.zeros(2, 0),
    "empty_bool": lambda: torch.zeros(0, dtype=torch.bool),
    "empty_f64": lambda: torch.zeros(0, dtype=f64),
    "empty_f16_3d": lambda: torch.zeros(1, 0, 2, dtype=f16),
    "empty_leaf": lambda: torch.zeros(0, 2, requires_grad=True),
    # Signed zero, nan and infinities.
    "neg_zero": lambda: T([-0.0]),
    "neg_zero_scalar": lambda: T(-0.0),
    "zero_scalar": lambda: T(0.0),
    "zeros_signed": lambda: T([0.0, -0.0]),
    "neg_zero_fraction": lambda: T([-0.0, 1.5]),
    "nan_scalar": lambda: T(nan),
    "inf_scalar": lambda: T(-inf),
    "nan_int_valued": lambda: T([nan, 1.0]),
    "nan_fraction": lambda: T([nan, 1.5]),
    "nonfinite_only": lambda: T([nan, inf, -inf]),
    "neg_inf_narrow": lambda: T([-inf, 1.0]),
    "inf_sci": lambda: T([1e-5, inf, nan]),
    "inf_wide": lambda: T([[inf, -1234.5], [0.0, nan]]),
    # Switching to scientific notation.
    "tiny": lambda: T([1e-5, 1.0]),
    "huge": lambda: T([1e9]),
    "exactly_1e8": lambda: T([1e8]),
    "above_1e8": lambda: T([1e8, 2e8]),
    "exactly_1e-4": lambda: T([1e-4, 0.05]),
    "below_1e-4": lambda: T([9.9e-5]),
    "ratio_1000": lambda: T([1.0, 1000.0]),
    "ratio_1001": lambda: T([1.0, 1001.0]),
    "ratio_fraction": lambda: T([0.5, 1000.25]),
    "f64_extremes": lambda: T([1e100, 1e-100, -3.0], dtype=f64),
    "f32_subnormal": lambda: T([1e-45, 1.0]),
    "sci_scalar": lambda: T(1e-5),
    "sci_scalar_big": lambda: T(123456789.0),
    "e_plus_100": lambda: T([1e200, 1.0], dtype=f64),
    # Integer-valued floats and mixed widths.
    "int_valued": lambda: T([1.0, 2.0, 3.0]),
    "int_valued_big": lambda: T([100000.0, -7.0]),
    "float32_rounding": lambda: T([16777217.0]),
    "mixed_widths": lambda: T([1.0, -100.5, 3.25]),
    "mixed_widths_2d": lambda: T([[1.0, -100.5], [3.25, 0.0]]),
    "negatives": seeded(lambda: -torch.rand(2, 4)),
    "round_half": lambda: T([0.00005, 0.00015, 2.5]),
    # Line wrapping.
    "wrap_arange": lambda: torch.arange(30.0),
    "wrap_fractions": lambda: torch.arange(100.0) / 7,
    "wrap_ints": lambda: torch.arange(40),
    "wrap_neg_ints": lambda: torch.arange(-20, 20),
    "wrap_bools": lambda: torch.arange(40) % 3 == 0,
    "wrap_nested": seeded(lambda: torch.randn(2, 20)),
    "wrap_3d": seeded(lambda: torch.randn(2, 2, 15, dtype=f64)),
    "wrap_sci": seeded(lambda: torch.randn(30) * 1e6),
    # Summarization above 1000 elements.
    "exactly_threshold": lambda: torch.arange(1000.0),
    "summarize_1d": lambda: torch.arange(1001.0),
    "summarize_int": lambda: torch.arange(1001),
    "summarize_rows": lambda: torch.arange(2000).reshape(2, 1000),
    "summarize_cols": seeded(lambda: torch.randn(1001, 2)),
    "summarize_3d": seeded(lambda: torch.randn(10, 10, 11)),
    "summarize_3d_short": seeded(lambda: torch.randn(2, 3, 200)),
    "summarize_4d": seeded(lambda: torch.randn(6, 6, 6, 6)),
    "summarize_hidden_sci": lambda: torch.cat([T([1.0, 2.0]), T([1e-9] * 1000)]),
    "summarize_f64": seeded(lambda: torch.randn(40, 40, dtype=f64)),
    "summarize_leaf": seeded(lambda: torch.randn(1100, requires_grad=True)),
    # float16.
    "half_randn": seeded(lambda: torch.randn(5).half()),
    "half_max": lambda: T([65504.0], dtype=f16),
    "half_tiny": lambda: T([6e-8, 1.0], dtype=f16),
    "half_fractions": lambda: T([0.1, 0.2], dtype=f16),
    "half_mixed": lambda: T([1000.0, 0.5], dtype=f16),
    "half_inf": lambda: T([inf, 2.0], dtype=f16),
    "half_scalar": lambda: T(1.5, dtype=f16),
    # Booleans.
    "bools": lambda: T([True, False]),
    "bool_scalar": lambda: T(True),
    "bool_matrix": seeded(lambda: torch.randn(3, 3) > 0),
    # Integer dtypes.
    "int8_extremes": lambda: T([-128, 0, 127], dtype=torch.int8),
    "uint8": lambda: T([0, 7, 255], dtype=torch.uint8),
    "int16": lambda: T([[-300, 2], [5, 30000]], dtype=torch.int16),
    "int32_neg": lambda: T([-1, -22, -333], dtype=torch.int32),
    "int64_huge": lambda: T([2**62, -(2**63)]),
    "int32_scalar": lambda: T(5, dtype=torch.int32),
    "uint8_scalar": lambda: T(3, dtype=torch.uint8),
    # 0-d floats.
    "scalar_half": lambda: T(0.5, dtype=f64),
    "scalar_int_valued_f64": lambda: T(123456.0, dtype=f64),
    "scalar_negative": lambda: T(-2.25),
    # dtype suffix next to long rows: torch's layout decides where it wraps.
    **{
        f"suffix_wrap_{n}": (lambda n=n: torch.arange(n, dtype=f64) * 1.5)
        for n in range(6, 15)
    },
    **{
        f"suffix_wrap_grad_{n}": (
            lambda n=n: torch.arange(n, dtype=f64).requires_grad_() * 1.5
        )
        for n in range(6, 15)
    },
    "suffix_wrap_2d": lambda: torch.arange(22, dtype=f64).reshape(2, 11) + 0.5,
}


@pytest.mark.parametrize("name", list(CASES))
def test_hand_picked(name: str) -> None:
    assert_same(CASES[name]())


@pytest.mark.parametrize("name", ["randn_2x3", "scalar_27", "empty_0x3", "half_inf"])
def test_leaf_and_nonleaf_suffixes(name: str) -> None:
    x = CASES[name]().detach().requires_grad_()
    assert_same(x)
    assert_same(x * 1)


def test_subclass_prefix() -> None:
    class Foo(torch.Tensor):
        pass

    torch.manual_seed(0)
    t = torch.randn(2, 3).as_subclass(Foo)
    expected = repr(t)
    assert expected.startswith("Foo(")
    assert minigrad_text(t.as_subclass(torch.Tensor), prefix="Foo") == expected


def test_dtype_name_variants() -> None:
    data = np.array([1.5, 2.0])
    expected = "tensor([1.5000, 2.0000], dtype=minigrad.float64)"
    assert tensor_repr(data, "float64") == expected
    assert tensor_repr(data, "torch.float64") == expected
    # Data is converted to the named dtype before printing.
    assert tensor_repr(data, "int32") == "tensor([1, 2], dtype=minigrad.int32)"
    with pytest.raises(ValueError):
        tensor_repr(data, "complex64")


# ---------------------------------------------------------------------------
# Print options
# ---------------------------------------------------------------------------

OPTION_SETS = [
    {"precision": 2},
    {"precision": 0},
    {"precision": 8},
    {"sci_mode": True},
    {"sci_mode": False},
    {"precision": 2, "sci_mode": True},
    {"threshold": 5},
    {"threshold": 5, "edgeitems": 1},
    {"threshold": 5, "edgeitems": 0},
    {"edgeitems": 0},
    {"threshold": inf},
    {"linewidth": 40},
    {"linewidth": 10},
    {"linewidth": 200},
    {"profile": "short"},
    {"profile": "full"},
    {"profile": "default"},
    {"profile": "short", "precision": 6, "linewidth": 50},
]

OPTION_TENSORS = [
    "scalar_27",
    "decades",
    "randn_2x3x4",
    "arange_int",
    "tiny",
    "huge",
    "nan_fraction",
    "neg_zero",
    "empty_0x3_int",
    "bools",
    "wrap_fractions",
    "summarize_1d",
    "summarize_3d",
    "summarize_rows",
    "half_mixed",
    "mul_backward_2d",
    "suffix_wrap_grad_10",
    "exp_arange",
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_printoptions_match_torch(options: dict) -> None:
    torch.set_printoptions(**options)
    set_printoptions(**options)
    assert get_printoptions() == torch._tensor_str.get_printoptions()
    for name in OPTION_TENSORS:
        assert_same(CASES[name]())


def test_sci_mode_is_reset_when_omitted() -> None:
    for lib in (torch, _tensor_str):
        lib.set_printoptions(sci_mode=True)
        lib.set_printoptions(precision=3)
    assert get_printoptions() == torch._tensor_str.get_printoptions()
    assert get_printoptions()["sci_mode"] is None
    assert_same(T([1.0, 2.5]))


def test_unknown_profile_is_ignored() -> None:
    set_printoptions(profile="nonsense", precision=1)
    torch.set_printoptions(profile="nonsense", precision=1)
    assert get_printoptions() == torch._tensor_str.get_printoptions()


def test_printoptions_context_manager_restores() -> None:
    before = get_printoptions()
    with _tensor_str.printoptions(precision=1, linewidth=30):
        assert get_printoptions()["precision"] == 1
        with torch._tensor_str.printoptions(precision=1, linewidth=30):
            assert_same(torch.arange(20.0) / 3)
    assert get_printoptions() == before


# ---------------------------------------------------------------------------
# Property-based comparison
# ---------------------------------------------------------------------------

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8"]
DTYPES += ["uint8", "bool"]

shapes = st.one_of(
    st.lists(st.integers(0, 6), min_size=0, max_size=4).map(tuple),
    st.sampled_from([(1001,), (3, 400), (12, 10, 9), (2, 1100), (1200, 1)]),
)


@st.composite
def float_arrays(draw: st.DrawFn, shape: tuple, dtype: str) -> np.ndarray:
    """Random floats from a drawn recipe: magnitudes, integrality, specials."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    size = math.prod(shape)
    lo = draw(st.integers(-6, 9))
    hi = draw(st.integers(lo, 10))
    magnitude = 10.0 ** rng.uniform(lo, hi, size)
    values = magnitude * rng.choice([-1.0, 1.0], size)
    kind = draw(st.sampled_from(["any", "integral", "mixed", "rounded"]))
    if kind == "integral":
        values = np.round(values)
    elif kind == "mixed":
        values = np.where(rng.random(size) < 0.5, np.round(values), values)
    elif kind == "rounded":
        values = np.round(values, draw(st.integers(0, 4)))
    special_rate = draw(st.sampled_from([0.0, 0.0, 0.1, 0.5, 1.0]))
    specials = rng.choice([nan, inf, -inf, 0.0, -0.0], size)
    values = np.where(rng.random(size) < special_rate, specials, values)
    with np.errstate(over="ignore"):
        return values.astype(dtype).reshape(shape)


@st.composite
def int_arrays(draw: st.DrawFn, shape: tuple, dtype: str) -> np.ndarray:
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if dtype == "bool":
        return rng.random(shape) < 0.5
    info = np.iinfo(dtype)
    bound = draw(st.sampled_from([1, 10, 1000, None]))
    low = info.min if bound is None else max(info.min, -bound)
    high = info.max if bound is None else min(info.max, bound)
    return rng.integers(low, high, size=shape, dtype=dtype, endpoint=True)


@st.composite
def tensors(draw: st.DrawFn) -> torch.Tensor:
    shape = draw(shapes)
    dtype = draw(st.sampled_from(DTYPES))
    if dtype.startswith("float"):
        arr = draw(float_arrays(shape, dtype))
    else:
        arr = draw(int_arrays(shape, dtype))
    t = torch.from_numpy(np.asarray(arr))  # 0-d draws may come back as scalars
    if t.is_floating_point():
        autograd = draw(st.sampled_from(["none", "leaf", "nonleaf"]))
        if autograd != "none":
            t.requires_grad_()
        if autograd == "nonleaf":
            t = t * 1
    return t


print_options = st.fixed_dictionaries(
    {},
    optional={
        "precision": st.integers(0, 8),
        "threshold": st.sampled_from([0, 5, 50, 1000, inf]),
        "edgeitems": st.integers(0, 4),
        "linewidth": st.integers(10, 140),
        "profile": st.sampled_from(["default", "short", "full"]),
        "sci_mode": st.sampled_from([None, True, False]),
    },
)

fast = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@fast
@given(tensors())
def test_random_tensors_default_options(t: torch.Tensor) -> None:
    assert_same(t)


@fast
@given(tensors(), print_options)
def test_random_tensors_random_options(t: torch.Tensor, options: dict) -> None:
    torch.set_printoptions(**options)
    set_printoptions(**options)
    try:
        assert_same(t)
    finally:
        torch.set_printoptions(profile="default")
        set_printoptions(profile="default")
