"""``minigrad.testing.assert_close``: PyTorch's comparison of tensors, numbers
and nested sequences or mappings of them, with its default tolerances per dtype
and its mismatch messages (``minigrad`` where PyTorch prints ``torch``)."""

from __future__ import annotations

import collections.abc
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _dtype as dt
from ._tensor import Tensor
from ._tensor_base import Size

__all__ = ["assert_close"]

# {dtype: (rtol, atol)}: PyTorch's _DTYPE_PRECISIONS; other dtypes compare exactly
_PRECISIONS = {
    dt.float16: (0.001, 1e-5),
    dt.bfloat16: (0.016, 1e-5),
    dt.float32: (1.3e-6, 1e-5),
    dt.float64: (1e-7, 1e-7),
}
_NUMBER_DTYPES = {bool: dt.bool, int: dt.int64, float: dt.float64}


class _Failure(Exception):
    """A mismatch found at ``path`` (items of nested inputs), raised as ``kind``."""

    def __init__(self, kind: type[Exception], msg: str, path: tuple = ()) -> None:
        super().__init__(msg)
        self.kind, self.msg, self.path = kind, msg, path


def _tolerances(dtypes: tuple, rtol: Any, atol: Any, path: tuple) -> tuple:
    if (rtol is None) ^ (atol is None):  # one alone could pass silently
        missing = "rtol" if rtol is None else "atol"
        raise _Failure(
            ValueError,
            "Both 'rtol' and 'atol' must be either specified or omitted, but got "
            f"no {missing}.",
            path,
        )
    if rtol is not None:
        return rtol, atol
    pairs = [_PRECISIONS.get(d, (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _mismatch_msg(
    what: str,
    extra: str,
    abs_diff: Any,
    rel_diff: Any,
    idx: Any,
    rtol: float,
    atol: float,
) -> str:
    equality = rtol == 0 and atol == 0
    lines = [f"{what} are not {'equal' if equality else 'close'}!", ""]
    if extra:
        lines.append(extra)
    for kind, diff, at, tol in (
        ("absolute", abs_diff, idx[0], atol),
        ("relative", rel_diff, idx[1], rtol),
    ):
        line = (
            f"{kind.title()} difference: {diff}"
            if at is None
            else (f"Greatest {kind} difference: {diff} at index {at}")
        )
        lines.append(line if equality else f"{line} (up to {tol} allowed)")
    return "\n".join(lines)


def _compare_numbers(actual: Any, expected: Any, opts: dict, path: tuple) -> None:
    if opts["check_dtype"] and type(actual) is not type(expected):
        raise _Failure(
            AssertionError,
            f"The (d)types do not match: {type(actual)} != {type(expected)}.",
            path,
        )
    dtypes = (_NUMBER_DTYPES[type(actual)], _NUMBER_DTYPES[type(expected)])
    rtol, atol = _tolerances(dtypes, opts["rtol"], opts["atol"], path)
    a, e = complex(actual), complex(expected)
    nan_ok = opts["equal_nan"] and np.isnan(a) and np.isnan(e)
    if nan_ok or a == e or abs(a - e) <= atol + rtol * abs(e):
        return
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    extra = f"Expected {expected} but got {actual}."
    msg = _mismatch_msg("Scalars", extra, abs_diff, rel_diff, (None, None), rtol, atol)
    raise _Failure(AssertionError, msg, path)


def _attribute(name: str, a: Any, e: Any, path: tuple) -> _Failure:
    return _Failure(
        AssertionError,
        f"The values for attribute '{name}' do not match: {a} != {e}.",
        path,
    )


def _compare_arrays(actual: Any, expected: Any, opts: dict, path: tuple) -> None:
    tensors = isinstance(actual, Tensor)
    a = actual._data if tensors else actual
    e = expected._data if tensors else expected
    shape = Size if tensors else tuple
    if a.shape != e.shape:
        raise _attribute("shape", shape(a.shape), shape(e.shape), path)
    da, de = dt.from_numpy_dtype(a.dtype), dt.from_numpy_dtype(e.dtype)
    if tensors and opts["check_stride"] and actual.stride() != expected.stride():
        raise _attribute("stride()", actual.stride(), expected.stride(), path)
    if opts["check_dtype"] and da is not de:
        raise _attribute(
            "dtype", da if tensors else a.dtype, de if tensors else e.dtype, path
        )
    rtol, atol = _tolerances((da, de), opts["rtol"], opts["atol"], path)
    if da is not de:  # compared in the dtype both promote to
        common = dt.promote(da, de).np
        a, e = a.astype(common), e.astype(common)
    with np.errstate(all="ignore"):
        matches = np.isclose(a, e, rtol, atol, opts["equal_nan"])
        if a.dtype == np.bool_:
            matches = a == e
        if matches.all():
            return
        if a.ndim == 0:
            _compare_numbers(a.item(), e.item(), {**opts, "rtol": rtol, "atol": atol,
                             "check_dtype": False}, path)  # fmt: skip
            return
        flat_a, flat_e, ok = a.ravel(), e.ravel(), matches.ravel()
        if not a.dtype.kind == "f":  # integers differ without wrapping around
            flat_a, flat_e = flat_a.astype(np.int64), flat_e.astype(np.int64)
        abs_diff = np.abs(flat_a - flat_e)
        abs_diff[ok] = 0
        rel_diff = abs_diff / np.abs(flat_e)
        rel_diff[ok] = 0
    mismatched = int(ok.size - ok.sum())
    extra = (
        f"Mismatched elements: {mismatched} / {ok.size} ({mismatched / ok.size:.1%})"
    )
    # PyTorch's max: the first greatest, a nan outranking every number
    ia = _argmax(abs_diff)
    ir = _argmax(rel_diff)
    where = (np.unravel_index(ia, a.shape), np.unravel_index(ir, a.shape))
    where = tuple(tuple(int(i) for i in w) for w in where)
    msg = _mismatch_msg(
        "Tensor-likes",
        extra,
        abs_diff[ia].item(),
        rel_diff[ir].item(),
        where,
        rtol,
        atol,
    )
    raise _Failure(AssertionError, msg, path)


def _argmax(values: np.ndarray) -> int:
    nans = np.flatnonzero(np.isnan(values))
    return int(nans[0]) if nans.size else int(np.argmax(values))


def _compare(actual: Any, expected: Any, opts: dict, path: tuple) -> None:
    numbers = (bool, int, float, complex)
    if type(actual) in numbers and type(expected) in numbers:
        return _compare_numbers(actual, expected, opts, path)
    if isinstance(actual, Tensor) and isinstance(expected, Tensor):
        return _compare_arrays(actual, expected, opts, path)
    if isinstance(actual, np.ndarray) and isinstance(expected, np.ndarray):
        return _compare_arrays(actual, expected, opts, path)
    if actual is None and expected is None:
        return None
    seq = collections.abc.Sequence
    if (
        isinstance(actual, seq)
        and isinstance(expected, seq)
        and not isinstance(actual, str)
        and not isinstance(expected, str)
    ):
        if len(actual) != len(expected):
            raise _Failure(
                AssertionError,
                "The length of the sequences mismatch: "
                f"{len(actual)} != {len(expected)}",
                path,
            )
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, opts, (*path, i))
        return None
    mapping = collections.abc.Mapping
    if isinstance(actual, mapping) and isinstance(expected, mapping):
        ka, ke = set(actual), set(expected)
        if ka != ke:
            lines = ["The keys of the mappings do not match:"]
            if ke - ka:
                lines.append(f"Missing keys in the actual mapping: {sorted(ke - ka)}")
            if ka - ke:
                lines.append(
                    f"Additional keys in the actual mapping: {sorted(ka - ke)}"
                )
            raise _Failure(AssertionError, "\n".join(lines), path)
        for key in sorted(ka):
            _compare(actual[key], expected[key], opts, (*path, key))
        return None
    raise _Failure(
        TypeError,
        "No comparison pair was able to handle inputs of type "
        f"{type(actual)} and {type(expected)}.",
        path,
    )


def assert_close(
    actual: Any,
    expected: Any,
    *,
    allow_subclasses: bool = True,
    rtol: float | None = None,
    atol: float | None = None,
    equal_nan: bool = False,
    check_device: bool = True,
    check_dtype: bool = True,
    check_layout: bool = True,
    check_stride: bool = False,
    msg: str | Callable[[str], str] | None = None,
) -> None:
    """Raise unless ``actual`` and ``expected`` are close: ``|a - e| <= atol +
    rtol * |e|`` elementwise, shapes and (by default) dtypes equal; with no
    tolerances given, those of the looser dtype (float32: 1.3e-6, 1e-5)."""
    opts = {
        "rtol": rtol,
        "atol": atol,
        "equal_nan": equal_nan,
        "check_dtype": check_dtype,
        "check_stride": check_stride,
    }
    try:
        _compare(actual, expected, opts, ())
    except _Failure as failure:
        text = failure.msg
        if failure.path:
            where = "".join(f"[{p!r}]" for p in failure.path)
            text += f"\n\nThe failure occurred for item {where}"
        if failure.kind is AssertionError and msg is not None:
            text = msg(text) if callable(msg) else msg
        raise failure.kind(text) from None
