"""What learners do: exercise attempts, review cards, skill evidence, and the read models built on
them (the tutor's active attempt and progress answer).

Every function takes the connection first, filters by org_id and never commits. An exercise of
another organisation is indistinguishable from one that does not exist (None).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from storage import enrollments
from storage import skills as skill_store


# ---- exercises and attempts ------------------------------------------------------------------------

@dataclass(frozen=True)
class ExerciseRef:
    """An exercise with the course, module and lesson it belongs to."""
    id: UUID
    course_id: UUID
    module_id: UUID
    lesson_id: UUID
    type: str
    bloom_level: str
    prompt: str
    content: dict
    explanation: str
    source_chunk_ids: list[UUID]


_EXERCISE_SELECT = """
    SELECT x.id, m.course_id, m.id AS module_id, l.id AS lesson_id, x.type, x.bloom_level, x.prompt,
           x.content, x.explanation, x.source_chunk_ids
    FROM exercises x JOIN lessons l ON l.id = x.lesson_id JOIN modules m ON m.id = l.module_id
    WHERE x.org_id = %(org_id)s"""


def get_exercise(conn: psycopg.Connection, org_id: UUID, exercise_id: UUID | str) -> ExerciseRef | None:
    try:
        exercise_id = UUID(str(exercise_id))
    except ValueError:
        return None
    with conn.cursor(row_factory=class_row(ExerciseRef)) as cur:
        return cur.execute(_EXERCISE_SELECT + " AND x.id = %(id)s",
                           {"org_id": org_id, "id": exercise_id}).fetchone()


def course_exercises(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> list[ExerciseRef]:
    with conn.cursor(row_factory=class_row(ExerciseRef)) as cur:
        return cur.execute(_EXERCISE_SELECT + " AND m.course_id = %(course_id)s"
                           " ORDER BY m.position, l.position, x.position",
                           {"org_id": org_id, "course_id": course_id}).fetchall()


def start_attempt(conn: psycopg.Connection, org_id: UUID, user_id: UUID, exercise_id: UUID,
                  enrollment_id: UUID | None) -> UUID:
    """Open (or keep open) the user's attempt at this exercise; any other open attempt is abandoned.

    One open attempt per user at most: that is the "exercise in progress" the tutor must not solve.
    """
    params = {"org_id": org_id, "user_id": user_id, "exercise_id": exercise_id, "enrollment_id": enrollment_id}
    conn.execute("""DELETE FROM exercise_attempts WHERE org_id = %(org_id)s AND user_id = %(user_id)s
                    AND submitted_at IS NULL AND exercise_id <> %(exercise_id)s""", params)
    row = conn.execute("""UPDATE exercise_attempts SET last_seen_at = clock_timestamp()
                          WHERE org_id = %(org_id)s AND user_id = %(user_id)s
                          AND exercise_id = %(exercise_id)s AND submitted_at IS NULL RETURNING id""", params).fetchone()
    if row:
        return row[0]
    return conn.execute("""INSERT INTO exercise_attempts (org_id, user_id, exercise_id, enrollment_id, started_at,
                                                          last_seen_at)
                           VALUES (%(org_id)s, %(user_id)s, %(exercise_id)s, %(enrollment_id)s, clock_timestamp(),
                                   clock_timestamp())
                           RETURNING id""", params).fetchone()[0]


def abandon_attempts(conn: psycopg.Connection, org_id: UUID, user_id: UUID) -> None:
    """Close every open attempt of the user (they left the exercise without answering)."""
    conn.execute("DELETE FROM exercise_attempts WHERE org_id = %(org_id)s AND user_id = %(user_id)s"
                 " AND submitted_at IS NULL", {"org_id": org_id, "user_id": user_id})


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


def submit_attempt(conn: psycopg.Connection, org_id: UUID, user_id: UUID, exercise_id: UUID,
                   enrollment_id: UUID | None, *, answer: Any, is_correct: bool, score: float,
                   feedback: str, idempotency_key: str) -> tuple[Attempt, bool]:
    """Store a graded answer; returns (attempt, counted). A repeated idempotency key counts once:
    the first submission's attempt comes back with counted=False."""
    params = {"org_id": org_id, "user_id": user_id, "exercise_id": exercise_id, "enrollment_id": enrollment_id,
              "answer": Jsonb(answer), "is_correct": is_correct, "score": score, "feedback": feedback,
              "key": idempotency_key}
    with conn.cursor(row_factory=class_row(Attempt)) as cur:
        select_by_key = (f"SELECT {_ATTEMPT_COLUMNS} FROM exercise_attempts WHERE org_id = %(org_id)s"
                         " AND user_id = %(user_id)s AND idempotency_key = %(key)s")
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
                RETURNING {_ATTEMPT_COLUMNS}""", params).fetchone()
        if attempt is None:
            attempt = cur.execute(
                f"""INSERT INTO exercise_attempts (org_id, user_id, exercise_id, enrollment_id, answer,
                        is_correct, score, feedback, idempotency_key, submitted_at)
                    VALUES (%(org_id)s, %(user_id)s, %(exercise_id)s, %(enrollment_id)s, %(answer)s,
                            %(is_correct)s, %(score)s, %(feedback)s, %(key)s, clock_timestamp())
                    ON CONFLICT (idempotency_key) DO NOTHING
                    RETURNING {_ATTEMPT_COLUMNS}""", params).fetchone()
        if attempt is None:  # a concurrent submit with the same key won the race
            return cur.execute(select_by_key, params).fetchone(), False
        return attempt, True


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
            {"org_id": org_id, "user_id": user_id, "course_id": course_id}).fetchall()


def submitted_count(conn: psycopg.Connection, org_id: UUID, user_id: UUID, exercise_id: UUID) -> int:
    """How many answers the user has submitted to this exercise (lesson tries and reviews)."""
    return conn.execute("""SELECT count(*) FROM exercise_attempts WHERE org_id = %(org_id)s AND user_id = %(user_id)s
                           AND exercise_id = %(exercise_id)s AND submitted_at IS NOT NULL""",
                        {"org_id": org_id, "user_id": user_id, "exercise_id": exercise_id}).fetchone()[0]


def last_attempt(conn: psycopg.Connection, org_id: UUID, user_id: UUID, exercise_id: UUID) -> Attempt | None:
    with conn.cursor(row_factory=class_row(Attempt)) as cur:
        return cur.execute(
            f"""SELECT {_ATTEMPT_COLUMNS} FROM exercise_attempts WHERE org_id = %(org_id)s
                AND user_id = %(user_id)s AND exercise_id = %(exercise_id)s AND submitted_at IS NOT NULL
                ORDER BY submitted_at DESC LIMIT 1""",
            {"org_id": org_id, "user_id": user_id, "exercise_id": exercise_id}).fetchone()


# ---- the active attempt (read by the tutor's guardrails) -----------------------------------------

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


def revealing_texts(kind: str, content: dict) -> list[str]:
    """The strings that would give the answer of an exercise away (per the shared content contract)."""
    if kind == "test":
        return [content["options"][content["answer"]]]
    if kind == "true_false":
        if content["answer"]:
            return ["is true", "it's true", "es verdadera", "es verdadero", "es cierto", "es cierta"]
        return ["is false", "it's false", "es falsa", "es falso", "no es cierto", "no es cierta"]
    if kind == "fill_blank":
        return list(content["answers"])
    if kind == "order_steps":
        return ["\n".join(f"{n}. {step}" for n, step in enumerate(content["steps"], 1))]
    if kind == "practical_case":
        return [*content["rubric"], content["model_answer"]]
    if kind == "dialogue":
        return [option["text"] for node in content["nodes"].values() for option in node["options"]
                if option.get("correct")]
    return []


def active_attempt(conn: psycopg.Connection, org_id: UUID, user_id: UUID, *, now: datetime | None = None,
                   max_idle: timedelta | None = None) -> ActiveAttempt | None:
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
        {"org_id": org_id, "user_id": user_id, "now": now, "max_idle": max_idle}).fetchone()
    if row is None:
        return None
    exercise_id, kind, prompt, content, attempt_id, course_id, lesson_id, started_at, hints = row
    return ActiveAttempt(exercise_id, kind, prompt, content, revealing_texts(kind, content), attempt_id,
                         course_id, lesson_id, started_at, hints)


def record_hint(conn: psycopg.Connection, org_id: UUID, attempt_id: UUID) -> None:
    """The tutor gave one more graded hint for this open attempt (asking for it is activity too)."""
    conn.execute("""UPDATE exercise_attempts SET hints_given = hints_given + 1, last_seen_at = clock_timestamp()
                    WHERE org_id = %(org_id)s AND id = %(id)s AND submitted_at IS NULL""",
                 {"org_id": org_id, "id": attempt_id})


# ---- review cards (FSRS state as fsrs.Card.to_dict()) --------------------------------------------

@dataclass(frozen=True)
class ReviewCard:
    exercise_id: UUID
    card: dict
    due: datetime
    last_review: datetime | None
    reps: int


_CARD_COLUMNS = "exercise_id, card, due, last_review, reps"


def get_review_card(conn: psycopg.Connection, org_id: UUID, user_id: UUID, exercise_id: UUID) -> ReviewCard | None:
    with conn.cursor(row_factory=class_row(ReviewCard)) as cur:
        return cur.execute(f"SELECT {_CARD_COLUMNS} FROM review_cards WHERE org_id = %(org_id)s"
                           " AND user_id = %(user_id)s AND exercise_id = %(exercise_id)s",
                           {"org_id": org_id, "user_id": user_id, "exercise_id": exercise_id}).fetchone()


def save_review_card(conn: psycopg.Connection, org_id: UUID, user_id: UUID, exercise_id: UUID, *,
                     card: dict, due: datetime, last_review: datetime) -> None:
    conn.execute(
        """INSERT INTO review_cards (org_id, user_id, exercise_id, card, due, last_review, reps)
           VALUES (%(org_id)s, %(user_id)s, %(exercise_id)s, %(card)s, %(due)s, %(last_review)s, 1)
           ON CONFLICT (user_id, exercise_id) DO UPDATE SET card = EXCLUDED.card, due = EXCLUDED.due,
               last_review = EXCLUDED.last_review, reps = review_cards.reps + 1""",
        {"org_id": org_id, "user_id": user_id, "exercise_id": exercise_id, "card": Jsonb(card), "due": due,
         "last_review": last_review})


_DUE_WHERE = """FROM review_cards r WHERE r.org_id = %(org_id)s AND r.user_id = %(user_id)s AND r.due <= %(now)s
      AND EXISTS (SELECT 1 FROM exercises x JOIN lessons l ON l.id = x.lesson_id
                  JOIN modules m ON m.id = l.module_id JOIN enrollments e ON e.course_id = m.course_id
                  WHERE x.id = r.exercise_id AND e.user_id = r.user_id AND e.status <> 'cancelled')"""


def due_review_cards(conn: psycopg.Connection, org_id: UUID, user_id: UUID, now: datetime,
                     limit: int = 20) -> list[ReviewCard]:
    """Cards due by ``now`` whose course the user is still enrolled in, most overdue first."""
    with conn.cursor(row_factory=class_row(ReviewCard)) as cur:
        return cur.execute(
            f"SELECT r.exercise_id, r.card, r.due, r.last_review, r.reps {_DUE_WHERE} ORDER BY r.due LIMIT %(limit)s",
            {"org_id": org_id, "user_id": user_id, "now": now, "limit": limit}).fetchall()


def count_due_reviews(conn: psycopg.Connection, org_id: UUID, user_id: UUID, now: datetime) -> int:
    return conn.execute(f"SELECT count(*) {_DUE_WHERE}",
                        {"org_id": org_id, "user_id": user_id, "now": now}).fetchone()[0]


# ---- skills ----------------------------------------------------------------------------------------

def course_skill_targets(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> dict[UUID, str]:
    rows = conn.execute("SELECT skill_id, target_level FROM course_skills WHERE org_id = %(org_id)s"
                        " AND course_id = %(course_id)s", {"org_id": org_id, "course_id": course_id})
    return dict(rows.fetchall())


def record_skill_evidence(conn: psycopg.Connection, org_id: UUID, user_id: UUID, skill_id: UUID,
                          level: str) -> bool:
    """Set a checkpoint-earned level. An admin-verified level is never touched (False)."""
    cur = conn.execute(
        """INSERT INTO user_skills (org_id, user_id, skill_id, level, source)
           SELECT %(org_id)s, u.id, s.id, %(level)s, 'checkpoint' FROM users u JOIN skills s ON s.org_id = u.org_id
           WHERE u.org_id = %(org_id)s AND u.id = %(user_id)s AND s.id = %(skill_id)s
           ON CONFLICT (user_id, skill_id) DO UPDATE SET level = EXCLUDED.level, source = 'checkpoint',
               verified_by = NULL, last_assessed_at = now()
           WHERE user_skills.source <> 'admin'""",
        {"org_id": org_id, "user_id": user_id, "skill_id": skill_id, "level": level})
    return cur.rowcount == 1


# ---- read models: progress answer and alert rows ---------------------------------------------------

def progress_summary(conn: psycopg.Connection, org_id: UUID, user_id: UUID, *,
                     now: datetime | None = None) -> dict:
    """The user's learning state as plain JSON-ready data (the tutor's progress answers).

    {"enrollments": [{course_id, course, status, progress, deadline, score, started_at, completed_at}],
     "skills": [{skill, category, level, source}], "reviews_due": int,
     "recent_failures": [{course, exercise, failed_at}]}
    """
    now = now or conn.execute("SELECT now()").fetchone()[0]
    courses = [{"course_id": str(e.course_id), "course": e.course_title, "status": e.status,
                    "progress": round(e.progress, 3), "deadline": e.deadline.isoformat() if e.deadline else None,
                    "score": None if e.score is None else round(e.score, 3),
                    "started_at": e.started_at.isoformat() if e.started_at else None,
                    "completed_at": e.completed_at.isoformat() if e.completed_at else None}
                   for e in enrollments.list_enrollments(conn, org_id, user_id)]
    skills = [{"skill": s.skill, "category": s.category, "level": s.level, "source": s.source}
              for s in skill_store.user_skills(conn, org_id, user_id)]
    failures = conn.execute(
        """SELECT c.title, x.prompt, a.submitted_at FROM exercise_attempts a
           JOIN exercises x ON x.id = a.exercise_id JOIN lessons l ON l.id = x.lesson_id
           JOIN modules m ON m.id = l.module_id JOIN courses c ON c.id = m.course_id
           WHERE a.org_id = %(org_id)s AND a.user_id = %(user_id)s AND a.submitted_at IS NOT NULL
             AND NOT a.is_correct AND a.submitted_at > %(now)s - interval '30 days'
           ORDER BY a.submitted_at DESC LIMIT 5""", {"org_id": org_id, "user_id": user_id, "now": now}).fetchall()
    return {"enrollments": courses, "skills": skills,
            "reviews_due": count_due_reviews(conn, org_id, user_id, now),
            "recent_failures": [{"course": course, "exercise": prompt, "failed_at": at.isoformat()}
                                for course, prompt, at in failures]}


