"""Hook handles, as in ``torch.utils.hooks``."""

from __future__ import annotations

import itertools
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

_next_id = itertools.count()


class RemovableHandle:
    """Returned by every ``register_*hook``; ``remove()`` unregisters the hook."""

    def __init__(self, hooks_dict: OrderedDict) -> None:
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = next(_next_id)

    @classmethod
    def add(cls, hooks_dict: OrderedDict, fn: Callable) -> RemovableHandle:
        handle = cls(hooks_dict)
        hooks_dict[handle.id] = fn
        return handle

    def remove(self) -> None:
        hooks_dict = self.hooks_dict_ref()
        if hooks_dict is not None:
            hooks_dict.pop(self.id, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.remove()
