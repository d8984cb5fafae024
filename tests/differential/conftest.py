"""Skip the differential tests until a real ``minigrad`` package exists.

The repo root is put on sys.path so minigrad is importable without installing.
An empty ``minigrad/`` directory imports as a namespace package (no
``__file__``); that does not count as minigrad existing.
"""

import importlib
import sys
from pathlib import Path

_REPO_ROOT = str(Path(__file__).resolve().parents[2])
if _REPO_ROOT not in sys.path:
    sys.path.insert(0, _REPO_ROOT)


def _minigrad_exists() -> bool:
    try:
        module = importlib.import_module("minigrad")
    except ImportError:
        return False
    return getattr(module, "__file__", None) is not None


collect_ignore = [] if _minigrad_exists() else ["test_differential.py"]
