"""``minigrad.optim.swa_utils``: stochastic weight averaging and exponential
moving averages of a model's weights (``AveragedModel``), the ``SWALR``
schedule, and ``update_bn`` to recompute batch-norm statistics for the
averaged weights."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from copy import deepcopy
from typing import Any

from .. import grad_mode
from .._dtype import int64
from .._tensor import Tensor
from ..creation import tensor
from ..nn.layers import _BatchNorm
from ..nn.module import Module
from .lr_scheduler import LRScheduler, _per_group
from .optimizer import Optimizer, _lerp_, _value

__all__ = [
    "SWALR",
    "AveragedModel",
    "get_ema_avg_fn",
    "get_ema_multi_avg_fn",
    "get_swa_avg_fn",
    "get_swa_multi_avg_fn",
    "update_bn",
]

ParamList = list[Tensor] | tuple[Tensor, ...]


def _check_decay(decay: float) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(
            f"Invalid decay value {decay} provided. Please provide a value in [0,1] "
            "range."
        )


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable[..., None]:
    """An exponential moving average, updating a list of averages in place:
    ``ema = lerp(ema, current, 1 - decay)``."""
    _check_decay(decay)

    @grad_mode.no_grad()
    def ema_update(ema_params: ParamList, current_params: ParamList, _: Any) -> None:
        floating = bool(ema_params) and ema_params[0].is_floating_point()
        for ema, current in zip(ema_params, current_params):
            if floating:
                _lerp_(ema, current, 1 - decay)
            else:
                ema.copy_(ema * decay + current * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn() -> Callable[..., None]:
    """The running mean of all the weights seen, updating a list in place."""

    @grad_mode.no_grad()
    def swa_update(
        averaged: ParamList, current: ParamList, num_averaged: Tensor | int
    ) -> None:
        if averaged and not averaged[0].is_floating_point():
            # PyTorch divides integer tensors with addcdiv here, which it refuses
            raise RuntimeError(
                "Integer division with addcdiv is no longer supported, and in a "
                "future  release addcdiv will perform a true division of tensor1 and "
                "tensor2. The historic addcdiv behavior can be implemented as (input "
                "+ value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for "
                "integer inputs and as (input + value * tensor1 / tensor2) for float "
                "inputs. The future addcdiv behavior is just the latter "
                "implementation: (input + value * tensor1 / tensor2), for all dtypes."
            )
        for avg, cur in zip(averaged, current):
            _lerp_(avg, cur, _value(1 / (num_averaged + 1)))

    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> Callable[..., Tensor]:
    """An exponential moving average, one tensor at a time (returns the new one)."""
    _check_decay(decay)

    @grad_mode.no_grad()
    def ema_update(ema: Tensor, current: Tensor, num_averaged: Any) -> Tensor:
        return decay * ema + (1 - decay) * current

    return ema_update


def get_swa_avg_fn() -> Callable[..., Tensor]:
    """The running mean, one tensor at a time (returns the new one)."""

    @grad_mode.no_grad()
    def swa_update(averaged: Tensor, current: Tensor, num_averaged: Any) -> Tensor:
        return averaged + (current - averaged) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A copy of ``model`` whose weights are the average (equal-weight, or
    ``avg_fn`` / ``multi_avg_fn``: e.g. an EMA) of the weights it is given by
    ``update_parameters(model)``; ``n_averaged`` counts the updates. Buffers
    are copied from the model unless ``use_buffers`` averages them too."""

    n_averaged: Tensor

    def __init__(
        self,
        model: Module,
        device: Any = None,
        avg_fn: Callable[[Tensor, Tensor, Tensor | int], Tensor] | None = None,
        multi_avg_fn: Callable[[ParamList, ParamList, Tensor | int], None]
        | None = None,
        use_buffers: bool = False,
    ) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError(
                "Only one of avg_fn and multi_avg_fn should be provided"
            )
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", tensor(0, dtype=int64))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        """Average ``model``'s current weights in (the first call copies them)."""
        if self.use_buffers:
            mine = itertools.chain(self.module.parameters(), self.module.buffers())
            theirs = itertools.chain(model.parameters(), model.buffers())
        else:
            mine, theirs = self.parameters(), model.parameters()
        averaged, current = [], []
        first = bool(self.n_averaged == 0)
        for p_avg, p_model in zip(mine, theirs):
            averaged.append(p_avg.detach())
            current.append(p_model.detach())
            if first:
                p_avg.detach().copy_(p_model.detach())
        if self.n_averaged > 0:
            if self.multi_avg_fn is not None:
                # called once per dtype, as PyTorch groups the tensors
                groups: dict[Any, tuple[list[Tensor], list[Tensor]]] = {}
                for p_avg, p_model in zip(averaged, current):
                    mine_, theirs_ = groups.setdefault(p_avg.dtype, ([], []))
                    mine_.append(p_avg)
                    theirs_.append(p_model)
                for mine_, theirs_ in groups.values():
                    self.multi_avg_fn(mine_, theirs_, self.n_averaged)
            else:
                # (PyTorch's default on CPU: the running mean, tensor by tensor)
                avg_fn = self.avg_fn or get_swa_avg_fn()
                for p_avg, p_model in zip(averaged, current):
                    p_avg.copy_(avg_fn(p_avg, p_model, self.n_averaged))
        if not self.use_buffers:
            for b_avg, b_model in zip(self.module.buffers(), model.buffers()):
                b_avg.detach().copy_(b_model.detach())
        self.n_averaged += 1


def _reset_running_stats(module: _BatchNorm) -> None:
    """What ``_BatchNorm.reset_running_stats`` does in PyTorch."""
    if module.track_running_stats:
        module.running_mean.zero_()
        module.running_var.fill_(1)
        module.num_batches_tracked.zero_()


@grad_mode.no_grad()
def update_bn(loader: Iterable[Any], model: Module, device: Any = None) -> None:
    """Recompute every batch-norm layer's running statistics with one pass over
    ``loader`` (a cumulative average over its batches, in train mode); the
    layers' momenta and the model's mode are restored after."""
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            _reset_running_stats(module)
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    for batch in loader:
        if isinstance(batch, (list, tuple)):
            batch = batch[0]
        if device is not None:
            batch = batch.to(device)
        model(batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each group's rate to ``swa_lr`` over ``anneal_epochs`` (cosine
    or linear), then holds it: the schedule of the SWA phase."""

    def __init__(
        self,
        optimizer: Optimizer,
        swa_lr: float | list[float],
        anneal_epochs: int = 10,
        anneal_strategy: str = "cos",
        last_epoch: int = -1,
    ) -> None:
        for lr, group in zip(
            _per_group("swa_lr", optimizer, swa_lr), optimizer.param_groups
        ):
            group["swa_lr"] = lr
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(
                "anneal_strategy must be one of 'cos' or 'linear', instead got "
                f"{anneal_strategy}"
            )
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(
                f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}"
            )
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    def _set_anneal_func(self, strategy: str) -> None:
        self._anneal_strategy = strategy
        if strategy == "cos":
            self.anneal_func: Callable[[float], float] = lambda t: (
                (1 - math.cos(math.pi * t)) / 2
            )
        else:
            self.anneal_func = lambda t: t

    def get_lr(self) -> list[Any]:
        self._warn_outside_step()
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        span = max(1, self.anneal_epochs)
        # the rate without annealing, recovered from the current one ...
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / span)))
        prev_lrs = [
            g["swa_lr"] if prev_alpha == 1
            else (g["lr"] - prev_alpha * g["swa_lr"]) / (1 - prev_alpha)
            for g in self.optimizer.param_groups
        ]  # fmt: skip
        # ... and annealed one step further
        alpha = self.anneal_func(max(0, min(1, step / span)))
        return [
            g["swa_lr"] * alpha + lr * (1 - alpha)
            for g, lr in zip(self.optimizer.param_groups, prev_lrs)
        ]

    def state_dict(self) -> dict[str, Any]:
        return {
            k: v
            for k, v in self.__dict__.items()
            if k not in ("optimizer", "anneal_func")
        }

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
