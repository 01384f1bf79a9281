"""Write actions the admin assistant holds until the admin confirms them (admin_pending_actions).

One pending action per admin session at most; claiming one marks it executed in the same
transaction as the write, so a repeated confirm runs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from core.inputs import parse_uuid
from storage.rows import one_row


@dataclass(frozen=True)
class PendingAction:
    id: UUID
    admin_id: UUID
    session_id: UUID | None
    tool: str
    arguments: dict
    preview: str
    status: str
    result: Any
    created_at: datetime


_PENDING_COLUMNS = "id, admin_id, session_id, tool, arguments, preview, status, result, created_at"


def create_pending(
    conn: psycopg.Connection,
    org_id: UUID,
    admin_id: UUID,
    session_id: UUID | None,
    *,
    tool: str,
    arguments: dict,
    preview: str,
    joins_batch: bool = False,
) -> PendingAction:
    """Hold a write for the admin's confirm; any older pending action in the session is cancelled,
    unless this one ``joins_batch``: a later write of the same preview, confirmed together."""
    if not joins_batch:
        cancel_pending(conn, org_id, admin_id, session_id)
    with conn.cursor(row_factory=class_row(PendingAction)) as cur:
        return one_row(
            cur.execute(
                f"""INSERT INTO admin_pending_actions (org_id, admin_id, session_id, tool, arguments, preview)
                VALUES (%(org_id)s, %(admin_id)s, %(session_id)s, %(tool)s, %(arguments)s, %(preview)s)
                RETURNING {_PENDING_COLUMNS}""",
                {
                    "org_id": org_id,
                    "admin_id": admin_id,
                    "session_id": session_id,
                    "tool": tool,
                    "arguments": Jsonb(arguments),
                    "preview": preview,
                },
            )
        )


def get_pending(conn: psycopg.Connection, org_id: UUID, admin_id: UUID, action_id: UUID | str) -> PendingAction | None:
    parsed_id = parse_uuid(action_id)
    if parsed_id is None:
        return None
    with conn.cursor(row_factory=class_row(PendingAction)) as cur:
        return cur.execute(
            f"""SELECT {_PENDING_COLUMNS} FROM admin_pending_actions
                WHERE org_id = %(org_id)s AND admin_id = %(admin_id)s AND id = %(id)s""",
            {"org_id": org_id, "admin_id": admin_id, "id": parsed_id},
        ).fetchone()


def claim_pending(
    conn: psycopg.Connection, org_id: UUID, admin_id: UUID, action_id: UUID | str
) -> PendingAction | None:
    """Mark the action executed if, and only if, it is still pending: the write that follows in the
    same transaction therefore happens at most once, however often the confirm arrives."""
    parsed_id = parse_uuid(action_id)
    if parsed_id is None:
        return None
    with conn.cursor(row_factory=class_row(PendingAction)) as cur:
        return cur.execute(
            f"""UPDATE admin_pending_actions SET status = 'executed', resolved_at = now()
                WHERE org_id = %(org_id)s AND admin_id = %(admin_id)s AND id = %(id)s AND status = 'pending'
                RETURNING {_PENDING_COLUMNS}""",
            {"org_id": org_id, "admin_id": admin_id, "id": parsed_id},
        ).fetchone()


def set_pending_result(conn: psycopg.Connection, org_id: UUID, action_id: UUID, result: Any) -> None:
    conn.execute(
        "UPDATE admin_pending_actions SET result = %(result)s WHERE org_id = %(org_id)s AND id = %(id)s",
        {"result": Jsonb(result), "org_id": org_id, "id": action_id},
    )


def cancel_pending(conn: psycopg.Connection, org_id: UUID, admin_id: UUID, session_id: UUID | None) -> int:
    return conn.execute(
        """UPDATE admin_pending_actions SET status = 'cancelled', resolved_at = now()
           WHERE org_id = %(org_id)s AND admin_id = %(admin_id)s AND status = 'pending'
             AND session_id IS NOT DISTINCT FROM %(session_id)s""",
        {"org_id": org_id, "admin_id": admin_id, "session_id": session_id},
    ).rowcount
