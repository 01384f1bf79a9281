"""Exercise attempts: the one open attempt a learner has, graded submissions (idempotent), their
history per course, the active attempt the tutor must not solve, and a person's recent activity.

Every function takes the connection first, filters by org_id and never commits.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from core.names import in_language
from storage.exercises import revealing_texts
from storage.rows import one_row, scalar


def start_attempt(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, exercise_id: UUID, enrollment_id: UUID | None
) -> UUID:
    """Open (or keep open) the user's attempt at this exercise; any other open attempt is abandoned.

    One open attempt per user at most: that is the "exercise in progress" the tutor must not solve.
    """
    params = {"org_id": org_id, "user_id": user_id, "exercise_id": exercise_id, "enrollment_id": enrollment_id}
    conn.execute(
        """DELETE FROM exercise_attempts WHERE org_id = %(org_id)s AND user_id = %(user_id)s
                    AND submitted_at IS NULL AND exercise_id <> %(exercise_id)s""",
        params,
    )
    row = conn.execute(
        """UPDATE exercise_attempts SET last_seen_at = clock_timestamp()
                          WHERE org_id = %(org_id)s AND user_id = %(user_id)s
                          AND exercise_id = %(exercise_id)s AND submitted_at IS NULL RETURNING id""",
        params,
    ).fetchone()
    if row:
        return row[0]
    return scalar(
        conn,
        """INSERT INTO exercise_attempts (org_id, user_id, exercise_id, enrollment_id, started_at,
                                                          last_seen_at)
                           VALUES (%(org_id)s, %(user_id)s, %(exercise_id)s, %(enrollment_id)s, clock_timestamp(),
                                   clock_timestamp())
                           RETURNING id""",
        params,
    )


def abandon_attempts(conn: psycopg.Connection, org_id: UUID, user_id: UUID) -> None:
    """Close every open attempt of the user (they left the exercise without answering)."""
    conn.execute(
        "DELETE FROM exercise_attempts WHERE org_id = %(org_id)s AND user_id = %(user_id)s AND submitted_at IS NULL",
        {"org_id": org_id, "user_id": user_id},
    )


@dataclass(frozen=True)
class Attempt:
    id: UUID
    exercise_id: UUID
    enrollment_id: UUID | None
    answer: Any
    is_correct: bool | None
    score: float | None
    feedback: str | None
    submitted_at: datetime | None


_ATTEMPT_COLUMNS = "id, exercise_id, enrollment_id, answer, is_correct, score, feedback, submitted_at"


def submit_attempt(
    conn: psycopg.Connection,
    org_id: UUID,
    user_id: UUID,
    exercise_id: UUID,
    enrollment_id: UUID | None,
    *,
    answer: Any,
    is_correct: bool,
    score: float,
    feedback: str,
    idempotency_key: str,
) -> tuple[Attempt, bool]:
    """Store a graded answer; returns (attempt, counted). A repeated idempotency key counts once:
    the first submission's attempt comes back with counted=False."""
    params = {
        "org_id": org_id,
        "user_id": user_id,
        "exercise_id": exercise_id,
        "enrollment_id": enrollment_id,
        "answer": Jsonb(answer),
        "is_correct": is_correct,
        "score": score,
        "feedback": feedback,
        "key": idempotency_key,
    }
    with conn.cursor(row_factory=class_row(Attempt)) as cur:
        select_by_key = (
            f"SELECT {_ATTEMPT_COLUMNS} FROM exercise_attempts WHERE org_id = %(org_id)s"
            " AND user_id = %(user_id)s AND idempotency_key = %(key)s"
        )
        existing = cur.execute(select_by_key, params).fetchone()
        if existing:
            return existing, False
        attempt = cur.execute(
            f"""UPDATE exercise_attempts SET answer = %(answer)s, is_correct = %(is_correct)s,
                    score = %(score)s, feedback = %(feedback)s, idempotency_key = %(key)s,
                    enrollment_id = coalesce(enrollment_id, %(enrollment_id)s), submitted_at = clock_timestamp()
                WHERE id = (SELECT id FROM exercise_attempts WHERE org_id = %(org_id)s
                              AND user_id = %(user_id)s AND exercise_id = %(exercise_id)s
                              AND submitted_at IS NULL ORDER BY started_at DESC LIMIT 1 FOR UPDATE)
                  AND submitted_at IS NULL
                RETURNING {_ATTEMPT_COLUMNS}""",
            params,
        ).fetchone()
        if attempt is None:
            attempt = cur.execute(
                f"""INSERT INTO exercise_attempts (org_id, user_id, exercise_id, enrollment_id, answer,
                        is_correct, score, feedback, idempotency_key, submitted_at)
                    VALUES (%(org_id)s, %(user_id)s, %(exercise_id)s, %(enrollment_id)s, %(answer)s,
                            %(is_correct)s, %(score)s, %(feedback)s, %(key)s, clock_timestamp())
                    ON CONFLICT (idempotency_key) DO NOTHING
                    RETURNING {_ATTEMPT_COLUMNS}""",
                params,
            ).fetchone()
        if attempt is None:  # a concurrent submit with the same key won the race
            return one_row(cur.execute(select_by_key, params)), False
        return attempt, True


def add_past_attempt(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    user_id: UUID,
    exercise_id: UUID,
    enrollment_id: UUID | None,
    answer: Any,
    is_correct: bool,
    score: float,
    feedback: str,
    submitted_at: datetime,
    idempotency_key: str,
) -> None:
    """A submitted attempt in the past (started a few minutes before it was submitted)."""
    conn.execute(
        """INSERT INTO exercise_attempts (org_id, user_id, exercise_id, enrollment_id, answer, is_correct,
                                          score, feedback, idempotency_key, started_at, submitted_at)
           SELECT %(org_id)s, u.id, %(exercise_id)s, %(enrollment_id)s, %(answer)s, %(is_correct)s,
                  %(score)s, %(feedback)s, %(key)s, %(at)s - interval '4 minutes', %(at)s
           FROM users u WHERE u.org_id = %(org_id)s AND u.id = %(user_id)s
           ON CONFLICT (idempotency_key) DO NOTHING""",
        {
            "org_id": org_id,
            "user_id": user_id,
            "exercise_id": exercise_id,
            "enrollment_id": enrollment_id,
            "answer": Jsonb(answer),
            "is_correct": is_correct,
            "score": score,
            "feedback": feedback,
            "key": idempotency_key,
            "at": submitted_at,
        },
    )


@dataclass(frozen=True)
class ExerciseRecord:
    """A user's submitted history on one exercise of a course (first score, any pass, count)."""

    exercise_id: UUID
    module_id: UUID
    bloom_level: str
    first_score: float
    passed: bool
    attempts: int


def exercise_records(conn: psycopg.Connection, org_id: UUID, user_id: UUID, course_id: UUID) -> list[ExerciseRecord]:
    with conn.cursor(row_factory=class_row(ExerciseRecord)) as cur:
        return cur.execute(
            """SELECT x.id AS exercise_id, m.id AS module_id, x.bloom_level,
                      (array_agg(a.score ORDER BY a.submitted_at))[1] AS first_score,
                      bool_or(a.is_correct) AS passed, count(*)::int AS attempts
               FROM exercise_attempts a JOIN exercises x ON x.id = a.exercise_id
               JOIN lessons l ON l.id = x.lesson_id JOIN modules m ON m.id = l.module_id
               WHERE a.org_id = %(org_id)s AND a.user_id = %(user_id)s AND m.course_id = %(course_id)s
                 AND a.submitted_at IS NOT NULL
               GROUP BY x.id, m.id, x.bloom_level""",
            {"org_id": org_id, "user_id": user_id, "course_id": course_id},
        ).fetchall()


def submitted_count(conn: psycopg.Connection, org_id: UUID, user_id: UUID, exercise_id: UUID) -> int:
    """How many answers the user has submitted to this exercise (lesson tries and reviews)."""
    return scalar(
        conn,
        """SELECT count(*) FROM exercise_attempts WHERE org_id = %(org_id)s AND user_id = %(user_id)s
                           AND exercise_id = %(exercise_id)s AND submitted_at IS NOT NULL""",
        {"org_id": org_id, "user_id": user_id, "exercise_id": exercise_id},
    )


def last_attempt(conn: psycopg.Connection, org_id: UUID, user_id: UUID, exercise_id: UUID) -> Attempt | None:
    with conn.cursor(row_factory=class_row(Attempt)) as cur:
        return cur.execute(
            f"""SELECT {_ATTEMPT_COLUMNS} FROM exercise_attempts WHERE org_id = %(org_id)s
                AND user_id = %(user_id)s AND exercise_id = %(exercise_id)s AND submitted_at IS NOT NULL
                ORDER BY submitted_at DESC LIMIT 1""",
            {"org_id": org_id, "user_id": user_id, "exercise_id": exercise_id},
        ).fetchone()


@dataclass(frozen=True)
class ActiveAttempt:
    exercise_id: UUID
    type: str
    prompt: str
    content: dict
    correct_texts: list[str]
    attempt_id: UUID
    course_id: UUID
    lesson_id: UUID
    started_at: datetime
    hints_given: int


def active_attempt(
    conn: psycopg.Connection,
    org_id: UUID,
    user_id: UUID,
    *,
    now: datetime | None = None,
    max_idle: timedelta | None = None,
) -> ActiveAttempt | None:
    """The exercise the user has open and not yet answered, with what would give its answer away.

    With ``max_idle``, an attempt not seen for that long (measured at ``now``, default the database
    clock) is over: the learner walked away from it.
    """
    row = conn.execute(
        """SELECT x.id, x.type, x.prompt, x.content, a.id, m.course_id, l.id, a.started_at, a.hints_given
           FROM exercise_attempts a JOIN exercises x ON x.id = a.exercise_id
           JOIN lessons l ON l.id = x.lesson_id JOIN modules m ON m.id = l.module_id
           WHERE a.org_id = %(org_id)s AND a.user_id = %(user_id)s AND a.submitted_at IS NULL
             AND (%(max_idle)s::interval IS NULL OR coalesce(a.last_seen_at, a.started_at)
                  >= coalesce(%(now)s::timestamptz, clock_timestamp()) - %(max_idle)s::interval)
           ORDER BY a.started_at DESC LIMIT 1""",
        {"org_id": org_id, "user_id": user_id, "now": now, "max_idle": max_idle},
    ).fetchone()
    if row is None:
        return None
    exercise_id, kind, prompt, content, attempt_id, course_id, lesson_id, started_at, hints = row
    return ActiveAttempt(
        exercise_id,
        kind,
        prompt,
        content,
        revealing_texts(kind, content),
        attempt_id,
        course_id,
        lesson_id,
        started_at,
        hints,
    )


def record_hint(conn: psycopg.Connection, org_id: UUID, attempt_id: UUID) -> None:
    """The tutor gave one more graded hint for this open attempt (asking for it is activity too)."""
    conn.execute(
        """UPDATE exercise_attempts SET hints_given = hints_given + 1, last_seen_at = clock_timestamp()
                    WHERE org_id = %(org_id)s AND id = %(id)s AND submitted_at IS NULL""",
        {"org_id": org_id, "id": attempt_id},
    )


@dataclass(frozen=True)
class Activity:
    at: datetime
    kind: str
    detail: str
    outcome: str | None


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
            {"org_id": org_id, "user_id": user_id, "limit": limit},
        ).fetchall()


def recent_failures(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, now: datetime, limit: int = 5, lang: str | None = None
) -> list[tuple[str, str, datetime]]:
    """(course title in ``lang``, exercise prompt, when) of the user's wrong answers in the 30 days
    before ``now``."""
    return conn.execute(
        f"""SELECT {in_language("c.titles", "c.title")}, x.prompt, a.submitted_at FROM exercise_attempts a
           JOIN exercises x ON x.id = a.exercise_id JOIN lessons l ON l.id = x.lesson_id
           JOIN modules m ON m.id = l.module_id JOIN courses c ON c.id = m.course_id
           WHERE a.org_id = %(org_id)s AND a.user_id = %(user_id)s AND a.submitted_at IS NOT NULL
             AND NOT a.is_correct AND a.submitted_at > %(now)s - interval '30 days'
           ORDER BY a.submitted_at DESC LIMIT %(limit)s""",
        {"org_id": org_id, "user_id": user_id, "now": now, "limit": limit, "lang": lang},
    ).fetchall()
