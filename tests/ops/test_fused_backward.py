"""Gradients PyTorch computes with one fused kernel (tanh_backward,
sigmoid_backward, threshold_backward, leaky_relu_backward, gelu_backward,
softplus_backward, _softmax_backward_data, _log_softmax_backward_data,
mse_loss_backward): under ``create_graph=True`` each is one node
(``TanhBackwardBackward0``, ...) with PyTorch's saved attributes, the whole graph
of the gradient is PyTorch's, and the fused node's own backward gives the right
second and third derivatives."""

from __future__ import annotations

from collections.abc import Callable

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import example, given, settings
from op_harness import (
    _numpy,
    arrays,
    away_from_zero,
    check_gradcheck,
    compare_graphs,
    make,
    second_order,
    small_shapes,
    torch,
)

import minigrad
from minigrad.ops.activation import (
    GeluBackward,
    LeakyReluBackward,
    LogSoftmaxBackwardData,
    SigmoidBackward,
    SoftmaxBackwardData,
    SoftplusBackward,
    TanhBackward,
    ThresholdBackward,
)
from minigrad.ops.loss import BinaryCrossEntropyBackward, MseLossBackward

TARGET = 0.25  # mse_loss's target, a constant

ACTIVATIONS = {
    "tanh": lambda lib, x: x.tanh(),
    "sigmoid": lambda lib, x: x.sigmoid(),
    "relu": lambda lib, x: x.relu(),
    "softmax_last": lambda lib, x: lib.softmax(x, -1),
    "softmax_first": lambda lib, x: lib.softmax(x, 0),
    "log_softmax": lambda lib, x: lib.log_softmax(x, -1),
    "leaky_relu": lambda lib, x: lib.nn.functional.leaky_relu(x, 0.1),
    "gelu": lambda lib, x: lib.nn.functional.gelu(x),
    "gelu_tanh": lambda lib, x: lib.nn.functional.gelu(x, approximate="tanh"),
    "softplus": lambda lib, x: lib.nn.functional.softplus(x, beta=2, threshold=1.5),
    "mse_mean": lambda lib, x: lib.nn.functional.mse_loss(x, lib.full_like(x, TARGET)),
    "mse_none": lambda lib, x: lib.nn.functional.mse_loss(
        x, lib.full_like(x, TARGET), reduction="none"
    ),
    "abs": lambda lib, x: x.abs(),  # (not fused: its graph has SgnBackward0)
    "elu": lambda lib, x: lib.nn.functional.elu(x, 0.5),
    "selu": lambda lib, x: lib.nn.functional.selu(x),
    "celu": lambda lib, x: lib.nn.functional.celu(x, 0.7),
    "elu_inplace": lambda lib, x: lib.nn.functional.elu(x * 1, inplace=True),
    "hardtanh": lambda lib, x: lib.nn.functional.hardtanh(x, -0.5, 0.5),
    "relu6": lambda lib, x: lib.nn.functional.relu6(x),
    "silu": lambda lib, x: lib.nn.functional.silu(x),  # (ordinary ops)
    "mish": lambda lib, x: lib.nn.functional.mish(x),  # (ordinary ops)
    "logsigmoid": lambda lib, x: lib.nn.functional.logsigmoid(x),
    "smooth_l1": lambda lib, x: lib.nn.functional.smooth_l1_loss(
        x, lib.full_like(x, TARGET), beta=0.5
    ),
    "smooth_l1_none": lambda lib, x: lib.nn.functional.smooth_l1_loss(
        x, lib.full_like(x, TARGET), reduction="none"
    ),
    "huber_sum": lambda lib, x: lib.nn.functional.huber_loss(
        x, lib.full_like(x, TARGET), reduction="sum", delta=0.4
    ),
    "l1": lambda lib, x: lib.nn.functional.l1_loss(x, lib.full_like(x, TARGET)),
}
FUSED_NODE = {
    "tanh": "TanhBackwardBackward0",
    "sigmoid": "SigmoidBackwardBackward0",
    "relu": "ThresholdBackwardBackward0",
    "softmax_last": "SoftmaxBackwardDataBackward0",
    "softmax_first": "SoftmaxBackwardDataBackward0",
    "log_softmax": "LogSoftmaxBackwardDataBackward0",
    "leaky_relu": "LeakyReluBackwardBackward0",
    "gelu": "GeluBackwardBackward0",
    "gelu_tanh": "GeluBackwardBackward0",
    "softplus": "SoftplusBackwardBackward0",
    "elu": "EluBackwardBackward0",
    "selu": "EluBackwardBackward0",
    "celu": "EluBackwardBackward0",
    "hardtanh": "HardtanhBackwardBackward0",
    "relu6": "HardtanhBackwardBackward0",
    "logsigmoid": "LogSigmoidBackwardBackward0",
    "smooth_l1": "SmoothL1LossBackwardBackward0",
    "smooth_l1_none": "SmoothL1LossBackwardBackward0",
    "huber_sum": "HuberLossBackwardBackward0",
}
nonempty = arrays(small_shapes.filter(lambda s: len(s) >= 1), away_from_zero(0.1, 2.0))


def _gradient_graph(lib, fn, a: np.ndarray) -> tuple:
    """``grad((fn(x) * y * v).sum(), x, create_graph=True)`` for a fixed random
    ``v``: the upstream gradient ``y * v`` needs a gradient too, so every edge of
    the fused node is live."""
    x = make(lib, a, np.float64, True)
    y = fn(lib, x)
    v = lib.tensor(np.random.default_rng(0).standard_normal(tuple(y.shape)))
    (g,) = lib.autograd.grad((y * y * v).sum(), x, create_graph=True)
    return x, g


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
@settings(max_examples=15, deadline=None)
@given(a=nonempty)
def test_fused_node_graph_and_values(name: str, a: np.ndarray) -> None:
    fn = ACTIVATIONS[name]
    x_mg, g_mg = _gradient_graph(minigrad, fn, a)
    x_th, g_th = _gradient_graph(torch, fn, a)
    if name in FUSED_NODE:
        assert g_th.grad_fn.name() == FUSED_NODE[name]
    compare_graphs(g_mg, g_th, [x_mg], [x_th])  # names, edges, every _saved_*
    np.testing.assert_allclose(_numpy(g_mg), _numpy(g_th), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
@settings(max_examples=15, deadline=None)
@given(a=nonempty)
@example(a=np.array([0.75]))  # softplus's beta x == threshold (2 * 0.75 = 1.5)
def test_second_and_third_derivatives(name: str, a: np.ndarray) -> None:
    fn = ACTIVATIONS[name]
    second_order(lambda lib, x: fn(lib, x) * fn(lib, x), [a])
    results = []
    for lib in (minigrad, torch):
        rng = np.random.default_rng(3)
        x = make(lib, a, np.float64, True)
        y = fn(lib, x)
        (g1,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        w = lib.tensor(rng.standard_normal(a.shape))
        (g2,) = lib.autograd.grad((g1 * w).sum(), x, create_graph=True)
        if not g2.requires_grad:  # relu: the third derivative is zero
            results.append(np.zeros(a.shape))
            continue
        (g3,) = lib.autograd.grad((g2 * g2).sum(), x)
        results.append(_numpy(g3))
    np.testing.assert_allclose(results[0], results[1], rtol=1e-8, atol=1e-10)


@settings(max_examples=20, deadline=None)
@given(g=arrays((2, 3)), y=arrays((2, 3), away_from_zero(0.1, 0.9)))
def test_fused_functions_gradcheck(g: np.ndarray, y: np.ndarray) -> None:
    """Each fused node's own backward, checked numerically in float64."""
    for fused, extra in [
        (TanhBackward, ()),
        (SigmoidBackward, ()),
        (ThresholdBackward, (0.05,)),
        (LeakyReluBackward, (0.1,)),
        (GeluBackward, ("none",)),
        (GeluBackward, ("tanh",)),
        (SoftplusBackward, (2, 20)),
        (SoftmaxBackwardData, (0, 0)),
        (SoftmaxBackwardData, (1, 1)),
        (LogSoftmaxBackwardData, (0, 0)),
        (LogSoftmaxBackwardData, (1, 1)),
    ]:
        check_gradcheck(lambda lib, a, b, f=fused, e=extra: f.apply(a, b, *e), g, y)
    t = np.full((2, 3), TARGET)
    check_gradcheck(lambda lib, a, b, c: MseLossBackward.apply(a, b, c, 0), g, y, t)
    check_gradcheck(  # x in (0, 1), as binary_cross_entropy's input must be
        lambda lib, a, b, c: BinaryCrossEntropyBackward.apply(a, b, c, (None,), 0),
        g,
        np.abs(y),
        t,
    )
    for reduction in (1, 2):  # mean, sum: the incoming gradient is a scalar
        check_gradcheck(
            lambda lib, a, b, c, r=reduction: MseLossBackward.apply(a, b, c, r),
            g[0, 0],
            y,
            t,
        )


def test_relu_gradient_at_inf_and_nan_is_threshold_backward() -> None:
    """relu's gradient is ``grad where result > 0 else 0``, so an infinite or nan
    gradient arriving where the result is 0 gives 0 (not nan)."""
    for lib in (minigrad, torch):
        x = lib.tensor([-1.0, 2.0, 0.0], requires_grad=True)
        x.relu().backward(lib.tensor([float("inf"), float("nan"), float("inf")]))
        got = x.grad.tolist()
        assert got[0] == 0.0 and got[2] == 0.0 and np.isnan(got[1]), (lib, got)


def _cross_entropy(reduction: str, weighted: bool) -> Callable:
    def loss(lib, x):
        target = lib.tensor([0, 3, 1])
        weight = lib.tensor([1.0, 2.0, 0.5, 1.5], dtype=lib.float64)
        return lib.nn.functional.cross_entropy(
            x,
            target,
            weight=weight if weighted else None,
            reduction=reduction,
            ignore_index=1,
        )

    return loss


def _binary_cross_entropy(reduction: str, weighted: bool) -> Callable:
    def loss(lib, x):
        target = lib.tensor([[1.0, 0.0, 0.25, 1.0]] * 3, dtype=lib.float64)
        weight = lib.tensor([1.0, 2.0, 0.5, 1.5], dtype=lib.float64)
        return lib.nn.functional.binary_cross_entropy(
            x.sigmoid(),
            target,
            weight=weight if weighted else None,
            reduction=reduction,
        )

    return loss


@pytest.mark.parametrize("make_loss", [_cross_entropy, _binary_cross_entropy])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@settings(max_examples=8, deadline=None)
@given(a=arrays((3, 4)))
def test_loss_gradient_graph(make_loss, reduction: str, weighted: bool, a) -> None:
    """The graph of a loss's gradient has PyTorch's fused nodes (cross_entropy:
    LogSoftmaxBackwardDataBackward0 and NllLossBackwardBackward0;
    binary_cross_entropy: BinaryCrossEntropyBackwardBackward0), and the second
    and third derivatives are PyTorch's."""
    loss = make_loss(reduction, weighted)

    x_mg, g_mg = _gradient_graph(minigrad, loss, a)
    x_th, g_th = _gradient_graph(torch, loss, a)
    compare_graphs(g_mg, g_th, [x_mg], [x_th])
    np.testing.assert_allclose(_numpy(g_mg), _numpy(g_th), rtol=1e-10, atol=1e-12)
    results = []
    for lib, x, g in ((minigrad, x_mg, g_mg), (torch, x_th, g_th)):
        (g2,) = lib.autograd.grad((g * g).sum(), x, create_graph=True)
        (g3,) = lib.autograd.grad((g2 * g2).sum(), x)
        results.append((_numpy(g2), _numpy(g3)))
    for m, t in zip(*results):
        np.testing.assert_allclose(m, t, rtol=1e-8, atol=1e-10)


REDUCTIONS = {
    "sum_dim": lambda lib, x: x.sum(1),
    "mean": lambda lib, x: x.mean(),
    "mean_dim": lambda lib, x: x.mean(1),
    "var": lambda lib, x: x.var(),
    "var_dim": lambda lib, x: x.var(1),
    "std_dim": lambda lib, x: x.std(1),
    "logsumexp": lambda lib, x: x.logsumexp(1),
    "prod_dim": lambda lib, x: x.prod(1),
    "norm": lambda lib, x: x.norm(),
    "norm_dim": lambda lib, x: x.norm(dim=1),
    "unsqueeze": lambda lib, x: x.unsqueeze(0) * x,
    "max_all": lambda lib, x: x.max(),
    "min_all": lambda lib, x: x.min(),
    "max_dim": lambda lib, x: x.max(1)[0],
    "max_dim_keepdim": lambda lib, x: x.max(0, keepdim=True)[0],
    "min_dim": lambda lib, x: x.min(-1).values,
    "amax": lambda lib, x: x.amax(1),
    "amax_keepdim": lambda lib, x: x.amax((0, 1), keepdim=True),
    "amin": lambda lib, x: x.amin(0),
    "cumsum": lambda lib, x: x.cumsum(1),
    "cumsum_first": lambda lib, x: x.cumsum(0),
    "cumprod": lambda lib, x: x.cumprod(1),
    "scatter_reduce_prod": lambda lib, x: x[:, :2].scatter_reduce(
        1, lib.tensor([[0, 0, 1], [1, 1, 0]]), x * 2, "prod"
    ),
    "scatter_reduce_amax": lambda lib, x: x[:, :2].scatter_reduce(
        1, lib.tensor([[0, 0, 1], [1, 1, 0]]), x * 2, "amax", include_self=False
    ),
    "scatter_reduce_mean": lambda lib, x: x[:, :2].scatter_reduce(
        1, lib.tensor([[0, 0, 1], [1, 1, 0]]), x * 2, "mean"
    ),
    "logaddexp": lambda lib, x: lib.logaddexp(x, x * 2),
    "hypot": lambda lib, x: x.hypot(x * x + 1),
    "xlogy": lambda lib, x: x.xlogy(x * x + 1),
    "xlogy_number": lambda lib, x: x.xlogy(2.5),
    "xlogy_number_self": lambda lib, x: lib.xlogy(2, x * x + 1),
    "logit": lambda lib, x: (x * 0.1 + 0.5).logit(),
    "deg2rad": lambda lib, x: x.deg2rad(),
    "rad2deg": lambda lib, x: x.rad2deg(),
    "gather": lambda lib, x: x.gather(1, lib.tensor([[2, 0], [1, 1]])),
    "scatter": lambda lib, x: x.scatter(1, lib.tensor([[2], [0]]), x[:, 1:2] * 2),
    "scatter_add": lambda lib, x: lib.zeros(2, 4, dtype=x.dtype).scatter_add(
        1, lib.tensor([[3, 3, 0], [1, 2, 1]]), x
    ),
    "flip": lambda lib, x: x.flip(0) * x,
    "div": lambda lib, x: x / (x * x + 1),
    "tan": lambda lib, x: (x * 0.3).tan(),
    "asin": lambda lib, x: (x * 0.3).asin(),
    "acos": lambda lib, x: (x * 0.3).acos(),
    "atan": lambda lib, x: x.atan(),
    "atan2": lambda lib, x: lib.atan2(x, x * x + 1),
    "sinh": lambda lib, x: x.sinh(),
    "cosh": lambda lib, x: x.cosh(),
    "asinh": lambda lib, x: x.asinh(),
    "acosh": lambda lib, x: (x * x + 1.5).acosh(),
    "atanh": lambda lib, x: (x * 0.3).atanh(),
    "floor": lambda lib, x: x.floor() * x,
    "round_decimals": lambda lib, x: x.round(decimals=1) * x,
    "frac": lambda lib, x: x.frac() * x,
    "nan_to_num": lambda lib, x: x.log().nan_to_num(),
    "cos": lambda lib, x: x.cos(),
    "log1p": lambda lib, x: (x * x).log1p(),
    "expm1": lambda lib, x: x.expm1(),
    "log2": lambda lib, x: (x * x).log2(),
    "log10": lambda lib, x: (x * x).log10(),
    "exp2": lambda lib, x: x.exp2(),
    "erf": lambda lib, x: x.erf(),
    "rsqrt": lambda lib, x: (x * x).rsqrt(),
    "pow_tensor": lambda lib, x: (x * x) ** x,
    "rpow": lambda lib, x: 2**x,
    "maximum": lambda lib, x: lib.maximum(x, x * x),
    "minimum_ties": lambda lib, x: lib.minimum(x, x.detach().abs()),
    "prod": lambda lib, x: x.prod(),
    "sort": lambda lib, x: x.sort(1, descending=True).values,
    "sort_stable": lambda lib, x: x.sort(dim=0, stable=True).values,
    "topk": lambda lib, x: x.topk(2).values,
    "kthvalue": lambda lib, x: x.kthvalue(2, 1).values,
    "median": lambda lib, x: x.median(),
    "median_dim": lambda lib, x: x.median(-1, keepdim=True).values,
    "index_select": lambda lib, x: x.index_select(1, lib.tensor([2, 0, 2])),
    "index_add": lambda lib, x: x.index_add(1, lib.tensor([2, 0]), x[:, :2] * x[:, :2]),
    "index_add_alpha": lambda lib, x: x.index_add(0, lib.tensor([1]), x[:1], alpha=3),
    "tril": lambda lib, x: x.tril(-1) * x,
    "triu": lambda lib, x: x.triu() * x,
    "roll": lambda lib, x: x.roll((1, -1), (0, 1)) * x,
    "tile": lambda lib, x: x.tile(2),
    "repeat_ones": lambda lib, x: x.repeat(1, 1) * x,
    "repeat_leading": lambda lib, x: x.repeat(2, 1, 1),
    "repeat_both": lambda lib, x: x.repeat(2, 2),
    "repeat_ones_leading": lambda lib, x: x.repeat(1, 1, 1),
    "type_as": lambda lib, x: x.type_as(lib.ones(1, dtype=lib.float32)).double(),
    "diagonal": lambda lib, x: x.diagonal(1) * x[0, 1:],
    "diag": lambda lib, x: x.diag(),
    "diag_embed": lambda lib, x: x.diag_embed(),
    "trace": lambda lib, x: x[:, :2].trace() * x,
    "index_fill": lambda lib, x: x.index_fill(1, lib.tensor([1]), x[0, 0]),
    "conv1d": lambda lib, x: lib.nn.functional.conv1d(
        x.reshape(1, 2, 3), x.detach().reshape(3, 2, 1) * 0.5, padding=1
    ),
    "conv2d_weight": lambda lib, x: lib.nn.functional.conv2d(
        lib.ones(1, 1, 3, 4, dtype=x.dtype), x.reshape(3, 1, 1, 2), stride=2
    ),
    "max_pool2d": lambda lib, x: lib.nn.functional.max_pool2d(x.reshape(1, 2, 3), 2, 1),
    "avg_pool2d": lambda lib, x: lib.nn.functional.avg_pool2d(
        x.reshape(1, 1, 2, 3), 2, 1, 1, count_include_pad=False
    ),
    "batch_norm": lambda lib, x: lib.nn.functional.batch_norm(
        x.t(), None, None, x[0, :2].detach(), None, training=True
    ),
    "batch_norm_eval": lambda lib, x: lib.nn.functional.batch_norm(
        x, x[0].detach() * 0, x[1].detach() ** 2, x[0].detach()
    ),
    "adaptive_avg_pool2d": lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(
        x.reshape(1, 2, 3), (1, 2)
    ),
    "addcmul": lambda lib, x: x.addcmul(x * x, x + 1, value=2),
    "addcmul_one": lambda lib, x: lib.addcmul(x, x, x.detach() + 1),
    "addcdiv": lambda lib, x: x.addcdiv(x * x, x * x + 1, value=0.5),
    "lerp": lambda lib, x: x.lerp(x * x, 0.3),
    "lerp_tensor": lambda lib, x: lib.lerp(x, x * x, x.sigmoid()),
    "masked_select": lambda lib, x: x.masked_select(x > 1),
    "masked_scatter": lambda lib, x: lib.zeros(2, 3, dtype=x.dtype).masked_scatter(
        x > 1, x * 2
    ),
    "layer_norm": lambda lib, x: lib.nn.functional.layer_norm(x, (3,)),
    "layer_norm_affine": lambda lib, x: lib.nn.functional.layer_norm(
        x, (3,), x[0].detach() * 2, x[1].detach()
    ),
    "layer_norm_2d": lambda lib, x: lib.nn.functional.layer_norm(x, (2, 3), eps=0.1),
    "embedding": lambda lib, x: lib.nn.functional.embedding(
        lib.tensor([[0, 1], [1, 1]]), x, padding_idx=0
    ),
    "embedding_freq": lambda lib, x: lib.nn.functional.embedding(
        lib.tensor([1, 0, 1]), x, scale_grad_by_freq=True
    ),
    "mm": lambda lib, x: x @ x.t(),
    "mm_transposed": lambda lib, x: x.t() @ x,
    "linear": lambda lib, x: lib.nn.functional.linear(x, x * 2),
    "linear_weight_transposed": lambda lib, x: lib.nn.functional.linear(
        x, x.t().contiguous().t()
    ),
    "bce_logits": lambda lib, x: lib.nn.functional.binary_cross_entropy_with_logits(
        x, lib.full_like(x, TARGET)
    ),
}


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@settings(max_examples=5, deadline=None)
@given(  # distinct values: a constant row's std is 0 or 1e-17 by summation order
    a=hnp.arrays(np.float64, (2, 3), elements=away_from_zero(0.2, 2.0), unique=True)
)
def test_gradient_graph_of_reductions(name: str, a: np.ndarray) -> None:
    """Formulas written with ordinary ops record them as PyTorch's formulas do
    (UnsqueezeBackward0 for re-inserted dims, DivBackward1 for ``/ numel``,
    MaskedFillBackward0 where a zero norm is guarded, ...)."""
    fn = REDUCTIONS[name]
    x_mg, g_mg = _gradient_graph(minigrad, fn, a)
    x_th, g_th = _gradient_graph(torch, fn, a)
    compare_graphs(g_mg, g_th, [x_mg], [x_th])
    np.testing.assert_allclose(_numpy(g_mg), _numpy(g_th), rtol=1e-10, atol=1e-12)
