"""Spaced-repetition review cards (FSRS state as ``fsrs.Card.to_dict()``): one per learner and
exercise, and the ones due.

Every function takes the connection first, filters by org_id and never commits.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from storage.rows import scalar


@dataclass(frozen=True)
class ReviewCard:
    exercise_id: UUID
    card: dict
    due: datetime
    last_review: datetime | None
    reps: int


@dataclass(frozen=True)
class DueLesson:
    course_id: UUID
    lesson: str
    cards: int


_CARD_COLUMNS = "exercise_id, card, due, last_review, reps"


def get_review_card(conn: psycopg.Connection, org_id: UUID, user_id: UUID, exercise_id: UUID) -> ReviewCard | None:
    with conn.cursor(row_factory=class_row(ReviewCard)) as cur:
        return cur.execute(
            f"SELECT {_CARD_COLUMNS} FROM review_cards WHERE org_id = %(org_id)s"
            " AND user_id = %(user_id)s AND exercise_id = %(exercise_id)s",
            {"org_id": org_id, "user_id": user_id, "exercise_id": exercise_id},
        ).fetchone()


def save_review_card(
    conn: psycopg.Connection,
    org_id: UUID,
    user_id: UUID,
    exercise_id: UUID,
    *,
    card: dict,
    due: datetime,
    last_review: datetime,
) -> None:
    conn.execute(
        """INSERT INTO review_cards (org_id, user_id, exercise_id, card, due, last_review, reps)
           VALUES (%(org_id)s, %(user_id)s, %(exercise_id)s, %(card)s, %(due)s, %(last_review)s, 1)
           ON CONFLICT (user_id, exercise_id) DO UPDATE SET card = EXCLUDED.card, due = EXCLUDED.due,
               last_review = EXCLUDED.last_review, reps = review_cards.reps + 1""",
        {
            "org_id": org_id,
            "user_id": user_id,
            "exercise_id": exercise_id,
            "card": Jsonb(card),
            "due": due,
            "last_review": last_review,
        },
    )


def add_past_review_card(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    user_id: UUID,
    exercise_id: UUID,
    card: Mapping[str, object],
    due: datetime,
    last_review: datetime | None,
    reps: int,
) -> None:
    conn.execute(
        """INSERT INTO review_cards (org_id, user_id, exercise_id, card, due, last_review, reps)
           SELECT %(org_id)s, u.id, %(exercise_id)s, %(card)s, %(due)s, %(last_review)s, %(reps)s
           FROM users u WHERE u.org_id = %(org_id)s AND u.id = %(user_id)s
           ON CONFLICT (user_id, exercise_id) DO NOTHING""",
        {
            "org_id": org_id,
            "user_id": user_id,
            "exercise_id": exercise_id,
            "card": Jsonb(card),
            "due": due,
            "last_review": last_review,
            "reps": reps,
        },
    )


_DUE_WHERE = """FROM review_cards r WHERE r.org_id = %(org_id)s AND r.user_id = %(user_id)s AND r.due <= %(now)s
      AND EXISTS (SELECT 1 FROM exercises x JOIN lessons l ON l.id = x.lesson_id
                  JOIN modules m ON m.id = l.module_id JOIN enrollments e ON e.course_id = m.course_id
                  WHERE x.id = r.exercise_id AND x.retired_at IS NULL AND e.user_id = r.user_id
                    AND e.status <> 'cancelled')"""


def due_review_cards(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, now: datetime, limit: int = 20
) -> list[ReviewCard]:
    """Cards due by ``now`` whose course the user is still enrolled in, most overdue first."""
    with conn.cursor(row_factory=class_row(ReviewCard)) as cur:
        return cur.execute(
            f"SELECT r.exercise_id, r.card, r.due, r.last_review, r.reps {_DUE_WHERE} ORDER BY r.due LIMIT %(limit)s",
            {"org_id": org_id, "user_id": user_id, "now": now, "limit": limit},
        ).fetchall()


def due_reviews_by_lesson(conn: psycopg.Connection, org_id: UUID, user_id: UUID, now: datetime) -> list[DueLesson]:
    """The lessons the cards due by ``now`` come from (courses still enrolled in), with how many each, most overdue
    first (due alike: a course's lessons in its order)."""
    with conn.cursor(row_factory=class_row(DueLesson)) as cur:
        return cur.execute(
            """SELECT m.course_id, l.title AS lesson, count(*)::int AS cards
               FROM review_cards r JOIN exercises x ON x.id = r.exercise_id AND x.org_id = r.org_id
               JOIN lessons l ON l.id = x.lesson_id JOIN modules m ON m.id = l.module_id
               WHERE r.org_id = %(org_id)s AND r.user_id = %(user_id)s AND r.due <= %(now)s
                 AND x.retired_at IS NULL
                 AND EXISTS (SELECT 1 FROM enrollments e WHERE e.course_id = m.course_id AND e.user_id = r.user_id
                               AND e.status <> 'cancelled')
               GROUP BY m.course_id, m.position, l.id, l.position, l.title
               ORDER BY min(r.due), m.course_id, m.position, l.position""",
            {"org_id": org_id, "user_id": user_id, "now": now},
        ).fetchall()


def count_due_reviews(conn: psycopg.Connection, org_id: UUID, user_id: UUID, now: datetime) -> int:
    return scalar(conn, f"SELECT count(*) {_DUE_WHERE}", {"org_id": org_id, "user_id": user_id, "now": now})
