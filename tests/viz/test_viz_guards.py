"""Guards with clear errors: dpi, odd characters in names, folders, frame budgets."""

from __future__ import annotations

import pytest

import viz


@pytest.fixture
def drawing(framework):
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    return viz.backward_graph((a * 2).sum(), params={"a": a})


def small_stepper(minigrad):
    a = minigrad.tensor([1.0, 2.0], requires_grad=True)
    return viz.BackwardStepper((a * 3).sum(), params={"a": a})  # 3 nodes


@pytest.mark.parametrize("dpi", [100000, 0, -5])
def test_dpi_is_bounded(drawing, tmp_path, dpi):
    with pytest.raises(ValueError, match="dpi must be between 10 and 600"):
        drawing.save(tmp_path / "x.png", dpi=dpi)
    assert not (tmp_path / "x.png").exists()


def test_stepper_dpi_is_bounded(minigrad, tmp_path):
    with pytest.raises(ValueError, match="dpi must be between"):
        small_stepper(minigrad).save(tmp_path / "f", fmt="png", dpi=5000)


def test_control_characters_and_surrogates_are_escaped(framework):
    a = framework.tensor([1.0], requires_grad=True)
    odd = "bell\x07 nul\x00 lone\ud800 tab\tnewline\n<b>"
    d = viz.backward_graph(a * 2, params={odd: a})
    svg = d.svg()  # drawable: nothing the engine or UTF-8 rejects
    assert r"bell\x07 nul\x00 lone\ud800" in svg and "&lt;b&gt;" in svg
    assert "\x07" not in d.source and "\ud800" not in d.source


def test_missing_folder_is_an_error_that_says_so(drawing, tmp_path):
    target = tmp_path / "no" / "such" / "folder" / "x.svg"
    missing = str(tmp_path / "no")
    with pytest.raises(FileNotFoundError, match=f"the folder '{missing}' does not"):
        drawing.save(target)
    assert not (tmp_path / "no").exists()  # no chain of folders created


def test_the_files_own_folder_is_created(drawing, tmp_path):
    # as lessons do: drawing.save("slides/x.svg") next to the notebook
    assert drawing.save(tmp_path / "slides" / "x.svg").is_file()


def test_a_file_in_the_parent_path_is_named(drawing, tmp_path):
    (tmp_path / "notes.txt").write_text("a file")
    with pytest.raises(NotADirectoryError, match="notes.txt' is a file"):
        drawing.save(tmp_path / "notes.txt" / "x.svg")


def test_stepper_exports_check_folders_too(minigrad, tmp_path):
    stepper = small_stepper(minigrad)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        stepper.save(tmp_path / "missing" / "deeper" / "steps.pdf")
    (tmp_path / "frames").write_text("a file")
    with pytest.raises(NotADirectoryError, match="is a file"):
        stepper.save(tmp_path / "frames", fmt="svg")


def test_frame_exports_have_a_budget(minigrad, tmp_path):
    stepper = small_stepper(minigrad)
    with pytest.raises(ValueError, match=r"4 frames.*PDF or the HTML.*max_frames=4"):
        stepper.save(tmp_path / "steps.gif", max_frames=3)
    with pytest.raises(ValueError, match="max_frames"):
        stepper.save(tmp_path / "frames", fmt="png", max_frames=3)
    assert not (tmp_path / "frames").exists()


def test_long_exports_report_progress(minigrad, tmp_path, capsys):
    stepper = small_stepper(minigrad)
    stepper.save(tmp_path / "frames", fmt="svg", progress=True)
    err = capsys.readouterr().err
    assert "frame 1 of 4" in err and err.rstrip().endswith("frame 4 of 4")
    stepper.save(tmp_path / "frames", fmt="svg")  # few frames: quiet by default
    assert capsys.readouterr().err == ""
