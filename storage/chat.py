"""Chat sessions and messages (tutor, admin assistant, helpdesk).

Every read is scoped to the organisation and the owner: another user's session id behaves exactly
like an id that does not exist (None / False), so callers answer "not found".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from core.markup import product_text
from storage.rows import one_row


@dataclass(frozen=True)
class ChatSession:
    id: UUID
    user_id: UUID
    agent_type: str
    title: str | None
    summary: str | None
    summary_turn_count: int
    context: dict
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class SessionTitle:
    """What a conversations list shows of a session: the chat rebuilds that list after every turn."""

    id: UUID
    title: str | None


@dataclass(frozen=True)
class ChatMessage:
    id: UUID
    session_id: UUID
    role: str
    content: str
    metadata: dict
    created_at: datetime
    helpful: bool | None = None  # the learner's 👍 (True) or 👎 (False) on an answer


@dataclass(frozen=True)
class ChatTurn:
    """A message's words alone: what a conversation's memory reads back every turn."""

    role: str
    content: str


_SESSION_COLUMNS = "id, user_id, agent_type, title, summary, summary_turn_count, context, created_at, updated_at"
_MESSAGE_COLUMNS = "id, session_id, role, content, metadata, created_at, helpful"


def create_session(
    conn: psycopg.Connection,
    org_id: UUID,
    user_id: UUID,
    agent_type: str,
    *,
    title: str | None = None,
    context: dict | None = None,
) -> ChatSession:
    with conn.cursor(row_factory=class_row(ChatSession)) as cur:
        return one_row(
            cur.execute(
                f"""INSERT INTO chat_sessions (org_id, user_id, agent_type, title, context)
                VALUES (%(org_id)s, %(user_id)s, %(agent_type)s, %(title)s, %(context)s)
                RETURNING {_SESSION_COLUMNS}""",
                {
                    "org_id": org_id,
                    "user_id": user_id,
                    "agent_type": agent_type,
                    "title": title,
                    "context": Jsonb(context or {}),
                },
            )
        )


def get_session(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, session_id: UUID | str, agent_type: str | None = None
) -> ChatSession | None:
    """The user's own active session, else None (unknown, deleted and other people's alike)."""
    try:
        session_id = UUID(str(session_id))
    except ValueError:
        return None
    with conn.cursor(row_factory=class_row(ChatSession)) as cur:
        return cur.execute(
            f"""SELECT {_SESSION_COLUMNS} FROM chat_sessions
                WHERE org_id = %(org_id)s AND user_id = %(user_id)s AND id = %(id)s AND is_active
                  AND (%(agent_type)s::text IS NULL OR agent_type = %(agent_type)s)""",
            {"org_id": org_id, "user_id": user_id, "id": session_id, "agent_type": agent_type},
        ).fetchone()


# A conversation a list shows: one with a message, or one its owner named. A chat starts its conversation before
# the first message is sent; when that message never arrives (refused by the rate limit or the input filter, the
# learner gone) the conversation stays empty and untitled: 80 of 197 listed as "…" in a bench database.
_LISTED = """org_id = %(org_id)s AND user_id = %(user_id)s AND agent_type = %(agent_type)s AND is_active
    AND (title IS NOT NULL OR EXISTS (SELECT 1 FROM chat_messages m WHERE m.session_id = chat_sessions.id))"""


def list_sessions(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, agent_type: str, limit: int = 50
) -> list[ChatSession]:
    """The user's conversations with something in them (``_LISTED``), newest first."""
    with conn.cursor(row_factory=class_row(ChatSession)) as cur:
        return cur.execute(
            f"""SELECT {_SESSION_COLUMNS} FROM chat_sessions WHERE {_LISTED}
                ORDER BY updated_at DESC LIMIT %(limit)s""",
            {"org_id": org_id, "user_id": user_id, "agent_type": agent_type, "limit": limit},
        ).fetchall()


def list_session_titles(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, agent_type: str, limit: int = 50
) -> list[SessionTitle]:
    """``list_sessions``' sessions, id and title only: not each one's context, read from JSON."""
    with conn.cursor(row_factory=class_row(SessionTitle)) as cur:
        return cur.execute(
            f"""SELECT id, title FROM chat_sessions WHERE {_LISTED}
                ORDER BY updated_at DESC LIMIT %(limit)s""",
            {"org_id": org_id, "user_id": user_id, "agent_type": agent_type, "limit": limit},
        ).fetchall()


def rename_session(conn: psycopg.Connection, org_id: UUID, user_id: UUID, session_id: UUID, title: str) -> bool:
    cur = conn.execute(
        """UPDATE chat_sessions SET title = %(title)s, updated_at = now()
           WHERE org_id = %(org_id)s AND user_id = %(user_id)s AND id = %(id)s AND is_active""",
        {"title": title, "org_id": org_id, "user_id": user_id, "id": session_id},
    )
    return cur.rowcount == 1


def delete_session(conn: psycopg.Connection, org_id: UUID, user_id: UUID, session_id: UUID) -> bool:
    cur = conn.execute(
        "DELETE FROM chat_sessions WHERE org_id = %(org_id)s AND user_id = %(user_id)s AND id = %(id)s",
        {"org_id": org_id, "user_id": user_id, "id": session_id},
    )
    return cur.rowcount == 1


def update_context(conn: psycopg.Connection, org_id: UUID, session_id: UUID, context: dict) -> None:
    conn.execute(
        "UPDATE chat_sessions SET context = context || %(context)s WHERE org_id = %(org_id)s AND id = %(id)s",
        {"context": Jsonb(context), "org_id": org_id, "id": session_id},
    )


def set_summary(conn: psycopg.Connection, org_id: UUID, session_id: UUID, summary: str, turn_count: int) -> None:
    conn.execute(
        """UPDATE chat_sessions SET summary = %(summary)s, summary_turn_count = %(turns)s
           WHERE org_id = %(org_id)s AND id = %(id)s""",
        {"summary": summary, "turns": turn_count, "org_id": org_id, "id": session_id},
    )


def add_message(
    conn: psycopg.Connection,
    org_id: UUID,
    session_id: UUID,
    role: str,
    content: str,
    metadata: dict[str, Any] | None = None,
) -> ChatMessage:
    with conn.cursor(row_factory=class_row(ChatMessage)) as cur:
        return one_row(
            cur.execute(  # one round trip: the session's update rides along as a data-modifying CTE
                f"""WITH touched AS (UPDATE chat_sessions SET updated_at = now()
                                    WHERE org_id = %(org_id)s AND id = %(session_id)s)
                INSERT INTO chat_messages (org_id, session_id, role, content, metadata)
                VALUES (%(org_id)s, %(session_id)s, %(role)s, %(content)s, %(metadata)s)
                RETURNING {_MESSAGE_COLUMNS}""",
                {
                    "org_id": org_id,
                    "session_id": session_id,
                    "role": role,
                    # what the assistants say quotes other people's documents: stored sanitised
                    "content": content if role == "user" else product_text(content),
                    "metadata": Jsonb(metadata or {}),
                },
            )
        )


def record_helpful(
    conn: psycopg.Connection, org_id: UUID, session_id: UUID, message_id: UUID, helpful: bool | None
) -> bool:
    """The learner's 👍 (True), 👎 (False) or neither (None) on an assistant message of the session."""
    return (
        conn.execute(
            """UPDATE chat_messages SET helpful = %(helpful)s
               WHERE org_id = %(org_id)s AND session_id = %(session_id)s AND id = %(id)s AND role = 'assistant'""",
            {"org_id": org_id, "session_id": session_id, "id": message_id, "helpful": helpful},
        ).rowcount
        == 1
    )


def list_turns(conn: psycopg.Connection, org_id: UUID, session_id: UUID) -> list[ChatTurn]:
    """The conversation's messages oldest first, role and words only: each answer's metadata (its citations,
    their excerpts, the turn's figures) is most of a message and no memory reads it."""
    with conn.cursor(row_factory=class_row(ChatTurn)) as cur:
        rows = cur.execute(
            """SELECT role, content FROM chat_messages
               WHERE org_id = %(org_id)s AND session_id = %(session_id)s
               ORDER BY created_at DESC""",
            {"org_id": org_id, "session_id": session_id},
        ).fetchall()
    return rows[::-1]


def list_messages(
    conn: psycopg.Connection, org_id: UUID, session_id: UUID, limit: int | None = None
) -> list[ChatMessage]:
    """Messages oldest first; with ``limit``, only the newest ``limit`` of them."""
    with conn.cursor(row_factory=class_row(ChatMessage)) as cur:
        rows = cur.execute(
            f"""SELECT {_MESSAGE_COLUMNS} FROM chat_messages
                WHERE org_id = %(org_id)s AND session_id = %(session_id)s
                ORDER BY created_at DESC LIMIT %(limit)s""",
            {"org_id": org_id, "session_id": session_id, "limit": limit},
        ).fetchall()
    return rows[::-1]
