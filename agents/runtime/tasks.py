"""The procrastinate task queue: the app, deferring by task name, the stalled-worker sweep and running
workers. The tasks themselves live with their features (``TASK_MODULES``): course generation, the
ingestion of uploads, course health and the helpdesk sweeps.

Any number of workers share the database: the app runs one in a thread (``start_worker_thread``),
``python -m agents.content worker`` runs one per process, and procrastinate's own
``python -m procrastinate --app=agents.runtime.tasks.app worker`` works too. A generation job's queue jobs carry
the lock ``generation:<id>``, so one worker at a time runs it; a worker that stops sending heartbeats (killed,
machine gone) is found by the ``queue.retry_stalled`` sweep every few seconds and its job goes back
in the queue, where another worker resumes the graph from its last checkpoint.
Jobs are deferred on the caller's own connection, inside its transaction: a job row and its queue job
are written together or not at all.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable

import procrastinate
from procrastinate import exceptions
from psycopg_pool import AsyncConnectionPool

from agents.runtime import drain
from agents.runtime.deps import AppDeps, process_deps
from core import config
from storage.db import database_url

log = logging.getLogger(__name__)
WORKER_CONCURRENCY = 3  # a long generation job must not hold back an ingestion or a sweep
STALLED_SWEEP_CRON = "* * * * * */5"  # every 5 s (croniter's seconds field comes last)


def stale_seconds() -> float:
    return config.get("SKILLNET_JOB_STALE_SECONDS")


def _worker_pool(**kwargs) -> AsyncConnectionPool:
    process_deps()  # the database exists and is migrated (procrastinate's schema included)
    return AsyncConnectionPool(database_url(), min_size=1, max_size=4, **kwargs)


class _Connector(procrastinate.PsycopgConnector):
    """Opens its async pool on the app's database when a worker starts (the URL is only known then).

    Deferring always goes through the caller's own connection, so the sync side needs no pool of its
    own — and must never borrow a worker's async pool, which lives on that worker's event loop."""

    def __init__(self):
        super().__init__(pool_factory=_worker_pool)

    def get_sync_connector(self):
        if self._sync_connector is None:
            self._sync_connector = procrastinate.SyncPsycopgConnector()
        return self._sync_connector


# Each feature defines its own tasks next to the code they run; a worker imports these modules when it
# starts (procrastinate's import_paths), so this module imports no feature and features defer by name.
TASK_MODULES = [
    "agents.content.worker",
    "agents.ingestion.uploads",
    "agents.helpdesk.sweeper",
    "agents.insights.item_health",
]
app = procrastinate.App(connector=_Connector(), import_paths=TASK_MODULES)
_on_worker_start: list[Callable[[AppDeps], object]] = []


def on_worker_start(function: Callable[[AppDeps], object]) -> Callable[[AppDeps], object]:
    """Run ``function(deps)`` with the worker's deps when it starts, before it takes a job (a feature's
    warm-up, a requeue)."""
    _on_worker_start.append(function)
    return function


def defer(task_name: str, conn, lock: str, **kwargs) -> bool:
    """Queue the task named ``task_name`` in the caller's transaction; False when one holding ``lock`` is
    already waiting (it will see the latest state when it runs)."""
    try:
        with conn.transaction():  # a savepoint: a refused insert must not abort the caller's transaction
            app.configure_task(task_name, lock=lock, queueing_lock=lock, connection=conn).defer(**kwargs)
    except exceptions.AlreadyEnqueued:
        return False
    return True


# ------------------------------------------------------------------------------------- upkeep


@app.periodic(cron=STALLED_SWEEP_CRON, periodic_id="retry-stalled")
@app.task(name="queue.retry_stalled", queueing_lock="queue.retry_stalled", pass_context=True)
async def retry_stalled(context: procrastinate.JobContext, timestamp: int | None = None) -> int:
    """Jobs of workers whose heartbeat stopped go back in the queue (their graph resumes from its
    checkpoint wherever they run next)."""
    return await _retry_stalled_jobs(context.app.job_manager)


async def _retry_stalled_jobs(manager) -> int:
    retried = 0
    for job in await manager.get_stalled_jobs(seconds_since_heartbeat=stale_seconds()):
        try:
            await manager.retry_job(job)
            retried += 1
        except exceptions.UniqueViolation:  # a newer job for the same work is already waiting: it takes over
            await manager.finish_job_by_id_async(job.id, status=procrastinate.jobs.Status.FAILED, delete_job=False)
    return retried


# ------------------------------------------------------------------------------------- running workers


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


_work_lock = threading.Lock()


def work(*, wait: bool = True, deps=None, name: str | None = None, main_thread: bool = False) -> None:
    """Run one queue worker here until stopped (``wait``) or until nothing is left to do.

    ``deps`` (an AppDeps) replaces the process's in the generation jobs it runs (the CLI and tests hand
    their own model or pool); on the main thread
    procrastinate handles SIGINT/SIGTERM itself: it takes no new job and lets running ones finish."""
    app.perform_import_paths()
    worker_deps = deps or process_deps()
    for function in _on_worker_start:
        function(worker_deps)
    stale = stale_seconds()

    async def run() -> None:
        _running.update(loop=asyncio.get_running_loop(), task=asyncio.current_task())
        async with app.open_async():
            await app.run_worker_async(
                name=name or worker_name(),
                wait=wait,
                concurrency=WORKER_CONCURRENCY,
                listen_notify=wait,
                install_signal_handlers=main_thread,
                additional_context={"deps": deps} if deps else {},
                update_heartbeat_interval=max(0.5, stale / 4),
                stalled_worker_timeout=stale,
                delete_jobs="successful",
            )

    with _work_lock:  # the app's async pool lives on one worker's event loop: one worker per process
        if not wait:
            retry_stalled_now()
        asyncio.run(run())


def retry_stalled_now() -> int:
    """The stalled-worker sweep, here and now (a worker that runs only until the queue is empty)."""

    async def sweep() -> int:
        # its own connector: it defers nothing, so it needn't (and mustn't) open the app a worker may hold
        async with app.with_connector(_Connector()).open_async() as worker_app:
            return await _retry_stalled_jobs(worker_app.job_manager)

    return asyncio.run(sweep())


_thread: threading.Thread | None = None
_thread_lock = threading.Lock()


_running: dict = {}  # the event loop and task of the worker running in this process


def worker_thread_running() -> bool:
    return _thread is not None and _thread.is_alive()


def stop_worker_thread(timeout: float) -> None:
    """Stop the app's worker the way procrastinate stops on a signal: no new job is taken and those
    running finish; waits at most ``timeout`` seconds."""
    thread, loop, task = _thread, _running.get("loop"), _running.get("task")
    if thread is None or not thread.is_alive() or loop is None or task is None:
        return
    loop.call_soon_threadsafe(task.cancel)
    thread.join(timeout)


def start_worker_thread() -> threading.Thread:
    """The app's own queue worker (once per process; later calls return the same thread)."""
    global _thread
    with _thread_lock:
        if _thread is None or not _thread.is_alive():

            def serve() -> None:
                try:
                    work(wait=True)
                except asyncio.CancelledError:  # stop_worker_thread: its running jobs have finished
                    log.info("the in-process queue worker stopped")
                except Exception:  # logged: the app keeps serving pages; the queue waits for a worker
                    log.exception("the in-process queue worker stopped")

            _thread = threading.Thread(target=serve, daemon=True, name="queue-worker")
            _thread.start()
            drain.before_stop(stop_worker_thread)
        return _thread
