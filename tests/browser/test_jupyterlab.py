"""The stepper lesson in real JupyterLab 4 and Notebook 7 with Debian's Chromium:
Run All, click Next, and the highlighted (``.mg-running``) node changes.

The server runs on 127.0.0.1, a free port, with a token, in a temporary root
holding a *copy* of the notebook (JupyterLab autosaves outputs into what it
serves), with temporary config / settings / workspace / runtime dirs, its own
``python3`` kernel spec (this interpreter) and the news toast disabled. It is
stopped with SIGTERM. The recipe and its pitfalls are in the project's notes on
Jupyter testing: wait for "Python 3 (ipykernel) | Idle" in the status bar (not
the execution indicator), run cells through the menu (not ``commands.execute``),
open the notebook with ``?reset``, read prompts with ``textContent``.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import headless
import pytest

NOTEBOOK = (
    Path(__file__).resolve().parents[2] / "notebooks" / "03_backward_step_by_step.ipynb"
)
START_TIMEOUT_S = 30.0
UI_TIMEOUT_MS = 60_000


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _need_modules(*names: str) -> None:
    import importlib.util

    missing = [n for n in names if importlib.util.find_spec(n) is None]
    if missing:
        reason = f"browser test needs {', '.join(missing)} (pip install -e '.[test]')"
        if os.environ.get(headless.REQUIRE_ENV) == "1":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)


class Lab:
    def __init__(self, url: str, token: str, log: Path, app: str) -> None:
        self.url, self.token, self.log, self.app = url, token, log, app

    def open(self, page: Any) -> None:
        """Open the lesson and wait until its kernel is idle."""
        from playwright.sync_api import expect

        if self.app == "lab":
            page.goto(f"{self.url}/lab/tree/{NOTEBOOK.name}?reset&token={self.token}")
            expect(page.locator("#jp-main-statusbar")).to_contain_text(
                "Python 3 (ipykernel) | Idle", timeout=UI_TIMEOUT_MS
            )
        else:  # Notebook 7 has no status bar: its toolbar names the kernel
            page.goto(f"{self.url}/notebooks/{NOTEBOOK.name}?token={self.token}")
            expect(page.locator(".jp-Toolbar-kernelName").first).to_have_text(
                "Python 3 (ipykernel)", timeout=UI_TIMEOUT_MS
            )
            expect(
                page.locator(".jp-Notebook-ExecutionIndicator").first
            ).to_have_attribute("data-status", "idle", timeout=UI_TIMEOUT_MS)

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]


@pytest.fixture(scope="module", params=["lab", "notebook"])
def lab(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Lab]:
    app = request.param
    headless.need_browser()
    _need_modules(
        "jupyterlab" if app == "lab" else "notebook", "ipykernel", "ipywidgets",
        "anywidget",
    )  # fmt: skip
    if not NOTEBOOK.exists():
        pytest.skip(f"{NOTEBOOK.name} is missing")
    from ipykernel.kernelspec import install

    tmp = tmp_path_factory.mktemp("lab")
    root = tmp / "root"
    root.mkdir()
    shutil.copy(NOTEBOOK, root / NOTEBOOK.name)  # never serve the repo's file
    dirs = {
        name: tmp / name for name in ("config", "settings", "workspaces", "runtime")
    }
    for d in dirs.values():
        d.mkdir()
    news = dirs["settings"] / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)
    (news / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    # A python3 kernel spec running this interpreter comes first on JUPYTER_PATH.
    install(kernel_name="python3", prefix=str(tmp / "kernel"))
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(dirs["config"]),
        "JUPYTERLAB_SETTINGS_DIR": str(dirs["settings"]),
        "JUPYTERLAB_WORKSPACES_DIR": str(dirs["workspaces"]),
        "JUPYTER_RUNTIME_DIR": str(dirs["runtime"]),
        "JUPYTER_PATH": str(tmp / "kernel" / "share" / "jupyter"),
    }
    port, token = _free_port(), secrets.token_hex(16)  # a fresh port per run
    log = tmp / "lab.log"
    cmd = [
        sys.executable, "-m", "jupyter", app, "--no-browser", "--allow-root",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
    ]  # fmt: skip
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    server = Lab(url, token, log, app)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            # Our own process must be alive: never talk to a stale server.
            if proc.poll() is not None:
                pytest.fail(
                    f"jupyter {app} exited ({proc.returncode}):\n{server.log_tail()}"
                )
            try:
                with urllib.request.urlopen(
                    f"{url}/api/status?token={token}", timeout=2
                ) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"jupyter {app} did not start:\n{server.log_tail()}")
            time.sleep(0.25)
        yield server
    finally:
        proc.send_signal(signal.SIGTERM)  # shuts its kernels down too
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # its own session: only its children
            proc.wait()


@pytest.mark.browser
def test_next_moves_the_highlight_in_jupyter(lab: Lab) -> None:
    from playwright.sync_api import expect

    with headless.chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            lab.open(page)
            page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
            page.locator(".lm-Menu .lm-Menu-itemLabel").get_by_text(
                "Run All Cells", exact=True
            ).click()

            # The lesson's first stepper widget, before any step.
            next_button = page.locator("button.mg-next").first
            view = page.locator(".mg-graph").first
            running = view.locator(".mg-running")
            expect(next_button).to_be_visible(timeout=UI_TIMEOUT_MS)
            # Every cell ran (prompts read via textContent: off-screen cells too).
            page.wait_for_function(
                """() => {
                  const sel = '.jp-CodeCell .jp-InputPrompt';
                  const p = [...document.querySelectorAll(sel)];
                  return p.length > 0 && p.every(e => /\\[\\d+\\]/.test(e.textContent));
                }""",
                timeout=UI_TIMEOUT_MS,
            )
            expect(view).to_have_attribute("data-step", "0")
            expect(running).to_have_count(0)

            next_button.click()
            expect(view).to_have_attribute("data-step", "1", timeout=10_000)
            expect(running).to_have_count(1)
            first = running.get_attribute("id")
            assert first is not None and first.endswith("f0")  # MeanBackward0
            panel = page.locator(".mg-panel").first
            expect(panel).to_contain_text("Step 1 of")
            expect(panel).to_contain_text("MeanBackward0")

            next_button.click()
            expect(view).to_have_attribute("data-step", "2", timeout=10_000)
            expect(running).not_to_have_attribute("id", first)
            expect(panel).to_contain_text("Step 2 of")
            expect(panel).to_contain_text("MulBackward0")
            expect(view.locator(".mg-done")).to_have_count(2)
        except Exception:
            page.screenshot(path=str(lab.log.with_name("failure.png")))
            print(lab.log_tail())
            raise
