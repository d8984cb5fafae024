"""swa_utils against PyTorch: AveragedModel (equal-weight SWA, EMA through
``avg_fn`` and ``multi_avg_fn``, averaged buffers), update_bn and SWALR follow
PyTorch's values over a short training run."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(5)
X = RNG.standard_normal((4, 6, 3))  # 4 batches of 6
Y = RNG.standard_normal((4, 6, 2))


def _layers(lib: Any) -> Any:
    nn = lib.nn
    return nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Tanh(), nn.Linear(4, 2))


def _model(lib: Any, init: dict[str, np.ndarray]) -> Any:
    net = _layers(lib)
    net.load_state_dict({k: lib.tensor(v) for k, v in init.items()})
    return net.double()


def _init() -> dict[str, np.ndarray]:
    torch.manual_seed(0)
    net = _layers(torch)
    return {k: v.numpy().copy() for k, v in net.state_dict().items()}


def _averaging(lib: Any, how: str) -> dict[str, Any]:
    swa = lib.optim.swa_utils
    return {
        "swa": {},
        "ema_multi": {"multi_avg_fn": swa.get_ema_multi_avg_fn(0.8)},
        "ema": {"avg_fn": swa.get_ema_avg_fn(0.7)},
        "swa_fn": {"avg_fn": swa.get_swa_avg_fn()},
        "swa_multi": {"multi_avg_fn": swa.get_swa_multi_avg_fn()},
        "ema_multi_buffers": {
            "multi_avg_fn": swa.get_ema_multi_avg_fn(0.6),
            "use_buffers": True,
        },
        "swa_buffers": {"use_buffers": True},
    }[how]


def _run(lib: Any, how: str, init: dict[str, np.ndarray]) -> list:
    net = _model(lib, init)
    averaged = lib.optim.swa_utils.AveragedModel(net, **_averaging(lib, how))
    opt = lib.optim.SGD(net.parameters(), lr=0.1, momentum=0.5)
    sched = lib.optim.swa_utils.SWALR(opt, swa_lr=0.05, anneal_epochs=3)
    trace = []
    for x, y in zip(X, Y):
        opt.zero_grad()
        ((net(lib.tensor(x)) - lib.tensor(y)) ** 2).mean().backward()
        opt.step()
        averaged.update_parameters(net)
        sched.step()
        trace.append(
            (
                {
                    k: v.detach().numpy().copy()
                    for k, v in averaged.state_dict().items()
                },
                sched.get_last_lr(),
            )
        )
    loader = [(lib.tensor(x), lib.tensor(y)) for x, y in zip(X, Y)]
    averaged.eval()
    lib.optim.swa_utils.update_bn(loader, averaged)
    trace.append(
        (
            {k: v.detach().numpy().copy() for k, v in averaged.state_dict().items()},
            averaged.training,
            averaged.module[1].momentum,
            averaged(lib.tensor(X[0])).detach().numpy(),
        )
    )
    return trace


def _same(a: Any, b: Any) -> None:
    if isinstance(a, dict):
        assert list(a) == list(b)
        for k in a:
            _same(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    else:
        assert a == pytest.approx(b, rel=1e-12)


@pytest.mark.parametrize(
    "how",
    [
        "swa",
        "ema_multi",
        "ema",
        "swa_fn",
        "swa_multi",
        "ema_multi_buffers",
        "swa_buffers",
    ],
)
def test_averaged_model_update_bn_and_swalr_follow_pytorch(how: str) -> None:
    init = _init()
    _same(_run(minigrad, how, init), _run(torch, how, init))


@pytest.mark.parametrize("strategy", ["cos", "linear"])
@pytest.mark.parametrize("anneal_epochs", [0, 1, 4])
def test_swalr_rates_and_state_dict(strategy: str, anneal_epochs: int) -> None:
    runs = []
    for lib in (minigrad, torch):
        p = lib.nn.Parameter(lib.zeros(1))
        opt = lib.optim.SGD([{"params": [p]}, {"params": []}], lr=0.5)
        sched = lib.optim.swa_utils.SWALR(
            opt,
            swa_lr=[0.05, 0.2],
            anneal_epochs=anneal_epochs,
            anneal_strategy=strategy,
        )
        lrs = [sched.get_last_lr()]
        for _ in range(6):
            opt.step()
            sched.step()
            lrs.append(sched.get_last_lr())
        state = {k: v for k, v in sched.state_dict().items()}
        runs.append((lrs, state))
    assert runs[0] == runs[1]


def _error_cases(lib: Any) -> list:
    swa = lib.optim.swa_utils
    opt = lib.optim.SGD([lib.nn.Parameter(lib.zeros(1))], lr=0.1)

    def swa_of_integer_buffers() -> None:
        net = _layers(lib)
        averaged = swa.AveragedModel(
            net, multi_avg_fn=swa.get_swa_multi_avg_fn(), use_buffers=True
        )
        for _ in range(2):
            averaged.update_parameters(net)

    return [
        lambda: swa.get_ema_multi_avg_fn(1.5),
        lambda: swa.get_ema_avg_fn(-0.1),
        lambda: swa.AveragedModel(
            lib.nn.Linear(1, 1),
            avg_fn=swa.get_swa_avg_fn(),
            multi_avg_fn=swa.get_swa_multi_avg_fn(),
        ),
        lambda: swa.SWALR(opt, 0.05, anneal_strategy="exp"),
        lambda: swa.SWALR(opt, 0.05, anneal_epochs=-1),
        lambda: swa.SWALR(opt, [0.05, 0.1]),
        swa_of_integer_buffers,
    ]


def test_errors_and_repr_match_pytorch() -> None:
    found = []
    for lib in (minigrad, torch):
        errors = []
        for case in _error_cases(lib):
            with pytest.raises(Exception) as info:
                case()
            errors.append((type(info.value).__name__, str(info.value)))
        averaged = lib.optim.swa_utils.AveragedModel(
            lib.nn.Sequential(lib.nn.Linear(2, 1))
        )
        found.append((errors, repr(averaged), averaged.n_averaged.item()))
    assert found[0] == found[1]
