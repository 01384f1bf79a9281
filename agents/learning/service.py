"""What the learner pages call: one function per page action, each its own transaction.

Refusals raise ``LearningError`` with a one-line message in the user's language and change nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg

from agents.i18n import t
from agents.insights.item_health import defer_item_health
from agents.learning import grading, scheduling
from agents.learning.enrollment_progress import recompute_enrollment
from agents.learning.exercise_sources import Source, exercise_sources
from agents.learning.grading import AnswerError
from agents.learning.review_planning import org_scheduler
from agents.runtime.deps import AppDeps
from core.inputs import parse_uuid
from storage import attempts as attempt_store
from storage import chat, enrollments
from storage import courses as course_store
from storage import exercises as exercise_store
from storage import lessons as lesson_store
from storage import reviews as review_store
from storage import skills as skill_store
from storage.users import User


class LearningError(Exception):
    """A refused learner action; the message is one line, in the user's language."""


REVEAL_AFTER_WRONG_TRIES = 2  # a wrong answer gets a second try before the solution is shown


def _refuse(user: User, code: str) -> LearningError:
    return LearningError(t(f"learning.error.{code}", user.language))


def revealed(correct: bool, tries: int, asked: bool = False) -> bool:
    """Whether the learner may see the solution: after a right answer, the second wrong try, or on request."""
    return correct or asked or tries >= REVEAL_AFTER_WRONG_TRIES


# ---- home and my courses ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HomeView:
    enrollments: list[enrollments.Enrollment]
    reviews_due: int
    recent_chats: list[chat.ChatSession]
    skills: list[skill_store.UserSkill]


def home(deps: AppDeps, user: User) -> HomeView:
    now = deps.now()
    with deps.pool.connection() as conn:
        return HomeView(
            enrollments.list_enrollments(conn, user.org_id, user.id, user.language),
            review_store.count_due_reviews(conn, user.org_id, user.id, now),
            chat.list_sessions(conn, user.org_id, user.id, "tutor", limit=5),
            skill_store.user_skills(conn, user.org_id, user.id, user.language),
        )


def my_courses(deps: AppDeps, user: User) -> list[enrollments.Enrollment]:
    with deps.pool.connection() as conn:
        return enrollments.list_enrollments(conn, user.org_id, user.id, user.language)


# ---- the course player ----------------------------------------------------------------------------


@dataclass
class CourseView:
    enrollment: enrollments.Enrollment
    outline: lesson_store.CourseOutline
    completed_lessons: set[UUID]
    answers: dict[UUID, attempt_store.Attempt]  # exercise -> the user's latest answer
    sources: dict[UUID, list[Source]] = field(default_factory=dict)  # exercise -> where it comes from
    tries: dict[UUID, int] = field(default_factory=dict)  # exercise -> answers submitted
    solutions: dict[UUID, str] = field(default_factory=dict)  # exercise -> the answer in words

    @property
    def lessons(self) -> list[lesson_store.LessonOutline]:
        return [lesson for module in self.outline.modules for lesson in module.lessons]

    def module_of(self, lesson_id: UUID) -> lesson_store.ModuleOutline:
        return next(m for m in self.outline.modules if any(lesson.id == lesson_id for lesson in m.lessons))

    def unanswered(self) -> list[exercise_store.Exercise]:
        return [x for lesson in self.lessons for x in lesson.exercises if x.id not in self.answers]


def _enrollment_for(conn: psycopg.Connection, user: User, course_id: UUID | None) -> enrollments.Enrollment:
    enrollment = enrollments.get_enrollment(conn, user.org_id, user.id, course_id, user.language) if course_id else None
    if enrollment is None or enrollment.status == "cancelled":
        raise _refuse(user, "not_enrolled")
    return enrollment


def _outline(conn: psycopg.Connection, user: User, course_id: UUID) -> lesson_store.CourseOutline:
    """The course's outline; refused like an enrollment when the course is gone (deleted meanwhile)."""
    outline = lesson_store.get_course_outline(conn, user.org_id, course_id)
    if outline is None:
        raise _refuse(user, "not_enrolled")
    return outline


def _with_sources(conn: psycopg.Connection, user: User, view: CourseView) -> CourseView:
    view.sources = {x.id: exercise_sources(conn, user.org_id, x) for lesson in view.lessons for x in lesson.exercises}
    view.solutions = {
        x.id: grading.solution(x.type, x.content, user.language) for lesson in view.lessons for x in lesson.exercises
    }
    return view


def course_view(deps: AppDeps, user: User, course_id: Any) -> CourseView:
    with deps.pool.connection() as conn:
        enrollment = _enrollment_for(conn, user, parse_uuid(course_id))
        outline = _outline(conn, user, enrollment.course_id)
        answers = {}
        for exercise in (x for m in outline.modules for lesson in m.lessons for x in lesson.exercises):
            attempt = attempt_store.last_attempt(conn, user.org_id, user.id, exercise.id)
            if attempt:
                answers[exercise.id] = attempt
        view = CourseView(enrollment, outline, enrollments.completed_lessons(conn, user.org_id, enrollment.id), answers)
        view.tries = {
            r.exercise_id: r.attempts
            for r in attempt_store.exercise_records(conn, user.org_id, user.id, enrollment.course_id)
        }
        return _with_sources(conn, user, view)


def preview_view(deps: AppDeps, user: User, course_id: Any) -> CourseView:
    """An admin's look at any course of their organisation (e.g. just published) without enrolling in it:
    the view of a learner with no progress (``enrollment.status == "preview"``); nothing is recorded."""
    parsed = parse_uuid(course_id)
    with deps.pool.connection() as conn:
        course = course_store.get_course(conn, user.org_id, parsed) if parsed and user.is_admin else None
        if course is None:  # not an admin, unknown, or another organisation's: the same refusal
            raise _refuse(user, "not_enrolled")
        now = deps.now()
        enrollment = enrollments.Enrollment(
            id=course.id,
            user_id=user.id,
            course_id=course.id,
            course_title=course.title,
            course_language=course.language,
            status="preview",
            progress=0.0,
            deadline=None,
            score=None,
            created_at=now,
            started_at=None,
            completed_at=None,
            last_activity_at=None,
        )
        outline = _outline(conn, user, course.id)
        return _with_sources(conn, user, CourseView(enrollment, outline, set(), {}))


def open_exercise(deps: AppDeps, user: User, exercise_id: Any) -> None:
    """The learner is looking at an unanswered exercise: record it as their active attempt."""
    with deps.pool.connection() as conn:
        exercise = _exercise_for(conn, user, exercise_id)
        enrollment = _enrollment_for(conn, user, exercise.course_id)
        attempt_store.start_attempt(conn, user.org_id, user.id, exercise.id, enrollment.id)


def leave_exercises(deps: AppDeps, user: User) -> None:
    with deps.pool.connection() as conn:
        attempt_store.abandon_attempts(conn, user.org_id, user.id)


def _exercise_for(conn: psycopg.Connection, user: User, exercise_id: Any) -> exercise_store.ExerciseRef:
    parsed = parse_uuid(exercise_id)
    exercise = exercise_store.get_exercise(conn, user.org_id, parsed) if parsed else None
    if exercise is None or exercise.retired:  # a retired exercise takes no new attempts
        raise _refuse(user, "no_exercise")
    return exercise


@dataclass(frozen=True)
class Feedback:
    correct: bool
    score: float
    feedback: str
    explanation: str
    sources: list[Source]
    engine: str
    counted: bool  # False: a repeated submission, answered before with this key
    progress: float
    status: str
    skills_raised: list[str]
    next_review: datetime | None
    tries: int = 1  # answers submitted to this exercise so far, this one included
    solution: str = ""  # the correct answer in words; show it only when ``revealed``

    @property
    def revealed(self) -> bool:
        return revealed(self.correct, self.tries)


def submit_answer(deps: AppDeps, user: User, exercise_id: Any, answer: Any, idempotency_key: str) -> Feedback:
    """Grade and record an answer (lesson or review). Refused: another organisation's exercise, a course
    the user is not enrolled in, an answer that does not fit. The same key twice counts once."""
    if not idempotency_key:
        raise _refuse(user, "no_key")
    key = f"{user.id}:{idempotency_key}"
    with deps.pool.connection() as conn:
        exercise = _exercise_for(conn, user, exercise_id)
        enrollment = _enrollment_for(conn, user, exercise.course_id)
        sources = exercise_sources(conn, user.org_id, exercise)
    try:  # graded outside a transaction: the model may take seconds
        grade = grading.grade(
            exercise.type,
            exercise.content,
            answer,
            lang=user.language,
            prompt=exercise.prompt,
            llm=deps.llm,
            embed_query=deps.embed_query,
        )
    except AnswerError as exc:
        raise LearningError(str(exc)) from None
    with deps.pool.connection() as conn:
        attempt, counted = attempt_store.submit_attempt(
            conn,
            user.org_id,
            user.id,
            exercise.id,
            enrollment.id,
            answer=answer,
            is_correct=grade.correct,
            score=grade.score,
            feedback=grade.feedback,
            idempotency_key=key,
        )
        due: datetime | None = None
        skills_raised: list[str] = []
        if counted:
            reviewed_at = attempt.submitted_at
            if reviewed_at is None:  # submit_attempt stamps the time with the answer
                raise RuntimeError(f"submitted attempt {attempt.id} has no submission time")
            card = review_store.get_review_card(conn, user.org_id, user.id, exercise.id)
            state, due = scheduling.review(
                card.card if card else None,
                grade.correct,
                grade.score,
                reviewed_at,
                org_scheduler(conn, user.org_id),
            )
            review_store.save_review_card(
                conn, user.org_id, user.id, exercise.id, card=state, due=due, last_review=reviewed_at
            )
            value, status, skills_raised = recompute_enrollment(
                conn, user, enrollment, _outline(conn, user, enrollment.course_id)
            )
        else:
            # a repeated key: the enrollment as it stands (the one read before grading, if deleted since)
            fresh = enrollments.get_enrollment(conn, user.org_id, user.id, exercise.course_id) or enrollment
            value, status = fresh.progress, fresh.status
        tries = attempt_store.submitted_count(conn, user.org_id, user.id, exercise.id)
        if counted and tries == 1:  # only a first answer changes the course's item statistics
            defer_item_health(conn, user.org_id, exercise.course_id)
    return Feedback(
        bool(attempt.is_correct),
        attempt.score or 0.0,
        attempt.feedback or "",
        exercise.explanation,
        sources,
        grade.engine,
        counted,
        value,
        status,
        skills_raised,
        due,
        tries,
        grading.solution(exercise.type, exercise.content, user.language),
    )


def complete_lesson(deps: AppDeps, user: User, course_id: Any, lesson_id: Any) -> tuple[float, str]:
    """Mark a lesson read; returns the enrollment's (progress, status)."""
    with deps.pool.connection() as conn:
        enrollment = _enrollment_for(conn, user, parse_uuid(course_id))
        parsed = parse_uuid(lesson_id)
        if parsed is None or not (
            enrollments.complete_lesson(conn, user.org_id, enrollment.id, parsed)
            or parsed in enrollments.completed_lessons(conn, user.org_id, enrollment.id)
        ):
            raise _refuse(user, "not_in_course")
        value, status, _ = recompute_enrollment(conn, user, enrollment, _outline(conn, user, enrollment.course_id))
        return value, status


# ---- reviews --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReviewItem:
    exercise: exercise_store.ExerciseRef
    course_title: str
    due: datetime
    reps: int


def due_reviews(deps: AppDeps, user: User, *, now: datetime | None = None) -> list[ReviewItem]:
    now = now or deps.now()
    with deps.pool.connection() as conn:
        titles = {
            e.course_id: e.course_title for e in enrollments.list_enrollments(conn, user.org_id, user.id, user.language)
        }
        items = []
        for card in review_store.due_review_cards(conn, user.org_id, user.id, now):
            exercise = exercise_store.get_exercise(conn, user.org_id, card.exercise_id)
            if exercise and exercise.course_id in titles:
                items.append(ReviewItem(exercise, titles[exercise.course_id], card.due, card.reps))
        return items
