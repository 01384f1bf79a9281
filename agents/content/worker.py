"""Running one generation job: run (or resume) its graph from the checkpoint, record the outcome.

The task queue (agents/runtime/tasks.py) decides where and when: the ``content.generate`` task below calls
``run_generation``; a job whose worker died is handed to another one, which continues from the last
checkpoint instead of starting over.
"""

from __future__ import annotations

import logging
from uuid import UUID

from langgraph.types import Command
from psycopg_pool import ConnectionPool

from agents.content.context import ContentContext
from agents.content.graph import build_graph
from agents.content.sources import load_sources
from agents.runtime import tasks
from agents.runtime.deps import AppDeps, process_deps
from storage import ingestions, jobs, queue

log = logging.getLogger(__name__)
GRAPH_THREADS = 32


def run_config(job_id: UUID | str, checkpoint_id: str | None = None) -> dict:
    configurable = {"thread_id": str(job_id)}
    if checkpoint_id:
        configurable["checkpoint_id"] = checkpoint_id
    # Model calls are limited by ContentContext.model_calls (3). LangGraph's own thread pool stays wide:
    # it also saves each finished module's writes, which must not queue behind modules still waiting.
    return {"configurable": configurable, "max_concurrency": GRAPH_THREADS, "recursion_limit": 200}


def initial_state(job: jobs.Job) -> dict:
    return {
        "job_id": job.id,
        "org_id": job.org_id,
        "triggered_by": job.triggered_by,
        "source_document_ids": list(job.source_document_ids),
        "output_type": job.output_type,
        "generated_modules": [],
        "refinement_count": 0,
        "error": None,
    }


def _carried(pool: ConnectionPool, job: jobs.Job) -> dict:
    """What a job checkpointed before its state carried typed ids and its sources (issue 27) lacks: given once,
    with its next run; the checkpoints after that run hold them."""
    return {
        "job_id": job.id,
        "org_id": job.org_id,
        "triggered_by": job.triggered_by,
        "source_document_ids": list(job.source_document_ids),
        "sources": load_sources(pool, job.org_id, list(job.source_document_ids)),
    }


def _settle(pool: ConnectionPool, graph, job: jobs.Job) -> None:
    """After a run: waiting for an admin, rejected, or already published/failed by its node."""
    snapshot = graph.get_state(run_config(job.id))
    with pool.connection() as conn:
        current = jobs.get_job(conn, job.org_id, job.id, lock=True)
        if current is None:  # deleted meanwhile: nothing left to record
            return
        if snapshot.interrupts:
            checkpoint = snapshot.interrupts[0].value.get("checkpoint", "final")
            status = f"awaiting_{checkpoint}_review"
            if current.status != status and jobs.allowed(current.status, status):
                jobs.set_status(conn, job.org_id, job.id, status)
                jobs.add_event(
                    conn,
                    job.org_id,
                    job.id,
                    "awaiting_review",
                    {"checkpoint": checkpoint},
                )
        elif not snapshot.next and current.status not in jobs.FINISHED:
            values = snapshot.values
            if not (values.get("result_course_id") or values.get("result_manual_id") or values.get("error")):
                jobs.set_status(conn, job.org_id, job.id, "rejected")
                jobs.add_event(conn, job.org_id, job.id, "rejected", {})


def _uploads_ready(conn, job: jobs.Job) -> bool:
    """Whether the job's uploads are all ingested (their documents then join its sources); a failed
    upload fails the job with its reason."""
    found = [ingestions.get(conn, job.org_id, UUID(i)) for i in job.options["ingestions"]]
    uploads = [u for u in found if u is not None]
    if len(uploads) < len(found) or any(u.status in ingestions.IN_FLIGHT for u in uploads):
        return False
    failed = [u for u in uploads if u.status == "failed"]
    if failed:
        message = "; ".join(f"{u.source_name}: {u.error}" for u in failed)
        jobs.set_status(conn, job.org_id, job.id, "failed", error=f"[ingestion] {message}"[:500])
        jobs.add_event(conn, job.org_id, job.id, "error", {"step": "ingestion", "message": message})
        return False
    jobs.add_documents(conn, job.org_id, job.id, [u.document_id for u in uploads if u.document_id is not None])
    return True


def run_generation(deps: AppDeps, org_id: UUID, job_id: UUID, *, worker: str) -> str:
    """Run (or resume) a job until it pauses, ends or fails; the task queue's lock guarantees that no
    other worker runs it meanwhile. Returns what happened ("idle": nothing to do)."""
    pool = deps.pool
    with pool.connection() as conn:
        job = jobs.get_job(conn, org_id, job_id)
        if job is None or not jobs.runnable(job):
            return "idle"
        if job.status == "pending" and job.options.get("ingestions") and not _uploads_ready(conn, job):
            return "waiting"  # the last of its uploads to settle queues it again
        job = jobs.get_job(conn, org_id, job_id)  # again: its uploads' documents may have joined its sources
        if job is None:
            return "idle"
        jobs.count_run(conn, org_id, job_id)
        jobs.add_event(conn, org_id, job_id, "run", {"worker": worker, "attempt": job.attempts + 1})
    try:
        graph = build_graph(deps.checkpointer)
        config = run_config(job.id)
        snapshot = graph.get_state(config)
        command = job.command
        payload: Command | dict | None
        if command and command.get("retry_from"):
            payload, config = None, run_config(job.id, command["retry_from"])
        elif command and snapshot.interrupts:
            payload = Command(resume=command)
        elif snapshot.values:
            payload = None  # cut off by a crash (or resumed already): continue from the checkpoint
        else:
            payload = initial_state(job)
        if snapshot.values and "sources" not in snapshot.values:
            payload = Command(
                resume=payload.resume if isinstance(payload, Command) else None, update=_carried(pool, job)
            )
        graph.invoke(payload, config, context=ContentContext(pool, deps.llm, deps), durability="sync")
        _settle(pool, graph, job)
        return "ran"
    except Exception as exc:
        log.error("generation job %s failed outside its nodes", job.id, exc_info=True)
        message = f"[worker] {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:500]
        with pool.connection() as conn:
            current = jobs.get_job(conn, job.org_id, job.id, lock=True)
            if current is not None and jobs.allowed(current.status, "failed"):
                jobs.set_status(conn, job.org_id, job.id, "failed", error=message)
                jobs.add_event(
                    conn, job.org_id, job.id, "error", {"step": "worker", "message": message, "recoverable": True}
                )
        return "failed"
    finally:
        with pool.connection() as conn:
            jobs.clear_command(conn, job.org_id, job.id, job.command)


GENERATE_TASK = "content.generate"


@tasks.app.task(name=GENERATE_TASK, pass_context=True)
def generate_content(context, org_id: str, job_id: str) -> str:
    deps = context.additional_context.get("deps") or process_deps()
    return run_generation(deps, UUID(org_id), UUID(job_id), worker=context.worker_name or "worker")


def defer_generation(conn, org_id: UUID, job_id: UUID) -> bool:
    """Queue a generation job's next run in the caller's transaction (one waiting run per job)."""
    return tasks.defer(GENERATE_TASK, conn, jobs.queue_lock(job_id), org_id=str(org_id), job_id=str(job_id))


@tasks.on_worker_start
def requeue_runnable(deps: AppDeps) -> int:
    """Generation jobs with work to do and nothing queued for them (queued before the task queue existed,
    or whose queue job was lost) go back in the queue; returns how many."""
    count = 0
    with deps.pool.connection() as conn:
        for org_id, job_id in jobs.runnable_jobs(conn):
            if queue.open_job_status(conn, jobs.queue_lock(job_id)) is None:
                count += defer_generation(conn, org_id, job_id)
    return count


@tasks.on_worker_start
def warm_up(deps: AppDeps) -> None:
    """Load the language identifier and query embedder once, before parallel module tasks would all
    load them at the same moment (seconds each on a busy machine)."""
    from agents.offline import detect_language

    try:
        detect_language("Procedimiento de devolución en tienda")
        deps.embed_query("warm up")
    except Exception:  # a cold start later is slower, not wrong
        log.warning("content worker warm-up failed", exc_info=True)
