"""Skills: the matrix, gaps, who knows what, mentorship pairs, an employee's detail, level writes.

Levels are ordered low < medium < high; an "expert" holds a skill at high. Name lookups are partial,
case- and accent-insensitive (``fold``), match any language's name, and are scoped to the
organisation. Reads that show names take the reader's ``lang`` (None: the canonical names).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple
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
class Person:
    id: UUID
    full_name: str
    email: str
    department: str | None
    job_title: str | None


class SkillCell(NamedTuple):
    """One level held (a tuple: the matrix has tens of thousands of them)."""

    user_id: UUID
    skill_id: UUID
    level: str
    source: str
    last_assessed_at: datetime


@dataclass(frozen=True)
class SkillsMatrix:
    employees: list[Person]
    skills: list[Skill]
    cells: list[SkillCell]


@dataclass(frozen=True)
class SkillGap:
    skill: str
    category: str
    experts: int
    medium: int
    low: int


@dataclass(frozen=True)
class SkillHolder:
    full_name: str
    email: str
    department: str | None
    skill: str
    level: str
    source: str
    last_assessed_at: datetime


@dataclass(frozen=True)
class MentorPair:
    skill: str
    mentor: str
    mentor_email: str
    mentee: str
    mentee_email: str
    mentee_level: str
    same_department: bool


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


def skills_matrix(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    department: str | None = None,
    category: str | None = None,
    lang: str | None = None,
) -> SkillsMatrix:
    """Active employees (optionally one department, by canonical name) × skills (optionally one
    category, by any of its names) and the levels held; departments named in ``lang``."""
    with conn.cursor(row_factory=class_row(Person)) as cur:
        employees = cur.execute(
            """SELECT id, full_name, email, department_in(org_id, department, %(lang)s) AS department,
                      job_title FROM users
               WHERE org_id = %(org_id)s AND is_active AND role = 'employee'
                 AND (%(department)s::text IS NULL OR department = %(department)s)
               ORDER BY department NULLS LAST, full_name""",
            {"org_id": org_id, "department": department, "lang": lang},
        ).fetchall()
    skills = list_skills(conn, org_id, category=category)
    with conn.cursor() as cur:
        rows = cur.execute(
            """SELECT us.user_id, us.skill_id, us.level, us.source, us.last_assessed_at
               FROM user_skills us JOIN users u ON u.id = us.user_id
               WHERE us.org_id = %(org_id)s AND u.is_active AND u.role = 'employee'
                 AND (%(department)s::text IS NULL OR u.department = %(department)s)
                 AND us.skill_id = ANY(%(skill_ids)s)""",
            {"org_id": org_id, "department": department, "skill_ids": [s.id for s in skills]},
        ).fetchall()
    return SkillsMatrix(employees, skills, [SkillCell(*row) for row in rows])


def skill_gaps(conn: psycopg.Connection, org_id: UUID, threshold: int = 1, lang: str | None = None) -> list[SkillGap]:
    """Skills held at 'high' by fewer than ``threshold`` active people, fewest experts first."""
    with conn.cursor(row_factory=class_row(SkillGap)) as cur:
        return cur.execute(
            f"""SELECT {in_language("s.names", "s.name")} AS skill, {in_language("c.names", "c.name")} AS category,
                      count(u.id) FILTER (WHERE us.level = 'high') AS experts,
                      count(u.id) FILTER (WHERE us.level = 'medium') AS medium,
                      count(u.id) FILTER (WHERE us.level = 'low') AS low
               FROM skills s JOIN skill_categories c ON c.id = s.category_id
               LEFT JOIN user_skills us ON us.skill_id = s.id AND us.org_id = s.org_id
               LEFT JOIN users u ON u.id = us.user_id AND u.is_active
               WHERE s.org_id = %(org_id)s
               GROUP BY s.id, s.name, c.id, c.name
               HAVING count(u.id) FILTER (WHERE us.level = 'high') < %(threshold)s
               ORDER BY experts, medium, s.name""",
            {"org_id": org_id, "threshold": threshold, "lang": lang},
        ).fetchall()


def who_knows(
    conn: psycopg.Connection, org_id: UUID, skill_ids: list[UUID], min_level: str = "medium", lang: str | None = None
) -> list[SkillHolder]:
    """Active people holding any of these skills at ``min_level`` or above, best first."""
    with conn.cursor(row_factory=class_row(SkillHolder)) as cur:
        return cur.execute(
            f"""SELECT u.full_name, u.email, department_in(u.org_id, u.department, %(lang)s) AS department,
                      {in_language("s.names", "s.name")} AS skill, us.level, us.source,
                      us.last_assessed_at
               FROM user_skills us JOIN users u ON u.id = us.user_id JOIN skills s ON s.id = us.skill_id
               WHERE us.org_id = %(org_id)s AND u.is_active AND us.skill_id = ANY(%(skill_ids)s)
                 AND array_position(%(levels)s::text[], us.level) >= %(min_rank)s
               ORDER BY array_position(%(levels)s::text[], us.level) DESC, us.last_assessed_at DESC,
                        u.full_name""",
            {
                "org_id": org_id,
                "skill_ids": skill_ids,
                "levels": list(LEVELS),
                "min_rank": LEVEL_RANK[min_level],
                "lang": lang,
            },
        ).fetchall()


def mentorship_suggestions(
    conn: psycopg.Connection, org_id: UUID, *, max_mentees_per_mentor: int = 3, lang: str | None = None
) -> list[MentorPair]:
    """Experts (high) paired with learners (low) on the same skill; same department first,
    each mentor given at most ``max_mentees_per_mentor`` mentees per skill."""
    rows = conn.execute(
        f"""SELECT {in_language("s.names", "s.name")}, us.level, u.full_name, u.email, u.department
            FROM user_skills us JOIN users u ON u.id = us.user_id JOIN skills s ON s.id = us.skill_id
            WHERE us.org_id = %(org_id)s AND u.is_active AND us.level IN ('high', 'low')
            ORDER BY s.name, u.full_name""",
        {"org_id": org_id, "lang": lang},
    ).fetchall()
    by_skill: dict[str, dict[str, list[tuple]]] = {}
    for skill, level, name, email, department in rows:
        by_skill.setdefault(skill, {"high": [], "low": []})[level].append((name, email, department))
    pairs: list[MentorPair] = []
    for skill, people in by_skill.items():
        load = {mentor[1]: 0 for mentor in people["high"]}
        for mentee in people["low"]:
            free = [m for m in people["high"] if load[m[1]] < max_mentees_per_mentor and m[1] != mentee[1]]
            if not free:
                continue
            mentor = min(free, key=lambda m: (m[2] != mentee[2], load[m[1]], m[0]))
            load[mentor[1]] += 1
            pairs.append(MentorPair(skill, mentor[0], mentor[1], mentee[0], mentee[1], "low", mentor[2] == mentee[2]))
    return pairs


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
