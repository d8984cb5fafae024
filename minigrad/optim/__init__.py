"""``minigrad.optim``: PyTorch's optimizers with its update rules, step for step
(the single-tensor code path PyTorch takes on CPU), one family per module as in
``torch.optim``, plus ``lr_scheduler``. Names of ``torch.optim`` that minigrad
lacks raise an AttributeError saying so."""

from __future__ import annotations

from typing import Any

from . import lr_scheduler, swa_utils
from ._adafactor import Adafactor
from ._stateless import swap_in_optimizer_params_and_state
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .asgd import ASGD
from .lbfgs import LBFGS
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD
from .sparse_adam import SparseAdam

__all__ = [
    "ASGD",
    "Adafactor",
    "LBFGS",
    "SGD",
    "Adadelta",
    "Adagrad",
    "Adam",
    "AdamW",
    "Adamax",
    "NAdam",
    "Optimizer",
    "RAdam",
    "RMSprop",
    "Rprop",
    "SparseAdam",
    "lr_scheduler",
    "swa_utils",
    "swap_in_optimizer_params_and_state",
]

# torch.optim's public names minigrad does not have (yet).
_MISSING = ("Muon",)


def __getattr__(name: str) -> Any:
    if name in _MISSING:
        raise AttributeError(
            f"module 'minigrad.optim' has no attribute '{name}': minigrad does not "
            f"implement torch.optim.{name}"
        )
    raise AttributeError(f"module 'minigrad.optim' has no attribute '{name}'")


def __dir__() -> list[str]:
    return sorted(__all__)
