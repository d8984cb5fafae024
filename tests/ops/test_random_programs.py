"""Randomized differential test: hypothesis writes small programs (chains of
elementwise, broadcasting binary, reduction, shape/indexing, matmul and join
ops on leaves of random broadcastable shapes); each program runs in PyTorch and
in minigrad, step by step.

After every step both libraries agree on the value, or raise the same error
(type and text, ``minigrad`` for ``torch``), in which case the step is dropped.
At the end the backward graphs have the same nodes (names, edges, output_nr)
and the leaves get the same gradients."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from op_harness import describe, floats, torch

import minigrad

Draw = Callable[[st.SearchStrategy], Any]


def _act(T: Any, name: str, x: Any, *args: Any) -> Any:
    return getattr(T.nn.functional, name)(x, *args)


def _dim(draw: Draw, ndim: int) -> int:
    """A dim for a tensor of ``ndim`` dims, now and then out of range."""
    n = max(ndim, 1)
    return draw(st.integers(-n - 1, n) | st.integers(-n, n - 1))


# ---- the ops a program is made of: name -> (arity, draw params, apply)
def _unary(fn: Callable) -> tuple:
    return 1, lambda draw, xs: None, lambda T, xs, p: fn(T, xs[0])


def _reduce(fn: Callable) -> tuple:
    def params(draw: Draw, xs: list) -> tuple:
        return _dim(draw, xs[0].ndim), draw(st.booleans())

    return 1, params, lambda T, xs, p: fn(T, xs[0], *p)


def _binary(fn: Callable) -> tuple:
    return 2, lambda draw, xs: None, lambda T, xs, p: fn(T, xs[0], xs[1])


def _index_params(draw: Draw, xs: list) -> Any:
    shape = xs[0].shape
    if not shape:
        return draw(st.sampled_from([..., None, 0]))
    n = shape[0]
    return draw(
        st.sampled_from(
            [
                0,
                -1,
                n,  # out of range
                slice(1, None),
                slice(None, None, 2),
                (..., 0),
                (slice(None), None),
                [0, n - 1, 0],
            ]
        )
    )


OPS: dict[str, tuple] = {
    # elementwise (bounded, so chains stay finite)
    "tanh": _unary(lambda T, x: x.tanh()),
    "sigmoid": _unary(lambda T, x: T.sigmoid(x)),
    "sin": _unary(lambda T, x: x.sin()),
    "neg": _unary(lambda T, x: -x),
    "relu": _unary(lambda T, x: x.relu()),
    "abs": _unary(lambda T, x: x.abs()),
    "square": _unary(lambda T, x: x.square() * 0.5),
    "exp_tanh": _unary(lambda T, x: x.tanh().exp()),
    "scale_shift": _unary(lambda T, x: 0.5 * x + 1),
    "rsub": _unary(lambda T, x: 1 - x),
    "clamp": _unary(lambda T, x: x.clamp(-0.5, 0.75)),
    "clamp_min": _unary(lambda T, x: x.clamp_min(0.25)),
    "gelu": _unary(lambda T, x: _act(T, "gelu", x)),
    "softplus": _unary(lambda T, x: _act(T, "softplus", x)),
    "leaky_relu": _unary(lambda T, x: _act(T, "leaky_relu", x, 0.1)),
    "masked_fill": _unary(lambda T, x: x.masked_fill(x > 0.5, 0.5)),
    "where_scalar": _unary(lambda T, x: T.where(x < 0, x * 0.1, x)),
    # binary, broadcasting
    "add": _binary(lambda T, x, y: x + y),
    "sub": _binary(lambda T, x, y: x - y),
    "mul": _binary(lambda T, x, y: x * y),
    "div": _binary(lambda T, x, y: x / (y.abs() + 1)),
    "maximum": _binary(lambda T, x, y: T.maximum(x, y)),
    "minimum": _binary(lambda T, x, y: x.minimum(y)),
    "where": _binary(lambda T, x, y: T.where(x > y, x, y * 2)),
    "matmul": _binary(lambda T, x, y: x @ y),
    "cat": (2, lambda draw, xs: _dim(draw, xs[0].ndim), lambda T, xs, d: T.cat(xs, d)),
    "stack": (
        2,
        lambda draw, xs: _dim(draw, xs[0].ndim + 1),
        lambda T, xs, d: T.stack(xs, d),
    ),
    # reductions
    "sum_all": _unary(lambda T, x: x.sum()),
    "mean_all": _unary(lambda T, x: x.mean()),
    "max_all": _unary(lambda T, x: x.max()),
    "sum": _reduce(lambda T, x, d, k: x.sum(d, keepdim=k)),
    "mean": _reduce(lambda T, x, d, k: x.mean(d, k)),
    "amax": _reduce(lambda T, x, d, k: x.amax(d, k)),
    "max_dim": _reduce(lambda T, x, d, k: x.max(d, k).values),
    "min_dim": _reduce(lambda T, x, d, k: T.min(x, d, k)[0]),
    "logsumexp": _reduce(lambda T, x, d, k: x.logsumexp(d, k)),
    "prod": _reduce(lambda T, x, d, k: x.prod(d, k)),
    "norm": _reduce(lambda T, x, d, k: x.norm(dim=d, keepdim=k)),
    "cumsum": _reduce(lambda T, x, d, k: x.cumsum(d)),
    "softmax": _reduce(lambda T, x, d, k: x.softmax(d)),
    # shape and indexing
    "reshape_flat": _unary(lambda T, x: x.reshape(-1)),
    "flatten": _unary(lambda T, x: x.flatten()),
    "unsqueeze": (1, lambda draw, xs: _dim(draw, xs[0].ndim + 1), None),
    "transpose": (
        1,
        lambda draw, xs: (_dim(draw, xs[0].ndim), _dim(draw, xs[0].ndim)),
        lambda T, xs, p: xs[0].transpose(*p),
    ),
    "t": _unary(lambda T, x: x.t()),
    "T": _unary(lambda T, x: x.T),
    "permute_rev": _unary(lambda T, x: x.permute(*reversed(range(x.ndim)))),
    "expand": _unary(lambda T, x: x.expand(2, *x.shape)),
    "contiguous_t": _unary(lambda T, x: x.mT.contiguous() if x.ndim >= 2 else x),
    "getitem": (1, _index_params, lambda T, xs, key: xs[0][key]),
    "split_first": (
        1,
        lambda draw, xs: _dim(draw, xs[0].ndim),
        lambda T, xs, d: xs[0].split(1, d)[0],
    ),
    "unbind_last": (
        1,
        lambda draw, xs: _dim(draw, xs[0].ndim),
        lambda T, xs, d: xs[0].unbind(d)[-1],
    ),
    "repeat": _unary(lambda T, x: x.repeat(*([2] + [1] * x.ndim))),
}
OPS["unsqueeze"] = (*OPS["unsqueeze"][:2], lambda T, xs, d: xs[0].unsqueeze(d))


def _run(lib: Any, name: str, xs: list, params: Any) -> tuple[Any, Any, list]:
    """``(result, None, warnings)`` or ``(None, error, warnings)``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out, err = OPS[name][2](lib, xs, params), None
        except Exception as e:  # the error itself is compared
            out, err = None, e
    texts = [
        str(w.message).split(" (Triggered internally")[0].replace("torch", "minigrad")
        for w in caught
    ]
    return out, err, texts


def _numpy(t: Any) -> np.ndarray:
    return t.detach().numpy()


@st.composite
def leaves(draw: Draw) -> list[np.ndarray]:
    """One to three leaves whose shapes broadcast together (sometimes one
    more of any shape)."""
    n = draw(st.integers(1, 3))
    shapes = draw(
        hnp.mutually_broadcastable_shapes(
            num_shapes=n, min_dims=0, max_dims=3, min_side=1, max_side=3
        )
    ).input_shapes
    shapes = list(shapes)
    if draw(st.booleans()):
        shapes.append(draw(hnp.array_shapes(min_dims=0, max_dims=3, max_side=3)))
    # tiny magnitudes (whose squares underflow) are flushed to 0: PyTorch's
    # kernels differ among themselves there (norm of [1e-200] is 1e-200 or 0)
    elements = floats(-2, 2).map(lambda v: v if abs(v) > 1e-6 else 0.0)
    return [draw(hnp.arrays(np.float64, s, elements=elements)) for s in shapes]


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data(), arrs=leaves())
def test_random_program(data: st.DataObject, arrs: list[np.ndarray]) -> None:
    xs_mg = [minigrad.tensor(a, requires_grad=True) for a in arrs]
    xs_th = [torch.tensor(a, requires_grad=True) for a in arrs]
    pool_mg, pool_th = list(xs_mg), list(xs_th)
    trace = []
    for _ in range(data.draw(st.integers(1, 6), label="steps")):
        name = data.draw(st.sampled_from(sorted(OPS)), label="op")
        arity, params_of, _ = OPS[name]
        picks = [
            data.draw(st.integers(0, len(pool_th) - 1), label="operand")
            for _ in range(arity)
        ]
        args_th = [pool_th[i] for i in picks]
        params = params_of(data.draw, args_th)
        trace.append((name, picks, params))
        y_th, err_th, warned_th = _run(torch, name, args_th, params)
        y_mg, err_mg, warned_mg = _run(
            minigrad, name, [pool_mg[i] for i in picks], params
        )
        # PyTorch warns some things once per process; minigrad warns always
        assert all(w in warned_mg for w in warned_th), (trace, warned_th)
        if err_th is not None:
            assert err_mg is not None, (trace, err_th)
            expected = str(err_th).replace("torch", "minigrad")
            assert type(err_mg).__name__ == type(err_th).__name__, (trace, err_mg)
            assert str(err_mg) == expected, (trace, str(err_mg), expected)
            continue
        assert err_mg is None, (trace, err_mg)
        assert tuple(y_mg.shape) == tuple(y_th.shape), trace
        np.testing.assert_allclose(
            _numpy(y_mg), _numpy(y_th), rtol=1e-9, atol=1e-12, err_msg=str(trace)
        )
        pool_mg.append(y_mg)
        pool_th.append(y_th)
    out_mg, out_th = pool_mg[-1], pool_th[-1]
    if len(pool_th) == len(arrs):  # every step raised: nothing to differentiate
        return
    assert describe(out_mg.grad_fn, xs_mg) == describe(out_th.grad_fn, xs_th), trace
    g = np.random.default_rng(0).standard_normal(tuple(out_th.shape))
    out_th.backward(torch.tensor(g))
    out_mg.backward(minigrad.tensor(g))
    for i, (x_mg, x_th) in enumerate(zip(xs_mg, xs_th)):
        if x_th.grad is None:
            assert x_mg.grad is None, (trace, i)
            continue
        np.testing.assert_allclose(
            _numpy(x_mg.grad),
            _numpy(x_th.grad),
            rtol=1e-8,
            atol=1e-10,
            err_msg=f"leaf {i}: {trace}",
        )


def test_matmul_drops_a_unit_batch_like_pytorch() -> None:
    # found by the random programs: PyTorch 2.13 squeezes a 3-D operand whose
    # batch is 1 when the other has a real batch, and folds into one mm
    graphs = []
    for lib in (minigrad, torch):
        a = lib.ones(1, 2, 2, dtype=lib.float64, requires_grad=True)
        b = lib.ones(3, 2, 1, dtype=lib.float64, requires_grad=True)
        graphs.append(describe((a @ b).grad_fn, [a, b]))
    assert graphs[0] == graphs[1]
