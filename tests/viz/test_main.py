"""``python -m viz lessons``: the README's main command opens the lessons."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from viz.__main__ import lessons_command

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def test_lessons_opens_the_index_in_jupyterlab() -> None:
    cmd = lessons_command(None, ["--no-browser"])
    assert cmd[1:4] == ["-m", "jupyter", "lab"]
    assert Path(cmd[4]) == NOTEBOOKS / "00_index.ipynb"
    assert cmd[-1] == "--no-browser"
    assert ("--allow-root" in cmd) == (os.geteuid() == 0)


def test_lessons_refuses_a_folder_without_lessons(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no lessons in"):
        lessons_command(tmp_path, [])
