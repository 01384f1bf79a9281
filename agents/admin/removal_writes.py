"""The two write tools that take something out of use: deactivating an employee and archiving a course.
``prepare_*`` builds the preview, ``execute_*`` runs after the admin confirmed that exact pending action and audits
before/after (the other write tools are in writes.py)."""

from __future__ import annotations

from uuid import UUID

from agents.admin.resolve import (
    ToolContext,
    ToolError,
    department_people,
    resolve_course,
    resolve_person,
)
from agents.admin.writes import preview_text
from agents.i18n import code_label, t
from storage import audit, enrollments
from storage import courses as course_store
from storage import users as user_store

# ---- deactivate_employee -------------------------------------------------------------------------


def prepare_deactivate_employee(ctx: ToolContext, args: dict) -> dict:
    named = args.get("employee_name") or args.get("employee_id")
    if args.get("department") and not named:  # "Da de baja a todo el equipo de Logística": who, one by one
        department = str(args["department"])
        raise ToolError(
            t("admin.write.deactivate_one_at_a_time", ctx.lang, department=department),
            [{"name": p.full_name, "email": p.email} for p in department_people(ctx, department)],
            argument="employee_name",
        )
    person = resolve_person(ctx, name=args.get("employee_name"), person_id=args.get("employee_id"))
    if person.id == ctx.admin.id:
        raise ToolError(t("admin.write.deactivate_self", ctx.lang))
    if not person.is_active:
        raise ToolError(t("admin.write.deactivate_already", ctx.lang, name=person.full_name))
    what = t(
        "admin.write.deactivate_what",
        ctx.lang,
        name=person.full_name,
        email=person.email,
        before=code_label("kind", "active", ctx.lang),
        after=code_label("kind", "inactive", ctx.lang),
    )
    return {
        "preview": preview_text(ctx, what, []),
        "rows": [{"employee": person.full_name, "email": person.email, "is_active": True, "new_is_active": False}],
        "arguments": {"employee_id": str(person.id), "employee_name": person.full_name},
    }


def execute_deactivate_employee(ctx: ToolContext, resolved: dict) -> dict:
    user_id = UUID(resolved["employee_id"])
    before = user_store.get_user(ctx.conn, ctx.org_id, user_id)
    if before is None:  # deleted since the preview
        raise ToolError(t("admin.write.gone", ctx.lang, label=resolved["employee_name"]))
    user_store.set_active(ctx.conn, ctx.org_id, user_id, False)
    audit.record(
        ctx.conn,
        ctx.org_id,
        actor_id=ctx.admin.id,
        action="deactivate_employee",
        entity_type="user",
        entity_id=user_id,
        before={"is_active": before.is_active},
        after={"is_active": False},
    )
    return {"message": t("admin.write.deactivate_done", ctx.lang, name=resolved["employee_name"])}


# ---- archive_course ------------------------------------------------------------------------------


def prepare_archive_course(ctx: ToolContext, args: dict) -> dict:
    course = resolve_course(ctx, title=args.get("course_title"), course_id=args.get("course_id"))
    if course.status == "archived":
        raise ToolError(t("admin.write.archive_already", ctx.lang, title=course.title))
    stats = course_store.course_stats(ctx.conn, ctx.org_id, course.id)
    if stats is None:  # resolved a moment ago in this transaction; deleted by another since
        raise ToolError(t("admin.write.gone", ctx.lang, label=course.title))
    open_count = stats.enrolled - stats.completed
    what = t(
        "admin.write.archive_what",
        ctx.lang,
        title=course.title,
        open=open_count,
        before=code_label("status", course.status, ctx.lang),
        after=code_label("status", "archived", ctx.lang),
    )
    return {
        "preview": preview_text(ctx, what, []),
        "rows": [
            {"course": course.title, "status": course.status, "new_status": "archived", "open_enrollments": open_count}
        ],
        "arguments": {"course_id": str(course.id), "course_title": course.title},
    }


def execute_archive_course(ctx: ToolContext, resolved: dict) -> dict:
    course_id = UUID(resolved["course_id"])
    before = course_store.course_stats(ctx.conn, ctx.org_id, course_id)
    if before is None:  # deleted since the preview (a draft can be)
        raise ToolError(t("admin.write.gone", ctx.lang, label=resolved["course_title"]))
    course_store.set_course_status(ctx.conn, ctx.org_id, course_id, "archived")
    closed = enrollments.complete_open_enrollments(ctx.conn, ctx.org_id, course_id)
    audit.record(
        ctx.conn,
        ctx.org_id,
        actor_id=ctx.admin.id,
        action="archive_course",
        entity_type="course",
        entity_id=course_id,
        before={"status": before.status},
        after={"status": "archived", "enrollments_completed": closed},
    )
    return {"message": t("admin.write.archive_done", ctx.lang, title=resolved["course_title"], closed=closed)}
