"""Differential harness: run one PyTorch program under torch or minigrad.

A program is plain PyTorch code.  For minigrad its ``torch`` imports are
rewritten (``import torch`` -> ``import minigrad as torch`` ...), then it is
exec'd in-process with fresh globals.  The transcript is everything it prints,
with each warning interleaved as ``<Category>: <message>`` at the point it was
emitted, and an uncaught exception as a final ``<ExcType>: <message>`` line.

Transcripts are normalized so the two frameworks can be compared verbatim:
torch's ``torch`` becomes ``minigrad``, hex addresses become ``0xADDR`` and
torch's C++ ``(Triggered internally at ...)`` suffix is dropped.
"""

from __future__ import annotations

import builtins
import contextlib
import difflib
import importlib
import io
import re
import warnings
from collections.abc import Callable, Iterator
from typing import Literal, TextIO

Framework = Literal["torch", "minigrad"]
FRAMEWORKS: tuple[Framework, ...] = ("torch", "minigrad")

# ``import torch`` / ``import torch.nn as nn`` / ``import torch as T`` (one
# module per line; a trailing comment is allowed).
_IMPORT_RE = re.compile(
    r"^(?P<indent>[ \t]*)import[ \t]+torch(?P<sub>(?:\.\w+)*)"
    r"(?:[ \t]+as[ \t]+(?P<alias>\w+))?(?P<tail>[ \t]*(?:#.*)?)$",
    re.MULTILINE,
)
# ``from torch import X`` / ``from torch.autograd import Function`` ...
_FROM_RE = re.compile(
    r"^(?P<indent>[ \t]*)from[ \t]+torch(?P<sub>(?:\.\w+)*)(?P<rest>[ \t]+import\b)",
    re.MULTILINE,
)
# Any import of torch the two patterns above did not handle, e.g.
# ``import numpy, torch``: running it would silently use real torch.
_LEFTOVER_RE = re.compile(
    r"^[ \t]*(?:import|from)[ \t]+(?:[^#\n]*,[ \t]*)?torch\b", re.MULTILINE
)

_TORCH_WORD_RE = re.compile(r"\btorch\b")
_HEX_RE = re.compile(r"0x[0-9a-f]+")
# torch appends the C++ source location to warnings raised by TORCH_WARN.
_TRIGGERED_RE = re.compile(r" \(Triggered internally at [^\n]*?\)$", re.MULTILINE)


def _rewrite_import(m: re.Match[str]) -> str:
    indent, sub, alias, tail = m["indent"], m["sub"], m["alias"], m["tail"]
    if alias:
        return f"{indent}import minigrad{sub} as {alias}{tail}"
    if not sub:
        return f"{indent}import minigrad as torch{tail}"
    # ``import torch.nn`` binds the top package as ``torch`` (and loads nn);
    # __import__ does exactly that without binding an extra name.
    return f'{indent}torch = __import__("minigrad{sub}"){tail}'


def rewrite_imports(source: str) -> str:
    """Rewrite a PyTorch program's ``torch`` imports to import minigrad."""
    out = _IMPORT_RE.sub(_rewrite_import, source)
    out = _FROM_RE.sub(r"\g<indent>from minigrad\g<sub>\g<rest>", out)
    leftover = _LEFTOVER_RE.search(out)
    if leftover:
        raise ValueError(f"unsupported torch import line: {leftover.group(0)!r}")
    return out


def normalize(transcript: str, framework: Framework) -> str:
    """Make a transcript framework-neutral (see module docstring)."""
    if framework == "torch":
        # Whole word only: "pytorch" in URLs must survive.
        transcript = _TORCH_WORD_RE.sub("minigrad", transcript)
    transcript = _TRIGGERED_RE.sub("", transcript)
    return _HEX_RE.sub("0xADDR", transcript)


@contextlib.contextmanager
def _framework_state(module_name: str) -> Iterator[None]:
    """Restore process-global framework state a program may leave behind.

    Programs run in-process one after another, so grad mode switched off by a
    program that then raised must not leak into the next one.  Warn-once
    warnings (TORCH_WARN_ONCE, e.g. backward(create_graph=True)) are made to
    warn every time, so a transcript does not depend on which programs ran
    earlier in the same process.
    """
    mod = importlib.import_module(module_name)
    is_grad = getattr(mod, "is_grad_enabled", None)
    set_grad = getattr(mod, "set_grad_enabled", None)
    is_always = getattr(mod, "is_warn_always_enabled", None)
    set_always = getattr(mod, "set_warn_always", None)
    grad_before = is_grad() if callable(is_grad) else None
    always_before = is_always() if callable(is_always) else None
    if callable(set_always):
        set_always(True)
    try:
        yield
    finally:
        if grad_before is not None and callable(set_grad):
            set_grad(grad_before)
        if always_before is not None and callable(set_always):
            set_always(always_before)


def _warning_writer(buf: TextIO) -> Callable[..., None]:
    """A ``warnings.showwarning`` replacement writing one transcript line."""

    def showwarning(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        buf.write(f"{category.__name__}: {message}\n")

    return showwarning


def run_raw(source: str, framework: Framework) -> str:
    """Exec ``source`` under ``framework`` and return the raw transcript."""
    if framework not in FRAMEWORKS:
        raise ValueError(f"unknown framework {framework!r}")
    code_text = rewrite_imports(source) if framework == "minigrad" else source
    code = compile(code_text, f"<{framework} program>", "exec")
    buf = io.StringIO()
    program_globals = {"__name__": "__main__", "__builtins__": builtins}
    with (
        _framework_state(framework),
        warnings.catch_warnings(),
        contextlib.redirect_stdout(buf),
    ):
        warnings.simplefilter("always")
        if framework == "minigrad":  # its own filter, which "always" displaced
            importlib.import_module("minigrad._warn").mute_numpy_warnings()
        # Warnings go into the stdout buffer so they keep their position.
        warnings.showwarning = _warning_writer(buf)
        try:
            exec(code, program_globals)
        except Exception as exc:  # the transcript records it, like a traceback
            buf.write(f"{type(exc).__name__}: {exc}\n")
    return buf.getvalue()


def run(source: str, framework: Framework) -> str:
    """Exec ``source`` under ``framework``; return the normalized transcript."""
    return normalize(run_raw(source, framework), framework)


def compare(source: str) -> tuple[str, str]:
    """Run ``source`` under both frameworks: ``(torch_out, minigrad_out)``."""
    return run(source, "torch"), run(source, "minigrad")


def diff(expected: str, actual: str, name: str = "program") -> str:
    """A unified diff torch -> minigrad, for assertion messages."""
    lines = difflib.unified_diff(
        expected.splitlines(keepends=True),
        actual.splitlines(keepends=True),
        fromfile=f"{name} [torch]",
        tofile=f"{name} [minigrad]",
    )
    return "".join(lines)


# A number as printed: 12, -0.5, 1.2500e-03, 3.14159, inf, nan.
_NUMBER_RE = re.compile(r"-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|-?\binf\b|\bnan\b")


def _last_digit(text: str) -> float:
    """One unit in the last printed digit of a number: ``0.1235`` -> 1e-4."""
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


def close_transcripts(
    expected: str, actual: str, rtol: float = 1e-5, atol: float = 1e-6
) -> bool:
    """Equal transcripts but for float32 noise in the numbers.

    For programs whose sums run in another order than PyTorch's (a matmul, a
    long training loop): every non-number character must be equal, and each
    number may differ by ``rtol`` relative, by ``atol`` (a value that is zero
    up to float32 rounding, such as 8e-12 against -5e-10), or by one unit in
    its last printed digit (a value just below a rounding boundary in one
    framework and just above it in the other).  Integers must be equal.
    """
    if _NUMBER_RE.sub("#", expected) != _NUMBER_RE.sub("#", actual):
        return False
    for want, got in zip(_NUMBER_RE.findall(expected), _NUMBER_RE.findall(actual)):
        if want == got:
            continue
        if not any(c in want + got for c in ".eE") or "n" in want + got:
            return False  # integers, inf and nan are exact
        a, b = float(want), float(got)
        if abs(a - b) > max(rtol * abs(a), atol, 1.01 * _last_digit(want)):
            return False
    return True
