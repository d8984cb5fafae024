"""The command line: ``python -m viz`` (or ``minigrad-lab``) ``demo`` / ``lessons``.

``demo [OUTDIR]`` draws the two seed graphs into a folder. It builds them with
minigrad when it is importable, else with torch (the only place viz touches
torch itself, and only for this demo), and writes SVG, PNG, PDF and DOT of the
backward and forward views.

``lessons [FOLDER]`` copies the lesson notebooks shipped in the package into a
writable folder (``minigrad-lessons`` in the current directory by default) and
opens JupyterLab there. A copy a student has changed is kept (``--force``
replaces it). Naming the lessons' own folder (``notebooks`` in a source
checkout) opens them in place, to edit the course itself.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import json
import os
import sys
import time
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .drawing import backward_graph, forward_graph

if TYPE_CHECKING:  # importlib.resources.abc is new in Python 3.11
    from importlib.resources.abc import Traversable

FORMATS = ("svg", "png", "pdf", "dot")
DEFAULT_LESSONS_FOLDER = Path("minigrad-lessons")
INDEX = "00_index.ipynb"
# what each lesson was when it was copied: a file that still matches was not
# edited by the student, so a newer shipped lesson may replace it
MANIFEST = ".minigrad-lab-lessons.json"
LAB_MISSING = (
    "JupyterLab is not installed: install the lab extra, "
    "pip install 'minigrad-lab[lab]' (in a source checkout: pip install -e '.[lab]')"
)


def framework() -> ModuleType:
    """minigrad if it is usable, else torch."""
    for name in ("minigrad", "torch"):
        try:
            module = importlib.import_module(name)
        except Exception:  # absent, or half-written
            continue
        if hasattr(module, "tensor") and hasattr(module, "ones"):
            return module
    raise SystemExit("the demo needs minigrad or torch: `pip install torch`")


def seed_graphs(t: ModuleType) -> dict[str, tuple[Any, dict[str, Any]]]:
    """name -> (output, params) for the two seed examples."""
    a = t.tensor(2.0, requires_grad=True)
    b = t.tensor(3.0, requires_grad=True)
    c = a * b
    d = t.tensor(4.0, requires_grad=True)
    e = c * d
    seed1 = (e, dict(a=a, b=b, c=c, d=d, e=e))

    x = t.ones(2, 2)
    w1 = t.tensor(2.0, requires_grad=True)
    w2 = t.tensor(3.0, requires_grad=True)
    w3 = t.tensor(4.0, requires_grad=True)
    l1 = x * w1
    l2 = l1 + w2
    l3 = l1 * w3
    l4 = l2 * l3
    loss = l4.mean()
    names = dict(input=x, w1=w1, w2=w2, w3=w3, l1=l1, l2=l2, l3=l3, l4=l4)
    seed2 = (loss, {**names, "loss": loss})
    return {"seed1": seed1, "seed2": seed2}


def demo(outdir: Path) -> list[Path]:
    fw = framework()
    print(f"building the seed graphs with {fw.__name__}")
    written = []
    outdir.mkdir(parents=True, exist_ok=True)  # (Drawing.save creates no folder)
    for name, (output, params) in seed_graphs(fw).items():
        for view, draw in (("backward", backward_graph), ("forward", forward_graph)):
            drawing = draw(output, params=params)
            for fmt in FORMATS:
                start = time.perf_counter()
                path = drawing.save(outdir / f"{name}-{view}.{fmt}", size="slide")
                ms = (time.perf_counter() - start) * 1000
                print(f"  {path}  ({ms:.0f} ms)")
                written.append(path)
    return written


# ---------------------------------------------------------------- lessons
def shipped_lessons() -> Traversable:
    """The lesson notebooks: package data ``viz/_lessons`` in an installed
    package, ``notebooks/`` beside ``viz/`` in a source checkout (which the
    packaging maps onto ``viz._lessons``)."""
    checkout = Path(__file__).resolve().parents[1]
    if (checkout / "pyproject.toml").is_file() and (
        checkout / "notebooks" / INDEX
    ).is_file():
        return checkout / "notebooks"
    return files("viz") / "_lessons"


@dataclass
class CopyReport:
    """What ``copy_lessons`` did with each notebook, by file name."""

    copied: list[str] = field(default_factory=list)  # new in the folder
    updated: list[str] = field(default_factory=list)  # unedited, newer shipped
    kept: list[str] = field(default_factory=list)  # edited by the student
    replaced: list[str] = field(default_factory=list)  # edited, --force
    unchanged: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = []
        for label, names in (
            ("copied", self.copied),
            ("updated to the shipped version", self.updated),
            ("replaced (--force)", self.replaced),
        ):
            if names:
                out.append(f"{label}: {', '.join(names)}")
        if self.kept:
            out.append(
                f"kept your edited copies of {', '.join(self.kept)} "
                "(--force replaces them with the shipped lessons)"
            )
        return out


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def copy_lessons(
    source: Traversable, folder: Path, *, force: bool = False
) -> CopyReport:
    """Copy the ``*.ipynb`` of ``source`` into ``folder``, keeping edited copies.

    A file is replaced only when it is missing, still exactly what an earlier
    copy wrote (so the student never changed it), or ``force`` is set.
    """
    lessons = sorted(
        (f for f in source.iterdir() if f.name.endswith(".ipynb")),
        key=lambda f: f.name,
    )
    if not any(f.name == INDEX for f in lessons):
        raise SystemExit(f"no lessons in {source}")
    folder.mkdir(parents=True, exist_ok=True)
    manifest_path = folder / MANIFEST
    try:
        manifest = json.loads(manifest_path.read_text())
    except (OSError, ValueError):
        manifest = {}
    report = CopyReport()
    for lesson in lessons:
        data = lesson.read_bytes()
        target = folder / lesson.name
        if not target.exists():
            status = report.copied
        else:
            current = _digest(target.read_bytes())
            if current == _digest(data):
                report.unchanged.append(lesson.name)
                manifest[lesson.name] = current
                continue
            if current == manifest.get(lesson.name):
                status = report.updated
            elif force:
                status = report.replaced
            else:
                report.kept.append(lesson.name)
                continue
        target.write_bytes(data)
        manifest[lesson.name] = _digest(data)
        status.append(lesson.name)
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return report


def lessons_command(folder: Path, extra: list[str]) -> list[str]:
    """The command that opens JupyterLab on the lesson index in ``folder``."""
    if not (folder / INDEX).exists():
        raise SystemExit(f"no lessons in {folder}: pass the lessons folder")
    if importlib.util.find_spec("jupyterlab") is None:
        raise SystemExit(f"the lessons are in {folder}. {LAB_MISSING}")
    cmd = [sys.executable, "-m", "jupyterlab", str(folder / INDEX)]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # JupyterLab refuses root without it
    return cmd + extra


def open_lessons(
    folder: Path | None, extra: list[str], *, force: bool, dry_run: bool
) -> list[str]:
    """Copy the lessons into ``folder`` (unless it is their own folder), then
    start JupyterLab there, or only print its command when ``dry_run``."""
    folder = DEFAULT_LESSONS_FOLDER if folder is None else folder
    source = shipped_lessons()
    in_place = isinstance(source, Path) and (
        folder.exists() and folder.resolve() == source.resolve()
    )
    if in_place:
        print(f"opening the lessons in place: {folder}")
    else:
        report = copy_lessons(source, folder, force=force)
        print(f"lessons in {folder.resolve()}")
        for line in report.lines():
            print(f"  {line}")
    cmd = lessons_command(folder, extra)
    print(" ".join(cmd))
    if not dry_run:
        sys.stdout.flush()
        os.execv(cmd[0], cmd)  # JupyterLab takes over this process
    return cmd


def main(argv: list[str] | None = None) -> int:
    prog = "minigrad-lab" if Path(sys.argv[0]).name == "minigrad-lab" else None
    parser = argparse.ArgumentParser(prog=prog or "python -m viz")
    sub = parser.add_subparsers(dest="command", required=True)
    p_demo = sub.add_parser("demo", help="draw the seed graphs as svg/png/pdf/dot")
    p_demo.add_argument("outdir", nargs="?", default="viz-demo", type=Path)
    p_lessons = sub.add_parser(
        "lessons",
        help="copy the lessons into a folder and open them in JupyterLab",
        description="Other options (e.g. --no-browser, --port=8900) go to JupyterLab.",
    )
    p_lessons.add_argument(
        "folder",
        nargs="?",
        type=Path,
        default=None,
        help=f"where the lessons go (default: ./{DEFAULT_LESSONS_FOLDER})",
    )
    p_lessons.add_argument(
        "--force", action="store_true", help="replace lessons you have edited"
    )
    p_lessons.add_argument(
        "--dry-run",
        action="store_true",
        help="copy the lessons and print JupyterLab's command without starting it",
    )
    args, extra = parser.parse_known_args(argv)
    if args.command == "demo":
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        demo(args.outdir)
    elif args.command == "lessons":
        open_lessons(args.folder, extra, force=args.force, dry_run=args.dry_run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
