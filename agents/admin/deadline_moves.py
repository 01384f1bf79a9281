"""A deadline moved for people already enrolled, through assign_course: "Give Harry one more week"
(``extend_days``), "one more month" (``extend_months``: the same day of a later month, or its last day) or
"Move Grace's deadline to 1 March" said without a course.

With no course named, the course is the one open course with a deadline the people have (several: the admin
is asked which, and the answer completes the request). Each person's new deadline is their current one moved
that much later, shown old → new in the preview; a person with no deadline to move, or whose moved
deadline would still be past, gets a line saying so instead.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, timedelta

from agents.admin.resolve import ToolContext, ToolError, resolve_course
from agents.i18n import code_label, format_date, format_percent, t
from storage import enrollments
from storage import users as user_store
from storage.courses import CourseSummary

OPEN = ("assigned", "in_progress")


@dataclass(frozen=True)
class Extension:
    """How much later each deadline moves: days, or whole months (30 Jan + 1 month is 28 Feb, not 1 Mar)."""

    days: int = 0
    months: int = 0

    def after(self, current: date) -> date:
        if not self.months:
            return current + timedelta(days=self.days)
        year, month = divmod(current.month - 1 + self.months, 12)
        year, month = current.year + year, month + 1
        return current.replace(year=year, month=month, day=min(current.day, calendar.monthrange(year, month)[1]))

    def said(self, lang: str) -> str:
        """The amount as the preview says it ("7 days", "1 mes")."""
        if self.months:
            return t("admin.write.amount_months", lang, n=self.months)
        return t("admin.write.amount_days", lang, n=self.days)


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


def extended_deadline(
    ctx: ToolContext, name: str, before: dict | None, extension: Extension
) -> tuple[date | None, str]:
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
    moved = extension.after(current)
    if moved < ctx.today:
        return None, t(
            "admin.write.extend_still_past",
            ctx.lang,
            name=name,
            before=format_date(current, ctx.lang),
            amount=extension.said(ctx.lang),
            after=format_date(moved, ctx.lang),
        )
    return moved, ""
