"""minigrad.distributions against torch.distributions (PyTorch 2.13).

Each program runs once with minigrad and once with torch; values, gradients,
grad_fn node names, shapes, dtypes, reprs and error texts must agree (with
``minigrad`` where PyTorch prints ``torch``).  Samples are compared by value
only where minigrad's generator draws PyTorch's numbers (the normal stream and
rand); Bernoulli and Categorical draws are checked for shape, dtype, support
and graph only.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad

torch = pytest.importorskip("torch")

LIBS = (minigrad, torch)


def _names(fn: Any) -> list[str]:
    """The graph's node names, depth first."""
    if fn is None:
        return []
    name = fn.name().split("::")[-1]
    return [name] + [m for child, _ in fn.next_functions for m in _names(child)]


def _norm(x: Any) -> Any:
    """A library-neutral picture of a result: arrays, dtypes and strings."""
    if isinstance(x, (minigrad.Tensor, torch.Tensor)):
        return (
            "tensor",
            str(x.dtype).replace("torch.", "minigrad."),
            tuple(x.shape),
            x.detach().numpy().copy(),
            x.requires_grad,
            _names(x.grad_fn),
        )
    if isinstance(x, (list, tuple)):
        return [_norm(v) for v in x]
    if isinstance(x, dict):
        return {k: _norm(v) for k, v in x.items()}
    if isinstance(x, str):
        return x.replace("torch", "minigrad")
    return x


def _assert_same(a: Any, b: Any, path: str = "", rtol: float = 1e-5) -> None:
    if isinstance(a, tuple) and a and a[0] == "tensor":
        assert a[1:3] == b[1:3], f"{path}: dtype/shape {a[1:3]} vs {b[1:3]}"
        np.testing.assert_allclose(a[3], b[3], rtol=rtol, atol=1e-6, err_msg=path)
        assert a[4:] == b[4:], f"{path}: requires_grad/graph {a[4:]} vs {b[4:]}"
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (u, v) in enumerate(zip(a, b)):
            _assert_same(u, v, f"{path}[{i}]", rtol)
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), path
        for k in a:
            _assert_same(a[k], b[k], f"{path}.{k}", rtol)
    else:
        assert a == b, f"{path}: {a!r} vs {b!r}"


def _error(fn: Callable[[], Any]) -> Any:
    try:
        return ("ok", fn())
    except Exception as exc:  # the type and text are what get compared
        return (type(exc).__name__, str(exc))


def differential(prog: Callable[[Any], Any], rtol: float = 1e-5) -> Any:
    """Run ``prog(lib)`` under both libraries and check the results agree."""
    mine, theirs = (_norm(prog(lib)) for lib in LIBS)
    _assert_same(mine, theirs, rtol=rtol)
    return mine


def _leaf(lib: Any, values: Any, dtype: Any = None) -> Any:
    return lib.tensor(values, dtype=dtype or lib.float32, requires_grad=True)


# ---------------------------------------------------------------- Normal
def test_normal_values_grads_and_graphs() -> None:
    def prog(lib: Any) -> Any:
        D = lib.distributions
        loc = _leaf(lib, [0.5, -1.0, 2.0])
        scale = _leaf(lib, [1.5, 0.3, 2.0])
        d = D.Normal(loc, scale)
        value = lib.tensor([[0.0, 1.0, 2.5], [1.0, -1.0, 0.0]])
        lp = d.log_prob(value)
        ent = d.entropy()
        cdf = d.cdf(value)
        (lp.sum() + ent.sum() + cdf.sum()).backward()
        return {
            "log_prob": lp,
            "entropy": ent,
            "cdf": cdf,
            "mean": d.mean,
            "variance": d.variance,
            "stddev": d.stddev,
            "grads": [loc.grad, scale.grad],
            "shapes": [str(d.batch_shape), str(d.event_shape)],
            "repr": repr(d),
            "has_rsample": d.has_rsample,
            "perplexity": d.perplexity(),
        }

    differential(prog)


def test_normal_rsample_keeps_the_graph_sample_does_not() -> None:
    def prog(lib: Any) -> Any:
        D = lib.distributions
        loc = _leaf(lib, [0.5, -1.0], lib.float64)
        scale = _leaf(lib, [1.5, 0.3], lib.float64)
        d = D.Normal(loc, scale)
        lib.manual_seed(0)
        r = d.rsample((4,))
        r.pow(2).sum().backward()
        lib.manual_seed(0)
        s = d.sample((4,))
        lib.manual_seed(0)
        s1 = d.sample()
        return {"rsample": r, "grads": [loc.grad, scale.grad], "sample": s, "s1": s1}

    out = differential(prog, rtol=1e-12)
    # seeded sample draws the very numbers rsample does (both use the normal stream)
    np.testing.assert_array_equal(out["rsample"][3], out["sample"][3])
    assert out["rsample"][5][:2] == ["AddBackward0", "AccumulateGrad"]
    assert out["sample"][4] is False and out["sample"][5] == []


def test_normal_with_numbers_and_broadcasting() -> None:
    def prog(lib: Any) -> Any:
        D = lib.distributions
        d0 = D.Normal(0.0, 1.0)
        loc = _leaf(lib, [[0.0], [1.0]])
        d1 = D.Normal(loc, 2.0)
        lp = d1.log_prob(lib.tensor([0.5, 1.5, -2.0]))
        lp.sum().backward()
        return [
            repr(d0),
            str(d0.batch_shape),
            d0.log_prob(lib.tensor(0.3)),
            d0.entropy(),
            repr(d1),
            str(d1.batch_shape),
            lp,
            loc.grad,
            str(d1.sample((5, 2)).shape),
        ]

    differential(prog)


def test_normal_errors() -> None:
    def prog(lib: Any) -> Any:
        D = lib.distributions
        good = D.Normal(lib.zeros(2), lib.ones(2))
        return [
            _error(lambda: D.Normal(lib.zeros(2), lib.tensor([1.0, -1.0]))),
            _error(lambda: D.Normal(lib.tensor([0.0, float("nan")]), lib.ones(2))),
            _error(lambda: good.log_prob(lib.zeros(3))),
            _error(lambda: good.log_prob(0.5)),
            _error(lambda: D.Normal("a", 1.0)),
            # validate_args=False accepts what the checks refuse
            _error(lambda: D.Normal(0.0, -1.0, validate_args=False).scale),
            _error(lambda: D.Normal(0.0, 1.0).mode),
        ]

    differential(prog)


# ---------------------------------------------------------------- Bernoulli
@pytest.mark.parametrize("by", ["probs", "logits"])
def test_bernoulli(by: str) -> None:
    def prog(lib: Any) -> Any:
        D = lib.distributions
        p = _leaf(lib, [0.2, 0.5, 0.9] if by == "probs" else [-1.0, 0.0, 2.5])
        d = D.Bernoulli(**{by: p})
        value = lib.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])
        lp = d.log_prob(value)
        ent = d.entropy()
        (lp.sum() + ent.sum() + d.variance.sum()).backward()
        s = d.sample((4,))
        return {
            "log_prob": lp,
            "entropy": ent,
            "mean": d.mean,
            "variance": d.variance,
            "probs": d.probs,
            "logits": d.logits,
            "mode": d.mode,
            "grad": p.grad,
            "repr": repr(d),
            "sample": [str(s.shape), str(s.dtype), s.requires_grad, s.grad_fn],
            "support": d.enumerate_support(),
        }

    out = differential(prog)
    assert out["log_prob"][5][:2] == [
        "NegBackward0",
        "BinaryCrossEntropyWithLogitsBackward0",
    ]


def test_bernoulli_samples_and_errors() -> None:
    minigrad.manual_seed(1)
    s = minigrad.distributions.Bernoulli(probs=minigrad.full((2000,), 0.3)).sample()
    assert set(np.unique(s.numpy())) <= {0.0, 1.0}
    assert abs(float(s.mean()) - 0.3) < 0.05

    def prog(lib: Any) -> Any:
        D = lib.distributions
        return [
            _error(lambda: D.Bernoulli()),
            _error(lambda: D.Bernoulli(probs=0.5, logits=0.0)),
            _error(lambda: D.Bernoulli(probs=lib.tensor([0.5, 1.5]))),
            _error(lambda: D.Bernoulli(probs=0.3).log_prob(lib.tensor(0.5))),
            repr(D.Bernoulli(logits=lib.tensor(0.0))),
            D.Bernoulli(probs=0.3).log_prob(lib.tensor([0.0, 1.0])),
        ]

    differential(prog)


# ---------------------------------------------------------------- Categorical
@pytest.mark.parametrize("by", ["probs", "logits"])
def test_categorical(by: str) -> None:
    def prog(lib: Any) -> Any:
        D = lib.distributions
        raw = [[0.2, 0.3, 0.5, 1.0], [2.0, 1.0, 0.5, 0.5]]
        p = _leaf(
            lib,
            raw if by == "probs" else [[-1.0, 0.0, 2.0, 0.5], [1.0, 1.0, -3.0, 0.0]],
        )
        d = D.Categorical(**{by: p})
        actions = lib.tensor([[3, 0], [1, 2], [0, 0]])
        lp = d.log_prob(actions)
        ent = d.entropy()
        (lp.sum() + ent.sum()).backward()
        s = d.sample((5,))
        return {
            "log_prob": lp,
            "entropy": ent,
            "probs": d.probs,
            "logits": d.logits,
            "mean": d.mean,
            "variance": d.variance,
            "mode": d.mode,
            "grad": p.grad,
            "repr": repr(d),
            "shapes": [str(d.batch_shape), str(d.event_shape), str(d.param_shape)],
            "sample": [str(s.shape), str(s.dtype), s.requires_grad, s.grad_fn],
            "support": d.enumerate_support(),
        }

    differential(prog)


def test_categorical_reinforce_step() -> None:
    """A policy-gradient loss: -log_prob(action) * reward, backward to the logits."""

    def prog(lib: Any) -> Any:
        lib.manual_seed(3)
        w = _leaf(lib, [[0.1, -0.2, 0.3], [0.5, 0.0, -0.4]])
        x = lib.tensor([[1.0, 2.0], [0.5, -1.0]])
        d = lib.distributions.Categorical(logits=x @ w)
        action = lib.tensor([2, 0])  # a sample's stand-in: draws differ by library
        loss = -(d.log_prob(action) * lib.tensor([1.0, -0.5])).sum()
        loss.backward()
        return [loss, w.grad]

    differential(prog)
    minigrad.manual_seed(0)
    d = minigrad.distributions.Categorical(probs=minigrad.tensor([0.0, 0.25, 0.75]))
    draws = d.sample((4000,)).numpy()
    assert draws.dtype == np.int64 and 0 not in draws
    assert abs((draws == 2).mean() - 0.75) < 0.03


def test_categorical_errors() -> None:
    def prog(lib: Any) -> Any:
        D = lib.distributions
        d = D.Categorical(logits=lib.zeros(2, 3))
        return [
            _error(lambda: D.Categorical()),
            _error(lambda: D.Categorical(probs=lib.tensor(0.5))),
            _error(lambda: D.Categorical(logits=lib.tensor(0.5))),
            _error(lambda: D.Categorical(probs=lib.tensor([0.5, -0.5, 1.0]))),
            _error(lambda: d.log_prob(lib.tensor([3, 0]))),
            _error(lambda: d.log_prob(lib.tensor([0, 0, 1]))),
            _error(lambda: d.log_prob(lib.tensor([1.5, 0.0]))),
        ]

    differential(prog)


# ---------------------------------------------------------------- Uniform
def test_uniform() -> None:
    def prog(lib: Any) -> Any:
        D = lib.distributions
        low = _leaf(lib, [0.0, -1.0])
        high = _leaf(lib, [2.0, 3.0])
        d = D.Uniform(low, high)
        lp = d.log_prob(lib.tensor([[1.0, 0.0], [1.5, -1.0]]))
        # outside [low, high) the density is 0: log_prob -inf, once unchecked
        outside = D.Uniform(low, high, validate_args=False).log_prob(
            lib.tensor([2.5, 3.0])
        )
        lib.manual_seed(5)
        r = d.rsample((3,))
        (r.sum() + d.entropy().sum()).backward()
        return {
            "log_prob": lp,
            "outside": outside,
            "rsample": r,
            "entropy": d.entropy(),
            "mean": d.mean,
            "variance": d.variance,
            "stddev": d.stddev,
            "cdf": d.cdf(lib.tensor([1.0, 2.5])),
            "icdf": d.icdf(lib.tensor([0.5, 0.25])),
            "grads": [low.grad, high.grad],
            "repr": repr(d),
            "errors": [
                _error(lambda: D.Uniform(lib.tensor([1.0]), lib.tensor([0.0]))),
                _error(lambda: D.Uniform(0.0, 1.0).log_prob(lib.tensor(2.0))),
                _error(lambda: d.log_prob(lib.tensor([[2.5, 0.0]]))),
            ],
        }

    differential(prog)


# ---------------------------------------------------------------- KL
def test_kl_same_family() -> None:
    def prog(lib: Any) -> Any:
        D = lib.distributions
        kl = D.kl_divergence
        m1, s1 = _leaf(lib, [0.0, 1.0]), _leaf(lib, [1.0, 0.5])
        knn = kl(D.Normal(m1, s1), D.Normal(lib.zeros(2), lib.ones(2)))
        pb = _leaf(lib, [0.2, 0.0, 1.0, 0.7])
        kbb = kl(
            D.Bernoulli(probs=pb), D.Bernoulli(probs=lib.tensor([0.5, 0.3, 0.6, 0.0]))
        )
        lc = _leaf(lib, [[0.0, 1.0, -1.0], [2.0, 0.0, 0.0]])
        qc = lib.tensor([[0.2, 0.3, 0.5], [0.0, 0.5, 0.5]])
        kcc = kl(D.Categorical(logits=lc), D.Categorical(probs=qc))
        ku = kl(
            D.Uniform(0.0, 1.0),
            D.Uniform(lib.tensor([-1.0, 0.5]), lib.tensor([2.0, 3.0])),
        )
        (knn.sum() + kbb[:2].sum() + kcc[0]).backward()
        return {
            "normal": knn,
            "bernoulli": kbb,
            "categorical": kcc,
            "uniform": ku,
            "grads": [m1.grad, s1.grad, pb.grad, lc.grad],
        }

    out = differential(prog)
    assert out["normal"][5][:2] == ["MulBackward0", "SubBackward0"]


def test_kl_lookup_and_register() -> None:
    def prog(lib: Any) -> Any:
        D = lib.distributions

        class Wide(D.Normal):
            pass

        missing = _error(
            lambda: D.kl_divergence(D.Categorical(lib.ones(2)), D.Normal(0.0, 1.0))
        )
        inherited = D.kl_divergence(Wide(0.0, 2.0), D.Normal(1.0, 1.0))

        @D.register_kl(Wide, D.Normal)
        def _kl_wide(p: Any, q: Any) -> Any:
            return (p.scale - q.scale).abs()

        mine = D.kl_divergence(Wide(0.0, 2.0), D.Normal(1.0, 1.0))
        bad = _error(lambda: D.register_kl("Normal", D.Normal))
        return [missing, inherited, mine, bad]

    mine = differential(prog)
    assert mine[0][0] == "NotImplementedError"


def test_torch_alias_imports_distributions() -> None:
    code = (
        "import minigrad; minigrad.as_torch()\n"
        "import torch.distributions as D\n"
        "from torch.distributions import Normal, kl_divergence\n"
        "from torch.distributions.kl import register_kl\n"
        "import minigrad.distributions as M\n"
        "assert D is M and Normal is M.Normal and register_kl is M.register_kl\n"
        "print(kl_divergence(Normal(0.0, 1.0), Normal(1.0, 1.0)))\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": root}
    res = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "tensor(0.5000)"


# ---------------------------------------------------------------- hypothesis
_floats = st.floats(-3.0, 3.0, allow_nan=False)
_pos = st.floats(0.05, 4.0)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(_floats, _pos, _floats, _pos, _floats), min_size=1, max_size=4)
)
def test_normal_hypothesis(rows: list[tuple[float, ...]]) -> None:
    cols = list(zip(*rows))

    def prog(lib: Any) -> Any:
        D = lib.distributions
        loc = _leaf(lib, cols[0], lib.float64)
        scale = _leaf(lib, cols[1], lib.float64)
        p, q = (
            D.Normal(loc, scale),
            D.Normal(
                lib.tensor(cols[2], dtype=lib.float64),
                lib.tensor(cols[3], dtype=lib.float64),
            ),
        )
        out = (
            p.log_prob(lib.tensor(cols[4], dtype=lib.float64))
            + p.entropy()
            + D.kl_divergence(p, q)
        )
        out.sum().backward()
        return [out, loc.grad, scale.grad]

    differential(prog, rtol=1e-10)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(-6.0, 6.0), min_size=2, max_size=5),
    st.lists(st.floats(-6.0, 6.0), min_size=2, max_size=5),
    st.integers(0, 4),
)
def test_logits_hypothesis(a: list[float], b: list[float], k: int) -> None:
    n = min(len(a), len(b))
    a, b, k = a[:n], b[:n], k % n

    def prog(lib: Any) -> Any:
        D = lib.distributions
        la = _leaf(lib, a, lib.float64)
        lb = lib.tensor(b, dtype=lib.float64)
        c = D.Categorical(logits=la)
        bern = D.Bernoulli(logits=la)
        out = [
            c.log_prob(lib.tensor(k)),
            c.entropy(),
            D.kl_divergence(c, D.Categorical(logits=lb)),
            bern.entropy().sum(),
            D.kl_divergence(bern, D.Bernoulli(logits=lb)).sum(),
            bern.log_prob(
                lib.tensor([float(i % 2) for i in range(n)], dtype=lib.float64)
            ).sum(),
        ]
        sum(out).backward()
        return out + [la.grad]

    differential(prog, rtol=1e-8)


# ---------------------------------------------------------------- families, expand
def test_exponential_family_bregman_forms() -> None:
    """Normal and Bernoulli are exponential families: the generic Bregman entropy
    and KL (autograd of the log normalizer) give PyTorch's values and graphs."""

    def prog(lib: Any) -> Any:
        D = lib.distributions
        loc = _leaf(lib, [0.5, -1.0], lib.float64)
        scale = _leaf(lib, [1.5, 0.7], lib.float64)
        p = D.Normal(loc, scale)
        q = D.Normal(lib.zeros(2, dtype=lib.float64), lib.ones(2, dtype=lib.float64))
        probs = _leaf(lib, [0.2, 0.6], lib.float64)
        b = D.Bernoulli(probs=probs)
        c = D.Bernoulli(probs=lib.tensor([0.5, 0.1], dtype=lib.float64))
        kl_n = D.kl._kl_expfamily_expfamily(p, q)
        kl_b = D.kl._kl_expfamily_expfamily(b, c)
        ent = D.ExponentialFamily.entropy(p)
        (kl_n.sum() + kl_b.sum() + ent.sum()).backward()
        return {
            "kl_normal": kl_n,
            "kl_closed_form": D.kl_divergence(p, q),
            "kl_bernoulli": kl_b,
            "entropy": ent,
            "grads": [loc.grad, scale.grad, probs.grad],
            "is_family": [isinstance(d, D.ExponentialFamily) for d in (p, b)],
            "cross": _error(lambda: D.kl_divergence(p, b)),
            "categorical": isinstance(D.Categorical(lib.ones(2)), D.ExponentialFamily),
        }

    out = differential(prog, rtol=1e-10)
    np.testing.assert_allclose(
        out["kl_normal"][3], out["kl_closed_form"][3], rtol=1e-10
    )
    assert out["cross"][0] == "NotImplementedError"


def test_expand_and_default_validation() -> None:
    def prog(lib: Any) -> Any:
        D = lib.distributions
        loc = _leaf(lib, [0.5])
        dists = [
            D.Normal(loc, 1.0),
            D.Bernoulli(logits=loc),
            D.Categorical(logits=lib.tensor([0.0, 1.0, 2.0])),
            D.Uniform(loc - 1, loc + 1),
        ]
        out = []
        for d in dists:
            e = d.expand((4, 1) if d.batch_shape else (4,))
            lp = e.log_prob(
                lib.zeros(e.batch_shape).long()
                if isinstance(e, D.Categorical)
                else lib.zeros(e.batch_shape)
            )
            out.append([repr(e), str(e.batch_shape), lp, str(e.sample((2,)).shape)])
        D.Distribution.set_default_validate_args(False)
        try:
            out.append(D.Normal(0.0, -1.0).scale)
        finally:
            D.Distribution.set_default_validate_args(True)
        out.append(_error(lambda: D.Normal(0.0, -1.0)))
        return out

    differential(prog)


def test_vae_step_end_to_end() -> None:
    """A VAE's loss: encoder -> Normal.rsample -> decoder, plus the KL to N(0, 1);
    seeded, so the rsample draws (and so loss and every grad) are PyTorch's."""

    def prog(lib: Any) -> Any:
        lib.manual_seed(11)
        enc = lib.nn.Linear(4, 6)
        dec = lib.nn.Linear(3, 4)
        with lib.no_grad():  # one set of weights for both libraries
            for p in (*enc.parameters(), *dec.parameters()):
                p.copy_(lib.linspace(-0.5, 0.5, p.numel()).reshape(p.shape))
        x = lib.tensor([[0.1, 0.2, -0.3, 0.4], [1.0, -1.0, 0.5, 0.0]])
        mu, log_sigma = enc(x).chunk(2, dim=-1)
        q = lib.distributions.Normal(mu, log_sigma.exp())
        lib.manual_seed(0)
        z = q.rsample()
        prior = lib.distributions.Normal(lib.zeros_like(mu), lib.ones_like(mu))
        recon = lib.nn.functional.mse_loss(dec(z), x, reduction="sum")
        loss = recon + lib.distributions.kl_divergence(q, prior).sum()
        loss.backward()
        zero = lib.distributions.Categorical(probs=lib.tensor([0.0, 0.3, 0.7]))
        return [
            z,
            loss,
            [p.grad for p in (*enc.parameters(), *dec.parameters())],
            zero.entropy(),
            zero.logits,
        ]

    differential(prog, rtol=1e-4)
