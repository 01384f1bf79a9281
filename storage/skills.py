"""Skills: departments and categories, the skills and their names, one employee's levels, level writes (the
questions across the organisation, the matrix, gaps, who knows what and mentorship pairs, are in skill_matrix.py).

Levels are ordered low < medium < high; an "expert" holds a skill at high. Name lookups are partial,
case- and accent-insensitive (``fold``), match any language's name, and are scoped to the
organisation. Reads that show names take the reader's ``lang`` (None: the canonical names).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from core.names import any_name_contains, fold, in_language
from storage.rows import scalar

LEVELS = ("low", "medium", "high")
LEVEL_RANK = {level: rank for rank, level in enumerate(LEVELS, start=1)}


@dataclass(frozen=True)
class Skill:
    id: UUID
    name: str
    category: str
    names: dict  # {"es": ..., "en": ...}: the skill's name in each language (empty when only ``name``)

    def all_names(self) -> list[str]:
        """Every name people may call it by: the canonical one and each language's."""
        return list(dict.fromkeys([self.name, *self.names.values()]))

    def name_in(self, lang: str) -> str:
        return self.names.get(lang) or self.name


@dataclass(frozen=True)
class UserSkill:
    skill_id: UUID
    skill: str
    category: str
    level: str
    source: str
    verified_by: str | None
    last_assessed_at: datetime


_SKILL_SQL = """SELECT s.id, s.name, c.name AS category, s.names FROM skills s
                JOIN skill_categories c ON c.id = s.category_id WHERE s.org_id = %(org_id)s"""


def departments(conn: psycopg.Connection, org_id: UUID) -> list[str]:
    return list(department_names(conn, org_id))


def department_names(conn: psycopg.Connection, org_id: UUID, lang: str | None = None) -> dict[str, str]:
    """Each department people belong to (canonical name) -> its name in ``lang``."""
    return dict(
        conn.execute(
            """SELECT DISTINCT department, department_in(org_id, department, %(lang)s) FROM users
           WHERE org_id = %(org_id)s AND department IS NOT NULL ORDER BY 1""",
            {"org_id": org_id, "lang": lang},
        ).fetchall()
    )


def ensure_department(conn: psycopg.Connection, org_id: UUID, name: str, names: dict[str, str]) -> None:
    conn.execute(
        """INSERT INTO departments (org_id, name, names) VALUES (%(org_id)s, %(name)s, %(names)s)
                    ON CONFLICT (org_id, name) DO UPDATE SET names = EXCLUDED.names""",
        {"org_id": org_id, "name": name, "names": Jsonb(names)},
    )


def categories(conn: psycopg.Connection, org_id: UUID, lang: str | None = None) -> list[str]:
    """The categories' names in ``lang`` (canonical when None)."""
    return list(category_names(conn, org_id, lang).values())


def category_names(conn: psycopg.Connection, org_id: UUID, lang: str | None = None) -> dict[str, str]:
    """Each category (canonical name) -> its name in ``lang``."""
    return dict(
        conn.execute(
            f"SELECT name, {in_language('names', 'name')} FROM skill_categories WHERE org_id = %(org_id)s"
            " ORDER BY name",
            {"org_id": org_id, "lang": lang},
        ).fetchall()
    )


def list_skills(conn: psycopg.Connection, org_id: UUID, *, category: str | None = None) -> list[Skill]:
    with conn.cursor(row_factory=class_row(Skill)) as cur:
        return cur.execute(
            _SKILL_SQL
            + f""" AND (%(category)s::text IS NULL OR {any_name_contains("c.names", "c.name", "category")})
                             ORDER BY c.name, s.name""",
            {"org_id": org_id, "category": fold(category) if category else None},
        ).fetchall()


def find_skills(conn: psycopg.Connection, org_id: UUID, name: str) -> list[Skill]:
    """Skills whose name in any language contains ``name`` (case and accents aside); an exact match
    alone wins."""
    with conn.cursor(row_factory=class_row(Skill)) as cur:
        found = cur.execute(
            _SKILL_SQL + f" AND {any_name_contains('s.names', 's.name')} ORDER BY s.name",
            {"org_id": org_id, "name": fold(name)},
        ).fetchall()
    exact = [skill for skill in found if any(fold(n) == fold(name) for n in skill.all_names())]
    return exact or found


def user_skills(conn: psycopg.Connection, org_id: UUID, user_id: UUID, lang: str | None = None) -> list[UserSkill]:
    """The person's skills, named in ``lang``, by category."""
    with conn.cursor(row_factory=class_row(UserSkill)) as cur:
        return cur.execute(
            f"""SELECT s.id AS skill_id, {in_language("s.names", "s.name")} AS skill,
                      {in_language("c.names", "c.name")} AS category, us.level, us.source,
                      v.full_name AS verified_by, us.last_assessed_at
               FROM user_skills us JOIN skills s ON s.id = us.skill_id
               JOIN skill_categories c ON c.id = s.category_id
               LEFT JOIN users v ON v.id = us.verified_by
               WHERE us.org_id = %(org_id)s AND us.user_id = %(user_id)s
               ORDER BY c.name, s.name""",
            {"org_id": org_id, "user_id": user_id, "lang": lang},
        ).fetchall()


def get_user_skill(conn: psycopg.Connection, org_id: UUID, user_id: UUID, skill_id: UUID) -> UserSkill | None:
    return next((s for s in user_skills(conn, org_id, user_id) if s.skill_id == skill_id), None)


def set_skill_level(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, skill_id: UUID, level: str, *, verified_by: UUID
) -> bool:
    """An admin's verification: overrides whatever a checkpoint set. False if user or skill isn't here."""
    cur = conn.execute(
        """INSERT INTO user_skills (org_id, user_id, skill_id, level, source, verified_by, last_assessed_at)
           SELECT %(org_id)s, u.id, s.id, %(level)s, 'admin', %(verified_by)s, now()
           FROM users u JOIN skills s ON s.org_id = u.org_id
           WHERE u.org_id = %(org_id)s AND u.id = %(user_id)s AND s.id = %(skill_id)s
           ON CONFLICT (user_id, skill_id) DO UPDATE SET level = EXCLUDED.level, source = 'admin',
               verified_by = EXCLUDED.verified_by, last_assessed_at = now()""",
        {"org_id": org_id, "user_id": user_id, "skill_id": skill_id, "level": level, "verified_by": verified_by},
    )
    return cur.rowcount == 1


def record_skill_evidence(conn: psycopg.Connection, org_id: UUID, user_id: UUID, skill_id: UUID, level: str) -> bool:
    """Set a checkpoint-earned level. An admin-verified level is never touched (False)."""
    cur = conn.execute(
        """INSERT INTO user_skills (org_id, user_id, skill_id, level, source)
           SELECT %(org_id)s, u.id, s.id, %(level)s, 'checkpoint' FROM users u JOIN skills s ON s.org_id = u.org_id
           WHERE u.org_id = %(org_id)s AND u.id = %(user_id)s AND s.id = %(skill_id)s
           ON CONFLICT (user_id, skill_id) DO UPDATE SET level = EXCLUDED.level, source = 'checkpoint',
               verified_by = NULL, last_assessed_at = now()
           WHERE user_skills.source <> 'admin'""",
        {"org_id": org_id, "user_id": user_id, "skill_id": skill_id, "level": level},
    )
    return cur.rowcount == 1


def ensure_skill(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    category: str,
    name: str,
    description: str,
    names: dict[str, str],
    category_names: dict[str, str],
) -> UUID:
    """The skill (and its category), with their names per language."""
    conn.execute(
        "INSERT INTO skill_categories (org_id, name, names) VALUES (%(org_id)s, %(name)s, %(names)s)"
        " ON CONFLICT (org_id, name) DO UPDATE SET names = EXCLUDED.names",
        {"org_id": org_id, "name": category, "names": Jsonb(category_names)},
    )
    return scalar(
        conn,
        """INSERT INTO skills (org_id, category_id, name, description, names)
           SELECT %(org_id)s, id, %(name)s, %(description)s, %(names)s FROM skill_categories
           WHERE org_id = %(org_id)s AND name = %(category)s
           ON CONFLICT (org_id, name) DO UPDATE SET description = EXCLUDED.description,
               category_id = EXCLUDED.category_id, names = EXCLUDED.names
           RETURNING id""",
        {"org_id": org_id, "name": name, "description": description, "category": category, "names": Jsonb(names)},
    )


def ensure_user_skill(
    conn: psycopg.Connection,
    org_id: UUID,
    user_id: UUID,
    skill_id: UUID,
    *,
    level: str,
    source: str,
    verified_by: UUID | None,
    assessed_at: datetime,
) -> None:
    """Record the level unless the person already has one (a demo never overwrites later assessments)."""
    conn.execute(
        """INSERT INTO user_skills (org_id, user_id, skill_id, level, source, verified_by, last_assessed_at)
           SELECT %(org_id)s, u.id, s.id, %(level)s, %(source)s, %(verified_by)s, %(assessed_at)s
           FROM users u JOIN skills s ON s.org_id = u.org_id
           WHERE u.org_id = %(org_id)s AND u.id = %(user_id)s AND s.id = %(skill_id)s
           ON CONFLICT (user_id, skill_id) DO NOTHING""",
        {
            "org_id": org_id,
            "user_id": user_id,
            "skill_id": skill_id,
            "level": level,
            "source": source,
            "verified_by": verified_by,
            "assessed_at": assessed_at,
        },
    )
