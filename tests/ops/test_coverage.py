"""Every Function subclass minigrad defines is exercised by a float64 gradcheck
and compared with PyTorch 2.13 (values, gradients, node names, next_functions,
``_saved_*``), checked against the registry (``_derivatives.builtin_functions``).

The per-family test files go deeper (drawn shapes, second order, errors); this
is the ledger that no node is left out: one small program per Function, keyed
by the class's name under its family (``ops/<family>.py``). The test fails when
a new Function has no case, when a case no longer records the node it names,
or when a case disagrees with PyTorch or with finite differences. The few nodes
that cannot be gradchecked are in ``NO_GRADCHECK`` or ``EXCLUDED``, each with the
reason and what checks it instead.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from op_harness import check_gradcheck, differential, graph_nodes, make, torch

import minigrad
from minigrad import _derivatives

pytest.importorskip("torch.utils.checkpoint")  # (the checkpoint case's T.utils)

Expr = Callable[..., Any]
# a case: (expression of (lib, *inputs), input shapes, element domain of each)
Case = tuple[Expr, tuple[tuple[int, ...], ...], tuple[str, ...]]


def case(
    fn: Expr, *shapes: tuple[int, ...], dom: str | tuple[str, ...] = "any"
) -> Case:
    doms = (dom,) * len(shapes) if isinstance(dom, str) else dom
    return fn, shapes, doms


def grad_of(
    fn: Expr, shape: tuple[int, ...], out: tuple[int, ...], dom: str = "any"
) -> Case:
    """The gradient of ``fn`` at ``x`` for the upstream gradient ``v``, made with
    create_graph: a program whose graph holds the node that differentiates
    ``fn``'s node (a fused double-backward node, or the ops of the formula)."""

    def expr(T: Any, x: Any, v: Any) -> Any:
        return T.autograd.grad(fn(T, x), x, v, create_graph=True)[0]

    return case(expr, shape, out, dom=(dom, "any"))


def F(T: Any) -> Any:
    return T.nn.functional


def idx(T: Any, values: list) -> Any:
    return T.tensor(values)


def _target(T: Any, like: Any, value: float = 0.25) -> Any:
    return T.full_like(like, value).detach()


S = (2, 3)  # the usual shape
ACTIVATION: dict[str, Case] = {
    "Tanh": case(lambda T, a: a.tanh(), S),
    "TanhBackward": grad_of(lambda T, a: a.tanh(), S, S),
    "Sigmoid": case(lambda T, a: a.sigmoid(), S),
    "SigmoidBackward": grad_of(lambda T, a: a.sigmoid(), S, S),
    "Relu": case(lambda T, a: a.relu(), S, dom="nonzero"),
    "ThresholdBackward": grad_of(lambda T, a: a.relu(), S, S, "nonzero"),
    "LeakyRelu": case(lambda T, a: F(T).leaky_relu(a, 0.2), S, dom="nonzero"),
    "LeakyReluBackward": grad_of(lambda T, a: F(T).leaky_relu(a, 0.2), S, S, "nonzero"),
    "Gelu": case(lambda T, a: F(T).gelu(a), S),
    "GeluBackward": grad_of(lambda T, a: F(T).gelu(a, approximate="tanh"), S, S),
    "Softplus": case(lambda T, a: F(T).softplus(a, 2, 1.5), S, dom="nonzero"),
    "SoftplusBackward": grad_of(lambda T, a: F(T).softplus(a), S, S),
    "Elu": case(lambda T, a: F(T).elu(a, 0.5), S, dom="nonzero"),
    "EluResult": case(lambda T, a: F(T).elu(a * 1, inplace=True), S, dom="nonzero"),
    "Celu": case(lambda T, a: F(T).celu(a, 0.7), S, dom="nonzero"),
    "CeluResult": case(lambda T, a: F(T).celu(a * 1, 2.0, True), S, dom="nonzero"),
    "EluBackward": grad_of(lambda T, a: F(T).selu(a), S, S, "nonzero"),
    "Hardtanh": case(lambda T, a: F(T).hardtanh(a, -0.5, 0.5), S, dom="nonzero"),
    "HardtanhBackward": grad_of(lambda T, a: F(T).relu6(a * 4), S, S, "nonzero"),
    "Silu": case(lambda T, a: F(T).silu(a), S),
    "Mish": case(lambda T, a: F(T).mish(a), S),
    "LogSigmoid": case(lambda T, a: F(T).logsigmoid(a), S),
    "LogSigmoidBackward": grad_of(lambda T, a: F(T).logsigmoid(a), S, S),
    "Softmax": case(lambda T, a: a.softmax(-1), S),
    "SoftmaxBackwardData": grad_of(lambda T, a: a.softmax(0), S, S),
    "LogSoftmax": case(lambda T, a: a.log_softmax(1), S),
    "LogSoftmaxBackwardData": grad_of(lambda T, a: a.log_softmax(-1), S, S),
}

ARITHMETIC: dict[str, Case] = {
    "Add": case(lambda T, a, b: a + b, S, (3,)),
    "Sub": case(lambda T, a, b: a - b, S, (2, 1)),
    "RsubTensor": case(lambda T, a, b: T.rsub(a, b, alpha=2), S, S),
    "RsubScalar": case(lambda T, a: 2 - a, S),
    "Mul": case(lambda T, a, b: a * b, S, S),
    # (AddBackward1, SubBackward1, MulBackward1, DivBackward1: what PyTorch's C++
    # formulas record with a Python number; Python's a + 2 is AddBackward0)
    "AddScalar": grad_of(lambda T, a: T.logaddexp(a, a.sin()), S, S),
    "SubScalar": grad_of(lambda T, a: a**a, S, S, "pos"),
    "MulScalar": grad_of(lambda T, a: a**3, S, S),
    "Div": case(lambda T, a, b: a / b, S, S, dom=("any", "nonzero")),
    "DivMode": case(
        lambda T, a, b: T.div(a, b, rounding_mode="trunc") * a,
        S,
        S,
        dom=("offsteps", "pos"),
    ),
    "Remainder": case(lambda T, a, b: T.remainder(a, b), S, (3,), dom=("any", "big")),
    "Fmod": case(lambda T, a, b: T.fmod(a, b), S, S, dom=("any", "big")),
    "RemainderScalar": case(lambda T, a: a.remainder(5), S),
    "FmodScalar": case(lambda T, a: a.fmod(5), S),
    "Neg": case(lambda T, a: -a, S),
    "PowScalar": case(lambda T, a: a**3, S),
    "PowTensor": case(lambda T, a, b: a**b, S, S, dom=("pos", "any")),
    "RpowScalar": case(lambda T, a: 2**a, S),
    "Addcmul": case(lambda T, a, b, c: a.addcmul(b, c, value=-1.5), S, S, (3,)),
    "Addcdiv": case(
        lambda T, a, b, c: T.addcdiv(a, b, c, value=2),
        S,
        S,
        S,
        dom=("any",) * 2 + ("nonzero",),
    ),
    "Lerp": case(lambda T, a, b: a.lerp(b, 0.25), S, S),
    "LerpTensor": case(lambda T, a, b, w: T.lerp(a, b, w), S, S, (3,)),
    "DivScalar": grad_of(
        lambda T, a: F(T).binary_cross_entropy_with_logits(a, _target(T, a, 0.3)),
        S,
        (),
    ),
}

UNARY: dict[str, Case] = {
    "Exp": case(lambda T, a: a.exp(), S),
    "Log": case(lambda T, a: a.log(), S, dom="pos"),
    "Reciprocal": case(lambda T, a: a.reciprocal(), S, dom="nonzero"),
    "Sqrt": case(lambda T, a: a.sqrt(), S, dom="pos"),
    "Abs": case(lambda T, a: a.abs(), S, dom="nonzero"),
    "Sin": case(lambda T, a: a.sin(), S),
    "Cos": case(lambda T, a: a.cos(), S),
    "Sign": case(lambda T, a: a.sign() * a, S, dom="nonzero"),
    "Sgn": case(lambda T, a: a.sgn() * a, S, dom="nonzero"),
    "Rsqrt": case(lambda T, a: a.rsqrt(), S, dom="pos"),
    "Log1p": case(lambda T, a: a.log1p(), S, dom="pos"),
    "Log2": case(lambda T, a: a.log2(), S, dom="pos"),
    "Log10": case(lambda T, a: a.log10(), S, dom="pos"),
    "Exp2": case(lambda T, a: a.exp2(), S),
    "Expm1": case(lambda T, a: a.expm1(), S),
    "Erf": case(lambda T, a: a.erf(), S),
    "Tan": case(lambda T, a: a.tan(), S, dom="unit"),
    "Asin": case(lambda T, a: a.asin(), S, dom="unit"),
    "Acos": case(lambda T, a: a.acos(), S, dom="unit"),
    "Atan": case(lambda T, a: a.atan(), S),
    "Sinh": case(lambda T, a: a.sinh(), S),
    "Cosh": case(lambda T, a: a.cosh(), S),
    "Asinh": case(lambda T, a: a.asinh(), S),
    "Acosh": case(lambda T, a: a.acosh(), S, dom="above1"),
    "Atanh": case(lambda T, a: a.atanh(), S, dom="unit"),
    "Floor": case(lambda T, a: a.floor() * a, S, dom="offsteps"),
    "Ceil": case(lambda T, a: a.ceil() * a, S, dom="offsteps"),
    "Trunc": case(lambda T, a: a.trunc() * a, S, dom="offsteps"),
    "Round": case(lambda T, a: a.round() * a, S, dom="offsteps"),
    "RoundDecimals": case(lambda T, a: T.round(a, decimals=1) * a, S, dom="offsteps"),
    "Frac": case(lambda T, a: a.frac(), S, dom="offsteps"),
    "NanToNum": case(lambda T, a: (a.log() * 2).nan_to_num(), S, dom="nonzero"),
    "Logit": case(lambda T, a: a.logit(), S, dom="prob"),
    "Deg2Rad": case(lambda T, a: a.deg2rad(), S),
    "Rad2Deg": case(lambda T, a: a.rad2deg(), S),
}

BINARY: dict[str, Case] = {
    "Atan2": case(lambda T, a, b: T.atan2(a, b), S, (3,), dom="nonzero"),
    "Logaddexp": case(lambda T, a, b: T.logaddexp(a, b), S, S),
    "Hypot": case(lambda T, a, b: T.hypot(a, b), S, S, dom="nonzero"),
    "Xlogy": case(lambda T, a, b: T.xlogy(a, b), S, S, dom=("any", "pos")),
    "XlogyScalarOther": case(lambda T, a: T.xlogy(a, 2.5), S),
    "XlogyScalarSelf": case(lambda T, a: T.xlogy(2.5, a), S, dom="pos"),
    "Fmax": case(lambda T, a, b: T.fmax(a, b), S, (3,), dom="distinct"),
    "Fmin": case(lambda T, a, b: T.fmin(a, b), S, S, dom="distinct"),
}

_W = (4, 2, 3)  # conv weight: 4 out channels, 2 in, kernel 3
CONV: dict[str, Case] = {
    "Convolution": case(lambda T, x, w: F(T).conv1d(x, w, padding=1), (1, 2, 5), _W),
    "ConvolutionBackward": case(
        lambda T, x, w, v: T.autograd.grad(
            F(T).conv1d(x, w), (x, w), v, create_graph=True
        )[0],
        (1, 2, 5),
        _W,
        (1, 4, 3),
    ),
}

COPIES: dict[str, Case] = {
    "Clone": case(lambda T, a: a.clone(), S),
    "ToCopy": case(lambda T, a: a.to(T.float64, copy=True), S),
    "Copy": case(lambda T, a, b: (a * 1).copy_(b), S, (3,)),
    "Zero": case(lambda T, a: (a * 1).zero_(), S),
    "Fill": case(lambda T, a: (a * 1).fill_(2.0), S),
    "FillTensor": case(lambda T, a, b: (a * 1).fill_(b.sum()), S, (2,)),
}

DIAGONAL: dict[str, Case] = {
    "Tril": case(lambda T, a: a.tril(), (3, 3)),
    "Triu": case(lambda T, a: a.triu(1), (3, 4)),
    "Diagonal": case(lambda T, a: a.diagonal(1), (3, 4)),
    "DiagonalCopy": case(lambda T, a: a.diag(1), (3, 4)),
    "DiagonalBackward": grad_of(lambda T, a: a.diagonal(0, 0, 2), (3, 2, 3), (2, 3)),
    "DiagEmbed": case(lambda T, a: T.diag_embed(a), S),
    "Trace": case(lambda T, a: a.trace(), (3, 3)),
}


def _index_put(T: Any, a: Any, v: Any) -> Any:
    b = a * 1
    b[idx(T, [1, 0])] = v
    return b


INDEXING: dict[str, Case] = {
    "Embedding": case(lambda T, w: F(T).embedding(idx(T, [[0, 2], [2, 1]]), w), (3, 4)),
    "EmbeddingDenseBackward": grad_of(
        lambda T, w: F(T).embedding(idx(T, [0, 2, 0]), w), (3, 2), (3, 2)
    ),
    "Index": case(lambda T, a: a[idx(T, [1, 0, 1])], S),
    "IndexPut": case(_index_put, S, (3,)),
    "IndexPutImpl": grad_of(lambda T, a: a[idx(T, [1, 0, 1])], S, (3, 3)),
    "Gather": case(lambda T, a: a.gather(1, idx(T, [[0, 2], [1, 1]])), S),
    "Scatter": case(
        lambda T, a, s: a.scatter(1, idx(T, [[0, 2], [1, 0]]), s), S, (2, 2)
    ),
    "ScatterValue": case(lambda T, a: a.scatter(1, idx(T, [[0], [2]]), 1.5), S),
    "ScatterAdd": case(
        lambda T, a, s: a.scatter_add(1, idx(T, [[0, 0], [1, 2]]), s), S, (2, 2)
    ),
    "ScatterReduce": case(
        lambda T, a, s: a.scatter_reduce(1, idx(T, [[0, 0], [1, 2]]), s, "amax"),
        S,
        (2, 2),
        dom="distinct",
    ),
    "IndexSelect": case(lambda T, a: a.index_select(1, idx(T, [2, 0, 2])), S),
    "IndexAdd": case(lambda T, a, s: a.index_add(0, idx(T, [1, 1]), s, alpha=2), S, S),
    "IndexFill": case(
        lambda T, a, v: a.index_fill(1, idx(T, [0, 2]), v.sum()), S, (2,)
    ),
    "IndexFillScalar": case(lambda T, a: a.index_fill(1, idx(T, [1]), -1.0), S),
    "Take": case(lambda T, a: a.take(idx(T, [[5, 0], [-1, 2]])), S),
    "Put": case(lambda T, a, s: a.put(idx(T, [4, 1, 4]), s, True), S, (3,)),
}

JOIN: dict[str, Case] = {
    "Cat": case(lambda T, a, b: T.cat([a, b], 1), S, (2, 2)),
    "Stack": case(lambda T, a, b: T.stack([a, b]), S, S),
    "Split": case(lambda T, a: T.stack(a.split(2, 1)[:1]) * 1, (2, 4)),
    "UnsafeSplit": case(lambda T, a: T.stack(a.unsafe_split(2, 1)) * 1, (2, 4)),
    "SplitWithSizes": case(lambda T, a: a.split([1, 2], 1)[1] * 1, S),
    "Unbind": case(lambda T, a: a.unbind(1)[2] * 1, S),
}

LINALG: dict[str, Case] = {
    "Dot": case(lambda T, a, b: a @ b, (3,), (3,)),
    "Mv": case(lambda T, a, b: a @ b, S, (3,)),
    "Mm": case(lambda T, a, b: a @ b, S, (3, 2)),
    "Bmm": case(lambda T, a, b: a @ b, (2, 2, 3), (2, 3, 2)),
    "Addmm": case(lambda T, x, w, b: F(T).linear(x, w, b), S, (4, 3), (4,)),
    "Addmv": case(lambda T, b, m, v: T.addmv(b, m, v, beta=2), (2,), S, (3,)),
    "Baddbmm": case(
        lambda T, a, x, y: a.baddbmm(x, y, alpha=0.5), (2, 2), (2, 2, 3), (2, 3, 2)
    ),
    "Addbmm": case(lambda T, a, x, y: T.addbmm(a, x, y), (2,), (2, 2, 3), (2, 3, 2)),
}

LINALG_DECOMP: dict[str, Case] = {
    "LinalgDet": case(lambda T, a: T.linalg.det(a * 0.5 + T.eye(3) * 2), (3, 3)),
    "LinalgSlogdet": case(
        lambda T, a: T.linalg.slogdet(a * 0.5 + T.eye(3) * 2)[1], (2, 3, 3)
    ),
    "LinalgInvEx": case(lambda T, a: T.linalg.inv(a * 0.5 + T.eye(3) * 2), (3, 3)),
    "LinalgSolveEx": case(
        lambda T, a, b: T.linalg.solve(a * 0.5 + T.eye(3) * 2, b), (3, 3), (3, 2)
    ),
    "LinalgCross": case(lambda T, a, b: T.linalg.cross(a, b), (2, 3), (1, 3)),
    "LinalgSvd": case(lambda T, a: T.linalg.svdvals(a), (3, 2)),
}

LOSS: dict[str, Case] = {
    "MseLoss": case(lambda T, a: F(T).mse_loss(a, _target(T, a)), S),
    "MseLossBackward": grad_of(lambda T, a: F(T).mse_loss(a, _target(T, a)), S, ()),
    "SmoothL1Loss": case(
        lambda T, a: F(T).smooth_l1_loss(a, _target(T, a), beta=0.5), S, dom="nonzero"
    ),
    "HuberLoss": case(
        lambda T, a: F(T).huber_loss(a, _target(T, a), "sum", 0.4), S, dom="nonzero"
    ),
    "SmoothL1LossBackward": grad_of(
        lambda T, a: F(T).smooth_l1_loss(a, _target(T, a), beta=0.5), S, (), "nonzero"
    ),
    "HuberLossBackward": grad_of(
        lambda T, a: F(T).huber_loss(a, _target(T, a), delta=0.4), S, (), "nonzero"
    ),
    "NllLoss": case(lambda T, a: F(T).nll_loss(a, idx(T, [2, 0])), S),
    "NllLossBackward": grad_of(
        lambda T, a: F(T).cross_entropy(a, idx(T, [2, 0])), S, ()
    ),
    "BinaryCrossEntropy": case(
        lambda T, a: F(T).binary_cross_entropy(a, _target(T, a, 0.3)), S, dom="prob"
    ),
    "BinaryCrossEntropyBackward": grad_of(
        lambda T, a: F(T).binary_cross_entropy(a, _target(T, a, 0.3)), S, (), "prob"
    ),
    "BinaryCrossEntropyWithLogits": case(
        lambda T, a, t: F(T).binary_cross_entropy_with_logits(a, t.sigmoid()), S, S
    ),
}

NORM: dict[str, Case] = {
    "NativeGroupNorm": case(
        lambda T, a, w, b: F(T).group_norm(a, 2, w, b), (2, 4, 3), (4,), (4,)
    ),
    "NativeLayerNorm": case(
        lambda T, a, w, b: F(T).layer_norm(a, (3,), w, b), S, (3,), (3,)
    ),
    "NativeLayerNormBackward": grad_of(lambda T, a: F(T).layer_norm(a, (3,)), S, S),
    "NativeBatchNorm": case(
        lambda T, a, w, b: F(T).batch_norm(a, None, None, w, b, training=True),
        (4, 2),
        (2,),
        (2,),
    ),
    "NativeBatchNormBackward": grad_of(
        lambda T, a: F(T).batch_norm(a, None, None, training=True), (4, 2), (4, 2)
    ),
}

ORDERING: dict[str, Case] = {
    "MaxAll": case(lambda T, a: a.max(), S, dom="distinct"),
    "MinAll": case(lambda T, a: a.min(), S, dom="distinct"),
    "MaxDim": case(lambda T, a: a.max(1).values, S, dom="distinct"),
    "MinDim": case(lambda T, a: a.min(0, keepdim=True)[0], S, dom="distinct"),
    "Amax": case(lambda T, a: a.amax((0, 1)), S, dom="distinct"),
    "Amin": case(lambda T, a: a.amin(1), S, dom="distinct"),
    "Sort": case(lambda T, a: a.sort(1, descending=True).values, S, dom="distinct"),
    "SortStable": case(lambda T, a: a.sort(stable=True, dim=0)[0], S, dom="distinct"),
    "Topk": case(lambda T, a: a.topk(2).values, S, dom="distinct"),
    "Kthvalue": case(lambda T, a: a.kthvalue(2, 1).values, S, dom="distinct"),
    "MedianDim": case(lambda T, a: a.median(1).values, S, dom="distinct"),
    "MedianAll": case(lambda T, a: a.median(), S, dom="distinct"),
    "Cummax": case(lambda T, a: a.cummax(1).values, S, dom="distinct"),
    "Cummin": case(lambda T, a: T.cummin(a, 0)[0], S, dom="distinct"),
}

_X = (1, 1, 4, 4)  # a one-channel image
POOL: dict[str, Case] = {
    "MaxPool2d": case(lambda T, a: F(T).max_pool2d(a, 2), _X, dom="distinct"),
    "MaxPoolBackward": grad_of(
        lambda T, a: F(T).max_pool2d(a, 2), _X, (1, 1, 2, 2), "distinct"
    ),
    "AvgPool2d": case(lambda T, a: F(T).avg_pool2d(a, 2, 1), _X),
    "AvgPoolBackward": grad_of(lambda T, a: F(T).avg_pool2d(a, 2), _X, (1, 1, 2, 2)),
    "AdaptiveMaxPool2d": case(
        lambda T, a: F(T).adaptive_max_pool2d(a, 3), _X, dom="distinct"
    ),
    "AdaptiveMaxPoolBackward": grad_of(
        lambda T, a: F(T).adaptive_max_pool2d(a, 2), _X, (1, 1, 2, 2), "distinct"
    ),
    "AdaptiveAvgPool2d": case(lambda T, a: F(T).adaptive_avg_pool2d(a, 3), _X),
    "AdaptiveAvgPoolBackward": grad_of(
        lambda T, a: F(T).adaptive_avg_pool2d(a, 3), _X, (1, 1, 3, 3)
    ),
}

REARRANGE: dict[str, Case] = {
    "PixelShuffle": case(lambda T, a: F(T).pixel_shuffle(a, 2), (1, 4, 2, 3)),
    "PixelUnshuffle": case(lambda T, a: F(T).pixel_unshuffle(a, 2), (1, 1, 4, 2)),
    "Flip": case(lambda T, a: a.flip(1), S),
    "Roll": case(lambda T, a: a.roll(1, 1), S),
    "Repeat": case(lambda T, a: a.repeat(2, 1, 2), S),
    "Rot90": case(lambda T, a: a.rot90(1, (1, 0)), S),
}

REDUCTION: dict[str, Case] = {
    "Sum": case(lambda T, a: a.sum(), S),
    "SumDim": case(lambda T, a: a.sum(1, keepdim=True), S),
    "Mean": case(lambda T, a: a.mean(), S),
    "MeanDim": case(lambda T, a: a.mean(0), S),
    "Var": case(lambda T, a: a.var(1), S),
    "Std": case(lambda T, a: a.std(), S),
    "Prod": case(lambda T, a: a.prod(), S, dom="nonzero"),
    "ProdDim": case(lambda T, a: a.prod(1), S, dom="nonzero"),
    "Logsumexp": case(lambda T, a: a.logsumexp(1), S),
    "VectorNorm": case(lambda T, a: a.norm(3, 1), S, dom="nonzero"),
    "Cumsum": case(lambda T, a: a.cumsum(1), S),
    "Cumprod": case(lambda T, a: a.cumprod(0), S, dom="nonzero"),
    "Nansum": case(lambda T, a: a.nansum(1), S),
}

SELECTION: dict[str, Case] = {
    "Where": case(lambda T, a, b: T.where(a > 0, a, b), S, S, dom="nonzero"),
    "MaskedFill": case(lambda T, a: a.masked_fill(a > 0, 2.5), S, dom="nonzero"),
    "MaskedFillTensor": case(
        lambda T, a, v: a.masked_fill(a > 0, v.sum()), S, (2,), dom="nonzero"
    ),
    "Maximum": case(lambda T, a, b: T.maximum(a, b), S, S, dom="distinct"),
    "Minimum": case(lambda T, a, b: T.minimum(a, b), S, (3,), dom="distinct"),
    "Clamp": case(lambda T, a: a.clamp(-0.5, 0.5), S, dom="distinct"),
    "ClampMin": case(lambda T, a: a.clamp_min(0.1), S, dom="distinct"),
    "ClampMax": case(lambda T, a: a.clamp_max(0.1), S, dom="distinct"),
    "ClampTensor": case(lambda T, a, b: a.clamp(b, b + 1), S, S, dom="distinct"),
    "ClampMinTensor": case(lambda T, a, b: a.clamp_min(b), S, S, dom="distinct"),
    "ClampMaxTensor": case(lambda T, a, b: a.clamp_max(b), S, S, dom="distinct"),
    "MaskedSelect": case(lambda T, a: a.masked_select(a > 0), S, dom="nonzero"),
    "MaskedScatter": case(
        lambda T, a, s: a.masked_scatter(a > 0, s), S, S, dom="nonzero"
    ),
    "MaskedScatterBackward": case(
        lambda T, a, s, v: T.autograd.grad(
            a.masked_scatter(a > 0, s), s, v, create_graph=True
        )[0],
        S,
        S,
        S,
        dom="nonzero",
    ),
}

VIEWS: dict[str, Case] = {
    "View": case(lambda T, a: a.view(3, 2), S),
    "ReshapeAlias": case(lambda T, a: a.t().reshape(3, 2), S),
    "UnsafeView": case(lambda T, a: a.t().reshape(6), S),
    "Alias": case(lambda T, a: a[...], S),
    "T": case(lambda T, a: a.t(), S),
    "Transpose": case(lambda T, a: a.transpose(0, 1), S),
    "TransposeInplace": case(lambda T, a: (a * 1).transpose_(0, 1), S),
    "TInplace": case(lambda T, a: (a * 1).t_(), S),
    "Permute": case(lambda T, a: a.permute(1, 0), S),
    "Expand": case(lambda T, a: a.expand(2, 2, 3), S),
    "Unsqueeze": case(lambda T, a: a.unsqueeze(1), S),
    "UnsqueezeInplace": case(lambda T, a: (a * 1).unsqueeze_(1), S),
    "Squeeze": case(lambda T, a: a.squeeze(), (2, 1, 3)),
    "SqueezeInplace": case(lambda T, a: (a * 1).squeeze_(), (2, 1, 3)),
    "SqueezeDim": case(lambda T, a: a.squeeze(1), (2, 1, 3)),
    "SqueezeDimInplace": case(lambda T, a, b: a @ b, (3,), (3, 2)),  # (v @ M)
    "SqueezeDims": case(lambda T, a: a.squeeze((0, -1)), (1, 3, 1)),
    "SqueezeDimsInplace": case(lambda T, a: (a * 1).squeeze_((-1, 1)), (2, 1, 1)),
    "Select": case(lambda T, a: a[1], S),
    "SelectBackward": grad_of(lambda T, a: a[1], S, (3,)),
    "Slice": case(lambda T, a: a[:, 1:], S),
    "SliceBackward": grad_of(lambda T, a: a[:, 1:], S, (2, 2)),
    "Narrow": case(lambda T, a: a.narrow(1, 1, 2), S),
}


def _hooked(T: Any, a: Any) -> Any:
    """A module with a full backward hook: its inputs and outputs pass through
    BackwardHookFunction (an identity node)."""
    m = T.nn.Tanh()
    m.register_full_backward_hook(lambda mod, gin, gout: None)
    return m(a)


HOOKS: dict[str, Case] = {
    "BackwardHookFunction": case(_hooked, S),
}

# Random fills: each case draws values that do not depend on the draw (a range
# of one value, a zero std, probabilities 0 or 1) or multiplies them by 0, so
# both libraries give the same values; every gradient is zero.
RANDOM: dict[str, Case] = {
    "Uniform": case(lambda T, a: (a * 1).uniform_(0.5, 0.5), S),
    "Normal": case(lambda T, a: (a * 1).normal_(1.5, 0.0), S),
    "RandomFromTo": case(lambda T, a: (a * 1).random_(2, 3), S),
    "RandomTo": case(lambda T, a: (a * 1).random_(1), S),
    "Random": case(lambda T, a: (a * 1).random_() * 0, S),
    "Exponential": case(lambda T, a: (a * 1).exponential_() * 0, S),
    "Geometric": case(lambda T, a: (a * 1).geometric_(0.5) * 0, S),
    "Cauchy": case(lambda T, a: (a * 1).cauchy_() * 0, S),
    "LogNormal": case(lambda T, a: (a * 1).log_normal_(0.0, 0.5) * 0, S),
    "Bernoulli": case(lambda T, a: T.bernoulli(a * 0), S),
    "Poisson": case(lambda T, a: T.poisson(a * 0), S),
    "BernoulliScalar": case(lambda T, a: (a * 1).bernoulli_(1.0), S),
    "BernoulliTensor": case(lambda T, a, p: (a * 1).bernoulli_(p * 0), S, (3,)),
    "NormalTensorFloat": case(lambda T, a: T.normal(a * 0, 0.0), S),
    "NormalFloatTensor": case(lambda T, a: T.normal(1.0, a * 0), S),
    "NormalTensorTensor": case(lambda T, a, b: T.normal(a * 0, b * 0), S, (3,)),
}

CHECKPOINT: dict[str, Case] = {
    "CheckpointFunction": case(
        lambda T, a: T.utils.checkpoint.checkpoint(
            lambda x: x.sin() * x, a, use_reentrant=True
        ),
        S,
    ),
}


def _written_view(T: Any, a: Any) -> Any:
    b = a * 1
    b[:, 1:].mul_(a[:, :2])
    return b


# CopySlices' gradient under create_graph reads the written region through a
# strided view (AsStridedBackward0), as PyTorch's does
VIEWS_INPLACE: dict[str, Case] = {
    "AsStrided": grad_of(_written_view, S, S),
}

# ops/piecewise_and_gated.py: lambd and thresholds below "nonzero"'s |x| >= 0.2
PIECEWISE_AND_GATED: dict[str, Case] = {
    "Hardsigmoid": case(lambda T, a: F(T).hardsigmoid(a * 2), S),
    "Hardswish": case(lambda T, a: F(T).hardswish(a * 2), S),
    "HardswishBackward": grad_of(lambda T, a: F(T).hardswish(a * 2), S, S),
    "Hardshrink": case(lambda T, a: F(T).hardshrink(a, 0.1), S, dom="nonzero"),
    "HardshrinkBackward": grad_of(
        lambda T, a: F(T).hardshrink(a, 0.1), S, S, "nonzero"
    ),
    "Softshrink": case(lambda T, a: F(T).softshrink(a, 0.1), S, dom="nonzero"),
    "SoftshrinkBackward": grad_of(
        lambda T, a: F(T).softshrink(a, 0.1), S, S, "nonzero"
    ),
    "Threshold": case(lambda T, a: F(T).threshold(a, 0.1, 3.0), S, dom="nonzero"),
    "ThresholdResult": case(
        lambda T, a: F(T).threshold(a * 1, 0.1, 3.0, True), S, dom="nonzero"
    ),
    "Glu": case(lambda T, a: F(T).glu(a, 0), (4, 3)),
    "SafeSoftmax": case(
        lambda T, a, b: F(T).scaled_dot_product_attention(a, b, b, is_causal=True),
        (3, 2),
        (3, 2),
    ),
    "PreluKernel": case(
        lambda T, a, w: F(T).prelu(a, w), (2, 3), (3,), dom=("nonzero", "pos")
    ),
}


def _pad(mode: str, pad: tuple) -> Expr:
    return lambda T, a: F(T).pad(a, pad, mode=mode)


P1, P2, P3 = (1, 2), (1, 0, 2, 1), (1, 1, 0, 1, 1, 0)
PADDING: dict[str, Case] = {
    "ConstantPadNd": case(lambda T, a: F(T).pad(a, (1, -1, 2, 0), value=0.5), S),
    "ReflectionPad1d": case(_pad("reflect", P1), (2, 3)),
    "ReflectionPad1dBackward": grad_of(_pad("reflect", P1), (2, 3), (2, 6)),
    "ReflectionPad2d": case(_pad("reflect", P2), (2, 3, 3)),
    "ReflectionPad2dBackward": grad_of(_pad("reflect", P2), (2, 3, 3), (2, 6, 4)),
    "ReflectionPad3d": case(_pad("reflect", P3), (1, 2, 2, 2)),
    "ReflectionPad3dBackward": grad_of(_pad("reflect", P3), (1, 2, 2, 2), (1, 3, 3, 4)),
    "ReplicationPad1d": case(_pad("replicate", P1), (2, 3)),
    "ReplicationPad1dBackward": grad_of(_pad("replicate", P1), (2, 3), (2, 6)),
    "ReplicationPad2d": case(_pad("replicate", P2), (2, 3, 3)),
    "ReplicationPad2dBackward": grad_of(_pad("replicate", P2), (2, 3, 3), (2, 6, 4)),
    "ReplicationPad3d": case(_pad("replicate", P3), (1, 2, 2, 2)),
    "ReplicationPad3dBackward": grad_of(
        _pad("replicate", P3), (1, 2, 2, 2), (1, 3, 3, 4)
    ),
}

MOMENTS: dict[str, Case] = {  # both results of the one node in the loss
    "VarMean": case(lambda T, a: (lambda r: r[0] * 2 + r[1])(T.var_mean(a, 1)), S),
    "StdMean": case(lambda T, a: (lambda r: r[0] * 2 + r[1])(T.std_mean(a)), S),
}

EXTREMA: dict[str, Case] = {  # both results of the one node in the loss
    "Aminmax": case(lambda T, a: (lambda r: r[0] * 2 + r[1])(a.aminmax(dim=1)), S),
}

FAMILIES: dict[str, dict[str, Case]] = {
    "activation": ACTIVATION,
    "piecewise_and_gated": PIECEWISE_AND_GATED,
    "padding": PADDING,
    "arithmetic": ARITHMETIC,
    "unary": UNARY,
    "binary": BINARY,
    "conv": CONV,
    "copies": COPIES,
    "diagonal": DIAGONAL,
    "indexing": INDEXING,
    "join": JOIN,
    "linalg": LINALG,
    "linalg_decomp": LINALG_DECOMP,
    "loss": LOSS,
    "norm": NORM,
    "ordering": ORDERING,
    "pool": POOL,
    "random": RANDOM,
    "rearrange": REARRANGE,
    "reduction": REDUCTION,
    "moments": MOMENTS,
    "extrema": EXTREMA,
    "selection": SELECTION,
    "views": VIEWS,
    "_hooks": HOOKS,
    "_views_inplace": VIEWS_INPLACE,
    "checkpoint": CHECKPOINT,
}

# Nodes no gradcheck can exercise, each with the reason.
NO_GRADCHECK: dict[str, str] = {
    "CheckpointFunction": "the reentrant checkpoint refuses autograd.grad(), "
    "which gradcheck uses, as PyTorch's does; its gradient is compared with "
    "PyTorch's (through backward()) all the same",
}
# Nodes with no case in the tables, each with the reason.
_NO_INPLACE_DERIVATIVE = (
    "PyTorch has no derivative for this in-place op (its backward raises "
    "NotImplementedError by design); "
    "tests/differential/programs/scenario_inplace_no_derivative.py compares its "
    "node, values and refusal with PyTorch's"
)
EXCLUDED: dict[str, str] = {
    "AsinhInplace": _NO_INPLACE_DERIVATIVE,
    "AcoshInplace": _NO_INPLACE_DERIVATIVE,
    "AtanhInplace": _NO_INPLACE_DERIVATIVE,
    "NotDifferentiable": "PyTorch's 'derivative for aten::X is not implemented' "
    "node (a // b): its backward raises by design; "
    "test_not_differentiable_node_like_pytorch compares it with PyTorch's",
    "HardsigmoidBackward": "hardsigmoid's gradient, PyTorch's NotImplemented node: "
    "its backward raises by design; tests/nn/test_functional_lessons.py compares "
    "its name and refusal with PyTorch's",
    "_DelayedError": "once_differentiable's Error node: its backward raises by "
    "design; tests/differential/programs/scenario_custom_function_setup_context.py "
    "compares it (name, edges, the error) with PyTorch's",
}


def _family(cls: type) -> str:
    return cls.__module__.rpartition(".")[2]


REGISTRY = {(_family(c), c.__name__): c for c in _derivatives.builtin_functions()}
REGISTRY_BY_NAME = {name: c for (_, name), c in REGISTRY.items()}
CASES = [(fam, name) for fam, table in FAMILIES.items() for name in table]


def test_every_function_has_a_case() -> None:
    covered = set(CASES) | {(_family(REGISTRY_BY_NAME[n]), n) for n in EXCLUDED}
    missing = sorted(set(REGISTRY) - covered)
    unknown = sorted(covered - set(REGISTRY))
    assert not missing, f"give these Functions a case: {missing}"
    assert not unknown, f"no such Function (renamed or moved?): {unknown}"


def _arrays(name: str, shapes: tuple, doms: tuple) -> list[np.ndarray]:
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    out = []
    for shape, dom in zip(shapes, doms):
        n = int(np.prod(shape))
        if dom == "distinct":  # values at least 0.1 apart: no ties
            a = rng.permutation(np.linspace(-2, 2, max(n, 2)))[:n] + rng.uniform(
                0, 0.05, n
            )
        elif dom == "offsteps":  # away from the steps of floor/round (and halves)
            a = rng.integers(-3, 3, n) + rng.uniform(0.1, 0.4, n)
        else:
            lo, hi = {
                "any": (-2, 2),
                "pos": (0.2, 2),
                "nonzero": (0.2, 2),
                "unit": (-0.9, 0.9),
                "above1": (1.2, 3),
                "prob": (0.1, 0.9),
                "big": (2.5, 4),
            }[dom]
            a = rng.uniform(lo, hi, n)
            if dom == "nonzero":
                a = a * rng.choice([-1, 1], n)
        out.append(np.asarray(a, np.float64).reshape(shape))
    return out


@pytest.mark.parametrize(("family", "name"), CASES, ids=[f"{f}.{n}" for f, n in CASES])
def test_case_gradcheck_and_pytorch(family: str, name: str) -> None:
    fn, shapes, doms = FAMILIES[family][name]
    arrs = _arrays(name, shapes, doms)
    cls = REGISTRY[(family, name)]
    y = fn(minigrad, *[make(minigrad, a, np.float64, True) for a in arrs])
    recorded = {type(n)._forward_cls for n in graph_nodes(y.grad_fn)}
    assert cls in recorded, f"{name}'s case records no {cls._backward_cls.__name__}"
    if name not in NO_GRADCHECK:
        check_gradcheck(fn, *arrs)
    differential(fn, arrs)


@pytest.mark.parametrize(
    "expr",
    [lambda a, b: a // b, lambda a, b: 2 % a, lambda a, b: a.floor_divide(b)],
    ids=["floordiv", "rmod", "floor_divide"],
)
def test_not_differentiable_node_like_pytorch(expr: Expr) -> None:
    """The node PyTorch records for an op it cannot differentiate, and its
    refusal in backward, word for word."""
    seen = []
    for lib in (minigrad, torch):
        a, b = (make(lib, v, np.float64, True) for v in ([1.5, -2.0], [0.5, 3.0]))
        y = expr(a, b)
        with pytest.raises(RuntimeError) as info:
            y.sum().backward()
        edges = [type(n).__name__ for n, _ in y.grad_fn.next_functions]
        seen.append((type(y.grad_fn).__name__, edges, str(info.value)))
        if lib is minigrad:
            assert type(y.grad_fn)._forward_cls is REGISTRY_BY_NAME["NotDifferentiable"]
    assert seen[0] == seen[1]
