"""docs/derivatives.md is generated from the op classes and kept up to date."""

from __future__ import annotations

from pathlib import Path

from minigrad import _derivatives

PAGE = Path(__file__).resolve().parent.parent / "docs" / "derivatives.md"


def test_the_derivatives_page_is_up_to_date() -> None:
    assert PAGE.read_text() == _derivatives.render(), (
        "docs/derivatives.md is stale: run "
        "`python -m minigrad._derivatives > docs/derivatives.md`"
    )


def test_every_builtin_node_states_its_formula() -> None:
    functions = _derivatives.builtin_functions()
    assert len(functions) > 200  # (the registry sees every op class)
    missing = [f.__qualname__ for f in functions if not _derivatives.formula(f)]
    assert not missing, f"give these a one-line docstring formula: {missing}"
