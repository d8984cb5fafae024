"""The rest of torch.optim against PyTorch: every optimizer and option runs the
same small problem in both libraries and the parameters and the whole
state_dict are compared after each step; plus LBFGS with a closure, errors,
flags refused as PyTorch refuses them on CPU, hooks, param groups and
state-dict round trips (also from PyTorch's own state dict)."""

from __future__ import annotations

import importlib
import warnings
from typing import Any

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

STEPS = 6
RNG = np.random.default_rng(3)
W0 = RNG.standard_normal(4)
M0 = RNG.standard_normal((2, 3))
A = RNG.standard_normal((5, 4))
Y = RNG.standard_normal(5)
C = RNG.standard_normal((2, 3))

CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "nadam": ("NAdam", {}),
    "nadam_wd": ("NAdam", {"lr": 1e-2, "weight_decay": 0.1, "momentum_decay": 1e-2}),
    "nadamw": (
        "NAdam",
        {"lr": 1e-2, "weight_decay": 0.1, "decoupled_weight_decay": True},
    ),
    "nadam_maximize": ("NAdam", {"maximize": True, "betas": (0.3, 0.9)}),
    "radam": ("RAdam", {"lr": 1e-2}),
    "radam_rectified": ("RAdam", {"lr": 1e-2, "betas": (0.9, 0.5)}),  # ρₜ > 5 soon
    "radamw": (
        "RAdam",
        {"weight_decay": 0.1, "decoupled_weight_decay": True, "maximize": True},
    ),
    "radam_wd": ("RAdam", {"weight_decay": 0.1, "betas": (0.8, 0.6)}),
    "adamax": ("Adamax", {}),
    "adamax_wd": ("Adamax", {"lr": 0.05, "weight_decay": 0.1, "betas": (0.3, 0.9)}),
    "adamax_maximize": ("Adamax", {"maximize": True, "foreach": True}),
    "adadelta": ("Adadelta", {}),
    "adadelta_opts": (
        "Adadelta",
        {"lr": 0.5, "rho": 0.5, "weight_decay": 0.1, "maximize": True},
    ),
    "rprop": ("Rprop", {}),
    "rprop_opts": (
        "Rprop",
        {"lr": 0.3, "etas": (0.3, 1.5), "step_sizes": (0.05, 0.4)},
    ),
    "rprop_maximize": ("Rprop", {"maximize": True}),
    "asgd": ("ASGD", {}),
    "asgd_averaging": (
        "ASGD",
        {"lr": 0.05, "lambd": 0.1, "alpha": 0.5, "t0": 2, "weight_decay": 0.1},
    ),
    "asgd_maximize": ("ASGD", {"maximize": True, "t0": 0}),
    "adafactor": ("Adafactor", {}),
    "adafactor_opts": (
        "Adafactor",
        {"lr": 0.05, "beta2_decay": -0.5, "eps": (1e-20, 1e-2), "d": 1.5},
    ),
    "adafactor_wd_maximize": (
        "Adafactor",
        {"weight_decay": 0.1, "maximize": True, "foreach": False},
    ),
    # the older optimizers' options
    "sgd_maximize_nesterov": (
        "SGD",
        {"lr": 0.05, "momentum": 0.9, "nesterov": True, "maximize": True},
    ),
    "sgd_dampening_wd": (
        "SGD",
        {"lr": 0.05, "momentum": 0.5, "dampening": 0.3, "weight_decay": 0.1},
    ),
    "sgd_fused": ("SGD", {"lr": 0.1, "momentum": 0.9, "fused": True}),
    "sgd_foreach": ("SGD", {"lr": 0.1, "momentum": 0.9, "foreach": True}),
    "adam_maximize_amsgrad": (
        "Adam",
        {"lr": 0.05, "amsgrad": True, "maximize": True, "weight_decay": 0.1},
    ),
    "adam_fused": ("Adam", {"lr": 0.05, "fused": True}),
    "adam_foreach": ("Adam", {"lr": 0.05, "foreach": True, "amsgrad": True}),
    "adamw_maximize": ("AdamW", {"lr": 0.05, "maximize": True, "fused": True}),
    "rmsprop_maximize": ("RMSprop", {"maximize": True, "momentum": 0.5}),
    "rmsprop_centered_foreach": ("RMSprop", {"centered": True, "foreach": True}),
    "adagrad_maximize_fused": (
        "Adagrad",
        {"lr": 0.1, "maximize": True, "fused": True, "lr_decay": 0.1},
    ),
}


def problem(lib: Any, dtype: Any) -> tuple[list[Any], Any]:
    """Two parameters and a loss whose gradient changes sign along the way."""
    w = lib.nn.Parameter(lib.tensor(W0).to(dtype))
    m = lib.nn.Parameter(lib.tensor(M0).to(dtype))
    a, y, c = (lib.tensor(v).to(dtype) for v in (A, Y, C))

    def loss() -> Any:
        r = a @ w - y
        return (r * r).sum() + 0.1 * (w**4).sum() + (m.sin() * c).sum()

    return [w, m], loss


def to_numpy(value: Any) -> Any:
    """A state value with tensors as (dtype name, array), for comparing."""
    if isinstance(value, (minigrad.Tensor, torch.Tensor)):
        return (str(value.dtype).split(".")[-1], value.detach().numpy())
    if isinstance(value, dict):
        return {k: to_numpy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(to_numpy(v) for v in value)
    return value


def assert_same(mine: Any, theirs: Any, tol: float, where: str = "") -> None:
    if (
        isinstance(theirs, tuple)
        and len(theirs) == 2
        and isinstance(theirs[1], np.ndarray)
    ):
        assert mine[0] == theirs[0], where  # the dtype
        np.testing.assert_allclose(
            mine[1], theirs[1], rtol=tol, atol=tol, err_msg=where
        )
    elif isinstance(theirs, dict):
        assert list(mine) == list(theirs), where  # same keys, same order
        for k in theirs:
            assert_same(mine[k], theirs[k], tol, f"{where}.{k}")
    elif isinstance(theirs, (list, tuple)):
        assert type(mine) is type(theirs) and len(mine) == len(theirs), where
        for i, (a, b) in enumerate(zip(mine, theirs)):
            assert_same(a, b, tol, f"{where}[{i}]")
    elif isinstance(theirs, float):
        assert mine == pytest.approx(theirs, rel=tol, abs=tol), where
    else:
        assert mine == theirs, where


def run(lib: Any, cls: str, kwargs: dict[str, Any], dtype: str, steps: int) -> list:
    params, loss = problem(lib, getattr(lib, dtype))
    opt = getattr(lib.optim, cls)(params, **kwargs)
    trace = []
    for _ in range(steps):
        opt.zero_grad()
        loss().backward()
        opt.step()
        trace.append(
            (
                [to_numpy(p) for p in params],
                to_numpy(opt.state_dict()),
                [p._version for p in params],
            )
        )
    return trace


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", list(CONFIGS))
def test_steps_and_state_follow_pytorch(name: str, dtype: str) -> None:
    cls, kwargs = CONFIGS[name]
    mine = run(minigrad, cls, kwargs, dtype, STEPS)
    theirs = run(torch, cls, kwargs, dtype, STEPS)
    tol = 1e-11 if dtype == "float64" else 2e-5
    moved = False
    for step, ((p_m, sd_m, v_m), (p_t, sd_t, v_t)) in enumerate(zip(mine, theirs)):
        assert_same(p_m, p_t, tol, f"step {step} params")
        assert_same(sd_m, sd_t, tol, f"step {step} state_dict")
        assert v_m == v_t, step  # as many in-place updates as PyTorch makes
        moved = moved or not np.allclose(p_t[0][1], W0)
    assert moved


def _lbfgs_run(lib: Any, kwargs: dict[str, Any], steps: int) -> list:
    params, loss = problem(lib, lib.float64)
    opt = lib.optim.LBFGS(params, **kwargs)

    def closure() -> Any:
        opt.zero_grad()
        out = loss()
        out.backward()
        return out

    trace = []
    for _ in range(steps):
        returned = opt.step(closure)
        trace.append(
            (
                returned.item(),
                [to_numpy(p) for p in params],
                to_numpy(opt.state_dict()),
            )
        )
    return trace


@pytest.mark.parametrize(
    "kwargs",
    [
        {"lr": 0.1},
        {"lr": 1, "max_iter": 5, "history_size": 3},
        {"line_search_fn": "strong_wolfe"},
        {"line_search_fn": "strong_wolfe", "max_iter": 4, "history_size": 2},
    ],
    ids=["fixed", "short_history", "strong_wolfe", "strong_wolfe_short"],
)
def test_lbfgs_follows_pytorch(kwargs: dict[str, Any]) -> None:
    mine, theirs = _lbfgs_run(minigrad, kwargs, 3), _lbfgs_run(torch, kwargs, 3)
    assert theirs[-1][0] < theirs[0][0]  # it minimises
    assert_same(mine, theirs, 1e-9)


def _quadratic_closure(opt: Any, w: Any) -> Any:
    def closure() -> Any:
        opt.zero_grad()
        out = ((w - 1) ** 2).sum()
        out.backward()
        return out

    return closure


def test_lbfgs_errors_and_repr() -> None:
    for lib in (minigrad, torch):
        w = lib.nn.Parameter(lib.zeros(2))
        with pytest.raises(ValueError, match="per-parameter options"):
            lib.optim.LBFGS(
                [{"params": [w]}, {"params": [lib.nn.Parameter(lib.ones(1))]}]
            )
        opt = lib.optim.LBFGS([w], line_search_fn="wolfe")
        with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
            opt.step(_quadratic_closure(opt, w))
    reprs = [
        repr(lib.optim.LBFGS([lib.nn.Parameter(lib.zeros(1))]))
        for lib in (minigrad, torch)
    ]
    assert reprs[0] == reprs[1]


def test_sparse_adam_refuses_dense_gradients() -> None:
    errors = []
    for lib in (minigrad, torch):
        w = lib.nn.Parameter(lib.ones(3))
        opt = lib.optim.SparseAdam([w], lr=0.1)
        (w * w).sum().backward()
        with pytest.raises(RuntimeError) as info:
            opt.step()
        errors.append((str(info.value), repr(opt), w.tolist(), len(opt.state)))
        with pytest.raises(ValueError) as info:
            lib.optim.SparseAdam([w], lr=0.0)
        errors.append(str(info.value))
    assert errors[:2] == errors[2:]


ERROR_CASES = [
    ("NAdam", {"momentum_decay": -1.0}),
    ("NAdam", {"betas": (1.0, 0.9)}),
    ("NAdam", {"lr": -0.1}),
    ("RAdam", {"eps": -1e-8}),
    ("RAdam", {"weight_decay": -1}),
    ("Adamax", {"betas": (0.9, 1.5)}),
    ("Adadelta", {"rho": 1.1}),
    ("Adadelta", {"eps": -1.0}),
    ("Rprop", {"etas": (1.2, 0.5)}),
    ("Rprop", {"lr": -1}),
    ("ASGD", {"weight_decay": -0.5}),
    ("LBFGS", {"lr": -1}),
    ("SparseAdam", {"eps": 0.0}),
    ("SparseAdam", {"betas": (0.9, -0.1)}),
    ("Adam", {"betas": (0, 0.9)}),
    ("Adam", {"fused": True, "foreach": True}),
    ("AdamW", {"fused": True, "differentiable": True}),
    ("SGD", {"fused": True, "foreach": True}),
    ("Adagrad", {"fused": True, "differentiable": True}),
    ("RMSprop", {"fused": True}),
    ("NAdam", {"fused": True}),
    ("SGD", {"capturable": True}),
    ("Adafactor", {"lr": -1.0}),
    ("Adafactor", {"beta2_decay": 0.5}),
    ("Adafactor", {"eps": (-1.0, 1e-3)}),
    ("Adafactor", {"eps": (None, -1.0)}),
    ("Adafactor", {"d": 0.5}),
    ("Adafactor", {"weight_decay": -0.5}),
]


@pytest.mark.parametrize(("cls", "kwargs"), ERROR_CASES)
def test_argument_errors_match_pytorch(cls: str, kwargs: dict[str, Any]) -> None:
    errors = []
    for lib in (minigrad, torch):
        with pytest.raises(Exception) as info:
            getattr(lib.optim, cls)([lib.nn.Parameter(lib.zeros(2))], **kwargs)
        errors.append(info.value)
    assert type(errors[0]) is type(errors[1])
    assert str(errors[0]) == str(errors[1]).replace("torch", "minigrad")


@pytest.mark.parametrize(
    "cls",
    [
        "Adam",
        "AdamW",
        "RMSprop",
        "NAdam",
        "RAdam",
        "Adamax",
        "Adadelta",
        "Rprop",
        "ASGD",
    ],
)
def test_capturable_is_refused_on_cpu_at_the_first_step(cls: str) -> None:
    errors = []
    for lib in (minigrad, torch):
        w = lib.nn.Parameter(lib.ones(2))
        opt = getattr(lib.optim, cls)([w], capturable=True)
        w.grad = lib.ones(2)
        with pytest.raises(AssertionError) as info:
            opt.step()
        errors.append((str(info.value), w.tolist()))
    assert errors[0] == errors[1]


def test_fused_needs_floating_parameters() -> None:
    errors = []
    for lib in (minigrad, torch):
        with pytest.raises(RuntimeError) as info:
            opt = lib.optim.SGD([lib.ones(2, dtype=lib.int64)], lr=0.1, fused=True)
            opt.param_groups[0]["params"][0].grad = lib.ones(2, dtype=lib.int64)
            opt.step()
        errors.append(str(info.value).replace("torch", "minigrad"))
    assert errors[0] == errors[1]


@pytest.mark.parametrize(
    ("cls", "kwargs"),
    [
        ("SGD", {"lr": 0.1, "momentum": 0.9}),
        ("Adam", {"lr": 0.1}),
        ("RMSprop", {"lr": 0.1, "centered": True}),
        ("NAdam", {"lr": 0.1}),
        ("Rprop", {"lr": 0.1}),
    ],
)
def test_differentiable_steps_are_recorded(cls: str, kwargs: dict[str, Any]) -> None:
    """differentiable=True: the update is part of the graph, so a loss after
    two steps can be differentiated back to the starting weights (a leaf that
    requires grad is refused, as in PyTorch)."""
    results = []
    for lib in (minigrad, torch):
        w0 = lib.tensor(W0, requires_grad=True)
        p = w0.clone()  # a non-leaf parameter, allowed with differentiable=True
        opt = getattr(lib.optim, cls)([p], differentiable=True, **kwargs)
        for _ in range(2):
            p.grad = (p * p * p).detach() + 0.5
            opt.step()
        (p * p).sum().backward()
        results.append((p.detach().numpy(), w0.grad.numpy()))
        leaf = lib.nn.Parameter(lib.ones(2))
        opt = getattr(lib.optim, cls)([leaf], differentiable=True, **kwargs)
        leaf.grad = lib.ones(2)
        with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
            opt.step()
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-12)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-10)


def test_reprs_match_pytorch() -> None:
    for cls, kwargs in CONFIGS.values():
        reprs = [
            repr(getattr(lib.optim, cls)([lib.nn.Parameter(lib.zeros(2))], **kwargs))
            for lib in (minigrad, torch)
        ]
        assert reprs[0] == reprs[1], cls
    reprs = [
        repr(lib.optim.SparseAdam([lib.nn.Parameter(lib.zeros(2))]))
        for lib in (minigrad, torch)
    ]
    assert reprs[0] == reprs[1]


def test_dir_lists_torch_optim_public_names() -> None:
    public = {n for n in dir(torch.optim) if not n.startswith("_")}
    missing = {"Muon"}
    assert set(dir(minigrad.optim)) == public - missing
    assert "Any" not in dir(minigrad.optim) and "Callable" not in dir(minigrad.optim)
    for name in sorted(missing):
        with pytest.raises(
            AttributeError, match=f"does not implement torch.optim.{name}"
        ):
            getattr(minigrad.optim, name)
    with pytest.raises(AttributeError, match="has no attribute 'Adamm'"):
        minigrad.optim.Adamm  # noqa: B018
    from minigrad.optim.optimizer import Optimizer

    assert Optimizer is minigrad.optim.Optimizer


def _trained(lib: Any, cls: str, kwargs: dict[str, Any], steps: int) -> tuple:
    params, loss = problem(lib, lib.float64)
    opt = getattr(lib.optim, cls)(params, **kwargs)
    for _ in range(steps):
        opt.zero_grad()
        loss().backward()
        opt.step()
    return params, loss, opt


@pytest.mark.parametrize(
    "name", ["nadam", "rprop", "asgd_averaging", "adam_maximize_amsgrad"]
)
def test_state_dict_round_trip_and_pytorch_state_loads(name: str) -> None:
    """A state dict from PyTorch, tensors turned into minigrad's, loads into
    minigrad's optimizer, which then continues exactly as PyTorch continues;
    and minigrad's own state dict round-trips into a fresh optimizer."""
    cls, kwargs = CONFIGS[name]
    t_params, t_loss, t_opt = _trained(torch, cls, kwargs, 3)
    t_sd = t_opt.state_dict()

    def convert(v: Any) -> Any:
        if isinstance(v, torch.Tensor):
            return minigrad.tensor(v.numpy(), dtype=getattr(minigrad, str(v.dtype)[6:]))
        if isinstance(v, dict):
            return {k: convert(x) for k, x in v.items()}
        return v

    m_params, m_loss = problem(minigrad, minigrad.float64)
    with minigrad.no_grad():
        for mp, tp in zip(m_params, t_params):
            mp.copy_(minigrad.tensor(tp.detach().numpy()))
    m_opt = getattr(minigrad.optim, cls)(m_params, **kwargs)
    m_opt.load_state_dict(convert(t_sd))
    t_opt = getattr(torch.optim, cls)(t_params, **kwargs)
    t_opt.load_state_dict(t_sd)  # (state tensors take the parameters' dtype)
    assert_same(to_numpy(m_opt.state_dict()), to_numpy(t_opt.state_dict()), 0)
    for opt, loss in ((m_opt, m_loss), (t_opt, t_loss)):
        for _ in range(2):
            opt.zero_grad()
            loss().backward()
            opt.step()
    assert_same(to_numpy(m_opt.state_dict()), to_numpy(t_opt.state_dict()), 1e-11)
    assert_same([to_numpy(p) for p in m_params], [to_numpy(p) for p in t_params], 1e-11)
    fresh = getattr(minigrad.optim, cls)(m_params, **kwargs)
    fresh.load_state_dict(m_opt.state_dict())
    assert_same(to_numpy(fresh.state_dict()), to_numpy(m_opt.state_dict()), 0)


def test_load_state_dict_casts_to_the_parameter_dtype_and_shares_like_pytorch() -> None:
    results = []
    for lib in (minigrad, torch):
        p64 = lib.nn.Parameter(lib.ones(2, dtype=lib.float64))
        opt = lib.optim.Adam([p64])
        p64.grad = lib.ones(2, dtype=lib.float64)
        opt.step()
        sd = opt.state_dict()
        sd["state"][0]["exp_avg"] = sd["state"][0]["exp_avg"].float()
        other = lib.optim.Adam([lib.nn.Parameter(lib.ones(2, dtype=lib.float64))])
        other.load_state_dict(sd)
        st = other.state_dict()["state"][0]
        results.append(
            (
                str(st["exp_avg"].dtype).split(".")[-1],
                str(st["step"].dtype).split(".")[-1],
                st["exp_avg_sq"] is opt.state[p64]["exp_avg_sq"],
                opt.state_dict()["state"][0] is opt.state[p64],
            )
        )
    assert results[0] == results[1]


def test_load_state_dict_errors_match_pytorch() -> None:
    errors = []
    for lib in (minigrad, torch):
        a, b = lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(1))
        sd = lib.optim.SGD([a, b], lr=0.1).state_dict()
        for opt in (
            lib.optim.SGD([{"params": [a]}, {"params": [b]}], lr=0.1),
            lib.optim.SGD([a], lr=0.1),
        ):
            with pytest.raises(ValueError) as info:
                opt.load_state_dict(sd)
            errors.append(str(info.value))
    assert errors[:2] == errors[2:]


def test_add_param_group_and_named_parameters() -> None:
    seen = []
    for lib in (minigrad, torch):
        net = lib.nn.Linear(2, 2)
        extra = lib.nn.Parameter(lib.zeros(3))
        opt = lib.optim.NAdam(net.named_parameters(), lr=0.1)
        opt.add_param_group({"params": [("extra", extra)], "lr": 0.5})
        groups = [
            {k: v for k, v in g.items() if k != "params"} for g in opt.param_groups
        ]
        sd_groups = opt.state_dict()["param_groups"]
        errors = []
        for bad in (
            {"params": [lib.nn.Parameter(lib.zeros(1))]},  # without names
            {"params": [("weight", net.weight)]},  # already in a group
            [extra],
            {"params": {extra}},
        ):
            with pytest.raises((ValueError, TypeError)) as info:
                opt.add_param_group(bad)
            errors.append((type(info.value).__name__, str(info.value)))
        seen.append((groups, sd_groups, errors))
    assert seen[0] == seen[1]


def test_required_option_must_be_given_by_each_group() -> None:
    from minigrad.optim.optimizer import required

    class Custom(minigrad.optim.Optimizer):
        def __init__(self, params: Any, lr: Any = required) -> None:
            super().__init__(params, {"lr": lr})

    assert repr(required) == "<required parameter>"
    with pytest.raises(ValueError, match="didn't specify a value of required.*lr"):
        Custom([minigrad.nn.Parameter(minigrad.zeros(1))])


def test_zero_grad_set_to_none_false() -> None:
    out = []
    for lib in (minigrad, torch):
        w = lib.nn.Parameter(lib.ones(2))
        opt = lib.optim.Rprop([w])
        (w * 3).sum().backward()
        opt.zero_grad(set_to_none=False)
        kept = w.grad.tolist()
        opt.zero_grad()
        out.append((kept, w.grad))
    assert out[0] == out[1] == ([0.0, 0.0], None)


def optimizer_module(lib: Any) -> Any:
    return importlib.import_module(lib.__name__ + ".optim.optimizer")


def test_step_hooks_in_pytorch_order() -> None:
    def one(lib: Any) -> Any:
        log: list[Any] = []
        w = lib.nn.Parameter(lib.ones(2))
        opt = lib.optim.Adadelta([w])

        def pre(o: Any, args: tuple, kwargs: dict) -> Any:
            log.append(("pre", type(o).__name__, len(args), dict(kwargs)))
            return (args, {"closure": lambda: log.append("closure") or 1.5})

        def post(o: Any, args: tuple, kwargs: dict) -> None:
            log.append(("post", sorted(kwargs)))

        glob = optimizer_module(lib).register_optimizer_step_pre_hook(
            lambda o, a, k: log.append("global pre")
        )
        h1, h2 = opt.register_step_pre_hook(pre), opt.register_step_post_hook(post)
        w.grad = lib.ones(2)
        log.append(opt.step())
        glob.remove()
        h1.remove()
        h2.remove()
        log.append(opt.step(lambda: 2.5))
        bad = opt.register_step_pre_hook(lambda o, a, k: 3)
        with pytest.raises(RuntimeError, match="must return None or a tuple"):
            opt.step()
        bad.remove()
        return log

    logs = [one(lib) for lib in (minigrad, torch)]
    assert logs[0] == logs[1]


def test_state_dict_hooks() -> None:
    def one(lib: Any) -> Any:
        log: list[Any] = []
        w = lib.nn.Parameter(lib.ones(2))
        opt = lib.optim.ASGD([w])
        opt.register_state_dict_pre_hook(lambda o: log.append("sd pre"))
        opt.register_state_dict_pre_hook(
            lambda o: log.append("sd pre first"), prepend=True
        )

        def post(o: Any, sd: dict) -> dict:
            log.append(("sd post", sorted(sd)))
            return {**sd, "extra": 1}

        opt.register_state_dict_post_hook(post)
        sd = opt.state_dict()
        log.append(sorted(sd))
        opt.register_load_state_dict_pre_hook(
            lambda o, sd: log.append(("load pre", sorted(sd)))
        )
        opt.register_load_state_dict_post_hook(lambda o: log.append("load post"))
        opt.load_state_dict(sd)
        return log

    logs = [one(lib) for lib in (minigrad, torch)]
    assert logs[0] == logs[1]


def test_custom_optimizer_subclass_from_a_tutorial() -> None:
    """The usual tutorial subclass: its own ``step`` under no_grad, per-parameter
    state; hooks run around it and schedulers see it was called."""

    def one(lib: Any) -> Any:

        class SignSGD(lib.optim.Optimizer):
            def __init__(self, params: Any, lr: float = 0.1) -> None:
                super().__init__(params, {"lr": lr})

            @lib.no_grad()
            def step(self, closure: Any = None) -> None:
                for group in self.param_groups:
                    for p in group["params"]:
                        if p.grad is not None:
                            self.state[p]["n"] = self.state[p].get("n", 0) + 1
                            p.add_(p.grad.sign(), alpha=-group["lr"])

        w = lib.nn.Parameter(lib.tensor([1.0, -2.0]))
        opt = SignSGD([w])
        calls: list[int] = []
        opt.register_step_post_hook(lambda o, a, k: calls.append(1))
        sched = lib.optim.lr_scheduler.StepLR(opt, 1, gamma=0.5)
        for _ in range(2):
            opt.zero_grad()
            (w * w).sum().backward()
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                opt.step()
                sched.step()
        return (w.tolist(), opt.state_dict()["state"], len(calls))

    results = [one(lib) for lib in (minigrad, torch)]
    assert results[0] == results[1]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize(
    ("cls", "kwargs"),
    [
        ("Adam", {"lr": 0.05, "betas": (0.8, 0.9)}),
        ("Adam", {"lr": 0.05, "amsgrad": True, "weight_decay": 0.1}),
        ("AdamW", {"lr": 0.05, "betas": (0.5, 0.99)}),
        ("AdamW", {"lr": 0.05, "weight_decay": 0.1}),
    ],
)
def test_adam_tensor_lr_and_betas_follow_pytorch(
    cls: str, kwargs: dict[str, Any], dtype: str
) -> None:
    """A tensor lr (and betas) is computed with as a float32 tensor, as in
    PyTorch: the step sizes carry its rounding."""

    def with_tensors(lib: Any) -> dict[str, Any]:
        out = dict(kwargs, lr=lib.tensor([kwargs["lr"]]))
        if "betas" in kwargs:
            out["betas"] = tuple(lib.tensor(b) for b in kwargs["betas"])
        return out

    params_m, loss_m = problem(minigrad, getattr(minigrad, dtype))
    params_t, loss_t = problem(torch, getattr(torch, dtype))
    opt_m = getattr(minigrad.optim, cls)(params_m, **with_tensors(minigrad))
    opt_t = getattr(torch.optim, cls)(params_t, **with_tensors(torch))
    tol = 1e-11 if dtype == "float64" else 2e-5
    if "betas" in kwargs:
        # the bias corrections are float32 powers of the betas, and float32
        # `pow` of minigrad's core can round the last bit otherwise than
        # PyTorch's (e.g. 0.99**3), which shows at float32 precision
        tol = max(tol, 1e-7)
    for _ in range(4):
        for opt, loss in ((opt_m, loss_m), (opt_t, loss_t)):
            opt.zero_grad()
            loss().backward()
            opt.step()
        assert_same(
            [to_numpy(p) for p in params_m], [to_numpy(p) for p in params_t], tol
        )
        assert_same(to_numpy(opt_m.state_dict()), to_numpy(opt_t.state_dict()), tol)
    assert repr(opt_m) == repr(opt_t)


def test_adam_tensor_hyperparameter_errors_match_pytorch() -> None:
    found = []
    for lib in (minigrad, torch):
        p = [lib.nn.Parameter(lib.zeros(2))]
        errors = []
        for kwargs in (
            {"betas": (lib.tensor(0.9), 0.99)},
            {"betas": (lib.tensor([0.9, 0.8]), lib.tensor(0.99))},
            {"betas": (lib.tensor(0.9), lib.tensor(0.99)), "foreach": True},
            {"lr": lib.tensor(0.1), "foreach": True},
            {"lr": lib.tensor([0.1, 0.2])},
        ):
            with pytest.raises(Exception) as info:
                lib.optim.Adam(p, **kwargs)
            errors.append((type(info.value).__name__, str(info.value)))
        found.append(errors)
    assert found[0] == found[1]


TENSOR_LR = [
    ("SGD", {"momentum": 0.9}),
    ("RMSprop", {"centered": True}),
    ("Adagrad", {}),
    ("NAdam", {"weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("RAdam", {"betas": (0.9, 0.5)}),
    ("Adamax", {}),
    ("Adadelta", {}),
    ("Rprop", {}),
    ("ASGD", {"t0": 1}),
    ("Adafactor", {"weight_decay": 0.1}),
    ("LBFGS", {"max_iter": 3}),
]


@pytest.mark.parametrize(("cls", "kwargs"), TENSOR_LR, ids=[c for c, _ in TENSOR_LR])
def test_tensor_lr_follows_pytorch(cls: str, kwargs: dict[str, Any]) -> None:
    """``lr=tensor([0.05])``: where PyTorch computes the step size with the
    (float32) tensor, minigrad does too."""
    traces = []
    for lib in (minigrad, torch):
        params, loss = problem(lib, lib.float64)
        opt = getattr(lib.optim, cls)(params, lr=lib.tensor([0.05]), **kwargs)
        closure = _quadratic_closure(opt, params[0]) if cls == "LBFGS" else None
        trace = []
        for _ in range(3):
            if closure is None:
                opt.zero_grad()
                loss().backward()
            opt.step(closure)
            trace.append(([to_numpy(p) for p in params], to_numpy(opt.state_dict())))
        traces.append(trace)
    assert_same(traces[0], traces[1], 1e-12)


def _swap_in_run(lib: Any) -> tuple:
    params, loss = problem(lib, lib.float64)
    opt = lib.optim.AdamW(params, lr=0.05)
    opt.zero_grad()
    loss().backward()
    opt.step()
    live_state = to_numpy(opt.state_dict())
    # a copy of the weights and of the state, stepped through the live optimizer
    copies = {f"p{i}": p.detach().clone() * 2 for i, p in enumerate(params)}
    sd = opt.state_dict()
    saved = {
        "state": {
            k: {n: v.clone() for n, v in s.items()} for k, s in sd["state"].items()
        },
        "param_groups": [dict(g, lr=0.1) for g in sd["param_groups"]],
    }
    for p in copies.values():
        p.grad = p * 0.5 + 1
    swap = lib.optim.swap_in_optimizer_params_and_state
    with swap(opt, copies, saved):
        inside = (opt.param_groups[0]["lr"], len(opt.state))
        opt.step()
    after = (opt.param_groups[0]["lr"], to_numpy(opt.state_dict()), live_state)
    errors = []
    fresh = lib.optim.SGD([lib.nn.Parameter(lib.zeros(1))], lr=0.1)
    bad_groups = {"state": sd["state"], "param_groups": sd["param_groups"] * 2}
    extra = {"state": {**sd["state"], 7: {}}, "param_groups": sd["param_groups"]}
    renamed = {
        "state": sd["state"],
        "param_groups": [dict(sd["param_groups"][0], momentum=0.9)],
    }
    for args in (
        (fresh, {}, sd),
        (opt, copies, bad_groups),
        (opt, copies, extra),
        (opt, copies, renamed),
        (opt, {"p0": copies["p0"]}, sd),
        (opt, copies, {"state": [], "param_groups": []}),
    ):
        with pytest.raises(RuntimeError) as info:
            with swap(*args):
                pass
        errors.append(str(info.value))
    return (
        [to_numpy(p) for p in copies.values()],
        to_numpy(saved),
        inside,
        after,
        errors,
    )


def test_swap_in_optimizer_params_and_state_follows_pytorch() -> None:
    mine, theirs = _swap_in_run(minigrad), _swap_in_run(torch)
    assert_same(mine, theirs, 1e-12)
    assert mine[2] == (0.1, 2)  # swapped in ...
    assert mine[3][0] == 0.05  # ... then restored, the live state untouched
    assert_same(mine[3][1], mine[3][2], 0)


def test_lbfgs_step_does_not_warn() -> None:
    """PyTorch reads the closure's loss under no_grad, so no 'requires_grad to
    a scalar' warning: nor does minigrad."""
    for lib in (minigrad, torch):
        w = lib.nn.Parameter(lib.zeros(2))
        opt = lib.optim.LBFGS([w], max_iter=3, line_search_fn="strong_wolfe")
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            opt.step(_quadratic_closure(opt, w))
