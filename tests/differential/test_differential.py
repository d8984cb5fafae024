"""Each program must print exactly the same under torch and minigrad."""

from pathlib import Path

import pytest
from harness import compare, diff

pytest.importorskip("torch")

PROGRAMS_DIR = Path(__file__).parent / "programs"
PROGRAMS = sorted(PROGRAMS_DIR.glob("*.py"))


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_program_matches_torch(program: Path) -> None:
    source = program.read_text(encoding="utf-8")
    torch_out, minigrad_out = compare(source)
    if minigrad_out != torch_out:
        # pytrace=False: the unified diff is the whole, readable report.
        pytest.fail(
            f"{program.name}: minigrad transcript differs from torch\n"
            + diff(torch_out, minigrad_out, program.name),
            pytrace=False,
        )
