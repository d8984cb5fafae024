"""The derivatives table: every built-in node with its formula, generated.

minigrad's counterpart of PyTorch's ``derivatives.yaml``, read off the Function
classes themselves: the node's name, the formula (the class's one-line
docstring), what the node saves (its ``_saved_*`` attributes) and where the class
is defined. ``docs/derivatives.md`` is this module's output; regenerate it with

    python -m minigrad._derivatives > docs/derivatives.md
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path

import minigrad

from .function import Function

ROOT = Path(minigrad.__file__).resolve().parent.parent  # (paths are shown from here)


def builtin_functions() -> list[type[Function]]:
    """Every Function subclass that minigrad defines and that has a node class,
    in the order of its file and line."""

    def walk(cls: type) -> Iterator[type]:
        for sub in cls.__subclasses__():
            yield sub
            yield from walk(sub)

    found = {
        cls
        for cls in walk(Function)
        if cls.__module__.startswith("minigrad.") and "_backward_cls" in cls.__dict__
    }
    return sorted(found, key=lambda c: (_path(c), _line(c)))


def _path(cls: type) -> str:
    return Path(inspect.getsourcefile(cls) or "").resolve().relative_to(ROOT).as_posix()


def _line(cls: type) -> int:
    return inspect.getsourcelines(cls)[1]


def formula(cls: type) -> str:
    """The class's own docstring, its first paragraph on one line."""
    doc = cls.__dict__.get("__doc__") or ""
    first = inspect.cleandoc(doc).split("\n\n")[0]
    return " ".join(first.split())


def saved(cls: type[Function]) -> list[str]:
    """What the node keeps for backward: its saved tensors, then other values."""
    node = cls._backward_cls
    tensors = list(node._slot_names)
    others = sorted(
        name[len("_saved_") :]
        for name in dir(node)
        if name.startswith("_saved_") and name[len("_saved_") :] not in tensors
    )
    return tensors + others


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render() -> str:
    functions = builtin_functions()
    lines = [
        "# Derivatives: every built-in node of minigrad",
        "",
        "Generated from the op classes by `python -m minigrad._derivatives > "
        "docs/derivatives.md`; do not edit by hand (tests/test_derivatives.py fails "
        "when this page is stale). Each row is one `Function`: the node that "
        "backward runs, its formula (`g` is the incoming gradient, `gg` the "
        "gradient of a gradient), what it saves (`_saved_<name>` on the node; "
        "tensors first) and where it is defined.",
        "",
        f"{len(functions)} nodes.",
    ]
    current = None
    for cls in functions:
        path = _path(cls)
        if path != current:
            current = path
            count = sum(_path(c) == path for c in functions)
            lines += [
                "",
                f"## {path} ({count})",
                "",
                "| node | formula | saved | defined at |",
                "|---|---|---|---|",
            ]
        keep = ", ".join(f"`{name}`" for name in saved(cls)) or "nothing"
        where = f"[{path}:{_line(cls)}](../{path}#L{_line(cls)})"
        node_name = cls._backward_cls.__name__
        lines.append(f"| `{node_name}` | {_cell(formula(cls))} | {keep} | {where} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")
