"""What is due today, for "¿Qué me toca repasar hoy?" / "What should I review today?" (issue 29, session 22): how
many reviews fall due, the lessons they come from (the first few, most overdue first) and their course, then a
pointer to the whole record, as next_step.py does for "what's my next step?". The full report
(answers.progress_text) stays the answer to "how am I doing?". How long the reviews take is not known: the
attempts store no time spent, so none is claimed.
"""

from __future__ import annotations

import re
from datetime import datetime
from uuid import UUID

import psycopg

from agents.i18n import t
from agents.tutor.guardrails import normalize
from storage import reviews as review_store

SHOWN_LESSONS = 3

# on normalized text (lower case, no accents)
_DUE_TODAY = re.compile(
    r"\b((que|what) (me toca|toca|tengo que|debo|deberia|should i|do i (need to|have to)) (repasar|review)|"
    r"(repasar|review) (algo |anything |something )?(hoy|today)|repasos? (de|para) hoy|reviews? (for|due) today|"
    r"what s due today|"
    r"que (tengo|me toca) (para )?hoy)\b"
)


def asks_due_today(message: str) -> bool:
    """Whether the learner asks what she has to review today (not how she is doing overall)."""
    return bool(_DUE_TODAY.search(normalize(message)))


def due_today(conn: psycopg.Connection, org_id: UUID, user_id: UUID, progress: dict, now: datetime) -> dict:
    """{"reviews": how many are due, "lessons": [{"lesson", "course", "count"}] most overdue first}."""
    courses = {e["course_id"]: e["course"] for e in progress.get("enrollments") or []}
    lessons = review_store.due_reviews_by_lesson(conn, org_id, user_id, now)
    return {
        "reviews": progress.get("reviews_due") or 0,
        "lessons": [
            {"lesson": due.lesson, "course": courses[str(due.course_id)], "count": due.cards}
            for due in lessons
            if str(due.course_id) in courses
        ],
    }


def due_today_text(due: dict, language: str) -> str:
    """How many reviews are due and where from (the first SHOWN_LESSONS lessons), then the pointer to the record."""
    more = t("tutor.next.more", language, ask=t("tutor.suggest.progress", language))
    if not due["reviews"]:
        return f"{t('tutor.due.none', language, ask=t('tutor.suggest.next', language))}\n\n{more}"
    lines = [t("tutor.due.head", language, n=due["reviews"])]
    lines += [
        "- " + t("tutor.due.lesson", language, n=item["count"], lesson=item["lesson"], course=item["course"])
        for item in due["lessons"][:SHOWN_LESSONS]
    ]
    if (rest := len(due["lessons"]) - SHOWN_LESSONS) > 0:
        lines.append("- " + t("tutor.due.rest", language, n=rest))
    return "\n".join(lines) + f"\n\n{t('tutor.due.why', language)} {more}"


def due_today_context(due: dict) -> str:
    """The learner data a model answers the ask from: what is due today, nothing else of the record."""
    lines = [f"- reviews due today: {due['reviews']}"]
    lines += [f"- {item['count']} from lesson {item['lesson']} ({item['course']})" for item in due["lessons"]]
    return "\n".join(lines)
