"""The deploy/ arrangement on this machine: two app processes, two chat processes, one queue worker and
deploy/haproxy.cfg in front over https (a self-signed certificate), all on one PostgreSQL.

Each process is reached only through HAProxy by the browser; the tests kill them by their Popen."""

from __future__ import annotations

import contextlib
import os
import shutil
import ssl
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from tests.browser import ROOT, free_port

HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
CHAT_PATH = "/chat/"
START_SECONDS = 180  # a Streamlit or Gradio start on a 2-core machine at load 5-9


@dataclass
class Arrangement:
    base: str  # https://localhost:PORT, HAProxy's front
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)  # "app_a", "chat_b", "worker", …
    ports: dict[str, int] = field(default_factory=dict)

    def kill(self, *names: str) -> None:
        """SIGKILL: no clean shutdown, as when a machine dies."""
        for name in names:
            self.processes[name].kill()
            self.processes[name].wait(10)


def self_signed_pem(folder: Path) -> Path:
    """A certificate and its key in one file, as HAProxy's ``crt`` wants them."""
    key, cert, pem = folder / "key.pem", folder / "cert.pem", folder / "haproxy.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    pem.write_text(cert.read_text() + key.read_text())
    return pem


def _answers(url: str) -> bool:
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    try:
        with urllib.request.urlopen(url, timeout=3, context=context) as response:
            return response.status == 200
    except OSError:
        return False


def wait_until(condition, seconds: float, what: str, processes: dict[str, subprocess.Popen], logs: Path) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        dead = [name for name, process in processes.items() if process.poll() is not None]
        if dead:
            tails = {name: (logs / f"{name}.log").read_text()[-1500:] for name in dead}
            raise RuntimeError(f"{what}: {', '.join(dead)} exited: {tails}")
        time.sleep(0.3)
    raise TimeoutError(what)


@contextlib.contextmanager
def running_arrangement(
    database_url: str,
    logs: Path,
    *,
    apps: str = "ab",
    chats: str = "ab",
    worker: bool = True,
    chat_command: list[str] | None = None,
):
    """Start everything, wait until each process answers; stop it all afterwards. ``apps``/``chats`` name the
    pairs that run (HAProxy's other server then points at the first one's process); ``chat_command`` replaces
    `python chat.py` (tests/bench/load.py's replaying chat)."""
    ports = {name: free_port() for name in ("app_a", "app_b", "chat_a", "chat_b", "https")}
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SKILLNET_CHAT_PATH": CHAT_PATH,
        "SKILLNET_CONTENT_WORKER": "off",
        "PYTHONPATH": str(ROOT),
    }
    commands = {
        **{
            f"app_{pair}": [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                "app.py",
                "--server.port",
                str(ports[f"app_{pair}"]),
                "--server.address",
                "127.0.0.1",
                "--server.headless",
                "true",
            ]
            for pair in apps
        },
        **{f"chat_{pair}": chat_command or [sys.executable, "chat.py"] for pair in chats},
        **({"worker": [sys.executable, "-m", "agents.content", "worker"]} if worker else {}),
        "haproxy": [HAPROXY, "-f", str(ROOT / "deploy" / "haproxy.cfg"), "-db"],
    }
    own_env = {f"chat_{pair}": {"SKILLNET_CHAT_PORT": str(ports[f"chat_{pair}"])} for pair in chats}

    def address(kind: str, pair: str, running: str) -> str:  # nothing running: a port nobody listens on
        return f"127.0.0.1:{ports[f'{kind}_{pair if pair in running else running[0]}'] if running else 1}"

    servers = {
        f"{kind}_{pair}": address(kind, pair, running)
        for kind, running in (("app", apps), ("chat", chats))
        for pair in "ab"
    }
    own_env["haproxy"] = {
        "SKILLNET_HTTPS_BIND": f"127.0.0.1:{ports['https']}",
        "SKILLNET_TLS_PEM": str(self_signed_pem(logs)),
        **{name.upper(): address for name, address in servers.items()},
    }
    arrangement = Arrangement(f"https://localhost:{ports['https']}", ports=ports)
    try:
        for name, command in commands.items():
            arrangement.processes[name] = subprocess.Popen(
                command,
                cwd=ROOT,
                env={**env, **own_env.get(name, {})},
                stdin=subprocess.DEVNULL,
                stdout=(logs / f"{name}.log").open("w"),
                stderr=subprocess.STDOUT,
            )
        health = {
            **{f"app_{pair}": "/_stcore/health" for pair in apps},
            **{f"chat_{pair}": "/gradio_api/app_id" for pair in chats},
        }
        for name, path in health.items():
            wait_until(
                lambda name=name, path=path: _answers(f"http://127.0.0.1:{ports[name]}{path}"),
                START_SECONDS,
                f"{name} healthy",
                arrangement.processes,
                logs,
            )
        front = [f"{CHAT_PATH}gradio_api/app_id"] + (["/_stcore/health"] if apps else [])
        wait_until(
            lambda: all(_answers(arrangement.base + path) for path in front),
            30,
            "HAProxy serving them",
            arrangement.processes,
            logs,
        )
        yield arrangement
    finally:
        for process in arrangement.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in arrangement.processes.values():
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
