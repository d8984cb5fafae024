"""Optimizers against PyTorch: the same model, started from the same weights,
follows PyTorch's loss curve step for step; plus reprs, state and versions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

STEPS = 20

OPTIMIZERS = {
    "sgd": ("SGD", {"lr": 0.1}),
    "sgd_momentum_wd": ("SGD", {"lr": 0.05, "momentum": 0.9, "weight_decay": 1e-2}),
    "sgd_nesterov": ("SGD", {"lr": 0.05, "momentum": 0.8, "nesterov": True}),
    "sgd_dampening_maximize": (
        "SGD",
        {"lr": 0.05, "momentum": 0.5, "dampening": 0.3, "maximize": False},
    ),
    "adam": ("Adam", {"lr": 1e-2}),
    "adam_wd": ("Adam", {"lr": 1e-2, "weight_decay": 1e-2, "betas": (0.8, 0.99)}),
    "adam_amsgrad": ("Adam", {"lr": 2e-2, "amsgrad": True}),
    "adam_low_beta1": ("Adam", {"lr": 1e-2, "betas": (0.3, 0.9)}),  # the other lerp
    "adamw_style": (
        "Adam",
        {"lr": 1e-2, "weight_decay": 0.1, "decoupled_weight_decay": True},
    ),
    "adamw": ("AdamW", {"lr": 1e-2}),
    "adamw_amsgrad": ("AdamW", {"lr": 1e-2, "weight_decay": 0.05, "amsgrad": True}),
    "rmsprop": ("RMSprop", {"lr": 1e-2}),
    "rmsprop_centered": (
        "RMSprop",
        {
            "lr": 5e-3,
            "alpha": 0.9,
            "momentum": 0.5,
            "centered": True,
            "weight_decay": 1e-2,
        },
    ),
    "adagrad": ("Adagrad", {"lr": 5e-2}),
    "adagrad_decay": (
        "Adagrad",
        {
            "lr": 5e-2,
            "lr_decay": 0.01,
            "weight_decay": 1e-2,
            "initial_accumulator_value": 0.1,
        },
    ),
}


def model(lib: Any, n_out: int) -> Any:
    nn = lib.nn
    return nn.Sequential(
        nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, n_out)
    )


def data(loss: str) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 3))
    if loss == "mse":
        return x, np.stack([np.sin(x[:, 0]) + x[:, 1], x[:, 2] ** 2], 1)
    return x, (x[:, 0] + x[:, 1] * x[:, 2] > 0).astype(np.int64) + (x[:, 2] > 1)


def loss_curve(lib: Any, loss: str, opt_name: str, dtype: Any, init: dict) -> tuple:
    torch.manual_seed(0)
    net = model(lib, 2 if loss == "mse" else 3)
    net.load_state_dict({k: lib.tensor(v) for k, v in init.items()})
    net.to(dtype)
    x, y = data(loss)
    x = lib.tensor(x).to(dtype)
    y = lib.tensor(y).to(dtype) if loss == "mse" else lib.tensor(y)
    cls, kwargs = OPTIMIZERS[opt_name]
    opt = getattr(lib.optim, cls)(net.parameters(), **kwargs)
    criterion = lib.nn.MSELoss() if loss == "mse" else lib.nn.CrossEntropyLoss()
    losses = []
    for _ in range(STEPS):
        opt.zero_grad()
        out = criterion(net(x), y)
        out.backward()
        opt.step()
        losses.append(out.item())
    params = [p.detach().numpy().astype(np.float64) for p in net.parameters()]
    versions = [p._version for p in net.parameters()]
    return np.array(losses), params, versions


MAX_DIFF: dict[str, float] = {}


@pytest.mark.parametrize("loss", ["mse", "cross_entropy"])
@pytest.mark.parametrize("opt_name", list(OPTIMIZERS))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_loss_curve_follows_pytorch(dtype: str, opt_name: str, loss: str) -> None:
    init = {
        k: v.numpy()
        for k, v in model(torch, 2 if loss == "mse" else 3).state_dict().items()
    }
    mine, p_mine, v_mine = loss_curve(
        minigrad, loss, opt_name, getattr(minigrad, dtype), init
    )
    theirs, p_theirs, v_theirs = loss_curve(
        torch, loss, opt_name, getattr(torch, dtype), init
    )
    diff = float(np.abs(mine - theirs).max())
    MAX_DIFF[f"{dtype}-{opt_name}-{loss}"] = diff
    tol = 1e-10 if dtype == "float64" else 1e-4
    assert diff <= tol, (mine, theirs)
    assert theirs[-1] < theirs[0]  # the run actually trains
    for a, b in zip(p_mine, p_theirs):
        np.testing.assert_allclose(a, b, rtol=tol * 10, atol=tol * 10)
    assert v_mine == v_theirs  # one in-place update per step, as in PyTorch


def test_reprs() -> None:
    for cls, kwargs in OPTIMIZERS.values():
        mine = getattr(minigrad.optim, cls)(
            [minigrad.nn.Parameter(minigrad.zeros(2))], **kwargs
        )
        theirs = getattr(torch.optim, cls)(
            [torch.nn.Parameter(torch.zeros(2))], **kwargs
        )
        assert repr(mine) == repr(theirs)


def test_param_groups_and_state() -> None:
    net = model(minigrad, 2)
    opt = minigrad.optim.SGD(
        [{"params": net[0].parameters(), "lr": 0.5}, {"params": net[2].parameters()}],
        lr=0.1,
        momentum=0.9,
    )
    assert [g["lr"] for g in opt.param_groups] == [0.5, 0.1]
    assert opt.param_groups[1]["momentum"] == 0.9
    net(minigrad.randn(4, 3)).sum().backward()
    opt.step()
    # the last layer got no gradient (its group is absent): no state for it
    assert set(map(id, opt.state)) == {
        id(p) for p in list(net[0].parameters()) + list(net[2].parameters())
    }
    buf = opt.state[net[0].weight]["momentum_buffer"]
    assert buf.shape == net[0].weight.shape and not buf.requires_grad
    adam = minigrad.optim.Adam(net.parameters())
    net(minigrad.randn(4, 3)).sum().backward()
    adam.step()
    st = adam.state[net[0].weight]
    assert sorted(st) == ["exp_avg", "exp_avg_sq", "step"]
    assert repr(st["step"]) == "tensor(1.)"
    sd = adam.state_dict()
    assert sorted(sd) == ["param_groups", "state"] and sd["param_groups"][0][
        "params"
    ] == list(range(6))
    adam.zero_grad()
    assert all(p.grad is None for p in net.parameters())


def test_argument_errors_match_pytorch() -> None:
    p_mg, p_th = (
        minigrad.nn.Parameter(minigrad.zeros(2)),
        torch.nn.Parameter(torch.zeros(2)),
    )
    cases = [
        ("SGD", lambda p: [p], {"lr": -1}),
        ("SGD", lambda p: [p], {"lr": 0.1, "nesterov": True}),
        ("SGD", lambda p: [], {"lr": 0.1}),
        ("SGD", lambda p: p, {"lr": 0.1}),
        ("SGD", lambda p: [p * 2], {"lr": 0.1}),
        ("Adam", lambda p: [p], {"betas": (0.9, 1.0)}),
        ("Adam", lambda p: [p], {"eps": -1.0}),
        ("AdamW", lambda p: [p], {"weight_decay": -0.1}),
        ("RMSprop", lambda p: [p], {"alpha": -1}),
        ("RMSprop", lambda p: [p], {"momentum": -0.5}),
        ("Adagrad", lambda p: [p], {"lr_decay": -0.1}),
        ("Adagrad", lambda p: [p], {"initial_accumulator_value": -1.0}),
    ]
    for cls, params, kwargs in cases:
        errors = []
        for lib, p in ((minigrad, p_mg), (torch, p_th)):
            with pytest.raises(Exception) as info:
                getattr(lib.optim, cls)(params(p), **kwargs)
            errors.append(info.value)
        assert type(errors[0]) is type(errors[1])
        assert str(errors[0]) == str(errors[1]).replace("torch", "minigrad")


def test_step_with_closure_and_no_grad_params() -> None:
    w = minigrad.nn.Parameter(minigrad.tensor([1.0, -2.0]))
    frozen = minigrad.nn.Parameter(minigrad.tensor([3.0]))
    opt = minigrad.optim.SGD([w, frozen], lr=0.5)

    def closure() -> minigrad.Tensor:
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    assert opt.step(closure).item() == 5.0
    assert w.tolist() == [0.0, 0.0] and frozen.tolist() == [3.0]
    assert w.is_leaf and w.grad_fn is None


SCHEDULERS = {
    "step": ("StepLR", {"step_size": 2, "gamma": 0.5}),
    "multistep": ("MultiStepLR", {"milestones": [1, 3, 3], "gamma": 0.1}),
    "exponential": ("ExponentialLR", {"gamma": 0.9}),
    "cosine": ("CosineAnnealingLR", {"T_max": 3}),
    "cosine_eta": ("CosineAnnealingLR", {"T_max": 4, "eta_min": 0.01}),
    "lambda": ("LambdaLR", {"lr_lambda": lambda e: 1 / (e + 1)}),
}


@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_lr_schedulers_follow_pytorch(name: str) -> None:
    """The learning rates over 9 epochs (two groups), as PyTorch sets them."""
    cls, kwargs = SCHEDULERS[name]
    runs = []
    for lib in (minigrad, torch):
        a, b = lib.nn.Parameter(lib.zeros(2)), lib.nn.Parameter(lib.zeros(1))
        opt = lib.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.3}], lr=0.1)
        sched = getattr(lib.optim.lr_scheduler, cls)(opt, **kwargs)
        lrs = [sched.get_last_lr()]
        for _ in range(9):
            opt.step()
            sched.step()
            lrs.append(sched.get_last_lr())
        groups = [
            {k: v for k, v in g.items() if k != "params"} for g in opt.param_groups
        ]
        runs.append((lrs, sched.last_epoch, groups))
    assert runs[0] == runs[1]


def test_lr_scheduler_order_warning() -> None:
    """scheduler.step() before any optimizer.step() warns, as in PyTorch."""
    texts = []
    for lib in (minigrad, torch):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.zeros(1))], lr=0.1)
        sched = lib.optim.lr_scheduler.StepLR(opt, 1)
        with pytest.warns(UserWarning) as record:
            sched.step()
        texts.append([str(w.message) for w in record])
        assert [w.filename for w in record] == [__file__]
    assert texts[0] == texts[1]
