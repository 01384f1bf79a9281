"""The admin assistant's conversations beside the chat itself: one reopened with its turns (and the action still
waiting for a confirm), renamed, deleted."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

from agents.admin.service import AGENT, TITLE_CHARS, AdminInputError, compiled_graph, verified_admin
from agents.i18n import t
from agents.runtime.deps import AppDeps
from agents.runtime.refusals import refusal
from core.inputs import InputRefused, checked_text
from storage import chat, pending_actions, users


def rename_conversation(deps: AppDeps, user: users.User, session_id: str | UUID, title: str) -> None:
    """Give one of the admin's conversations a title of their own (one line, nothing else changed)."""
    lang = user.language if user else None
    try:
        title = " ".join(checked_text(title, limit=TITLE_CHARS).split())
    except InputRefused as exc:
        raise AdminInputError(refusal(exc, lang)) from None
    if not title:
        raise AdminInputError(t("admin.assistant.title_empty", lang))
    with deps.pool.connection() as conn:
        admin = verified_admin(conn, user)
        session = _own_session(conn, admin, session_id)
        chat.rename_session(conn, admin.org_id, admin.id, session.id, title)


def delete_conversation(deps: AppDeps, user: users.User, session_id: str | UUID) -> None:
    """Delete one of the admin's conversations: its messages, its graph state, and any write it held
    for a confirm (cancelled, so nothing can run it later). The audit log keeps what was done."""
    with deps.pool.connection() as conn:
        admin = verified_admin(conn, user)
        session = _own_session(conn, admin, session_id)
        pending_actions.cancel_pending(conn, admin.org_id, admin.id, session.id)
        chat.delete_session(conn, admin.org_id, admin.id, session.id)
    deps.checkpointer.delete_thread(str(session.id))


def _own_session(conn, admin: users.User, session_id: str | UUID) -> chat.ChatSession:
    session = chat.get_session(conn, admin.org_id, admin.id, session_id, AGENT) if session_id else None
    if session is None:
        raise AdminInputError(t("admin.unknown_session", admin.language, session=session_id))
    return session


@dataclass
class Conversation:
    sessions: list[chat.ChatSession]
    messages: list[chat.ChatMessage]  # oldest first; assistant metadata holds the tool trace
    pending: dict | None  # the action this session waits on (Confirm / Cancel card)
    decisions: dict[UUID, tuple[str, datetime]] = field(default_factory=dict)  # preview message → (decision, when)


def conversation(deps: AppDeps, user: users.User, session_id: str | UUID | None) -> Conversation:
    """The admin's sessions and, for ``session_id``, its messages and open pending action."""
    with deps.pool.connection() as conn:
        admin = verified_admin(conn, user)
        sessions = chat.list_sessions(conn, admin.org_id, admin.id, AGENT)
        session = chat.get_session(conn, admin.org_id, admin.id, session_id, AGENT) if session_id else None
        messages = chat.list_messages(conn, admin.org_id, session.id) if session else []
    if session is None:
        return Conversation(sessions, [], None)
    snapshot = compiled_graph(deps).get_state({"configurable": {"thread_id": str(session.id)}})
    waiting = "await_confirmation" in (snapshot.next or ())
    return Conversation(sessions, messages, snapshot.values.get("pending") if waiting else None, _decisions(messages))


def _decisions(messages: list[chat.ChatMessage]) -> dict[UUID, tuple[str, datetime]]:
    """Each preview the admin confirmed or cancelled, with the decision and its moment: a reply's ``decision``
    answers the pending action shown last before it, marked where it was first shown."""
    decided: dict[UUID, tuple[str, datetime]] = {}
    preview: chat.ChatMessage | None = None
    for message in messages:
        if message.role != "assistant":
            continue
        if (decision := message.metadata.get("decision")) and preview is not None:
            decided[preview.id] = (decision, message.created_at)
            preview = None
        shown = message.metadata.get("pending")
        if shown and (preview is None or preview.metadata["pending"]["id"] != shown["id"]):
            preview = message  # the first to show it: a reply saying it still waits is no new preview
    return decided
