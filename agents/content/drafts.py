"""Draft courses — the seeded one, or any course left unpublished — opened and finished in the studio: each
is listed with what it holds, opened in the course player as the admin's preview, and published or deleted
only after the admin confirms what will happen (audit-logged; doing it twice is refused, nothing changes).
Its exercises are edited with the final review's editor, each edit re-reviewed by the course reviewer, or
deleted; both audited."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from agents.content.edits import EditError, apply_patch
from agents.content.review import one_exercise_review
from agents.content.sources import load_sections
from agents.i18n import t
from agents.runtime.deps import AppDeps
from core.inputs import parse_uuid
from storage import audit, item_stats
from storage import courses as course_store
from storage import exercises as exercise_store
from storage import lessons as lesson_store
from storage.course_outline import course_document_ids
from storage.users import User


class DraftError(ValueError):
    """A draft that cannot be published or deleted now (not found, published, deleted, empty); one line,
    nothing changed."""


@dataclass(frozen=True)
class Draft:
    id: UUID
    title: str
    modules: int
    lessons: int
    exercises: int


def _outline(conn, user: User, course_id) -> lesson_store.CourseOutline:
    parsed = parse_uuid(course_id)
    outline = lesson_store.get_course_outline(conn, user.org_id, parsed) if parsed and user.is_admin else None
    if outline is None or outline.course.status != "draft":  # unknown, another organisation's, or published
        raise DraftError(t("content.draft.not_a_draft", user.language))
    return outline


def _draft(outline: lesson_store.CourseOutline, lang: str) -> Draft:
    lessons = [lesson for module in outline.modules for lesson in module.lessons]
    title = (outline.course.titles or {}).get(lang) or outline.course.title  # the reader's language
    return Draft(
        outline.course.id, title, len(outline.modules), len(lessons), sum(len(lesson.exercises) for lesson in lessons)
    )


def drafts(deps: AppDeps, user: User) -> list[Draft]:
    """The organisation's draft courses (admins; others see none)."""
    if not user.is_admin:
        return []
    with deps.pool.connection() as conn:
        return [
            _draft(outline, user.language)
            for course in course_store.list_courses(conn, user.org_id, status="draft")
            if (outline := lesson_store.get_course_outline(conn, user.org_id, course.id)) is not None
        ]


def publish_preview(deps: AppDeps, user: User, course_id) -> str:
    """What publishing the draft will do, in the admin's language; writes nothing."""
    with deps.pool.connection() as conn:
        draft = _draft(_outline(conn, user, course_id), user.language)
    if not draft.lessons:
        raise DraftError(t("content.draft.empty", user.language, title=draft.title))
    return t(
        "content.draft.preview",
        user.language,
        title=draft.title,
        modules=draft.modules,
        lessons=draft.lessons,
        exercises=draft.exercises,
    )


def publish_draft(deps: AppDeps, user: User, course_id) -> str:
    """Publish the draft the admin confirmed; the line to show them."""
    with deps.pool.connection() as conn, conn.transaction():
        draft = _draft(_outline(conn, user, course_id), user.language)
        if not draft.lessons:
            raise DraftError(t("content.draft.empty", user.language, title=draft.title))
        course_store.set_course_status(conn, user.org_id, draft.id, "published")
        audit.record(
            conn,
            user.org_id,
            actor_id=user.id,
            action="content.publish_draft",
            entity_type="course",
            entity_id=draft.id,
            before={"status": "draft"},
            after={"status": "published"},
        )
    return t("content.draft.published", user.language, title=draft.title)


def discard_preview(deps: AppDeps, user: User, course_id) -> str:
    """What deleting the draft will remove, in the admin's language; writes nothing."""
    with deps.pool.connection() as conn:
        draft = _draft(_outline(conn, user, course_id), user.language)
    return t(
        "content.draft.discard_preview",
        user.language,
        title=draft.title,
        modules=draft.modules,
        lessons=draft.lessons,
        exercises=draft.exercises,
    )


def discard_draft(deps: AppDeps, user: User, course_id) -> str:
    """Delete the draft the admin confirmed (what it held goes to the audit log); the line to show them."""
    with deps.pool.connection() as conn, conn.transaction():
        draft = _draft(_outline(conn, user, course_id), user.language)
        if not course_store.delete_draft_course(conn, user.org_id, draft.id):
            raise DraftError(t("content.draft.not_a_draft", user.language))
        audit.record(
            conn,
            user.org_id,
            actor_id=user.id,
            action="content.discard_draft",
            entity_type="course",
            entity_id=draft.id,
            before={
                "status": "draft",
                "title": draft.title,
                "modules": draft.modules,
                "lessons": draft.lessons,
                "exercises": draft.exercises,
            },
            after=None,
        )
    return t("content.draft.discarded", user.language, title=draft.title)


@dataclass(frozen=True)
class DraftExercise:
    """One exercise of a draft course, where the studio lists it (module and exercise numbers from 1)."""

    id: UUID
    module: int
    number: int
    exercise: dict  # type, bloom_level, prompt, content, explanation, source_chunk_ids: the editor's fields


def draft_exercises(deps: AppDeps, user: User, course_id) -> list[DraftExercise]:
    """The draft's live exercises in course order, for the studio's editor."""
    with deps.pool.connection() as conn:
        outline = _outline(conn, user, course_id)
    found = []
    for m, module in enumerate(outline.modules, 1):
        ordered = [x for lesson in module.lessons for x in lesson.exercises]
        for n, x in enumerate(ordered, 1):
            fields = ("type", "bloom_level", "prompt", "content", "explanation", "source_chunk_ids")
            found.append(DraftExercise(x.id, m, n, {name: getattr(x, name) for name in fields}))
    return found


def _exercise_of(conn, user: User, course_id, exercise_id) -> exercise_store.ExerciseRef:
    draft = _outline(conn, user, course_id)
    old = exercise_store.get_exercise(conn, user.org_id, exercise_id)
    if old is None or old.retired or old.course_id != draft.course.id:
        raise DraftError(t("content.draft.exercise_gone", user.language))
    return old


def edit_exercise(deps: AppDeps, user: User, course_id, exercise_id, fields: dict) -> tuple[UUID, list[dict]]:
    """The admin's edit of a draft's exercise (the fields the studio's editor saves), reviewed by the course
    reviewer against the passages it cites, put in its place and audited with what the reviewer found.
    Returns the exercise's new id and the findings (severity, description) to show; an invalid edit is
    refused and changes nothing."""
    with deps.pool.connection() as conn:
        old = _exercise_of(conn, user, course_id, exercise_id)
        language = _outline(conn, user, course_id).course.language
        document_ids = course_document_ids(conn, user.org_id, old.course_id)
    current = {
        "type": old.type,
        "bloom_level": old.bloom_level,
        "prompt": old.prompt,
        "content": old.content,
        "explanation": old.explanation,
        "source_chunk_ids": [str(c) for c in old.source_chunk_ids],
    }
    try:  # the final review's edit, on a one-exercise module: the same fields, checked the same way
        patched = apply_patch(
            {"generated_modules": [{"index": 0, "module_spec": {}, "lessons": [], "exercises": [current]}]},
            {"target": "module.0.exercise.0", "fields": fields},
        )["generated_modules"]
    except EditError as exc:
        raise DraftError(str(exc)) from exc
    edited: dict[str, Any] = patched[0]["exercises"][0] if patched else current
    findings = one_exercise_review(edited, load_sections(deps.pool, user.org_id, document_ids), language)
    with deps.pool.connection() as conn, conn.transaction():
        old = _exercise_of(conn, user, course_id, exercise_id)  # still there, still a draft's
        new_id = item_stats.replace_exercise(
            conn,
            user.org_id,
            old.id,
            reason="draft edit",
            type=old.type,
            prompt=edited["prompt"],
            content=edited["content"],
            bloom_level=edited["bloom_level"],
            explanation=edited["explanation"],
            source_chunk_ids=list(old.source_chunk_ids),
        )
        if new_id is None:
            raise DraftError(t("content.draft.exercise_gone", user.language))
        audit.record(
            conn,
            user.org_id,
            actor_id=user.id,
            action="content.edit_draft_exercise",
            entity_type="exercise",
            entity_id=old.id,
            before={name: getattr(old, name) for name in ("prompt", "content", "explanation", "bloom_level")},
            after={
                "exercise_id": str(new_id),
                **{name: edited[name] for name in fields},
                "review": [{"severity": i["severity"], "code": i["code"]} for i in findings],
            },
        )
    return new_id, findings


def delete_exercise(deps: AppDeps, user: User, course_id, exercise_id) -> str:
    """Take the exercise out of the draft (kept retired with any attempt at it, as a flagged one is); audited.
    The line to show."""
    with deps.pool.connection() as conn, conn.transaction():
        old = _exercise_of(conn, user, course_id, exercise_id)
        draft = _draft(_outline(conn, user, course_id), user.language)
        if not item_stats.retire_exercise(conn, user.org_id, old.id, "deleted from the draft"):
            raise DraftError(t("content.draft.exercise_gone", user.language))
        audit.record(
            conn,
            user.org_id,
            actor_id=user.id,
            action="content.delete_draft_exercise",
            entity_type="exercise",
            entity_id=old.id,
            before={"type": old.type, "prompt": old.prompt, "content": old.content},
            after={"retired": True},
        )
    return t("content.draft.exercise_deleted", user.language, title=draft.title)
