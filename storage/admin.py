"""What HR admins read and change: employees, courses and their statistics, enrollments, and the
write actions the admin assistant holds until the admin confirms them."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from storage.skills import fold, fold_sql


@dataclass(frozen=True)
class EmployeeSummary:
    id: UUID
    full_name: str
    email: str
    role: str
    is_active: bool
    department: str | None
    job_title: str | None
    active_courses: int
    completed_courses: int
    skills_count: int
    last_active_at: datetime | None


@dataclass(frozen=True)
class Activity:
    at: datetime
    kind: str
    detail: str
    outcome: str | None


@dataclass(frozen=True)
class CourseSummary:
    id: UUID
    title: str
    status: str
    language: str
    enrolled: int
    completed: int
    completion_rate: float
    avg_score: float | None


@dataclass(frozen=True)
class CourseStats:
    id: UUID
    title: str
    status: str
    enrolled: int
    in_progress: int
    completed: int
    overdue: int
    completion_rate: float
    avg_progress: float
    avg_score: float | None


@dataclass(frozen=True)
class ExerciseDifficulty:
    lesson: str
    prompt: str
    type: str
    attempts: int
    people: int
    failure_rate: float


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


_EMPLOYEE_SQL = """
    SELECT u.id, u.full_name, u.email, u.role, u.is_active, u.department, u.job_title,
           (SELECT count(*) FROM enrollments e WHERE e.user_id = u.id
              AND e.status IN ('assigned', 'in_progress'))::int AS active_courses,
           (SELECT count(*) FROM enrollments e WHERE e.user_id = u.id AND e.status = 'completed')::int
              AS completed_courses,
           (SELECT count(*) FROM user_skills us WHERE us.user_id = u.id)::int AS skills_count,
           u.last_active_at
    FROM users u WHERE u.org_id = %(org_id)s"""


def list_employees(conn: psycopg.Connection, org_id: UUID, *, search: str | None = None,
                   role: str | None = None, is_active: bool | None = None) -> list[EmployeeSummary]:
    with conn.cursor(row_factory=class_row(EmployeeSummary)) as cur:
        return cur.execute(
            _EMPLOYEE_SQL + f"""
              AND (%(search)s::text IS NULL OR {fold_sql('u.full_name')} LIKE '%%' || %(search)s || '%%'
                   OR u.email LIKE '%%' || %(search)s || '%%')
              AND (%(role)s::text IS NULL OR u.role = %(role)s)
              AND (%(active)s::boolean IS NULL OR u.is_active = %(active)s)
            ORDER BY u.full_name""",
            {"org_id": org_id, "search": fold(search) if search else None, "role": role,
             "active": is_active}).fetchall()


def find_people(conn: psycopg.Connection, org_id: UUID, name: str) -> list[EmployeeSummary]:
    """People whose name or email contains ``name``; an exact name or email alone wins."""
    found = list_employees(conn, org_id, search=name)
    exact = [p for p in found if fold(name) in (fold(p.full_name), p.email)]
    return exact or found


def recent_activity(conn: psycopg.Connection, org_id: UUID, user_id: UUID, limit: int = 10) -> list[Activity]:
    """Submitted exercise attempts and completed lessons, newest first."""
    with conn.cursor(row_factory=class_row(Activity)) as cur:
        return cur.execute(
            """(SELECT a.submitted_at AS at, 'exercise' AS kind, x.prompt AS detail,
                       CASE WHEN a.is_correct THEN 'correct' WHEN a.is_correct = false THEN 'incorrect'
                       END AS outcome
                FROM exercise_attempts a JOIN exercises x ON x.id = a.exercise_id
                WHERE a.org_id = %(org_id)s AND a.user_id = %(user_id)s AND a.submitted_at IS NOT NULL)
               UNION ALL
               (SELECT lc.completed_at, 'lesson', l.title, NULL
                FROM lesson_completions lc JOIN lessons l ON l.id = lc.lesson_id
                JOIN enrollments e ON e.id = lc.enrollment_id
                WHERE lc.org_id = %(org_id)s AND e.user_id = %(user_id)s)
               ORDER BY at DESC LIMIT %(limit)s""",
            {"org_id": org_id, "user_id": user_id, "limit": limit}).fetchall()


def list_course_summaries(conn: psycopg.Connection, org_id: UUID, *, status: str | None = None) -> list[CourseSummary]:
    with conn.cursor(row_factory=class_row(CourseSummary)) as cur:
        return cur.execute(
            """SELECT c.id, c.title, c.status, c.language,
                      count(e.id) FILTER (WHERE e.status <> 'cancelled')::int AS enrolled,
                      count(e.id) FILTER (WHERE e.status = 'completed')::int AS completed,
                      coalesce(count(e.id) FILTER (WHERE e.status = 'completed')::float
                               / nullif(count(e.id) FILTER (WHERE e.status <> 'cancelled'), 0), 0)
                          AS completion_rate,
                      avg(e.score) FILTER (WHERE e.score IS NOT NULL)::float AS avg_score
               FROM courses c LEFT JOIN enrollments e ON e.course_id = c.id
               WHERE c.org_id = %(org_id)s AND (%(status)s::text IS NULL OR c.status = %(status)s)
               GROUP BY c.id ORDER BY c.title""", {"org_id": org_id, "status": status}).fetchall()


def find_courses(conn: psycopg.Connection, org_id: UUID, title: str) -> list[CourseSummary]:
    """Courses whose title contains ``title``; an exact title alone wins."""
    needle = fold(title)
    found = [c for c in list_course_summaries(conn, org_id) if needle and needle in fold(c.title)]
    exact = [c for c in found if fold(c.title) == needle]
    return exact or found


def course_stats(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> CourseStats | None:
    with conn.cursor(row_factory=class_row(CourseStats)) as cur:
        return cur.execute(
            """SELECT c.id, c.title, c.status,
                      count(e.id) FILTER (WHERE e.status <> 'cancelled')::int AS enrolled,
                      count(e.id) FILTER (WHERE e.status = 'in_progress')::int AS in_progress,
                      count(e.id) FILTER (WHERE e.status = 'completed')::int AS completed,
                      count(e.id) FILTER (WHERE e.status IN ('assigned', 'in_progress')
                                          AND e.deadline < current_date)::int AS overdue,
                      coalesce(count(e.id) FILTER (WHERE e.status = 'completed')::float
                               / nullif(count(e.id) FILTER (WHERE e.status <> 'cancelled'), 0), 0)
                          AS completion_rate,
                      coalesce(avg(e.progress) FILTER (WHERE e.status <> 'cancelled'), 0)::float
                          AS avg_progress,
                      avg(e.score) FILTER (WHERE e.score IS NOT NULL)::float AS avg_score
               FROM courses c LEFT JOIN enrollments e ON e.course_id = c.id
               WHERE c.org_id = %(org_id)s AND c.id = %(course_id)s GROUP BY c.id""",
            {"org_id": org_id, "course_id": course_id}).fetchone()


def hardest_exercises(conn: psycopg.Connection, org_id: UUID, course_id: UUID, limit: int = 5) -> list[ExerciseDifficulty]:
    """The course's exercises with the highest share of failed submitted attempts."""
    with conn.cursor(row_factory=class_row(ExerciseDifficulty)) as cur:
        return cur.execute(
            """SELECT l.title AS lesson, x.prompt, x.type, count(a.id)::int AS attempts,
                      count(DISTINCT a.user_id)::int AS people,
                      (count(a.id) FILTER (WHERE NOT a.is_correct))::float / count(a.id) AS failure_rate
               FROM exercises x JOIN lessons l ON l.id = x.lesson_id JOIN modules m ON m.id = l.module_id
               JOIN exercise_attempts a ON a.exercise_id = x.id AND a.submitted_at IS NOT NULL
               WHERE x.org_id = %(org_id)s AND m.course_id = %(course_id)s
               GROUP BY x.id, l.title ORDER BY failure_rate DESC, attempts DESC LIMIT %(limit)s""",
            {"org_id": org_id, "course_id": course_id, "limit": limit}).fetchall()


# ---- pending write actions ---------------------------------------------------------------------

_PENDING_COLUMNS = "id, admin_id, session_id, tool, arguments, preview, status, result, created_at"


def create_pending(conn: psycopg.Connection, org_id: UUID, admin_id: UUID, session_id: UUID | None, *,
                   tool: str, arguments: dict, preview: str) -> PendingAction:
    """Hold a write for the admin's confirm; any older pending action in the session is cancelled."""
    cancel_pending(conn, org_id, admin_id, session_id)
    with conn.cursor(row_factory=class_row(PendingAction)) as cur:
        return cur.execute(
            f"""INSERT INTO admin_pending_actions (org_id, admin_id, session_id, tool, arguments, preview)
                VALUES (%(org_id)s, %(admin_id)s, %(session_id)s, %(tool)s, %(arguments)s, %(preview)s)
                RETURNING {_PENDING_COLUMNS}""",
            {"org_id": org_id, "admin_id": admin_id, "session_id": session_id, "tool": tool,
             "arguments": Jsonb(arguments), "preview": preview}).fetchone()


def get_pending(conn: psycopg.Connection, org_id: UUID, admin_id: UUID, action_id: UUID | str) -> PendingAction | None:
    try:
        action_id = UUID(str(action_id))
    except ValueError:
        return None
    with conn.cursor(row_factory=class_row(PendingAction)) as cur:
        return cur.execute(
            f"""SELECT {_PENDING_COLUMNS} FROM admin_pending_actions
                WHERE org_id = %(org_id)s AND admin_id = %(admin_id)s AND id = %(id)s""",
            {"org_id": org_id, "admin_id": admin_id, "id": action_id}).fetchone()


def claim_pending(conn: psycopg.Connection, org_id: UUID, admin_id: UUID, action_id: UUID | str) -> PendingAction | None:
    """Mark the action executed if, and only if, it is still pending: the write that follows in the
    same transaction therefore happens at most once, however often the confirm arrives."""
    try:
        action_id = UUID(str(action_id))
    except ValueError:
        return None
    with conn.cursor(row_factory=class_row(PendingAction)) as cur:
        return cur.execute(
            f"""UPDATE admin_pending_actions SET status = 'executed', resolved_at = now()
                WHERE org_id = %(org_id)s AND admin_id = %(admin_id)s AND id = %(id)s AND status = 'pending'
                RETURNING {_PENDING_COLUMNS}""",
            {"org_id": org_id, "admin_id": admin_id, "id": action_id}).fetchone()


def set_pending_result(conn: psycopg.Connection, org_id: UUID, action_id: UUID, result: Any) -> None:
    conn.execute("UPDATE admin_pending_actions SET result = %(result)s WHERE org_id = %(org_id)s AND id = %(id)s",
                 {"result": Jsonb(result), "org_id": org_id, "id": action_id})


def cancel_pending(conn: psycopg.Connection, org_id: UUID, admin_id: UUID, session_id: UUID | None) -> int:
    return conn.execute(
        """UPDATE admin_pending_actions SET status = 'cancelled', resolved_at = now()
           WHERE org_id = %(org_id)s AND admin_id = %(admin_id)s AND status = 'pending'
             AND session_id IS NOT DISTINCT FROM %(session_id)s""",
        {"org_id": org_id, "admin_id": admin_id, "session_id": session_id}).rowcount
