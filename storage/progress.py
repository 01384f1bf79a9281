"""A learner's state in one JSON-ready answer (what the tutor reads to answer "how am I doing?")."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import psycopg

from storage import attempts, enrollments, reviews
from storage import skills as skill_store
from storage.rows import scalar


def progress_summary(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, *, now: datetime | None = None, lang: str | None = None
) -> dict:
    """The user's learning state as plain JSON-ready data (the tutor's progress answers), with
    course and skill names in ``lang``.

    {"enrollments": [{course_id, course, status, progress, deadline, score, started_at, completed_at}],
     "skills": [{skill, category, level, source}], "reviews_due": int,
     "recent_failures": [{course, exercise, failed_at}]}
    """
    now = now or scalar(conn, "SELECT now()")
    courses = [
        {
            "course_id": str(e.course_id),
            "course": e.course_title,
            "status": e.status,
            "progress": round(e.progress, 3),
            "deadline": e.deadline.isoformat() if e.deadline else None,
            "score": None if e.score is None else round(e.score, 3),
            "started_at": e.started_at.isoformat() if e.started_at else None,
            "completed_at": e.completed_at.isoformat() if e.completed_at else None,
        }
        for e in enrollments.list_enrollments(conn, org_id, user_id, lang)
    ]
    skills = [
        {"skill": s.skill, "category": s.category, "level": s.level, "source": s.source}
        for s in skill_store.user_skills(conn, org_id, user_id, lang)
    ]
    failures = attempts.recent_failures(conn, org_id, user_id, now, lang=lang)
    return {
        "enrollments": courses,
        "skills": skills,
        "reviews_due": reviews.count_due_reviews(conn, org_id, user_id, now),
        "recent_failures": [
            {"course": course, "exercise": prompt, "failed_at": at.isoformat()} for course, prompt, at in failures
        ],
    }
