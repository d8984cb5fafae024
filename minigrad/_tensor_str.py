"""Render tensors as text exactly like PyTorch's ``repr(tensor)``.

The goal is that lesson code written for PyTorch prints the same text when run
with ``import minigrad as torch``; the only difference is that the dtype suffix
names this module (``dtype=minigrad.float64`` instead of ``dtype=torch.float64``).

How PyTorch lays a tensor out, in short:

* One *element style* is chosen for the whole tensor (or, when the tensor is
  summarized, for the elements that are actually shown).  For floats it looks
  only at the finite, non-zero values: if they are all integral every number
  prints as ``3.``; if their magnitudes span more than three decades, exceed
  1e8 or go below 1e-4, scientific notation is used; otherwise fixed-point with
  ``precision`` decimals.  Every element is right-aligned to the widest of
  those values (nan, inf and 0 do not count towards the width, so they can
  stick out).
* Rows are wrapped so that a line holds as many ``width + 2`` wide cells as fit
  into ``linewidth`` minus the current indentation.
* Above ``threshold`` elements only ``edgeitems`` items at each end of every
  dimension are shown, with ``...`` in between.
* Suffixes (``size=``, ``dtype=``, ``grad_fn=``/``requires_grad=``) follow the
  data, each moved to its own line when it would overflow ``linewidth``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from . import _dtype

__all__ = ["get_printoptions", "printoptions", "set_printoptions", "tensor_repr"]

# ---------------------------------------------------------------------------
# Print options
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


_PROFILES: dict[str, dict[str, Any]] = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}

_OPTS = _PrintOptions()


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Set the options used by :func:`tensor_repr`, like ``torch.set_printoptions``.

    A profile ("default", "short", "full") is applied first and explicit
    arguments override it; an unknown profile is ignored, as in PyTorch.
    Like PyTorch, ``sci_mode`` is always assigned, so omitting it resets it to
    ``None`` (automatic choice).
    """
    if profile in _PROFILES:
        for name, value in _PROFILES[profile].items():
            setattr(_OPTS, name, value)
    if precision is not None:
        _OPTS.precision = precision
    if threshold is not None:
        _OPTS.threshold = threshold
    if edgeitems is not None:
        _OPTS.edgeitems = edgeitems
    if linewidth is not None:
        _OPTS.linewidth = linewidth
    _OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """Return the current options as keyword arguments for set_printoptions."""
    return dataclasses.asdict(_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Temporarily change the print options (same arguments as set_printoptions)."""
    saved = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**saved)


# ---------------------------------------------------------------------------
# Dtypes
# ---------------------------------------------------------------------------

_NUMPY_DTYPES: dict[str, type[np.generic]] = {
    "float16": np.float16,
    "float32": np.float32,
    "float64": np.float64,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "uint8": np.uint8,
    "bool": np.bool_,
}
_FLOAT_DTYPES = frozenset({"float16", "float32", "float64"})

# A tensor of the default dtype (``_dtype.default_float``) never shows its
# dtype; nor does a non-empty one of the dtypes a literal implies.
_IMPLIED_DTYPES = frozenset({"int64", "bool"})

_MODULE_NAME = "minigrad"
# Line-breaking decisions are made with PyTorch's spelling of the suffix so the
# layout stays identical to PyTorch's output, only with the module renamed.
_TORCH_NAME = "torch"


# ---------------------------------------------------------------------------
# Element style: one shared number format and width for a whole tensor
# ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Style:
    floating: bool
    int_mode: bool = True  # floats that are all integral print as "3."
    sci_mode: bool = False
    width: int = 1


def _float_text(value: float, style: _Style) -> str:
    precision = _OPTS.precision
    if style.sci_mode:
        return f"{value:.{precision}e}"
    if style.int_mode:
        text = f"{value:.0f}"
        # The trailing dot marks the tensor as floating; nan/inf need no marker.
        return text if math.isinf(value) or math.isnan(value) else text + "."
    return f"{value:.{precision}f}"


def _format_element(value: Any, style: _Style) -> str:
    """Format one Python scalar (from ``tolist``), right-aligned to the width."""
    text = _float_text(value, style) if style.floating else str(value)
    return text.rjust(style.width)


def _choose_style(values: np.ndarray, floating: bool) -> _Style:
    """Pick the number format and column width from the values to be shown."""
    flat = values.ravel()
    if not floating:
        widths = [len(str(v)) for v in flat.tolist()]  # ints, or True/False
        return _Style(floating=False, width=max([1, *widths]))

    finite = flat[np.isfinite(flat) & (flat != 0)]
    if finite.size == 0:
        # Only zeros/nan/inf: integral style, no widening.
        return _Style(floating=True)

    # Compare magnitudes in float64, so float16 cannot overflow (e.g. max/min).
    magnitudes = np.abs(finite.astype(np.float64))
    smallest, largest = magnitudes.min(), magnitudes.max()
    int_mode = bool(np.all(finite == np.ceil(finite)))
    if _OPTS.sci_mode is None:
        sci_mode = bool(
            largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
        )
    else:
        sci_mode = _OPTS.sci_mode

    style = _Style(floating=True, int_mode=int_mode, sci_mode=sci_mode)
    width = max([1, *(len(_float_text(v, style)) for v in finite.tolist())])
    return dataclasses.replace(style, width=width)


# ---------------------------------------------------------------------------
# Summarization
# ---------------------------------------------------------------------------


def _edge_indices(length: int) -> list[int]:
    """Indices kept along a summarized dimension: edgeitems at each end."""
    edge = _OPTS.edgeitems
    if length > 2 * edge:
        return [*range(edge), *range(length - edge, length)]
    return list(range(length))


def _shown_values(arr: np.ndarray) -> np.ndarray:
    """Flat array of the elements a summarized print shows (they set the style)."""
    if arr.ndim == 0:
        return arr.ravel()
    if arr.ndim == 1:
        return arr[_edge_indices(arr.shape[0])]
    if not _OPTS.edgeitems:
        return arr.ravel()[:0]
    parts = [_shown_values(arr[i]) for i in _edge_indices(arr.shape[0])]
    return np.concatenate(parts)


# ---------------------------------------------------------------------------
# Layout of the nested brackets
# ---------------------------------------------------------------------------


def _render_row(row: np.ndarray, indent: int, summarize: bool, style: _Style) -> str:
    """A 1-d tensor: comma separated cells, wrapped to the line width."""
    edge = _OPTS.edgeitems
    cell_width = style.width + 2  # the cell plus its ", " separator
    per_line = max(1, math.floor((_OPTS.linewidth - indent) / cell_width))

    values = row.tolist()
    if summarize and not edge:
        cells = ["..."]
    elif summarize and len(values) > 2 * edge:
        head = [_format_element(v, style) for v in values[:edge]]
        tail = [_format_element(v, style) for v in values[-edge:]]
        # " ..." counts as a cell when wrapping; its space keeps it readable.
        cells = [*head, " ...", *tail]
    else:
        cells = [_format_element(v, style) for v in values]

    lines = [
        ", ".join(cells[start : start + per_line])
        for start in range(0, len(cells), per_line)
    ]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _render(arr: np.ndarray, indent: int, summarize: bool, style: _Style) -> str:
    """Recursively render ``arr`` whose opening bracket sits at column ``indent``."""
    if arr.ndim == 0:
        return _format_element(arr.item(), style)
    if arr.ndim == 1:
        return _render_row(arr, indent, summarize, style)

    def child(i: int) -> str:
        return _render(arr[i], indent + 1, summarize, style)

    length, edge = arr.shape[0], _OPTS.edgeitems
    if summarize and length > 2 * edge:
        blocks = [
            *(child(i) for i in range(edge)),
            "...",
            *(child(i) for i in range(length - edge, length)),
        ]
    else:
        blocks = [child(i) for i in range(length)]

    # Sub-blocks of a k-d tensor are separated by k-1 newlines (blank lines
    # between matrices of a 3-d tensor, and so on).
    separator = "," + "\n" * (arr.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(blocks) + "]"


def _tensor_body(arr: np.ndarray, indent: int, floating: bool) -> str:
    summarize = arr.size > _OPTS.threshold
    sample = _shown_values(arr) if summarize else arr
    style = _choose_style(sample, floating)
    return _render(arr, indent, summarize, style)


# ---------------------------------------------------------------------------
# Suffixes and the public entry point
# ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Suffix:
    text: str
    layout_len: int  # length PyTorch's own spelling of this suffix would have

    @classmethod
    def plain(cls, text: str) -> _Suffix:
        return cls(text, len(text))

    @classmethod
    def dtype(cls, dtype_name: str) -> _Suffix:
        return cls(
            f"dtype={_MODULE_NAME}.{dtype_name}",
            len(f"dtype={_TORCH_NAME}.{dtype_name}"),
        )


def _append_suffixes(text: str, suffixes: list[_Suffix], indent: int) -> str:
    """Append ", suffix" items, wrapping onto a new line when too long."""
    parts = [text]
    # PyTorch's measure of the last line (two more than its length when the
    # text has no newline); reproduced as is because it decides the wrapping.
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + suffix.layout_len + 2 > _OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix.text)
            last_line_len = indent + suffix.layout_len
        else:
            parts.append(", " + suffix.text)
            last_line_len += suffix.layout_len + 2
    parts.append(")")
    return "".join(parts)


def _canonical_dtype(dtype_name: str) -> str:
    name = dtype_name.rsplit(".", 1)[-1]  # accept "torch.float32" too
    if name not in _NUMPY_DTYPES:
        raise ValueError(f"unsupported dtype for printing: {dtype_name!r}")
    return name


def tensor_repr(
    data: np.ndarray,
    dtype_name: str,
    *,
    requires_grad: bool = False,
    grad_fn_name: str | None = None,
    prefix: str = "tensor",
    tangent: str | None = None,
) -> str:
    """Return what PyTorch's ``repr`` prints for a CPU tensor with these values.

    ``dtype_name`` is the PyTorch dtype name without module ("float32",
    "int64", "bool", ...); ``data`` is converted to it first.  A
    ``grad_fn_name`` (e.g. "MulBackward0") marks a non-leaf and replaces the
    ``requires_grad=True`` suffix, as in PyTorch.  The current print options
    (see :func:`set_printoptions`) apply.
    """
    dtype_name = _canonical_dtype(dtype_name)
    arr = np.asarray(data).astype(_NUMPY_DTYPES[dtype_name], copy=False)
    head = prefix + "("
    indent = len(head)

    suffixes: list[_Suffix] = []
    if arr.size == 0:
        # An empty literal hides its shape and dtype, so both are spelled out
        # (except a plain 1-d float32 ``tensor([])``).
        if arr.ndim != 1:
            suffixes.append(_Suffix.plain(f"size={tuple(arr.shape)}"))
        if dtype_name != _dtype.default_float.name:
            suffixes.append(_Suffix.dtype(dtype_name))
        body = "[]"
    else:
        if not _OPTS.edgeitems:
            # Nothing but "..." would be shown, so PyTorch adds the shape.
            suffixes.append(_Suffix.plain(f"size={tuple(arr.shape)}"))
        implied = dtype_name in _IMPLIED_DTYPES
        if not implied and dtype_name != _dtype.default_float.name:
            suffixes.append(_Suffix.dtype(dtype_name))
        body = _tensor_body(arr, indent, dtype_name in _FLOAT_DTYPES)

    if grad_fn_name is not None:
        suffixes.append(_Suffix.plain(f"grad_fn=<{grad_fn_name}>"))
    elif requires_grad:
        suffixes.append(_Suffix.plain("requires_grad=True"))
    if tangent is not None:  # forward AD's dual tensors
        suffixes.append(_Suffix.plain(f"tangent={tangent}"))

    return _append_suffixes(head + body, suffixes, indent)
