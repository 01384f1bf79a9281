"""Deterministic replies: the offline twin's summary of each tool's result, in Spanish or English.
Built from the data itself (counts, names, figures), never canned answers."""
from __future__ import annotations

from agents.admin.prompts import PHRASES
from agents.i18n import t
from agents.offline import localized


def phrase(key: str, lang: str, **values) -> str:
    return localized({code: texts[key] for code, texts in PHRASES.items()}, lang).format(**values)


def _names(rows: list[dict], key: str, limit: int = 6) -> str:
    names = [str(row.get(key)) for row in rows[:limit]]
    more = len(rows) - limit
    return ", ".join(names) + (f" (+{more})" if more > 0 else "")


def _say(lang: str, en: str, es: str) -> str:
    return es if lang == "es" else en


def summarize(tool: str, arguments: dict, result: dict, lang: str) -> str:
    """One or a few lines about one tool's result."""
    if "error" in result:
        candidates = "; ".join(" · ".join(str(v) for v in row.values() if v) for row in result.get("rows", []))
        return f"{result['error']} {candidates}".strip()
    rows = result.get("rows", [])
    n = len(rows)
    if tool == "list_employees":
        active = sum(1 for r in rows if r.get("is_active"))
        return _say(lang, f"{n} people ({active} active): {_names(rows, 'full_name')}.",
                    f"{n} personas ({active} activas): {_names(rows, 'full_name')}.")
    if tool == "get_employee_detail":
        person, enrollments = result["employee"], result.get("enrollments", [])
        courses = ", ".join(f"{e['course']} ({e['status']}, {round(e['progress'] * 100)}%)" for e in enrollments[:5])
        skills = ", ".join(f"{s['skill']}: {s['level']}" for s in rows[:6])
        return _say(lang, f"{person['full_name']} — {person.get('job_title') or ''} {person.get('department') or ''}. "
                          f"Courses: {courses or 'none'}. Skills: {skills or 'none recorded'}.",
                    f"{person['full_name']} — {person.get('job_title') or ''} {person.get('department') or ''}. "
                    f"Cursos: {courses or 'ninguno'}. Habilidades: {skills or 'sin registrar'}.")
    if tool == "get_skills_matrix":
        return _say(lang, f"Skills matrix: {result['employees']} employees × {result['skills']} skills (table below).",
                    f"Matriz de habilidades: {result['employees']} empleados × {result['skills']} habilidades (tabla abajo).")
    if tool == "get_skill_gaps":
        gaps = ", ".join(f"{r['skill']} ({r['experts']})" for r in rows[:8])
        return _say(lang, f"{n} skills have fewer than {result['threshold']} expert(s): {gaps or 'none'}.",
                    f"{n} habilidades tienen menos de {result['threshold']} experto(s): {gaps or 'ninguna'}.")
    if tool == "who_knows" and result.get("unknown_skill"):
        return t("admin.reply.who_knows_unknown", lang, skill=result["unknown_skill"],
                 closest=", ".join(result["closest"]) or "—")
    if tool == "who_knows":
        people = ", ".join(f"{r['full_name']} ({r['skill']}: {r['level']})" for r in rows[:8])
        skills = ", ".join(result["skills"])
        return _say(lang, f"{n} people know {skills} at {result['min_level']} or above: {people or 'nobody'}.",
                    f"{n} personas saben {skills} con nivel {result['min_level']} o más: {people or 'nadie'}.")
    if tool == "list_courses":
        courses = ", ".join(f"{r['title']} ({r['status']}, {r['enrolled']})" for r in rows[:8])
        return _say(lang, f"{n} courses: {courses}.", f"{n} cursos: {courses}.")
    if tool == "get_course_stats":
        c = result["course"]
        score = "—" if c["avg_score"] is None else f"{round(c['avg_score'] * 100) if c['avg_score'] <= 1 else c['avg_score']}"
        hardest = ", ".join(f"“{r['prompt'][:60]}” ({round(r['failure_rate'] * 100)}% fail)" for r in rows[:3])
        return _say(lang, f"“{c['title']}”: {c['enrolled']} enrolled, {c['completed']} completed "
                          f"({round(c['completion_rate'] * 100)}%), {c['overdue']} overdue, average score {score}. "
                          f"Hardest: {hardest or 'no attempts yet'}.",
                    f"«{c['title']}»: {c['enrolled']} inscritos, {c['completed']} completados "
                    f"({round(c['completion_rate'] * 100)}%), {c['overdue']} vencidos, nota media {score}. "
                    f"Más difíciles: {hardest or 'aún sin intentos'}.")
    if tool == "get_alerts":
        high = sum(1 for r in rows if r["severity"] == "high")
        top = "; ".join(f"{r['user']} — {r['detail']}" for r in rows[:4])
        return _say(lang, f"{n} alerts ({high} high). {top}", f"{n} alertas ({high} altas). {top}").strip()
    if tool == "get_mentorship_suggestions":
        pairs = "; ".join(f"{r['mentor']} → {r['mentee']} ({r['skill']})" for r in rows[:5])
        return _say(lang, f"{n} mentoring pairs suggested: {pairs or 'none'}.",
                    f"{n} parejas de mentoría sugeridas: {pairs or 'ninguna'}.")
    return ""
