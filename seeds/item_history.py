"""A past cohort's answers to the check-up course (seeds/data/item_history.yaml explains them), so course
health shows each of its flags with a real cause; then every demo course's item statistics are computed.

A learner already enrolled in the course is left alone: loading twice changes nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

import psycopg

from agents.i18n import t
from seeds.courses import SeedExercise, load_yaml
from storage import attempts as attempt_store
from storage import enrollments, item_stats
from storage import lessons as lesson_store


def _answer(exercise: SeedExercise, mark: str, wrong: str | None):
    """(answer as the course player submits it, right?) for one character of the plan."""
    content = exercise.content
    if exercise.type == "test":
        return int(mark), int(mark) == content["answer"]
    if exercise.type == "true_false":
        return mark == "T", (mark == "T") == content["answer"]
    if exercise.type == "fill_blank":
        return [content["answers"][0] if mark == "1" else wrong], mark == "1"
    raise ValueError(f"the cohort plan does not answer {exercise.type} exercises")


def ensure_item_history(
    conn: psycopg.Connection,
    org_id: UUID,
    plan_path,
    *,
    slug: str,
    users: dict,
    course_id: UUID,
    exercises: dict[str, SeedExercise],
    assigned_by: UUID,
    now: datetime,
) -> int:
    """Enroll the cohort with its answers (completed months ago); returns how many learners were added."""
    plan = load_yaml(plan_path)
    lessons = lesson_store.course_lessons(conn, org_id, course_id)
    oldest, newest = plan["finished_days_ago"]
    cohort, added = plan["cohort"], 0
    for n, email in enumerate(cohort):
        user = users[email]
        if enrollments.get_enrollment(conn, org_id, user.id, course_id):
            continue
        finished = now - timedelta(days=oldest - (oldest - newest) * n / max(1, len(cohort) - 1))
        started = finished - timedelta(hours=2)
        answers = {
            key: _answer(exercises[key], marks[n], plan["wrong"].get(key)) for key, marks in plan["answers"].items()
        }
        score = sum(right for _, right in answers.values()) / len(answers)
        enrollment_id = enrollments.enroll(
            conn,
            org_id,
            user.id,
            course_id,
            deadline=(finished + timedelta(days=7)).date(),
            assigned_by=assigned_by,
            status="completed",
            progress=1.0,
            score=score,
            assigned_at=started - timedelta(days=5),
            started_at=started,
            completed_at=finished,
            last_activity_at=finished,
        )
        if enrollment_id is None:  # user and course are both the organisation's: a broken seed
            raise ValueError(f"could not enroll {email} in course {course_id}")
        for i, (lesson_id, _) in enumerate(lessons):
            enrollments.complete_lesson(
                conn,
                org_id,
                enrollment_id,
                lesson_id,
                completed_at=started + (finished - started) * (i + 1) / len(lessons),
            )
        for i, (key, (answer, right)) in enumerate(answers.items()):
            attempt_store.add_past_attempt(
                conn,
                org_id,
                user_id=user.id,
                exercise_id=exercises[key].id,
                enrollment_id=enrollment_id,
                answer=answer,
                is_correct=right,
                score=float(right),
                feedback=t("learning.grade.correct" if right else "seeds.feedback_not_yet", "en"),
                submitted_at=started + timedelta(minutes=10 + 5 * i),
                idempotency_key=f"seed:{slug}:items:{email}:{key}",
            )
        added += 1
    return added


def refresh_item_statistics(conn: psycopg.Connection, org_id: UUID, course_ids: list[UUID]) -> None:
    """The demo's course health is there at the first look; a course computed before is left alone (later
    answers refresh it through the queue), so a second load changes nothing."""
    for course_id in course_ids:
        if item_stats.computed_at(conn, org_id, course_id) is None:
            item_stats.refresh_course(conn, org_id, course_id)
