"""Who is taking one course and has not finished it: what the admin assistant answers to "who hasn't
finished the security course?"."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from uuid import UUID

import psycopg
from psycopg.rows import class_row


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
