"""A ticket's history (status changes with their note, assignments, notes, links), the people it
affects, and in-app notifications. Reads are scoped to the ticket's organisation."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from core.markup import product_turns
from storage.rows import scalar

KINDS = ("status", "assigned", "note", "linked")
VISIBILITIES = ("internal", "reporter")


@dataclass(frozen=True)
class TicketEvent:
    id: int
    ticket_id: UUID
    actor_id: UUID | None
    actor_name: str | None
    kind: str
    visibility: str
    old_value: str | None
    new_value: str | None
    note: str | None
    created_at: datetime


@dataclass(frozen=True)
class Affected:
    user_id: UUID
    full_name: str
    department: str | None
    snapshot: list
    created_at: datetime


@dataclass(frozen=True)
class Notification:
    id: int
    kind: str
    ticket_id: UUID | None
    params: dict
    read_at: datetime | None
    created_at: datetime


def add_event(
    conn: psycopg.Connection,
    ticket_id: UUID,
    *,
    actor_id: UUID | None,
    kind: str,
    visibility: str = "internal",
    old_value: str | None = None,
    new_value: str | None = None,
    note: str | None = None,
) -> int:
    if kind not in KINDS or visibility not in VISIBILITIES:
        raise ValueError(f"unknown ticket event {kind}/{visibility}")
    return scalar(
        conn,
        """INSERT INTO ticket_events (ticket_id, actor_id, kind, visibility, old_value, new_value, note)
           VALUES (%(t)s, %(a)s, %(k)s, %(v)s, %(old)s, %(new)s, %(note)s) RETURNING id""",
        {"t": ticket_id, "a": actor_id, "k": kind, "v": visibility, "old": old_value, "new": new_value, "note": note},
    )


def list_events(
    conn: psycopg.Connection, org_id: UUID, ticket_id: UUID, *, reporter_view: bool = False
) -> list[TicketEvent]:
    """Oldest first; ``reporter_view`` keeps only what the people affected may read."""
    with conn.cursor(row_factory=class_row(TicketEvent)) as cur:
        return cur.execute(
            """SELECT e.id, e.ticket_id, e.actor_id, u.full_name AS actor_name, e.kind, e.visibility,
                      e.old_value, e.new_value, e.note, e.created_at
               FROM ticket_events e JOIN tickets tk ON tk.id = e.ticket_id
               LEFT JOIN users u ON u.id = e.actor_id
               WHERE tk.org_id = %(org_id)s AND e.ticket_id = %(t)s
                 AND (NOT %(reporter)s OR e.kind = 'status' OR e.visibility = 'reporter')
               ORDER BY e.id""",
            {"org_id": org_id, "t": ticket_id, "reporter": reporter_view},
        ).fetchall()


def add_affected(
    conn: psycopg.Connection, org_id: UUID, ticket_id: UUID, user_id: UUID, *, session_id: UUID | None, snapshot: list
) -> bool:
    """Record one more person affected (once per person) and bump the ticket's count; True if new."""
    added = (
        conn.execute(
            """INSERT INTO ticket_affected (ticket_id, user_id, session_id, snapshot)
           SELECT id, %(u)s, %(s)s, %(snap)s FROM tickets WHERE org_id = %(org_id)s AND id = %(t)s
           ON CONFLICT DO NOTHING""",
            {"u": user_id, "s": session_id, "snap": Jsonb(product_turns(snapshot)), "org_id": org_id, "t": ticket_id},
        ).rowcount
        == 1
    )
    if added:
        conn.execute(
            """UPDATE tickets SET affected_count = affected_count + 1, updated_at = now()
                        WHERE org_id = %(org_id)s AND id = %(t)s""",
            {"org_id": org_id, "t": ticket_id},
        )
    return added


def list_affected(conn: psycopg.Connection, org_id: UUID, ticket_id: UUID) -> list[Affected]:
    with conn.cursor(row_factory=class_row(Affected)) as cur:
        return cur.execute(
            """SELECT x.user_id, u.full_name, u.department, x.snapshot, x.created_at
               FROM ticket_affected x JOIN tickets tk ON tk.id = x.ticket_id JOIN users u ON u.id = x.user_id
               WHERE tk.org_id = %(org_id)s AND x.ticket_id = %(t)s ORDER BY x.created_at""",
            {"org_id": org_id, "t": ticket_id},
        ).fetchall()


def is_affected(conn: psycopg.Connection, ticket_id: UUID, user_id: UUID) -> bool:
    return (
        conn.execute(
            "SELECT 1 FROM ticket_affected WHERE ticket_id = %(t)s AND user_id = %(u)s", {"t": ticket_id, "u": user_id}
        ).fetchone()
        is not None
    )


def notify(
    conn: psycopg.Connection,
    org_id: UUID,
    user_id: UUID,
    kind: str,
    *,
    ticket_id: UUID | None = None,
    params: dict | None = None,
) -> int:
    return scalar(
        conn,
        """INSERT INTO notifications (org_id, user_id, kind, ticket_id, params)
           VALUES (%(org_id)s, %(u)s, %(k)s, %(t)s, %(p)s) RETURNING id""",
        {"org_id": org_id, "u": user_id, "k": kind, "t": ticket_id, "p": Jsonb(params or {})},
    )


def list_notifications(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, *, unread_only: bool = False, limit: int = 50
) -> list[Notification]:
    with conn.cursor(row_factory=class_row(Notification)) as cur:
        return cur.execute(
            """SELECT id, kind, ticket_id, params, read_at, created_at FROM notifications
               WHERE org_id = %(org_id)s AND user_id = %(u)s AND (NOT %(unread)s OR read_at IS NULL)
               ORDER BY created_at DESC, id DESC LIMIT %(limit)s""",
            {"org_id": org_id, "u": user_id, "unread": unread_only, "limit": limit},
        ).fetchall()


def mark_read(conn: psycopg.Connection, org_id: UUID, user_id: UUID) -> int:
    return conn.execute(
        """UPDATE notifications SET read_at = now()
                           WHERE org_id = %(org_id)s AND user_id = %(u)s AND read_at IS NULL""",
        {"org_id": org_id, "u": user_id},
    ).rowcount


def forget_person(conn: psycopg.Connection, org_id: UUID, user_id: UUID) -> dict:
    """Right to delete: their notifications and affected rows go; notes they wrote lose their name."""
    notes = conn.execute(
        """UPDATE ticket_events e SET actor_id = NULL FROM tickets tk
           WHERE tk.id = e.ticket_id AND tk.org_id = %(org_id)s AND e.actor_id = %(u)s""",
        {"org_id": org_id, "u": user_id},
    ).rowcount
    affected = conn.execute(
        """DELETE FROM ticket_affected x USING tickets tk
           WHERE tk.id = x.ticket_id AND tk.org_id = %(org_id)s AND x.user_id = %(u)s""",
        {"org_id": org_id, "u": user_id},
    ).rowcount
    notes_gone = conn.execute(
        "DELETE FROM notifications WHERE org_id = %(org_id)s AND user_id = %(u)s", {"org_id": org_id, "u": user_id}
    ).rowcount
    return {"events_anonymised": notes, "affected_rows_deleted": affected, "notifications_deleted": notes_gone}
