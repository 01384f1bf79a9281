"""What an operator looks at (admins): model calls and fallbacks by reason (this process's Prometheus
counters), the engine answering, the content-generation queue, the accounts locked right now, and
the audit log."""

from __future__ import annotations

import json
from collections import Counter

from agents.auth import locked_accounts
from agents.i18n import t
from agents.insights.audit_summary import after_summary, before_summary, entity_label
from agents.runtime import metrics
from agents.runtime.deps import AppDeps
from storage import jobs
from storage.users import User


def overview(deps: AppDeps, admin: User) -> dict:
    if not admin.is_admin:
        raise PermissionError(t("common.admins_only", admin.language))
    with deps.pool.connection() as conn:
        queue = jobs.list_jobs(conn, admin.org_id, limit=200)
    return {
        "engine": deps.llm.engine,
        "model_calls": metrics.model_calls(),
        "fallbacks": metrics.fallbacks_by_reason(),
        "jobs": [{"status": status, "jobs": count} for status, count in Counter(j.status for j in queue).items()],
        "running_jobs": [
            {
                "id": str(j.id),
                "status": j.status,
                "worker": j.claimed_by or "",
                "heartbeat_at": j.heartbeat_at,
                "attempts": j.attempts,
            }
            for j in queue
            if j.status not in jobs.FINISHED
        ],
        "locked_accounts": [
            {"account": f.subject, "failures": f.failures, "locked_until": f.locked_until}
            for f in locked_accounts(deps, admin)
        ],
        "metrics_port": metrics.start_metrics_server(),
    }


def audit_entries(deps: AppDeps, admin: User, *, limit: int = 1000) -> list[dict]:
    """Who changed what, when, with the state before and after; newest first.

    Each row names what it touched (``entity_name``) and reads its states in the admin's language
    (``before``, ``after``); ``entity_id``, ``before_json`` and ``after_json`` keep them as recorded."""
    from storage import audit

    if not admin.is_admin:
        return []
    lang = admin.language
    with deps.pool.connection() as conn:
        entries = audit.list_entries(conn, admin.org_id, limit=limit, lang=lang)
    return [
        {
            "when": e.created_at,
            "who": e.actor_name or "",
            "action": e.action,
            "entity": e.entity_type,
            "entity_name": entity_label(e.entity_id, e.entity_name, lang),
            "entity_id": e.entity_id or "",
            "before": before_summary(e.before, e.people, lang),
            "after": after_summary(e.before, e.after, e.people, lang),
            "before_json": "" if e.before is None else json.dumps(e.before, ensure_ascii=False, default=str),
            "after_json": "" if e.after is None else json.dumps(e.after, ensure_ascii=False, default=str),
        }
        for e in entries
    ]


def matching_entries(
    rows: list[dict], *, actions: list[str] | None = None, people: list[str] | None = None, text: str = ""
) -> list[dict]:
    """The audit rows of these actions and by these people (all when none) that hold every word of ``text``."""
    words = text.lower().split()
    return [
        r
        for r in rows
        if (not actions or r["action"] in actions)
        and (not people or r["who"] in people)
        and all(w in " ".join(str(v) for v in r.values()).lower() for w in words)
    ]
