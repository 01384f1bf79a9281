"""Helpdesk tickets: duplicate candidates, create (exactly once), list, get and status changes.

History, people affected and notifications are in storage/ticket_events.py; tickets as the staff list and My
tickets show them in storage/ticket_rows.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

import numpy as np
import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from core.markup import product_fields, product_text, product_turns
from storage.rows import one_row

SEVERITIES = ("low", "medium", "high", "critical")
STATUSES = ("open", "in_progress", "resolved", "closed")


@dataclass(frozen=True)
class Ticket:
    id: UUID
    number: int
    title: str
    body: str
    status: str
    severity: str
    category: str
    resolution: str | None
    created_by: UUID | None
    source: str
    external_url: str | None
    created_at: datetime
    updated_at: datetime
    assignee_id: UUID | None = None
    language: str | None = None
    snapshot: list = field(default_factory=list)
    facts: dict = field(default_factory=dict)
    steps: list = field(default_factory=list)
    session_id: UUID | None = None
    affected_count: int = 1
    filing_state: str = "complete"
    footer_hash: str | None = None


TICKET_COLUMNS = (
    "id, number, title, body, status, severity, category, resolution, created_by, source, "
    "external_url, created_at, updated_at, assignee_id, language, snapshot, facts, steps, session_id, "
    "affected_count, filing_state, footer_hash"
)


def create(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    title: str,
    body: str,
    severity: str = "medium",
    category: str = "other",
    created_by: UUID | None = None,
    source: str = "helpdesk",
    idempotency_key: str | None = None,
    embedding: np.ndarray | None = None,
    external_url: str | None = None,
    language: str | None = None,
    snapshot: list | None = None,
    facts: dict | None = None,
    steps: list | None = None,
    session_id: UUID | None = None,
    filing_state: str = "complete",
    footer_hash: str | None = None,
) -> tuple[Ticket, bool]:
    """The new ticket and True; with a known idempotency key, the existing ticket and False.

    The reporter is the ticket's first affected person.
    """
    with conn.cursor(row_factory=class_row(Ticket)) as cur:
        created = cur.execute(
            f"""INSERT INTO tickets (org_id, title, body, severity, category, created_by, source,
                                     idempotency_key, embedding, external_url, language, snapshot, facts,
                                     steps, session_id, filing_state, footer_hash)
                VALUES (%(org_id)s, %(title)s, %(body)s, %(severity)s, %(category)s, %(created_by)s,
                        %(source)s, %(key)s, %(embedding)s, %(url)s, %(language)s, %(snapshot)s, %(facts)s,
                        %(steps)s, %(session_id)s, %(filing_state)s, %(footer_hash)s)
                ON CONFLICT (idempotency_key) DO NOTHING
                RETURNING {TICKET_COLUMNS}""",
            {
                "org_id": org_id,
                "title": product_text(title),
                "body": product_text(body),
                "severity": severity,
                "category": category,
                "created_by": created_by,
                "source": source,
                "key": idempotency_key,
                "embedding": embedding,
                "url": external_url,
                "language": language,
                "snapshot": Jsonb(product_turns(snapshot)),
                "facts": Jsonb(product_fields(facts)),
                "steps": Jsonb(steps or []),
                "session_id": session_id,
                "filing_state": filing_state,
                "footer_hash": footer_hash,
            },
        ).fetchone()
        if created is not None:
            if created_by is not None:
                conn.execute(
                    """INSERT INTO ticket_affected (ticket_id, user_id, session_id, snapshot)
                                VALUES (%(t)s, %(u)s, %(s)s, %(snap)s) ON CONFLICT DO NOTHING""",
                    {"t": created.id, "u": created_by, "s": session_id, "snap": Jsonb(product_turns(snapshot))},
                )
            return created, True
        existing = cur.execute(
            f"SELECT {TICKET_COLUMNS} FROM tickets WHERE org_id = %(org_id)s AND idempotency_key = %(key)s",
            {"org_id": org_id, "key": idempotency_key},
        ).fetchone()
    if existing is None:  # the key belongs to another organisation
        raise ValueError("idempotency key already used")
    return existing, False


def get_by_key(conn: psycopg.Connection, org_id: UUID, idempotency_key: str) -> Ticket | None:
    """The ticket filed (or being filed) under this idempotency key: a re-confirm finds it."""
    with conn.cursor(row_factory=class_row(Ticket)) as cur:
        return cur.execute(
            f"SELECT {TICKET_COLUMNS} FROM tickets WHERE org_id = %(org_id)s AND idempotency_key = %(key)s",
            {"org_id": org_id, "key": idempotency_key},
        ).fetchone()


def complete_filing(conn: psycopg.Connection, org_id: UUID, ticket_id: UUID, external_url: str | None) -> Ticket:
    """The external issue exists: the pending row gets its URL and becomes a complete ticket."""
    with conn.cursor(row_factory=class_row(Ticket)) as cur:
        return one_row(
            cur.execute(
                f"""UPDATE tickets SET filing_state = 'complete', external_url = coalesce(%(url)s, external_url),
                       updated_at = now()
                WHERE org_id = %(org_id)s AND id = %(id)s RETURNING {TICKET_COLUMNS}""",
                {"url": external_url, "org_id": org_id, "id": ticket_id},
            )
        )


def list_tickets(
    conn: psycopg.Connection, org_id: UUID, *, status: str | None = None, limit: int = 200
) -> list[Ticket]:
    with conn.cursor(row_factory=class_row(Ticket)) as cur:
        return cur.execute(
            f"""SELECT {TICKET_COLUMNS} FROM tickets
                WHERE org_id = %(org_id)s AND (%(status)s::text IS NULL OR status = %(status)s)
                ORDER BY created_at DESC, number DESC LIMIT %(limit)s""",
            {"org_id": org_id, "status": status, "limit": limit},
        ).fetchall()


def get_ticket(conn: psycopg.Connection, org_id: UUID, ticket_id: UUID | str) -> Ticket | None:
    try:
        ticket_id = UUID(str(ticket_id))
    except ValueError:
        return None
    with conn.cursor(row_factory=class_row(Ticket)) as cur:
        return cur.execute(
            f"SELECT {TICKET_COLUMNS} FROM tickets WHERE org_id = %(org_id)s AND id = %(id)s",
            {"org_id": org_id, "id": ticket_id},
        ).fetchone()


def get_by_number(conn: psycopg.Connection, org_id: UUID, number: int) -> Ticket | None:
    with conn.cursor(row_factory=class_row(Ticket)) as cur:
        return cur.execute(
            f"SELECT {TICKET_COLUMNS} FROM tickets WHERE org_id = %(org_id)s AND number = %(n)s",
            {"org_id": org_id, "n": number},
        ).fetchone()


def get_by_url(conn: psycopg.Connection, org_id: UUID, url: str) -> Ticket | None:
    """The local row of an external issue (a GitHub duplicate links to the ticket it mirrors)."""
    with conn.cursor(row_factory=class_row(Ticket)) as cur:
        return cur.execute(
            f"SELECT {TICKET_COLUMNS} FROM tickets WHERE org_id = %(org_id)s AND external_url = %(url)s",
            {"org_id": org_id, "url": url},
        ).fetchone()


def update_status(
    conn: psycopg.Connection, org_id: UUID, ticket_id: UUID, status: str, resolution: str | None = None
) -> bool:
    if status not in STATUSES:
        raise ValueError(f"unknown ticket status: {status}")
    cur = conn.execute(
        """UPDATE tickets SET status = %(status)s, resolution = coalesce(%(resolution)s, resolution),
                  updated_at = now(),
                  closed_at = CASE WHEN %(status)s IN ('resolved', 'closed') THEN now() ELSE NULL END
           WHERE org_id = %(org_id)s AND id = %(id)s""",
        {"status": status, "resolution": resolution, "org_id": org_id, "id": ticket_id},
    )
    return cur.rowcount == 1


def set_assignee(conn: psycopg.Connection, org_id: UUID, ticket_id: UUID, assignee_id: UUID | None) -> bool:
    """Assign to an admin of the same organisation (or nobody); False for anyone else."""
    cur = conn.execute(
        """UPDATE tickets SET assignee_id = %(assignee)s, updated_at = now()
           WHERE org_id = %(org_id)s AND id = %(id)s
             AND (%(assignee)s::uuid IS NULL OR EXISTS (
                  SELECT 1 FROM users WHERE id = %(assignee)s AND org_id = %(org_id)s AND role = 'admin'))""",
        {"assignee": assignee_id, "org_id": org_id, "id": ticket_id},
    )
    return cur.rowcount == 1


def anonymise_reporter(conn: psycopg.Connection, org_id: UUID, user_id: UUID) -> int:
    """Right to delete: the person's tickets stay (others may be affected) without who filed them or
    what they wrote in the conversation."""
    return conn.execute(
        """UPDATE tickets SET created_by = NULL, snapshot = '[]', updated_at = now()
           WHERE org_id = %(org_id)s AND created_by = %(user_id)s""",
        {"org_id": org_id, "user_id": user_id},
    ).rowcount


@dataclass(frozen=True)
class DuplicateCandidate:
    ticket: Ticket
    embedding: np.ndarray


def duplicate_candidates(
    conn: psycopg.Connection, org_id: UUID, embedding: np.ndarray, limit: int = 100
) -> list[DuplicateCandidate]:
    """Filed tickets nearest by raw cosine, with their vectors: the caller re-scores them across
    languages (a generous pool, since raw cosine favours the report's own language)."""
    rows = conn.execute(
        f"""SELECT {TICKET_COLUMNS}, embedding FROM tickets
            WHERE org_id = %(org_id)s AND embedding IS NOT NULL AND filing_state = 'complete'
            ORDER BY embedding <=> %(emb)s LIMIT %(limit)s""",
        {"org_id": org_id, "emb": embedding, "limit": limit},
    ).fetchall()
    width = len(TICKET_COLUMNS.split(","))
    return [DuplicateCandidate(Ticket(*row[:width]), np.asarray(row[width], dtype=np.float32)) for row in rows]


def seed_ticket_keys(conn: psycopg.Connection, org_id: UUID) -> set[str]:
    return {
        row[0]
        for row in conn.execute(
            "SELECT idempotency_key FROM tickets WHERE org_id = %(org_id)s AND source = 'seed'", {"org_id": org_id}
        )
    }


def add_seed_ticket(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    key: str,
    title: str,
    body: str,
    status: str,
    severity: str,
    category: str,
    resolution: str | None,
    created_by: UUID | None,
    created_at: datetime,
    closed_at: datetime | None,
    embedding: np.ndarray,
) -> None:
    conn.execute(
        """INSERT INTO tickets (org_id, title, body, status, severity, category, resolution, created_by,
                                source, idempotency_key, embedding, created_at, updated_at, closed_at)
           VALUES (%(org_id)s, %(title)s, %(body)s, %(status)s, %(severity)s, %(category)s, %(resolution)s,
                   %(created_by)s, 'seed', %(key)s, %(embedding)s, %(created_at)s,
                   coalesce(%(closed_at)s, %(created_at)s), %(closed_at)s)
           ON CONFLICT (idempotency_key) DO NOTHING""",
        {
            "org_id": org_id,
            "title": title,
            "body": body,
            "status": status,
            "severity": severity,
            "category": category,
            "resolution": resolution,
            "created_by": created_by,
            "key": key,
            "embedding": embedding,
            "created_at": created_at,
            "closed_at": closed_at,
        },
    )
