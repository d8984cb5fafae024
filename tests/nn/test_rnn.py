"""Recurrent layers against PyTorch (float64, where PyTorch records the steps):
the whole graph with its saved values, outputs, the gradients of the input, the
states and every parameter, reprs, parameter names, and the argument errors."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import compare_graphs

import minigrad

torch = pytest.importorskip("torch")


def _flat(out: Any) -> list:
    if isinstance(out, tuple):
        return [t for o in out for t in _flat(o)]
    return [out]


# (module name, input shape, state shapes or None, constructor kwargs)
CASES = {
    "rnn": ("RNN", (5, 3, 4), None, {}),
    "rnn_relu_deep_bidirectional": (
        "RNN",
        (5, 3, 4),
        [(4, 3, 3)],
        dict(num_layers=2, bidirectional=True, nonlinearity="relu"),
    ),
    "rnn_batch_first_no_bias": (
        "RNN",
        (3, 5, 4),
        None,
        dict(batch_first=True, bias=False),
    ),
    "rnn_unbatched": ("RNN", (5, 4), [(1, 3)], {}),
    "gru_deep": ("GRU", (5, 3, 4), None, dict(num_layers=2)),
    "gru_bidirectional_batch_first": (
        "GRU",
        (2, 5, 4),
        [(2, 2, 3)],
        dict(bidirectional=True, batch_first=True),
    ),
    "lstm": ("LSTM", (5, 3, 4), None, {}),
    "lstm_deep_bidirectional": (
        "LSTM",
        (5, 3, 4),
        [(4, 3, 3), (4, 3, 3)],
        dict(num_layers=2, bidirectional=True),
    ),
    "lstm_projection": (
        "LSTM",
        (3, 5, 4),
        None,
        dict(proj_size=2, batch_first=True, num_layers=2),
    ),
    "lstm_unbatched_no_bias": ("LSTM", (5, 4), [(1, 3), (1, 3)], dict(bias=False)),
    "rnn_cell": ("RNNCell", (3, 4), [(3, 3)], {}),
    "rnn_cell_relu_unbatched": (
        "RNNCell",
        (4,),
        None,
        dict(nonlinearity="relu", bias=False),
    ),
    "lstm_cell": ("LSTMCell", (3, 4), [(3, 3), (3, 3)], {}),
    "lstm_cell_unbatched": ("LSTMCell", (4,), None, {}),
    "gru_cell": ("GRUCell", (3, 4), [(3, 3)], {}),
    "gru_cell_unbatched": ("GRUCell", (4,), [(3,)], dict(bias=False)),
}


def _build(lib: Any, name: str, kw: dict, weights: dict | None) -> Any:
    m = getattr(lib.nn, name)(4, 3, **kw).double()
    if weights is not None:
        m.load_state_dict({k: lib.tensor(v) for k, v in weights.items()})
    return m


def _run(lib: Any, case: str, weights: dict | None) -> tuple:
    name, x_shape, states, kw = CASES[case]
    m = _build(lib, name, kw, weights)
    rng = np.random.default_rng(0)
    x = lib.tensor(rng.standard_normal(x_shape), requires_grad=True)
    hs = [lib.tensor(rng.standard_normal(s), requires_grad=True) for s in states or []]
    args = [x] + ([] if not hs else [hs[0] if len(hs) == 1 else tuple(hs)])
    return m, [x, *hs], m(*args)


@pytest.mark.parametrize("case", sorted(CASES))
def test_recurrent_layer_matches_pytorch(case: str) -> None:
    m_th, xs_th, out_th = _run(torch, case, None)
    weights = {k: v.detach().numpy() for k, v in m_th.state_dict().items()}
    m_mg, xs_mg, out_mg = _run(minigrad, case, weights)
    assert repr(m_mg) == repr(m_th)
    assert [n for n, _ in m_mg.named_parameters()] == [
        n for n, _ in m_th.named_parameters()
    ]
    leaves_mg = xs_mg + list(m_mg.parameters())
    leaves_th = xs_th + list(m_th.parameters())
    outs_mg, outs_th = _flat(out_mg), _flat(out_th)
    assert len(outs_mg) == len(outs_th)
    for y_mg, y_th in zip(outs_mg, outs_th):
        assert tuple(y_mg.shape) == tuple(y_th.shape)
        np.testing.assert_allclose(y_mg.detach().numpy(), y_th.detach().numpy())
        compare_graphs(y_mg, y_th, leaves_mg, leaves_th)
    rng = np.random.default_rng(1)
    ups = [rng.standard_normal(tuple(y.shape)) for y in outs_th]
    sum((y * torch.tensor(u)).sum() for y, u in zip(outs_th, ups)).backward()
    sum((y * minigrad.tensor(u)).sum() for y, u in zip(outs_mg, ups)).backward()
    for a, b in zip(leaves_mg, leaves_th):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=1e-12)


def test_lstm_gradcheck_through_time() -> None:
    """Backpropagation through time, checked against finite differences."""
    minigrad.manual_seed(0)
    lstm = minigrad.nn.LSTM(2, 3, num_layers=2, bidirectional=True).double()
    x = minigrad.randn(4, 2, 2, dtype=minigrad.float64, requires_grad=True)
    h0 = minigrad.randn(4, 2, 3, dtype=minigrad.float64, requires_grad=True)
    c0 = minigrad.randn(4, 2, 3, dtype=minigrad.float64, requires_grad=True)

    def f(x: Any, h0: Any, c0: Any) -> Any:
        out, (h, c) = lstm(x, (h0, c0))
        return out.sum() + (h * c).sum()

    assert minigrad.autograd.gradcheck(f, (x, h0, c0))
    assert minigrad.autograd.gradgradcheck(f, (x, h0, c0))


@pytest.mark.parametrize("cell", ["RNNCell", "GRUCell"])
def test_cells_gradcheck(cell: str) -> None:
    minigrad.manual_seed(0)
    m = getattr(minigrad.nn, cell)(3, 2).double()
    x = minigrad.randn(2, 3, dtype=minigrad.float64, requires_grad=True)
    h = minigrad.randn(2, 2, dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda x, h: m(x, h), (x, h))
    assert minigrad.autograd.gradgradcheck(lambda x, h: m(x, h), (x, h))


def test_dropout_between_layers_is_a_mask_product() -> None:
    m = minigrad.nn.GRU(3, 2, num_layers=2, dropout=0.5).double()
    out, _ = m(minigrad.randn(4, 1, 3, dtype=minigrad.float64))
    names = []
    node = out.grad_fn  # Stack <- cell <- ... <- Unbind <- View <- Addmm <- View <- Mul
    stack = [node]
    while stack:
        n = stack.pop()
        if n is not None and n.name() not in names:
            names.append(n.name())
            stack.extend(f for f, _ in n.next_functions)
    assert "MulBackward0" in names  # the dropout mask of layer 0's output
    m.eval()
    out, _ = m(minigrad.randn(4, 1, 3, dtype=minigrad.float64))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert out.shape == (4, 1, 2)


def test_float32_lstm_trains() -> None:
    """A float32 LSTM learns to echo its input's running sum (loss falls)."""
    minigrad.manual_seed(0)
    lstm, head = minigrad.nn.LSTM(1, 8, batch_first=True), minigrad.nn.Linear(8, 1)
    params = list(lstm.parameters()) + list(head.parameters())
    opt = minigrad.optim.Adam(params, lr=0.05)
    x = minigrad.rand(16, 6, 1)
    target = x.cumsum(1)
    losses = []
    for _ in range(60):
        out, _ = lstm(x)
        loss = minigrad.nn.functional.mse_loss(head(out), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.1 * losses[0]


def _errors(lib: Any) -> list[str]:
    nn, f64 = lib.nn, lib.float64
    out = []

    def attempt(fn: Any) -> None:
        try:
            fn()
            out.append("no error")
        except (RuntimeError, ValueError, TypeError) as e:
            out.append(f"{type(e).__name__}: {e}".replace("minigrad", "torch"))

    rnn, lstm = nn.RNN(3, 2).double(), nn.LSTM(3, 2).double()
    cell, lcell = nn.RNNCell(3, 2).double(), nn.LSTMCell(3, 2).double()
    x = lib.zeros(2, 4, 3, dtype=f64)
    attempt(lambda: rnn(lib.zeros(2, 4, 5, dtype=f64)))
    attempt(lambda: rnn(lib.zeros(2, dtype=f64)))
    attempt(lambda: nn.GRU(3, 2)(lib.zeros(1, 2, 4, 3)))
    attempt(lambda: nn.LSTM(3, 2)(lib.zeros(1, 2, 4, 3)))
    attempt(lambda: rnn(x, lib.zeros(1, 3, 2, dtype=f64)))
    attempt(lambda: rnn(x, lib.zeros(3, 2, dtype=f64)))
    attempt(lambda: rnn(x[0], lib.zeros(1, 1, 2, dtype=f64)))
    attempt(lambda: rnn(x.float()))
    attempt(
        lambda: lstm(x, (lib.zeros(1, 4, 2, dtype=f64), lib.zeros(1, 3, 2, dtype=f64)))
    )
    attempt(
        lambda: lstm(x, (lib.zeros(4, 2, dtype=f64), lib.zeros(1, 3, 2, dtype=f64)))
    )
    attempt(lambda: cell(lib.zeros(1, 2, 3, dtype=f64)))
    attempt(lambda: cell(lib.zeros(4, 5, dtype=f64)))
    attempt(lambda: cell(x[0], lib.zeros(3, 2, dtype=f64)))
    attempt(lambda: cell(x[0], lib.zeros(4, 5, dtype=f64)))
    attempt(lambda: cell(x[0], lib.zeros(1, 4, 2, dtype=f64)))
    attempt(
        lambda: lcell(x[0], (lib.zeros(4, 2, dtype=f64), lib.zeros(3, 2, dtype=f64)))
    )
    attempt(lambda: nn.RNN(3, 2, nonlinearity="sigmoid"))
    attempt(lambda: nn.GRU(3, 2, proj_size=1))
    attempt(lambda: nn.LSTM(3, 2, proj_size=2))
    attempt(lambda: nn.LSTM(3, 2, dropout=1.5))
    attempt(lambda: nn.LSTM(3, 0))
    attempt(lambda: nn.LSTM(3, 2, num_layers=0))
    attempt(lambda: nn.LSTM(3.0, 2))
    attempt(lambda: nn.LSTM(3, 2, bias=1))
    return out


def test_errors_match_pytorch() -> None:
    assert _errors(minigrad) == _errors(torch)


def test_dropout_warning_for_one_layer() -> None:
    for lib in (minigrad, torch):
        with pytest.warns(UserWarning, match="non-zero dropout expects num_layers"):
            lib.nn.LSTM(3, 2, dropout=0.5)


@settings(max_examples=25, deadline=None)
@given(
    mode=st.sampled_from(["RNN", "LSTM", "GRU"]),
    layers=st.integers(1, 3),
    bidirectional=st.booleans(),
    batch_first=st.booleans(),
    bias=st.booleans(),
    proj=st.booleans(),
    seq=st.integers(1, 3),
    batch=st.sampled_from([None, 1, 2]),
    with_state=st.booleans(),
)
def test_random_configurations_match_pytorch(
    mode: str,
    layers: int,
    bidirectional: bool,
    batch_first: bool,
    bias: bool,
    proj: bool,
    seq: int,
    batch: int | None,
    with_state: bool,
) -> None:
    kw = dict(num_layers=layers, bidirectional=bidirectional, batch_first=batch_first)
    kw["bias"] = bias
    if mode == "LSTM" and proj:
        kw["proj_size"] = 2
    rng = np.random.default_rng(seq * 7 + layers)
    x_shape = (
        (seq, 4)
        if batch is None
        else ((batch, seq, 4) if batch_first else (seq, batch, 4))
    )
    x = rng.standard_normal(x_shape)
    n = layers * (2 if bidirectional else 1)
    lead = (n,) if batch is None else (n, batch)
    states = []
    if with_state:
        states.append(rng.standard_normal(lead + (kw.get("proj_size", 3),)))
        if mode == "LSTM":
            states.append(rng.standard_normal(lead + (3,)))

    def run(lib: Any, weights: dict | None) -> tuple:
        m = getattr(lib.nn, mode)(4, 3, **kw).double()
        if weights is not None:
            m.load_state_dict({k: lib.tensor(v) for k, v in weights.items()})
        xt = lib.tensor(x, requires_grad=True)
        hs = [lib.tensor(s, requires_grad=True) for s in states]
        args = [xt] + ([] if not hs else [hs[0] if len(hs) == 1 else tuple(hs)])
        outs = _flat(m(*args))
        sum((o * o).sum() for o in outs).backward()
        grads = [xt.grad] + [h.grad for h in hs] + [p.grad for p in m.parameters()]
        names = [_names(o) for o in outs]
        return m, outs, grads, names

    m_th, outs_th, grads_th, names_th = run(torch, None)
    weights = {k: v.detach().numpy() for k, v in m_th.state_dict().items()}
    _, outs_mg, grads_mg, names_mg = run(minigrad, weights)
    assert names_mg == names_th
    for a, b in zip(outs_mg + grads_mg, outs_th + grads_th):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), atol=1e-12)


def _names(t: Any) -> list[str]:
    """The graph's node names, depth first (library-neutral)."""
    out, seen, todo = [], set(), [t.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        out.append(type(node).__name__)
        todo.extend(f for f, _ in node.next_functions)
    return out
