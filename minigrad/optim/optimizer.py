"""``minigrad.optim.optimizer``: the ``Optimizer`` base class (parameter groups,
per-parameter state, state dicts, step and state-dict hooks) and the helpers the
optimizers share. Each optimizer follows the single-tensor code path PyTorch
takes on CPU, updating parameters in place under ``no_grad`` (or with autograd
on, for ``differentiable=True``) so their ``_version`` counts the steps."""

from __future__ import annotations

import functools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable
from copy import deepcopy
from itertools import chain
from typing import Any

from .. import grad_mode
from .._tensor import Tensor
from .._views_inplace import bump_version
from ..creation import tensor
from ..nn.module import typename as _typename
from ..nn.module import zero_grads
from ..utils.hooks import RemovableHandle

__all__ = [
    "Optimizer",
    "register_optimizer_step_post_hook",
    "register_optimizer_step_pre_hook",
]

ParamsT = Iterable[Tensor] | Iterable[dict[str, Any]] | Iterable[tuple[str, Tensor]]

_global_optimizer_pre_hooks: OrderedDict[int, Callable] = OrderedDict()
_global_optimizer_post_hooks: OrderedDict[int, Callable] = OrderedDict()

# PyTorch's lists of device types, as its messages print them.
_CAPTURABLE_DEVICES = ["cuda", "xpu", "hpu", "privateuseone", "xla"]
_FUSED_DEVICES = ["mps", "cuda", "xpu", "hpu", "cpu", "mtia", "privateuseone"]


class _RequiredParameter:
    """Marks an option a parameter group must give (``optimizer.required``)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


def register_optimizer_step_pre_hook(hook: Callable) -> RemovableHandle:
    """A hook run before every optimizer's ``step``:
    ``hook(optimizer, args, kwargs) -> None or (new_args, new_kwargs)``."""
    return RemovableHandle.add(_global_optimizer_pre_hooks, hook)


def register_optimizer_step_post_hook(hook: Callable) -> RemovableHandle:
    """A hook run after every optimizer's ``step``:
    ``hook(optimizer, args, kwargs)``."""
    return RemovableHandle.add(_global_optimizer_post_hooks, hook)


def _hooked_step(step: Callable) -> Callable:
    """``step`` wrapped to run the step hooks around it (PyTorch patches each
    optimizer class's ``step`` so, when the first instance is made)."""

    @functools.wraps(step)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        self = args[0]
        for pre_hook in chain(
            _global_optimizer_pre_hooks.values(),
            self._optimizer_step_pre_hooks.values(),
        ):
            result = pre_hook(self, args, kwargs)
            if result is not None:
                if isinstance(result, tuple) and len(result) == 2:
                    args, kwargs = result
                else:
                    raise RuntimeError(
                        f"{step} must return None or a tuple of (new_args, "
                        f"new_kwargs), but got {result}."
                    )
        out = step(*args, **kwargs)
        self._opt_called = True  # (a learning-rate scheduler checks the order)
        for post_hook in chain(
            self._optimizer_step_post_hooks.values(),
            _global_optimizer_post_hooks.values(),
        ):
            post_hook(self, args, kwargs)
        return out

    wrapper.hooked = True  # type: ignore[attr-defined]
    return wrapper


class Optimizer:
    """Holds ``param_groups`` (dicts: ``params`` plus options, defaults filled in)
    and per-parameter ``state``; subclasses implement ``step``."""

    def __init__(self, params: ParamsT, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self._optimizer_step_pre_hooks: OrderedDict[int, Callable] = OrderedDict()
        self._optimizer_step_post_hooks: OrderedDict[int, Callable] = OrderedDict()
        self._optimizer_state_dict_pre_hooks: OrderedDict[int, Callable] = OrderedDict()
        self._optimizer_state_dict_post_hooks: OrderedDict[int, Callable] = (
            OrderedDict()
        )
        self._optimizer_load_state_dict_pre_hooks: OrderedDict[int, Callable] = (
            OrderedDict()
        )
        self._optimizer_load_state_dict_post_hooks: OrderedDict[int, Callable] = (
            OrderedDict()
        )
        self._patch_step_function()
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of "
                "Tensors or dicts, but got " + _typename(params)
            )
        self.state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def _patch_step_function(self) -> None:
        cls = type(self)
        if not getattr(cls.step, "hooked", False):
            cls.step = _hooked_step(cls.step)  # type: ignore[method-assign]

    def __getstate__(self) -> dict[str, Any]:
        return {
            "defaults": self.defaults,
            "state": self.state,
            "param_groups": self.param_groups,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        for name in (
            "_optimizer_step_pre_hooks",
            "_optimizer_step_post_hooks",
            "_optimizer_state_dict_pre_hooks",
            "_optimizer_state_dict_post_hooks",
            "_optimizer_load_state_dict_pre_hooks",
            "_optimizer_load_state_dict_post_hooks",
        ):
            self.__dict__.setdefault(name, OrderedDict())
        self._patch_step_function()
        self.defaults.setdefault("differentiable", False)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters (with its own options) to optimize."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, "
                "but the ordering of tensors in sets will change between runs. "
                "Please use a list instead."
            )
        params = list(params)
        names = [p[0] for p in params if isinstance(p, tuple)]  # named_parameters()
        params = [p[1] if isinstance(p, tuple) else p for p in params]
        param_group["params"] = params
        if names:
            if len(names) != len(params):
                raise ValueError(
                    "all optimizer params should be with/without names. Some param "
                    "names are missing"
                )
            param_group["param_names"] = names
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is "
                    + _typename(p)
                )
            if not self.defaults.get("differentiable", None) and not (
                p.is_leaf or p.retains_grad
            ):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    "parameter group didn't specify a value of required optimization "
                    f"parameter {name}"
                )
            param_group.setdefault(name, default)
        if len(params) != len({id(p) for p in params}):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; in "
                "future, this will cause an error; see "
                "github.com/pytorch/pytorch/issues/40967 for more information",
                stacklevel=3,
            )
        seen: set[int] = set()
        for group in self.param_groups:
            seen.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = (
                    "with names" if "param_names" in param_group else "without names"
                )
                raise ValueError(
                    "all optimizer param groups should be with/without names. "
                    f"cannot add param group {which} to the optimizer"
                )
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget every parameter's gradient (or zero it in place)."""
        params = (p for group in self.param_groups for p in group["params"])
        zero_grads(params, set_to_none)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update the parameters (each optimizer implements it)."""
        raise NotImplementedError

    def register_step_pre_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(optimizer, args, kwargs) -> None or (new_args, new_kwargs)``,
        run before this optimizer's ``step``."""
        return RemovableHandle.add(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(optimizer, args, kwargs)``, run after this optimizer's ``step``."""
        return RemovableHandle.add(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(
        self, hook: Callable, prepend: bool = False
    ) -> RemovableHandle:
        """``hook(optimizer)``, run before ``state_dict()``."""
        return _add_hook(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(
        self, hook: Callable, prepend: bool = False
    ) -> RemovableHandle:
        """``hook(optimizer, state_dict) -> state_dict or None``, run after
        ``state_dict()``."""
        return _add_hook(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(
        self, hook: Callable, prepend: bool = False
    ) -> RemovableHandle:
        """``hook(optimizer, state_dict) -> state_dict or None``, run before
        ``load_state_dict()``."""
        return _add_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(
        self, hook: Callable, prepend: bool = False
    ) -> RemovableHandle:
        """``hook(optimizer)``, run after ``load_state_dict()``."""
        return _add_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    def state_dict(self) -> dict[str, Any]:
        """``{"state": ..., "param_groups": ...}`` with each parameter replaced by
        its index (in group order); the state's tensors are shared, not copied,
        as in PyTorch."""
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)
        index: dict[int, int] = {}
        groups = []
        start = 0
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start):
                index.setdefault(id(p), i)
            packed["params"] = [index[id(p)] for p in group["params"]]
            start += len(packed["params"])
            groups.append(packed)
        state = {
            (index[id(k)] if isinstance(k, Tensor) else k): v
            for k, v in self.state.items()
        }
        state_dict: dict[str, Any] = {"state": state, "param_groups": groups}
        for post_hook in self._optimizer_state_dict_post_hooks.values():
            result = post_hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take the options and state of ``state_dict`` (from ``state_dict()``),
        matching parameters by position; state tensors are cast to their
        parameter's floating dtype (a step count is left as it is)."""
        state_dict = state_dict.copy()
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = pre_hook(self, state_dict)
            if result is not None:
                state_dict = result
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError(
                "loaded state dict has a different number of parameter groups"
            )
        if any(
            len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)
        ):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match "
                "the size of optimizer's group"
            )
        id_map = dict(
            zip(
                chain.from_iterable(g["params"] for g in saved_groups),
                chain.from_iterable(g["params"] for g in groups),
            )
        )
        state: defaultdict[Any, Any] = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                fused = _group_of(k, state_dict["param_groups"])
                state[param] = _cast(param, v, fused)
            else:
                state[k] = v
        new_groups = []
        for group, saved in zip(groups, saved_groups):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:
                saved["param_names"] = group["param_names"]
            new_groups.append(saved)
        self.__setstate__({"state": state, "param_groups": new_groups})
        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _add_hook(hooks: OrderedDict, hook: Callable, prepend: bool) -> RemovableHandle:
    handle = RemovableHandle.add(hooks, hook)
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


def _group_of(param_id: Any, groups: list[dict[str, Any]]) -> bool:
    """Whether the saved group holding ``param_id`` keeps its step as float32
    (``fused`` or ``capturable``)."""
    for group in groups:
        if param_id in group["params"]:
            return bool(group.get("fused", False) or group.get("capturable", False))
    return False


def _cast(param: Tensor, value: Any, keep_f32_step: bool, key: Any = None) -> Any:
    """PyTorch's loading rule: state tensors take the parameter's dtype if it is
    floating; ``step`` keeps its own (float32 for fused or capturable groups);
    containers are rebuilt, tensors not copied when nothing changes."""
    if isinstance(value, Tensor):
        if key == "step":
            return value.float() if keep_f32_step else value
        return value.to(param.dtype) if param.is_floating_point() else value
    if isinstance(value, dict):
        return {k: _cast(param, v, keep_f32_step, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(param, v, keep_f32_step) for v in value)
    return value


class _PerParameterOptimizer(Optimizer):
    """An optimizer whose step updates each parameter with a gradient on its
    own (``_update``), in group order, as PyTorch's single-tensor path does."""

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; ``closure`` (optional)
        recomputes and returns the loss first."""
        loss = None
        if closure is not None:
            with grad_mode.enable_grad():
                loss = closure()
        # autograd records the update only for differentiable=True, as in PyTorch
        with grad_mode.set_grad_enabled(bool(self.defaults.get("differentiable"))):
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        state = self.state[p]
                        if group.get("capturable"):
                            _refuse_capturable(type(self).__name__)
                        version = p._vc.value
                        self._update(p, p.grad, group, state)
                        if group.get("fused"):
                            # a fused kernel writes the memory behind autograd's
                            # back: PyTorch's version counter does not move
                            p._vc.value = version
        return loss

    def _update(
        self, p: Tensor, grad: Tensor, group: dict[str, Any], state: dict[str, Any]
    ) -> None:
        raise NotImplementedError


def _refuse_capturable(name: str) -> None:
    """CPU tensors cannot be captured: PyTorch's check at the first step."""
    what = {
        "NAdam": "params, mu_products and state_steps",
        "ASGD": "params, mus, etas, and state_steps",
    }.get(name, "params and state_steps")
    devices = _CAPTURABLE_DEVICES[:-1] if name == "Adadelta" else _CAPTURABLE_DEVICES
    raise AssertionError(
        f"If capturable=True, {what} must be on supported devices: {devices}."
    )


def _check_fused(defaults: dict[str, Any], params: Iterable[Tensor]) -> None:
    """The ``fused=True`` checks of SGD, Adam(W) and Adagrad (fused kernels exist
    for CPU; minigrad runs the same update rule)."""
    if not defaults.get("fused"):
        return
    if defaults["differentiable"]:
        raise RuntimeError("`fused` does not support `differentiable`")
    if defaults["foreach"]:
        raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
    for p in params:
        if not p.is_floating_point():
            raise RuntimeError(
                "`fused=True` requires all the params to be floating point Tensors "
                f"of supported devices: {_FUSED_DEVICES} but {p.dtype} and cpu"
            )


def _check_lr(lr: float | Tensor) -> None:
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def _check_betas(betas: tuple[float, float]) -> None:
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")


def _non_negative(*options: tuple[str, float]) -> None:
    """PyTorch's ``Invalid <what>: <value>`` for the first negative option."""
    for what, value in options:
        if not 0.0 <= value:
            raise ValueError(f"Invalid {what}: {value}")


def _to_scalar(x: Any) -> Any:
    """A one-element tensor hyperparameter as a 0-d tensor (PyTorch keeps
    computing with it as a tensor, in its dtype)."""
    return x.squeeze() if isinstance(x, Tensor) and x.dim() != 0 else x


def _value(x: Any) -> Any:
    """A hyperparameter as a Python number (a one-element tensor's item)."""
    return x.item() if isinstance(x, Tensor) else x


def _step_count() -> Tensor:
    """A fresh ``state["step"]``: a 0-d tensor of the default float dtype."""
    return tensor(0.0)


def _add_(p: Tensor, update: Tensor, alpha: float) -> None:
    """``p.add_(update, alpha=alpha)`` for a parameter; under no_grad it writes
    straight into memory (one pass fewer than the general in-place path, same
    version bump); with autograd on (differentiable=True) it is the real op."""
    if grad_mode.is_grad_enabled():
        p.add_(update, alpha=alpha)
        return
    data = p._data
    data += update._data * alpha
    bump_version(p)


def _lerp_(start: Tensor, end: Tensor, weight: float) -> Tensor:
    """``start += weight · (end - start)`` in place, in PyTorch's two forms (the
    one it picks depends on the weight, for accuracy)."""
    if weight < 0.5:
        return start.add_(end - start, alpha=weight)
    return start.copy_(end - (end - start) * (1 - weight))


def _maximum_(out: Tensor, other: Tensor) -> Tensor:
    """``torch.maximum(out, other, out=out)``."""
    return out.copy_(out.maximum(other))
