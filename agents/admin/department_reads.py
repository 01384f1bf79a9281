"""Read tools about a department's people as a group: what they still have to finish ("Cursos pendientes en
Tiendas", "Which courses are still open in Stores UK?"), the skills the team is weak in, and what one person
lacks beside their colleagues. Scoped to the admin's organisation like every tool; the rows are the table the
page shows and exports."""

from __future__ import annotations

from collections import Counter

from agents.admin.resolve import ToolContext, department_members, jsonable, resolve_person
from storage import course_learners, enrollments, skill_matrix
from storage import courses as course_store
from storage import skills as skill_store


def list_pending_courses(ctx: ToolContext, args: dict) -> dict:
    """Every unfinished enrollment of the department's active people (the whole organisation's without one),
    earliest deadline first; ``courses``: how many people have each course open. "Stores" alone, like
    "Tiendas", is every department whose name it begins (``department_members``)."""
    department = str(args.get("department") or "").strip()
    departments, ids = department_members(ctx, department, family=True) if department else ([], None)
    person = resolve_person(ctx, name=name) if (name := str(args.get("employee_name") or "").strip()) else None
    ids = {person.id} if person else ids  # "¿y cuáles tiene pendientes?" after Carmen's record: hers
    rows = course_learners.pending_courses(ctx.conn, ctx.org_id, list(ids) if ids is not None else None, ctx.lang)
    courses = Counter(row.course for row in rows)
    return {
        "rows": [{**jsonable(row), "overdue": row.deadline is not None and row.deadline < ctx.today} for row in rows],
        "total": len(rows),
        "people": len({row.full_name for row in rows}),
        "courses": [{"course": course, "people": n} for course, n in courses.items()],
        "department": department or None,
        "departments": departments,
        **({"employee": person.full_name} if person else {}),
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


def person_skill_gaps(ctx: ToolContext, name: str) -> dict:
    """What one person lacks ("¿Qué habilidades le faltan a Lucía para su puesto?"), measured by what the product
    knows, since it keeps no skills per role: the level each of their open courses aims at that they have not
    reached (``course``), and the skills their department's other people hold at medium or above that they hold
    lower or not at all (``colleagues``: how many, ``best``: the highest level among them), courses first."""
    person = resolve_person(ctx, name=name)
    held = {s.skill_id: s.level for s in skill_store.user_skills(ctx.conn, ctx.org_id, person.id)}
    rank = skill_store.LEVEL_RANK
    names = {skill.id: skill.name_in(ctx.lang) for skill in skill_store.list_skills(ctx.conn, ctx.org_id)}
    gaps: dict = {}
    for taken in enrollments.employee_enrollments(ctx.conn, ctx.org_id, person.id, ctx.lang):
        if taken.status in ("assigned", "in_progress"):
            for skill_id, target in course_store.course_skill_targets(ctx.conn, ctx.org_id, taken.course_id).items():
                if rank.get(held.get(skill_id, ""), 0) < rank[target]:
                    gaps.setdefault(skill_id, {"course": taken.course, "target": target})
    _, colleagues = department_members(ctx, person.department) if person.department else ("", set())
    matrix = skill_matrix.skills_matrix(ctx.conn, ctx.org_id, lang=ctx.lang)
    for cell in matrix.cells:
        mine = rank.get(held.get(cell.skill_id, ""), 0)
        if cell.user_id in colleagues - {person.id} and rank[cell.level] >= max(2, mine + 1):
            gap = gaps.setdefault(cell.skill_id, {})
            gap["colleagues"] = gap.get("colleagues", 0) + 1
            gap["best"] = max(gap.get("best", cell.level), cell.level, key=rank.__getitem__)
    rows = [{"skill": names[skill_id], "level": held.get(skill_id), **gap} for skill_id, gap in gaps.items()]
    rows.sort(key=lambda row: ("course" not in row, -row.get("colleagues", 0), row["skill"]))
    return {"rows": rows, "total": len(rows), "employee": jsonable(person)}
