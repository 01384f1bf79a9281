"""Read tools about a department's people as a group: what they still have to finish ("Cursos pendientes en
Tiendas", "Which courses are still open in Stores UK?"). Scoped to the admin's organisation like every tool;
the rows are the table the page shows and exports."""

from __future__ import annotations

from collections import Counter

from agents.admin.resolve import ToolContext, department_members, jsonable
from storage import course_learners, skill_matrix


def list_pending_courses(ctx: ToolContext, args: dict) -> dict:
    """Every unfinished enrollment of the department's active people (the whole organisation's without one),
    earliest deadline first; ``courses``: how many people have each course open. "Stores" alone, like
    "Tiendas", is every department whose name it begins (``department_members``)."""
    department = str(args.get("department") or "").strip()
    departments, ids = department_members(ctx, department, family=True) if department else ([], None)
    rows = course_learners.pending_courses(ctx.conn, ctx.org_id, list(ids) if ids is not None else None, ctx.lang)
    courses = Counter(row.course for row in rows)
    return {
        "rows": [{**jsonable(row), "overdue": row.deadline is not None and row.deadline < ctx.today} for row in rows],
        "total": len(rows),
        "people": len({row.full_name for row in rows}),
        "courses": [{"course": course, "people": n} for course, n in courses.items()],
        "department": department or None,
        "departments": departments,
    }


def department_skill_gaps(ctx: ToolContext, department: str, threshold: int) -> dict:
    """The skills a department's active people hold with fewer than ``threshold`` experts (high) among them,
    fewest experts first ("Which skills is the Stores team weakest in?"): the organisation's gaps, read within
    the team and among the skills it has (a Logistics gap is no Oracle Financials)."""
    departments, ids = department_members(ctx, department, family=True)
    matrix = skill_matrix.skills_matrix(ctx.conn, ctx.org_id, lang=ctx.lang)
    levels: dict = {}
    for cell in matrix.cells:
        if cell.user_id in ids:
            levels.setdefault(cell.skill_id, Counter())[cell.level] += 1
    rows = [
        {"skill": skill.name_in(ctx.lang), "experts": held["high"], "medium": held["medium"], "low": held["low"]}
        for skill in matrix.skills
        if (held := levels.get(skill.id)) and held["high"] < threshold
    ]
    rows.sort(key=lambda row: (row["experts"], row["medium"], -row["low"], row["skill"]))
    return {"rows": rows, "total": len(rows), "threshold": threshold, "department": departments}
