"""``python -m minigrad lesson.py [args]``: run an unmodified PyTorch script on
minigrad (its ``import torch`` lines give minigrad; see ``minigrad.as_torch``)."""

from __future__ import annotations

import os
import runpy
import sys
import traceback
import warnings
from pathlib import Path

import minigrad

USAGE = "usage: python -m minigrad script.py [args ...]"
_PACKAGE = str(Path(minigrad.__file__).parent) + os.sep


def _lesson_frames(stack: list, path: str) -> list:
    """The frames a traceback of ``python script.py`` under PyTorch shows: from
    the script's own frame on (not this runner's and runpy's), without
    minigrad's innermost frames, where PyTorch raises from its C++ code at the
    user's line."""
    start = next((i for i, f in enumerate(stack) if f.filename == path), 0)
    frames = list(stack)[start:]
    while len(frames) > 1 and frames[-1].filename.startswith(_PACKAGE):
        frames.pop()
    return frames


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr if not argv else sys.stdout)
        return 0 if argv else 2
    script = argv[0]
    if not Path(script).is_file():
        print(f"{USAGE}\nminigrad: can't open file {script!r}", file=sys.stderr)
        return 2
    with warnings.catch_warnings(record=True) as notes:
        warnings.simplefilter("always")
        minigrad.as_torch()
    for note in notes:  # one plain line, not a warning pointing into minigrad
        print(note.message, file=sys.stderr)
    # As ``python script.py`` would: its argv, its folder first on the path,
    # its absolute path as __file__ (warnings and tracebacks name it so).
    path = str(Path(script).resolve())
    sys.argv = [script, *argv[1:]]
    sys.path[0] = str(Path(path).parent)
    try:
        runpy.run_path(path, run_name="__main__")
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException as exc:
        report = traceback.TracebackException.from_exception(exc)
        report.stack = traceback.StackSummary.from_list(
            _lesson_frames(report.stack, path)
        )
        print("".join(report.format()), end="", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
