"""Draft courses — the seeded one, or any course left unpublished — opened and finished in the studio: each
is listed with what it holds, opened in the course player as the admin's preview, and published or deleted
only after the admin confirms what will happen (audit-logged; doing it twice is refused, nothing changes)."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from agents.i18n import t
from agents.runtime.deps import AppDeps
from core.inputs import parse_uuid
from storage import audit
from storage import courses as course_store
from storage import lessons as lesson_store
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
