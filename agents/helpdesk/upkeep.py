"""Housekeeping of helpdesk sessions, outside any person's turn: sessions orphaned by a dead process, the
checkpoints' time to live, and a person's right to be forgotten."""

from __future__ import annotations

from uuid import UUID

from agents.helpdesk import metrics
from agents.helpdesk.runs import abort_row, filing_interrupted, run_until_pause
from agents.helpdesk.wiring import AnyDeps, wired
from storage import helpdesk_sessions as sessions


def sweep_orphans(deps: AnyDeps, stale_after_seconds: float | None = None) -> int:
    """Sessions stopped mid-step (no progress for 5 min) end aborted, reason server_restart; a filing
    the person had confirmed when its process died is finished instead (exactly once)."""
    deps = wired(deps)
    stale = deps.settings().orphan_after_seconds if stale_after_seconds is None else stale_after_seconds
    with deps.pool.connection() as conn:
        orphans = sessions.orphaned_sessions(conn, stale)
    aborted = 0
    for row in orphans:
        if filing_interrupted(deps, row):
            run_until_pause(deps, row, None, None)
        else:
            aborted += abort_row(deps, row.id, "server_restart", row.language, row.user_id)
    return aborted


def gc(deps: AnyDeps) -> dict:
    """TTL cleanup: checkpoints older than the TTL are deleted; unfinished sessions end aborted (expired)."""
    deps = wired(deps)
    with deps.pool.connection() as conn:
        expired = sessions.expired_sessions(conn, deps.settings().checkpoint_ttl_seconds)
    aborted = 0
    for row in expired:
        if row.status != "done":
            aborted += abort_row(deps, row.id, "expired", row.language, row.user_id)
        deps.checkpointer.delete_thread(str(row.id))
        metrics.CHECKPOINTS.labels("expire", "ok").inc()
        with deps.pool.connection() as conn:
            sessions.mark_checkpoint_deleted(conn, row.id)
    return {"checkpoints_deleted": len(expired), "sessions_aborted": aborted}


def forget_user(deps: AnyDeps, org_id: UUID, user_id: UUID) -> dict:
    """Right to delete: checkpoints and session rows go; audit lines are tombstoned (timestamps kept)."""
    from agents.helpdesk.audit import tombstone

    deps = wired(deps)
    with deps.pool.connection() as conn:
        ids = sessions.user_session_ids(conn, org_id, user_id)
    for session_id in ids:
        deps.checkpointer.delete_thread(str(session_id))
        metrics.CHECKPOINTS.labels("delete", "ok").inc()
    lines = tombstone({str(i) for i in ids})
    with deps.pool.connection() as conn:
        deleted = sessions.delete_user_sessions(conn, org_id, user_id)
    return {"sessions_deleted": deleted, "audit_lines_tombstoned": lines}
