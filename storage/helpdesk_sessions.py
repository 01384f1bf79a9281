"""Helpdesk agent sessions: ownership (ACL), idempotency, the daily cap, lifecycle and TTL.

Owner-scoped reads return None for other people's ids, so callers answer "not found".
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from core.inputs import parse_uuid
from storage.rows import one_row, scalar

ACTIVE_STATUSES = ("running", "awaiting_user", "awaiting_confirm")


@dataclass(frozen=True)
class HelpdeskSession:
    id: UUID
    org_id: UUID
    user_id: UUID
    chat_session_id: UUID | None
    status: str
    outcome: str | None
    abort_reason: str | None
    abort_requested: bool
    pending_question_id: str | None
    turn: dict
    trace: list
    ticket_id: UUID | None
    trigger: str
    language: str
    tokens_used: int
    turns_taken: int
    reached_draft: bool
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    helpful: bool | None = None  # the person's "did this solve it?" once finished; None: not answered


_COLUMNS = (
    "id, org_id, user_id, chat_session_id, status, outcome, abort_reason, abort_requested, "
    "pending_question_id, turn, trace, ticket_id, trigger, language, tokens_used, turns_taken, "
    "reached_draft, created_at, updated_at, finished_at, helpful"
)
RATED_OUTCOMES = ("resolved_by_agent", "linked", "filed")  # what a person can say helped or not


def lock_user(conn: psycopg.Connection, user_id: UUID) -> None:
    """Serialise one user's session starts (daily cap and idempotency) until the transaction ends."""
    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%(key)s, 0))", {"key": f"helpdesk:{user_id}"})


def find_by_idempotency_key(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, key: str, within_seconds: int
) -> HelpdeskSession | None:
    with conn.cursor(row_factory=class_row(HelpdeskSession)) as cur:
        return cur.execute(
            f"""SELECT {_COLUMNS} FROM helpdesk_sessions
                WHERE org_id = %(org_id)s AND user_id = %(user_id)s AND idempotency_key = %(key)s
                  AND created_at > now() - make_interval(secs => %(within)s)
                ORDER BY created_at DESC LIMIT 1""",
            {"org_id": org_id, "user_id": user_id, "key": key, "within": within_seconds},
        ).fetchone()


def create_session(
    conn: psycopg.Connection,
    org_id: UUID,
    user_id: UUID,
    *,
    language: str,
    chat_session_id: UUID | None = None,
    idempotency_key: str | None = None,
    trigger: str = "chip",
) -> HelpdeskSession:
    with conn.cursor(row_factory=class_row(HelpdeskSession)) as cur:
        return one_row(
            cur.execute(
                f"""INSERT INTO helpdesk_sessions (org_id, user_id, chat_session_id, idempotency_key, trigger,
                                               language)
                VALUES (%(org_id)s, %(user_id)s, %(chat)s, %(key)s, %(trigger)s, %(language)s)
                RETURNING {_COLUMNS}""",
                {
                    "org_id": org_id,
                    "user_id": user_id,
                    "chat": chat_session_id,
                    "key": idempotency_key,
                    "trigger": trigger,
                    "language": language,
                },
            )
        )


def get_session(conn: psycopg.Connection, org_id: UUID, user_id: UUID, session_id: object) -> HelpdeskSession | None:
    """The user's own session, else None (unknown ids and other people's alike)."""
    session_id = parse_uuid(session_id)
    if session_id is None:
        return None
    with conn.cursor(row_factory=class_row(HelpdeskSession)) as cur:
        return cur.execute(
            f"""SELECT {_COLUMNS} FROM helpdesk_sessions
                WHERE org_id = %(org_id)s AND user_id = %(user_id)s AND id = %(id)s""",
            {"org_id": org_id, "user_id": user_id, "id": session_id},
        ).fetchone()


def get_any_session(conn: psycopg.Connection, org_id: UUID, session_id: object) -> HelpdeskSession | None:
    """Any session of the organisation (admin tooling and the ACL check)."""
    session_id = parse_uuid(session_id)
    if session_id is None:
        return None
    with conn.cursor(row_factory=class_row(HelpdeskSession)) as cur:
        return cur.execute(
            f"SELECT {_COLUMNS} FROM helpdesk_sessions WHERE org_id = %(org_id)s AND id = %(id)s",
            {"org_id": org_id, "id": session_id},
        ).fetchone()


def record_helpful(conn: psycopg.Connection, org_id: UUID, user_id: UUID, session_id: UUID, helpful: bool) -> bool:
    """The person's answer to "did this solve it?" on their own finished session (a later answer replaces it);
    False when the session is not theirs or ended without something to rate (aborted, still running)."""
    return (
        conn.execute(
            """UPDATE helpdesk_sessions SET helpful = %(helpful)s, helpful_at = now()
               WHERE org_id = %(org_id)s AND user_id = %(user_id)s AND id = %(id)s
                 AND status = 'done' AND outcome = ANY(%(outcomes)s)""",
            {
                "org_id": org_id,
                "user_id": user_id,
                "id": session_id,
                "helpful": helpful,
                "outcomes": list(RATED_OUTCOMES),
            },
        ).rowcount
        == 1
    )


def update_session(
    conn: psycopg.Connection,
    org_id: UUID,
    session_id: UUID,
    *,
    status: str,
    turn: dict,
    trace: list,
    tokens_used: int,
    turns_taken: int,
    pending_question_id: str | None = None,
    outcome: str | None = None,
    abort_reason: str | None = None,
    ticket_id: UUID | None = None,
    reached_draft: bool = False,
) -> None:
    """Record a turn. A finished session stays finished (the first outcome wins)."""
    conn.execute(
        """UPDATE helpdesk_sessions SET status = %(status)s, turn = %(turn)s, trace = %(trace)s,
                  tokens_used = %(tokens)s, turns_taken = %(turns)s, pending_question_id = %(pending)s,
                  outcome = %(outcome)s, abort_reason = %(reason)s,
                  ticket_id = coalesce(%(ticket)s, ticket_id), reached_draft = reached_draft OR %(draft)s,
                  updated_at = now(), finished_at = CASE WHEN %(status)s = 'done' THEN now() END
           WHERE org_id = %(org_id)s AND id = %(id)s AND status <> 'done'""",
        {
            "status": status,
            "turn": Jsonb(turn),
            "trace": Jsonb(trace),
            "tokens": tokens_used,
            "turns": turns_taken,
            "pending": pending_question_id,
            "outcome": outcome,
            "reason": abort_reason,
            "ticket": ticket_id,
            "draft": reached_draft,
            "org_id": org_id,
            "id": session_id,
        },
    )


def touch(conn: psycopg.Connection, session_id: UUID) -> None:
    """A heartbeat: the session made progress (the orphan sweep looks at updated_at)."""
    conn.execute(
        "UPDATE helpdesk_sessions SET updated_at = now() WHERE id = %(id)s AND status <> 'done'", {"id": session_id}
    )


def request_abort(conn: psycopg.Connection, org_id: UUID, session_id: UUID) -> None:
    conn.execute(
        """UPDATE helpdesk_sessions SET abort_requested = true, updated_at = now()
                    WHERE org_id = %(org_id)s AND id = %(id)s AND status <> 'done'""",
        {"org_id": org_id, "id": session_id},
    )


def abort_requested(conn: psycopg.Connection, session_id: UUID) -> bool:
    row = conn.execute("SELECT abort_requested FROM helpdesk_sessions WHERE id = %(id)s", {"id": session_id}).fetchone()
    return bool(row and row[0])


def finish_aborted(conn: psycopg.Connection, session_id: UUID, reason: str, turn: dict) -> bool:
    cur = conn.execute(
        """UPDATE helpdesk_sessions SET status = 'done', outcome = 'aborted', abort_reason = %(reason)s,
                  turn = %(turn)s, pending_question_id = NULL, updated_at = now(), finished_at = now()
           WHERE id = %(id)s AND status <> 'done'""",
        {"reason": reason, "turn": Jsonb(turn), "id": session_id},
    )
    return cur.rowcount == 1


def orphaned_sessions(conn: psycopg.Connection, stale_after_seconds: float) -> list[HelpdeskSession]:
    """Sessions stopped mid-step (status running) with no progress for ``stale_after_seconds``."""
    with conn.cursor(row_factory=class_row(HelpdeskSession)) as cur:
        return cur.execute(
            f"""SELECT {_COLUMNS} FROM helpdesk_sessions
                WHERE status = 'running' AND updated_at <= now() - make_interval(secs => %(stale)s)""",
            {"stale": stale_after_seconds},
        ).fetchall()


def expired_sessions(conn: psycopg.Connection, ttl_seconds: float) -> list[HelpdeskSession]:
    """Sessions whose checkpoint outlived the TTL (every organisation: the sweep is global)."""
    with conn.cursor(row_factory=class_row(HelpdeskSession)) as cur:
        return cur.execute(
            f"""SELECT {_COLUMNS} FROM helpdesk_sessions
                WHERE NOT checkpoint_deleted AND updated_at <= now() - make_interval(secs => %(ttl)s)""",
            {"ttl": ttl_seconds},
        ).fetchall()


def mark_checkpoint_deleted(conn: psycopg.Connection, session_id: UUID) -> None:
    conn.execute("UPDATE helpdesk_sessions SET checkpoint_deleted = true WHERE id = %(id)s", {"id": session_id})


def list_sessions(
    conn: psycopg.Connection, org_id: UUID, *, user_id: UUID | None = None, limit: int = 100
) -> list[HelpdeskSession]:
    with conn.cursor(row_factory=class_row(HelpdeskSession)) as cur:
        return cur.execute(
            f"""SELECT {_COLUMNS} FROM helpdesk_sessions
                WHERE org_id = %(org_id)s AND (%(user_id)s::uuid IS NULL OR user_id = %(user_id)s)
                ORDER BY created_at DESC LIMIT %(limit)s""",
            {"org_id": org_id, "user_id": user_id, "limit": limit},
        ).fetchall()


def user_session_ids(conn: psycopg.Connection, org_id: UUID, user_id: UUID) -> list[UUID]:
    return [
        row[0]
        for row in conn.execute(
            "SELECT id FROM helpdesk_sessions WHERE org_id = %(org_id)s AND user_id = %(user_id)s",
            {"org_id": org_id, "user_id": user_id},
        ).fetchall()
    ]


def delete_user_sessions(conn: psycopg.Connection, org_id: UUID, user_id: UUID) -> int:
    return conn.execute(
        "DELETE FROM helpdesk_sessions WHERE org_id = %(org_id)s AND user_id = %(user_id)s",
        {"org_id": org_id, "user_id": user_id},
    ).rowcount


def claim_turn(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, session_id: UUID, question_id: str | None
) -> bool:
    """Compare-and-set: only the request answering the current pending question may run the next step
    (``question_id`` None, a turn with no question pending, never matches)."""
    cur = conn.execute(
        """UPDATE helpdesk_sessions SET status = 'running', pending_question_id = NULL, updated_at = now()
           WHERE org_id = %(org_id)s AND user_id = %(user_id)s AND id = %(id)s
             AND status IN ('awaiting_user', 'awaiting_confirm') AND pending_question_id = %(qid)s""",
        {"org_id": org_id, "user_id": user_id, "id": session_id, "qid": question_id},
    )
    return cur.rowcount == 1


@contextmanager
def run_lock(pool: ConnectionPool, session_id: UUID) -> Iterator[bool]:
    """Held (True) while this process runs the session's graph; False when another process holds it.

    A session-level advisory lock on its own autocommit connection: a process killed mid-step loses
    it with its connection, so "running" with a free lock means nobody is running that session.
    """
    key = {"key": f"helpdesk-run:{session_id}"}
    with pool.connection() as conn:
        conn.commit()
        conn.autocommit = True
        held = False
        try:
            held = scalar(conn, "SELECT pg_try_advisory_lock(hashtextextended(%(key)s, 0))", key)
            yield held
        finally:
            if held:
                conn.execute("SELECT pg_advisory_unlock(hashtextextended(%(key)s, 0))", key)
            conn.autocommit = False
