"""Who is taking a course and has not finished it: what the admin assistant answers to "who hasn't finished
the security course?" (one course) and "Cursos pendientes en Tiendas" (a department's people, every course);
and who has finished one ("and who has finished it?")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from uuid import UUID

import psycopg
from psycopg.rows import class_row

from core.names import in_language


@dataclass(frozen=True)
class OpenEnrollment:
    full_name: str
    status: str
    progress: float
    deadline: date | None


def unfinished_learners(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> list[OpenEnrollment]:
    """Active people enrolled in the course and not done with it, latest deadline last (none at the end)."""
    with conn.cursor(row_factory=class_row(OpenEnrollment)) as cur:
        return cur.execute(
            """SELECT u.full_name, e.status, e.progress, e.deadline
               FROM enrollments e JOIN users u ON u.id = e.user_id AND u.org_id = e.org_id
               WHERE e.org_id = %(org_id)s AND e.course_id = %(course_id)s
                 AND e.status IN ('assigned', 'in_progress') AND u.is_active
               ORDER BY e.deadline NULLS LAST, e.progress, u.full_name""",
            {"org_id": org_id, "course_id": course_id},
        ).fetchall()


def finished_learners(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> list[str]:
    """Active people who completed the course, the first to finish first."""
    return [
        name
        for (name,) in conn.execute(
            """SELECT u.full_name
               FROM enrollments e JOIN users u ON u.id = e.user_id AND u.org_id = e.org_id
               WHERE e.org_id = %(org_id)s AND e.course_id = %(course_id)s AND e.status = 'completed' AND u.is_active
               ORDER BY e.completed_at NULLS LAST, u.full_name""",
            {"org_id": org_id, "course_id": course_id},
        )
    ]


@dataclass(frozen=True)
class PendingCourse:
    full_name: str
    course: str
    status: str
    progress: float
    deadline: date | None


def pending_courses(
    conn: psycopg.Connection, org_id: UUID, user_ids: list[UUID] | None = None, lang: str | None = None
) -> list[PendingCourse]:
    """Every unfinished enrollment of the organisation's active people (only ``user_ids``' when given), the
    course titled in ``lang``: what "Cursos pendientes en Tiendas" lists. Earliest deadline first (none last)."""
    with conn.cursor(row_factory=class_row(PendingCourse)) as cur:
        return cur.execute(
            f"""SELECT u.full_name, {in_language("c.titles", "c.title")} AS course, e.status, e.progress, e.deadline
               FROM enrollments e
               JOIN users u ON u.id = e.user_id AND u.org_id = e.org_id
               JOIN courses c ON c.id = e.course_id AND c.org_id = e.org_id
               WHERE e.org_id = %(org_id)s AND e.status IN ('assigned', 'in_progress') AND u.is_active
                 AND (%(ids)s::uuid[] IS NULL OR e.user_id = ANY(%(ids)s::uuid[]))
               ORDER BY e.deadline NULLS LAST, u.full_name, course""",
            {"org_id": org_id, "ids": user_ids, "lang": lang},
        ).fetchall()
