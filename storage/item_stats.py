"""Item analysis of a course's live exercises, computed from learners' first attempts, and the two
changes a trainer makes to a failing item (retire it; replace it by a regenerated one).

The first answer is the one the score rule counts (agents/learning/progress.py); retries after the
explanation say nothing about the item. A learner's "rest score" is the mean first score on the
course's other live items they answered; discrimination compares it with this item's score:
- point_biserial: Pearson's correlation of the two (for a right/wrong item, the point-biserial);
  NULL when either does not vary (everyone right, or one learner);
- upper_lower: facility among the learners whose rest score is at or above the g-th highest, minus
  facility among those at or below the g-th lowest, g = max(1, round(27 % of the ranked learners));
  learners tied at a boundary are all in the group (Kelley's groups, ties kept together).
Every function takes the connection first, filters by org_id and never commits.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from core.markup import product_text
from storage.rows import scalar

CHOICE_TYPES = ("test", "true_false")
UPPER_LOWER_SHARE = 0.27

_LIVE = """SELECT x.id, x.type FROM exercises x JOIN lessons l ON l.id = x.lesson_id
           JOIN modules m ON m.id = l.module_id
           WHERE x.org_id = %(org_id)s AND m.course_id = %(course_id)s AND x.retired_at IS NULL"""

_FIRSTS = f"""live AS ({_LIVE}),
    firsts AS (
        SELECT DISTINCT ON (a.exercise_id, a.user_id) a.exercise_id, a.user_id, a.score::float8 AS score,
               a.answer, live.type
        FROM exercise_attempts a JOIN live ON live.id = a.exercise_id
        WHERE a.org_id = %(org_id)s AND a.submitted_at IS NOT NULL AND a.score IS NOT NULL
        ORDER BY a.exercise_id, a.user_id, a.submitted_at, a.id)"""

_REFRESH = f"""
    WITH {_FIRSTS},
    learners AS (SELECT user_id, sum(score) AS total, count(*) AS answered FROM firsts GROUP BY user_id),
    scored AS (
        SELECT f.exercise_id, f.score,
               CASE WHEN l.answered > 1 THEN (l.total - f.score) / (l.answered - 1) END AS rest
        FROM firsts f JOIN learners l USING (user_id)),
    ranked AS (
        SELECT s.*, count(rest) OVER (PARTITION BY exercise_id) AS ranked_n,
               row_number() OVER (PARTITION BY exercise_id ORDER BY rest DESC NULLS LAST) AS from_top,
               row_number() OVER (PARTITION BY exercise_id ORDER BY rest ASC NULLS LAST) AS from_bottom
        FROM scored s),
    bounds AS (
        SELECT exercise_id, max(ranked_n)::int AS ranked_n,
               min(rest) FILTER (WHERE from_top <= greatest(1, round(%(share)s * ranked_n))) AS upper_from,
               max(rest) FILTER (WHERE from_bottom <= greatest(1, round(%(share)s * ranked_n))) AS lower_to
        FROM ranked GROUP BY exercise_id),
    figures AS (
        SELECT r.exercise_id, count(*)::int AS attempts, avg(r.score) AS facility, corr(r.score, r.rest) AS pb,
               CASE WHEN b.ranked_n >= 2 THEN avg(r.score) FILTER (WHERE r.rest >= b.upper_from)
                                            - avg(r.score) FILTER (WHERE r.rest <= b.lower_to) END AS ul,
               b.ranked_n
        FROM ranked r JOIN bounds b USING (exercise_id) GROUP BY r.exercise_id, b.ranked_n),
    picks AS (
        SELECT exercise_id, jsonb_object_agg(answer, n) AS picks
        FROM (SELECT exercise_id, answer::text AS answer, count(*) AS n FROM firsts
              WHERE type = ANY(%(choice)s) GROUP BY exercise_id, answer::text) counted
        GROUP BY exercise_id)
    INSERT INTO item_statistics (org_id, course_id, exercise_id, attempts, facility, point_biserial,
                                 upper_lower, ranked, picks, computed_at)
    SELECT %(org_id)s, %(course_id)s, live.id, coalesce(f.attempts, 0), f.facility, f.pb, f.ul,
           coalesce(f.ranked_n, 0), coalesce(p.picks, '{{}}'::jsonb), clock_timestamp()
    FROM live LEFT JOIN figures f ON f.exercise_id = live.id LEFT JOIN picks p ON p.exercise_id = live.id"""


def refresh_course(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> int:
    """Recompute the course's item statistics in one pass over its attempts; returns the items stored."""
    params = {"org_id": org_id, "course_id": course_id, "share": UPPER_LOWER_SHARE, "choice": list(CHOICE_TYPES)}
    conn.execute("DELETE FROM item_statistics WHERE org_id = %(org_id)s AND course_id = %(course_id)s", params)
    return conn.execute(_REFRESH, params).rowcount


def first_answers(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> list[tuple[UUID, UUID, float, Any]]:
    """(exercise, learner, first score, first answer) of every live item: what the statistics read."""
    return conn.execute(
        f"WITH {_FIRSTS} SELECT exercise_id, user_id, score, answer FROM firsts",
        {"org_id": org_id, "course_id": course_id},
    ).fetchall()


@dataclass(frozen=True)
class ItemFigures:
    """One live exercise with where it sits and its stored figures (None: never computed)."""

    exercise_id: UUID
    module_id: UUID
    module_title: str
    module_position: int
    lesson_title: str
    position: int
    type: str
    prompt: str
    content: dict
    attempts: int
    facility: float | None
    point_biserial: float | None
    upper_lower: float | None
    ranked: int
    picks: dict
    computed_at: datetime | None


def course_figures(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> list[ItemFigures]:
    """Every live exercise of the course in order, with its last computed figures."""
    with conn.cursor(row_factory=class_row(ItemFigures)) as cur:
        return cur.execute(
            """SELECT x.id AS exercise_id, m.id AS module_id, m.title AS module_title, m.position AS module_position,
                      l.title AS lesson_title, x.position, x.type, x.prompt, x.content,
                      coalesce(s.attempts, 0) AS attempts, s.facility, s.point_biserial, s.upper_lower,
                      coalesce(s.ranked, 0) AS ranked, coalesce(s.picks, '{}'::jsonb) AS picks, s.computed_at
               FROM exercises x JOIN lessons l ON l.id = x.lesson_id JOIN modules m ON m.id = l.module_id
               LEFT JOIN item_statistics s ON s.exercise_id = x.id
               WHERE x.org_id = %(org_id)s AND m.course_id = %(course_id)s AND x.retired_at IS NULL
               ORDER BY m.position, l.position, x.position""",
            {"org_id": org_id, "course_id": course_id},
        ).fetchall()


def course_attempt_count(conn: psycopg.Connection, org_id: UUID, course_id: UUID, cap: int) -> int:
    """Submitted answers to the course's live items, counted up to ``cap`` + 1 (is a refresh cheap?)."""
    return scalar(
        conn,
        f"""WITH live AS ({_LIVE}) SELECT count(*) FROM (
                                SELECT 1 FROM exercise_attempts a JOIN live ON live.id = a.exercise_id
                                WHERE a.org_id = %(org_id)s AND a.submitted_at IS NOT NULL LIMIT %(cap)s + 1) found""",
        {"org_id": org_id, "course_id": course_id, "cap": cap},
    )


def retire_exercise(conn: psycopg.Connection, org_id: UUID, exercise_id: UUID, reason: str) -> bool:
    """Hide a live exercise from new attempts (its past attempts and their scores stay); False if it was not live."""
    return (
        conn.execute(
            """UPDATE exercises SET retired_at = clock_timestamp(), retired_reason = %(reason)s
           WHERE org_id = %(org_id)s AND id = %(id)s AND retired_at IS NULL""",
            {"org_id": org_id, "id": exercise_id, "reason": reason},
        ).rowcount
        == 1
    )


def replace_exercise(
    conn: psycopg.Connection,
    org_id: UUID,
    exercise_id: UUID,
    *,
    reason: str,
    type: str,
    prompt: str,
    content: dict,
    bloom_level: str,
    explanation: str,
    source_chunk_ids: list[UUID],
) -> UUID | None:
    """Retire the exercise and put a new one in its place (same lesson and position); None if it was not
    live. Content is validated by the caller (storage.exercises.validate_exercise_content)."""
    if not retire_exercise(conn, org_id, exercise_id, reason):
        return None
    new_id = scalar(
        conn,
        """INSERT INTO exercises (org_id, lesson_id, position, type, bloom_level, prompt, content, explanation,
                                  source_chunk_ids)
           SELECT org_id, lesson_id, position, %(type)s, %(bloom)s, %(prompt)s, %(content)s, %(explanation)s,
                  %(chunks)s
           FROM exercises WHERE org_id = %(org_id)s AND id = %(id)s
           RETURNING id""",
        {
            "org_id": org_id,
            "id": exercise_id,
            "type": type,
            "bloom": bloom_level,
            "prompt": product_text(prompt),
            "content": Jsonb(content),
            "explanation": product_text(explanation),
            "chunks": list(source_chunk_ids),
        },
    )
    conn.execute(
        "UPDATE exercises SET replaced_by = %(new)s WHERE org_id = %(org_id)s AND id = %(id)s",
        {"org_id": org_id, "id": exercise_id, "new": new_id},
    )
    return new_id


def computed_at(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> datetime | None:
    """When the course's statistics were last computed (None: never)."""
    return scalar(
        conn,
        "SELECT max(computed_at) FROM item_statistics WHERE org_id = %(org_id)s AND course_id = %(course_id)s",
        {"org_id": org_id, "course_id": course_id},
    )


def course_of_exercise(conn: psycopg.Connection, org_id: UUID, exercise_id: UUID) -> UUID | None:
    row = conn.execute(
        """SELECT m.course_id FROM exercises x JOIN lessons l ON l.id = x.lesson_id
                          JOIN modules m ON m.id = l.module_id WHERE x.org_id = %(org_id)s AND x.id = %(id)s""",
        {"org_id": org_id, "id": exercise_id},
    ).fetchone()
    return row[0] if row else None
