"""The helpdesk's periodic upkeep: orphaned sessions end (or a confirmed filing is finished) and
checkpoints past their TTL go. It runs on the task queue as ``helpdesk.sweep``: once when the app starts
and every 10 minutes, in whichever worker takes it. Both sweeps are idempotent."""

from __future__ import annotations

from agents.helpdesk.upkeep import gc, sweep_orphans
from agents.helpdesk.wiring import AnyDeps
from agents.runtime import tasks
from agents.runtime.deps import process_deps

SWEEP_TASK = "helpdesk.sweep"


def sweep_once(deps: AnyDeps) -> dict:
    return {"orphans_aborted": sweep_orphans(deps), **gc(deps)}


@tasks.app.periodic(cron="*/10 * * * *", periodic_id="helpdesk-sweeps")
@tasks.app.task(name=SWEEP_TASK, queueing_lock=SWEEP_TASK)
def helpdesk_sweeps(timestamp: int | None = None) -> dict:
    """Every 10 minutes, and once when the app starts; idempotent, so whichever worker takes it is right."""
    return sweep_once(process_deps())


def defer_helpdesk_sweeps() -> bool:
    with process_deps().pool.connection() as conn:
        return tasks.defer(SWEEP_TASK, conn, SWEEP_TASK)
