"""``python -m minigrad lesson.py [args]``: run an unmodified PyTorch script on
minigrad (its ``import torch`` lines give minigrad; see ``minigrad.as_torch``)."""

from __future__ import annotations

import runpy
import sys
import warnings
from pathlib import Path

import minigrad

USAGE = "usage: python -m minigrad script.py [args ...]"


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
    # As ``python script.py`` would: its argv, its folder first on the path.
    sys.argv = [script, *argv[1:]]
    sys.path[0] = str(Path(script).resolve().parent)
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
