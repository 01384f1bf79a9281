"""A deadline moved for people already enrolled, through assign_course: "Give Harry one more week"
(``extend_days``), "one more month" (``extend_months``: the same day of a later month, or its last day) or
"Move Grace's deadline to 1 March" said without a course.

With no course named, the course is the one open course with a deadline the people have (several: the admin
is asked which, and the answer completes the request). Each person's new deadline is their current one moved
that much later, shown old → new in the preview; an overdue one gets the time from today (an HR admin giving
"one more week" to someone late means a week from now), and its line says so; a person with no deadline to
move gets a line saying so instead.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, timedelta

from agents.admin.resolve import ToolContext, ToolError, resolve_course
from agents.i18n import code_label, format_date, format_percent, format_weekday, t
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


def deadline_text(ctx: ToolContext, deadline, *, set_now: bool = False) -> str:
    """A deadline as the preview says it; one being set names its weekday too ("next Friday": which one), and
    says so when it falls on a weekend ("una semana más" from a Saturday lands on one)."""
    if not deadline:
        return t("admin.write.no_deadline", ctx.lang)
    text = format_date(deadline, ctx.lang)
    if set_now:
        day = date.fromisoformat(deadline) if isinstance(deadline, str) else deadline
        text = t("admin.write.due", ctx.lang, date=text, weekday=format_weekday(day, ctx.lang))
        text += t("admin.write.weekend", ctx.lang) if day.weekday() >= 5 else ""
    return text


def action_name(tool: str, arguments: dict) -> str:
    """What a call does, as its chip names it: an assign_course that moves deadlines later is "extend_deadline"
    ("Dale una semana más a Harry" is no new course), one giving a date with no course "move_deadline"."""
    if tool != "assign_course":
        return tool
    if arguments.get("extend_days") or arguments.get("extend_months"):
        return "extend_deadline"
    named = arguments.get("course_title") or arguments.get("course_id")
    return "move_deadline" if arguments.get("deadline") and not named else tool


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
    """(the new deadline, "") for an open enrollment with a deadline, else (None, the line saying why not). An
    overdue one is given the time from today, which its line says: (the new deadline, that line)."""
    if before is None:
        return None, t("admin.write.extend_not_enrolled", ctx.lang, name=name)
    state = t(
        "admin.write.assign_state",
        ctx.lang,
        status=code_label("status", before["status"], ctx.lang),
        progress=format_percent(before["progress"], ctx.lang),
    )
    if before["status"] not in OPEN or not before["deadline"]:
        return None, t("admin.write.extend_no_deadline", ctx.lang, name=name, state=state)
    current = date.fromisoformat(before["deadline"])
    if current >= ctx.today:
        return extension.after(current), ""
    # "una semana más" for someone already late: a week from today, not a week after a date long gone
    moved = extension.after(ctx.today)
    return moved, t(
        "admin.write.extend_from_today",
        ctx.lang,
        name=name,
        before=format_date(current, ctx.lang),
        amount=extension.said(ctx.lang),
        after=deadline_text(ctx, moved, set_now=True),
        state=state,
    )
