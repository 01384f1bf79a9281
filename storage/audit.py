"""The audit log: who changed what, with the state before and after."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb


@dataclass(frozen=True)
class AuditEntry:
    id: int
    actor_id: UUID | None
    actor_name: str | None
    action: str
    entity_type: str
    entity_id: str | None
    before: Any
    after: Any
    created_at: datetime


def record(conn: psycopg.Connection, org_id: UUID, *, actor_id: UUID | None, action: str,
           entity_type: str, entity_id: UUID | str | None, before: Any, after: Any) -> int:
    """Append one entry; returns its id."""
    return conn.execute(
        """INSERT INTO audit_log (org_id, actor_id, action, entity_type, entity_id, before, after)
           VALUES (%(org_id)s, %(actor_id)s, %(action)s, %(entity_type)s, %(entity_id)s,
                   %(before)s, %(after)s) RETURNING id""",
        {"org_id": org_id, "actor_id": actor_id, "action": action, "entity_type": entity_type,
         "entity_id": None if entity_id is None else str(entity_id),
         "before": Jsonb(before), "after": Jsonb(after)}).fetchone()[0]


def list_entries(conn: psycopg.Connection, org_id: UUID, *, action: str | None = None,
                 entity_id: UUID | str | None = None, limit: int = 100) -> list[AuditEntry]:
    """Newest first."""
    with conn.cursor(row_factory=class_row(AuditEntry)) as cur:
        return cur.execute(
            """SELECT a.id, a.actor_id, u.full_name AS actor_name, a.action, a.entity_type, a.entity_id,
                      a.before, a.after, a.created_at
               FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
               WHERE a.org_id = %(org_id)s
                 AND (%(action)s::text IS NULL OR a.action = %(action)s)
                 AND (%(entity_id)s::text IS NULL OR a.entity_id = %(entity_id)s)
               ORDER BY a.id DESC LIMIT %(limit)s""",
            {"org_id": org_id, "action": action,
             "entity_id": None if entity_id is None else str(entity_id), "limit": limit}).fetchall()
