"""Memory: backward frees what the graph saved, and training loops stay flat."""

from __future__ import annotations

import gc
import tracemalloc
import weakref

import numpy as np

import minigrad
from minigrad import nn, optim


def test_backward_releases_every_saved_tensor_of_the_graph() -> None:
    x = minigrad.tensor(np.linspace(-1, 1, 50), requires_grad=True)
    y = x.exp()  # ExpBackward0 saves its result
    z = y * y.tanh()  # saves y (an input) and the tanh result
    loss = z.mean()
    arrays = [weakref.ref(y._data), weakref.ref(z.grad_fn._saved_other._data)]
    tensors = [weakref.ref(y)]
    del y, z
    loss.backward()  # the graph (loss.grad_fn) is still alive after this
    assert all(r() is None for r in tensors)
    assert all(r() is None for r in arrays)
    assert loss.grad_fn is not None


def test_retain_graph_keeps_them() -> None:
    x = minigrad.tensor(np.linspace(-1, 1, 50), requires_grad=True)
    y = x.exp()
    ref = weakref.ref(y._data)
    loss = (y * y).sum()
    del y
    loss.backward(retain_graph=True)
    assert ref() is not None
    loss.backward()
    assert ref() is None


def test_dropping_the_output_frees_the_graph_without_gc() -> None:
    gc.disable()
    try:
        x = minigrad.tensor(np.ones(100), requires_grad=True)
        h = (x * 2).tanh()
        node = weakref.ref(h.grad_fn)
        data = weakref.ref(h._data)
        loss = (h @ h).sqrt()
        del h
        loss.backward()
        del loss
        assert node() is None and data() is None
    finally:
        gc.enable()


def test_a_training_loop_keeps_memory_flat() -> None:
    minigrad.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 3))
    opt = optim.Adam(model.parameters(), lr=1e-2)
    x = minigrad.randn(64, 8)
    target = minigrad.randint(0, 3, (64,))
    loss_fn = nn.CrossEntropyLoss()

    def steps(n: int) -> None:
        for _ in range(n):
            opt.zero_grad()
            loss_fn(model(x), target).backward()
            opt.step()

    steps(20)  # warm up: Adam's state and numpy's caches exist from here on
    gc.disable()  # nothing may rely on the cycle collector
    try:
        tracemalloc.start()
        steps(100)
        first, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        steps(200)
        second, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    finally:
        gc.enable()
    assert second - first < 64 * 1024, (first, second)  # no growth per step
    assert peak - first < 2 * 1024 * 1024, (first, peak)  # one step's worth


def test_inf_and_nan_arise_silently_as_in_pytorch() -> None:
    # a fresh interpreter: pytest replaces the warning filters of its tests
    import subprocess
    import sys

    program = """
import warnings, numpy as np, minigrad
x = minigrad.tensor([100.0, 1.0], requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    z = x.exp().exp() - x.exp().exp()  # inf - inf
    z.sum().backward()
    np.ones(1) / np.zeros(1)  # the user's own numpy code still warns
assert np.isnan(z.detach().numpy()[0])
print([str(w.message) for w in caught])
"""
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "['divide by zero encountered in divide']"
