"""Helpdesk tickets: hybrid search (vector + full text), create, list, get and status changes."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import numpy as np
import psycopg
from psycopg.rows import class_row

SEVERITIES = ("low", "medium", "high", "critical")
STATUSES = ("open", "in_progress", "resolved", "closed")
_RRF_K = 60


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


@dataclass(frozen=True)
class TicketHit:
    ticket: Ticket
    score: float        # reciprocal-rank fusion of both rankings
    similarity: float   # cosine similarity of the query to the ticket (0 when it has no vector)
    text_match: bool    # the full-text query matched


_COLUMNS = ("id, number, title, body, status, severity, category, resolution, created_by, source, "
            "external_url, created_at, updated_at")


def _or_query(text: str) -> str | None:
    """A tsquery matching any of the query's words (recall first; fusion does the ranking)."""
    words = sorted({w for w in re.findall(r"\w+", text.lower()) if len(w) > 2 or w.isdigit()})
    return " | ".join(words) if words else None


def search(conn: psycopg.Connection, org_id: UUID, text: str, embedding: np.ndarray, k: int = 5,
           candidates: int = 30) -> list[TicketHit]:
    params = {"org_id": org_id, "emb": embedding, "tsq": _or_query(text), "pool": candidates, "k": k,
              "rrf": _RRF_K}
    rows = conn.execute(
        f"""WITH v AS (
                SELECT id, 1 - (embedding <=> %(emb)s) AS sim,
                       row_number() OVER (ORDER BY embedding <=> %(emb)s) AS r
                FROM tickets WHERE org_id = %(org_id)s AND embedding IS NOT NULL
                ORDER BY embedding <=> %(emb)s LIMIT %(pool)s),
            t AS (
                SELECT id, row_number() OVER (ORDER BY ts_rank(tsv, q) DESC) AS r
                FROM tickets, to_tsquery('simple', coalesce(%(tsq)s, '')) q
                WHERE org_id = %(org_id)s AND %(tsq)s::text IS NOT NULL AND tsv @@ q
                LIMIT %(pool)s)
            SELECT {', '.join('tk.' + c.strip() for c in _COLUMNS.split(','))},
                   coalesce(1.0 / (%(rrf)s + v.r), 0) + coalesce(1.0 / (%(rrf)s + t.r), 0) AS score,
                   coalesce(v.sim, 0) AS similarity, t.id IS NOT NULL AS text_match
            FROM tickets tk LEFT JOIN v ON v.id = tk.id LEFT JOIN t ON t.id = tk.id
            WHERE tk.org_id = %(org_id)s AND (v.id IS NOT NULL OR t.id IS NOT NULL)
            ORDER BY score DESC, similarity DESC LIMIT %(k)s""", params).fetchall()
    width = len(_COLUMNS.split(","))
    return [TicketHit(Ticket(*row[:width]), float(row[width]), float(row[width + 1]), bool(row[width + 2]))
            for row in rows]


def create(conn: psycopg.Connection, org_id: UUID, *, title: str, body: str, severity: str = "medium",
           category: str = "other", created_by: UUID | None = None, source: str = "helpdesk",
           idempotency_key: str | None = None, embedding: np.ndarray | None = None,
           external_url: str | None = None) -> tuple[Ticket, bool]:
    """The new ticket and True; with a known idempotency key, the existing ticket and False."""
    with conn.cursor(row_factory=class_row(Ticket)) as cur:
        created = cur.execute(
            f"""INSERT INTO tickets (org_id, title, body, severity, category, created_by, source,
                                     idempotency_key, embedding, external_url)
                VALUES (%(org_id)s, %(title)s, %(body)s, %(severity)s, %(category)s, %(created_by)s,
                        %(source)s, %(key)s, %(embedding)s, %(url)s)
                ON CONFLICT (idempotency_key) DO NOTHING
                RETURNING {_COLUMNS}""",
            {"org_id": org_id, "title": title, "body": body, "severity": severity, "category": category,
             "created_by": created_by, "source": source, "key": idempotency_key, "embedding": embedding,
             "url": external_url}).fetchone()
        if created is not None:
            return created, True
        existing = cur.execute(f"SELECT {_COLUMNS} FROM tickets WHERE org_id = %(org_id)s AND idempotency_key = %(key)s",
                               {"org_id": org_id, "key": idempotency_key}).fetchone()
    if existing is None:  # the key belongs to another organisation
        raise ValueError("idempotency key already used")
    return existing, False


def exists_with_key(conn: psycopg.Connection, org_id: UUID, idempotency_key: str) -> bool:
    """Whether a ticket was already filed under this idempotency key (a re-confirm)."""
    return conn.execute("SELECT 1 FROM tickets WHERE org_id = %(org_id)s AND idempotency_key = %(key)s",
                        {"org_id": org_id, "key": idempotency_key}).fetchone() is not None


def list_tickets(conn: psycopg.Connection, org_id: UUID, *, status: str | None = None,
                 limit: int = 200) -> list[Ticket]:
    with conn.cursor(row_factory=class_row(Ticket)) as cur:
        return cur.execute(
            f"""SELECT {_COLUMNS} FROM tickets
                WHERE org_id = %(org_id)s AND (%(status)s::text IS NULL OR status = %(status)s)
                ORDER BY created_at DESC, number DESC LIMIT %(limit)s""",
            {"org_id": org_id, "status": status, "limit": limit}).fetchall()


def get_ticket(conn: psycopg.Connection, org_id: UUID, ticket_id: UUID | str) -> Ticket | None:
    try:
        ticket_id = UUID(str(ticket_id))
    except ValueError:
        return None
    with conn.cursor(row_factory=class_row(Ticket)) as cur:
        return cur.execute(f"SELECT {_COLUMNS} FROM tickets WHERE org_id = %(org_id)s AND id = %(id)s",
                           {"org_id": org_id, "id": ticket_id}).fetchone()


def get_by_number(conn: psycopg.Connection, org_id: UUID, number: int) -> Ticket | None:
    with conn.cursor(row_factory=class_row(Ticket)) as cur:
        return cur.execute(f"SELECT {_COLUMNS} FROM tickets WHERE org_id = %(org_id)s AND number = %(n)s",
                           {"org_id": org_id, "n": number}).fetchone()


def update_status(conn: psycopg.Connection, org_id: UUID, ticket_id: UUID, status: str,
                  resolution: str | None = None) -> bool:
    if status not in STATUSES:
        raise ValueError(f"unknown ticket status: {status}")
    cur = conn.execute(
        """UPDATE tickets SET status = %(status)s, resolution = coalesce(%(resolution)s, resolution),
                  updated_at = now(),
                  closed_at = CASE WHEN %(status)s IN ('resolved', 'closed') THEN now() ELSE NULL END
           WHERE org_id = %(org_id)s AND id = %(id)s""",
        {"status": status, "resolution": resolution, "org_id": org_id, "id": ticket_id})
    return cur.rowcount == 1
