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


def test_small_cnn_follows_pytorch_step_for_step() -> None:
    """A small CNN (Conv2d, BatchNorm2d, MaxPool2d, grouped 'same' Conv2d, SiLU,
    AvgPool2d, LayerNorm, Linear) on 8x8 images, trained with AdamW and a StepLR
    schedule: minigrad's losses follow PyTorch's for 15 steps from the same
    weights."""
    import pytest

    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    images = rng.normal(size=(16, 1, 8, 8))
    labels = (images[:, 0, :4].mean((1, 2)) > images[:, 0, 4:].mean((1, 2))).astype(
        np.int64
    )

    def build(lib):
        nn_ = lib.nn
        return nn_.Sequential(
            nn_.Conv2d(1, 4, 3, padding=1),
            nn_.BatchNorm2d(4),
            nn_.ReLU(),
            nn_.MaxPool2d(2),
            nn_.Conv2d(4, 6, 3, stride=1, padding="same", groups=2),
            nn_.SiLU(),
            nn_.AvgPool2d(2),
            nn_.Flatten(),
            nn_.LayerNorm(24),
            nn_.Linear(24, 2),
        )

    init = {k: v.detach().numpy() for k, v in build(torch).state_dict().items()}
    curves = []
    for lib in (minigrad, torch):
        model = build(lib).double()
        model.load_state_dict({k: lib.tensor(v).double() for k, v in init.items()})
        opt = lib.optim.AdamW(model.parameters(), lr=0.01)
        sched = lib.optim.lr_scheduler.StepLR(opt, step_size=5, gamma=0.5)
        x, y = lib.tensor(images), lib.tensor(labels)
        losses = []
        for _ in range(15):
            opt.zero_grad()
            loss = lib.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            sched.step()
            losses.append(loss.item())
        curves.append(np.array(losses))
    np.testing.assert_allclose(curves[0], curves[1], rtol=1e-9, atol=1e-10)
    assert curves[1][-1] < curves[1][0]
