"""``python -m viz lessons``: the lessons are copied into a writable folder
(a student's edited copy is kept) and JupyterLab opens the index there."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from viz import __main__ as cli

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
LESSONS = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))


def run(folder: Path, *, force: bool = False) -> list[str]:
    """`lessons FOLDER --dry-run`: JupyterLab's command."""
    return cli.open_lessons(folder, [], force=force, dry_run=True)


def test_a_checkout_ships_its_notebooks_folder() -> None:
    assert Path(str(cli.shipped_lessons())) == NOTEBOOKS
    assert cli.INDEX in LESSONS and len(LESSONS) > 10


def test_lessons_are_copied_and_jupyterlab_opens_the_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "class"
    cmd = cli.open_lessons(folder, ["--no-browser"], force=False, dry_run=True)
    assert sorted(p.name for p in folder.glob("*.ipynb")) == LESSONS
    for name in LESSONS:
        assert (folder / name).read_bytes() == (NOTEBOOKS / name).read_bytes()
    assert cmd[:4] == [sys.executable, "-m", "jupyterlab", str(folder / cli.INDEX)]
    assert cmd[-1] == "--no-browser"
    assert ("--allow-root" in cmd) == (os.geteuid() == 0)
    out = capsys.readouterr().out
    assert f"lessons in {folder.resolve()}" in out
    assert "copied: 00_index.ipynb, 01_" in out
    assert " ".join(cmd) in out


def test_default_folder_is_in_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    cli.main(["lessons", "--dry-run", "--no-browser"])
    assert (tmp_path / "minigrad-lessons" / cli.INDEX).is_file()


def test_an_edited_lesson_is_kept_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(tmp_path)
    edited = tmp_path / "03_backward_step_by_step.ipynb"
    edited.write_text('{"my": "answers"}')
    (tmp_path / "05_vector_jacobian_products.ipynb").unlink()
    capsys.readouterr()

    run(tmp_path)
    assert edited.read_text() == '{"my": "answers"}'
    out = capsys.readouterr().out
    assert "copied: 05_vector_jacobian_products.ipynb" in out
    assert "kept your edited copies of 03_backward_step_by_step.ipynb" in out
    assert "--force" in out

    run(tmp_path, force=True)
    assert edited.read_bytes() == (NOTEBOOKS / edited.name).read_bytes()
    assert "replaced (--force): 03_backward_step_by_step.ipynb" in (
        capsys.readouterr().out
    )


def test_an_unedited_old_copy_is_updated(tmp_path: Path) -> None:
    """The manifest tells an old shipped lesson from a student's edit."""
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / cli.INDEX).write_text("version 1")
    folder = tmp_path / "class"
    cli.copy_lessons(shipped, folder)
    (shipped / cli.INDEX).write_text("version 2")
    report = cli.copy_lessons(shipped, folder)
    assert report.updated == [cli.INDEX] and not report.kept
    assert (folder / cli.INDEX).read_text() == "version 2"

    (folder / cli.INDEX).write_text("student's")
    (shipped / cli.INDEX).write_text("version 3")
    report = cli.copy_lessons(shipped, folder)
    assert report.kept == [cli.INDEX]
    assert (folder / cli.INDEX).read_text() == "student's"


def test_the_lessons_folder_itself_opens_in_place(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = {p.name: p.stat().st_mtime_ns for p in NOTEBOOKS.iterdir()}
    cmd = run(NOTEBOOKS)
    assert cmd[3] == str(NOTEBOOKS / cli.INDEX)
    assert "opening the lessons in place" in capsys.readouterr().out
    assert {p.name: p.stat().st_mtime_ns for p in NOTEBOOKS.iterdir()} == before


def test_without_jupyterlab_it_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = cli.importlib.util.find_spec
    monkeypatch.setattr(
        cli.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "jupyterlab" else real(name, *a),
    )
    with pytest.raises(SystemExit) as exc:
        run(tmp_path)
    message = str(exc.value)
    assert "minigrad-lab[lab]" in message and "-e '.[lab]'" in message
    assert f"the lessons are in {tmp_path}" in message
    assert (tmp_path / cli.INDEX).is_file()


def test_lessons_refuses_a_source_without_lessons(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no lessons in"):
        cli.copy_lessons(tmp_path, tmp_path / "class")


def test_demo_refuses_extra_arguments() -> None:
    with pytest.raises(SystemExit):
        cli.main(["demo", "out", "--bogus"])
