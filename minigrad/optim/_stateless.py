"""``minigrad.optim._stateless``: ``swap_in_optimizer_params_and_state``, to
step a live optimizer on parameters and state held outside it (the functional
style of ``func.functional_call``), with PyTorch's checks and messages."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .._tensor import Tensor
from .optimizer import Optimizer

__all__ = ["swap_in_optimizer_params_and_state"]

_NAME = "swap_in_optimizer_params_and_state"


def _fail(message: str) -> None:
    raise RuntimeError(message)


def _checked_state(state: Any) -> dict[Any, Any]:
    if not isinstance(state, dict):
        _fail(
            f"{_NAME} requires swapin_optim_state['state'] to be a dict mapping "
            "packed parameter ids to per-param state dicts, got "
            f"{type(state).__name__}."
        )
    if any(isinstance(k, Tensor) for k in state):
        _fail(
            f"{_NAME} requires optimizer.state_dict()-style state keyed by packed "
            "parameter ids."
        )
    if any(isinstance(k, int) and not isinstance(v, dict) for k, v in state.items()):
        _fail(
            f"{_NAME} requires per-parameter optimizer state entries to be "
            "dictionaries."
        )
    return state


def _checked_ids(index: int, group: dict[str, Any], saved: Any) -> list[int]:
    """The packed ids of a saved group, after checking it matches the live one."""
    if not isinstance(saved, dict):
        _fail(f"{_NAME} requires each optimizer param group to be a dictionary.")
    ids = saved.get("params")
    if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
        _fail(
            f"{_NAME} requires optimizer.state_dict()-style param_groups[*]['params'] "
            "entries keyed by packed parameter ids."
        )
    if len(group["params"]) != len(ids):
        _fail(
            f"swapin_optim_state param group {index} has a different number of "
            "params than the live optimizer param group."
        )
    saved_only = [k for k in saved if k not in group]
    live_only = [k for k in group if k not in saved]
    if saved_only or live_only:
        _fail(
            f"{_NAME} requires optimizer.state_dict()-style param group keys to "
            "exactly match the live optimizer group keys for group "
            f"{index}. Keys only in swap-in: {saved_only}. Keys only in live: "
            f"{live_only}."
        )
    return ids


@contextmanager
def swap_in_optimizer_params_and_state(
    optimizer: Optimizer,
    swapin_parameters: dict[str, Tensor],
    swapin_optim_state: dict[str, Any],
) -> Iterator[None]:
    """Inside the ``with``, ``optimizer`` steps ``swapin_parameters`` (in group
    order) with the options and state of ``swapin_optim_state`` (a
    ``state_dict()``-style dict, whose state tensors it updates in place);
    after it, the optimizer's own groups and state are back."""
    if not optimizer.state:
        _fail(f"{_NAME} requires initialized optimizer state.")
    if not isinstance(swapin_optim_state, dict):
        _fail(f"{_NAME} requires a DCP-style optimizer state_dict.")
    saved_state = _checked_state(swapin_optim_state.get("state"))
    saved_groups = swapin_optim_state.get("param_groups")
    if not isinstance(saved_groups, list):
        _fail(
            f"{_NAME} requires swapin_optim_state['param_groups'] to be a list of "
            f"param-group dicts, got {type(saved_groups).__name__}."
        )
    if len(optimizer.param_groups) != len(saved_groups):
        _fail(
            "swapin_optim_state has a different number of parameter groups than the "
            "live optimizer."
        )
    # the parameters are taken in order, each group its count of them
    flat = list(swapin_parameters.values())
    offset, seen, swaps = 0, set(), []
    for index, (group, saved) in enumerate(zip(optimizer.param_groups, saved_groups)):
        ids = _checked_ids(index, group, saved)
        seen.update(ids)
        if offset + len(ids) > len(flat):
            _fail(
                f"{_NAME} requires the explicit parameter state to match "
                "optimizer.param_groups ordering."
            )
        swaps.append((group, saved, flat[offset : offset + len(ids)]))
        offset += len(ids)
    extra = [k for k in saved_state if k not in seen]
    if extra:
        _fail(
            f"{_NAME} requires swapin_optim_state['state'] to be keyed only by packed "
            f"parameter ids from param_groups[*]['params']; got extra keys {extra!r}."
        )

    original_state = optimizer.state
    snapshots = [dict(g) for g in optimizer.param_groups]
    try:
        state: defaultdict[Tensor, Any] = defaultdict(dict)
        for group, saved, params in swaps:
            group.update({k: v for k, v in saved.items() if k != "params"})
            group["params"] = params
            for p, i in zip(params, saved["params"]):
                state[p] = dict(saved_state.get(i, {}))
        optimizer.state = state
        yield
    finally:
        for group, snapshot in zip(optimizer.param_groups, snapshots):
            group.clear()
            group.update(snapshot)
        optimizer.state = original_state
