"""A course's tutor mode (issue 29): how the tutor answers learners taking it, set by an admin and audited."""

from __future__ import annotations

from agents.i18n import code_label, t
from agents.runtime.deps import AppDeps
from core.inputs import parse_uuid
from storage import audit, mastery
from storage import courses as course_store
from storage.users import User

MODES = mastery.TUTOR_MODES


class TutorModeError(ValueError):
    """A change refused; the message is one line in the admin's language."""


def current_mode(deps: AppDeps, user: User, course_id) -> str | None:
    found = parse_uuid(course_id)
    if found is None:
        return None
    with deps.pool.connection() as conn:
        return mastery.tutor_mode(conn, user.org_id, found)


def set_mode(deps: AppDeps, user: User, course_id, mode: str) -> str:
    """Set the mode of one of the organisation's courses; the one-line confirmation the admin reads."""
    if not user.is_admin:
        raise TutorModeError(t("content.health.admins_only", user.language))
    if mode not in MODES:
        raise TutorModeError(t("admin.tutor_mode.help", user.language))
    found = parse_uuid(course_id)
    with deps.pool.connection() as conn, conn.transaction():
        course = course_store.get_course(conn, user.org_id, found) if found else None
        before = mastery.set_tutor_mode(conn, user.org_id, course.id, mode) if course else None
        if course is None or before is None:
            raise TutorModeError(t("tutor.error.course_not_found", user.language, ref=str(course_id)[:80]))
        if before != mode:
            audit.record(
                conn,
                user.org_id,
                actor_id=user.id,
                action="course.tutor_mode",
                entity_type="course",
                entity_id=course.id,
                before={"tutor_mode": before},
                after={"tutor_mode": mode},
            )
    title = course.title_in(user.language)
    return t("admin.tutor_mode.saved", user.language, course=title, mode=code_label("tutor_mode", mode, user.language))
