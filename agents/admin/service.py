"""The admin assistant's one entry point for the page, the CLI and tests: ``ask``.

Only active admins get through (re-checked against the database on every call). A session is a
LangGraph thread; a turn is a new message, a confirm of the pending action's id, or a cancel.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from uuid import UUID

from langgraph.types import Command

from agents.admin.earlier import EarlierAnswer, earlier_answer
from agents.admin.graph import build_graph
from agents.admin.language import reply_language
from agents.admin.state import AdminContext, AdminState, Answer, ToolCall
from agents.i18n import t
from agents.llm import LLM
from agents.llm.memory import budgets_for, prepare_history
from agents.runtime.deps import AppDeps
from agents.runtime.refusals import rate_limited, refusal
from core import config as configuration
from core.inputs import InputRefused, checked_text
from core.markup import product_text
from core.turns import Turn, finish
from storage import chat, pending_actions, rate_limits, users

AGENT = "admin"
MAX_MESSAGE_CHARS = 4000
TITLE_CHARS = 120
STORED_ROWS = 200  # rows kept per tool call in the chat history (the live reply has them all)


class AdminAccessError(PermissionError):
    """The caller may not use the admin assistant (one line)."""


class AdminInputError(ValueError):
    """Bad input: unknown session, empty message (one line; nothing changed)."""


@dataclass
class AdminReply:
    session: str
    response: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    pending: dict | None = None  # {"id", "tool", "arguments", "preview"}
    executed: list[dict] = field(default_factory=list)  # {"id", "tool", "result"}
    engine: str = "offline"
    fallback: str | None = None  # why the model's plan or reply was replaced
    tokens_used: int = 0  # model tokens this turn (0 offline)
    decision: str | None = None  # "confirm" | "cancel": what this turn's answer did to the preview waiting

    def as_json(self) -> dict:
        return {
            "session": self.session,
            "response": self.response,
            "tool_calls": [
                {"tool": t["tool"], "arguments": t["arguments"], "rows": t["result"].get("rows", [])}
                for t in self.tool_calls
            ],
            "pending": self.pending,
            "executed": self.executed,
            "engine": self.engine,
            "fallback": self.fallback,
            "tokens_used": self.tokens_used,
        }


def compiled_graph(deps: AppDeps):
    """The graph compiled on ``deps``' checkpointer (once per saver: a new database gets a new saver)."""
    return _graph_on(deps.checkpointer)


@functools.cache
def _graph_on(saver):
    return build_graph(saver)


def verified_admin(conn, user: users.User) -> users.User:
    """The caller, re-read from the database: an active admin, else AdminAccessError."""
    fresh = users.get_user(conn, user.org_id, user.id) if user else None
    if fresh is None or not fresh.is_active or not fresh.is_admin:
        raise AdminAccessError(t("admin.only_admins", user.language if user else None))
    return fresh


def _session(conn, admin: users.User, session_id: str | UUID | None, title: str) -> chat.ChatSession:
    if session_id:
        session = chat.get_session(conn, admin.org_id, admin.id, session_id, AGENT)
        if session is None:
            raise AdminInputError(t("admin.unknown_session", admin.language, session=session_id))
        return session
    return chat.create_session(conn, admin.org_id, admin.id, AGENT, title=title[:60] or None)


def _checked_input(
    user: users.User, message: str, confirm: str | None, session_id
) -> tuple[str, str | None, str | None]:
    """Caps, bad bytes and malformed ids refused before anything reads them (nothing is written)."""
    lang = user.language if user else None
    try:
        message = checked_text(message, limit=MAX_MESSAGE_CHARS).strip()
        confirm = checked_text(confirm, limit=100).strip() or None if confirm else None
        session_id = checked_text(str(session_id), limit=100).strip() or None if session_id else None
    except InputRefused as exc:
        raise AdminInputError(refusal(exc, lang)) from None
    for value in (confirm, session_id):
        if value is not None:
            try:
                UUID(value)
            except ValueError:
                shown = " ".join(value.split())[:40]  # the refusal stays one line whatever was typed
                raise AdminInputError(t("safety.not_a_uuid", lang, value=shown)) from None
    return message, confirm, session_id


def _history(pool, llm: LLM, admin: users.User, session: chat.ChatSession, lang: str) -> tuple[list[dict], str | None]:
    """(recent turns, summary of the older ones): the tutor's memory, so a long session keeps its start
    (no connection is held while the summary is written)."""
    return prepare_history(pool, llm, admin.org_id, session, lang, budgets_for(llm.engine)["history"])


def _reply_from(values: dict, session_id: UUID, waiting: bool) -> AdminReply:
    return AdminReply(
        str(session_id),
        values.get("response", ""),
        list(values.get("tool_calls", [])),
        values.get("pending") if waiting else None,
        list(values.get("executed", [])),
        values.get("engine", "offline"),
        values.get("fallback"),
        values.get("tokens_used", 0),
        values.get("decision"),
    )


def ask(
    deps: AppDeps,
    user: users.User,
    message: str = "",
    *,
    session_id: str | UUID | None = None,
    confirm: str | None = None,
    cancel: bool = False,
) -> AdminReply:
    """One turn, its reply only (the CLI, tests): ``turn`` played to its end."""
    return finish(turn(deps, user, message, session_id=session_id, confirm=confirm, cancel=cancel))


def _graph_run(graph, payload, config: dict, context: AdminContext) -> Turn[dict]:
    """The graph run to its next pause or its end: the nodes' events as they come; the state it ends with."""
    values: dict = {}
    for mode, chunk in graph.stream(payload, config, context=context, stream_mode=["custom", "values"]):
        if mode == "custom":
            yield chunk
        elif "__interrupt__" not in chunk:
            values = chunk
    return values


def turn(
    deps: AppDeps,
    user: users.User,
    message: str = "",
    *,
    session_id: str | UUID | None = None,
    confirm: str | None = None,
    cancel: bool = False,
) -> Turn[AdminReply]:
    """One turn, streamed (``core.turns``): a Step as each tool starts, the reply's Tokens as it is written,
    a Replace when what was shown is replaced (a model reply the gate refused); returns the reply.
    ``confirm`` carries the pending action's id. The turn's one ``Answer`` (message, confirm, cancel) goes
    into the graph, which decides what it does to a preview waiting (``agents.admin.confirmation``)."""
    message, confirm, session_id = _checked_input(user, message, confirm, session_id)
    pool, graph, llm = deps.pool, compiled_graph(deps), deps.llm
    if not message and not confirm and not cancel:
        raise AdminInputError(t("admin.write_a_message", user.language if user else None))
    if confirm and cancel:  # contradictory: neither runs
        raise AdminInputError(t("admin.confirm_or_cancel", user.language if user else None))
    with pool.connection() as conn:
        admin = verified_admin(conn, user)
    with pool.connection() as conn:  # committed on its own: a refused request still counts
        wait = rate_limits.take(conn, admin.id, "admin.ask", configuration.get("SKILLNET_ADMIN_RATE_PER_MINUTE"), 60)
    if wait is not None:
        raise AdminInputError(rate_limited(wait, admin.language))
    with pool.connection() as conn:
        if confirm and not session_id:  # a confirm names its action, and the action its session
            action = pending_actions.get_pending(conn, admin.org_id, admin.id, confirm)
            if action is None:  # nothing to confirm: refuse without opening a session
                raise AdminInputError(t("common.not_found", admin.language))
            session_id = action.session_id
        session = _session(conn, admin, session_id, message)
        org = users.get_org(conn, admin.org_id)
    if org is None:  # the admin was just read from it
        raise RuntimeError(f"organisation {admin.org_id} not found")
    config = {"configurable": {"thread_id": str(session.id)}}
    context = AdminContext(
        pool=pool,
        llm=llm,
        admin=admin,
        org_name=org.name,
        session_id=session.id,
        embedder=deps,
        recall=lambda lang: _history(pool, llm, admin, session, lang),
        today=lambda: deps.now().date(),
    )
    snapshot = graph.get_state(config)
    if message:
        with pool.connection() as conn:
            lang = reply_language(conn, admin.org_id, message, admin.language)
    else:
        lang = snapshot.values.get("language", admin.language)
    answer: Answer = {"message": message, "confirm": confirm, "cancel": cancel}
    if "await_confirmation" in (snapshot.next or ()):  # a preview waits: the answer resumes it
        said = {"language": lang} if message else {}
        payload: Command | AdminState = Command(resume=answer, update={**said, "tokens_used": 0})
    else:
        payload = _fresh(answer, lang, llm.engine, earlier_answer(snapshot.values.get("tool_calls", [])))
    values = yield from _graph_run(graph, payload, config, context)
    reply = _reply_from(values, session.id, "await_confirmation" in (graph.get_state(config).next or ()))
    reply.response = product_text(reply.response)  # profile fields and tool results are other people's words
    _record(pool, admin, session.id, message, reply)
    return reply


def _fresh(answer: Answer, lang: str, engine: str, earlier: EarlierAnswer) -> AdminState:
    """The graph's input when nothing waits for a confirm: every key of the previous turn reset, but what its
    reads answered (``earlier``), which "them" and "¿y quiénes son?" point back to."""
    return {
        "answer": answer,
        "earlier_answer": earlier,
        "message": answer["message"],
        "language": lang,
        "planned": [],
        "next_steps": [],
        "tokens_used": 0,
        "tool_calls": [],
        "pending": None,
        "cancelled": None,
        "amended": None,
        "asked_while_pending": False,
        "confirmed_id": None,
        "decision": None,
        "executed": [],
        "response": "",
        "engine": engine,
        "fallback": None,
    }


def _record(pool, admin: users.User, session_id: UUID, message: str, reply: AdminReply) -> None:
    """The admin's message (a click on Confirm or Cancel is no message: it is kept as the reply's ``decision``,
    which the page shows on the preview it answered) and the reply with its trace."""
    stored_calls: list[ToolCall] = [
        {
            "tool": call["tool"],
            "arguments": call["arguments"],
            "result": {k: v[:STORED_ROWS] if isinstance(v, list) else v for k, v in call["result"].items()},
            "result_count": len(call["result"].get("rows", [])),
        }
        for call in reply.tool_calls
    ]
    with pool.connection() as conn:
        if message:
            chat.add_message(conn, admin.org_id, session_id, "user", message)
        chat.add_message(
            conn,
            admin.org_id,
            session_id,
            "assistant",
            reply.response,
            {
                "tool_calls": stored_calls,
                "pending": reply.pending,
                "executed": reply.executed,
                "engine": reply.engine,
                "fallback": reply.fallback,
                "tokens_used": reply.tokens_used,
                "decision": reply.decision,
            },
        )
