"""One graph run of a helpdesk session to its next pause or its end: the context it runs with, Cancel honoured
while it runs, and the turn recorded on the session row, the chat and a linked ticket. Also the checks before a
run (the checkpoint's state version, a filing its process died in) and ending a session aborted."""

from __future__ import annotations

import concurrent.futures
import queue
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

from langchain_core.runnables import RunnableConfig

from agents.helpdesk import metrics
from agents.helpdesk.audit import audit
from agents.helpdesk.guards import Settings, sha
from agents.helpdesk.state import STATE_VERSION, HelpdeskContext
from agents.helpdesk.turns import AgentTurn, HelpdeskError, error, turn_from_result
from agents.helpdesk.wiring import AnyDeps, HelpdeskDeps, wired
from agents.i18n import t
from agents.runtime import drain
from core.markup import product_text
from core.turns import Step, Turn
from storage import chat
from storage import helpdesk_sessions as sessions

CANCEL_POLL_SECONDS = 0.25


_RUNS = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="helpdesk-run")


def thread_config(session_id) -> RunnableConfig:
    return {"configurable": {"thread_id": str(session_id)}}


def _context(deps: HelpdeskDeps, settings: Settings, row) -> HelpdeskContext:
    def stop_reason(session_id: str) -> str | None:
        with deps.pool.connection() as conn:
            return "user_cancelled" if sessions.abort_requested(conn, UUID(session_id)) else None

    def heartbeat(session_id: str) -> None:
        with deps.pool.connection() as conn:
            sessions.touch(conn, UUID(session_id))

    return HelpdeskContext(
        llm=deps.llm,
        tools=deps.toolbox(deps.app, row.org_id, row.user_id),
        embedder=deps.app,
        settings=settings,
        clock=deps.now,
        stop_reason=stop_reason,
        heartbeat=heartbeat,
    )


@drain.in_flight  # the drain waits for the turn to be recorded too, not only for the graph step (_invoke)
def run_until_pause(deps: HelpdeskDeps, row: sessions.HelpdeskSession, payload) -> Turn[AgentTurn]:
    """One graph run to the next pause or the end, streamed: a Step as each step starts; the session row
    records the turn it returns."""
    settings = deps.settings()
    steps: queue.SimpleQueue[Step] = queue.SimpleQueue()
    future = _RUNS.submit(_invoke, deps, row, payload, _context(deps, settings, row), steps.put)
    try:
        while True:  # the caller's thread: steps shown live, and Cancel honoured within 2 s
            try:
                result = future.result(timeout=CANCEL_POLL_SECONDS)
                break
            except concurrent.futures.TimeoutError:
                yield from _taken(steps)
                if _cancelled(deps, row.id):  # the in-flight step's result will be discarded
                    return AgentTurn.aborted(str(row.id), "user_cancelled", row.language)
        yield from _taken(steps)
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
def _invoke(deps: HelpdeskDeps, row, payload, ctx, on_step: Callable[[Step], None]) -> dict:
    """The graph run (on a worker thread): the Steps its nodes announce handed to ``on_step`` as they come;
    the state it ends with and, at a pause, its ``__interrupt__`` (as ``graph.invoke`` returns them)."""
    with sessions.run_lock(deps.pool, row.id) as held:
        if not held:  # another window or process is running this session right now
            raise error("conflict", row.language)
        values: dict = {}
        interrupts: list = []
        chunk: Any  # a Step (custom), a node's update, or the state (values)
        # each step's checkpoint is saved before the next starts: a process killed while filing leaves
        # "file_ticket" as the next step, so a re-confirm finishes that filing (filing_interrupted)
        for mode, chunk in deps.graph.stream(
            payload, thread_config(row.id), context=ctx, durability="sync", stream_mode=["custom", "updates", "values"]
        ):
            if mode == "custom":
                on_step(chunk)
            elif mode == "values":
                values = chunk
            elif isinstance(chunk, dict) and "__interrupt__" in chunk:
                interrupts.extend(chunk["__interrupt__"])
        return {**values, "__interrupt__": interrupts} if interrupts else values


def _taken(steps: queue.SimpleQueue[Step]) -> Iterator[Step]:
    while not steps.empty():
        yield steps.get()


def _cancelled(deps: HelpdeskDeps, session_id) -> bool:
    with deps.pool.connection() as conn:
        return sessions.abort_requested(conn, session_id)


def _record_link(deps: HelpdeskDeps, row, turn: AgentTurn, result: dict) -> AgentTurn:
    """Linked means something: the person joins the ticket's affected people (see following.record_link)."""
    from agents.helpdesk.following import record_link
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


def check_state_version(deps: HelpdeskDeps, row, language: str) -> None:
    snapshot = deps.graph.get_state(thread_config(row.id))
    metrics.CHECKPOINTS.labels("read", "ok").inc()
    if snapshot.values.get("state_version") != STATE_VERSION:
        with deps.pool.connection() as conn:
            sessions.finish_aborted(
                conn, row.id, "state_version", AgentTurn.aborted(str(row.id), "state_version", language).to_dict()
            )
        raise error("gone", language)


def filing_interrupted(deps: HelpdeskDeps, row) -> bool:
    """The person pressed "File it" and the process filing it died: the checkpoint's next step is the
    filing and no process holds the session's run lock. Re-running it completes or reconciles the
    ticket row written before the external call (agents/helpdesk/tools.py), never files a second one."""
    if deps.graph.get_state(thread_config(row.id)).next != ("file_ticket",):
        return False
    with sessions.run_lock(deps.pool, row.id) as held:
        return held


# --- operations ------------------------------------------------------------------------------------
def abort_row(deps: AnyDeps, session_id: UUID, reason: str, language: str, user_id=None) -> bool:
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
