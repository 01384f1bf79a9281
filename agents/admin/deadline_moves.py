"""A deadline moved for people already enrolled, through assign_course: "Give Harry one more week"
(``extend_days``) or "Move Grace's deadline to 1 March" said without a course.

With no course named, the course is the one open course with a deadline the people have (several: the admin
is asked which, and the answer completes the request). Each person's new deadline is their current one moved
``extend_days`` later, shown old → new in the preview; a person with no deadline to move, or whose moved
deadline would still be past, gets a line saying so instead.
"""

from __future__ import annotations

from datetime import date, timedelta

from agents.admin.resolve import ToolContext, ToolError, resolve_course
from agents.i18n import code_label, format_date, format_percent, t
from storage import enrollments
from storage import users as user_store
from storage.courses import CourseSummary

OPEN = ("assigned", "in_progress")


def course_to_move(ctx: ToolContext, people: list[user_store.EmployeeSummary]) -> CourseSummary:
    """The one open course with a deadline these people have."""
    dated: dict = {}
    for person in people:
        for row in enrollments.employee_enrollments(ctx.conn, ctx.org_id, person.id, ctx.lang):
            if row.status in OPEN and row.deadline:
                dated.setdefault(row.course_id, row)
    names = ", ".join(p.full_name for p in people)
    if not dated:
        raise ToolError(t("admin.write.move_no_course", ctx.lang, names=names))
    if len(dated) > 1:
        raise ToolError(
            t("admin.write.move_which_course", ctx.lang, names=names),
            [{"title": row.course, "deadline": format_date(row.deadline, ctx.lang)} for row in dated.values()],
            argument="course_title",
        )
    return resolve_course(ctx, course_id=str(next(iter(dated))))


def open_course_ids(ctx: ToolContext, people: list[user_store.EmployeeSummary]) -> set:
    """The courses these people are taking: a title several courses fit means the one they take."""
    return {
        row.course_id
        for person in people
        for row in enrollments.employee_enrollments(ctx.conn, ctx.org_id, person.id, ctx.lang)
        if row.status in OPEN
    }


def extended_deadline(ctx: ToolContext, name: str, before: dict | None, days: int) -> tuple[date | None, str]:
    """(the new deadline, "") for an open enrollment with a deadline, else (None, the line saying why not)."""
    if before is None:
        return None, t("admin.write.extend_not_enrolled", ctx.lang, name=name)
    if before["status"] not in OPEN or not before["deadline"]:
        state = t(
            "admin.write.assign_state",
            ctx.lang,
            status=code_label("status", before["status"], ctx.lang),
            progress=format_percent(before["progress"], ctx.lang),
        )
        return None, t("admin.write.extend_no_deadline", ctx.lang, name=name, state=state)
    current = date.fromisoformat(before["deadline"])
    moved = current + timedelta(days=days)
    if moved < ctx.today:
        return None, t(
            "admin.write.extend_still_past",
            ctx.lang,
            name=name,
            before=format_date(current, ctx.lang),
            days=days,
            after=format_date(moved, ctx.lang),
        )
    return moved, ""
