"""The package a teacher hands out: metadata, the built wheel and sdist, and the
wheel installed into a fresh venv outside the checkout (README example,
``minigrad-lab lessons`` with a started-and-stopped JupyterLab, the demo).

The fresh venv gets the wheel itself; its dependencies are borrowed from this
interpreter's site-packages (a path in a ``.pth`` file, which runs none of the
``.pth`` hooks found there, so an editable install of this checkout stays
out), which keeps the suite offline and fast. With
``MINIGRAD_PACKAGING_FROM_INDEX=1`` (``.ci/run`` sets it) the venv installs
the wheel's declared dependencies and its ``lab`` extra from the package index
instead, as on a student's machine, and the wheel is also installed with numpy
alone on every interpreter from 3.10 to 3.13 this machine has.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import threading
import time
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.requirements import Requirement

try:
    import tomllib
except ImportError:  # Python 3.10: pytest depends on tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
LESSONS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
FROM_INDEX = os.environ.get("MINIGRAD_PACKAGING_FROM_INDEX") == "1"
TESTED_PYTHONS = ["3.10", "3.11", "3.12", "3.13"]


# ----------------------------------------------------------------- metadata
def requirements(group: str | None = None) -> dict[str, Requirement]:
    listed = (
        PROJECT["dependencies"]
        if group is None
        else PROJECT["optional-dependencies"][group]
    )
    return {r.name: r for r in map(Requirement, listed)}


def test_license_is_an_spdx_expression_with_its_file() -> None:
    assert PROJECT["license"] == "MIT"
    assert PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the minigrad-lab authors" in text


def test_build_backend_is_bounded_from_pep_639_support() -> None:
    backend = Requirement(PYPROJECT["build-system"]["requires"][0])
    assert backend.name == "setuptools"
    spec = backend.specifier
    assert not spec.contains("77.0.2") and spec.contains("77.0.3")
    assert any(s.operator == "<" for s in spec), "no upper bound"
    # the wheel below is built with the installed setuptools: the test extra
    # pins it inside the same bounds
    assert requirements("test")["setuptools"].specifier == spec
    from importlib.metadata import version

    assert spec.contains(version("setuptools"))


def test_dependencies_declare_what_is_tested() -> None:
    base = requirements()
    assert str(base["numpy"].specifier) == ">=2"  # 1.x: float64 from 1/x (0-d)
    assert "pillow" in base  # GIF export
    test = requirements("test")
    assert "pytest-xdist" not in test  # nothing runs tests in parallel
    (ruff_pin,) = test["ruff"].specifier
    assert ruff_pin.operator == "=="
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if Path(ruff).exists():  # tests/test_style.py runs this one
        out = subprocess.run([ruff, "--version"], capture_output=True, text=True)
        assert out.stdout.split() == ["ruff", ruff_pin.version], (
            f"tests/test_style.py is written for ruff {ruff_pin.version}"
        )
    assert "jupyterlab" in requirements("lab")
    assert PROJECT["requires-python"] == f">={TESTED_PYTHONS[0]},<3.14"
    for python in TESTED_PYTHONS:
        assert f"Programming Language :: Python :: {python}" in PROJECT["classifiers"]


def test_declared_packages_are_the_source_tree() -> None:
    setuptools_cfg = PYPROJECT["tool"]["setuptools"]
    found = sorted(
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("minigrad", "viz")
        for init in (ROOT / top).rglob("__init__.py")
    )
    assert sorted(setuptools_cfg["packages"]) == sorted([*found, "viz._lessons"]), (
        "add new packages to [tool.setuptools] packages in pyproject.toml"
    )
    assert setuptools_cfg["package-dir"] == {"viz._lessons": "notebooks"}


def test_gitignore_covers_what_running_the_lessons_writes() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    written = [
        "minigrad-lessons/00_index.ipynb",
        "notebooks/slides/00_setup_check.svg",
        "viz-demo/seed1-backward.svg",
    ]
    out = subprocess.run(
        ["git", "check-ignore", *written], cwd=ROOT, capture_output=True, text=True
    )
    assert out.stdout.split() == written


# ------------------------------------------------------------------- README
def readme_blocks(language: str, section: str | None = None) -> list[str]:
    text = (ROOT / "README.md").read_text()
    if section is not None:
        text = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(rf"^```{language}\n(.*?)^```$", text, re.S | re.M)


def expected_prints(block: str) -> list[str]:
    """What each ``print(...)  # text`` line says it prints (before any
    double space), as a pattern in which ``...`` stands for anything."""
    out = []
    for line in block.splitlines():
        m = re.match(r"print\(.*\)\s+# (.*)$", line)
        if m:
            said = m.group(1).split("  ")[0]
            out.append(".*?".join(map(re.escape, said.split("..."))))
    return out


def run_readme_blocks(python: Path | str, cwd: Path, env: dict[str, str]) -> None:
    """Each README python block as IPython runs it (a block may start with a
    magic such as ``%load_ext``), checking what its prints say."""
    blocks = readme_blocks("python")
    assert len(blocks) >= 2
    env = {**env, "IPYTHONDIR": str(cwd / ".ipython")}
    for i, block in enumerate(blocks):
        script = cwd / f"readme_{i}.ipy"
        script.write_text(block)
        ipython = ["-m", "IPython", "--quick", "--no-banner", "--colors=nocolor"]
        out = subprocess.run(
            [str(python), *ipython, script.name],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert out.returncode == 0, f"README block {i}:\n{block}\n{out.stderr}"
        lines = out.stdout.splitlines()
        expected = expected_prints(block)
        assert len(lines) == len(expected), out.stdout
        for pattern, line in zip(expected, lines):
            assert re.fullmatch(pattern, line), f"{line!r} !~ {pattern!r}"


def test_readme_examples_run_and_print_what_they_say(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run_readme_blocks(sys.executable, tmp_path, env)
    assert (tmp_path / "forward.pdf").read_bytes().startswith(b"%PDF")
    assert b"<html" in (tmp_path / "steps.html").read_bytes()[:200].lower()


def test_readme_has_two_setup_commands_and_ci_runs_the_test_one() -> None:
    lessons, tests = readme_blocks("bash", "Set up")
    assert lessons.strip().endswith("-m viz lessons")
    assert "--index-url https://download.pytorch.org/whl/cpu" in tests
    ci = (ROOT / ".ci" / "run").read_text()
    assert tests.strip() in ci.splitlines()


# ------------------------------------------------------- built distributions
def source_copy(dest: Path) -> Path:
    """The committed files of the checkout (everything, outside git)."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split("\0")
    tracked = [name for name in tracked if name and (ROOT / name).is_file()]
    if not tracked:
        shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(".*", "build"))
        return dest
    for name in tracked:
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, dest / name)
    return dest


def pep517(hook: str, source: Path, outdir: Path) -> Path:
    """Run a setuptools build hook in ``source``; the file it made."""
    code = (
        f"from setuptools import build_meta; print(build_meta.{hook}({str(outdir)!r}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "SetuptoolsDeprecationWarning" not in out.stderr, out.stderr
    return outdir / out.stdout.split()[-1]


@dataclass
class Dists:
    sdist: Path
    wheel: Path


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> Dists:
    """The sdist of the checkout, and the wheel built from the unpacked sdist
    (so the sdist holds everything the wheel needs)."""
    work = tmp_path_factory.mktemp("dists")
    (work / "src").mkdir()
    sdist = pep517("build_sdist", source_copy(work / "src"), work)
    with tarfile.open(sdist) as tar:
        tar.extractall(work / "unpacked", filter="data")
    (unpacked,) = (work / "unpacked").iterdir()
    wheel = pep517("build_wheel", unpacked, work)
    return Dists(sdist, wheel)


def package_sources() -> list[str]:
    return sorted(
        str(p.relative_to(ROOT))
        for top in ("minigrad", "viz")
        for p in (ROOT / top).rglob("*")
        if p.suffix in {".py", ".js", ".css"} and "__pycache__" not in p.parts
    )


def test_wheel_holds_the_packages_the_lessons_and_the_license(dists: Dists) -> None:
    names = set(zipfile.ZipFile(dists.wheel).namelist())
    assert set(package_sources()) <= names
    assert {f"viz/_lessons/{n}" for n in LESSONS} <= names
    with zipfile.ZipFile(dists.wheel) as whl:
        for lesson in LESSONS:
            shipped = whl.read(f"viz/_lessons/{lesson}")
            assert shipped == (ROOT / "notebooks" / lesson).read_bytes()
        info = dists.wheel.name.split("-py3")[0] + ".dist-info"
        metadata = whl.read(f"{info}/METADATA").decode()
        entry_points = whl.read(f"{info}/entry_points.txt").decode()
    assert f"{info}/licenses/LICENSE" in names
    assert "License-Expression: MIT\n" in metadata
    assert "Requires-Python: <3.14,>=3.10\n" in metadata
    assert "minigrad-lab = viz.__main__:main" in entry_points
    tops = {n.split("/")[0] for n in names}
    assert tops == {"minigrad", "viz", info}, tops


def test_sdist_holds_the_sources(dists: Dists) -> None:
    with tarfile.open(dists.sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    needed = ["pyproject.toml", "README.md", "LICENSE", *package_sources()]
    needed += [f"notebooks/{n}" for n in LESSONS]
    assert set(needed) <= names, set(needed) - names


# ------------------------------------------------------------- installed
@dataclass
class Venv:
    python: Path
    scripts: Path
    home: Path  # a working directory outside the checkout
    env: dict[str, str]

    def run(self, *args: str, timeout: float = 300) -> str:
        out = subprocess.run(
            list(args),
            cwd=self.home,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert out.returncode == 0, f"{args}:\n{out.stdout}\n{out.stderr}"
        return out.stdout


def fresh_venv(python: str, where: Path) -> Venv:
    """A venv without pip (this interpreter's pip installs into it)."""
    subprocess.run([python, "-m", "venv", "--without-pip", str(where)], check=True)
    bindir = "Scripts" if os.name == "nt" else "bin"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PATH"] = os.pathsep.join([str(where / bindir), env.get("PATH", "")])
    env["VIRTUAL_ENV"] = str(where)
    home = where.parent / f"{where.name}-home"
    home.mkdir()
    exe = where / bindir / ("python.exe" if os.name == "nt" else "python")
    return Venv(exe, where / bindir, home, env)


def pip_install(venv: Venv, *args: str) -> None:
    cmd = [sys.executable, "-m", "pip", "--python", str(venv.python), "install"]
    out = subprocess.run(
        [*cmd, "--disable-pip-version-check", "--no-compile", *args],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def borrow_site_packages(venv: Venv) -> None:
    site = venv.run(
        str(venv.python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"
    ).strip()
    mine = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (Path(site) / "borrowed-dependencies.pth").write_text("\n".join(sorted(mine)))
    # JupyterLab finds its built front end and the widget extensions by prefix
    share = Path(sys.prefix) / "share" / "jupyter"
    venv.env["JUPYTER_PATH"] = str(share)
    venv.env["JUPYTERLAB_DIR"] = str(share / "lab")
    # and their programs (graphviz-pure's layout binary) stay on PATH, last
    scripts = sysconfig.get_path("scripts")
    venv.env["PATH"] = os.pathsep.join([venv.env["PATH"], scripts])


@pytest.fixture(scope="module")
def installed(dists: Dists, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    venv = fresh_venv(sys.executable, tmp_path_factory.mktemp("wheel") / "venv")
    if FROM_INDEX:
        pip_install(venv, f"{dists.wheel}[lab]")
    else:
        pip_install(venv, "--no-deps", "--no-index", str(dists.wheel))
        borrow_site_packages(venv)
    where = venv.run(
        str(venv.python),
        "-c",
        "import minigrad, viz; print(minigrad.__file__, viz.__file__)",
    )
    for module in where.split():
        assert Path(module).is_relative_to(venv.python.parents[1]), where
    return venv


def test_readme_examples_run_from_the_wheel(installed: Venv) -> None:
    run_readme_blocks(installed.python, installed.home, installed.env)


def test_lessons_copy_from_the_wheel(installed: Venv) -> None:
    out = installed.run(
        str(installed.scripts / "minigrad-lab"),
        "lessons",
        "course",
        "--dry-run",
        "--no-browser",
    )
    course = installed.home / "course"
    assert sorted(p.name for p in course.glob("*.ipynb")) == LESSONS
    for name in LESSONS:
        assert (course / name).read_bytes() == (ROOT / "notebooks" / name).read_bytes()
    command = out.splitlines()[-1].split()
    assert command[:4] == [
        str(installed.python),
        "-m",
        "jupyterlab",
        "course/00_index.ipynb",
    ]
    assert command[-1] == "--no-browser"


def read_lines_into(stream, lines: list[str]) -> threading.Thread:
    def pump() -> None:
        for line in stream:
            lines.append(line)

    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    return thread


def test_lessons_start_jupyterlab_on_the_copied_lessons(
    installed: Venv, tmp_path: Path
) -> None:
    token = secrets.token_hex(16)
    env = {
        **installed.env,
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
        "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
    }
    server = subprocess.Popen(
        [
            str(installed.scripts / "minigrad-lab"),
            "lessons",
            "served",
            "--no-browser",
            "--ServerApp.port=0",  # any free port
            f"--IdentityProvider.token={token}",
        ],
        cwd=installed.home,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    read_lines_into(server.stdout, lines)
    try:
        deadline = time.monotonic() + 180
        port = None
        while port is None and time.monotonic() < deadline and server.poll() is None:
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", "".join(lines))
            port = found and found.group(1)
            time.sleep(0.2)
        assert port, "JupyterLab did not start:\n" + "".join(lines)
        base = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(f"{base}/api/contents?token={token}") as r:
            served = sorted(item["name"] for item in json.load(r)["content"])
        assert [n for n in served if n.endswith(".ipynb")] == LESSONS
        with urllib.request.urlopen(
            f"{base}/lab/tree/00_index.ipynb?token={token}"
        ) as r:
            assert r.status == 200 and b"jupyter-config-data" in r.read()
    finally:
        server.terminate()  # as Ctrl+C would, without the confirmation
        server.wait(60)
    log = "".join(lines)
    assert "Serving notebooks from local directory: " in log
    assert str((installed.home / "served").resolve()) in log


def test_demo_draws_the_seed_graphs_from_the_wheel(installed: Venv) -> None:
    installed.run(str(installed.scripts / "minigrad-lab"), "demo", "drawings")
    made = sorted(p.name for p in (installed.home / "drawings").iterdir())
    assert made == sorted(
        f"{seed}-{view}.{fmt}"
        for seed in ("seed1", "seed2")
        for view in ("backward", "forward")
        for fmt in ("svg", "png", "pdf", "dot")
    )
    drawings = installed.home / "drawings"
    assert (drawings / "seed2-backward.pdf").read_bytes().startswith(b"%PDF")
    assert (drawings / "seed1-forward.png").read_bytes().startswith(b"\x89PNG")
    assert "MulBackward0" in (drawings / "seed1-backward.svg").read_text()


# ---------------------------------------------------------- each interpreter
def interpreter(version: str) -> str | None:
    """A working Python ``version``: ``pythonX.Y`` on PATH, else a pyenv one
    (a pyenv shim on PATH fails when that version is not selected)."""
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    candidates = [shutil.which(f"python{version}")]
    candidates += sorted(map(str, (root / "versions").glob(f"{version}.*/bin/python")))
    probe = "import sys; print('%d.%d' % sys.version_info[:2])"
    for exe in filter(None, candidates):
        out = subprocess.run([exe, "-c", probe], capture_output=True, text=True)
        if out.returncode == 0 and out.stdout.strip() == version:
            return exe
    return None


SMOKE = """
import numpy, minigrad as torch
x = torch.tensor(4.0)
print(numpy.__version__, (1 / x).dtype, x.reciprocal().dtype, x.rsqrt().dtype)
a = torch.tensor(2.0, requires_grad=True)
e = a * torch.tensor(3.0) * a
e.backward()
print(e, a.grad)
"""


@pytest.mark.parametrize("version", TESTED_PYTHONS)
def test_wheel_runs_on_each_declared_python(
    version: str, dists: Dists, tmp_path: Path
) -> None:
    if not FROM_INDEX:
        pytest.skip("installs numpy from the index: MINIGRAD_PACKAGING_FROM_INDEX=1")
    exe = interpreter(version)
    if exe is None:
        pytest.skip(f"no Python {version} on this machine")
    venv = fresh_venv(exe, tmp_path / "venv")
    # the oldest Python gets the oldest numpy allowed
    numpy = "numpy==2.0.*" if version == TESTED_PYTHONS[0] else "numpy>=2"
    pip_install(venv, numpy)
    pip_install(venv, "--no-deps", "--no-index", str(dists.wheel))
    lines = venv.run(str(venv.python), "-c", SMOKE).splitlines()
    numpy_version, *dtypes = lines[0].split()
    assert dtypes == ["minigrad.float32"] * 3
    if version == TESTED_PYTHONS[0]:
        assert numpy_version.startswith("2.0.")
    assert lines[1:] == ["tensor(12., grad_fn=<MulBackward0>) tensor(12.)"]
