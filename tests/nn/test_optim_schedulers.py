"""Learning-rate schedulers against PyTorch: the rates (and the momentum or
beta1 that CyclicLR and OneCycleLR cycle) of two parameter groups over a run,
the schedulers' state dicts, resuming from one, step(epoch), and the errors."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

import minigrad

torch = pytest.importorskip("torch")

EPOCHS = 14


def _schedulers(lib: Any, name: str, opt: Any) -> Any:
    s = lib.optim.lr_scheduler
    return {
        "constant": lambda: s.ConstantLR(opt, factor=0.5, total_iters=3),
        "linear": lambda: s.LinearLR(opt, start_factor=0.25, total_iters=4),
        "linear_down": lambda: s.LinearLR(
            opt, start_factor=1.0, end_factor=0.1, total_iters=6
        ),
        "polynomial": lambda: s.PolynomialLR(opt, total_iters=6, power=2.0),
        "multiplicative": lambda: s.MultiplicativeLR(opt, lambda e: 0.9),
        "warm_restarts": lambda: s.CosineAnnealingWarmRestarts(opt, T_0=3),
        "warm_restarts_mult": lambda: s.CosineAnnealingWarmRestarts(
            opt, T_0=2, T_mult=2, eta_min=0.01
        ),
        "cyclic": lambda: s.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3),
        "cyclic2": lambda: s.CyclicLR(
            opt,
            base_lr=[0.01, 0.02],
            max_lr=0.2,
            step_size_up=2,
            step_size_down=3,
            mode="triangular2",
        ),
        "cyclic_exp": lambda: s.CyclicLR(
            opt, 0.01, 0.1, step_size_up=2, mode="exp_range", gamma=0.9
        ),
        "cyclic_custom": lambda: s.CyclicLR(
            opt,
            0.01,
            0.1,
            step_size_up=2,
            scale_fn=lambda x: 0.5**x,
            scale_mode="iterations",
            cycle_momentum=False,
        ),  # fmt: skip
        "one_cycle": lambda: s.OneCycleLR(opt, max_lr=0.5, total_steps=EPOCHS + 1),
        "one_cycle_linear_3": lambda: s.OneCycleLR(
            opt,
            max_lr=[0.5, 0.3],
            epochs=3,
            steps_per_epoch=5,
            anneal_strategy="linear",
            three_phase=True,
            pct_start=0.25,
        ),  # fmt: skip
        "sequential": lambda: s.SequentialLR(
            opt,
            [s.LinearLR(opt, 0.1, total_iters=3), s.CosineAnnealingLR(opt, T_max=6)],
            milestones=[3],
        ),
        "sequential3": lambda: s.SequentialLR(
            opt,
            [
                s.ConstantLR(opt, 0.5, total_iters=2),
                s.ExponentialLR(opt, 0.8),
                s.StepLR(opt, 2, 0.5),
            ],
            milestones=[2, 7],
        ),
        "chained": lambda: s.ChainedScheduler(
            [s.ConstantLR(opt, 0.1, total_iters=3), s.ExponentialLR(opt, 0.9)]
        ),
        "chained_multistep": lambda: s.ChainedScheduler(
            [s.MultiStepLR(opt, [2, 5], 0.5), s.LinearLR(opt, 0.5, total_iters=4)],
            optimizer=opt,
        ),
    }[name]()


def _optimizer(lib: Any, adam: bool) -> Any:
    a, b = lib.nn.Parameter(lib.zeros(2)), lib.nn.Parameter(lib.zeros(1))
    groups = [{"params": [a]}, {"params": [b], "lr": 0.3}]
    if adam:
        return lib.optim.Adam(groups, lr=0.1)
    return lib.optim.SGD(groups, lr=0.1, momentum=0.9)


def _comparable(state: dict[str, Any]) -> dict[str, Any]:
    """A scheduler's state dict without functions (compared by behaviour)."""
    out = {}
    for k, v in state.items():
        if k == "_schedulers":
            v = [_comparable(s) for s in v]
        if not callable(v):
            out[k] = v
    return out


def _groups(opt: Any) -> list[dict[str, Any]]:
    return [{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups]


def _run(lib: Any, name: str, adam: bool) -> list:
    opt = _optimizer(lib, adam)
    sched = _schedulers(lib, name, opt)
    trace = [(sched.get_last_lr(), _groups(opt))]
    for _ in range(EPOCHS):
        opt.step()
        sched.step()
        trace.append((sched.get_last_lr(), _groups(opt)))
    trace.append(_comparable(sched.state_dict()))
    return trace


NAMES = [
    "constant", "linear", "linear_down", "polynomial", "multiplicative",
    "warm_restarts", "warm_restarts_mult", "cyclic", "cyclic2", "cyclic_exp",
    "cyclic_custom", "one_cycle", "one_cycle_linear_3", "sequential",
    "sequential3", "chained", "chained_multistep",
]  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_schedules_follow_pytorch(name: str) -> None:
    adam = name.startswith(("one_cycle", "cyclic2"))  # cycles betas[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # and neither warns
        mine, theirs = _run(minigrad, name, adam), _run(torch, name, adam)
    assert mine == theirs


@pytest.mark.parametrize(
    "name", ["linear", "polynomial", "warm_restarts_mult", "cyclic", "sequential"]
)
def test_resuming_from_a_state_dict_follows_pytorch(name: str) -> None:
    """Save optimizer and scheduler at epoch 5, load both into fresh ones,
    continue: the same rates as PyTorch's resumed run."""
    runs = []
    for lib in (minigrad, torch):
        opt = _optimizer(lib, False)
        sched = _schedulers(lib, name, opt)
        for _ in range(5):
            opt.step()
            sched.step()
        opt_sd, sched_sd = opt.state_dict(), sched.state_dict()
        opt2 = _optimizer(lib, False)
        sched2 = _schedulers(lib, name, opt2)
        sched2.load_state_dict(sched_sd)
        opt2.load_state_dict(opt_sd)
        lrs = []
        for _ in range(6):
            opt2.step()
            sched2.step()
            lrs.append(sched2.get_last_lr())
        runs.append((lrs, _comparable(sched2.state_dict())))
    assert runs[0] == runs[1]


def _plateau_run(lib: Any, kwargs: dict[str, Any], metrics: list[float]) -> list:
    opt = _optimizer(lib, False)
    sched = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, **kwargs)
    trace = []
    for m in metrics:
        opt.step()
        sched.step(lib.tensor(m) if m > 1.5 else m)  # a tensor metric is accepted
        trace.append((sched.get_last_lr(), sched.num_bad_epochs, sched.in_cooldown))
    trace.append(sched.state_dict())
    return trace


@pytest.mark.parametrize(
    "kwargs",
    [
        {"patience": 1},
        {"mode": "max", "factor": 0.5, "patience": 0, "cooldown": 2},
        {
            "threshold_mode": "abs",
            "threshold": 0.05,
            "patience": 1,
            "min_lr": [0.02, 0.1],
        },
        {"mode": "max", "threshold_mode": "abs", "patience": 0, "min_lr": 0.05},
    ],
)
def test_reduce_lr_on_plateau_follows_pytorch(kwargs: dict[str, Any]) -> None:
    metrics = [2.0, 1.9, 1.95, 1.96, 1.97, 1.0, 1.02, 1.01, 1.03, 1.04, 0.5, 0.51]
    mine = _plateau_run(minigrad, kwargs, metrics)
    theirs = _plateau_run(torch, kwargs, metrics)
    assert mine == theirs


def _closed_form_run(lib: Any) -> list:
    s = lib.optim.lr_scheduler
    out = []
    for make in (
        lambda o: s.StepLR(o, 2, 0.5),
        lambda o: s.MultiStepLR(o, [1, 3], 0.5),
        lambda o: s.ExponentialLR(o, 0.9),
        lambda o: s.CosineAnnealingLR(o, 5),
        lambda o: s.LinearLR(o, 0.2, total_iters=4),
        lambda o: s.PolynomialLR(o, 4),
        lambda o: s.ConstantLR(o, 0.5, 3),
        lambda o: s.CosineAnnealingWarmRestarts(o, 2, 2),
    ):
        opt = _optimizer(lib, False)
        sched = make(opt)
        opt.step()
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            for epoch in (3, 1, 6, 2.5):
                sched.step(epoch)
                out.append(sched.get_last_lr())
        out.append([str(w.message) for w in record])
    return out


def test_step_with_epoch_uses_the_closed_form_and_warns() -> None:
    mine, theirs = _closed_form_run(minigrad), _closed_form_run(torch)
    assert mine == theirs
    assert any(mine[4]) and not mine[-1]  # (warm restarts take epochs silently)


def test_get_lr_outside_step_warns() -> None:
    texts = []
    for lib in (minigrad, torch):
        sched = lib.optim.lr_scheduler.LinearLR(_optimizer(lib, False))
        with pytest.warns(UserWarning) as record:
            sched.get_lr()
        texts.append(str(record[0].message))
    assert texts[0] == texts[1]


def _error_cases(lib: Any) -> list:
    s = lib.optim.lr_scheduler
    opt = _optimizer(lib, False)
    other = _optimizer(lib, False)
    sgd = lib.optim.SGD([lib.nn.Parameter(lib.zeros(1))])  # no momentum option? it has
    rprop = lib.optim.Rprop([lib.nn.Parameter(lib.zeros(1))])
    return [
        lambda: s.ConstantLR(opt, factor=1.5),
        lambda: s.LinearLR(opt, start_factor=0),
        lambda: s.LinearLR(opt, end_factor=2),
        lambda: s.SequentialLR(opt, [], []),
        lambda: s.SequentialLR(opt, [s.StepLR(opt, 1)], [2]),
        lambda: s.SequentialLR(opt, [s.StepLR(other, 1), s.StepLR(opt, 1)], [2]),
        lambda: s.SequentialLR(opt, [s.ReduceLROnPlateau(opt), s.StepLR(opt, 1)], [2]),
        lambda: s.ChainedScheduler([]),
        lambda: s.ReduceLROnPlateau(opt, factor=1.0),
        lambda: s.ReduceLROnPlateau(opt, mode="best"),
        lambda: s.ReduceLROnPlateau(opt, threshold_mode="exact"),
        lambda: s.ReduceLROnPlateau(opt, min_lr=[0.1]),
        lambda: s.CyclicLR(opt, 0.01, 0.1, mode="sawtooth"),
        lambda: s.CyclicLR(rprop, 0.01, 0.1),
        lambda: s.CyclicLR(opt, [0.01], 0.1),
        lambda: s.CosineAnnealingWarmRestarts(opt, T_0=0),
        lambda: s.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=1.5),
        lambda: s.CosineAnnealingWarmRestarts(opt, T_0=2, eta_min="0"),
        lambda: s.OneCycleLR(opt, 0.1),
        lambda: s.OneCycleLR(opt, 0.1, total_steps=0),
        lambda: s.OneCycleLR(opt, 0.1, epochs=2, steps_per_epoch=0),
        lambda: s.OneCycleLR(opt, 0.1, total_steps=5, pct_start=1),
        lambda: s.OneCycleLR(opt, 0.1, total_steps=5, anneal_strategy="exp"),
        lambda: s.MultiplicativeLR(opt, [lambda e: 1.0, 0.5]),
        lambda: s.LambdaLR(opt, [lambda e: 1.0]),
        lambda: s.StepLR(sgd.param_groups, 1),
        lambda: s.StepLR(
            lib.optim.SGD([lib.nn.Parameter(lib.zeros(1))]), 1, last_epoch=3
        ),
    ]


def test_errors_match_pytorch() -> None:
    found = []
    for lib in (minigrad, torch):
        errors = []
        for case in _error_cases(lib):
            with pytest.raises(Exception) as info:
                case()
            errors.append((type(info.value).__name__, str(info.value)))
        found.append(errors)
    for mine, theirs in zip(*found):
        assert mine == (theirs[0], theirs[1].replace("torch", "minigrad"))


def test_one_cycle_refuses_to_step_past_its_end() -> None:
    messages = []
    for lib in (minigrad, torch):
        opt = _optimizer(lib, False)
        sched = lib.optim.lr_scheduler.OneCycleLR(opt, 0.1, total_steps=2)
        opt.step()
        sched.step()
        sched.step()
        with pytest.raises(ValueError) as info:
            sched.step()
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_old_base_class_name_and_custom_scheduler() -> None:
    runs = []
    for lib in (minigrad, torch):

        class Halving(lib.optim.lr_scheduler._LRScheduler):
            def get_lr(self) -> list[float]:
                return [base * 0.5**self.last_epoch for base in self.base_lrs]

        opt = _optimizer(lib, False)
        sched = Halving(opt)
        lrs = [sched.get_last_lr()]
        for _ in range(3):
            opt.step()
            sched.step()
            lrs.append(sched.get_last_lr())
        runs.append(lrs)
    assert runs[0] == runs[1]
