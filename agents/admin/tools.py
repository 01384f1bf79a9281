"""The admin assistant's 13 tools: thin wrappers over storage, scoped to the admin's organisation.

A read tool's ``run`` returns its result at once. A write tool's ``run`` only *prepares*: it resolves
the names and returns the preview (who, what, when, what changes); its ``execute`` is reachable only
through ``agents.admin.nodes.execute_confirmed``, after the admin confirms that exact pending action.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable
from uuid import UUID

from agents.admin.resolve import (ToolContext, ToolError, closest_skills, jsonable, parse_deadline, resolve_course,
                                  resolve_person, resolve_skills)
from agents.admin.skill_history import merge_alerts, skill_expiry_alerts
from agents.learning.alerts import compute_alerts
from storage import admin as admin_store
from storage import attempts as attempt_store
from storage import audit, enrollments
from storage import courses as course_store
from storage import exercises as exercise_store
from storage import skills as skill_store
from storage import users as user_store

LEVEL_ENUM = {"type": "string", "enum": list(skill_store.LEVELS)}


@dataclass(frozen=True)
class AdminTool:
    name: str
    description: str
    parameters: dict
    run: Callable[[ToolContext, dict], dict]
    execute: Callable[[ToolContext, dict], dict] | None = None  # write tools only

    @property
    def requires_confirmation(self) -> bool:
        return self.execute is not None

    def openai_schema(self) -> dict:
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": self.parameters}}


def _props(**properties) -> dict:
    return {"type": "object", "properties": properties}


_STR = {"type": "string"}


# ---- reads -------------------------------------------------------------------------------------

def list_employees(ctx: ToolContext, args: dict) -> dict:
    rows = admin_store.list_employees(ctx.conn, ctx.org_id, search=args.get("search") or None,
                                      role=args.get("role") or None, is_active=args.get("is_active"))
    return {"rows": jsonable(rows), "total": len(rows)}


def get_employee_detail(ctx: ToolContext, args: dict) -> dict:
    person = resolve_person(ctx, name=args.get("employee_name"), person_id=args.get("employee_id"))
    return {"employee": jsonable(person),
            "rows": jsonable(skill_store.user_skills(ctx.conn, ctx.org_id, person.id)),
            "enrollments": jsonable(enrollments.employee_enrollments(ctx.conn, ctx.org_id, person.id)),
            "activity": jsonable(attempt_store.recent_activity(ctx.conn, ctx.org_id, person.id))}


def get_skills_matrix(ctx: ToolContext, args: dict) -> dict:
    matrix = skill_store.skills_matrix(ctx.conn, ctx.org_id, category=args.get("category") or None)
    levels = {(c.user_id, c.skill_id): c.level for c in matrix.cells}
    rows = [{"employee": person.full_name, "department": person.department,
             **{skill.name: levels.get((person.id, skill.id), "") for skill in matrix.skills}}
            for person in matrix.employees]
    return {"rows": rows, "employees": len(matrix.employees), "skills": len(matrix.skills)}


def get_skill_gaps(ctx: ToolContext, args: dict) -> dict:
    threshold = max(1, int(args.get("threshold") or 1))
    return {"rows": jsonable(skill_store.skill_gaps(ctx.conn, ctx.org_id, threshold)), "threshold": threshold}


def who_knows(ctx: ToolContext, args: dict) -> dict:
    label = (args.get("skill_name") or "").strip()
    if label and not skill_store.find_skills(ctx.conn, ctx.org_id, label):
        # not a skill of this organisation: an answer ("nobody; closest: …"), not an error
        return {"rows": [], "total": 0, "skills": [], "unknown_skill": label, "closest": closest_skills(ctx, label)}
    skills = resolve_skills(ctx, label, single=False)
    min_level = args.get("min_level") if args.get("min_level") in skill_store.LEVELS else "medium"
    rows = skill_store.who_knows(ctx.conn, ctx.org_id, [s.id for s in skills], min_level)
    return {"rows": jsonable(rows), "skills": [s.name for s in skills], "min_level": min_level}


def list_courses(ctx: ToolContext, args: dict) -> dict:
    status = args.get("status") if args.get("status") in ("draft", "published", "archived") else None
    return {"rows": jsonable(course_store.list_course_summaries(ctx.conn, ctx.org_id, status=status))}


def get_course_stats(ctx: ToolContext, args: dict) -> dict:
    course = resolve_course(ctx, title=args.get("course_title"), course_id=args.get("course_id"))
    return {"course": jsonable(course_store.course_stats(ctx.conn, ctx.org_id, course.id)),
            "rows": jsonable(exercise_store.hardest_exercises(ctx.conn, ctx.org_id, course.id))}


def get_alerts(ctx: ToolContext, args: dict) -> dict:
    alerts = merge_alerts(compute_alerts(enrollments.alert_rows(ctx.conn, ctx.org_id, ctx.today), ctx.today, lang=ctx.lang),
                          skill_expiry_alerts(ctx.conn, ctx.org_id, ctx.today, ctx.lang))
    return {"rows": jsonable(alerts)}


def get_mentorship_suggestions(ctx: ToolContext, args: dict) -> dict:
    return {"rows": jsonable(skill_store.mentorship_suggestions(ctx.conn, ctx.org_id))}


# ---- writes: prepare (preview) and execute (after the confirm) ----------------------------------

def _preview(ctx: ToolContext, what: str, changes: list[str]) -> str:
    when = ctx.say("when you confirm", "cuando confirmes")
    lines = [what, *[f"- {change}" for change in changes], "",
             ctx.say(f"By: {ctx.admin.full_name} · runs {when}", f"Por: {ctx.admin.full_name} · se ejecuta {when}")]
    return "\n".join(lines)


def _enrollment_snapshot(ctx: ToolContext, user_id: UUID, course_id: UUID) -> dict | None:
    """The enrollment as the preview and the audit entry record it (JSON: id, status, ISO deadline)."""
    enrollment = enrollments.get_enrollment(ctx.conn, ctx.org_id, user_id, course_id)
    if enrollment is None:
        return None
    return {"id": str(enrollment.id), "status": enrollment.status,
            "deadline": enrollment.deadline.isoformat() if enrollment.deadline else None,
            "progress": enrollment.progress}


def prepare_assign_course(ctx: ToolContext, args: dict) -> dict:
    course = resolve_course(ctx, title=args.get("course_title"), course_id=args.get("course_id"))
    if course.status == "archived":
        raise ToolError(ctx.say(f"“{course.title}” is archived; it can't be assigned.",
                                f"«{course.title}» está archivado; no se puede asignar."))
    names = [*(args.get("employee_names") or [])]
    people = [resolve_person(ctx, person_id=i) for i in args.get("employee_ids") or []]
    people += [resolve_person(ctx, name=n) for n in names]
    if not people:
        raise ToolError(ctx.say("Tell me who should take the course.", "Dime a quién asigno el curso."))
    people = list({p.id: p for p in people}.values())
    deadline = parse_deadline(ctx, args.get("deadline"))
    rows, changes = [], []
    for person in people:
        before = _enrollment_snapshot(ctx, person.id, course.id)
        after = {"status": before["status"] if before and before["status"] != "cancelled" else "assigned",
                 "deadline": deadline.isoformat() if deadline else None}
        rows.append({"employee": person.full_name, "before": before and {k: before[k] for k in ("status", "deadline")},
                     "after": after})
        changes.append(ctx.say(f"{person.full_name}: " + ("new enrollment" if before is None else
                               f"already {before['status']}, deadline {before['deadline']} → {after['deadline']}"),
                               f"{person.full_name}: " + ("nueva inscripción" if before is None else
                               f"ya {before['status']}, fecha límite {before['deadline']} → {after['deadline']}")))
    what = ctx.say(f"Assign “{course.title}” to {len(people)} employee(s); deadline: {deadline or 'none'}.",
                   f"Asignar «{course.title}» a {len(people)} empleado(s); fecha límite: {deadline or 'ninguna'}.")
    return {"preview": _preview(ctx, what, changes), "rows": rows,
            "arguments": {"course_id": str(course.id), "course_title": course.title,
                          "employee_ids": [str(p.id) for p in people],
                          "employee_names": [p.full_name for p in people],
                          "deadline": deadline.isoformat() if deadline else None}}


def execute_assign_course(ctx: ToolContext, resolved: dict) -> dict:
    course_id, deadline = UUID(resolved["course_id"]), parse_deadline(ctx, resolved.get("deadline"))
    for person_id in resolved["employee_ids"]:
        before = _enrollment_snapshot(ctx, UUID(person_id), course_id)
        enrollments.enroll(ctx.conn, ctx.org_id, UUID(person_id), course_id, deadline=deadline,
                           assigned_by=ctx.admin.id)
        after = _enrollment_snapshot(ctx, UUID(person_id), course_id)
        audit.record(ctx.conn, ctx.org_id, actor_id=ctx.admin.id, action="assign_course", entity_type="enrollment",
                     entity_id=after["id"], before=before,
                     after={**after, "user_id": person_id, "course_id": str(course_id)})
    names = ", ".join(resolved["employee_names"])
    return {"message": ctx.say(f"“{resolved['course_title']}” assigned to {names}.",
                               f"«{resolved['course_title']}» asignado a {names}.")}


def prepare_verify_skill(ctx: ToolContext, args: dict) -> dict:
    person = resolve_person(ctx, name=args.get("employee_name"), person_id=args.get("employee_id"))
    skill = resolve_skills(ctx, args.get("skill_name"), single=True)[0]
    level = args.get("level")
    if level not in skill_store.LEVELS:
        raise ToolError(ctx.say("The level must be low, medium or high.", "El nivel debe ser low, medium o high."))
    current = skill_store.get_user_skill(ctx.conn, ctx.org_id, person.id, skill.id)
    before = f"{current.level} ({current.source}, {current.last_assessed_at:%Y-%m-%d})" if current else "—"
    what = ctx.say(f"Set {person.full_name}'s level in “{skill.name}”: {before} → {level} (verified by admin).",
                   f"Fijar el nivel de {person.full_name} en «{skill.name}»: {before} → {level} (verificado por admin).")
    return {"preview": _preview(ctx, what, []),
            "rows": [{"employee": person.full_name, "skill": skill.name, "before": before, "after": level}],
            "arguments": {"employee_id": str(person.id), "employee_name": person.full_name,
                          "skill_id": str(skill.id), "skill_name": skill.name, "level": level}}


def execute_verify_skill(ctx: ToolContext, resolved: dict) -> dict:
    user_id, skill_id = UUID(resolved["employee_id"]), UUID(resolved["skill_id"])
    before = skill_store.get_user_skill(ctx.conn, ctx.org_id, user_id, skill_id)
    skill_store.set_skill_level(ctx.conn, ctx.org_id, user_id, skill_id, resolved["level"], verified_by=ctx.admin.id)
    after = skill_store.get_user_skill(ctx.conn, ctx.org_id, user_id, skill_id)
    audit.record(ctx.conn, ctx.org_id, actor_id=ctx.admin.id, action="verify_skill", entity_type="user_skill",
                 entity_id=f"{user_id}:{skill_id}", before=jsonable(before), after=jsonable(after))
    return {"message": ctx.say(f"{resolved['employee_name']} is now {resolved['level']} in “{resolved['skill_name']}”.",
                               f"{resolved['employee_name']} tiene ahora nivel {resolved['level']} en «{resolved['skill_name']}».")}


def prepare_deactivate_employee(ctx: ToolContext, args: dict) -> dict:
    person = resolve_person(ctx, name=args.get("employee_name"), person_id=args.get("employee_id"))
    if person.id == ctx.admin.id:
        raise ToolError(ctx.say("You can't deactivate your own account.", "No puedes desactivar tu propia cuenta."))
    if not person.is_active:
        raise ToolError(ctx.say(f"{person.full_name} is already inactive.", f"{person.full_name} ya está inactivo."))
    what = ctx.say(f"Deactivate {person.full_name} ({person.email}): active → inactive. They can no longer sign in; "
                   f"their data is kept.",
                   f"Desactivar a {person.full_name} ({person.email}): activo → inactivo. No podrá iniciar sesión; "
                   f"sus datos se conservan.")
    return {"preview": _preview(ctx, what, []),
            "rows": [{"employee": person.full_name, "email": person.email, "before": "active", "after": "inactive"}],
            "arguments": {"employee_id": str(person.id), "employee_name": person.full_name}}


def execute_deactivate_employee(ctx: ToolContext, resolved: dict) -> dict:
    user_id = UUID(resolved["employee_id"])
    before = user_store.get_user(ctx.conn, ctx.org_id, user_id)
    user_store.set_active(ctx.conn, ctx.org_id, user_id, False)
    audit.record(ctx.conn, ctx.org_id, actor_id=ctx.admin.id, action="deactivate_employee", entity_type="user",
                 entity_id=user_id, before={"is_active": before.is_active}, after={"is_active": False})
    return {"message": ctx.say(f"{resolved['employee_name']} is deactivated.",
                               f"{resolved['employee_name']} está desactivado.")}


def prepare_archive_course(ctx: ToolContext, args: dict) -> dict:
    course = resolve_course(ctx, title=args.get("course_title"), course_id=args.get("course_id"))
    if course.status == "archived":
        raise ToolError(ctx.say(f"“{course.title}” is already archived.", f"«{course.title}» ya está archivado."))
    stats = course_store.course_stats(ctx.conn, ctx.org_id, course.id)
    open_count = stats.enrolled - stats.completed
    what = ctx.say(f"Archive “{course.title}”: {course.status} → archived; {open_count} open enrollment(s) "
                   f"will be marked completed.",
                   f"Archivar «{course.title}»: {course.status} → archived; {open_count} inscripción(es) abiertas "
                   f"se marcarán como completadas.")
    return {"preview": _preview(ctx, what, []),
            "rows": [{"course": course.title, "before": course.status, "after": "archived",
                      "open_enrollments": open_count}],
            "arguments": {"course_id": str(course.id), "course_title": course.title}}


def execute_archive_course(ctx: ToolContext, resolved: dict) -> dict:
    course_id = UUID(resolved["course_id"])
    before = course_store.course_stats(ctx.conn, ctx.org_id, course_id)
    course_store.set_course_status(ctx.conn, ctx.org_id, course_id, "archived")
    closed = enrollments.complete_open_enrollments(ctx.conn, ctx.org_id, course_id)
    audit.record(ctx.conn, ctx.org_id, actor_id=ctx.admin.id, action="archive_course", entity_type="course",
                 entity_id=course_id, before={"status": before.status},
                 after={"status": "archived", "enrollments_completed": closed})
    return {"message": ctx.say(f"“{resolved['course_title']}” archived; {closed} enrollment(s) closed.",
                               f"«{resolved['course_title']}» archivado; {closed} inscripción(es) cerradas.")}


_EMPLOYEE_REF = {"employee_id": {"type": "string", "description": "Employee id, if known"},
                 "employee_name": {"type": "string", "description": "Name or email; partial is fine"}}
_COURSE_REF = {"course_id": {"type": "string"}, "course_title": {"type": "string", "description": "Partial is fine"}}

ADMIN_TOOLS: list[AdminTool] = [
    AdminTool("list_employees", "List employees with status, active courses and skill count. Optional filters: "
              "search (name/email), role, is_active.",
              _props(search=_STR, role={"type": "string", "enum": ["admin", "employee"]},
                     is_active={"type": "boolean"}), list_employees),
    AdminTool("get_employee_detail", "One employee's profile, skills, enrollments and recent activity.",
              _props(**_EMPLOYEE_REF), get_employee_detail),
    AdminTool("get_skills_matrix", "The skills matrix: every active employee's level per skill. Optional category.",
              _props(category=_STR), get_skills_matrix),
    AdminTool("get_skill_gaps", "Skills with fewer than `threshold` experts (people at high level).",
              _props(threshold={"type": "integer", "default": 1}), get_skill_gaps),
    AdminTool("who_knows", "Employees holding a skill at min_level or above (experts, mentors).",
              {**_props(skill_name=_STR, min_level={**LEVEL_ENUM, "default": "medium"}), "required": ["skill_name"]},
              who_knows),
    AdminTool("list_courses", "Courses with status, enrolled count, completions and average score.",
              _props(status={"type": "string", "enum": ["draft", "published", "archived"]}), list_courses),
    AdminTool("get_course_stats", "One course's statistics: enrolled, completion rate, average score, hardest exercises.",
              _props(**_COURSE_REF), get_course_stats),
    AdminTool("get_alerts", "Current alerts: overdue, deadlines at risk, repeated failures, inactive learners, expiring certifications.",
              _props(), get_alerts),
    AdminTool("get_mentorship_suggestions", "Mentor-mentee pairs: high-level people with low-level people on the same skill.",
              _props(), get_mentorship_suggestions),
    AdminTool("assign_course", "WRITE (needs the admin's confirm): assign a course to employees, optional deadline "
              "(YYYY-MM-DD).",
              {**_props(**_COURSE_REF, employee_ids={"type": "array", "items": _STR},
                        employee_names={"type": "array", "items": _STR}, deadline={"type": "string", "format": "date"}),
               "required": ["course_title"]}, prepare_assign_course, execute_assign_course),
    AdminTool("verify_skill", "WRITE (needs the admin's confirm): set an employee's skill level, overriding checkpoints.",
              {**_props(**_EMPLOYEE_REF, skill_name=_STR, level=LEVEL_ENUM), "required": ["skill_name", "level"]},
              prepare_verify_skill, execute_verify_skill),
    AdminTool("deactivate_employee", "WRITE (needs the admin's confirm): deactivate an account; data is kept.",
              _props(**_EMPLOYEE_REF), prepare_deactivate_employee, execute_deactivate_employee),
    AdminTool("archive_course", "WRITE (needs the admin's confirm): archive a course; open enrollments become completed.",
              _props(**_COURSE_REF), prepare_archive_course, execute_archive_course),
]
TOOLS_BY_NAME = {tool.name: tool for tool in ADMIN_TOOLS}
WRITE_TOOLS = frozenset(tool.name for tool in ADMIN_TOOLS if tool.requires_confirmation)
