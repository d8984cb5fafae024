"""What the browser modules share: one headless Chromium and one Jupyter
server for the whole session (starting them is most of a small module's time).
Each module still gets its own folder of copies on the server, its own kernels
and its own pages (``browser.new_page`` opens a fresh context: no storage is
shared between pages)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import headless
import labserver
import pytest


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    with headless.chromium() as b:
        yield b


@pytest.fixture(scope="session")
def jupyter(tmp_path_factory: pytest.TempPathFactory) -> Iterator[labserver.Server]:
    with labserver.start(tmp_path_factory.mktemp("jupyter")) as server:
        yield server
