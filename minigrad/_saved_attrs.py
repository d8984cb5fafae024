"""The ``_saved_<name>`` attributes of a node class, as PyTorch's nodes have them.

``FunctionMeta`` gives each node class one property per name in its Function's
``saved`` (the tensors given to ``save_for_backward``: ``_saved_self`` unpacks,
``_raw_saved_self`` is the ``SavedTensor``) and per name in ``saved_attrs`` (the
other values kept on the node). Students and viz read the graph through them.
"""

from __future__ import annotations

from typing import Any

from ._errors import ERR_BACKWARD_TWICE
from ._saved_hooks import raw_saved


def saved_tensor_property(i: int) -> property:
    def get(node: Any) -> Any:
        saved = node._held
        if saved is None:
            released = node._released
            if released is not True and released and released[i]:
                return None  # nothing was saved here, so nothing was freed
            raise RuntimeError(ERR_BACKWARD_TWICE)
        s = saved[i]
        return None if s is None else s.unpack(node)

    return property(get)


def raw_saved_property(i: int) -> property:
    """``_raw_saved_<name>``: the slot's ``SavedTensor`` (_saved_hooks.py), to
    which hooks can be given; it stays readable after backward freed it."""

    def get(node: Any) -> Any:
        return raw_saved(node, i)

    return property(get)


def saved_attr_property(attr: str, freed_with_graph: bool) -> property:
    """A non-tensor saved value; a list of tensors (e.g. indexing's ``indices``)
    is freed by backward like any saved tensor."""

    def get(node: Any) -> Any:
        if freed_with_graph and node._released:
            raise RuntimeError(ERR_BACKWARD_TWICE)
        return node.__dict__[attr]

    return property(get)
