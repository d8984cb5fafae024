"""Run many lesson scripts under PyTorch, paying for ``import torch`` once.

``python lesson_runner.py a.py b.py ...`` imports torch, then runs each script
in a forked child (a fresh copy of the process: nothing one lesson changes
reaches the next) as ``python a.py`` would run it, and prints a JSON list of
``[stdout, exit status, last stderr line]``, one per script.  Importing torch
takes seconds on a busy machine; a fork takes milliseconds.
"""

from __future__ import annotations

import json
import os
import runpy
import sys
import tempfile
import traceback
from pathlib import Path


def _child(script: Path, out_fd: int, err_fd: int) -> None:
    os.dup2(out_fd, 1)
    os.dup2(err_fd, 2)
    os.chdir(script.parent)
    sys.argv = [script.name]
    sys.path[0] = str(script.parent)
    status = 0
    try:
        runpy.run_path(script.name, run_name="__main__")
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def run(script: Path) -> list:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            _child(script, out.fileno(), err.fileno())
        _, wait_status = os.waitpid(pid, 0)
        out.seek(0)
        err.seek(0)
        stderr = err.read().decode().strip().splitlines() or [""]
        return [out.read().decode(), os.waitstatus_to_exitcode(wait_status), stderr[-1]]


def main(scripts: list[str]) -> None:
    import torch  # noqa: F401  (once, before the forks)

    results = [run(Path(s).resolve()) for s in scripts]
    sys.stdout.write(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1:])
