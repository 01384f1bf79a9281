"""The helpdesk service: what pages and the CLI call. Ownership, idempotency, caps, runs and recovery.

Every call takes the signed-in user. Another person's session answers exactly like a missing one
(HelpdeskError "not_found") and counts an ACL violation.
"""

from __future__ import annotations

import concurrent.futures
import queue
from collections.abc import Callable
from uuid import UUID

from langchain_core.runnables import RunnableConfig
from langgraph.types import Command

from agents.helpdesk import metrics
from agents.helpdesk.audit import audit
from agents.helpdesk.graph import new_state
from agents.helpdesk.guards import Settings, redact, sha
from agents.helpdesk.state import STATE_VERSION, HelpdeskContext, TicketDraft
from agents.helpdesk.turns import AgentTurn, HelpdeskError, error, step_label, turn_from_result
from agents.helpdesk.wiring import AnyDeps, HelpdeskDeps, wired
from agents.i18n import t
from agents.runtime import drain
from agents.runtime.refusals import refusal
from core.inputs import InputRefused, checked_text
from core.markup import product_text
from storage import chat, rate_limits
from storage import helpdesk_sessions as sessions

__all__ = [
    "AgentTurn",
    "HelpdeskError",
    "HelpdeskDeps",
    "wired",
    "start",
    "resume",
    "confirm",
    "abort",
    "get_turn",
    "sweep_orphans",
    "gc",
    "forget_user",
    "step_label",
]


CANCEL_POLL_SECONDS = 0.25
_RUNS = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="helpdesk-run")


def _config(session_id) -> RunnableConfig:
    return {"configurable": {"thread_id": str(session_id)}}


def _owned(deps: HelpdeskDeps, user, session_id) -> sessions.HelpdeskSession:
    with deps.pool.connection() as conn:
        row = sessions.get_session(conn, user.org_id, user.id, session_id)
        if row is None:
            if sessions.get_any_session(conn, user.org_id, session_id) is not None:
                metrics.ACL_VIOLATIONS.inc()
                audit("agent.acl_violation", at=deps.now(), session_id=str(session_id), user_id=str(user.id))
            raise error("not_found", user.language)
    return row


def _context(deps: HelpdeskDeps, settings: Settings, row, on_step) -> HelpdeskContext:
    def stop_reason(session_id: str) -> str | None:
        with deps.pool.connection() as conn:
            return "user_cancelled" if sessions.abort_requested(conn, UUID(session_id)) else None

    def heartbeat(session_id: str) -> None:
        with deps.pool.connection() as conn:
            sessions.touch(conn, UUID(session_id))

    def emit(step: str, data: dict) -> None:
        label = step_label(step, data, row.language)
        if label and on_step:
            on_step(label)

    return HelpdeskContext(
        llm=deps.llm,
        tools=deps.toolbox(deps.app, row.org_id, row.user_id),
        settings=settings,
        clock=deps.now,
        stop_reason=stop_reason,
        heartbeat=heartbeat,
        on_step=emit,
    )


@drain.in_flight  # the drain waits for the turn to be recorded too, not only for the graph step (_invoke)
def _run(deps: HelpdeskDeps, row: sessions.HelpdeskSession, payload, on_step) -> AgentTurn:
    """One graph run to the next pause or the end; the session row records the turn."""
    settings = deps.settings()
    labels: queue.SimpleQueue = queue.SimpleQueue()
    ctx = _context(deps, settings, row, labels.put)
    future = _RUNS.submit(_invoke, deps, row, payload, ctx)
    try:
        while True:  # the caller's thread: step labels shown live, and Cancel honoured within 2 s
            try:
                result = future.result(timeout=CANCEL_POLL_SECONDS)
                break
            except concurrent.futures.TimeoutError:
                _flush(labels, on_step)
                if _cancelled(deps, row.id):  # the in-flight step's result will be discarded
                    return AgentTurn.aborted(str(row.id), "user_cancelled", row.language)
        _flush(labels, on_step)
        metrics.CHECKPOINTS.labels("write", "ok").inc()
    except HelpdeskError:
        raise
    except Exception as exc:  # a bug or a broken dependency ends the session cleanly, never half-filed
        metrics.OUTCOMES.labels("error").inc()
        audit(
            "agent.error",
            at=deps.now(),
            session_id=str(row.id),
            user_id=str(row.user_id),
            kind=type(exc).__name__,
            message_hash=sha(str(exc)),
        )
        turn = AgentTurn.aborted(str(row.id), "error", row.language)
        with deps.pool.connection() as conn:
            sessions.finish_aborted(conn, row.id, "error", turn.to_dict())
        return turn
    turn = turn_from_result(str(row.id), result, row.language)
    turn.message = product_text(turn.message)  # suggestions quote documents and other people's tickets
    if turn.kind == "linked" and turn.ticket:
        turn = _record_link(deps, row, turn, result)
    _record(deps, row, turn, result)
    return turn


@drain.in_flight  # a SIGTERM drain waits for this step to finish (a cancelled turn's step too)
def _invoke(deps: HelpdeskDeps, row, payload, ctx) -> dict:
    with sessions.run_lock(deps.pool, row.id) as held:
        if not held:  # another window or process is running this session right now
            raise error("conflict", row.language)
        return deps.graph.invoke(payload, _config(row.id), context=ctx)


def _flush(labels: queue.SimpleQueue, on_step) -> None:
    while not labels.empty():
        label = labels.get()
        if on_step:
            on_step(label)


def _cancelled(deps: HelpdeskDeps, session_id) -> bool:
    with deps.pool.connection() as conn:
        return sessions.abort_requested(conn, session_id)


def _record_link(deps: HelpdeskDeps, row, turn: AgentTurn, result: dict) -> AgentTurn:
    """Linked means something: the person joins the ticket's affected people (see staff.record_link)."""
    from agents.helpdesk.staff import record_link
    from agents.helpdesk.tool_nodes import session_snapshot

    ticket = turn.ticket
    if ticket is None:  # a linked turn names its ticket; nothing to record without one
        return turn
    count = record_link(deps, row.org_id, row.user_id, ticket, session_id=row.id, snapshot=session_snapshot(result))
    if count:
        turn.ticket = {**ticket, "affected": count}
        turn.message = t("helpdesk.linked", row.language, number=ticket["number"], title=ticket["title"], count=count)
    return turn


def _record(deps: HelpdeskDeps, row, turn: AgentTurn, result: dict) -> None:
    status = {
        "question": "awaiting_user",
        "solution": "awaiting_user",
        "duplicate": "awaiting_user",
        "draft_ready": "awaiting_confirm",
    }.get(turn.kind, "done")
    trace = [
        {k: v for k, v in step.items() if k in ("node", "action", "outcome", "reason", "engine", "ms")}
        for step in result.get("trace", [])
    ]
    with deps.pool.connection() as conn:
        sessions.update_session(
            conn,
            row.org_id,
            row.id,
            status=status,
            turn=turn.to_dict(),
            trace=trace,
            tokens_used=result.get("tokens_used", 0),
            turns_taken=result.get("turns_taken", 0),
            pending_question_id=turn.question_id if status != "done" else None,
            outcome=result.get("outcome") if status == "done" else None,
            abort_reason=result.get("abort_reason") if status == "done" else None,
            ticket_id=UUID(turn.ticket["id"])
            if turn.kind == "filed" and turn.ticket and turn.ticket.get("id")
            else None,
            reached_draft=bool(result.get("draft")),
        )
        if status == "done" and row.chat_session_id:
            chat.add_message(
                conn,
                row.org_id,
                row.chat_session_id,
                "assistant",
                turn.message,
                {"helpdesk_session_id": str(row.id), "kind": turn.kind},
            )


# --- public API ------------------------------------------------------------------------------------
def start(
    deps: AnyDeps,
    user,
    question: str,
    *,
    conversation: list[dict] | None = None,
    idempotency_key: str | None = None,
    trigger: str = "chip",
    on_step: Callable[[str], None] | None = None,
) -> AgentTurn:
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
    return _run(deps, row, state, on_step)


def _check_version(deps: HelpdeskDeps, row, language: str) -> None:
    snapshot = deps.graph.get_state(_config(row.id))
    metrics.CHECKPOINTS.labels("read", "ok").inc()
    if snapshot.values.get("state_version") != STATE_VERSION:
        with deps.pool.connection() as conn:
            sessions.finish_aborted(
                conn, row.id, "state_version", AgentTurn.aborted(str(row.id), "state_version", language).to_dict()
            )
        raise error("gone", language)


def resume(
    deps: AnyDeps,
    user,
    session_id,
    *,
    question_id: str | None,
    action: str = "reply",
    text: str = "",
    draft: dict | None = None,
    on_step: Callable[[str], None] | None = None,
) -> AgentTurn:
    """Answer the pending question (reply, solved/not_solved, link/not_same, file, abort)."""
    deps = wired(deps)
    row = _owned(deps, user, session_id)
    if row.status == "done":
        return AgentTurn.from_row(row)  # a replay (double click, second tab): the outcome stands
    if row.status == "running" and action == "file" and _filing_interrupted(deps, row):
        return _run(deps, row, None, on_step)  # re-confirm after a crash: finish that same filing
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
    _check_version(deps, row, user.language)
    payload = {"action": action, "text": str(text)[:2000], "draft": draft}
    return _run(deps, row, Command(resume=payload), on_step)


def _filing_interrupted(deps: HelpdeskDeps, row) -> bool:
    """The person pressed "File it" and the process filing it died: the checkpoint's next step is the
    filing and no process holds the session's run lock. Re-running it completes or reconciles the
    ticket row written before the external call (agents/helpdesk/tools.py), never files a second one."""
    if deps.graph.get_state(_config(row.id)).next != ("file_ticket",):
        return False
    with sessions.run_lock(deps.pool, row.id) as held:
        return held


def confirm(
    deps: AnyDeps,
    user,
    session_id,
    *,
    question_id: str | None,
    draft: dict | None = None,
    on_step: Callable[[str], None] | None = None,
) -> AgentTurn:
    """The human gate: "File it" with the (edited) draft. A double confirm files one ticket."""
    return resume(deps, user, session_id, question_id=question_id, action="file", draft=draft, on_step=on_step)


def abort(deps: AnyDeps, user, session_id) -> AgentTurn:
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
    return resume(deps, user, session_id, question_id=row.pending_question_id, action="abort")


def get_turn(deps: AnyDeps, user, session_id) -> AgentTurn:
    """The session's latest turn (what the page shows after a reload).

    A session "running" with no progress past the orphan window died with its process: it ends
    aborted (server_restart) here too, for restarts the startup sweep saw too early to judge.
    """
    deps = wired(deps)
    row = _owned(deps, user, session_id)
    idle = (deps.app.now() - row.updated_at).total_seconds()
    if (
        row.status == "running" and idle >= deps.settings().orphan_after_seconds and not _filing_interrupted(deps, row)
    ):  # an interrupted filing waits for its re-confirm
        _abort_row(deps, row.id, "server_restart", row.language, row.user_id)
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
    values = deps.graph.get_state(_config(row.id)).values
    if not values:
        return []
    pending = (row.turn or {}).get("message") if row.status != "done" else None
    return [turn for turn in session_snapshot(values) if turn["content"] != pending]


# --- operations ------------------------------------------------------------------------------------
def _abort_row(deps: AnyDeps, session_id: UUID, reason: str, language: str, user_id=None) -> bool:
    turn = AgentTurn.aborted(str(session_id), reason, language)
    with deps.pool.connection() as conn:
        done = sessions.finish_aborted(conn, session_id, reason, turn.to_dict())
    if done:
        metrics.OUTCOMES.labels("aborted").inc()
        audit(
            "agent.aborted",
            at=wired(deps).now(),
            session_id=str(session_id),
            user_id=str(user_id) if user_id else None,
            reason=reason,
        )
    return done


def sweep_orphans(deps: AnyDeps, stale_after_seconds: float | None = None) -> int:
    """Sessions stopped mid-step (no progress for 5 min) end aborted, reason server_restart; a filing
    the person had confirmed when its process died is finished instead (exactly once)."""
    deps = wired(deps)
    stale = deps.settings().orphan_after_seconds if stale_after_seconds is None else stale_after_seconds
    with deps.pool.connection() as conn:
        orphans = sessions.orphaned_sessions(conn, stale)
    aborted = 0
    for row in orphans:
        if _filing_interrupted(deps, row):
            _run(deps, row, None, None)
        else:
            aborted += _abort_row(deps, row.id, "server_restart", row.language, row.user_id)
    return aborted


def gc(deps: AnyDeps) -> dict:
    """TTL cleanup: checkpoints older than the TTL are deleted; unfinished sessions end aborted (expired)."""
    deps = wired(deps)
    with deps.pool.connection() as conn:
        expired = sessions.expired_sessions(conn, deps.settings().checkpoint_ttl_seconds)
    aborted = 0
    for row in expired:
        if row.status != "done":
            aborted += _abort_row(deps, row.id, "expired", row.language, row.user_id)
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
