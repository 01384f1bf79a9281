"""Content pipeline benchmark: `python tests/bench/content.py` (prints figures; not a test).

1. An 8-module course with the fake OpenAI server answering every chat call after a fixed 0.5 s
   (valid JSON, so each module costs one call): the fan-out's wall time against the ideal for 3
   concurrent model calls (parallel efficiency), and the checkpoint overhead per step.
2. A 300-page document through the chunked path, offline engine: ingest and pipeline times.
Embeddings come from the fake server too (hash vectors), so the figures are the pipeline's own.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ["SKILLNET_DATA_DIR"] = tempfile.mkdtemp(prefix="skillnet-bench-content-")
os.environ.pop("DATABASE_URL", None)
os.environ["EMBEDDINGS"] = "openai"
os.environ["SKILLNET_EMBED_CACHE"] = ""

from tests.content.model_replies import scripted_author  # noqa: E402
from tests.fake_openai import FakeOpenAI  # noqa: E402

MODEL_DELAY = 0.5
MODULES = 8


def three_hundred_pages(path: Path) -> Path:
    """A 300-page manual (~450 words a page): 60 sections with facts and numbered procedures."""
    parts = ["# Manual de operaciones de tienda (edición completa)"]
    for s in range(1, 61):
        parts.append(f"## {s}. Procedimiento de área {s}")
        for p in range(1, 12):
            parts.append(
                " ".join(
                    f"El equipo del área {s} revisa el punto {p}.{k} cada {k + 2} días y anota el resultado en el "
                    f"registro {s}-{p}-{k}, que el encargado firma antes de las {8 + k % 10} horas."
                    for k in range(6)
                )
            )
        parts.append(
            "Para cerrar la revisión, el empleado sigue estos pasos:\n\n"
            + "\n".join(f"{n}. Comprobar el elemento {n} del área {s} y registrar su estado." for n in range(1, 6))
        )
    path.write_text("\n\n".join(parts))
    return path


def main() -> None:
    fake = FakeOpenAI().start()
    os.environ.update(
        {
            "OPENAI_BASE_URL": fake.base_url,
            "OPENAI_API_KEY": "sk-bench",
            "LLM_MODEL": fake.model,
            "LLM_BACKOFF_SECONDS": "0.01",
        }
    )
    fake.responder = scripted_author(delay=MODEL_DELAY, themes=MODULES)

    from agents.content import decisions, service
    from agents.content.worker import warm_up
    from agents.ingestion.pipeline import ingest_file
    from agents.llm import LLM, Settings
    from agents.runtime.deps import process_deps
    from storage import jobs, users
    from storage.db import checkpointer
    from tests.people import upsert_user

    deps = process_deps()
    pool = deps.pool
    started = time.perf_counter()
    warm_up(deps)  # what a worker does when it starts: load the language identifier and embedder
    warm_s = time.perf_counter() - started
    with pool.connection() as conn:
        org = users.ensure_org(conn, "bench", "Bench")
        admin = upsert_user(
            conn, org.id, email="bench@bench.test", full_name="Bench", role="admin", password="bench-pass"
        )

    # -- instrumentation: checkpoint writes and each module's time inside the model-call semaphore
    saver = checkpointer()
    timings: dict[str, list[float]] = {"put": [], "put_writes": [], "module": []}

    def timed(name, fn):
        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                timings[name].append(time.perf_counter() - started)

        return wrapper

    saver.put, saver.put_writes = timed("put", saver.put), timed("put_writes", saver.put_writes)
    LLM.structured = timed("module", LLM.structured)  # the model calls (what the semaphore of 3 bounds)

    # -- 1. the 8-module course under a 0.5 s model
    doc = ingest_file(pool, org.id, ROOT / "seeds/documents/manual_seguridad_almacen.pdf", uploaded_by=admin.id)
    job_id = service.start_job(deps, admin, [doc.document_id])
    started = time.perf_counter()
    service.run_job(deps, org.id, job_id)
    to_structure = time.perf_counter() - started
    outline = copy.deepcopy(service.job_view(deps, admin, job_id).state["course_outline"])
    base = outline["modules"]
    outline["modules"] = [{**copy.deepcopy(base[i % len(base)]), "title": f"Módulo {i + 1}"} for i in range(MODULES)]
    decisions.review_structure(deps, admin, job_id, "edit", outline=outline)
    for key in timings:
        timings[key].clear()
    calls_before = len(fake.chat_requests)
    started = time.perf_counter()
    service.run_job(deps, org.id, job_id)
    to_final = time.perf_counter() - started
    with pool.connection() as conn:
        events = jobs.list_events(conn, org.id, job_id)
    fan = [e for e in events if e.event_type == "progress"]
    fan_wall = (max(e.created_at for e in fan) - min(e.created_at for e in fan)).total_seconds()
    modules = timings["module"][:MODULES]  # the fan-out's calls (the manual's and reviewer's follow)
    ideal = math.ceil(len(modules) / 3) * statistics.mean(modules)
    engines = {e.data.get("engine") for e in fan if e.data.get("phase") == "done"}
    steps_to_final = len(timings["put"])
    decisions.review_final(deps, admin, job_id, "approve")
    started = time.perf_counter()
    published = service.run_job(deps, org.id, job_id)
    to_publish = time.perf_counter() - started

    put_ms = statistics.mean(timings["put"]) * 1000
    writes_ms = statistics.mean(timings["put_writes"]) * 1000 if timings["put_writes"] else 0.0
    print(f"8-module course, model answering after {MODEL_DELAY:.1f} s (engines: {sorted(engines)}):")
    print(f"  worker warm-up (language identifier, query embedder): {warm_s:.2f} s")
    print(f"  to structure review (prepare, themes, design): {to_structure:6.2f} s")
    print(
        f"  approve -> final review (8 modules, manual, review): {to_final:6.2f} s "
        f"({len(fake.chat_requests) - calls_before} model calls)"
    )
    print(
        f"  fan-out wall {fan_wall:5.2f} s · per-module model call {statistics.mean(modules):.2f} s "
        f"(n={len(modules)}) · ideal for concurrency 3: {ideal:.2f} s · parallel efficiency "
        f"{100 * ideal / fan_wall:5.1f} %"
    )
    print(
        f"  checkpoint writes: {steps_to_final} checkpoints, {put_ms:.1f} ms each; "
        f"{len(timings['put_writes'])} task-write saves, {writes_ms:.1f} ms each; "
        f"overhead {100 * (sum(timings['put']) + sum(timings['put_writes'])) / to_final:.1f} % of that run"
    )
    print(f"  approve -> published: {to_publish:.2f} s ({published.status})")

    # -- 2. 300 pages, chunked path, offline engine
    offline = LLM(Settings())  # the chat engine is offline; embeddings still come from the fake server
    big = three_hundred_pages(Path(os.environ["SKILLNET_DATA_DIR"]) / "operaciones_300.md")
    started = time.perf_counter()
    result = ingest_file(pool, org.id, big, uploaded_by=admin.id)
    ingest_s = time.perf_counter() - started
    job_id = service.start_job(deps, admin, [result.document_id])
    stages = []
    started = time.perf_counter()
    for decide in (None, "structure", "final"):
        if decide == "structure":
            decisions.review_structure(deps, admin, job_id, "approve")
        elif decide == "final":
            decisions.review_final(deps, admin, job_id, "approve")
        t = time.perf_counter()
        service.run_job(dataclasses.replace(deps, llm=offline), org.id, job_id)
        stages.append(time.perf_counter() - t)
    summary = service.job_summary(deps, org.id, job_id)
    print(f"300-page document ({result.pages} pages, {result.chunks} chunks), chunked path, offline engine:")
    print(
        f"  ingest (fake embeddings) {ingest_s:.1f} s · to structure {stages[0]:.1f} s · modules+manual+review "
        f"{stages[1]:.1f} s · publish {stages[2]:.1f} s · total pipeline {sum(stages):.1f} s"
    )
    print(
        f"  -> {summary['status']}: {summary['modules']} modules, {summary['lessons']} lessons, "
        f"exercises {summary['exercises_by_type']}, review score {summary['review_score']}"
    )
    fake.stop()


if __name__ == "__main__":
    main()
