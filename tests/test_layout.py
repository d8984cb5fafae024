"""minigrad's imports run one way, so the import circle cannot grow back.

The layers, lowest first (DESIGN.md, "minigrad's teaching core and its import
direction"): dtype and grad modes -> node -> the core's breadth (anomaly mode,
saved-tensor hooks, step events, ``inputs=``...) -> function -> engine -> op helpers ->
op families -> views and in-place -> Tensor bindings -> Python data to arrays
-> the Tensor -> creation
-> autograd, func, nn, optim. A module may import its own layer and the layers
below it. The Tensor class is the one upward
reference and is handed down explicitly (``engine.bind_tensor_class``). An import
inside a function is allowed only with a comment saying why, and there are few.

The teaching core (minigrad/README.md's five files) stays at most ~1,700 lines.
The checks read the source with ``ast``; nothing is imported. The op families
(``ops/*.py``) are also held to one family per file: at most ~800 lines, with a
docstring that lists the file's classes.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "minigrad"

# Each layer as module-name prefixes; a module belongs to its longest match.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "base",
        (
            "minigrad._dtype",
            "minigrad._errors",
            "minigrad._warn",
            "minigrad._device",
            "minigrad._tensor_str",
            "minigrad.grad_mode",
            "minigrad.serialization",
            "minigrad.storage",
            "minigrad.utils",  # (the package; utils.data sits above, below)
            "minigrad.utils.hooks",
        ),
    ),
    ("node", ("minigrad.node",)),
    (
        "core breadth",  # what the core names and a reader may skip
        (
            "minigrad._anomaly",
            "minigrad._backward_io",
            "minigrad._saved_attrs",
            "minigrad._saved_hooks",
            "minigrad._selection",
            "minigrad._step_events",
            "minigrad._profiling",
        ),
    ),
    ("function", ("minigrad.function",)),
    ("fast paths", ("minigrad._fastpath",)),
    ("engine", ("minigrad.engine",)),
    ("op helpers", ("minigrad._formula", "minigrad.ops", "minigrad.ops._")),
    ("op families", ("minigrad.ops.",)),
    ("views and in-place", ("minigrad._views_inplace",)),
    ("tensor bindings", ("minigrad._tensor_base",)),
    ("python data", ("minigrad._from_data",)),  # lists to arrays, Tensor(2, 3)
    ("tensor", ("minigrad._tensor",)),
    ("creation", ("minigrad.creation", "minigrad._generator")),
    (
        "api",
        (
            "minigrad",
            "minigrad.autograd",
            "minigrad.distributions",
            "minigrad.gradcheck",
            "minigrad.testing",
            "minigrad.special",
            "minigrad._composites",
            "minigrad.func",
            "minigrad.nn",
            "minigrad.optim",
            "minigrad.profiler",
            "minigrad.utils.data",
            "minigrad.utils.checkpoint",
            "minigrad.__main__",
        ),
    ),
]
CORE = ("minigrad.node", "minigrad.function", "minigrad.engine")
MAX_FUNCTION_LEVEL_IMPORTS = 10  # the target: fewer than 10


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _layer(module: str) -> int:
    best, rank = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            matches = module == p or (p.endswith((".", "_")) and module.startswith(p))
            matches = matches or module.startswith(p + ".")
            if matches and len(p) > best:
                best, rank = len(p), i
    assert rank >= 0, f"{module} is in no layer: add it to LAYERS"
    return rank


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(module: str) -> list[tuple[str, ast.stmt, bool]]:
    """(imported minigrad module, the statement, inside a function?) for each
    import of a minigrad module; ``from . import x`` names the module ``x``."""
    path = MODULES[module]
    tree = ast.parse(path.read_text())
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, ast.stmt, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
            )
            if isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - child.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                if base == "minigrad" or base.startswith("minigrad."):
                    for alias in child.names:
                        sub = f"{base}.{alias.name}"
                        found.append((sub if sub in MODULES else base, child, inner))
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.startswith("minigrad"):
                        found.append((alias.name, child, inner))
            visit(child, inner)

    visit(tree, False)
    return found


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_level_imports_only_go_down(module: str) -> None:
    here = _layer(module)
    for target, stmt, inner in _imports(module):
        if inner:
            continue
        assert _layer(target) <= here, (
            f"{module} (layer {LAYERS[here][0]!r}) imports {target} (layer "
            f"{LAYERS[_layer(target)][0]!r}, above it) at line {stmt.lineno}"
        )


def test_the_core_imports_no_op_and_not_the_tensor() -> None:
    for module in CORE:
        for target, stmt, _ in _imports(module):
            assert not target.startswith("minigrad.ops"), (module, target)
            assert _layer(target) <= _layer(module), (module, target, stmt.lineno)


def test_the_formula_helpers_import_no_op_family() -> None:
    for target, _, _ in _imports("minigrad._formula"):
        family = target.startswith("minigrad.ops.") and not target.startswith(
            "minigrad.ops._"
        )
        assert not family, target


def test_function_level_imports_are_few_and_say_why() -> None:
    late = []
    for module, path in MODULES.items():
        lines = path.read_text().splitlines()
        for target, stmt, inner in _imports(module):
            if inner:
                late.append(f"{module}:{stmt.lineno} -> {target}")
                line = lines[stmt.lineno - 1]
                assert "#" in line, f"{module}:{stmt.lineno}: say why it is late"
    assert len(late) < MAX_FUNCTION_LEVEL_IMPORTS, "\n".join(late)


def test_nothing_patches_the_tensor_class_into_another_module() -> None:
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    patched = isinstance(t, ast.Attribute) and t.attr == "Tensor"
                    assert not patched, f"{module}:{node.lineno}: hand it down"


MAX_OP_FILE_LINES = 820  # the "about 800": one family per file, readable whole
OP_FILES = sorted((PACKAGE / "ops").glob("*.py"))


@pytest.mark.parametrize("path", OP_FILES, ids=[p.name for p in OP_FILES])
def test_each_op_file_is_one_family_of_about_800_lines(path: Path) -> None:
    lines = path.read_text().count("\n")
    assert lines <= MAX_OP_FILE_LINES, f"{path.name}: {lines} lines, split the family"


@pytest.mark.parametrize("path", OP_FILES, ids=[p.name for p in OP_FILES])
def test_each_op_file_lists_its_classes_in_its_docstring(path: Path) -> None:
    tree = ast.parse(path.read_text())
    doc = ast.get_docstring(tree) or ""
    assert doc, f"{path.name}: give the module a docstring"
    listed = {line.split()[0] for line in doc.splitlines() if line.startswith("    ")}
    classes = [n.name for n in tree.body if isinstance(n, ast.ClassDef)]
    missing = [c for c in classes if c not in listed]
    assert not missing, f"{path.name}: list these classes in the docstring: {missing}"


TEACHING_CORE = ("_tensor.py", "node.py", "function.py", "engine.py", "grad_mode.py")
MAX_TEACHING_CORE_LINES = 1700  # the "about 1,700", read in one sitting


def test_the_teaching_core_is_at_most_1700_lines() -> None:
    sizes = {name: (PACKAGE / name).read_text().count("\n") for name in TEACHING_CORE}
    total = sum(sizes.values())
    assert total <= MAX_TEACHING_CORE_LINES, (
        f"the teaching core is {total} lines {sizes}: move what is not the "
        "algorithm to a breadth module"
    )


def test_run_next_is_short() -> None:
    """The engine's loop body is a list of named steps, at most ~40 lines."""
    tree = ast.parse((PACKAGE / "engine.py").read_text())
    (fn,) = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef) and n.name == "run_next"
    ]
    lines = fn.end_lineno - fn.lineno + 1
    assert lines <= 45, f"run_next is {lines} lines: name its steps"


def test_no_import_circle_even_through_late_imports() -> None:
    """Every import, module-level or inside a function, follows the layers
    without a cycle (within a layer too): the structure reads one way."""
    graph = {m: {t for t, _, _ in _imports(m) if t != m} for m in MODULES}
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            cycle = path[path.index(module) :] + [module]
            raise AssertionError("import circle: " + " -> ".join(cycle))
        if module in done:
            return
        for target in sorted(graph.get(module, ())):
            visit(target, path + [module])
        done.add(module)

    for module in sorted(MODULES):
        visit(module, [])
