"""Skills across the organisation, the questions the admin pages and the assistant ask: the skills matrix, the
gaps, who knows a skill, mentorship pairs. Name lookups are partial, case- and accent-insensitive and scoped to the
organisation; reads that show names take the reader's ``lang`` (None: the canonical names)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple
from uuid import UUID

import psycopg
from psycopg.rows import class_row

from core.names import in_language
from storage.skills import LEVEL_RANK, LEVELS, Skill, list_skills


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
