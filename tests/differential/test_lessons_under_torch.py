"""Lessons that say they print the same under PyTorch, run under both.

A lesson's code cells (its exercises answered with tests/lesson_solutions.py)
are joined into one program whose ``import minigrad as torch`` line becomes
``import torch``; the harness runs it under PyTorch 2.13 and, with the import
rewritten back, under minigrad, and the two transcripts must be equal. The
drawings and steppers run too (viz draws either library's graphs); what they
print is compared like the rest.
"""

from __future__ import annotations

import gc
import importlib.util
from pathlib import Path

import pytest
from harness import compare, diff

pytest.importorskip("torch")
nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parents[2]
# Not here: 03 prints sequence numbers (a process-wide counter), 13 gets
# DeprecationWarnings from inside torch.autograd.functional, 09 prints its
# training time, 10 imports both libraries itself.
LESSONS = [
    "01_tensors_and_leaves",
    "02_grad_fn_and_saved_tensors",
    "04_non_leaf_grads_and_hooks",
    "05_vector_jacobian_products",
    "06_inplace_and_versions",
    "07_retain_graph_and_higher_order",
    "08_custom_function",
    "11_backprop_through_time",
    "12_convolutions",
    "14_cutting_gradients",
]


def _solutions() -> dict[str, dict[str, str]]:
    path = ROOT / "tests" / "lesson_solutions.py"
    spec = importlib.util.spec_from_file_location("lesson_solutions", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SOLUTIONS


def lesson_program(stem: str) -> str:
    nb = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    answers = _solutions().get(stem, {})
    cells = [
        answers.get(cell.id, cell.source)
        for cell in nb.cells
        if cell.cell_type == "code"
    ]
    program = "\n\n".join(cells) + "\n"
    assert program.count("import minigrad as torch\n") == 1
    return program.replace("import minigrad as torch\n", "import torch\n")


def _close_steppers() -> None:
    """A lesson leaves steppers mid-pass, as a student would; under PyTorch each
    keeps a worker thread waiting inside backward. The lessons run in this
    process, so close them (ending the workers) before the next test."""
    from viz.stepper import BackwardStepper

    for obj in gc.get_objects():
        # type(), not isinstance: isinstance reads __class__, which warns on
        # torch's deprecated torch.distributed.reduce_op object
        if issubclass(type(obj), BackwardStepper):
            obj.close()


@pytest.mark.parametrize("stem", LESSONS)
def test_lesson_prints_the_same_under_torch(
    stem: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the export cells write slides/ here
    try:
        torch_out, minigrad_out = compare(lesson_program(stem))
    finally:
        _close_steppers()
    # it ran to the end under PyTorch, every exercise's check passing
    assert "Error" not in torch_out.splitlines()[-1], torch_out[-2000:]
    assert "Correct!" in torch_out and "Not yet" not in torch_out
    if minigrad_out != torch_out:
        pytest.fail(
            f"{stem}: minigrad prints differently from torch\n"
            + diff(torch_out, minigrad_out, stem),
            pytrace=False,
        )
