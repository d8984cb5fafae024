"""minigrad.special's names against torch.special: values, dtypes, nodes, grads."""

from __future__ import annotations

import numpy as np
import pytest
from op_harness import differential

RNG = np.random.default_rng(1)
X = RNG.standard_normal((3, 4))
P = RNG.uniform(0.05, 0.95, (3, 4))

CASES = {
    "erf": (lambda T, x: T.special.erf(x), X),
    "expit": (lambda T, x: T.special.expit(x), X),
    "logit": (lambda T, x: T.special.logit(x), P),
    "logit_eps": (lambda T, x: T.special.logit(x, eps=0.1), P),
    "exp2": (lambda T, x: T.special.exp2(x), X),
    "expm1": (lambda T, x: T.special.expm1(x), X),
    "log1p": (lambda T, x: T.special.log1p(x), P),
    "round": (lambda T, x: T.special.round(x * 10, decimals=1), X),
    "xlogy": (lambda T, x: T.special.xlogy(x, x + 1), P),
    "xlogy_number": (lambda T, x: T.special.xlogy(2.0, x), P),
    "softmax": (lambda T, x: T.special.softmax(x, 1), X),
    "log_softmax": (lambda T, x: T.special.log_softmax(x, 0), X),
    "logsumexp": (lambda T, x: T.special.logsumexp(x, 1), X),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_special_alias_matches_pytorch(name: str) -> None:
    fn, x = CASES[name]
    differential(fn, (x,))
    differential(fn, (x,), dtype=np.float32)
