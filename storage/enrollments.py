"""Enrollments (who takes which course, with what deadline and progress) and lesson completions.

Every function takes the connection first, filters by org_id and never commits; writes to people or
courses of another organisation change nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from uuid import UUID

import psycopg
from psycopg.rows import class_row

from core.names import in_language


@dataclass(frozen=True)
class Enrollment:
    id: UUID
    user_id: UUID
    course_id: UUID
    course_title: str
    course_language: str
    status: str
    progress: float
    deadline: date | None
    score: float | None
    created_at: datetime
    started_at: datetime | None
    completed_at: datetime | None
    last_activity_at: datetime | None


_ENROLLMENT_SELECT = f"""
    SELECT e.id, e.user_id, e.course_id, {in_language("c.titles", "c.title")} AS course_title,
           c.language AS course_language,
           e.status, e.progress, e.deadline, e.score, e.created_at, e.started_at, e.completed_at,
           e.last_activity_at
    FROM enrollments e JOIN courses c ON c.id = e.course_id AND c.org_id = e.org_id
    WHERE e.org_id = %(org_id)s AND e.user_id = %(user_id)s"""


def list_enrollments(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, lang: str | None = None
) -> list[Enrollment]:
    """The user's enrollments (cancelled ones left out), soonest deadline first; titles in ``lang``."""
    with conn.cursor(row_factory=class_row(Enrollment)) as cur:
        return cur.execute(
            _ENROLLMENT_SELECT + " AND e.status <> 'cancelled' AND c.status <> 'archived'"
            " ORDER BY e.status = 'completed', e.deadline NULLS LAST, c.title",
            {"org_id": org_id, "user_id": user_id, "lang": lang},
        ).fetchall()


def get_enrollment(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, course_id: UUID, lang: str | None = None
) -> Enrollment | None:
    """The user's enrollment in the course, whatever its status (cancelled included)."""
    with conn.cursor(row_factory=class_row(Enrollment)) as cur:
        return cur.execute(
            _ENROLLMENT_SELECT + " AND e.course_id = %(course_id)s",
            {"org_id": org_id, "user_id": user_id, "course_id": course_id, "lang": lang},
        ).fetchone()


@dataclass(frozen=True)
class EnrollmentRow:
    """One line of an employee's course history as the admin reads it."""

    course_id: UUID
    course: str
    status: str
    progress: float
    score: float | None
    deadline: date | None
    last_activity_at: datetime | None


def employee_enrollments(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, lang: str | None = None
) -> list[EnrollmentRow]:
    """Every enrollment of the person, cancelled and archived courses included (the admin's view)."""
    with conn.cursor(row_factory=class_row(EnrollmentRow)) as cur:
        return cur.execute(
            f"""SELECT c.id AS course_id, {in_language("c.titles", "c.title")} AS course, e.status, e.progress,
                      e.score, e.deadline,
                      e.last_activity_at
               FROM enrollments e JOIN courses c ON c.id = e.course_id
               WHERE e.org_id = %(org_id)s AND e.user_id = %(user_id)s
               ORDER BY e.status = 'completed', e.deadline NULLS LAST, c.title""",
            {"org_id": org_id, "user_id": user_id, "lang": lang},
        ).fetchall()


def enroll(
    conn: psycopg.Connection,
    org_id: UUID,
    user_id: UUID,
    course_id: UUID,
    *,
    deadline: date | None = None,
    assigned_by: UUID | None = None,
    status: str = "assigned",
    progress: float = 0.0,
    score: float | None = None,
    started_at: datetime | None = None,
    completed_at: datetime | None = None,
    last_activity_at: datetime | None = None,
    assigned_at: datetime | None = None,
) -> UUID | None:
    """Enroll the user; returns the enrollment's id (None when user or course isn't in the organisation).

    An existing enrollment keeps its progress and state and gets the new deadline and assigner; a
    cancelled one is assigned again. The state arguments (progress, dates; ``assigned_at`` defaults
    to now) only shape a new enrollment: the demo's backdated history.
    """
    row = conn.execute(
        """INSERT INTO enrollments (org_id, user_id, course_id, status, deadline, progress, score,
                                    assigned_by, started_at, completed_at, last_activity_at, created_at)
           SELECT %(org_id)s, u.id, c.id, %(status)s, %(deadline)s, %(progress)s, %(score)s,
                  %(assigned_by)s, %(started_at)s, %(completed_at)s, %(last_activity_at)s,
                  coalesce(%(assigned_at)s, now())
           FROM users u JOIN courses c ON c.org_id = u.org_id
           WHERE u.org_id = %(org_id)s AND u.id = %(user_id)s AND c.id = %(course_id)s
           ON CONFLICT (user_id, course_id) DO UPDATE SET deadline = EXCLUDED.deadline,
               assigned_by = EXCLUDED.assigned_by,
               status = CASE WHEN enrollments.status = 'cancelled' THEN 'assigned' ELSE enrollments.status END
           RETURNING id""",
        {
            "org_id": org_id,
            "user_id": user_id,
            "course_id": course_id,
            "status": status,
            "deadline": deadline,
            "progress": progress,
            "score": score,
            "assigned_by": assigned_by,
            "started_at": started_at,
            "completed_at": completed_at,
            "last_activity_at": last_activity_at,
            "assigned_at": assigned_at,
        },
    ).fetchone()
    return row[0] if row else None


def update_enrollment(
    conn: psycopg.Connection, org_id: UUID, enrollment_id: UUID, *, status: str, progress: float, score: float | None
) -> None:
    """Record progress after an activity: starts the clock once, stamps completion once."""
    conn.execute(
        """UPDATE enrollments SET status = %(status)s, progress = %(progress)s, score = %(score)s,
               started_at = coalesce(started_at, now()), last_activity_at = now(),
               completed_at = CASE WHEN %(status)s = 'completed' THEN coalesce(completed_at, now()) END
           WHERE org_id = %(org_id)s AND id = %(id)s""",
        {"org_id": org_id, "id": enrollment_id, "status": status, "progress": progress, "score": score},
    )


def complete_open_enrollments(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> int:
    """Close the course's open enrollments as completed (the course was archived); how many."""
    return conn.execute(
        """UPDATE enrollments SET status = 'completed', completed_at = coalesce(completed_at, now())
           WHERE org_id = %(org_id)s AND course_id = %(id)s AND status IN ('assigned', 'in_progress')""",
        {"org_id": org_id, "id": course_id},
    ).rowcount


# ---- lesson completions ----------------------------------------------------------------------------


def completed_lessons(conn: psycopg.Connection, org_id: UUID, enrollment_id: UUID) -> set[UUID]:
    rows = conn.execute(
        "SELECT lesson_id FROM lesson_completions WHERE org_id = %(org_id)s AND enrollment_id = %(id)s",
        {"org_id": org_id, "id": enrollment_id},
    ).fetchall()
    return {row[0] for row in rows}


def complete_lesson(
    conn: psycopg.Connection,
    org_id: UUID,
    enrollment_id: UUID,
    lesson_id: UUID,
    *,
    completed_at: datetime | None = None,
) -> bool:
    """Mark the lesson done for this enrollment (at ``completed_at``, default now: the demo backdates);
    False when it already was (or is not the course's)."""
    cur = conn.execute(
        """INSERT INTO lesson_completions (enrollment_id, lesson_id, org_id, completed_at)
           SELECT e.id, l.id, e.org_id, coalesce(%(at)s, now()) FROM enrollments e
           JOIN modules m ON m.course_id = e.course_id AND m.org_id = e.org_id
           JOIN lessons l ON l.module_id = m.id
           WHERE e.org_id = %(org_id)s AND e.id = %(enrollment_id)s AND l.id = %(lesson_id)s
           ON CONFLICT DO NOTHING""",
        {"org_id": org_id, "enrollment_id": enrollment_id, "lesson_id": lesson_id, "at": completed_at},
    )
    return cur.rowcount == 1


# ---- the rows admin alerts are computed from -------------------------------------------------------


@dataclass(frozen=True)
class AlertRow:
    """One open enrollment with what alert rules need. ``outcomes``: per exercise prompt, the
    submitted results newest first (True = correct), the last 10."""

    user_id: UUID
    user_name: str
    course_id: UUID
    course_title: str
    status: str
    progress: float
    deadline: date | None
    assigned_on: date
    last_activity_on: date | None
    outcomes: dict[str, list[bool]]


def alert_rows(conn: psycopg.Connection, org_id: UUID, today: date, lang: str | None = None) -> list[AlertRow]:
    """Open enrollments (assigned or in progress) of active users, with their recent outcomes."""
    params = {"org_id": org_id, "until": today + timedelta(days=1), "lang": lang}
    enrollments = conn.execute(
        f"""SELECT e.user_id, u.full_name, e.course_id, {in_language("c.titles", "c.title")}, e.status, e.progress,
                  e.deadline,
                  e.created_at::date,
                  greatest(e.last_activity_at, e.started_at, u.last_active_at)::date
           FROM enrollments e JOIN users u ON u.id = e.user_id JOIN courses c ON c.id = e.course_id
           WHERE e.org_id = %(org_id)s AND e.status IN ('assigned', 'in_progress') AND u.is_active
             AND c.status <> 'archived'
           ORDER BY u.full_name, c.title""",
        params,
    ).fetchall()
    outcomes: dict[tuple[UUID, UUID], dict[str, list[bool]]] = {}
    for user_id, course_id, prompt, results in conn.execute(
        """SELECT user_id, course_id, prompt, array_agg(is_correct ORDER BY submitted_at DESC)
               FROM (SELECT a.user_id, m.course_id, a.exercise_id, x.prompt, a.is_correct, a.submitted_at,
                            row_number() OVER (PARTITION BY a.user_id, a.exercise_id
                                               ORDER BY a.submitted_at DESC) AS n
                     FROM exercise_attempts a JOIN exercises x ON x.id = a.exercise_id
                     JOIN lessons l ON l.id = x.lesson_id JOIN modules m ON m.id = l.module_id
                     WHERE a.org_id = %(org_id)s AND a.submitted_at IS NOT NULL
                       AND a.submitted_at < %(until)s) recent
               WHERE n <= 10 GROUP BY user_id, course_id, exercise_id, prompt""",
        params,
    ):
        outcomes.setdefault((user_id, course_id), {})[prompt] = list(results)
    return [
        AlertRow(
            user_id,
            name,
            course_id,
            title,
            status,
            progress,
            deadline,
            assigned_on,
            last_on,
            outcomes.get((user_id, course_id), {}),
        )
        for user_id, name, course_id, title, status, progress, deadline, assigned_on, last_on in enrollments
    ]
