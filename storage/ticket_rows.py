"""Tickets as the staff list and My tickets show them: each ticket with its reporter, department, assignee and
last change (the ticket itself, its filing and status are in tickets.py)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg

from storage.tickets import TICKET_COLUMNS, Ticket


@dataclass(frozen=True)
class TicketRow:
    """A ticket as staff list it: with the reporter's name and department and the assignee's name."""

    ticket: Ticket
    reporter_name: str | None
    reporter_department: str | None
    assignee_name: str | None
    last_change_at: datetime


_ROW_QUERY = f"""SELECT {", ".join("tk." + c.strip() for c in TICKET_COLUMNS.split(","))},
                        r.full_name, r.department, a.full_name,
                        greatest(tk.updated_at, coalesce(max(e.created_at), tk.updated_at))
                 FROM tickets tk
                 LEFT JOIN users r ON r.id = tk.created_by
                 LEFT JOIN users a ON a.id = tk.assignee_id
                 LEFT JOIN ticket_events e ON e.ticket_id = tk.id"""


def _rows(cur_rows: Iterable[Sequence[Any]]) -> list[TicketRow]:
    width = len(TICKET_COLUMNS.split(","))
    return [
        TicketRow(Ticket(*row[:width]), row[width], row[width + 1], row[width + 2], row[width + 3]) for row in cur_rows
    ]


def list_rows(conn: psycopg.Connection, org_id: UUID, *, limit: int = 500) -> list[TicketRow]:
    """Every ticket of the organisation with reporter, department and assignee, newest first."""
    return _rows(
        conn.execute(
            f"""{_ROW_QUERY} WHERE tk.org_id = %(org_id)s
            GROUP BY tk.id, r.full_name, r.department, a.full_name
            ORDER BY tk.created_at DESC, tk.number DESC LIMIT %(limit)s""",
            {"org_id": org_id, "limit": limit},
        ).fetchall()
    )


def list_affecting(conn: psycopg.Connection, org_id: UUID, user_id: UUID, *, limit: int = 200) -> list[TicketRow]:
    """The tickets a person reported or linked their report to, most recently changed first."""
    return _rows(
        conn.execute(
            f"""{_ROW_QUERY} WHERE tk.org_id = %(org_id)s
              AND (tk.created_by = %(user_id)s OR EXISTS (
                   SELECT 1 FROM ticket_affected x WHERE x.ticket_id = tk.id AND x.user_id = %(user_id)s))
            GROUP BY tk.id, r.full_name, r.department, a.full_name
            ORDER BY greatest(tk.updated_at, coalesce(max(e.created_at), tk.updated_at)) DESC
            LIMIT %(limit)s""",
            {"org_id": org_id, "user_id": user_id, "limit": limit},
        ).fetchall()
    )


def get_row(conn: psycopg.Connection, org_id: UUID, ticket_id: UUID | str) -> TicketRow | None:
    try:
        ticket_id = UUID(str(ticket_id))
    except ValueError:
        return None
    rows = _rows(
        conn.execute(
            f"""{_ROW_QUERY} WHERE tk.org_id = %(org_id)s AND tk.id = %(id)s
            GROUP BY tk.id, r.full_name, r.department, a.full_name""",
            {"org_id": org_id, "id": ticket_id},
        ).fetchall()
    )
    return rows[0] if rows else None
