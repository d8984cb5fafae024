"""Fixtures for the viz tests: a `framework` fixture (torch, minigrad) and seeds.

Every test that takes ``framework`` runs once with real PyTorch and once with
minigrad; each is skipped while it is not importable or lacks what the test
uses (`needs`). The repo root goes on sys.path so nothing must be installed.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

_REPO_ROOT = str(Path(__file__).resolve().parents[2])
if _REPO_ROOT not in sys.path:
    sys.path.insert(0, _REPO_ROOT)

FRAMEWORKS = ["torch", "minigrad"]


def load_framework(name: str) -> ModuleType:
    """Import ``name`` or skip the test (minigrad may be half-written)."""
    module = pytest.importorskip(name)
    if getattr(module, "__file__", None) is None:  # an empty namespace package
        pytest.skip(f"{name} is not a real package yet")
    needs(module, "tensor", "ones")
    return module


def needs(module: ModuleType, *names: str) -> None:
    """Skip unless ``module`` has every dotted name in ``names``."""
    for name in names:
        obj = module
        for part in name.split("."):
            if not hasattr(obj, part):
                pytest.skip(f"{module.__name__} has no {name} yet")
            obj = getattr(obj, part)


@pytest.fixture(params=FRAMEWORKS)
def framework(request) -> ModuleType:
    return load_framework(request.param)


@pytest.fixture
def minigrad() -> ModuleType:
    return load_framework("minigrad")


@pytest.fixture(name="needs")
def needs_fixture():
    """``needs(framework, "Tensor.split")`` skips when a feature is missing."""
    return needs


@pytest.fixture
def torch() -> ModuleType:
    """Real PyTorch, the oracle."""
    return load_framework("torch")


def seed1(t: ModuleType) -> tuple:
    """``e = (a * b) * d``: the first seed example."""
    a = t.tensor(2.0, requires_grad=True)
    b = t.tensor(3.0, requires_grad=True)
    c = a * b
    d = t.tensor(4.0, requires_grad=True)
    e = c * d
    return e, dict(a=a, b=b, c=c, d=d, e=e)


def seed2(t: ModuleType) -> tuple:
    """The second seed: ``loss = ((input*w1 + w2) * (input*w1 * w3)).mean()``."""
    input = t.ones(2, 2)
    w1 = t.tensor(2.0, requires_grad=True)
    w2 = t.tensor(3.0, requires_grad=True)
    w3 = t.tensor(4.0, requires_grad=True)
    l1 = input * w1
    l2 = l1 + w2
    l3 = l1 * w3
    l4 = l2 * l3
    loss = l4.mean()
    return loss, dict(input=input, w1=w1, w2=w2, w3=w3, l1=l1, l2=l2, l3=l3, l4=l4)


@pytest.fixture
def seeds() -> dict:
    """name -> function(framework) returning (output, params)."""
    return {"seed1": seed1, "seed2": seed2}
