"""Operator and HR-admin views of the helpdesk: sessions, force-abort (the operator's shell, by organisation)
and the Operations page's figures (an active admin, checked here)."""

from __future__ import annotations

from uuid import UUID

from agents.helpdesk.guards import sha
from agents.helpdesk.runs import abort_row, thread_config
from agents.helpdesk.turns import HelpdeskError
from agents.helpdesk.wiring import AnyDeps, wired
from agents.i18n import t
from storage import helpdesk_sessions as sessions
from storage import users

# What `show` prints from a checkpoint: counters, facts and outcome (already redacted), no tool cache.
_STATE_KEYS = (
    "state_version",
    "turns_taken",
    "questions_asked",
    "kb_retry_attempts",
    "web_search_attempts",
    "duplicate_search_attempts",
    "facts",
    "classification",
    "draft",
    "outcome",
    "abort_reason",
    "ticket",
    "linked_ticket",
    "tokens_used",
    "tools_invoked",
)


def _summary(row: sessions.HelpdeskSession) -> dict:
    return {
        "session_id": str(row.id),
        "user_id_hash": sha(row.user_id),
        "status": row.status,
        "outcome": row.outcome,
        "abort_reason": row.abort_reason,
        "kind": row.turn.get("kind"),
        "turns": row.turns_taken,
        "tokens": row.tokens_used,
        "created_at": row.created_at.isoformat(),
        "updated_at": row.updated_at.isoformat(),
    }


def list_sessions(
    deps: AnyDeps, org_id: UUID, *, user_id: UUID | None = None, user_id_hash: str | None = None, limit: int = 50
) -> list[dict]:
    with deps.pool.connection() as conn:
        rows = sessions.list_sessions(conn, org_id, user_id=user_id, limit=limit if not user_id_hash else 1000)
    out = [_summary(row) for row in rows]
    if user_id_hash:
        out = [s for s in out if s["user_id_hash"].startswith(user_id_hash)][:limit]
    return out


def show_session(deps: AnyDeps, org_id: UUID, session_id) -> dict | None:
    with deps.pool.connection() as conn:
        row = sessions.get_any_session(conn, org_id, session_id)
    if row is None:
        return None
    values = wired(deps).graph.get_state(thread_config(row.id)).values
    return {
        **_summary(row),
        "turn": row.turn,
        "trace": row.trace,
        "state": {key: values.get(key) for key in _STATE_KEYS if key in values},
    }


def abort_session(deps: AnyDeps, org_id: UUID, session_id) -> bool:
    """Force-terminate: a paused session ends now; a running one stops at its next supervisor tick."""
    with deps.pool.connection() as conn:
        row = sessions.get_any_session(conn, org_id, session_id)
        if row is None or row.status == "done":
            return False
        if row.status == "running":
            sessions.request_abort(conn, org_id, row.id)
            return True
    return abort_row(deps, row.id, "admin", row.language, row.user_id)


def dashboard(deps: AnyDeps, user: users.User) -> dict:
    """The Operations page's helpdesk figures for the caller's organisation (active admins only):
    funnel, outcomes, latencies and the safety counters."""
    with deps.pool.connection() as conn:
        admin = users.get_user(conn, user.org_id, user.id)
        if admin is None or not admin.is_active or not admin.is_admin:
            raise HelpdeskError("forbidden", t("common.admins_only", user.language))
        rows = sessions.list_sessions(conn, admin.org_id, limit=1000)
    tool_nodes = {"search_duplicates", "retry_kb", "web_search"}
    funnel = {
        "started": len(rows),
        "tools_invoked": sum(any(step.get("node") in tool_nodes for step in row.trace) for row in rows),
        "draft_ready": sum(row.reached_draft for row in rows),
        "user_confirmed": sum(any(step.get("node") == "file_ticket" for step in row.trace) for row in rows),
        "filed": sum(row.outcome == "filed" for row in rows),
    }
    outcomes: dict[tuple[str, str | None], int] = {}
    for row in rows:
        label = (row.outcome or "in_progress", row.abort_reason if row.outcome == "aborted" else None)
        outcomes[label] = outcomes.get(label, 0) + 1
    latencies = [
        {"outcome": row.outcome, "seconds": (row.finished_at - row.created_at).total_seconds()}
        for row in rows
        if row.finished_at
    ]
    step_ms = [{"node": step["node"], "ms": step["ms"]} for row in rows for step in row.trace if "ms" in step]
    helpful = [
        {
            "outcome": outcome,
            "sessions": len(ended := [row for row in rows if row.outcome == outcome]),
            "answered": sum(row.helpful is not None for row in ended),
            "helpful": sum(row.helpful is True for row in ended),
        }
        for outcome in sessions.RATED_OUTCOMES
    ]
    return {
        "helpful": helpful,
        "funnel": funnel,
        "latencies": latencies,
        "step_ms": step_ms,
        "health": health(),
        "outcomes": [{"outcome": o, "reason": r, "sessions": n} for (o, r), n in outcomes.items()],
    }


def health() -> dict:
    """This process's security and safety counters (Prometheus; they restart at zero with the server)."""
    from prometheus_client import REGISTRY

    names = {
        "acl_violations": "session_acl_violation_total",
        "injection_blocked": "prompt_injection_blocked_total",
        "daily_cap_refusals": "daily_cap_refusals_total",
        "idempotent_replays": "session_dedup_total",
    }
    return {
        label: int(REGISTRY.get_sample_value(f"chatbot_helpdesk_agent_{name}") or 0) for label, name in names.items()
    }
