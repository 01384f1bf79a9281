"""The admin assistant's 14 tools: thin wrappers over storage, scoped to the admin's organisation.

A read tool's ``run`` returns its result at once: every match, with ``total`` (the reply names the
first few and says so). A write tool's ``run`` only *prepares* (``agents.admin.writes``): it resolves
the names and returns the preview; its ``execute`` is reachable only through
``agents.admin.nodes.execute_confirmed``, after the admin confirms that exact pending action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agents.admin.department_reads import department_skill_gaps, list_pending_courses, person_skill_gaps
from agents.admin.removal_writes import (
    execute_archive_course,
    execute_deactivate_employee,
    prepare_archive_course,
    prepare_deactivate_employee,
)
from agents.admin.resolve import (
    ToolContext,
    ToolError,
    closest_skills,
    department_members,
    departments_label,
    jsonable,
    resolve_course,
    resolve_person,
)
from agents.admin.skill_reads import get_mentorship_suggestions, get_skills_matrix
from agents.admin.writes import execute_assign_course, execute_verify_skill, prepare_assign_course, prepare_verify_skill
from agents.i18n import t
from agents.insights.alerts import compute_alerts
from agents.insights.skill_history import merge_alerts, skill_expiry_alerts
from storage import attempts as attempt_store
from storage import course_learners, enrollments, skill_matrix
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
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


def _props(**properties) -> dict:
    return {"type": "object", "properties": properties}


_STR = {"type": "string"}


# ---- reads -------------------------------------------------------------------------------------


def list_employees(ctx: ToolContext, args: dict) -> dict:
    rows = user_store.list_employees(
        ctx.conn,
        ctx.org_id,
        search=args.get("search") or None,
        role=args.get("role") or None,
        is_active=args.get("is_active"),
        lang=ctx.lang,
    )
    departments: list[str] = []
    if department := str(args.get("department") or "").strip():  # named in either language; "Stores": each
        departments, members = department_members(ctx, department, family=True)
        rows = [row for row in rows if row.id in members]
    return {"rows": jsonable(rows), "total": len(rows), "departments": departments}


def get_employee_detail(ctx: ToolContext, args: dict) -> dict:
    """A person's record; with a course, how they are doing in it ("¿Qué tal lleva Elena el curso de
    seguridad?": a title several courses fit is the one they are enrolled in)."""
    person = resolve_person(ctx, name=args.get("employee_name"), person_id=args.get("employee_id"))
    taken = enrollments.employee_enrollments(ctx.conn, ctx.org_id, person.id, ctx.lang)
    if args.get("course_title") or args.get("course_id"):
        course = resolve_course(
            ctx, title=args.get("course_title"), course_id=args.get("course_id"), among={e.course_id for e in taken}
        )
        enrollment = next((e for e in taken if e.course_id == course.id), None)
        overdue = bool(enrollment and enrollment.deadline and enrollment.deadline < ctx.today)
        return {
            "employee": jsonable(person),
            "course": course.title,
            "enrollment": enrollment
            and {**jsonable(enrollment), "overdue": overdue and enrollment.status in ("assigned", "in_progress")},
            "rows": jsonable([enrollment] if enrollment else []),
        }
    return {
        "employee": jsonable(person),
        "rows": jsonable(skill_store.user_skills(ctx.conn, ctx.org_id, person.id, ctx.lang)),
        "enrollments": jsonable(taken),
        "activity": jsonable(attempt_store.recent_activity(ctx.conn, ctx.org_id, person.id)),
    }


def get_skill_gaps(ctx: ToolContext, args: dict) -> dict:
    if name := str(args.get("employee_name") or "").strip():  # "What skills is Lucía missing for her role?"
        return person_skill_gaps(ctx, name)
    threshold = max(1, int(args.get("threshold") or 1))
    if department := str(args.get("department") or "").strip():  # "the Stores team's weakest skills"
        return department_skill_gaps(ctx, department, threshold)
    rows = skill_matrix.skill_gaps(ctx.conn, ctx.org_id, threshold, ctx.lang)
    return {"rows": jsonable(rows), "total": len(rows), "threshold": threshold}


def who_knows(ctx: ToolContext, args: dict) -> dict:
    label = (args.get("skill_name") or "").strip()
    if not label:
        raise ToolError(t("admin.resolve.which_skill", ctx.lang))
    # a skill by any of its names, else the skills of a category so named ("information security")
    skills = skill_store.find_skills(ctx.conn, ctx.org_id, label) or skill_store.list_skills(
        ctx.conn, ctx.org_id, category=label
    )
    if not skills:  # not a skill of this organisation: an answer ("nobody; closest: …"), not an error
        return {"rows": [], "total": 0, "skills": [], "unknown_skill": label, "closest": closest_skills(ctx, label)}
    exactly = args.get("level") if args.get("level") in skill_store.LEVELS else None  # "the beginners at X"
    asked_level = exactly or args.get("min_level")
    min_level = asked_level if isinstance(asked_level, str) and asked_level in skill_store.LEVELS else "medium"
    rows = skill_matrix.who_knows(ctx.conn, ctx.org_id, [s.id for s in skills], min_level, ctx.lang)
    rows = [row for row in rows if row.level == exactly] if exactly else rows
    if department := args.get("department"):  # "who in Logistics knows forklifts?": its people only
        departments, members = department_members(ctx, str(department), family=True)
        emails = {p.email for p in user_store.list_employees(ctx.conn, ctx.org_id) if p.id in members}
        rows = [row for row in rows if row.email in emails]
        department = departments_label(departments, ctx.lang)
    return {
        "rows": jsonable(rows),
        "total": len(rows),
        "skills": [s.name_in(ctx.lang) for s in skills],
        "min_level": min_level,
        **({"level": exactly} if exactly else {}),
        **({"department": department} if department else {}),
    }


def list_courses(ctx: ToolContext, args: dict) -> dict:
    status = args.get("status") if args.get("status") in ("draft", "published", "archived") else None
    rows = course_store.list_course_summaries(ctx.conn, ctx.org_id, status=status, lang=ctx.lang)
    if args.get("nobody_enrolled") is True:  # "Which courses have nobody enrolled?"
        rows = [row for row in rows if not row.enrolled]
        return {"rows": jsonable(rows), "total": len(rows), "nobody_enrolled": True}
    return {"rows": jsonable(rows), "total": len(rows)}


def get_course_stats(ctx: ToolContext, args: dict) -> dict:
    course = resolve_course(ctx, title=args.get("course_title"), course_id=args.get("course_id"))
    return {
        "course": jsonable(course_store.course_stats(ctx.conn, ctx.org_id, course.id, ctx.lang)),
        "rows": jsonable(exercise_store.hardest_exercises(ctx.conn, ctx.org_id, course.id)),
        "unfinished": jsonable(course_learners.unfinished_learners(ctx.conn, ctx.org_id, course.id)),
        "finished": course_learners.finished_learners(ctx.conn, ctx.org_id, course.id),
    }


ALERT_KINDS = ("overdue", "deadline_at_risk", "repeated_failures", "inactive", "skill_expired", "skill_expiring")


def get_alerts(ctx: ToolContext, args: dict) -> dict:
    """Every current alert, or one kind's ("overdue": past the deadline, never "at risk"), one course's, one
    department's people's, one person's."""
    named = args.get("course_title") or args.get("course_id")
    course = resolve_course(ctx, title=args.get("course_title"), course_id=args.get("course_id")) if named else None
    department = str(args.get("department") or "").strip()
    departments, members = department_members(ctx, department, family=True) if department else ([], None)
    person = resolve_person(ctx, name=name) if (name := str(args.get("employee_name") or "").strip()) else None
    members = {person.id} if person else members  # "¿Qué alertas hay para Ryan?": his
    rows = enrollments.alert_rows(ctx.conn, ctx.org_id, ctx.today, ctx.lang)
    alerts = merge_alerts(
        compute_alerts(rows, ctx.today, lang=ctx.lang), skill_expiry_alerts(ctx.conn, ctx.org_id, ctx.today, ctx.lang)
    )
    kind = args.get("kind") if args.get("kind") in ALERT_KINDS else None
    theirs = [a for a in alerts if members is None or a.user_id in members]
    chosen = [a for a in theirs if kind in (None, a.kind) and (course is None or a.course_id == course.id)]
    scope = [part for part in (person and person.full_name, course and course.title) if part]
    scope += [departments_label(departments, ctx.lang)] if departments else []
    return {"rows": jsonable(chosen), "total": len(chosen), "kind": kind, "scope": " · ".join(scope) or None}


_EMPLOYEE_REF = {
    "employee_id": {"type": "string", "description": "Employee id, if known"},
    "employee_name": {"type": "string", "description": "Name or email; partial is fine"},
}
_COURSE_REF = {"course_id": {"type": "string"}, "course_title": {"type": "string", "description": "Partial is fine"}}

ADMIN_TOOLS: list[AdminTool] = [
    AdminTool(
        "list_employees",
        "List employees with status, active courses and skill count. Optional filters: "
        "search (name/email), role, is_active, department.",
        _props(
            search=_STR,
            role={"type": "string", "enum": ["admin", "employee"]},
            is_active={"type": "boolean"},
            department=_STR,
        ),
        list_employees,
    ),
    AdminTool(
        "get_employee_detail",
        "One employee's profile, skills, enrollments and recent activity; with a course, their progress in it.",
        _props(**_EMPLOYEE_REF, **_COURSE_REF),
        get_employee_detail,
    ),
    AdminTool(
        "get_skills_matrix",
        "The skills matrix: every active employee's level per skill. Optional category; department: its people.",
        _props(category=_STR, department=_STR),
        get_skills_matrix,
    ),
    AdminTool(
        "get_skill_gaps",
        "Skills with fewer than `threshold` experts (people at high level); with a department, among its people; "
        "with an employee, what they lack: their open courses' target levels, and their colleagues' skills.",
        _props(threshold={"type": "integer", "default": 1}, department=_STR, employee_name=_STR),
        get_skill_gaps,
    ),
    AdminTool(
        "who_knows",
        "Employees holding a skill at min_level or above (experts, mentors), or at exactly level (the beginners); "
        "optionally only a department's people.",
        {
            **_props(skill_name=_STR, min_level={**LEVEL_ENUM, "default": "medium"}, level=LEVEL_ENUM, department=_STR),
            "required": ["skill_name"],
        },
        who_knows,
    ),
    AdminTool(
        "list_courses",
        "Courses with status, enrolled count, completions and average score. nobody_enrolled: only the "
        "courses no one is enrolled in.",
        _props(
            status={"type": "string", "enum": ["draft", "published", "archived"]}, nobody_enrolled={"type": "boolean"}
        ),
        list_courses,
    ),
    AdminTool(
        "get_course_stats",
        "One course's statistics: enrolled, completion rate, average score, hardest exercises, and who has "
        "not finished it yet.",
        _props(**_COURSE_REF),
        get_course_stats,
    ),
    AdminTool(
        "get_alerts",
        "Current alerts: overdue (deadline passed), deadline_at_risk (not yet due, behind pace), "
        "repeated_failures, inactive learners, skill_expired / skill_expiring certifications. Optional kind: "
        "only that kind; optional course: only that course's; optional department / employee_name: only theirs.",
        _props(kind={"type": "string", "enum": list(ALERT_KINDS)}, department=_STR, employee_name=_STR, **_COURSE_REF),
        get_alerts,
    ),
    AdminTool(
        "list_pending_courses",
        "Unfinished enrollments (assigned or in progress): who, which course, progress, deadline. Optional "
        "department: only its people's; optional employee_name: only theirs.",
        _props(department=_STR, employee_name=_STR),
        list_pending_courses,
    ),
    AdminTool(
        "get_mentorship_suggestions",
        "Mentor-mentee pairs: high-level people with low-level people on the same skill; optionally one person's "
        "or one skill's.",
        _props(employee_name=_STR, skill_name=_STR),
        get_mentorship_suggestions,
    ),
    AdminTool(
        "assign_course",
        "WRITE (needs the admin's confirm): assign a course to employees, optional deadline (YYYY-MM-DD); or "
        "move enrolled people's deadline (extend_days / extend_months: each one's current deadline that much later). "
        "With a deadline or an extension and no course, the course is the people's one open course with a deadline.",
        _props(
            **_COURSE_REF,
            employee_ids={"type": "array", "items": _STR},
            employee_names={"type": "array", "items": _STR},
            department={"type": "string", "description": "Everyone active in this department"},
            deadline={"type": "string", "format": "date"},
            extend_days={"type": "integer", "minimum": 1},
            extend_months={"type": "integer", "minimum": 1},
        ),
        prepare_assign_course,
        execute_assign_course,
    ),
    AdminTool(
        "verify_skill",
        "WRITE (needs the admin's confirm): set an employee's skill level, overriding checkpoints.",
        {**_props(**_EMPLOYEE_REF, skill_name=_STR, level=LEVEL_ENUM), "required": ["skill_name", "level"]},
        prepare_verify_skill,
        execute_verify_skill,
    ),
    AdminTool(
        "deactivate_employee",
        "WRITE (needs the admin's confirm): deactivate an account; data is kept. One person at a time: a "
        "department is answered with who is in it.",
        _props(**_EMPLOYEE_REF, department=_STR),
        prepare_deactivate_employee,
        execute_deactivate_employee,
    ),
    AdminTool(
        "archive_course",
        "WRITE (needs the admin's confirm): archive a course; open enrollments become completed.",
        _props(**_COURSE_REF),
        prepare_archive_course,
        execute_archive_course,
    ),
]
TOOLS_BY_NAME = {tool.name: tool for tool in ADMIN_TOOLS}
WRITE_TOOLS = frozenset(tool.name for tool in ADMIN_TOOLS if tool.requires_confirmation)
