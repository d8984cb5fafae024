"""The lesson notebooks run top to bottom, and are stored without outputs.

Each notebook is executed with nbclient in a temporary working directory (so
the "export for slides" cells write there, not into the repository). The kernel
is this test's own interpreter: a `python3` kernel spec pointing at
`sys.executable` is written to a temporary directory that comes first on
`JUPYTER_PATH`, so a `python3` kernel installed elsewhere on the machine (in
the user's home, another venv...) cannot be picked up by mistake.
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
IDS = [p.stem for p in NOTEBOOKS]


def _load_solutions():
    """tests/lesson_solutions.py, loaded by path (tests/ is not a package)."""
    path = Path(__file__).with_name("lesson_solutions.py")
    spec = importlib.util.spec_from_file_location("lesson_solutions", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_ANSWERS = _load_solutions()
WITH_BLANKS = [p for p in NOTEBOOKS if p.stem in _ANSWERS.SOLUTIONS]


def _fill_in(nb, stem: str) -> None:
    """Put the solutions in place of the blank answer cells."""
    solutions = _ANSWERS.SOLUTIONS.get(stem, {})
    cells = {cell.id: cell for cell in nb.cells}
    for cell_id, source in solutions.items():
        assert "..." in cells[cell_id].source, f"{stem} {cell_id} is not a blank"
        cells[cell_id].source = source


def _need(*modules: str) -> None:
    for name in modules:
        pytest.importorskip(
            name, reason=f"{name} is not installed (pip install -e '.[test]')"
        )


@pytest.fixture(scope="session")
def python3_kernel(tmp_path_factory: pytest.TempPathFactory):
    """A `python3` kernel spec that runs this interpreter."""
    _need("nbclient", "nbformat", "ipykernel")
    from ipykernel.kernelspec import install

    prefix = tmp_path_factory.mktemp("kernel")
    install(kernel_name="python3", prefix=str(prefix))  # argv[0] = sys.executable
    old = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        [str(prefix / "share" / "jupyter"), *([old] if old else [])]
    )
    yield "python3"
    if old is None:
        del os.environ["JUPYTER_PATH"]
    else:
        os.environ["JUPYTER_PATH"] = old


# Run in the kernel after the last cell: every live stepper widget (one is made
# only when a stepper is displayed), with the frame it shows, then the error its
# pass ends with when a student clicks "Run to end" (None if it runs through).
STEPPER_PROBE = """
import json as _json
from ipywidgets.widgets import widget as _widget
_shown = {}
for _id, _w in list(_widget._instances.items()):
    _s = getattr(_w, "stepper", None)
    if _s is not None and hasattr(_s, "position"):
        _shown[_id] = {"position": _s.position}
        _s.run_all()
        _shown[_id]["error"] = _s.error
print("STEPPERS " + _json.dumps(_shown))
"""

# Steppers a lesson displays on purpose to show a pass that fails.
FAILING_ON_PURPOSE = {"03_backward_step_by_step": 1}


def _displayed_widgets(nb) -> list[str]:
    """Model ids of the widgets shown in the executed cells' outputs."""
    ids = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get("application/vnd.jupyter.widget-view+json")
            if view:
                ids.append(view["model_id"])
    return ids


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_runs(path: Path, python3_kernel: str, tmp_path: Path) -> None:
    """Run All works, and leaves every stepper the lesson shows at frame 0
    (export and demonstration cells use steppers of their own)."""
    import json

    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(path, as_version=4)
    _fill_in(nb, path.stem)
    nb.cells.append(nbformat.v4.new_code_cell(STEPPER_PROBE))
    client = NotebookClient(
        nb,
        timeout=300,
        kernel_name=python3_kernel,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    try:
        client.execute()
    except CellExecutionError as e:
        pytest.fail(f"{path.name}: a cell failed\n{e}", pytrace=False)

    probe = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    steppers = json.loads(probe.split("STEPPERS ", 1)[1])
    shown = _displayed_widgets(nb)
    moved = {i: s["position"] for i, s in steppers.items() if s["position"] != 0}
    assert not moved, f"{path.name}: steppers not at frame 0 after Run All: {moved}"
    assert set(steppers) <= set(shown), "a stepper widget was made but not shown"
    failing = [s["error"] for s in steppers.values() if s["error"]]
    assert len(failing) == FAILING_ON_PURPOSE.get(path.stem, 0), (
        f"{path.name}: stepping the shown steppers to the end fails: {failing}"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_is_stripped(path: Path) -> None:
    _need("nbformat")
    import nbformat

    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert "widgets" not in nb.metadata, "metadata.widgets is stored"
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not cell.get("outputs"), f"cell {cell.id} has stored outputs"
            assert cell.get("execution_count") is None, (
                f"cell {cell.id} has an execution count"
            )
        assert "widgets" not in cell.get("metadata", {}), f"cell {cell.id} widgets"


def test_index_links_every_lesson() -> None:
    _need("nbformat")
    import nbformat

    index = [p for p in NOTEBOOKS if p.name.startswith("00_")]
    if not index:
        pytest.skip("no index notebook")
    nb = nbformat.read(index[0], as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    linked = set(re.findall(r"\(([\w.-]+\.ipynb)\)", text))
    missing = {p.name for p in NOTEBOOKS} - linked - {index[0].name}
    assert not missing, f"{index[0].name} does not link {sorted(missing)}"
    dangling = {name for name in linked if name not in {p.name for p in NOTEBOOKS}}
    # Lessons still being written are listed as "coming", without a link.
    assert not dangling, f"{index[0].name} links missing notebooks {sorted(dangling)}"


# Lesson 10 imports both libraries on purpose; the others switch with one line.
BOTH_LIBRARIES = {"10_minigrad_vs_pytorch"}
ONE_LIBRARY = [p for p in NOTEBOOKS if p.stem not in BOTH_LIBRARIES]


@pytest.mark.parametrize("path", ONE_LIBRARY, ids=[p.stem for p in ONE_LIBRARY])
def test_one_line_switches_the_library(path: Path) -> None:
    """`import minigrad as torch` is the only line naming minigrad, except
    lines marked `# minigrad-only`; so changing it to `import torch` runs the
    lesson on PyTorch."""
    _need("nbformat")
    import nbformat

    nb = nbformat.read(path, as_version=4)
    lines = [
        line
        for cell in nb.cells
        if cell.cell_type == "code"
        for line in cell.source.splitlines()
        if "minigrad" in line and "# minigrad-only" not in line
    ]
    assert lines.count("import minigrad as torch") == 1, lines
    others = [line for line in lines if line != "import minigrad as torch"]
    assert not others, f"{path.name}: lines that name minigrad: {others}"


@pytest.mark.parametrize("path", WITH_BLANKS, ids=[p.stem for p in WITH_BLANKS])
def test_blank_exercises_fail(path: Path, python3_kernel: str, tmp_path: Path) -> None:
    """With the blanks the lesson ships, every check says "Not yet" (and Run All
    goes on to the later cells); with a wrong answer in place, every check raises.
    The wrong answers run in the kernel of the blanks, as a student's second Run
    All would (one kernel start, not two)."""
    import nbformat
    from nbclient import NotebookClient

    client = NotebookClient(
        nbformat.v4.new_notebook(),
        timeout=300,
        kernel_name=python3_kernel,
        allow_errors=True,
        resources={"metadata": {"path": str(tmp_path)}},
    )

    def text(cell: nbformat.NotebookNode) -> str:
        return "".join(o.get("text", "") for o in cell.outputs)

    blank = nbformat.read(path, as_version=4)
    wrong = nbformat.read(path, as_version=4)
    for cell in wrong.cells:
        if cell.id in _ANSWERS.SOLUTIONS[path.stem]:
            assert "..." in cell.source, cell.id
            cell.source = cell.source.replace("...", "'a wrong answer'")
    try:
        client.nb = blank
        client.execute(cleanup_kc=False)  # the kernel stays up for the next run
        client.nb = wrong
        client.execute()
    finally:
        if client.km is not None and client.km.has_kernel:  # a run failed
            client.km.shutdown_kernel(now=True)

    cells = {cell.id: cell for cell in blank.cells}
    for cell_id in _ANSWERS.CHECKS[path.stem]:
        errors = [o for o in cells[cell_id].outputs if o.output_type == "error"]
        assert not errors, f"{path.name}: check {cell_id} stops Run All on a blank"
        assert "Not yet" in text(cells[cell_id]), f"{path.name}: {cell_id}"
        assert "Correct!" not in text(cells[cell_id]), f"{path.name}: {cell_id}"

    cells = {cell.id: cell for cell in wrong.cells}
    for cell_id in _ANSWERS.CHECKS[path.stem]:
        errors = [o for o in cells[cell_id].outputs if o.output_type == "error"]
        assert errors, f"{path.name}: check {cell_id} passes with a wrong answer"
        assert "Correct!" not in text(cells[cell_id])
