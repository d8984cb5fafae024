"""PyTorch lessons written by others, unmodified, print the same under minigrad.

Point ``MINIGRAD_CORPUS`` at a folder of lesson scripts (tutorials, docs pages,
course code you teach from, shrunk to small deterministic inputs, ``import
torch`` lines as written). Each runs as ``python lesson.py`` under PyTorch 2.13
and as ``python -m minigrad lesson.py`` (the entry point a teacher uses,
imports untouched); the printed transcripts must agree, numbers up to float32
noise (``close_transcripts``), since a matmul or a long loop sums in another
order than PyTorch's kernels.

The project does not ship such a corpus: code taken from public sources is not
committed here. Without ``MINIGRAD_CORPUS`` these tests are skipped.

A lesson that fails under PyTorch 2.13 as written (old code, or a tutorial's
own bug) stays: minigrad must print the same and fail with the same error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from harness import close_transcripts, diff, normalize

pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parents[2]
_FOLDER = os.environ.get("MINIGRAD_CORPUS")
CORPUS = Path(_FOLDER) if _FOLDER else None
if CORPUS is None:
    pytest.skip("set MINIGRAD_CORPUS to a folder of lessons", allow_module_level=True)

LESSONS = sorted(CORPUS.glob("*.py"))


def _python(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=cwd, env=env
    )


def _transcript(stdout: str, status: int, last_error_line: str, framework: str) -> str:
    """What the lesson printed, then, if it failed, its exit status and the
    exception line (the traceback's paths differ between frameworks)."""
    if status:
        stdout += f"exit status {status}: {last_error_line}\n"
    return normalize(stdout, framework)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def torch_transcripts() -> dict[str, str]:
    """Every lesson under PyTorch, in one process that imports torch once."""
    runner = Path(__file__).with_name("lesson_runner.py")
    result = _python(str(runner), *map(str, LESSONS), cwd=CORPUS)
    assert result.returncode == 0, result.stderr
    runs = json.loads(result.stdout)
    return {p.name: _transcript(*run, "torch") for p, run in zip(LESSONS, runs)}


def _minigrad_transcript(lesson: Path) -> str:
    """The lesson through minigrad's runner: ``python -m minigrad lesson.py``."""
    result = _python("-m", "minigrad", lesson.name, cwd=lesson.parent)
    lines = result.stderr.strip().splitlines() or [""]
    return _transcript(result.stdout, result.returncode, lines[-1], "minigrad")


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.name for p in LESSONS])
def test_lesson_prints_what_pytorch_prints(
    lesson: Path, torch_transcripts: dict[str, str]
) -> None:
    # A lesson may fail under PyTorch 2.13 (old code, a tutorial's bug): then
    # minigrad must fail the same way, after printing the same.
    expected = torch_transcripts[lesson.name]
    actual = _minigrad_transcript(lesson)
    if not close_transcripts(expected, actual):
        pytest.fail(
            f"{lesson.name}: minigrad transcript differs from torch\n"
            + diff(expected, actual, lesson.name),
            pytrace=False,
        )
