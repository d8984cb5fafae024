"""A real JupyterLab 4 / Notebook 7 server for the browser tests.

`start()` runs one ``jupyter lab`` on 127.0.0.1, a free port, with a token, in
an empty temporary root, with temporary config / data / settings / workspace /
runtime dirs, its own ``python3`` kernel spec (this interpreter) and the news
toast disabled; it serves Notebook 7's pages too. It is stopped with SIGTERM.
`Server.folder()` puts *copies* of a test's notebooks in a folder of its own
(JupyterLab autosaves outputs into what it serves) and shuts that folder's
kernels down afterwards; its `Lab` opens them in either app. `Watch` records a
page's console and kernel messages for a failure's report. The recipe and its
pitfalls are in the project's notes on Jupyter testing: wait for "Python 3
(ipykernel) | Idle" in the status bar (not the execution indicator), run cells
through the menu (not ``commands.execute``), open notebooks with ``?reset``,
read prompts with ``textContent``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import secrets
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.request
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import headless
import pytest

START_TIMEOUT_S = 120.0  # a deadline: a loaded CI machine took over 30 s
UI_TIMEOUT_MS = 60_000
# Every code cell has run: each prompt shows a number (textContent, so
# off-screen cells of the windowed notebook count too).
ALL_RAN = """() => {
  const p = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
  return p.length > 0 && p.every(e => /\\[\\d+\\]/.test(e.textContent));
}"""


# Every stepper shown rendered live (each has its picture output before it)
# and is at frame 0: what a student sees after Run All.
ALL_STEPPERS_SHOWN = """() => {
  const n = document.querySelectorAll('.mg-picture').length;
  return n > 0 && document.querySelectorAll('.mg-stepper').length === n; }"""
STEPPERS = """() => [...document.querySelectorAll('.mg-stepper')].map((e) => ({
  cell: e.closest('.jp-Cell')?.dataset.windowedListIndex,
  step: e.querySelector('.mg-graph').dataset.step,
  running: e.querySelectorAll('.mg-running').length,
  status: e.closest('.jp-OutputArea-output').querySelector('.mg-status')?.textContent,
}))"""


def assert_steppers_at_frame_0(page: Any, what: str) -> None:
    """After Run All: at least one stepper, every one live and at frame 0."""
    page.wait_for_function(ALL_STEPPERS_SHOWN, timeout=UI_TIMEOUT_MS)
    shown = page.evaluate(STEPPERS)
    assert shown, f"{what} displays no stepper"
    for s in shown:
        assert s["step"] == "0" and s["running"] == 0, (what, shown)
        assert (s["status"] or "").startswith("step 0 of"), (what, shown)


class Watch:
    """What a page did, for the failure message: its console and errors, and
    every kernel message over its websockets (type, comm method / command,
    execution state), with the time since the watch began."""

    KEEP = 1500  # the last messages are the ones that explain a failure

    def __init__(self, page: Any) -> None:
        self.t0 = time.monotonic()
        self.lines: deque[str] = deque(maxlen=self.KEEP)
        page.on("console", lambda m: self._add(f"console.{m.type}: {m.text}"))
        page.on("pageerror", lambda e: self._add(f"pageerror: {e}"))
        page.on("websocket", self._socket)

    def _add(self, line: str) -> None:
        self.lines.append(f"{time.monotonic() - self.t0:8.2f}s {line[:300]}")

    def _socket(self, ws: Any) -> None:
        if "/channels" not in ws.url:
            return  # only the kernels' channels
        self._add(f"websocket open {ws.url.split('?')[0]}")
        ws.on("framesent", lambda f: self._add("-> " + _kernel_message(f)))
        ws.on("framereceived", lambda f: self._add("<- " + _kernel_message(f)))
        ws.on("close", lambda _ws: self._add("websocket closed"))

    def report(self) -> str:
        return "page and kernel messages:\n" + "\n".join(self.lines)


def _kernel_message(frame: str | bytes) -> str:
    """One line for a kernel message: the websocket's JSON form, or its binary
    v1 form (a count of offsets, the offsets, then channel, header,
    parent header, metadata, content and buffers)."""
    try:
        if isinstance(frame, str):
            msg = json.loads(frame)
            channel, header, content = msg["channel"], msg["header"], msg["content"]
        else:
            (n,) = struct.unpack_from("<Q", frame)
            offsets = struct.unpack_from(f"<{n}Q", frame, 8)
            parts = [frame[a:b] for a, b in zip(offsets, offsets[1:])]
            channel = parts[0].decode()
            header, content = json.loads(parts[1]), json.loads(parts[4])
    except (ValueError, KeyError, IndexError, struct.error) as e:
        return f"(unreadable frame: {e})"
    kind = header.get("msg_type", "?")
    data = content.get("data") if isinstance(content.get("data"), dict) else {}
    state = data.get("state") if isinstance(data.get("state"), dict) else {}
    comm = f"comm {str(content.get('comm_id'))[:8]} "
    detail = {
        "status": content.get("execution_state"),
        "comm_open": comm
        + " ".join([state.get("_model_name") or "", *state.get("_dom_classes", [])]),
        "comm_msg": comm
        + str(data.get("method"))
        + (f" {data['content']}" if "content" in data else "")
        + (f" {sorted(state)}" if state else "")
        + (f" step={state['step']}" if "step" in state else ""),
        "comm_close": comm,
        "execute_input": (content.get("code") or "")[:60],
        "execute_reply": content.get("status"),
        "error": f"{content.get('ename')}: {content.get('evalue')}",
        "stream": (content.get("text") or "")[:120],
    }.get(kind, "")
    return f"{channel} {kind} {detail}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def need_modules(*names: str) -> None:
    """Skip (fail under ``MINIGRAD_REQUIRE_BROWSER=1``) without these modules."""
    missing = [n for n in names if importlib.util.find_spec(n) is None]
    if missing:
        reason = f"browser test needs {', '.join(missing)} (pip install -e '.[test]')"
        if os.environ.get(headless.REQUIRE_ENV) == "1":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)


class Server:
    """A running ``jupyter lab`` process: ``url``, ``token``, its ``root``
    folder and ``log``. It serves Notebook 7's pages too (``/notebooks/...``:
    the notebook package's server extension), so one server is enough for
    both apps."""

    def __init__(self, url: str, token: str, root: Path, log: Path) -> None:
        self.url, self.token, self.root, self.log = url, token, root, log

    def api(self, method: str, path: str) -> Any:
        req = urllib.request.Request(
            f"{self.url}/api/{path}?token={self.token}", method=method
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            body = r.read()
        return json.loads(body) if body else None

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]

    @contextmanager
    def folder(
        self, name: str, files: Iterable[Path], app: str = "lab"
    ) -> Iterator[Lab]:
        """A folder ``name`` of the root holding *copies* of ``files``, opened
        in ``app`` ("lab" or "notebook"); its kernels are shut down afterwards
        (a kernel runs in its notebook's folder, so each user of the server
        has its own files and kernels)."""
        need_modules("jupyterlab" if app == "lab" else "notebook")
        root = self.root / name
        root.mkdir()
        for f in files:
            shutil.copy(f, root / f.name)  # never serve the repo's file
        try:
            yield Lab(self, name, app)
        finally:
            for session in self.api("GET", "sessions"):
                if session["path"].startswith(f"{name}/"):
                    self.api("DELETE", f"sessions/{session['id']}")


class Lab:
    """A folder of the server seen in one app: ``app``, its ``root``, the
    server's ``url``, ``token`` and ``log``."""

    def __init__(self, server: Server, folder: str, app: str) -> None:
        self.server, self.folder, self.app = server, folder, app
        self.url, self.token, self.log = server.url, server.token, server.log
        self.root = server.root / folder

    def open(self, page: Any, name: str) -> None:
        """Open notebook ``name`` and wait until its kernel is idle."""
        from playwright.sync_api import expect

        path = f"{self.folder}/{name}"
        if self.app == "lab":
            page.goto(f"{self.url}/lab/tree/{path}?reset&token={self.token}")
            expect(page.locator("#jp-main-statusbar")).to_contain_text(
                "Python 3 (ipykernel) | Idle", timeout=UI_TIMEOUT_MS
            )
        else:  # Notebook 7 has no status bar: its toolbar names the kernel
            page.goto(f"{self.url}/notebooks/{path}?token={self.token}")
            expect(page.locator(".jp-Toolbar-kernelName").first).to_have_text(
                "Python 3 (ipykernel)", timeout=UI_TIMEOUT_MS
            )
            expect(
                page.locator(".jp-Notebook-ExecutionIndicator").first
            ).to_have_attribute("data-status", "idle", timeout=UI_TIMEOUT_MS)

    def menu(self, page: Any, *path: str) -> None:
        """Click a menu bar item, then the items of ``path`` (submenus too)."""
        top = re.compile(f"^{re.escape(path[0])}$")
        page.locator(".lm-MenuBar-itemLabel", has_text=top).click()
        for item in path[1:]:
            page.locator(".lm-Menu .lm-Menu-itemLabel").get_by_text(
                item, exact=True
            ).click()

    def run_all(self, page: Any) -> None:
        """Run All Cells through the menu and wait until every cell ran."""
        self.menu(page, "Run", "Run All Cells")
        page.wait_for_function(ALL_RAN, timeout=UI_TIMEOUT_MS)

    def api(self, method: str, path: str) -> Any:
        return self.server.api(method, path)

    def log_tail(self) -> str:
        return self.server.log_tail()


@contextmanager
def start(tmp: Path) -> Iterator[Server]:
    """A ``jupyter lab`` server with an empty root; stopped afterwards."""
    headless.need_browser()
    need_modules("jupyterlab", "notebook", "ipykernel", "ipywidgets", "anywidget")
    from ipykernel.kernelspec import install

    root = tmp / "root"
    root.mkdir()
    dirs = {
        name: tmp / name
        for name in ("config", "data", "settings", "workspaces", "runtime")
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
        "JUPYTER_DATA_DIR": str(dirs["data"]),  # the trust database too
        "JUPYTERLAB_SETTINGS_DIR": str(dirs["settings"]),
        "JUPYTERLAB_WORKSPACES_DIR": str(dirs["workspaces"]),
        "JUPYTER_RUNTIME_DIR": str(dirs["runtime"]),
        "JUPYTER_PATH": str(tmp / "kernel" / "share" / "jupyter"),
    }
    port, token = _free_port(), secrets.token_hex(16)  # a fresh port per run
    log = tmp / "lab.log"
    cmd = [
        sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
    ]  # fmt: skip
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    server = Server(url, token, root, log)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            # Our own process must be alive: never talk to a stale server.
            if proc.poll() is not None:
                pytest.fail(
                    f"jupyter lab exited ({proc.returncode}):\n{server.log_tail()}"
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
                pytest.fail(f"jupyter lab did not start:\n{server.log_tail()}")
            time.sleep(0.25)
        yield server
    finally:
        proc.send_signal(signal.SIGTERM)  # shuts its kernels down too
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # its own session: only its children
            proc.wait()
