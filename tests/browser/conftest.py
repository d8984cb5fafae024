"""What the browser modules share: one headless Chromium and one Jupyter
server (starting them is most of a small module's time). Each module still
gets its own folder of copies on the server, its own kernels and its own pages
(``browser.new_page`` opens a fresh context: no storage is shared).

Both are opened on first use and closed as soon as the run leaves this folder:
playwright's sync API keeps an asyncio loop running in the main thread while it
is open, which the tests after these (a stepper deciding whether it runs in a
kernel's event loop) must not see.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack
from pathlib import Path
from typing import Any

import headless
import labserver
import pytest

HERE = Path(__file__).parent


class _Shared:
    """Context managers entered on first use, all exited by `close()`."""

    def __init__(self) -> None:
        self._stack: ExitStack | None = None
        self._open: dict[str, Any] = {}

    def get(self, name: str, factory: Callable[[], AbstractContextManager]) -> Any:
        if name not in self._open:
            if self._stack is None:
                self._stack = ExitStack()
            self._open[name] = self._stack.enter_context(factory())
        return self._open[name]

    def close(self) -> None:
        stack, self._stack = self._stack, None
        self._open.clear()
        if stack is not None:
            stack.close()


SHARED = _Shared()


class _Lazy:
    """Stands for a shared object (the Browser, the Server), opened when first
    used (again, if the run comes back to this folder)."""

    def __init__(self, name: str, factory: Callable[[], AbstractContextManager]):
        self._name, self._factory = name, factory

    def __getattr__(self, attr: str) -> Any:
        return getattr(SHARED.get(self._name, self._factory), attr)


@pytest.fixture(scope="session")
def browser() -> Any:
    return _Lazy("browser", headless.chromium)


@pytest.fixture(scope="session")
def jupyter(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return _Lazy("jupyter", lambda: labserver.start(tmp_path_factory.mktemp("jupyter")))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Iterator:
    try:
        return (yield)  # the modules' fixtures first (their kernels go)
    finally:
        if nextitem is None or Path(nextitem.path).parent != HERE:
            SHARED.close()
