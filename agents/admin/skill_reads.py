"""Read tools about who holds which skill as a grid or as pairs: the skills matrix (everyone's, a category's,
a department's people's: "¿Qué habilidades tiene el equipo de finanzas?") and the mentoring pairs (everyone's,
one person's, one skill's: "who knows LOTO" → "¿y quién podría enseñarles?"). Scoped to the admin's
organisation like every tool; the rows are the table the page shows and exports."""

from __future__ import annotations

from agents.admin.resolve import ToolContext, department_members, jsonable, resolve_person
from storage import skill_matrix
from storage import skills as skill_store


def get_skills_matrix(ctx: ToolContext, args: dict) -> dict:
    matrix = skill_matrix.skills_matrix(ctx.conn, ctx.org_id, category=args.get("category") or None, lang=ctx.lang)
    levels = {(c.user_id, c.skill_id): c.level for c in matrix.cells}
    people = matrix.employees
    departments: list[str] = []
    if department := str(args.get("department") or "").strip():  # "list the customer care staff with their skills"
        departments, members = department_members(ctx, department, family=True)
        people = [person for person in people if person.id in members]
    rows = [
        {
            "employee": person.full_name,
            "department": person.department,
            **{skill.name_in(ctx.lang): levels.get((person.id, skill.id), "") for skill in matrix.skills},
        }
        for person in people
    ]
    return {
        "rows": rows,
        "employees": len(people),
        "skills": len(matrix.skills),
        **({"departments": departments} if department else {}),
    }


def get_mentorship_suggestions(ctx: ToolContext, args: dict) -> dict:
    """Experts paired with beginners on the same skill; one person's pairs, or one skill's (any of its names).
    A skill nobody can mentor yet (no one holds it at high level) comes with its most advanced holders."""
    rows = skill_matrix.mentorship_suggestions(ctx.conn, ctx.org_id, lang=ctx.lang)
    if name := str(args.get("employee_name") or "").strip():  # "Who could mentor Laura?": her pairs only
        person = resolve_person(ctx, name=name).full_name
        rows = [row for row in rows if person in (row.mentee, row.mentor)]
    label = str(args.get("skill_name") or "").strip()
    skills = skill_store.find_skills(ctx.conn, ctx.org_id, label) if label else []
    if not skills:
        return {"rows": jsonable(rows), "total": len(rows)}
    names = [skill.name_in(ctx.lang) for skill in skills]
    rows = [row for row in rows if row.skill in names]
    holders = [] if rows else skill_matrix.who_knows(ctx.conn, ctx.org_id, [s.id for s in skills], "low", ctx.lang)
    return {
        "rows": jsonable(rows),
        "total": len(rows),
        "skill": names[0],
        "most_advanced": [{"employee": h.full_name, "level": h.level} for h in holders[:3]],
    }
