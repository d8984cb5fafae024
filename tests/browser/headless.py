"""Headless Chromium for the browser tests: Debian's ``chromium`` driven by the
``playwright`` pip package (its bundled driver; never ``playwright install``).

`need_browser()` skips a test when either is missing, or fails it when the
environment says browser tests must run (``MINIGRAD_REQUIRE_BROWSER=1``, as CI
sets), so a missing browser never turns into a quiet pass there.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

REQUIRE_ENV = "MINIGRAD_REQUIRE_BROWSER"
# The flags that keep Debian's Chromium quiet and working as root in a container.
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    """``$MINIGRAD_CHROMIUM``, else ``chromium`` / ``chromium-browser`` on PATH."""
    given = os.environ.get("MINIGRAD_CHROMIUM")
    if given:
        return given if os.access(given, os.X_OK) else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


def need_browser() -> str:
    """Chromium's path, or skip (fail under ``MINIGRAD_REQUIRE_BROWSER=1``)."""
    missing = []
    exe = chromium_path()
    if exe is None:
        missing.append("chromium (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("playwright (pip install playwright)")
    if missing:
        reason = "browser test needs " + " and ".join(missing)
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{reason}; {REQUIRE_ENV}=1 requires it", pytrace=False)
        pytest.skip(reason)
    assert exe is not None
    return exe


# One playwright for every open browser: its sync API cannot start a second
# one while a first is running (conftest.py's shared browser may be).
_driver: dict[str, Any] = {"users": 0}


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium `Browser`, closed afterwards."""
    exe = need_browser()
    from playwright.sync_api import sync_playwright

    if not _driver["users"]:
        _driver["context"] = sync_playwright()
        _driver["playwright"] = _driver["context"].__enter__()
    _driver["users"] += 1
    try:
        browser = _driver["playwright"].chromium.launch(
            executable_path=exe, args=LAUNCH_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()
    finally:
        _driver["users"] -= 1
        if not _driver["users"]:
            _driver.pop("context").__exit__(None, None, None)
            del _driver["playwright"]


def offline(page: Any) -> list[str]:
    """Abort every request that is not ``file:`` or ``data:``; returns the list
    of aborted URLs (a test asserts it stays empty)."""
    blocked: list[str] = []

    def guard(route: Any) -> None:
        url = route.request.url
        if url.startswith(("file:", "data:")):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    page.route("**/*", guard)
    return blocked
