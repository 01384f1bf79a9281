"""The write tools that change a person's learning, assign_course and verify_skill (the two that take
something out of use are in removal_writes.py), and what all four share. ``prepare_*`` resolves the names and
builds the preview (who, what, when, and only what really changes; its rows name each field and its new value,
as the trace's table shows them); ``execute_*`` runs after the admin confirmed that exact pending action
(``agents.admin.nodes.execute_confirmed`` is the only caller) and audits before/after.

A write changes only what the admin asked for: assigning a course to someone already enrolled keeps
their progress and state, and their deadline unless a new one was given (someone who finished it: unchanged).
"""

from __future__ import annotations

from datetime import date
from uuid import UUID

from agents.admin.deadline_moves import (
    OPEN,
    Extension,
    course_to_move,
    deadline_text,
    extended_deadline,
    open_course_ids,
)
from agents.admin.resolve import (
    ToolContext,
    ToolError,
    department_people,
    jsonable,
    parse_deadline,
    resolve_course,
    resolve_person,
    resolve_skills,
)
from agents.i18n import code_label, format_date, format_percent, t
from storage import audit, enrollments
from storage import skills as skill_store


def preview_text(ctx: ToolContext, what: str, changes: list[str]) -> str:
    lines = [what, *[f"- {change}" for change in changes], "", t("admin.write.by", ctx.lang, admin=ctx.admin.full_name)]
    return "\n".join(lines)


# ---- assign_course ------------------------------------------------------------------------------


def _enrollment_snapshot(ctx: ToolContext, user_id: UUID, course_id: UUID) -> dict | None:
    """The enrollment as the preview and the audit entry record it (JSON: id, status, ISO deadline)."""
    enrollment = enrollments.get_enrollment(ctx.conn, ctx.org_id, user_id, course_id)
    if enrollment is None:
        return None
    return {
        "id": str(enrollment.id),
        "status": enrollment.status,
        "deadline": enrollment.deadline.isoformat() if enrollment.deadline else None,
        "progress": enrollment.progress,
    }


def _assignment(before: dict | None, deadline) -> dict | None:
    """What assigning does to one person's enrollment: None when nothing would change."""
    asked = deadline.isoformat() if deadline else None
    if before is None:
        return {"status": "assigned", "deadline": asked}
    if before["status"] == "cancelled":
        return {"status": "assigned", "deadline": asked or before["deadline"]}
    if asked is None or asked == before["deadline"] or before["status"] == "completed":
        return None  # a finished course's deadline is history: moving it would change nothing anyone sees
    return {"status": before["status"], "deadline": asked}


def _assignment_line(ctx: ToolContext, name: str, before: dict | None, after: dict | None) -> str:
    lang = ctx.lang
    if before is None:  # _assignment gives a new enrollment its state: after is set
        deadline = after["deadline"] if after is not None else None
        return t("admin.write.assign_new", lang, name=name, deadline=deadline_text(ctx, deadline, set_now=True))
    state = t(
        "admin.write.assign_state",
        lang,
        status=code_label("status", before["status"], lang),
        progress=format_percent(before["progress"], lang),
    )
    if after is None:
        return t(
            "admin.write.assign_unchanged",
            lang,
            name=name,
            state=state,
            deadline=deadline_text(ctx, before["deadline"]),
        )
    if before["status"] == "cancelled":
        return t(
            "admin.write.assign_reopen", lang, name=name, deadline=deadline_text(ctx, after["deadline"], set_now=True)
        )
    return t(
        "admin.write.assign_deadline",
        lang,
        name=name,
        state=state,
        before=deadline_text(ctx, before["deadline"]),
        after=deadline_text(ctx, after["deadline"], set_now=True),
    )


def _extension(args: dict) -> Extension | None:
    """``extend_days`` / ``extend_months`` as whole amounts later (a model may send "7"); None when not asked."""
    amounts = {}
    for unit in ("days", "months"):
        value = args.get(f"extend_{unit}")
        if value not in (None, ""):
            amounts[unit] = int(value)
            if amounts[unit] <= 0:
                raise ValueError(f"extend_{unit} must be positive")
    return Extension(**amounts) if amounts else None


def prepare_assign_course(ctx: ToolContext, args: dict) -> dict:
    people = [resolve_person(ctx, person_id=i) for i in args.get("employee_ids") or []]
    people += [resolve_person(ctx, name=n) for n in args.get("employee_names") or []]
    if args.get("department"):  # "a todo el equipo de Logística": each of its active people, all previewed
        people += department_people(ctx, str(args["department"]))
    people = list({p.id: p for p in people}.values())
    later = _extension(args)
    named = args.get("course_title") or args.get("course_id")
    if not named and people and (later or args.get("deadline")):  # "Give Harry one more week": his open course
        course = course_to_move(ctx, people)
    else:
        among = open_course_ids(ctx, people) if later else None  # "dos semanas más en el de seguridad": theirs
        course = resolve_course(ctx, title=args.get("course_title"), course_id=args.get("course_id"), among=among)
    if course.status == "archived":
        raise ToolError(t("admin.write.course_archived", ctx.lang, title=course.title))
    if not people:
        raise ToolError(t("admin.write.assign_who", ctx.lang))
    deadline = parse_deadline(ctx, args.get("deadline"))
    rows, lines, changing, moved = [], [], [], {}
    for person in people:
        before = _enrollment_snapshot(ctx, person.id, course.id)
        if later:  # each person's own deadline, moved later
            target, refused = extended_deadline(ctx, person.full_name, before, later)
            after = _assignment(before, target) if target else None
            if target:
                moved[str(person.id)] = target.isoformat()
        else:
            after, refused = _assignment(before, deadline), ""
        rows.append(
            {
                "employee": person.full_name,
                "status": before and before["status"],
                "deadline": before and before["deadline"],
                "new_status": after and after["status"],
                "new_deadline": after and after["deadline"],
            }
        )
        lines.append(refused or _assignment_line(ctx, person.full_name, before, after))
        if after is not None:
            changing.append(person)
    if course.status == "draft":  # "Apunta a Sergio a ese curso" after its stats said "borrador": said again here
        lines.append(t("admin.write.assign_draft", ctx.lang, title=course.title))
    if not changing:  # a preview with nothing to confirm would be a write that writes nothing
        raise ToolError(t("admin.write.assign_nothing", ctx.lang, title=course.title) + " " + " ".join(lines))
    if later:
        action = "extend_deadline"
        what = t("admin.write.extend_what", ctx.lang, title=course.title, amount=later.said(ctx.lang), n=len(changing))
    elif all(row["status"] in OPEN for row in rows if row["new_status"]):  # only deadlines move
        action, what = "move_deadline", t("admin.write.move_what", ctx.lang, title=course.title, n=len(changing))
    else:
        action, what = "assign_course", t("admin.write.assign_what", ctx.lang, title=course.title, n=len(changing))
    return {
        "action": action,  # what the chip names: "Apunta a Lucía…", enrolled already, only moves her deadline
        "preview": preview_text(ctx, what, lines),
        "rows": rows,
        "arguments": {
            "course_id": str(course.id),
            "course_title": course.title,
            "employee_ids": [str(p.id) for p in changing],
            "employee_names": [p.full_name for p in changing],
            "deadline": deadline.isoformat() if deadline else None,
            "deadlines": moved,  # person id -> their moved deadline ("one more week" each)
        },
    }


def execute_assign_course(ctx: ToolContext, resolved: dict) -> dict:
    course_id, moved = UUID(resolved["course_id"]), resolved.get("deadlines") or {}
    assigned, rescheduled = [], []  # who was enrolled now; who already was, with their new deadline
    for person_id, person_name in zip(resolved["employee_ids"], resolved["employee_names"], strict=True):
        deadline = parse_deadline(ctx, moved.get(person_id) or resolved.get("deadline"))
        before = _enrollment_snapshot(ctx, UUID(person_id), course_id)
        after = _assignment(before, deadline)
        if after is None:  # changed since the preview so that nothing is left to do
            continue
        enrolled = enrollments.enroll(
            ctx.conn,
            ctx.org_id,
            UUID(person_id),
            course_id,
            deadline=date.fromisoformat(after["deadline"]) if after["deadline"] else None,
            assigned_by=ctx.admin.id,
        )
        after = _enrollment_snapshot(ctx, UUID(person_id), course_id) if enrolled else None
        if after is None:  # the person or the course was deleted since the preview: the whole confirm rolls back
            raise ToolError(t("admin.write.gone", ctx.lang, label=f"{person_name} · {resolved['course_title']}"))
        audit.record(
            ctx.conn,
            ctx.org_id,
            actor_id=ctx.admin.id,
            action="assign_course",
            entity_type="enrollment",
            entity_id=after["id"],
            before=before,
            after={**after, "user_id": person_id, "course_id": str(course_id)},
        )
        if before and before["status"] in OPEN:
            rescheduled.append(f"{person_name} → {deadline_text(ctx, after['deadline'])}")
        else:
            assigned.append(person_name)
    title = resolved["course_title"]
    said = [t("admin.write.assign_done", ctx.lang, title=title, names=", ".join(assigned))] if assigned else []
    if rescheduled:  # "Give Harry one more month": his deadline moved, not a new assignment
        said.append(t("admin.write.deadline_done", ctx.lang, title=title, changes="; ".join(rescheduled)))
    return {"message": " ".join(said)}


# ---- verify_skill -------------------------------------------------------------------------------


def prepare_verify_skill(ctx: ToolContext, args: dict) -> dict:
    person = resolve_person(ctx, name=args.get("employee_name"), person_id=args.get("employee_id"))
    skill = resolve_skills(ctx, args.get("skill_name"), single=True)[0]
    level, lang = args.get("level"), ctx.lang
    if level not in skill_store.LEVELS:
        raise ToolError(
            t(
                "admin.write.level_choice",
                lang,
                levels=", ".join(code_label("level", code, lang) for code in skill_store.LEVELS),
            )
        )
    current = skill_store.get_user_skill(ctx.conn, ctx.org_id, person.id, skill.id)
    name = skill.name_in(lang)
    if current and current.level == level and current.source == "admin":
        raise ToolError(
            t(
                "admin.write.verify_nothing",
                lang,
                name=person.full_name,
                skill=name,
                level=code_label("level", level, lang),
            )
        )
    before = (
        t(
            "admin.write.skill_before",
            lang,
            level=code_label("level", current.level, lang),
            source=code_label("skill_source", current.source, lang),
            date=format_date(current.last_assessed_at, lang),
        )
        if current
        else "—"
    )
    what = t(
        "admin.write.verify_what",
        lang,
        name=person.full_name,
        skill=name,
        before=before,
        after=code_label("level", level, lang),
    )
    return {
        "preview": preview_text(ctx, what, []),
        "rows": [{"employee": person.full_name, "skill": name, "level": current and current.level, "new_level": level}],
        "arguments": {
            "employee_id": str(person.id),
            "employee_name": person.full_name,
            "skill_id": str(skill.id),
            "skill_name": name,
            "level": level,
        },
    }


def execute_verify_skill(ctx: ToolContext, resolved: dict) -> dict:
    user_id, skill_id = UUID(resolved["employee_id"]), UUID(resolved["skill_id"])
    before = skill_store.get_user_skill(ctx.conn, ctx.org_id, user_id, skill_id)
    skill_store.set_skill_level(ctx.conn, ctx.org_id, user_id, skill_id, resolved["level"], verified_by=ctx.admin.id)
    after = skill_store.get_user_skill(ctx.conn, ctx.org_id, user_id, skill_id)
    audit.record(
        ctx.conn,
        ctx.org_id,
        actor_id=ctx.admin.id,
        action="verify_skill",
        entity_type="user_skill",
        entity_id=f"{user_id}:{skill_id}",
        before=jsonable(before),
        after=jsonable(after),
    )
    return {
        "message": t(
            "admin.write.verify_done",
            ctx.lang,
            name=resolved["employee_name"],
            level=code_label("level", resolved["level"], ctx.lang),
            skill=resolved["skill_name"],
        )
    }
