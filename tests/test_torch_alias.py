"""``import torch`` gives minigrad only on request (minigrad.as_torch, the
IPython extension, ``python -m minigrad``), and then ``import torch.X`` is the
very module ``minigrad.X``.  Each case runs in a fresh interpreter, since the
point is what ``sys.modules`` holds."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TORCH_INSTALLED = importlib.util.find_spec("torch") is not None

# Every torch submodule lessons import that minigrad provides.
SUBMODULES = [
    "nn",
    "nn.functional",
    "nn.init",
    "nn.parameter",
    "nn.utils",
    "optim",
    "optim.lr_scheduler",
    "utils",
    "utils.data",
    "utils.hooks",
    "autograd",
    "autograd.functional",
    "autograd.forward_ad",
    "autograd.function",
    "autograd.graph",
    "autograd.variable",
    "func",
]


def _python(
    code: str, *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, *args, *(["-c", textwrap.dedent(code)] if code else [])],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or ROOT,
        timeout=120,
    )


def _ok(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_import_minigrad_alone_changes_nothing() -> None:
    out = _ok(
        _python(
            """
            import sys, warnings
            warnings.simplefilter("error")  # no warning either
            import minigrad
            print("torch" in sys.modules)
            try:
                import torch.nn
            except ImportError:
                print("no torch")
            else:
                print(torch is minigrad, torch.nn is minigrad.nn)
            """
        )
    )
    assert out.split("\n")[0] == "False"
    assert out.split("\n")[1] == ("False False" if TORCH_INSTALLED else "no torch")


def test_as_torch_makes_every_submodule_the_minigrad_module() -> None:
    names = repr(SUBMODULES)
    out = _ok(
        _python(
            f"""
            import importlib, sys
            import minigrad
            assert minigrad.as_torch() is minigrad
            import torch
            print(torch is minigrad)
            for name in {names}:
                alias = importlib.import_module("torch." + name)
                real = importlib.import_module("minigrad." + name)
                assert alias is real, name
                assert real.__name__ == "minigrad." + name, real.__name__
                assert sys.modules["torch." + name] is real
            import torch.nn as nn
            import torch.nn.functional as F
            from torch.utils.data import DataLoader
            from torch.autograd import Function
            print(nn is minigrad.nn, F is minigrad.nn.functional)
            print(DataLoader is minigrad.utils.data.DataLoader,
                  Function is minigrad.autograd.Function)
            """
        )
    )
    assert out.split() == ["True"] * 5


def test_torch_in_sys_modules_by_hand_shares_minigrads_modules() -> None:
    # The failure the finder prevents: a second copy of minigrad.nn would hold
    # a second Tensor class ("must be Tensor, not Tensor").
    out = _ok(
        _python(
            """
            import sys
            import minigrad
            sys.modules["torch"] = minigrad
            import torch.nn as nn
            lin = nn.Linear(2, 1)
            with minigrad.no_grad():
                lin.weight.copy_(minigrad.ones(1, 2))
            print(nn is minigrad.nn, lin.weight.sum().item())
            """
        )
    )
    assert out.split() == ["True", "2.0"]


def test_missing_submodule_names_minigrad() -> None:
    out = _ok(
        _python(
            """
            import minigrad
            minigrad.as_torch()
            try:
                import torch.distributed
            except ModuleNotFoundError as exc:
                print(exc.name, "|", exc)
            """
        )
    )
    assert out.strip() == (
        "torch.distributed | No module named 'torch.distributed' (minigrad stands in "
        "for torch and has no minigrad.distributed)"
    )


@pytest.mark.skipif(not TORCH_INSTALLED, reason="needs an installed PyTorch")
def test_shadowing_an_installed_torch_is_announced() -> None:
    result = _python(
        """
        import warnings
        import minigrad
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            minigrad.as_torch()
            minigrad.as_torch()  # idempotent: announced once
        print(len(caught))
        print(caught[0].message)
        """
    )
    lines = _ok(result).splitlines()
    assert lines[0] == "1"
    assert lines[1].startswith(
        "minigrad stands in for torch: `import torch` gives minigrad, not the "
        "PyTorch 2.13.0"
    )
    assert "installed in" in lines[1]


@pytest.mark.skipif(not TORCH_INSTALLED, reason="needs an installed PyTorch")
def test_real_torch_already_imported_is_set_aside_with_a_warning() -> None:
    result = _python(
        """
        import warnings
        import torch as real_torch
        import torch.nn
        import minigrad
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            minigrad.as_torch()
        print(caught[0].message)
        import torch
        import torch.nn as nn
        print(torch is minigrad, nn is minigrad.nn, real_torch.nn is not nn)
        print(type(real_torch.ones(1)).__module__)
        """
    )
    lines = _ok(result).splitlines()
    assert "was already imported; minigrad now stands in for torch" in lines[0]
    assert "names already bound to PyTorch" in lines[0]
    assert lines[1] == "True True True"
    assert lines[2] == "torch"


def test_runner_runs_a_script_as_python_would(tmp_path: Path) -> None:
    (tmp_path / "helper.py").write_text("VALUE = 7\n")
    script = tmp_path / "lesson.py"
    script.write_text(
        textwrap.dedent(
            """
            import sys
            import torch
            import torch.nn.functional as F
            import helper  # the script's folder is on the path
            x = torch.tensor([1.0, -2.0], requires_grad=True)
            F.relu(x).sum().backward()
            print(__name__, sys.argv[1:], helper.VALUE)
            print(x.grad, type(x).__module__)
            """
        )
    )
    result = _python("", "-m", "minigrad", str(script), "--lr", "0.1", cwd=tmp_path)
    assert _ok(result).splitlines() == [
        "__main__ ['--lr', '0.1'] 7",
        "tensor([1., 0.]) minigrad",
    ]
    if TORCH_INSTALLED:  # said plainly on stderr, not as a warning into minigrad
        assert result.stderr.startswith("minigrad stands in for torch")
        assert "Warning" not in result.stderr


def test_runner_exit_status_and_usage(tmp_path: Path) -> None:
    script = tmp_path / "fails.py"
    script.write_text("import torch\ntorch.ones(2).backward()\n")
    result = _python("", "-m", "minigrad", str(script))
    assert result.returncode == 1
    assert result.stderr.rstrip().endswith(
        "RuntimeError: element 0 of tensors does not require grad and does not have "
        "a grad_fn"
    )
    usage = _python("", "-m", "minigrad")
    assert usage.returncode == 2 and "usage: python -m minigrad" in usage.stderr
    missing = _python("", "-m", "minigrad", str(tmp_path / "nope.py"))
    assert missing.returncode == 2 and "can't open file" in missing.stderr


def test_runner_tracebacks_show_the_lessons_frames_as_python_would(
    tmp_path: Path,
) -> None:
    """A failing lesson's traceback under ``python -m minigrad`` is the one
    ``python lesson.py`` prints with PyTorch: from the lesson's own frame (not
    the runner's and runpy's) to the line that failed (not minigrad's insides,
    where PyTorch raises from C++), with the lesson's absolute path (its
    ``__file__``); so is anomaly mode's traceback of the forward call."""
    script = tmp_path / "lesson.py"
    script.write_text(
        textwrap.dedent(
            """
            import warnings
            import torch
            print(__file__)
            with torch.autograd.detect_anomaly():
                a = torch.tensor([1.0, 0.0], requires_grad=True)
                b = a.sqrt()
                with warnings.catch_warnings(record=True) as seen:
                    warnings.simplefilter("always")
                    try:
                        (b / b).sum().backward()
                    except RuntimeError:
                        pass
                print([str(w.message) for w in seen if "Traceback" in str(w.message)])
            def reshape(t):
                return t.view(3)
            reshape(torch.ones(2))
            """
        )
    )
    result = _python("", "-m", "minigrad", script.name, cwd=tmp_path)
    assert result.returncode == 1
    printed = result.stdout.splitlines()
    assert printed[0] == str(script.resolve())
    assert (
        "runpy" not in printed[1]
        and f'File "{script.resolve()}", line 11' in printed[1]
    )
    tb = result.stderr[result.stderr.index("Traceback (most recent call last):") :]
    assert [line for line in tb.splitlines() if line.strip(" ^")] == [
        "Traceback (most recent call last):",
        f'  File "{script.resolve()}", line 17, in <module>',
        "    reshape(torch.ones(2))",
        f'  File "{script.resolve()}", line 16, in reshape',
        "    return t.view(3)",
        "RuntimeError: shape '[3]' is invalid for input of size 2",
    ]


@pytest.mark.parametrize("extension", ["minigrad", "minigrad.as_torch"])
def test_ipython_extension(extension: str) -> None:
    pytest.importorskip("IPython")
    out = _ok(
        _python(
            f"""
            import warnings
            warnings.simplefilter("ignore")
            from IPython.testing.globalipapp import start_ipython
            ip = start_ipython()
            ip.run_line_magic("load_ext", "{extension}")
            ip.run_cell("import torch, torch.nn as nn, minigrad", store_history=False)
            ip.run_cell("print(torch is minigrad, nn is minigrad.nn)")
            ip.run_cell("print(callable(minigrad.as_torch))")
            """
        )
    )
    assert out.split()[-3:] == ["True", "True", "True"]


def test_viz_draws_and_steps_an_unmodified_lessons_tensors(tmp_path: Path) -> None:
    script = tmp_path / "lesson.py"
    script.write_text(
        textwrap.dedent(
            """
            import torch
            import torch.nn as nn
            import viz
            torch.manual_seed(0)
            model = nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.Linear(2, 1))
            loss = model(torch.ones(4, 3)).pow(2).mean()
            svg = viz.backward_graph(loss, params=dict(model.named_parameters()))
            print("MeanBackward0" in svg.source and "<svg" in svg.svg())
            stepper = viz.BackwardStepper(loss, params=dict(model.named_parameters()))
            steps = 0
            while not stepper.done:
                stepper.next()
                steps += 1
            grads = [p.grad.clone() for p in model.parameters()]
            model.zero_grad()
            loss2 = model(torch.ones(4, 3)).pow(2).mean()
            loss2.backward()
            print(steps > 5, all(g.equal(p.grad) for g, p in
                                zip(grads, model.parameters())))
            """
        )
    )
    out = _ok(_python("", "-m", "minigrad", str(script)))
    assert out.split() == ["True", "True", "True"]
