"""Running generation jobs: claim one, run (or resume) its graph from the checkpoint, record the outcome.

The app starts one worker thread (``start_worker_thread``); ``python -m agents.content worker`` runs
one as its own process. Claims use SKIP LOCKED, a heartbeat keeps them, and a job whose worker died
(stale heartbeat) is claimed again and continues from its last checkpoint instead of starting over.
"""
from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from uuid import UUID

from langgraph.types import Command
from psycopg_pool import ConnectionPool

from agents.content.context import ContentContext
from agents.content.graph import build_graph
from agents.llm import LLM, get_llm
from storage import config
from storage import jobs
from storage.db import app_pool, checkpointer

log = logging.getLogger(__name__)
GRAPH_THREADS = 32
AWAITING_MESSAGES = {
    "structure": ("Estructura del curso lista para revisar", "Course structure ready for review"),
    "final": ("Contenido generado y revisado: listo para la aprobación final",
              "Content generated and reviewed: ready for final approval"),
}


def stale_seconds() -> float:
    return config.get("SKILLNET_JOB_STALE_SECONDS")


def run_config(job_id: UUID | str, checkpoint_id: str | None = None) -> dict:
    configurable = {"thread_id": str(job_id)}
    if checkpoint_id:
        configurable["checkpoint_id"] = checkpoint_id
    # Model calls are limited by ContentContext.model_calls (3). LangGraph's own thread pool stays wide:
    # it also saves each finished module's writes, which must not queue behind modules still waiting.
    return {"configurable": configurable, "max_concurrency": GRAPH_THREADS, "recursion_limit": 200}


def initial_state(job: jobs.Job) -> dict:
    return {"job_id": str(job.id), "org_id": str(job.org_id),
            "triggered_by": str(job.triggered_by) if job.triggered_by else None,
            "source_document_ids": [str(d) for d in job.source_document_ids], "output_type": job.output_type,
            "course_id": None, "generated_modules": [], "refinement_count": 0, "error": None,
            "current_step": "pending"}


def _keep_alive(pool: ConnectionPool, job: jobs.Job, worker: str, stop: threading.Event) -> None:
    while not stop.wait(max(0.5, stale_seconds() / 3)):
        try:
            with pool.connection() as conn:
                jobs.heartbeat(conn, job.org_id, job.id, worker)
        except Exception:  # a missed beat is retried; a long outage lets another worker take over
            log.warning("heartbeat failed for job %s", job.id, exc_info=True)


def _settle(pool: ConnectionPool, graph, job: jobs.Job) -> None:
    """After a run: waiting for an admin, rejected, or already published/failed by its node."""
    snapshot = graph.get_state(run_config(job.id))
    with pool.connection() as conn:
        current = jobs.get_job(conn, job.org_id, job.id, lock=True)
        if snapshot.interrupts:
            checkpoint = snapshot.interrupts[0].value.get("checkpoint", "final")
            status = f"awaiting_{checkpoint}_review"
            if current.status != status and jobs.allowed(current.status, status):
                jobs.set_status(conn, job.org_id, job.id, status)
                es, en = AWAITING_MESSAGES[checkpoint]
                jobs.add_event(conn, job.org_id, job.id, "awaiting_review",
                               {"checkpoint": checkpoint, "message": es, "message_en": en})
        elif not snapshot.next and current.status not in jobs.FINISHED:
            values = snapshot.values
            if not (values.get("result_course_id") or values.get("result_manual_id") or values.get("error")):
                jobs.set_status(conn, job.org_id, job.id, "rejected")
                jobs.add_event(conn, job.org_id, job.id, "rejected", {"message": "Rechazado por el administrador",
                                                                      "message_en": "Rejected by the admin"})


def run_claimed(pool: ConnectionPool, job: jobs.Job, worker: str, *, llm: LLM | None = None) -> None:
    """Run a job this worker has claimed until it pauses, ends or fails; then release it."""
    stop = threading.Event()
    beat = threading.Thread(target=_keep_alive, args=(pool, job, worker, stop), daemon=True,
                            name=f"heartbeat-{job.id}")
    beat.start()
    try:
        graph = build_graph(checkpointer())
        config = run_config(job.id)
        snapshot = graph.get_state(config)
        command = job.command
        if command and command.get("retry_from"):
            payload, config = None, run_config(job.id, command["retry_from"])
        elif command and snapshot.interrupts:
            payload = Command(resume=command)
        elif snapshot.values:
            payload = None          # cut off by a crash (or resumed already): continue from the checkpoint
        else:
            payload = initial_state(job)
        graph.invoke(payload, config, context=ContentContext(pool, llm or get_llm()), durability="sync")
        _settle(pool, graph, job)
    except Exception as exc:
        log.error("generation job %s failed outside its nodes", job.id, exc_info=True)
        message = f"[worker] {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:500]
        with pool.connection() as conn:
            current = jobs.get_job(conn, job.org_id, job.id, lock=True)
            if current is not None and jobs.allowed(current.status, "failed"):
                jobs.set_status(conn, job.org_id, job.id, "failed", error=message)
                jobs.add_event(conn, job.org_id, job.id, "error", {"step": "worker", "message": message,
                                                                   "recoverable": True})
    finally:
        stop.set()
        beat.join()
        with pool.connection() as conn:
            jobs.release(conn, job.org_id, job.id, worker, ran_command=job.command)


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


def run_next(pool: ConnectionPool, worker: str, *, job_id: UUID | None = None, llm: LLM | None = None) -> bool:
    """Claim and run one runnable job (or ``job_id``); False when there was none to claim."""
    with pool.connection() as conn:
        job = jobs.claim_job(conn, worker, stale_seconds=stale_seconds(), job_id=job_id)
    if job is None:
        return False
    run_claimed(pool, job, worker, llm=llm)
    return True


def warm_up() -> None:
    """Load the language identifier and query embedder once, before parallel module tasks would all
    load them at the same moment (seconds each on a busy machine)."""
    from agents.offline import detect_language
    from storage.embeddings import embed_query

    try:
        detect_language("Procedimiento de devolución en tienda")
        embed_query("warm up")
    except Exception:   # a cold start later is slower, not wrong
        log.warning("content worker warm-up failed", exc_info=True)


def run_forever(pool: ConnectionPool, stop: threading.Event, *, poll_seconds: float = 1.0) -> None:
    worker = worker_name()
    warm_up()
    log.info("content worker %s started", worker)
    while not stop.is_set():
        try:
            busy = run_next(pool, worker)
        except Exception:   # the database went away for a moment: keep polling
            log.warning("content worker poll failed", exc_info=True)
            busy = False
        if not busy:
            stop.wait(poll_seconds)


_thread: threading.Thread | None = None
_thread_lock = threading.Lock()


def start_worker_thread(pool: ConnectionPool | None = None) -> threading.Thread:
    """The app's one background worker (started once per process; later calls return the same thread)."""
    global _thread
    with _thread_lock:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=run_forever, args=(pool or app_pool(), threading.Event()),
                                       daemon=True, name="content-worker")
            _thread.start()
        return _thread
