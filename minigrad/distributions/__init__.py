"""``torch.distributions``: the distributions autograd lessons reach for.

``Normal`` (reparameterized ``rsample`` for a VAE), ``Bernoulli`` and ``Categorical``
(``sample`` + ``log_prob`` for REINFORCE), ``Uniform``, and ``kl_divergence`` with
``register_kl``. Formulas follow PyTorch 2.13's, so values and grad_fn names match.
"""

from __future__ import annotations

from . import constraints, utils
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .kl import kl_divergence, register_kl
from .normal import Normal
from .uniform import Uniform

__all__ = [
    "Bernoulli",
    "Categorical",
    "Distribution",
    "ExponentialFamily",
    "Normal",
    "Uniform",
    "constraints",
    "kl_divergence",
    "register_kl",
    "utils",
]
