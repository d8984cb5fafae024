"""The nn.functional pieces public lessons reach for (#15): F.pad in its four
modes and the nn.*Pad*d modules, normalize, cosine_similarity, kl_div, softmin,
glu, hardswish, hardsigmoid, hardshrink, softshrink, threshold, softsign,
tanhshrink, and their modules.

Each op: float64 gradcheck and gradgradcheck over drawn shapes, the same program
against PyTorch (values, gradients, node names, next_functions, ``_saved_*``),
second derivatives, the node a create_graph gradient records, error texts and
module reprs."""

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

FAST = settings(max_examples=6, deadline=None)


def F(lib: Any) -> Any:  # noqa: N802 - the name lessons use
    return lib.nn.functional


rng = np.random.default_rng(15)


def randn(*shape: int, scale: float = 1.0) -> np.ndarray:
    return rng.standard_normal(shape) * scale


def probs(*shape: int) -> np.ndarray:
    return rng.random(shape) + 0.1


def away_from(kinks: tuple, lo: float = -4.0, hi: float = 4.0) -> st.SearchStrategy:
    """Elements at least 0.05 from each kink: the ops are smooth there."""
    return st.floats(lo, hi, allow_nan=False, width=64).filter(
        lambda v: all(abs(v - k) > 0.05 for k in kinks)
    )


def both_checks(fn: Any, *arrs: np.ndarray, second: bool = True) -> None:
    xs = tuple(
        minigrad.tensor(a, dtype=minigrad.float64, requires_grad=True) for a in arrs
    )
    assert minigrad.autograd.gradcheck(fn, xs)
    if second:
        assert minigrad.autograd.gradgradcheck(fn, xs)


# --------------------------------------------------------------------- F.pad
# (mode, pad, input dims): each mode with 1, 2 and 3 padded dims, negative pads
PADS = [
    ("constant", (1, 2), 4),
    ("constant", (1, -1, 2, 0, 1, 1), 4),
    ("constant", (0, 0, 2, 1), 2),
    ("reflect", (1, 2), 3),
    ("reflect", (2, 1), 2),
    ("reflect", (1, 2, 2, -1), 4),
    ("reflect", (1, 1, 1, 1, 1, 1), 5),
    ("replicate", (2, 3, 1, 1), 4),
    ("replicate", (3, 0), 2),
    ("replicate", (1, 1, 2, 1, 1, 1), 4),
    ("circular", (1, 2), 3),
    ("circular", (1, 2, -1, 3), 4),
    ("circular", (1, 1, 1, 1, 1, 1), 5),
]


def _pad_input(ndim: int) -> np.ndarray:
    return randn(*(2, 3, 4, 5, 3)[5 - ndim :])


@pytest.mark.parametrize("mode,pad,ndim", PADS)
def test_pad_against_pytorch(mode: str, pad: tuple, ndim: int) -> None:
    arr = _pad_input(ndim)
    compare(lambda lib, a: F(lib).pad(a * 1.5, pad, mode=mode), [arr], [True])
    second_order(lambda lib, a: F(lib).pad(a, pad, mode=mode) ** 2, [arr], [True])


def test_pad_constant_value_and_integer_input() -> None:
    arr = randn(2, 3)
    compare(lambda lib, a: F(lib).pad(a, (1, 1, 2, 0), value=2.5), [arr], [True])
    ints = np.arange(6).reshape(2, 3)
    mine = F(minigrad).pad(minigrad.tensor(ints), (1, 2), value=7)
    theirs = F(torch).pad(torch.tensor(ints), (1, 2), value=7)
    assert str(mine.dtype) == "minigrad.int64" and theirs.dtype == torch.int64
    np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


@FAST
@given(
    st.sampled_from(["constant", "reflect", "replicate", "circular"]),
    hnp.array_shapes(min_dims=3, max_dims=4, min_side=3, max_side=4),
    st.lists(st.integers(-1, 2), min_size=4, max_size=4),
)
def test_gradcheck_pad(mode: str, shape: tuple, pad: list) -> None:
    x = rng.standard_normal(shape)
    both_checks(lambda t: F(minigrad).pad(t, tuple(pad), mode=mode), x)


@pytest.mark.parametrize(
    "mode,node",
    [
        ("reflect", "ReflectionPad2DBackwardBackward0"),
        ("replicate", "ReplicationPad2DBackwardBackward0"),
    ],
)
def test_pad_create_graph_records_the_fused_backward(mode: str, node: str) -> None:
    names, saved = [], []
    for lib in (minigrad, torch):
        x = lib.tensor(randn(1, 2, 3, 4), requires_grad=True)
        y = F(lib).pad(x, (1, 2, 2, 1), mode=mode)
        v = lib.ones(tuple(y.shape), dtype=lib.float64, requires_grad=True)
        (g,) = lib.autograd.grad(y, x, v, create_graph=True)
        names.append(
            [g.grad_fn.name()] + [n.name() for n, _ in g.grad_fn.next_functions]
        )
        saved.append(g.grad_fn._saved_padding)
        (gg,) = lib.autograd.grad((g * g).sum(), v)  # through pad again
        saved.append(gg.abs().sum().item())
    assert names[0][0] == node
    assert [n.replace("minigrad", "torch") for n in names[0]] == names[1]
    assert saved[0] == saved[2] and saved[1] == pytest.approx(saved[3])


@pytest.mark.parametrize(
    "fn,shape",
    [
        (lambda lib, a: F(lib).pad(a, (1, 2, 3)), (1, 2, 3, 4)),
        (lambda lib, a: F(lib).pad(a, (4, 4, 0, 0), mode="reflect"), (1, 2, 3, 4)),
        (lambda lib, a: F(lib).pad(a, (1, 1), mode="foo"), (1, 2, 3, 4)),
        (lambda lib, a: F(lib).pad(a, (1,) * 10), (1, 2, 3, 4)),
        (lambda lib, a: F(lib).pad(a, (1,) * 8, mode="reflect"), (1, 2, 3, 4)),
        (lambda lib, a: F(lib).pad(a, (1, 1), mode="replicate"), (4,)),
        (lambda lib, a: F(lib).pad(a, (1,) * 6, mode="circular"), (2, 3, 4)),
        (lambda lib, a: F(lib).pad(a, (5, 5, 0, 0), mode="circular"), (1, 2, 3, 4)),
        (lambda lib, a: F(lib).pad(a, (-3, -2), mode="circular"), (1, 2, 4)),
        (lambda lib, a: F(lib).pad(a, (1, 1), mode="reflect", value=1.0), (2, 4)),
        (lambda lib, a: F(lib).pad(a, (-5, 1)), (1, 2, 3, 4)),
    ],
)
def test_pad_errors_match_pytorch(fn: Any, shape: tuple) -> None:
    same_error(fn, np.zeros(shape, np.float32))


PAD_MODULES = [
    ("ZeroPad1d", (2,)),
    ("ZeroPad2d", ((1, 2, 3, 4),)),
    ("ZeroPad3d", (1,)),
    ("ConstantPad1d", (2, 1)),
    ("ConstantPad2d", ((1, 2, 3, 4), 3.5)),
    ("ConstantPad3d", (1, 2.0)),
    ("ReflectionPad1d", ([1, 2],)),
    ("ReflectionPad2d", (1,)),
    ("ReflectionPad3d", (1,)),
    ("ReplicationPad1d", ((1, 2),)),
    ("ReplicationPad2d", (2,)),
    ("ReplicationPad3d", (1,)),
    ("CircularPad1d", (1,)),
    ("CircularPad2d", ((1, 0, 2, 1),)),
    ("CircularPad3d", (1,)),
]


@pytest.mark.parametrize("name,args", PAD_MODULES)
def test_pad_modules_match_pytorch(name: str, args: tuple) -> None:
    mine, theirs = getattr(minigrad.nn, name)(*args), getattr(torch.nn, name)(*args)
    assert repr(mine) == repr(theirs)
    assert mine.padding == theirs.padding
    k = int(name[-2])
    arr = randn(*(2, 3, 4, 4, 3)[: k + 2])
    compare(lambda lib, a: getattr(lib.nn, name)(*args)(a), [arr], [True])


def test_circular_pad_module_checks_the_input_dims() -> None:
    same_error(lambda lib, a: lib.nn.CircularPad2d(1)(a), randn(4, 4))


# ------------------------------------------------- activations and the rest
X = randn(3, 4, scale=3.0)
Y = randn(3, 4)
CASES: dict[str, tuple[Any, list]] = {
    "hardsigmoid": (lambda lib, a: F(lib).hardsigmoid(a), [X]),
    "hardswish": (lambda lib, a: F(lib).hardswish(a), [X]),
    "hardshrink": (lambda lib, a: F(lib).hardshrink(a, 0.7), [X]),
    "softshrink": (lambda lib, a: F(lib).softshrink(a), [X]),
    "threshold": (lambda lib, a: F(lib).threshold(a, 0.3, -2.0), [X]),
    "softsign": (lambda lib, a: F(lib).softsign(a), [X]),
    "tanhshrink": (lambda lib, a: F(lib).tanhshrink(a), [X]),
    "glu": (lambda lib, a: F(lib).glu(a), [X]),
    "glu_dim0": (lambda lib, a: F(lib).glu(a.t(), 0), [X]),
    "softmin": (lambda lib, a: F(lib).softmin(a, 1), [X]),
    "normalize": (lambda lib, a: F(lib).normalize(a), [X]),
    "normalize_p1": (lambda lib, a: F(lib).normalize(a, 1.0, 0), [X]),
    "cosine_similarity": (lambda lib, a, b: F(lib).cosine_similarity(a, b), [X, Y]),
    "cosine_broadcast": (
        lambda lib, a, b: F(lib).cosine_similarity(a, b, dim=-1),
        [X, Y[:1]],
    ),
    "kl_div_batchmean": (
        lambda lib, a, b: F(lib).kl_div(a, b, reduction="batchmean"),
        [X, probs(3, 4)],
    ),
    "kl_div_none": (
        lambda lib, a, b: F(lib).kl_div(a, b, reduction="none"),
        [X, probs(3, 4)],
    ),
    "kl_div_log_target": (
        lambda lib, a, b: F(lib).kl_div(a, b, reduction="sum", log_target=True),
        [X, Y],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_pytorch(name: str) -> None:
    fn, arrs = CASES[name]
    compare(fn, arrs, [True] * len(arrs))
    if name != "hardsigmoid":  # (PyTorch has no second derivative: below)
        second_order(fn, arrs, [True] * len(arrs))


def test_kl_div_mean_warns_as_pytorch() -> None:
    texts = []
    for lib in (minigrad, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            F(lib).kl_div(lib.tensor(X), lib.tensor(probs(3, 4)))
        texts.append([str(w.message) for w in caught])
    assert texts[0] == texts[1] and len(texts[0]) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compare(lambda lib, a, b: F(lib).kl_div(a, b), [X, probs(3, 4)], [True] * 2)


@pytest.mark.parametrize(
    "name,node",
    [
        ("hardswish", "HardswishBackwardBackward0"),
        ("hardshrink", "HardshrinkBackwardBackward0"),
        ("softshrink", "SoftshrinkBackwardBackward0"),
        ("threshold", "ThresholdBackwardBackward0"),
        ("hardsigmoid", "NotImplemented"),
    ],
)
def test_create_graph_records_pytorch_s_gradient_node(name: str, node: str) -> None:
    fn, arrs = CASES[name]
    names = []
    for lib in (minigrad, torch):
        x = lib.tensor(arrs[0], requires_grad=True)
        (g,) = lib.autograd.grad(fn(lib, x).sum(), x, create_graph=True)
        names.append(g.grad_fn.name().replace("torch", "minigrad"))
    assert names[0] == names[1] and names[0].endswith(node)


def test_hardsigmoid_has_no_second_derivative() -> None:
    def twice(lib: Any, a: Any) -> Any:
        a.requires_grad_()
        (g,) = lib.autograd.grad(F(lib).hardsigmoid(a).sum(), a, create_graph=True)
        return lib.autograd.grad(g.sum(), a)

    same_error(twice, X)


SMOOTH = {  # name -> (function on minigrad, the kinks to keep away from)
    "hardswish": (lambda t: F(minigrad).hardswish(t), (-3.0, 3.0)),
    "hardsigmoid": (lambda t: F(minigrad).hardsigmoid(t), (-3.0, 3.0)),
    "hardshrink": (lambda t: F(minigrad).hardshrink(t, 0.7), (-0.7, 0.7)),
    "softshrink": (lambda t: F(minigrad).softshrink(t, 0.5), (-0.5, 0.5)),
    "threshold": (lambda t: F(minigrad).threshold(t, 0.3, -2.0), (0.3,)),
    "softsign": (lambda t: F(minigrad).softsign(t), (0.0,)),
    "tanhshrink": (lambda t: F(minigrad).tanhshrink(t), ()),
    "softmin": (lambda t: F(minigrad).softmin(t, -1), ()),
    "normalize": (lambda t: F(minigrad).normalize(t, dim=-1), ()),
}


@pytest.mark.parametrize("name", sorted(SMOOTH))
@FAST
@given(data=st.data())
def test_gradcheck_and_gradgradcheck(name: str, data: Any) -> None:
    fn, kinks = SMOOTH[name]
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))
    x = data.draw(hnp.arrays(np.float64, shape, elements=away_from(kinks)))
    if name == "normalize":  # (keep the norm away from 0, its kink)
        x = x + np.sign(x) + (x == 0)
    both_checks(fn, x, second=name != "hardsigmoid")


@FAST
@given(data=st.data())
def test_gradcheck_glu_cosine_kl(data: Any) -> None:
    n = data.draw(st.integers(1, 3))
    a = data.draw(hnp.arrays(np.float64, (n, 4), elements=away_from((0.0,))))
    b = data.draw(hnp.arrays(np.float64, (n, 4), elements=away_from((0.0,))))
    dim = data.draw(st.sampled_from([-1, 1]))
    both_checks(lambda t: F(minigrad).glu(t, dim), a)
    both_checks(lambda s, t: F(minigrad).cosine_similarity(s, t, dim), a, b)
    p = np.abs(b) + 0.1
    both_checks(lambda s, t: F(minigrad).kl_div(s, t, reduction="batchmean"), a, p)
    both_checks(
        lambda s, t: F(minigrad).kl_div(s, t, reduction="sum", log_target=True), a, b
    )


@pytest.mark.parametrize(
    "fn,arrs",
    [
        (lambda lib, a: F(lib).glu(a), [randn(3, 5)]),
        (lambda lib, a: F(lib).glu(a, 0), [randn(3, 4)]),
        (lambda lib, a: F(lib).glu(a), [np.array(1.0)]),
        (lambda lib, a: F(lib).softshrink(a, -1.0), [randn(3).astype(np.float32)]),
        (lambda lib, a: F(lib).softshrink(a, -0.5), [randn(3)]),
        (lambda lib, a, b: F(lib).kl_div(a, b, reduction="foo"), [X, X]),
        (lambda lib, a, b: F(lib).cosine_similarity(a, b), [X, randn(2, 4)]),
    ],
)
def test_errors_match_pytorch(fn: Any, arrs: list) -> None:
    same_error(fn, *arrs)


def test_inplace_forms() -> None:
    for name in ("hardswish", "hardsigmoid"):
        compare(
            lambda lib, a, n=name: getattr(F(lib), n)(a * 1, inplace=True),
            [X],
            [True],
        )
    compare(lambda lib, a: F(lib).threshold(a * 1, 0.1, 5.0, inplace=True), [X], [True])


MODULES = [
    ("Hardswish", ()),
    ("Hardswish", (True,)),
    ("Hardsigmoid", ()),
    ("Hardshrink", ()),
    ("Softshrink", (0.3,)),
    ("Threshold", (0.1, 20)),
    ("Threshold", (0.1, 2.0, True)),
    ("Softsign", ()),
    ("Tanhshrink", ()),
    ("GLU", ()),
    ("GLU", (0,)),
    ("Softmin", (1,)),
    ("Softmin", ()),
    ("CosineSimilarity", ()),
    ("KLDivLoss", ()),
    ("KLDivLoss", (None, None, "batchmean", True)),
]


@pytest.mark.parametrize("name,args", MODULES)
def test_modules_match_pytorch(name: str, args: tuple) -> None:
    assert repr(getattr(minigrad.nn, name)(*args)) == repr(
        getattr(torch.nn, name)(*args)
    )
    if name in ("CosineSimilarity", "KLDivLoss"):
        arrs = [X, probs(3, 4)]
    else:
        arrs = [randn(4, 4)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (Softmin without dim, KLDivLoss's mean)
        compare(
            lambda lib, *xs: getattr(lib.nn, name)(*args)(*[x * 1 for x in xs]),
            arrs,
            [True] * len(arrs),
        )


# ------------------------------------------- prelu, group_norm, instance_norm
G4 = randn(2, 4, 3, 2)
NORM_CASES: dict[str, tuple[Any, list]] = {
    "prelu": (lambda lib, a, w: F(lib).prelu(a, w), [randn(2, 3, 4), probs(3)]),
    "prelu_one": (lambda lib, a, w: F(lib).prelu(a, w), [randn(2, 3, 4), probs(1)]),
    "prelu_1d": (lambda lib, a, w: F(lib).prelu(a, w), [randn(4), probs(1)]),
    "prelu_0d": (lambda lib, a, w: F(lib).prelu(a, w), [randn(1)[0], probs(1)]),
    "group_norm": (
        lambda lib, a, w, b: F(lib).group_norm(a, 2, w, b),
        [G4, randn(4), randn(4)],
    ),
    "group_norm_plain": (lambda lib, a: F(lib).group_norm(a, 4), [G4]),
    "group_norm_3d": (
        lambda lib, a, w: F(lib).group_norm(a, 1, w, eps=1e-3),
        [G4[..., 0], randn(4)],
    ),
    "instance_norm": (lambda lib, a: F(lib).instance_norm(a), [G4]),
    "instance_norm_affine": (
        lambda lib, a, w, b: F(lib).instance_norm(a, weight=w, bias=b),
        [G4, randn(4), randn(4)],
    ),
}


@pytest.mark.parametrize("name", sorted(NORM_CASES))
def test_norms_and_prelu_against_pytorch(name: str) -> None:
    fn, arrs = NORM_CASES[name]
    compare(fn, arrs, [True] * len(arrs))
    second_order(fn, arrs, [True] * len(arrs))


@FAST
@given(data=st.data())
def test_gradcheck_prelu_group_norm_instance_norm(data: Any) -> None:
    n, groups = data.draw(st.integers(1, 2)), data.draw(st.sampled_from([1, 2]))
    spatial = data.draw(hnp.array_shapes(min_dims=1, max_dims=2, max_side=3))
    shape = (n, 2 * groups, *spatial)
    x = data.draw(hnp.arrays(np.float64, shape, elements=away_from((0.0,), -2, 2)))
    w, b = randn(shape[1]), randn(shape[1])
    both_checks(lambda t, s: F(minigrad).prelu(t, s), x, probs(shape[1]))
    if np.prod(spatial) * 2 > 2:  # (a group of one element has no variance)
        both_checks(lambda t, s, c: F(minigrad).group_norm(t, groups, s, c), x, w, b)
    if np.prod(spatial) > 1:
        both_checks(lambda t: F(minigrad).instance_norm(t), x)


def test_instance_norm_running_stats_as_pytorch() -> None:
    outs = []
    for lib in (minigrad, torch):
        m = lib.nn.InstanceNorm2d(4, track_running_stats=True)
        x = lib.tensor(G4)
        m(x)
        m.eval()
        y = m(x * 2)
        outs.append([m.running_mean.numpy(), m.running_var.numpy(), y.numpy()])
    for mine, theirs in zip(*outs):
        np.testing.assert_allclose(mine, theirs, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize(
    "fn,arrs",
    [
        (lambda lib, a, w: F(lib).prelu(a, w), [randn(2, 3, 4), probs(2)]),
        (lambda lib, a, w: F(lib).prelu(a, w), [randn(2, 3), probs(3, 1)]),
        (lambda lib, a: F(lib).group_norm(a, 3), [G4]),
        (lambda lib, a, w: F(lib).group_norm(a, 2, w), [G4, randn(3)]),
        (lambda lib, a: F(lib).group_norm(a, 1), [randn(4)]),
        (lambda lib, a: F(lib).instance_norm(a), [randn(2, 3, 1)]),
        (lambda lib, a: lib.nn.InstanceNorm1d(3)(a), [randn(2, 3, 4, 5)]),
        (lambda lib, a: lib.nn.InstanceNorm1d(4, affine=True)(a), [randn(2, 3, 4)]),
        (lambda lib, a: lib.nn.GroupNorm(3, 4)(a), [G4]),
    ],
)
def test_norm_errors_match_pytorch(fn: Any, arrs: list) -> None:
    same_error(fn, *arrs)


NORM_MODULES = [
    ("PReLU", (), (2, 3, 4)),
    ("PReLU", (3, 0.1), (2, 3, 4)),
    ("GroupNorm", (2, 4), (2, 4, 3)),
    ("GroupNorm", (2, 4, 1e-3, False), (2, 4, 3)),
    ("InstanceNorm1d", (3,), (2, 3, 4)),
    ("InstanceNorm1d", (3,), (3, 4)),
    ("InstanceNorm2d", (3, 1e-5, 0.1, True, True), (2, 3, 4, 2)),
    ("InstanceNorm3d", (2,), (1, 2, 2, 3, 2)),
]


@pytest.mark.parametrize("name,args,shape", NORM_MODULES)
def test_norm_modules_match_pytorch(name: str, args: tuple, shape: tuple) -> None:
    mine, theirs = getattr(minigrad.nn, name)(*args), getattr(torch.nn, name)(*args)
    assert repr(mine) == repr(theirs)
    assert [n for n, _ in mine.named_parameters()] == [
        n for n, _ in theirs.named_parameters()
    ]
    assert [n for n, _ in mine.named_buffers()] == [
        n for n, _ in theirs.named_buffers()
    ]
    arr = randn(*shape)
    compare(lambda lib, a: getattr(lib.nn, name)(*args).double()(a), [arr], [True])


# ------------------------------------------------ scaled_dot_product_attention
Q, K, V = randn(2, 3, 4), randn(2, 5, 4), randn(2, 5, 3)
MASK = rng.random((3, 5)) > 0.3
MASK[1] = False  # a fully masked row: the safe softmax gives 0s, not nan


def sdpa(**kw: Any) -> Any:
    def fn(lib: Any, q: Any, k: Any, v: Any) -> Any:
        args = {
            n: lib.tensor(a) if isinstance(a, np.ndarray) else a for n, a in kw.items()
        }
        return F(lib).scaled_dot_product_attention(q, k, v, **args)

    return fn


SDPA = {
    "plain": sdpa(),
    "causal": sdpa(is_causal=True),
    "scale": sdpa(scale=0.3),
    "bool_mask": sdpa(attn_mask=MASK),
    "float_mask": sdpa(attn_mask=randn(3, 5)),
}


@pytest.mark.parametrize("name", sorted(SDPA))
def test_scaled_dot_product_attention_against_pytorch(name: str) -> None:
    compare(SDPA[name], [Q, K, V], [True] * 3)
    second_order(SDPA[name], [Q, K, V], [True] * 3)
    heads = [a[None] for a in (Q, K, V)]  # (batch, heads, L, E)
    compare(SDPA[name], heads, [True] * 3)


@pytest.mark.parametrize("name", ["causal", "bool_mask"])
def test_gradcheck_scaled_dot_product_attention(name: str) -> None:
    both_checks(lambda q, k, v: SDPA[name](minigrad, q, k, v), Q, K, V)


def test_scaled_dot_product_attention_errors_match_pytorch() -> None:
    same_error(sdpa(attn_mask=MASK[:3, :3], is_causal=True), Q, Q, Q)
    same_error(sdpa(), Q, K[:, :, :3], V)


# ---------------------------------------------------- margin and hinge losses
SIGNS = np.sign(randn(3, 4)) + (randn(3, 4) == 0)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_margin_and_hinge_losses_against_pytorch(reduction: str) -> None:
    # (piecewise linear: their second derivative is 0, and PyTorch's too)
    compare(
        lambda lib, a, b, t: F(lib).margin_ranking_loss(
            a, b, t, 0.1, reduction=reduction
        ),
        [X[:, 0], Y[:, 0], SIGNS[:, 0]],
        [True, True, False],
    )
    compare(
        lambda lib, a, t: F(lib).hinge_embedding_loss(a, t, 0.5, reduction=reduction),
        [X, SIGNS],
        [True, False],
    )


def test_gradcheck_margin_and_hinge_losses() -> None:
    t = minigrad.tensor(SIGNS)
    both_checks(lambda a: F(minigrad).hinge_embedding_loss(a, t, 0.3), X)
    both_checks(
        lambda a, b: F(minigrad).margin_ranking_loss(a, b, t[:, 0], 0.1),
        X[:, 0],
        Y[:, 0],
    )


def test_margin_and_hinge_modules_and_errors_match_pytorch() -> None:
    for name, args in [("MarginRankingLoss", (0.2,)), ("HingeEmbeddingLoss", ())]:
        assert repr(getattr(minigrad.nn, name)(*args)) == repr(
            getattr(torch.nn, name)(*args)
        )
    compare(
        lambda lib, a, t: lib.nn.HingeEmbeddingLoss(margin=2.0)(a, t),
        [X, SIGNS],
        [True, False],
    )
    same_error(
        lambda lib, a, b, t: F(lib).margin_ranking_loss(a, b, t), X, Y[:, 0], Y[:, 0]
    )


# ------------------------------------------------------------- pixel shuffle
@pytest.mark.parametrize("shape", [(1, 8, 2, 3), (8, 2, 3), (2, 1, 4, 2, 2)])
def test_pixel_shuffle_against_pytorch(shape: tuple) -> None:
    arr = randn(*shape)
    compare(lambda lib, a: F(lib).pixel_shuffle(a * 1, 2), [arr], [True])
    second_order(lambda lib, a: F(lib).pixel_shuffle(a, 2) ** 2, [arr], [True])
    out = (*shape[:-3], shape[-3] * 4, shape[-2] * 2, shape[-1] * 2)
    compare(lambda lib, a: F(lib).pixel_unshuffle(a * 1, 2), [randn(*out)], [True])
    both_checks(lambda t: F(minigrad).pixel_shuffle(t, 2), arr)
    both_checks(lambda t: F(minigrad).pixel_unshuffle(t, 2), randn(*out))


def test_pixel_shuffle_create_graph_nodes_modules_and_errors() -> None:
    names = []
    for lib in (minigrad, torch):
        x = lib.tensor(randn(1, 8, 2, 3), requires_grad=True)
        y = F(lib).pixel_shuffle(x, 2)
        v = lib.ones(tuple(y.shape), dtype=lib.float64, requires_grad=True)
        (g,) = lib.autograd.grad(y, x, v, create_graph=True)
        names.append(g.grad_fn.name())
    assert names == ["PixelUnshuffleBackward0"] * 2
    for name, r in [("PixelShuffle", 2), ("PixelUnshuffle", 3)]:
        assert repr(getattr(minigrad.nn, name)(r)) == repr(getattr(torch.nn, name)(r))
    same_error(lambda lib, a: F(lib).pixel_shuffle(a, 2), randn(1, 6, 2, 2))
    same_error(lambda lib, a: F(lib).pixel_shuffle(a, 2), randn(6, 2))
    same_error(lambda lib, a: F(lib).pixel_unshuffle(a, 2), randn(1, 1, 3, 4))
    same_error(lambda lib, a: F(lib).pixel_unshuffle(a, 2), randn(1, 1, 4, 3))
