"""Read tools about a department's people as a group: what they still have to finish ("Cursos pendientes en
Tiendas", "Which courses are still open in Stores UK?"). Scoped to the admin's organisation like every tool;
the rows are the table the page shows and exports."""

from __future__ import annotations

from collections import Counter

from agents.admin.resolve import ToolContext, ToolError, department_people, jsonable
from core.names import fold
from storage import course_learners
from storage import users as user_store


def list_pending_courses(ctx: ToolContext, args: dict) -> dict:
    """Every unfinished enrollment of the department's active people (the whole organisation's without one),
    earliest deadline first; ``courses``: how many people have each course open."""
    department = str(args.get("department") or "").strip()
    ids = [person.id for person in _people(ctx, department)] if department else None
    rows = course_learners.pending_courses(ctx.conn, ctx.org_id, ids, ctx.lang)
    courses = Counter(row.course for row in rows)
    return {
        "rows": jsonable(rows),
        "total": len(rows),
        "people": len({row.full_name for row in rows}),
        "courses": [{"course": course, "people": n} for course, n in courses.items()],
        "department": department or None,
    }


def _people(ctx: ToolContext, department: str) -> list[user_store.EmployeeSummary]:
    """The department's active people; a word that starts several departments' names ("Stores": Stores UK and
    Stores Spain) is all of theirs. A read only: a write names one department whole."""
    try:
        return department_people(ctx, department)
    except ToolError:
        start = fold(department) + " "
        family = {
            person.department
            for lang in ("en", "es")
            for person in user_store.list_employees(ctx.conn, ctx.org_id, lang=lang)
            if person.department and fold(person.department).startswith(start)
        }
        if not family:
            raise
        return list({p.id: p for name in family for p in department_people(ctx, name)}.values())
