"""Demo learning history: enrollments, lesson completions, attempts and review cards, placed in time
relative to the moment the demo is loaded (seeds/data/activity.yaml explains the format).

An enrollment that already exists is left alone, with its history: loading twice changes nothing and a
demo's own progress survives a reload.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

import psycopg
from fsrs import Card, Rating, Scheduler

from agents.i18n import t
from seeds.courses import SeedExercise
from storage import attempts as attempt_store
from storage import enrollments
from storage import exercises as exercise_store
from storage import lessons as lesson_store
from storage import reviews as review_store

_scheduler = Scheduler(enable_fuzzing=False)


@dataclass(frozen=True)
class Result:
    exercise_key: str
    correct: bool
    at: datetime


def answer_for(exercise: SeedExercise, correct: bool, attempt: int, language: str):
    """The answer a learner would have submitted (shapes as the course player submits them)."""
    content = exercise.content
    match exercise.type:
        case "test":
            return content["answer"] if correct else (content["answer"] + 1 + attempt) % len(content["options"])
        case "true_false":
            return content["answer"] if correct else not content["answer"]
        case "fill_blank":
            right = content["answers"][0]
            wrong = str(int(right) * 2) if right.isdigit() else t("seeds.unsure_answer", language)
            return [right if correct else wrong]
        case "order_steps":
            steps = list(content["steps"])
            if not correct:  # one adjacent pair swapped, a different pair each time
                i = attempt % (len(steps) - 1)
                steps[i], steps[i + 1] = steps[i + 1], steps[i]
            return steps
        case "practical_case":
            return content["model_answer"] if correct else content["model_answer"].split(". ")[0] + "."
        case "dialogue":
            return _dialogue_choices(content, correct)
    raise ValueError(f"unknown exercise type {exercise.type}")


def _dialogue_choices(content: dict, correct: bool) -> list[int]:
    choices, node_id = [], content["start"]
    while node_id is not None:
        options = content["nodes"][node_id]["options"]
        index = next(i for i, option in enumerate(options) if option["correct"] == correct)
        choices.append(index)
        node_id = options[index]["next"] if correct else None
    return choices


def _score(exercise: SeedExercise, correct: bool) -> float:
    if correct:
        return 1.0
    return {"order_steps": 0.75, "practical_case": 0.4}.get(exercise.type, 0.0)


def _feedback(correct: bool, language: str) -> str:
    return t("learning.grade.correct" if correct else "seeds.feedback_not_yet", language)


def seed_enrollment(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    slug: str,
    user,
    course_id: UUID,
    language: str,
    plan: dict,
    explicit: dict[str, list[bool]],
    exercises: dict[str, SeedExercise],
    assigned_by: UUID,
    due_now: bool,
    now: datetime,
) -> bool:
    """Create one enrollment with its history; False when it already existed."""
    if enrollments.get_enrollment(conn, org_id, user.id, course_id):
        return False
    lessons = lesson_store.course_lessons(conn, org_id, course_id)
    done = plan["lessons_done"]
    assigned_at = now - timedelta(days=plan["assigned_days_ago"])
    deadline = now + timedelta(days=plan["deadline_days"])
    end = min(now - timedelta(days=plan.get("last_active_days_ago", 1)), deadline - timedelta(days=1))
    end = max(end, assigned_at + timedelta(hours=2))
    completed_at = [assigned_at + (end - assigned_at) * (i + 1) / done for i in range(done)]

    key_of = {exercise.id: key for key, exercise in exercises.items()}
    finished = {
        key_of[x]: at
        for (lesson_id, kind), at in zip(lessons, completed_at)
        if kind == "exercise"
        for x in exercise_store.lesson_exercises(conn, org_id, lesson_id)
    }
    results = [Result(key, True, at - timedelta(minutes=5)) for key, at in finished.items() if key not in explicit]
    for key, outcomes in explicit.items():
        if exercises[key].course_id != course_id:
            continue
        # in a finished lesson: the hours before finishing it; otherwise one a day, up to yesterday
        step, last = (timedelta(hours=1), finished[key]) if key in finished else (timedelta(days=1), now)
        results += [Result(key, ok, last - step * (len(outcomes) - i)) for i, ok in enumerate(outcomes)]
    activity = sorted([r.at for r in results] + completed_at)

    status = plan.get("status") or ("completed" if done == len(lessons) else "in_progress" if activity else "assigned")
    enrollment_id = enrollments.enroll(
        conn,
        org_id,
        user.id,
        course_id,
        deadline=deadline.date(),
        assigned_by=assigned_by,
        status=status,
        progress=done / len(lessons),
        score=plan.get("score"),
        assigned_at=assigned_at,
        started_at=activity[0] - timedelta(minutes=30) if activity else None,
        completed_at=completed_at[-1] if status == "completed" else None,
        last_activity_at=activity[-1] if activity else None,
    )
    if enrollment_id is None:  # user and course are both the organisation's: a broken seed
        raise ValueError(f"could not enroll {user.email} in course {course_id}")
    for (lesson_id, _), at in zip(lessons, completed_at):
        enrollments.complete_lesson(conn, org_id, enrollment_id, lesson_id, completed_at=at)

    last_pass: dict[str, datetime] = {}
    for n, result in enumerate(sorted(results, key=lambda r: r.at)):
        exercise = exercises[result.exercise_key]
        attempt_store.add_past_attempt(
            conn,
            org_id,
            user_id=user.id,
            exercise_id=exercise.id,
            enrollment_id=enrollment_id,
            answer=answer_for(exercise, result.correct, n, language),
            is_correct=result.correct,
            score=_score(exercise, result.correct),
            feedback=_feedback(result.correct, language),
            submitted_at=result.at,
            idempotency_key=f"seed:{slug}:{user.email}:{result.exercise_key}:{n}",
        )
        if result.correct:
            last_pass[result.exercise_key] = result.at
    for key, passed_at in last_pass.items():
        _add_review_card(conn, org_id, user.id, exercises[key].id, passed_at, due_now=due_now, now=now)
    return True


def _add_review_card(
    conn: psycopg.Connection,
    org_id: UUID,
    user_id: UUID,
    exercise_id: UUID,
    passed_at: datetime,
    *,
    due_now: bool,
    now: datetime,
) -> None:
    """The card after a correct answer and a first spaced review; demo sign-ins get it due now."""
    card, _ = _scheduler.review_card(Card(card_id=int(passed_at.timestamp() * 1000)), Rating.Good, passed_at)
    card, _ = _scheduler.review_card(card, Rating.Good, card.due)
    if due_now:
        card.due = now - timedelta(minutes=5)
    review_store.add_past_review_card(
        conn,
        org_id,
        user_id=user_id,
        exercise_id=exercise_id,
        card=card.to_dict(),
        due=card.due,
        last_review=card.last_review,
        reps=2,
    )
