"""minigrad.testing.assert_close against torch.testing.assert_close: the same
pairs pass or fail alike, with the same exception type and message."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minigrad

NAN, INF = float("nan"), float("inf")
F64 = "float64"

# (actual, expected, kwargs); lists of numbers in ("t", values, dtype) become tensors
CASES: list[tuple[Any, Any, dict]] = [
    (("t", [1.0, 2.0, 3.0]), ("t", [1.0, 2.1, 3.0]), {}),
    (("t", [1.0, 2.0, 3.0], F64), ("t", [1.0, 2.1, 3.0], F64), {}),
    (("t", [1.0, 2.0, 3.0]), ("t", [1.0, 2.0, 3.0], F64), {}),
    (("t", [1.0, 2.0, 3.0]), ("t", [1.0, 2.0]), {}),
    (("t", [1, 2, 3]), ("t", [1, 2, 4]), {}),
    (("t", [1.0, NAN]), ("t", [1.0, NAN]), {}),
    (("t", [1.0, NAN]), ("t", [1.0, NAN]), {"equal_nan": True}),
    (("t", [1.0, INF]), ("t", [1.0, INF]), {}),
    (("t", [1.0, INF]), ("t", [1.0, -INF]), {}),
    (1.0, 1.1, {}),
    (1, 2, {}),
    (1, 1.0, {}),
    (("t", [1.0, 2.0]), [1.0, 2.0], {}),
    (("t", [1.0, 2.0]), 2.0, {}),
    ([("t", [1.0, 2.0])], [("t", [1.0, 2.5])], {}),
    ({"a": ("t", [1.0, 2.0])}, {"a": ("t", [1.0, 2.5])}, {}),
    ({"a": 1, "b": 2}, {"a": 1, "c": 2}, {}),
    ((1, 2), (1, 2, 3), {}),
    ([1.0, 2.0], [1.0, 2.5], {}),
    (("t", [1.0, 2.0]), ("t", [1.0, 2.5]), {"msg": "custom"}),
    (("t", [1.0, 2.0]), ("t", [1.0, 2.5]), {"rtol": 0.0}),
    (("t", [1.0, 2.0]), ("t", [1.0, 2.5]), {"atol": 0.0}),
    (("t", [1.0, 2.0]), ("t", [1.0, 2.5]), {"atol": 1.0, "rtol": 0}),
    (("t", [1.0, 2.0]), ("t", [1, 2]), {"check_dtype": False}),
    (("t", [1, 2]), ("t", [1.0, 2.5]), {"check_dtype": False}),
    (("t", [[1.0, 2.0], [3, 4]]), ("t", [[1.0, 2.0], [3, 5]]), {}),
    (("t", 1.0), ("t", 1.5), {}),
    (("t", [0.0, 2.0]), ("t", [1e-9, 2.0]), {}),
    (("t", [0.0, 2.0]), ("t", [1, 2.0]), {}),
    (("t", [True, False]), ("t", [True, True]), {}),
    (("t", [1.0, 2.0], "float16"), ("t", [1.0, 2.01], "float16"), {}),
    (("t", []), ("t", []), {}),
    (("t", [3.0, 1.0, 5.0, 1.0]), ("t", [1.0, 3.0, 1.0, 3.0]), {}),
    (None, None, {}),
    ("a", "a", {}),
]


def _build(lib: Any, x: Any) -> Any:
    if isinstance(x, tuple) and x and x[0] == "t":
        dtype = getattr(lib, x[2]) if len(x) > 2 else None
        return lib.tensor(x[1], dtype=dtype)
    if isinstance(x, list):
        return [_build(lib, v) for v in x]
    if isinstance(x, dict):
        return {k: _build(lib, v) for k, v in x.items()}
    return x


def _outcome(lib: Any, actual: Any, expected: Any, kwargs: dict) -> Any:
    try:
        lib.testing.assert_close(_build(lib, actual), _build(lib, expected), **kwargs)
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        return type(e).__name__, str(e).replace("torch", "minigrad")
    return "passed"


@pytest.mark.parametrize("case", range(len(CASES)))
def test_assert_close_matches_pytorch(case: int) -> None:
    actual, expected, kwargs = CASES[case]
    assert _outcome(minigrad, actual, expected, kwargs) == _outcome(
        torch, actual, expected, kwargs
    )


def test_callable_msg_and_stride() -> None:
    for lib in (minigrad, torch):
        a, b = lib.tensor([1.0, 2.0]), lib.tensor([1.0, 2.5])
        with pytest.raises(AssertionError, match="^XTensor-likes are not close!"):
            lib.testing.assert_close(a, b, msg=lambda m: "X" + m)
        with pytest.raises(AssertionError, match=r"'stride\(\)' do not match"):
            lib.testing.assert_close(
                lib.ones(2, 3).t(), lib.ones(3, 2), check_stride=True
            )


def test_random_float32_pairs_agree() -> None:
    rng = np.random.default_rng(0)
    for _ in range(20):
        a = rng.standard_normal((3, 4)).astype(np.float32)
        b = a + rng.standard_normal((3, 4)).astype(np.float32) * 1e-5
        mine = ("t", a.tolist()), ("t", b.tolist())
        assert _outcome(minigrad, *mine, {}) == _outcome(torch, *mine, {})
