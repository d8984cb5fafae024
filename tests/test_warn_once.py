"""Warnings PyTorch gives once per process (TORCH_WARN_ONCE), and only while
grad mode is on, fire the same way in minigrad: checked in fresh processes,
since "once" is a property of the process, run under both libraries."""

import subprocess
import sys

import pytest

PROGRAM = """
import warnings
warnings.simplefilter("always")
import {lib} as torch

x = torch.tensor(2.0, requires_grad=True)
with torch.no_grad():
    float(x * 2)                      # grad mode off: no warning
print("no_grad done")
float(x * 2)                          # warns
float(x * 2)                          # once only
torch.tensor([x * 2])                 # the same flag: still silent
print(torch.is_warn_always_enabled())
(x * x).backward(create_graph=True)   # warns
(x * x).backward(create_graph=True)   # once only
torch.set_warn_always(True)
print(torch.is_warn_always_enabled())
float(x * 2)                          # warns again, every time
float(x * 2)
(x * x).backward(create_graph=True)
"""


def _transcript(lib: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM.format(lib=lib)],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = (done.stdout + done.stderr).splitlines()
    # stdout and stderr are read apart: compare the printed lines in order and
    # count each warning
    printed = done.stdout.splitlines()
    counts = [
        f"{key}: {sum(key in line for line in lines)}"
        for key in ("Converting a tensor with requires_grad", "create_graph=True will")
    ]
    return printed + counts


def test_warn_once_as_pytorch() -> None:
    pytest.importorskip("torch")
    assert _transcript("minigrad") == _transcript("torch")
    assert _transcript("minigrad")[-2:] == [
        "Converting a tensor with requires_grad: 3",
        "create_graph=True will: 2",
    ]
