"""The audit log: who changed what, with the state before and after.

``list_entries`` also names what each entry touched (a person, a course, a ticket…) as it is now, in the
reader's language, in the same query: ``entity_name`` is None when the thing is gone. ``people`` names
the members of the organisation whose ids the before and after states hold (a ticket's assignee)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from storage.rows import scalar


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
    entity_name: str | None = None
    people: dict[str, str] | None = None


def record(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    actor_id: UUID | None,
    action: str,
    entity_type: str,
    entity_id: UUID | str | None,
    before: Any,
    after: Any,
) -> int:
    """Append one entry; returns its id."""
    return scalar(
        conn,
        """INSERT INTO audit_log (org_id, actor_id, action, entity_type, entity_id, before, after)
           VALUES (%(org_id)s, %(actor_id)s, %(action)s, %(entity_type)s, %(entity_id)s,
                   %(before)s, %(after)s) RETURNING id""",
        {
            "org_id": org_id,
            "actor_id": actor_id,
            "action": action,
            "entity_type": entity_type,
            "entity_id": None if entity_id is None else str(entity_id),
            "before": Jsonb(before),
            "after": Jsonb(after),
        },
    )


def last_actor(conn: psycopg.Connection, org_id: UUID, *, action: str, entity_id: UUID | str) -> UUID | None:
    """Who made the latest entry of ``action`` on ``entity_id`` (None when nobody did)."""
    row = conn.execute(
        """SELECT actor_id FROM audit_log WHERE org_id = %(org_id)s AND action = %(action)s
                          AND entity_id = %(entity_id)s ORDER BY id DESC LIMIT 1""",
        {"org_id": org_id, "action": action, "entity_id": str(entity_id)},
    ).fetchone()
    return row[0] if row else None


_UUID = "'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'"
# Each kind of entity by its id, in the entry's organisation only; entity_id is text (a uuid, "user:skill"
# for a person's skill, an email for an unlocked sign-in, a topic for a knowledge gap).
_ENTITY_NAME = """CASE p.entity_type
    WHEN 'user' THEN (SELECT x.full_name FROM users x WHERE x.org_id = p.org_id
                      AND (x.id = p.uid OR x.email = p.entity_id))
    WHEN 'course' THEN (SELECT coalesce(x.titles ->> %(lang)s::text, x.title) FROM courses x
                        WHERE x.org_id = p.org_id AND x.id = p.uid)
    WHEN 'enrollment' THEN (SELECT u.full_name || ' · ' || coalesce(c.titles ->> %(lang)s::text, c.title)
                            FROM enrollments x JOIN users u ON u.id = x.user_id JOIN courses c ON c.id = x.course_id
                            WHERE x.org_id = p.org_id AND x.id = p.uid)
    WHEN 'user_skill' THEN (SELECT u.full_name || ' · ' || coalesce(s.names ->> %(lang)s::text, s.name)
                            FROM users u JOIN skills s ON s.org_id = u.org_id
                            WHERE u.org_id = p.org_id AND u.id = p.uid1 AND s.id = p.uid2)
    WHEN 'ticket' THEN (SELECT '#' || x.number || ' · ' || x.title FROM tickets x
                        WHERE x.org_id = p.org_id AND x.id = p.uid)
    WHEN 'module' THEN (SELECT coalesce(c.titles ->> %(lang)s::text, c.title) || ' › ' || x.title
                        FROM modules x JOIN courses c ON c.id = x.course_id WHERE x.org_id = p.org_id AND x.id = p.uid)
    WHEN 'lesson' THEN (SELECT coalesce(c.titles ->> %(lang)s::text, c.title) || ' › ' || x.title
                        FROM lessons x JOIN modules m ON m.id = x.module_id JOIN courses c ON c.id = m.course_id
                        WHERE x.org_id = p.org_id AND x.id = p.uid)
    WHEN 'generation_job' THEN (SELECT coalesce(coalesce(c.titles ->> %(lang)s::text, c.title), d.title)
                                FROM generation_jobs x LEFT JOIN courses c ON c.id = x.result_course_id
                                LEFT JOIN documents d ON d.id = x.source_document_ids[1]
                                WHERE x.org_id = p.org_id AND x.id = p.uid)
    WHEN 'ingestion' THEN (SELECT x.source_name FROM ingestions x WHERE x.org_id = p.org_id AND x.id = p.uid)
    WHEN 'organization' THEN (SELECT x.name FROM organizations x WHERE x.id = p.org_id AND x.id = p.uid)
    WHEN 'knowledge_gap' THEN p.entity_id
END"""
# Names of the people whose ids are top-level values of the before or after state.
_PEOPLE = """(SELECT jsonb_object_agg(x.id::text, x.full_name) FROM users x
              WHERE x.org_id = p.org_id AND x.id::text IN (
                  SELECT v.value FROM jsonb_each_text(CASE WHEN jsonb_typeof(p.before) = 'object' THEN p.before
                                                          ELSE '{}' END
                                                     || CASE WHEN jsonb_typeof(p.after) = 'object' THEN p.after
                                                             ELSE '{}' END) AS v))"""


def list_entries(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    action: str | None = None,
    entity_id: UUID | str | None = None,
    limit: int = 100,
    lang: str | None = None,
) -> list[AuditEntry]:
    """Newest first, each with what it touched named in ``lang`` (canonical names without it)."""
    with conn.cursor(row_factory=class_row(AuditEntry)) as cur:
        return cur.execute(
            f"""WITH p AS (
                   SELECT a.*, CASE WHEN a.entity_id ~ ('^' || {_UUID} || '$') THEN a.entity_id::uuid END AS uid,
                          CASE WHEN a.entity_id ~ ('^' || {_UUID} || ':' || {_UUID} || '$')
                               THEN split_part(a.entity_id, ':', 1)::uuid END AS uid1,
                          CASE WHEN a.entity_id ~ ('^' || {_UUID} || ':' || {_UUID} || '$')
                               THEN split_part(a.entity_id, ':', 2)::uuid END AS uid2
                   FROM audit_log a
                   WHERE a.org_id = %(org_id)s
                     AND (%(action)s::text IS NULL OR a.action = %(action)s)
                     AND (%(entity_id)s::text IS NULL OR a.entity_id = %(entity_id)s)
                   ORDER BY a.id DESC LIMIT %(limit)s)
               SELECT p.id, p.actor_id, u.full_name AS actor_name, p.action, p.entity_type, p.entity_id,
                      p.before, p.after, p.created_at, {_ENTITY_NAME} AS entity_name, {_PEOPLE} AS people
               FROM p LEFT JOIN users u ON u.id = p.actor_id
               ORDER BY p.id DESC""",
            {
                "org_id": org_id,
                "action": action,
                "lang": lang,
                "entity_id": None if entity_id is None else str(entity_id),
                "limit": limit,
            },
        ).fetchall()
