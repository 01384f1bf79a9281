"""Skills over time: level-change events (written by a trigger on user_skills, migration 082) and
expiry dates on verified skills."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from uuid import UUID

import psycopg
from psycopg.rows import class_row

from core.names import in_language


@dataclass(frozen=True)
class LevelEvent:
    user_id: UUID
    full_name: str
    department: str | None
    skill: str
    level: str
    previous_level: str | None
    source: str
    changed_at: datetime


@dataclass(frozen=True)
class ExpiringSkill:
    user_id: UUID
    full_name: str
    skill: str
    level: str
    expires_at: date


def level_events(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    user_id: UUID | None = None,
    department: str | None = None,
    skill: str | None = None,
    lang: str | None = None,
) -> list[LevelEvent]:
    """Level changes of active people, oldest first, optionally one person, department or skill (both
    by canonical name); the skill named in ``lang`` (canonical when None)."""
    with conn.cursor(row_factory=class_row(LevelEvent)) as cur:
        return cur.execute(
            f"""SELECT e.user_id, u.full_name, u.department, {in_language("s.names", "s.name")} AS skill, e.level,
                      e.previous_level, e.source, e.changed_at
               FROM skill_level_events e JOIN users u ON u.id = e.user_id JOIN skills s ON s.id = e.skill_id
               WHERE e.org_id = %(org_id)s AND u.is_active
                 AND (%(user_id)s::uuid IS NULL OR e.user_id = %(user_id)s)
                 AND (%(department)s::text IS NULL OR u.department = %(department)s)
                 AND (%(skill)s::text IS NULL OR s.name = %(skill)s)
               ORDER BY e.changed_at, e.id""",
            {"org_id": org_id, "user_id": user_id, "department": department, "skill": skill, "lang": lang},
        ).fetchall()


def record_past_level(
    conn: psycopg.Connection,
    org_id: UUID,
    user_id: UUID,
    skill_id: UUID,
    *,
    level: str,
    source: str,
    changed_at: datetime,
) -> None:
    """An earlier level than the one held now (the demo's history); a person's level already on
    record for that skill is not added twice, so loading the demo again adds nothing."""
    conn.execute(
        """INSERT INTO skill_level_events (org_id, user_id, skill_id, level, source, changed_at)
           SELECT %(org_id)s, %(user_id)s, %(skill_id)s, %(level)s, %(source)s, %(at)s
           WHERE NOT EXISTS (SELECT 1 FROM skill_level_events
                             WHERE user_id = %(user_id)s AND skill_id = %(skill_id)s AND level = %(level)s)
           ON CONFLICT (user_id, skill_id, changed_at) DO NOTHING""",
        {
            "org_id": org_id,
            "user_id": user_id,
            "skill_id": skill_id,
            "level": level,
            "source": source,
            "at": changed_at,
        },
    )


def set_expiry(
    conn: psycopg.Connection,
    org_id: UUID,
    user_id: UUID,
    skill_id: UUID,
    expires_at: date | None,
    *,
    unless_set: bool = False,
) -> bool:
    """Set (or clear) the expiry of a verified skill; False unless the person holds it verified by HR
    (or, with ``unless_set``, when it already has an expiry)."""
    return (
        conn.execute(
            """UPDATE user_skills SET expires_at = %(expires)s
           WHERE org_id = %(org_id)s AND user_id = %(user_id)s AND skill_id = %(skill_id)s AND source = 'admin'
             AND (NOT %(unless_set)s OR expires_at IS NULL)""",
            {
                "org_id": org_id,
                "user_id": user_id,
                "skill_id": skill_id,
                "expires": expires_at,
                "unless_set": unless_set,
            },
        ).rowcount
        == 1
    )


def expiring_skills(
    conn: psycopg.Connection, org_id: UUID, until: date, lang: str | None = None
) -> list[ExpiringSkill]:
    """Verified skills of active people that expire on or before ``until`` (expired ones included);
    skill names in ``lang``."""
    with conn.cursor(row_factory=class_row(ExpiringSkill)) as cur:
        return cur.execute(
            f"""SELECT us.user_id, u.full_name, {in_language("s.names", "s.name")} AS skill, us.level, us.expires_at
               FROM user_skills us JOIN users u ON u.id = us.user_id JOIN skills s ON s.id = us.skill_id
               WHERE us.org_id = %(org_id)s AND u.is_active AND us.expires_at IS NOT NULL
                 AND us.expires_at <= %(until)s
               ORDER BY us.expires_at, u.full_name""",
            {"org_id": org_id, "until": until, "lang": lang},
        ).fetchall()
