"""A lesson-sized model: a 2-layer MLP learns two interleaved moons (made with
numpy) to at least 95% accuracy with minigrad alone."""

from __future__ import annotations

import numpy as np

import minigrad
import minigrad.nn as nn
import minigrad.nn.functional as F
from minigrad import optim


def two_moons(n: int, noise: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    half = n // 2
    t = rng.uniform(0, np.pi, half)
    upper = np.stack([np.cos(t), np.sin(t)], 1)
    lower = np.stack([1 - np.cos(t), 0.5 - np.sin(t)], 1)
    x = np.concatenate([upper, lower]) + rng.normal(0, noise, (2 * half, 2))
    y = np.concatenate([np.zeros(half), np.ones(half)]).astype(np.int64)
    return x.astype(np.float32), y


def test_mlp_learns_two_moons() -> None:
    minigrad.manual_seed(0)
    x_np, y_np = two_moons(400, noise=0.1, seed=0)
    x, y = minigrad.tensor(x_np), minigrad.tensor(y_np)
    model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = optim.Adam(model.parameters(), lr=0.02)
    for _ in range(300):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    model.eval()
    with minigrad.no_grad():
        x_test, y_test = two_moons(400, noise=0.1, seed=1)
        pred = model(minigrad.tensor(x_test)).numpy().argmax(1)
    accuracy = (pred == y_test).mean()
    assert loss.item() < 0.2
    assert accuracy >= 0.95, accuracy
