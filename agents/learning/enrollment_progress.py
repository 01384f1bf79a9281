"""An enrollment's progress, status and score recomputed after an activity, with the skill levels its answers
give evidence for (the rules themselves are in progress.py)."""

from __future__ import annotations

from uuid import UUID

import psycopg

from agents.learning import progress
from storage import attempts as attempt_store
from storage import courses as course_store
from storage import enrollments
from storage import lessons as lesson_store
from storage import skills as skill_store
from storage.users import User


def recompute_enrollment(
    conn: psycopg.Connection, user: User, enrollment: enrollments.Enrollment, outline: lesson_store.CourseOutline
) -> tuple[float, str, list[str]]:
    """Progress, status and score of the enrollment after an activity, and skill evidence.
    Returns (progress, status, names of skills raised)."""
    lessons = [lesson for m in outline.modules for lesson in m.lessons]
    records = attempt_store.exercise_records(conn, user.org_id, user.id, enrollment.course_id)
    done_lessons = enrollments.completed_lessons(conn, user.org_id, enrollment.id)
    total_exercises = sum(len(lesson.exercises) for lesson in lessons)
    value = progress.progress(len(lessons), len(done_lessons), total_exercises, sum(r.passed for r in records))
    status = progress.status_for(value, bool(records or done_lessons))
    enrollments.update_enrollment(
        conn,
        user.org_id,
        enrollment.id,
        status=status,
        progress=value,
        score=progress.course_score([r.first_score for r in records]),
    )
    answered: dict[UUID, list[progress.ScoredExercise]] = {}
    for r in records:
        answered.setdefault(r.module_id, []).append(progress.ScoredExercise(r.first_score, r.bloom_level))
    evidence = progress.skill_evidence(
        {m.id: m.skill_id for m in outline.modules},
        {m.id: sum(len(lesson.exercises) for lesson in m.lessons) for m in outline.modules},
        course_store.course_skill_targets(conn, user.org_id, enrollment.course_id),
        answered,
    )
    current = {s.skill_id: s for s in skill_store.user_skills(conn, user.org_id, user.id)}
    raised = []
    for skill_id, level in evidence.items():
        mine = current.get(skill_id)
        new_level = progress.raised_level(mine.level if mine else None, mine.source if mine else None, level)
        if new_level and skill_store.record_skill_evidence(conn, user.org_id, user.id, skill_id, new_level):
            raised.append(skill_id)
    names = {
        s.skill_id: f"{s.skill}: {s.level}" for s in skill_store.user_skills(conn, user.org_id, user.id, user.language)
    }
    return value, status, [names[s] for s in raised if s in names]
