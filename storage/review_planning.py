"""Review planning: the organisation's FSRS settings, the cards to forecast, the review history."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from storage.rows import one_row


@dataclass(frozen=True)
class ReviewSettings:
    desired_retention: float
    parameters: list[float] | None  # None: FSRS's defaults
    report: dict | None  # the last optimisation: reviews, log-loss before/after, when


@dataclass(frozen=True)
class ForecastCard:
    user_id: UUID
    full_name: str
    card: dict
    due: datetime


@dataclass(frozen=True)
class PastReview:
    user_id: UUID
    exercise_id: UUID
    is_correct: bool
    score: float | None
    submitted_at: datetime


def settings(conn: psycopg.Connection, org_id: UUID) -> ReviewSettings:
    with conn.cursor(row_factory=class_row(ReviewSettings)) as cur:
        return one_row(
            cur.execute(
                """SELECT desired_retention::float AS desired_retention, fsrs_parameters AS parameters,
                                     fsrs_report AS report
                              FROM organizations WHERE id = %(org_id)s""",
                {"org_id": org_id},
            )
        )


def set_desired_retention(conn: psycopg.Connection, org_id: UUID, value: float) -> float:
    """Store the retention; returns the previous one."""
    previous = settings(conn, org_id).desired_retention
    conn.execute(
        "UPDATE organizations SET desired_retention = %(v)s WHERE id = %(org_id)s", {"v": value, "org_id": org_id}
    )
    return previous


def save_parameters(conn: psycopg.Connection, org_id: UUID, parameters: list[float] | None, report: dict) -> None:
    """``parameters`` None: FSRS's defaults (a fit worse than them is reported, not applied)."""
    conn.execute(
        "UPDATE organizations SET fsrs_parameters = %(p)s, fsrs_report = %(r)s WHERE id = %(org_id)s",
        {"p": None if parameters is None else Jsonb(parameters), "r": Jsonb(report), "org_id": org_id},
    )


def forecast_cards(
    conn: psycopg.Connection, org_id: UUID, *, user_id: UUID | None = None, course_id: UUID | None = None
) -> list[ForecastCard]:
    """Active learners' review cards (one learner's, or those of one course's exercises)."""
    with conn.cursor(row_factory=class_row(ForecastCard)) as cur:
        return cur.execute(
            """SELECT r.user_id, u.full_name, r.card, r.due
               FROM review_cards r JOIN users u ON u.id = r.user_id
               JOIN exercises x ON x.id = r.exercise_id JOIN lessons l ON l.id = x.lesson_id
               JOIN modules m ON m.id = l.module_id
               WHERE r.org_id = %(org_id)s AND u.is_active
                 AND (%(user_id)s::uuid IS NULL OR r.user_id = %(user_id)s)
                 AND (%(course_id)s::uuid IS NULL OR m.course_id = %(course_id)s)
               ORDER BY u.full_name, r.due""",
            {"org_id": org_id, "user_id": user_id, "course_id": course_id},
        ).fetchall()


def review_history(conn: psycopg.Connection, org_id: UUID) -> list[PastReview]:
    """Every graded answer of the organisation, oldest first: the reviews FSRS learns from."""
    with conn.cursor(row_factory=class_row(PastReview)) as cur:
        return cur.execute(
            """SELECT user_id, exercise_id, is_correct, score, submitted_at FROM exercise_attempts
               WHERE org_id = %(org_id)s AND submitted_at IS NOT NULL AND is_correct IS NOT NULL
               ORDER BY submitted_at""",
            {"org_id": org_id},
        ).fetchall()
