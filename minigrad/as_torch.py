"""Let unmodified PyTorch code run on minigrad: ``import torch`` gives minigrad.

Lessons written for PyTorch say ``import torch.nn as nn`` or
``from torch.utils.data import DataLoader``; ``import minigrad as torch`` cannot
serve those lines.  Three explicit entry points make ``torch`` *be* minigrad:

- ``minigrad.as_torch()`` in a script or a notebook cell,
- ``%load_ext minigrad`` (or ``%load_ext minigrad.as_torch``) in IPython/Jupyter,
- ``python -m minigrad lesson.py [args]``, which runs a script that way.

Each puts minigrad in ``sys.modules["torch"]``.  From then on an import finder
(registered by ``import minigrad``, inert until then) answers every
``import torch.X`` with the very module ``minigrad.X``, never a second copy of
it: two copies would hold two different ``Tensor`` classes, and a lesson would
die with ``must be Tensor, not Tensor``.  ``import minigrad`` alone changes
nothing, and a warning says so whenever an installed PyTorch is shadowed.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import sys
import types
import warnings
from pathlib import Path
from typing import Any

# PyTorch modules set aside by enable() when real torch was already imported.
_set_aside: dict[str, types.ModuleType] = {}


class _AliasLoader(importlib.abc.Loader):
    """Loads ``torch.X`` by handing back the module ``minigrad.X``."""

    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # a throwaway module; exec_module swaps the real one in

    def exec_module(self, module: types.ModuleType) -> None:
        try:
            real = importlib.import_module(self.target)
        except ModuleNotFoundError as exc:
            if exc.name != self.target:
                raise  # minigrad.X exists but failed to import something else
            raise ModuleNotFoundError(
                f"No module named {module.__name__!r} (minigrad stands in for torch "
                f"and has no {self.target})",
                name=module.__name__,
            ) from None
        # The import system returns whatever sys.modules holds once
        # exec_module is done, so ``torch.X`` and ``minigrad.X`` are one object
        # (and the real module's __spec__ and __name__ stay minigrad's).
        sys.modules[module.__name__] = real


class _TorchAliasFinder(importlib.abc.MetaPathFinder):
    """Resolves ``torch.X`` to ``minigrad.X`` while ``torch`` is minigrad."""

    def find_spec(
        self, fullname: str, path: Any = None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("torch."):
            return None
        if sys.modules.get("torch") is not sys.modules.get("minigrad"):
            return None  # torch is not minigrad: real imports proceed untouched
        return importlib.machinery.ModuleSpec(
            fullname, _AliasLoader("minigrad" + fullname[len("torch") :])
        )


def _register_finder() -> None:
    if not any(isinstance(f, _TorchAliasFinder) for f in sys.meta_path):
        # First: the path finder would otherwise load minigrad's files a
        # second time under torch.* names (torch's __path__ is minigrad's).
        sys.meta_path.insert(0, _TorchAliasFinder())


def _torch_version() -> str:
    try:
        return "PyTorch " + importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        return "PyTorch"


def enable() -> types.ModuleType:
    """Make ``import torch`` (and ``import torch.X``) give minigrad; return it.

    Idempotent.  Warns when a PyTorch is installed (it is shadowed from now on)
    or was already imported (its modules are set aside: later imports give
    minigrad, but names already bound to PyTorch stay PyTorch's).
    """
    minigrad = sys.modules["minigrad"]
    if sys.modules.get("torch") is minigrad:
        return minigrad
    _register_finder()
    real = sys.modules.get("torch")
    if real is not None:
        for name in [n for n in sys.modules if n == "torch" or n.startswith("torch.")]:
            _set_aside[name] = sys.modules.pop(name)
        warnings.warn(
            f"{_torch_version()} was already imported; minigrad now stands in for "
            "torch: later `import torch` statements give minigrad, but names already "
            "bound to PyTorch (and tensors made with it) stay PyTorch's and do not "
            "mix with minigrad's. Enable minigrad before importing torch.",
            stacklevel=2,
        )
    else:
        installed = importlib.machinery.PathFinder.find_spec("torch")
        if installed is not None:
            warnings.warn(
                f"minigrad stands in for torch: `import torch` gives minigrad, not "
                f"the {_torch_version()} installed in {Path(installed.origin).parent}.",
                stacklevel=2,
            )
    sys.modules["torch"] = minigrad
    return minigrad


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext minigrad``: the notebook's ``import torch`` gives minigrad."""
    enable()


class _CallableModule(types.ModuleType):
    """This module is callable, so ``minigrad.as_torch()`` is ``enable()`` while
    ``%load_ext minigrad.as_torch`` still finds a module to load."""

    def __call__(self) -> types.ModuleType:
        return enable()


sys.modules[__name__].__class__ = _CallableModule
_register_finder()
