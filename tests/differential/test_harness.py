"""Self-test of the differential harness (needs torch, not minigrad)."""

import contextlib
import io
import sys
import types
import warnings
from pathlib import Path

import pytest
from harness import compare, diff, normalize, rewrite_imports, run

torch = pytest.importorskip("torch")

PROGRAMS = sorted((Path(__file__).parent / "programs").glob("*.py"))

NONLEAF_WARNING = (
    "UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is "
    "being accessed. Its .grad attribute won't be populated during "
    "autograd.backward(). If you indeed want the .grad field to be populated "
    "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf "
    "Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more "
    "information."
)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("import torch", "import minigrad as torch"),
        ("import torch  # comment", "import minigrad as torch  # comment"),
        ("import torch.nn as nn", "import minigrad.nn as nn"),
        ("import torch.nn.functional as F", "import minigrad.nn.functional as F"),
        ("import torch as T", "import minigrad as T"),
        ("import torch.nn", 'torch = __import__("minigrad.nn")'),
        ("from torch import nn, Tensor", "from minigrad import nn, Tensor"),
        (
            "from torch.autograd import Function",
            "from minigrad.autograd import Function",
        ),
        ("    import torch", "    import minigrad as torch"),
        ("from torch.nn import (Module,", "from minigrad.nn import (Module,"),
        ("import torchvision", "import torchvision"),
        ("x = torch.tensor(1.0)  # import torch", None),
    ],
)
def test_rewrite_imports(line: str, expected: str | None) -> None:
    assert rewrite_imports(line + "\n") == (expected or line) + "\n"


def test_rewrite_leaves_other_lines_alone() -> None:
    source = "import numpy as np\nimport torch\nprint(torch.ones(1))\n"
    assert rewrite_imports(source) == (
        "import numpy as np\nimport minigrad as torch\nprint(torch.ones(1))\n"
    )


@pytest.mark.parametrize(
    "line", ["import numpy, torch", "import torch, numpy", "import torch; x = 1"]
)
def test_rewrite_rejects_unsupported_imports(line: str) -> None:
    # Left alone, these would silently run real torch in the minigrad run.
    with pytest.raises(ValueError, match="unsupported torch import"):
        rewrite_imports(line + "\n")


def test_normalize_torch_transcript() -> None:
    raw = (
        "torch.float64 minigrad.Size([2]) [torch.FloatTensor [3]]\n"
        "<MulBackward0 object at 0x7f8e1cdb4d90>\n"
        "See github.com/pytorch/pytorch/pull/30531 (pytorch stays)\n"
        "UserWarning: boom. (Triggered internally at /a/b (x)/TensorBody.h:493.)\n"
        "torch::autograd::CopySlices\n"
    )
    assert normalize(raw, "torch") == (
        "minigrad.float64 minigrad.Size([2]) [minigrad.FloatTensor [3]]\n"
        "<MulBackward0 object at 0xADDR>\n"
        "See github.com/pytorch/pytorch/pull/30531 (pytorch stays)\n"
        "UserWarning: boom.\n"
        "minigrad::autograd::CopySlices\n"
    )


def test_normalize_minigrad_keeps_the_word_torch() -> None:
    # A minigrad transcript saying "torch" is a bug the diff must show.
    raw = "torch.float32 <AddBackward0 object at 0xdeadbeef>\n"
    assert (
        normalize(raw, "minigrad") == "torch.float32 <AddBackward0 object at 0xADDR>\n"
    )


def test_run_torch_transcript_with_warning_and_exception() -> None:
    source = (
        "import torch\n"
        "a = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "b = a * 2\n"
        "print(b)\n"
        "print(b.grad)\n"
        "print(b.dtype, b.grad_fn)\n"
        "a.add_(1)\n"
        "print('not reached')\n"
    )
    assert run(source, "torch") == (
        "tensor([2., 4.], grad_fn=<MulBackward0>)\n"
        f"{NONLEAF_WARNING}\n"
        "None\n"
        "minigrad.float32 <MulBackward0 object at 0xADDR>\n"
        "RuntimeError: a leaf Variable that requires grad is being used in an "
        "in-place operation.\n"
    )


def test_python_warnings_are_interleaved_in_order() -> None:
    source = (
        "import warnings\n"
        "print('one')\n"
        "warnings.warn('careful')\n"
        "warnings.warn('careful')\n"  # "always": repeated warnings are kept
        "print('two')\n"
        "warnings.warn('old', DeprecationWarning)\n"
        "raise ValueError('bad value')\n"
    )
    assert run(source, "torch") == (
        "one\nUserWarning: careful\nUserWarning: careful\ntwo\n"
        "DeprecationWarning: old\nValueError: bad value\n"
    )


def test_each_run_gets_fresh_globals() -> None:
    run("import torch\nleak = 1\n", "torch")
    assert run("print(leak)\n", "torch") == "NameError: name 'leak' is not defined\n"


def test_grad_mode_is_restored_after_a_failing_program() -> None:
    source = "import torch\ntorch.set_grad_enabled(False)\nraise RuntimeError('x')\n"
    assert run(source, "torch") == "RuntimeError: x\n"
    assert torch.is_grad_enabled()


def test_warn_once_warnings_repeat_across_runs() -> None:
    # TORCH_WARN_ONCE would otherwise appear only in the first program.
    source = (
        "import torch\n"
        "x = torch.ones(2, requires_grad=True)\n"
        "(x * x).sum().backward(create_graph=True)\n"
    )
    first, second = run(source, "torch"), run(source, "torch")
    assert first == second
    assert first.startswith("UserWarning: Using backward() with create_graph=True")
    assert not torch.is_warn_always_enabled()


def test_minigrad_run_uses_rewritten_imports(monkeypatch: pytest.MonkeyPatch) -> None:
    # A stand-in "minigrad" that forwards to torch proves the minigrad path
    # imports minigrad (never torch) and compares equal transcripts.
    stub = types.ModuleType("minigrad")
    stub.__getattr__ = lambda name: getattr(torch, name)  # type: ignore[method-assign]
    monkeypatch.setitem(sys.modules, "minigrad", stub)
    monkeypatch.setitem(sys.modules, "minigrad.autograd", torch.autograd)
    source = (
        "import torch\n"
        "from torch.autograd import Function\n"
        "print(torch.__name__, Function.__name__)\n"
        "x = torch.tensor([3.0], requires_grad=True)\n"
        "(x * x).sum().backward()\n"
        "print(x.grad, (x * 2).grad)\n"
    )
    torch_out, minigrad_out = compare(source)
    assert torch_out == minigrad_out
    assert torch_out.startswith("minigrad Function\n")


def test_diff_names_both_sides() -> None:
    text = diff("a\nb\n", "a\nc\n", "p.py")
    assert "--- p.py [torch]" in text
    assert "+++ p.py [minigrad]" in text
    assert "-b\n+c\n" in text


def test_programs_exist() -> None:
    names = [p.name for p in PROGRAMS]
    assert sum(n.startswith("seed") for n in names) >= 5
    assert sum(n.startswith("scenario_") for n in names) >= 30


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_program_runs_under_torch_and_is_deterministic(program: Path) -> None:
    source = program.read_text(encoding="utf-8")
    # Programs catch the errors they demonstrate: nothing may escape.
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(source, str(program), "exec"), {"__name__": "__main__"})
    # No random values, no warn-once dependence: two runs print the same.
    assert run(source, "torch") == run(source, "torch")
    rewrite_imports(source)  # every import line is one the harness handles
