"""nn.functional against PyTorch: float64 gradcheck over drawn shapes, then
values, gradients, nodes, next_functions and ``_saved_*`` for each op, second
derivatives (create_graph), and the error texts a student is likely to meet."""

from __future__ import annotations

import warnings
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nn_harness import compare, same_error, second_order

import minigrad

torch = pytest.importorskip("torch")

FAST = settings(max_examples=8, deadline=None)
REDUCTIONS = ["mean", "sum", "none"]


def F(lib: Any) -> Any:  # noqa: N802 - the name lessons use
    return lib.nn.functional


def floats(lo: float = -2.0, hi: float = 2.0) -> st.SearchStrategy:
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False, width=64)


def leaf(a: np.ndarray) -> minigrad.Tensor:
    return minigrad.tensor(a, dtype=minigrad.float64, requires_grad=True)


def gradcheck(fn: Any, *inputs: Any) -> None:
    assert minigrad.autograd.gradcheck(fn, tuple(inputs))


@st.composite
def logits_and_targets(draw: Any, min_classes: int = 1) -> tuple:
    """(N, C) or (C,) logits and matching class indices."""
    n = draw(st.integers(1, 4))
    c = draw(st.integers(min_classes, 4))
    one_d = draw(st.booleans())
    shape = (c,) if one_d else (n, c)
    x = draw(hnp.arrays(np.float64, shape, elements=floats()))
    t = draw(
        hnp.arrays(np.int64, () if one_d else (n,), elements=st.integers(0, c - 1))
    )
    return x, t


rng = np.random.default_rng(0)


def randn(*shape: int, dtype: Any = np.float64) -> np.ndarray:
    return rng.standard_normal(shape).astype(dtype)


def probs(*shape: int, dtype: Any = np.float64) -> np.ndarray:
    return rng.uniform(0.05, 0.95, shape).astype(dtype)


# ---------------------------------------------------------------- gradcheck
shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)


@FAST
@given(st.data())
def test_gradcheck_softmax_log_softmax(data: Any) -> None:
    x = data.draw(hnp.arrays(np.float64, shapes, elements=floats()))
    dim = data.draw(st.integers(-x.ndim, x.ndim - 1))
    gradcheck(lambda a: minigrad.nn.functional.softmax(a, dim), leaf(x))
    gradcheck(lambda a: minigrad.nn.functional.log_softmax(a, dim), leaf(x))


@FAST
@given(st.data())
def test_gradcheck_mse_loss(data: Any) -> None:
    shape = data.draw(shapes)
    x = data.draw(hnp.arrays(np.float64, shape, elements=floats()))
    t = data.draw(hnp.arrays(np.float64, shape, elements=floats()))
    red = data.draw(st.sampled_from(REDUCTIONS))
    gradcheck(
        lambda a, b: minigrad.nn.functional.mse_loss(a, b, reduction=red),
        leaf(x),
        leaf(t),
    )


@FAST
@given(logits_and_targets(), st.sampled_from(REDUCTIONS), st.booleans())
def test_gradcheck_nll_and_cross_entropy(xt: tuple, red: str, weighted: bool) -> None:
    x, t = xt
    target = minigrad.tensor(t)
    w = minigrad.tensor(np.linspace(0.5, 2, x.shape[-1])) if weighted else None
    F_ = minigrad.nn.functional
    gradcheck(lambda a: F_.nll_loss(a, target, weight=w, reduction=red), leaf(x))
    gradcheck(lambda a: F_.cross_entropy(a, target, weight=w, reduction=red), leaf(x))


@FAST
@given(st.data())
def test_gradcheck_binary_cross_entropy(data: Any) -> None:
    shape = data.draw(shapes)
    x = data.draw(hnp.arrays(np.float64, shape, elements=floats(0.05, 0.95)))
    t = data.draw(hnp.arrays(np.float64, shape, elements=floats(0.05, 0.95)))
    red = data.draw(st.sampled_from(REDUCTIONS))
    F_ = minigrad.nn.functional
    gradcheck(
        lambda a, b: F_.binary_cross_entropy(a, b, reduction=red), leaf(x), leaf(t)
    )
    pw = minigrad.tensor(np.full(shape[-1:], 1.7))
    for pos_weight in (None, pw):
        gradcheck(
            lambda a, b, pos_weight=pos_weight: F_.binary_cross_entropy_with_logits(
                a, b, reduction=red, pos_weight=pos_weight
            ),
            leaf(x * 4 - 2),
            leaf(t),
        )


@FAST
@given(st.data())
def test_gradcheck_linear(data: Any) -> None:
    lead = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=3))
    n_in, n_out = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3))
    x = data.draw(hnp.arrays(np.float64, lead + (n_in,), elements=floats()))
    w = data.draw(hnp.arrays(np.float64, (n_out, n_in), elements=floats()))
    b = data.draw(hnp.arrays(np.float64, (n_out,), elements=floats()))
    F_ = minigrad.nn.functional
    gradcheck(lambda a, m, c: F_.linear(a, m, c), leaf(x), leaf(w), leaf(b))
    gradcheck(lambda a, m: F_.linear(a, m), leaf(x), leaf(w))


def test_gradcheck_dropout() -> None:
    x = leaf(randn(4, 5))
    minigrad.manual_seed(3)  # the same mask for every evaluation
    state = minigrad.get_rng_state()

    def fn(a: minigrad.Tensor) -> minigrad.Tensor:
        minigrad.set_rng_state(state)
        return minigrad.nn.functional.dropout(a, 0.4)

    gradcheck(fn, x)


def test_gradcheck_label_smoothing_and_prob_targets() -> None:
    F_ = minigrad.nn.functional
    t = minigrad.tensor([0, 2, 1, 2])
    p = minigrad.tensor(probs(4, 3))
    for red in REDUCTIONS:
        gradcheck(
            lambda a, red=red: F_.cross_entropy(
                a, t, reduction=red, label_smoothing=0.2
            ),
            leaf(randn(4, 3)),
        )
        gradcheck(
            lambda a, red=red: F_.cross_entropy(a, p, reduction=red), leaf(randn(4, 3))
        )


# ----------------------------------------------------------- differential
DTYPES = [np.float64, np.float32]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax(name: str, dim: int, dtype: Any) -> None:
    x = randn(3, 4, dtype=dtype) * 5
    compare(lambda lib, a: getattr(F(lib), name)(a, dim), [x], [True])
    compare(lambda lib, a: getattr(a, name)(dim), [x], [True])
    compare(lambda lib, a: getattr(lib, name)(a, dim), [x], [True])


def test_softmax_is_stable_and_warns_without_dim() -> None:
    big = np.array([[1000.0, 0.0, -1000.0]])
    compare(lambda lib, a: F(lib).softmax(a, 1), [big], [True])
    compare(lambda lib, a: F(lib).log_softmax(a, 1), [big], [True])
    for lib in (minigrad, torch):
        with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
            F(lib).softmax(lib.tensor(randn(2, 3)))


def test_softmax_dtype_argument() -> None:
    compare(
        lambda lib, a: F(lib).softmax(a, 1, dtype=lib.float64),
        [randn(2, 3, dtype=np.float32)],
        [True],
    )


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["relu", "tanh", "sigmoid"])
def test_activations(name: str, dtype: Any) -> None:
    compare(lambda lib, a: getattr(F(lib), name)(a), [randn(3, 4, dtype=dtype)], [True])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_mse_loss(reduction: str, dtype: Any) -> None:
    x, t = randn(3, 4, dtype=dtype), randn(3, 4, dtype=dtype)
    fn = lambda lib, a, b: F(lib).mse_loss(a, b, reduction=reduction)  # noqa: E731
    compare(fn, [x, t], [True, False])
    compare(fn, [x, t], [True, True])
    compare(fn, [x, t], [False, True])


def test_mse_loss_broadcast_target_warns_and_expands() -> None:
    x, t = randn(3, 4), randn(3, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compare(lambda lib, a, b: F(lib).mse_loss(a, b), [x, t], [True, True])
    for lib in (minigrad, torch):
        with pytest.warns(
            UserWarning, match=r"Using a target size \(\w+\.Size\(\[3, 1\]\)\)"
        ):
            F(lib).mse_loss(lib.tensor(x), lib.tensor(t))


def test_mse_loss_mixed_dtypes() -> None:
    x, t = randn(3, 4, dtype=np.float32), randn(3, 4)
    compare(lambda lib, a, b: F(lib).mse_loss(a, b), [x, t], [True, False])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignore_index", [-100, 1])
@pytest.mark.parametrize("loss", ["nll_loss", "cross_entropy"])
def test_nll_and_cross_entropy(
    loss: str, ignore_index: int, weighted: bool, reduction: str, dtype: Any
) -> None:
    x = randn(5, 4, dtype=dtype)
    if loss == "nll_loss":
        x = x - np.log(np.exp(x).sum(1, keepdims=True))
    t = np.array([0, 1, 3, 2, 1])
    w = rng.uniform(0.5, 2, 4).astype(dtype)

    def fn(lib: Any, a: Any, b: Any, c: Any) -> Any:
        return getattr(F(lib), loss)(
            a,
            b,
            weight=c if weighted else None,
            ignore_index=ignore_index,
            reduction=reduction,
        )

    compare(fn, [x, t, w], [True, False, False])


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_nll_and_cross_entropy_1d_input(reduction: str) -> None:
    x, t = randn(4), np.array(2)
    compare(
        lambda lib, a, b: F(lib).nll_loss(a, b, reduction=reduction),
        [x, t],
        [True, False],
    )
    compare(
        lambda lib, a, b: F(lib).cross_entropy(a, b, reduction=reduction),
        [x, t],
        [True, False],
    )


def test_nll_all_ignored_mean_is_nan() -> None:
    x, t = randn(2, 3), np.array([1, 1])
    compare(
        lambda lib, a, b: F(lib).nll_loss(a, b, ignore_index=1, reduction="sum"),
        [x, t],
        [True, False],
    )
    mg = F(minigrad).nll_loss(minigrad.tensor(x), minigrad.tensor(t), ignore_index=1)
    assert np.isnan(mg.item())


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_label_smoothing(reduction: str, dtype: Any) -> None:
    x, t = randn(4, 3, dtype=dtype), np.array([0, 2, -100, 1])

    def fn(lib: Any, a: Any, b: Any) -> Any:
        return F(lib).cross_entropy(a, b, reduction=reduction, label_smoothing=0.1)

    compare(fn, [x, t], [True, False])


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_class_probabilities(reduction: str) -> None:
    x, p = randn(4, 3), probs(4, 3)
    fn = lambda lib, a, b: F(lib).cross_entropy(a, b, reduction=reduction)  # noqa: E731
    compare(fn, [x, p], [True, False])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_binary_cross_entropy(reduction: str, weighted: bool, dtype: Any) -> None:
    x, t, w = probs(3, 4, dtype=dtype), probs(3, 4, dtype=dtype), probs(4, dtype=dtype)

    def fn(lib: Any, a: Any, b: Any, c: Any) -> Any:
        return F(lib).binary_cross_entropy(
            a, b, weight=c if weighted else None, reduction=reduction
        )

    compare(fn, [x, t, w], [True, False, False])
    compare(fn, [x, t, w], [True, True, False])
    # through a sigmoid, as lessons write it
    compare(
        lambda lib, a, b: F(lib).binary_cross_entropy(a.sigmoid(), b),
        [randn(3, 4, dtype=dtype), t],
        [True, False],
    )


def test_binary_cross_entropy_clamps_logs() -> None:
    x, t = np.array([0.0, 1.0, 0.5]), np.array([1.0, 0.0, 1.0])
    compare(lambda lib, a, b: F(lib).binary_cross_entropy(a, b), [x, t], [False, False])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("positive", [False, True])
def test_binary_cross_entropy_with_logits(
    positive: bool, weighted: bool, reduction: str, dtype: Any
) -> None:
    x, t = randn(3, 4, dtype=dtype) * 3, probs(3, 4, dtype=dtype)
    w, pw = probs(4, dtype=dtype), probs(4, dtype=dtype) * 3

    def fn(lib: Any, a: Any, b: Any, c: Any, d: Any) -> Any:
        return F(lib).binary_cross_entropy_with_logits(
            a,
            b,
            weight=c if weighted else None,
            pos_weight=d if positive else None,
            reduction=reduction,
        )

    compare(fn, [x, t, w, pw], [True, False, False, False])
    compare(fn, [x, t, w, pw], [True, True, False, False])


def test_binary_cross_entropy_with_logits_extreme_logits() -> None:
    x, t = np.array([-800.0, 800.0, 0.0]), np.array([1.0, 0.0, 1.0])
    compare(
        lambda lib, a, b: F(lib).binary_cross_entropy_with_logits(a, b),
        [x, t],
        [True, False],
    )


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "x_shape",
    [(3, 4), (4,), (2, 3, 4), (2, 2, 3, 4)],
    ids=["2d", "1d", "3d", "4d"],
)
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("grads", [(1, 1, 1), (0, 1, 1), (1, 0, 1), (1, 1, 0)])
def test_linear(grads: tuple, bias: bool, x_shape: tuple, dtype: Any) -> None:
    x, w, b = (
        randn(*x_shape, dtype=dtype),
        randn(5, 4, dtype=dtype),
        randn(5, dtype=dtype),
    )
    if bias:
        compare(
            lambda lib, a, m, c: F(lib).linear(a, m, c),
            [x, w, b],
            [bool(g) for g in grads],
        )
    else:
        compare(
            lambda lib, a, m: F(lib).linear(a, m), [x, w], [bool(g) for g in grads[:2]]
        )


@pytest.mark.parametrize("bias", [True, False])
def test_linear_non_contiguous_input(bias: bool) -> None:
    x, w, b = randn(3, 2, 4), randn(5, 4), randn(5)

    def fn(lib: Any, a: Any, m: Any, c: Any) -> Any:
        return F(lib).linear(a.transpose(0, 1), m, c if bias else None)

    y_mg, y_th = compare(fn, [x, w, b], [True, True, True])
    assert y_mg._version == y_th._version
    # a transposed matrix goes straight to addmm
    compare(
        lambda lib, a, m, c: F(lib).linear(a.t(), m, c),
        [randn(4, 3), w, b],
        [True, True, True],
    )


def test_linear_weight_grad_is_row_major() -> None:
    """addmm computes W's gradient in W.t()'s layout (as PyTorch does), so
    ``W.grad`` is row-major like W and ``W.grad.view(-1)`` works."""
    w = minigrad.tensor(randn(5, 4), requires_grad=True)
    b = minigrad.tensor(randn(5), requires_grad=True)
    F(minigrad).linear(minigrad.tensor(randn(3, 4)), w, b).sum().backward()
    assert w.grad.is_contiguous()
    assert w.grad.view(-1).shape == (20,)


def test_linear_without_bias_weight_grad_is_row_major() -> None:
    w = minigrad.tensor(randn(5, 4), requires_grad=True)
    F(minigrad).linear(minigrad.tensor(randn(3, 4)), w).sum().backward()
    assert w.grad.is_contiguous()


@pytest.mark.parametrize("dtype", DTYPES)
def test_dropout_graph_and_scaling(dtype: Any) -> None:
    x = randn(20, 30, dtype=dtype)
    # masks differ between libraries: compare the graph on p=1 (a zero mask) ...
    compare(lambda lib, a: F(lib).dropout(a, 1.0), [x], [True])
    # ... and check the structure and scaling of a random mask
    a = minigrad.tensor(x, requires_grad=True)
    y = F(minigrad).dropout(a, 0.25)
    assert type(y.grad_fn).__name__ == "MulBackward0"
    assert y.grad_fn._saved_self is None
    mask = y.grad_fn._saved_other
    kept = mask._data != 0
    np.testing.assert_allclose(mask._data[kept], 1 / dtype(0.75), rtol=1e-6)
    assert 0.6 < kept.mean() < 0.9
    y.sum().backward()
    np.testing.assert_array_equal(a.grad._data, mask._data)
    th = torch.nn.functional.dropout(torch.tensor(x, requires_grad=True), 0.25)
    assert {n for n in dir(th.grad_fn) if n.startswith("_saved")} >= {"_saved_other"}


def test_dropout_identity_and_reproducible() -> None:
    a = minigrad.tensor(randn(3, 3), requires_grad=True)
    for lib, t in (
        (minigrad, a),
        (torch, torch.tensor(randn(3, 3), requires_grad=True)),
    ):
        assert F(lib).dropout(t, 0.0) is t
        assert F(lib).dropout(t, 0.5, training=False) is t
    minigrad.manual_seed(7)
    y1 = F(minigrad).dropout(a, 0.5)
    minigrad.manual_seed(7)
    y2 = F(minigrad).dropout(a, 0.5)
    assert y1.equal(y2)


# ----------------------------------------------------------- second order
@pytest.mark.parametrize(
    "name,fn,arrs,rg",
    [
        ("softmax", lambda lib, a: F(lib).softmax(a, 1), [randn(3, 4)], [True]),
        ("log_softmax", lambda lib, a: F(lib).log_softmax(a, 0), [randn(3, 4)], [True]),
        (
            "mse",
            lambda lib, a, b: F(lib).mse_loss(a, b),
            [randn(3, 4), randn(3, 4)],
            [True, True],
        ),
        (
            "cross_entropy",
            lambda lib, a, b: F(lib).cross_entropy(a, b),
            [randn(3, 4), np.array([0, 3, 1])],
            [True, False],
        ),
        (
            "nll_none",
            lambda lib, a, b: F(lib).nll_loss(a.tanh(), b, reduction="none"),
            [randn(3, 4), np.array([0, 3, 1])],
            [True, False],
        ),
        (
            "bce",
            lambda lib, a, b: F(lib).binary_cross_entropy(a, b),
            [probs(3, 4), probs(3, 4)],
            [True, True],
        ),
        (
            "bce_logits",
            lambda lib, a, b, c: F(lib).binary_cross_entropy_with_logits(
                a, b, pos_weight=c
            ),
            [randn(3, 4), probs(3, 4), probs(4)],
            [True, True, False],
        ),
        (
            "linear",
            lambda lib, a, m, c: F(lib).linear(a, m, c).tanh(),
            [randn(3, 4), randn(2, 4), randn(2)],
            [True, True, True],
        ),
        (
            "linear_t",
            lambda lib, a, m, c: F(lib).linear(a.t(), m, c).tanh(),
            [randn(4, 3), randn(2, 4), randn(2)],
            [True, True, True],
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_second_order(name: str, fn: Any, arrs: list, rg: list) -> None:
    second_order(fn, arrs, rg)


# ------------------------------------------------------------------ errors
def _long(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


X = randn(3, 4, dtype=np.float32)


@pytest.mark.parametrize(
    "fn,arrs",
    [
        (
            lambda lib, a, b: F(lib).nll_loss(a, b),
            [X, np.array([0.0, 1.0, 2.0], np.float32)],
        ),
        (
            lambda lib, a, b: F(lib).cross_entropy(a, b),
            [X, np.array([0.0, 1.0, 2.0], np.float32)],
        ),
        (
            lambda lib, a, b: F(lib).cross_entropy(a, b),
            [X, np.array([0, 1, 2], np.int32)],
        ),
        (lambda lib, a, b: F(lib).cross_entropy(a, b), [X, _long(0, 1)]),
        (lambda lib, a, b: F(lib).cross_entropy(a, b), [X, np.zeros((3, 1), np.int64)]),
        (lambda lib, a, b: F(lib).cross_entropy(a, b), [X, _long(0, 1, 4)]),
        (lambda lib, a, b: F(lib).nll_loss(a, b), [X, _long(0, 1, -3)]),
        (lambda lib, a, b: F(lib).nll_loss(a, b), [X[0], _long(0, 1)]),
        (
            lambda lib, a, b: F(lib).nll_loss(a, b),
            [np.array(1.0, np.float32), np.array(0)],
        ),
        (
            lambda lib, a, b, c: F(lib).nll_loss(a, b, weight=c),
            [X, _long(0, 1, 2), np.ones(3, np.float32)],
        ),
        (
            lambda lib, a, b, c: F(lib).nll_loss(a, b, weight=c),
            [X, _long(0, 1, 2), np.ones(4)],
        ),
        (lambda lib, a, b: F(lib).mse_loss(a, b), [X, randn(2, 4, dtype=np.float32)]),
        (lambda lib, a, b: F(lib).mse_loss(a, b), [_long(1, 2), _long(1, 2)]),
        (lambda lib, a, b: F(lib).mse_loss(a, b, reduction="avg"), [X, X]),
        (lambda lib, a, b: F(lib).binary_cross_entropy(a, b), [X, X]),
        (
            lambda lib, a, b: F(lib).binary_cross_entropy(a, b),
            [probs(3, 4, dtype=np.float32), probs(3, 1, dtype=np.float32)],
        ),
        (
            lambda lib, a, b: F(lib).binary_cross_entropy(a, b),
            [probs(3, 4, dtype=np.float32), np.ones((3, 4), np.int64)],
        ),
        (
            lambda lib, a, b: F(lib).binary_cross_entropy(a, b),
            [probs(3, 4, dtype=np.float32), probs(3, 4)],
        ),
        (
            lambda lib, a, b: F(lib).binary_cross_entropy_with_logits(a, b),
            [X, probs(3, 1, dtype=np.float32)],
        ),
        (
            lambda lib, a, b: F(lib).binary_cross_entropy_with_logits(a, b),
            [X, np.ones((3, 4), np.int64)],
        ),
        (lambda lib, a: F(lib).dropout(a, 1.5), [X]),
        (lambda lib, a: F(lib).softmax(a, 2), [X]),
        (lambda lib, a: F(lib).softmax(a, 0), [_long(1, 2)]),
        (lambda lib, a: F(lib).log_softmax(a, 0), [_long(1, 2)]),
        (
            lambda lib, a, m, c: F(lib).linear(a, m, c),
            [X, randn(5, 3, dtype=np.float32), randn(5, dtype=np.float32)],
        ),
        (
            lambda lib, a, m, c: F(lib).linear(a, m, c),
            [
                randn(2, 3, 3, dtype=np.float32),
                randn(5, 4, dtype=np.float32),
                randn(5, dtype=np.float32),
            ],
        ),
        (
            lambda lib, a, m, c: F(lib).linear(a, m, c),
            [
                X.astype(np.float64),
                randn(5, 4, dtype=np.float32),
                randn(5, dtype=np.float32),
            ],
        ),
        (
            lambda lib, a, m, c: F(lib).linear(a, m, c),
            [X, randn(5, 4, dtype=np.float32), randn(5)],
        ),
        (
            lambda lib, a, m, c: F(lib).linear(a, m, c),
            [X, randn(5, 4, dtype=np.float32), randn(4, dtype=np.float32)],
        ),
    ],
)
@pytest.mark.filterwarnings("ignore:Using a target size")
def test_errors_match_pytorch(fn: Any, arrs: list) -> None:
    same_error(fn, *arrs)
