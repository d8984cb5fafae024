"""Utilities (``minigrad.utils.hooks``)."""

from . import hooks

__all__ = ["hooks"]
