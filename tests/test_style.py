"""The code is ruff clean (lint and format) at 88 columns, and no committed file
names a machine path."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ["minigrad", "viz", "tests", "benchmarks"]


def _ruff(*args: str) -> subprocess.CompletedProcess:
    exe = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(exe).exists():
        pytest.skip("ruff is not installed")
    return subprocess.run(
        [exe, *args, *SOURCES], cwd=ROOT, capture_output=True, text=True
    )


def test_ruff_lint() -> None:
    result = _ruff("check", "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = _ruff("format", "--check", "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_machine_paths() -> None:
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    if not tracked:
        pytest.skip("not a git checkout")
    pattern = re.compile(r"/(?:work|root|home/\w+)/[\w.-]+")
    offenders = []
    for name in tracked:
        path = ROOT / name
        if (
            path.suffix in {".py", ".md", ".toml", ".ipynb", ".txt", ""}
            and path.is_file()
        ):
            text = path.read_text(errors="ignore")
            if pattern.search(text):
                offenders.append(name)
    assert not offenders, f"machine paths in: {offenders}"


def test_test_files_have_unique_names() -> None:
    """pytest imports test modules by file name (the folders are not packages):
    two ``test_x.py`` in different folders stop the whole run at collection."""
    seen: dict[str, Path] = {}
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        assert path.name not in seen, f"{path} and {seen[path.name]}: rename one"
        seen[path.name] = path
