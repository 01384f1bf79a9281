"""The learner's next step, for "¿Cuál es mi siguiente paso?" / "What's my next step?" (issue 29, session 22): one
line naming the lesson or the reviews to do next, the course and why, then a pointer to the whole record. The full
report (answers.progress_text) stays the answer to "how am I doing?".

What comes next, in this order:
1. a course whose deadline has passed or falls within SOON_DAYS: its first lesson not done (the deadline is why);
2. reviews due: doing them on the day they fall due is what keeps what was learned (the FSRS schedule);
3. the open course with the soonest deadline (the record lists them so): its first lesson not done;
4. nothing open: the learner has finished everything, and "what can I learn today?" is the way on.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from uuid import UUID

import psycopg

from agents.i18n import format_date, format_percent, t
from agents.tutor.guardrails import normalize
from storage import enrollments
from storage import lessons as lesson_store

SOON_DAYS = 7

# on normalized text (lower case, no accents)
_NEXT_STEP = re.compile(
    r"\b(next step|siguiente paso|proximo paso|what s next|what is next|what( should| do) i do next|"
    r"what( should| do) i (do|study|learn) now|que (hago|sigo|estudio) (ahora|despues|luego)|"
    r"que me toca (ahora|hacer|estudiar)|que leccion me toca|which lesson (should i do|do i do|is) next|"
    r"next lesson|siguiente leccion|proxima leccion|por donde sigo|where should i (go|continue) (next|from here))\b"
)


def asks_next_step(message: str) -> bool:
    """Whether the learner asks what to do next (not how she is doing overall)."""
    return bool(_NEXT_STEP.search(normalize(message)))


def _next_lesson(conn: psycopg.Connection, org_id: UUID, user_id: UUID, course_id: str) -> tuple[str, str] | None:
    """(id, title) of the course's first lesson the learner has not completed, in the course's order."""
    enrollment = enrollments.get_enrollment(conn, org_id, user_id, UUID(course_id))
    outline = lesson_store.get_course_outline(conn, org_id, UUID(course_id))
    if enrollment is None or outline is None:
        return None
    done = enrollments.completed_lessons(conn, org_id, enrollment.id)
    lesson = next((lesson for m in outline.modules for lesson in m.lessons if lesson.id not in done), None)
    return (str(lesson.id), lesson.title) if lesson else None


def next_step(conn: psycopg.Connection, org_id: UUID, user_id: UUID, progress: dict, now: datetime) -> dict:
    """{"kind": "lesson" | "reviews" | "done", "why": ..., and what it names} from the learner's record."""
    today = now.date()
    open_courses = [e for e in progress.get("enrollments") or [] if e.get("status") != "completed"]
    reviews = progress.get("reviews_due") or 0

    def lesson_step(course: dict, why: str) -> dict:
        found = _next_lesson(conn, org_id, user_id, course["course_id"])
        return {
            "kind": "lesson",
            "why": why,
            "course": course["course"],
            "course_id": course["course_id"],
            "lesson_id": found[0] if found else None,
            "lesson": found[1] if found else None,
            "deadline": course.get("deadline"),
            "progress": course.get("progress") or 0,
            "reviews": reviews,
        }

    for course in open_courses:  # soonest deadline first
        if course.get("deadline") and (date.fromisoformat(course["deadline"]) - today).days <= SOON_DAYS:
            overdue = date.fromisoformat(course["deadline"]) < today
            return lesson_step(course, "overdue" if overdue else "deadline")
    if reviews:
        return {"kind": "reviews", "why": "due", "reviews": reviews}
    if open_courses:
        course = open_courses[0]
        return lesson_step(course, "started" if course.get("progress") else "not_started")
    return {"kind": "done", "why": "done"}


def next_step_text(step: dict, language: str) -> str:
    """The next step in one line, then the pointer to the whole record."""
    if step["kind"] == "reviews":
        line = t("tutor.next.reviews", language, n=step["reviews"])
    elif step["kind"] == "done":
        line = t("tutor.next.done", language, ask=t("tutor.suggest.learn", language))
    else:
        what = (
            t("tutor.next.lesson", language, lesson=step["lesson"], course=step["course"])
            if step.get("lesson")
            else t("tutor.next.course", language, course=step["course"])
        )
        why = t(
            f"tutor.next.why.{step['why']}",
            language,
            date=format_date(step["deadline"], language) if step.get("deadline") else "",
            progress=format_percent(step["progress"], language),
        )
        line = f"{what} {why}"
    more = t("tutor.next.more", language, ask=t("tutor.suggest.progress", language))
    return f"{line}\n\n{more}"


def next_step_context(step: dict) -> str:
    """The learner data a model answers the ask from: that one step, nothing else of the record."""
    fields = ", ".join(f"{key}: {value}" for key, value in step.items() if value is not None and key != "course_id")
    return f"- next step ({fields})"


def next_step_action(step: dict | None, language: str) -> list[dict]:
    """A link to the course, at the lesson to do (beside the answer)."""
    if not step or step["kind"] != "lesson":
        return []
    return [
        {
            "kind": "course",
            "id": step["course_id"],
            "lesson": step["lesson_id"],
            "label": t("tutor.adapt.action.lesson", language, title=step["lesson"])
            if step["lesson"]
            else t("tutor.action.course", language, title=step["course"]),
        }
    ]


def reviews_action(step: dict | None, due: dict | None, language: str) -> list[dict]:
    """A link to the reviews page when the answer is the reviews due (the next step, or what is due today)."""
    count = (due or {}).get("reviews") or ((step or {}).get("reviews") if (step or {}).get("kind") == "reviews" else 0)
    return [{"kind": "reviews", "label": t("tutor.action.reviews", language, n=count)}] if count else []
