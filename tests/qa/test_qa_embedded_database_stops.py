"""`streamlit run app.py` with no DATABASE_URL starts an embedded PostgreSQL; stopping the app stops it too,
unless another process still uses it (README: several processes may share one data dir).

Before: a SIGTERM (a process manager's stop, `kill`) left the server running. uvicorn ends the process by
re-raising the signal with its default action, so no exit handler let go of the server, and the process id
it left in the server's list of users then kept the server running after every later process had ended.
Ctrl-C stopped it, but only at interpreter exit, while the queue worker was still polling the database.

One first start (initdb, migrations, the demo) and one restart: about 60-90 s at load 10, hence slow."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.browser import ROOT, free_port

START_SECONDS = 240  # a first start on 2 busy cores: initdb, the migrations, the demo organisation
STOP_SECONDS = 60


def _environment(data: Path, chat_port: int) -> dict[str, str]:
    environment = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    return {**environment, "SKILLNET_DATA_DIR": str(data), "SKILLNET_CHAT_PORT": str(chat_port)}


def _wait(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _holders(pgdata: Path) -> list[int]:
    path = pgdata / ".handle_pids.json"
    return json.loads(path.read_text() or "[]") if path.exists() else []


def _postmaster_running(pgdata: Path) -> bool:
    pid_file = pgdata / "postmaster.pid"
    if not pid_file.exists():
        return False
    try:
        os.kill(int(pid_file.read_text().split()[0]), 0)
    except (ProcessLookupError, ValueError, IndexError):
        return False
    return True


def _start_app(data: Path, log: Path) -> subprocess.Popen:
    """The README's command on its own ports; returns once its services (the chat, the worker) are up."""
    chat_port = free_port()
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(free_port())]
    command += ["--server.address", "127.0.0.1", "--server.headless", "true"]
    app = subprocess.Popen(
        command, cwd=ROOT, env=_environment(data, chat_port), stdout=subprocess.DEVNULL, stderr=log.open("w")
    )
    _wait(lambda: _listening(chat_port) or app.poll() is not None, START_SECONDS, "the app's chat never started")
    assert app.poll() is None, log.read_text()[-3000:]
    assert app.pid in _holders(data / "pg")
    return app


def _stop(process: subprocess.Popen, signum: int) -> None:
    process.send_signal(signum)
    process.wait(STOP_SECONDS)


@pytest.mark.slow
def test_stopping_the_app_stops_its_embedded_database_unless_another_process_uses_it():
    # not under pytest's 0700 tmp root: as root, the embedded server runs as the "pgserver" user
    data = Path(tempfile.mkdtemp(prefix="skillnet-stop-"))
    data.chmod(0o755)
    pgdata, app, holder = data / "pg", None, None
    try:
        app = _start_app(data, data / "app-1.log")  # a first start: the database, the demo
        assert _postmaster_running(pgdata)
        _stop(app, signal.SIGTERM)  # drains, then stops
        _wait(lambda: not _postmaster_running(pgdata), STOP_SECONDS, "SIGTERM left the embedded PostgreSQL running")
        assert _holders(pgdata) == []

        # a second process uses the same server (deploy/Procfile's `db`), and a third died without letting go
        holder = subprocess.Popen(
            [sys.executable, "-m", "storage", "database"],
            cwd=ROOT,
            env=_environment(data, free_port()),
            stdout=subprocess.PIPE,
            text=True,
        )
        assert "DATABASE_URL" in json.loads(holder.stdout.readline())
        dead = subprocess.Popen([sys.executable, "-c", "pass"])
        dead.wait()
        (pgdata / ".handle_pids.json").write_text(json.dumps([*_holders(pgdata), dead.pid]))

        app = _start_app(data, data / "app-2.log")
        _stop(app, signal.SIGINT)  # Ctrl-C
        assert _postmaster_running(pgdata), "the app stopped a server another process still uses"
        assert app.pid not in _holders(pgdata)
        assert "the database system is shutting down" not in (data / "app-2.log").read_text()

        _stop(holder, signal.SIGTERM)  # the last living user lets go: the dead one does not keep it running
        _wait(lambda: not _postmaster_running(pgdata), STOP_SECONDS, "a dead process kept the server running")
    finally:
        for process in (app, holder):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait(10)
        if _postmaster_running(pgdata):  # a failed run: PostgreSQL's fast shutdown, so nothing is left behind
            os.kill(int((pgdata / "postmaster.pid").read_text().split()[0]), signal.SIGINT)
            _wait(lambda: not _postmaster_running(pgdata), STOP_SECONDS, "the test's PostgreSQL did not stop")
        shutil.rmtree(data, ignore_errors=True)
