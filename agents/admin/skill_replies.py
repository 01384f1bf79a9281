"""The replies of the skill reads that answer about a group: a department's people and the skills each holds
("¿Qué habilidades tiene el equipo de finanzas?"), and one skill's mentoring pairs, or why there are none."""

from __future__ import annotations

from agents.admin.resolve import departments_label
from agents.i18n import code_label, t

_SKILLS_SHOWN = 5  # per person; the rest are in the table
_PEOPLE_SHOWN = 8
_RANK = {"high": 0, "medium": 1, "low": 2}


def team_skills(result: dict, lang: str) -> str:
    """Each person of the department with their skills, highest level first (5 each, the rest counted)."""
    people = []
    for row in result["rows"][:_PEOPLE_SHOWN]:
        held = sorted(((skill, level) for skill, level in row.items() if level in _RANK), key=lambda s: _RANK[s[1]])
        skills = [f"{skill}: {code_label('level', level, lang)}" for skill, level in held[:_SKILLS_SHOWN]]
        skills += [t("admin.reply.more_skills", lang, n=len(held) - _SKILLS_SHOWN)] if len(held) > _SKILLS_SHOWN else []
        people.append(f"{row['employee']} ({', '.join(skills) or t('admin.reply.no_skills', lang)})")
    listed = "; ".join(people)
    if len(result["rows"]) > _PEOPLE_SHOWN:
        listed += " " + t("admin.reply.first_n", lang, shown=_PEOPLE_SHOWN, total=len(result["rows"]))
    department = departments_label(result["departments"], lang)
    return t("admin.reply.team_skills", lang, department=department, n=result["employees"], people=listed)


def skill_mentorship(result: dict, lang: str) -> str:
    """One skill's pairs; none: nobody holds it at expert level (its most advanced named), or nobody is a
    beginner in it (its experts named)."""
    rows, skill = result["rows"], result["skill"]
    if rows:
        pairs = "; ".join(f"{r['mentor']} → {r['mentee']}" for r in rows)
        return t("admin.reply.mentorship_skill", lang, n=len(rows), skill=skill, pairs=pairs)
    best = result["most_advanced"]
    experts = bool(best) and best[0]["level"] == "high"
    best = [p for p in best if p["level"] == "high"] if experts else best  # its experts only, when it has some
    people = ", ".join(f"{p['employee']} ({code_label('level', p['level'], lang)})" for p in best)
    asked = "admin.reply.mentorship_no_beginner" if experts else "admin.reply.mentorship_no_expert"
    return t(asked, lang, skill=skill, people=people or t("admin.reply.nobody", lang))
