"""The helpdesk's periodic upkeep: orphaned sessions end (or a confirmed filing is finished) and
checkpoints past their TTL go. It runs on the task queue (agents/tasks.py, ``helpdesk.sweep``): once
when the app starts and every 10 minutes, in whichever worker takes it. Both sweeps are idempotent."""
from __future__ import annotations

from agents.helpdesk.service import gc, sweep_orphans
from agents.helpdesk.wiring import AnyDeps


def sweep_once(deps: AnyDeps) -> dict:
    return {"orphans_aborted": sweep_orphans(deps), **gc(deps)}
