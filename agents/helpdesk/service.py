"""The helpdesk service: what pages and the CLI call. Ownership, idempotency and caps; a graph run to its next
pause is in runs.py, the housekeeping (orphans, time to live, erasure) in upkeep.py.

Every call takes the signed-in user. Another person's session answers exactly like a missing one
(HelpdeskError "not_found") and counts an ACL violation.
"""

from __future__ import annotations

from langgraph.types import Command

from agents.helpdesk import metrics
from agents.helpdesk.audit import audit
from agents.helpdesk.graph import new_state
from agents.helpdesk.guards import redact
from agents.helpdesk.runs import (
    abort_row,
    check_state_version,
    filing_interrupted,
    run_until_pause,
    thread_config,
)
from agents.helpdesk.state import TicketDraft
from agents.helpdesk.turns import AgentTurn, HelpdeskError, error
from agents.helpdesk.wiring import AnyDeps, HelpdeskDeps, wired
from agents.runtime import drain
from agents.runtime.refusals import refusal
from core.inputs import InputRefused, checked_text
from core.turns import Turn, finish
from storage import chat, rate_limits
from storage import helpdesk_sessions as sessions

__all__ = [
    "AgentTurn",
    "HelpdeskError",
    "HelpdeskDeps",
    "wired",
    "start",
    "start_turn",
    "resume",
    "resume_turn",
    "confirm",
    "abort",
    "abort_turn",
    "get_turn",
]


def _owned(deps: HelpdeskDeps, user, session_id) -> sessions.HelpdeskSession:
    with deps.pool.connection() as conn:
        row = sessions.get_session(conn, user.org_id, user.id, session_id)
        if row is None:
            if sessions.get_any_session(conn, user.org_id, session_id) is not None:
                metrics.ACL_VIOLATIONS.inc()
                audit("agent.acl_violation", at=deps.now(), session_id=str(session_id), user_id=str(user.id))
            raise error("not_found", user.language)
    return row


# --- public API ------------------------------------------------------------------------------------
# Each step of a session is a turn streamed as it runs (``core.turns``: a Step as each agent step starts);
# ``start``, ``resume``, ``confirm`` and ``abort`` play one to its end for callers that want only the result.
def start(deps: AnyDeps, user, question: str, **options) -> AgentTurn:
    return finish(start_turn(deps, user, question, **options))


def resume(deps: AnyDeps, user, session_id, **options) -> AgentTurn:
    return finish(resume_turn(deps, user, session_id, **options))


def confirm(deps: AnyDeps, user, session_id, *, question_id: str | None, draft: dict | None = None) -> AgentTurn:
    """The human gate: "File it" with the (edited) draft. A double confirm files one ticket."""
    return resume(deps, user, session_id, question_id=question_id, action="file", draft=draft)


def abort(deps: AnyDeps, user, session_id) -> AgentTurn:
    return finish(abort_turn(deps, user, session_id))


def start_turn(
    deps: AnyDeps,
    user,
    question: str,
    *,
    conversation: list[dict] | None = None,
    idempotency_key: str | None = None,
    trigger: str = "chip",
) -> Turn[AgentTurn]:
    """Open a session for ``question`` and run it to the first pause or outcome."""
    deps = wired(deps)
    settings = deps.settings()
    if not settings.enabled or settings.kill_switch or not settings.allows_user(user.id):
        raise error("disabled", user.language)
    if drain.draining():  # SIGTERM: the server stops once the steps in flight finish
        raise error("draining", user.language)
    try:  # caps and bad bytes before anything reads the text (redaction, the graph, the database)
        question = checked_text(question, limit=settings.question_max_chars).strip()
        conversation = [
            {**turn, "content": checked_text(turn.get("content"), limit=settings.conversation_max_chars)}
            for turn in (conversation or [])[-settings.max_turns * 2 :]
        ] or None
    except InputRefused as exc:
        raise HelpdeskError(exc.code or "invalid", refusal(exc, user.language)) from None
    if len(question) < 5:
        raise error("invalid", user.language)
    key = (idempotency_key or "").strip()[:100] or None
    with deps.pool.connection() as conn:
        sessions.lock_user(conn, user.id)
        if key:
            existing = sessions.find_by_idempotency_key(conn, user.org_id, user.id, key, settings.idempotency_seconds)
            if existing is not None:
                metrics.SESSION_DEDUP.inc()
                return AgentTurn.from_row(existing)
        # Counted in the rate-limit table: forgetting a person's sessions does not give starts back.
        wait = rate_limits.take(conn, user.id, "helpdesk.start", settings.max_sessions_per_day, 86_400)
        if wait is not None:
            metrics.DAILY_CAP_REFUSALS.inc()
            raise error("daily_cap", user.language, retry_after=wait)
        chat_session = chat.create_session(conn, user.org_id, user.id, "helpdesk", title=redact(question)[:80])
        chat.add_message(conn, user.org_id, chat_session.id, "user", redact(question))
        row = sessions.create_session(
            conn,
            user.org_id,
            user.id,
            language=user.language,
            chat_session_id=chat_session.id,
            idempotency_key=key,
            trigger=trigger,
        )
    metrics.STARTED.labels(trigger).inc()
    audit(
        "agent.started",
        at=deps.now(),
        session_id=str(row.id),
        chat_session_id=str(chat_session.id),
        user_id=str(user.id),
        trigger=trigger,
    )
    state = new_state(
        session_id=str(row.id),
        question=question,
        conversation=conversation,
        language=user.language,
        user_id=str(user.id),
        org_id=str(user.org_id),
        chat_session_id=str(chat_session.id),
        now=deps.now(),
    )
    return (yield from run_until_pause(deps, row, state))


def resume_turn(
    deps: AnyDeps,
    user,
    session_id,
    *,
    question_id: str | None,
    action: str = "reply",
    text: str = "",
    draft: dict | None = None,
) -> Turn[AgentTurn]:
    """Answer the pending question (reply, solved/not_solved, link/not_same, file, abort)."""
    deps = wired(deps)
    row = _owned(deps, user, session_id)
    if row.status == "done":
        return AgentTurn.from_row(row)  # a replay (double click, second tab): the outcome stands
    if row.status == "running" and action == "file" and filing_interrupted(deps, row):
        return (yield from run_until_pause(deps, row, None))  # re-confirm after a crash: finish that same filing
    if action == "file" and draft is not None:
        try:
            TicketDraft.model_validate({**(row.turn.get("draft") or {}), **draft})
        except ValueError:
            raise error("invalid_draft", user.language) from None
    with deps.pool.connection() as conn:
        claimed = sessions.claim_turn(conn, user.org_id, user.id, row.id, question_id)
    if not claimed:
        current = _owned(deps, user, session_id)
        if current.status == "done":
            return AgentTurn.from_row(current)
        raise error("conflict", user.language)
    check_state_version(deps, row, user.language)
    payload = {"action": action, "text": str(text)[:2000], "draft": draft}
    return (yield from run_until_pause(deps, row, Command(resume=payload)))


def abort_turn(deps: AnyDeps, user, session_id) -> Turn[AgentTurn]:
    """Cancel: a paused session ends now; a running one is saved aborted (user_cancelled) at once and
    the run returns within CANCEL_POLL_SECONDS, the in-flight model or tool result discarded."""
    deps = wired(deps)
    row = _owned(deps, user, session_id)
    if row.status == "done":
        return AgentTurn.from_row(row)
    if row.status == "running":  # saved aborted now; the run stops at its next step, its result discarded
        turn = AgentTurn.aborted(str(row.id), "user_cancelled", user.language)
        with deps.pool.connection() as conn:
            sessions.request_abort(conn, user.org_id, row.id)
            sessions.finish_aborted(conn, row.id, "user_cancelled", turn.to_dict())
        metrics.OUTCOMES.labels("aborted").inc()
        audit("agent.aborted", at=deps.now(), session_id=str(row.id), user_id=str(user.id), reason="user_cancelled")
        return turn
    return (yield from resume_turn(deps, user, session_id, question_id=row.pending_question_id, action="abort"))


def get_turn(deps: AnyDeps, user, session_id) -> AgentTurn:
    """The session's latest turn (what the page shows after a reload).

    A session "running" with no progress past the orphan window died with its process: it ends
    aborted (server_restart) here too, for restarts the startup sweep saw too early to judge.
    """
    deps = wired(deps)
    row = _owned(deps, user, session_id)
    idle = (deps.app.now() - row.updated_at).total_seconds()
    if (
        row.status == "running" and idle >= deps.settings().orphan_after_seconds and not filing_interrupted(deps, row)
    ):  # an interrupted filing waits for its re-confirm
        abort_row(deps, row.id, "server_restart", row.language, row.user_id)
        row = _owned(deps, user, session_id)
    return AgentTurn.from_row(row)


def rate(deps: AnyDeps, user, session_id, helpful: bool) -> None:
    """The person's "did this solve it?" on their finished session: kept (a second answer replaces the
    first), audited, and counted for staff per outcome (``admin.dashboard``)."""
    deps = wired(deps)
    row = _owned(deps, user, session_id)
    with deps.pool.connection() as conn:
        if not sessions.record_helpful(conn, user.org_id, user.id, row.id, bool(helpful)):
            raise error("not_rateable", user.language)
    audit(
        "agent.rated",
        at=deps.now(),
        session_id=str(row.id),
        user_id=str(user.id),
        outcome=row.outcome,
        helpful=bool(helpful),
    )


def thread(deps: AnyDeps, user, session_id) -> list[dict]:
    """The conversation so far, redacted: the person's own messages and answers, the agent's questions
    and fixes, without the message now waiting for an answer (the page shows that one itself)."""
    from agents.helpdesk.tool_nodes import session_snapshot

    deps = wired(deps)
    row = _owned(deps, user, session_id)
    values = deps.graph.get_state(thread_config(row.id)).values
    if not values:
        return []
    pending = (row.turn or {}).get("message") if row.status != "done" else None
    return [turn for turn in session_snapshot(values) if turn["content"] != pending]


_UI_EVENTS = {
    "agent.chip_clicked",
    "agent.resumed_via",
    "agent.modal_opened",
    "agent.modal_submitted",
    "agent.modal_cancelled",
    "agent.cancel_clicked",
    "agent.error_shown",
    "agent.mode_switched",
}


def track(deps: AnyDeps, user, event: str, session_id: str | None = None, **fields) -> None:
    """Front-end telemetry (spec 001 "Frontend telemetry") into the audit log: labels only, never text."""
    if event in _UI_EVENTS:
        audit(
            event,
            at=wired(deps).now(),
            session_id=str(session_id or "-"),
            chat_session_id=None,
            user_id=str(user.id),
            **{
                k: v
                for k, v in fields.items()  # labels only; a field named like a parameter would collide with it
                if k not in ("event", "at", "session_id", "chat_session_id", "user_id")
                and (isinstance(v, (int, bool)) or (isinstance(v, str) and len(v) <= 40))
            },
        )


def engine(deps: AnyDeps) -> str:
    """Which engine answers ("offline" or "openai:<model>"), for the page to say so."""
    return deps.llm.engine
