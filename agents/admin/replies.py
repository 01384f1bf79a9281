"""Deterministic replies: the offline twin's summary of each tool's result, in the admin's language.
Built from the data itself (counts, names, figures), never canned answers. A list names its first
few rows and says so when there are more (the full list is in the table under the reply)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from typing import TypeVar

from agents.admin.resolve import departments_label
from agents.admin.skill_replies import skill_mentorship, team_skills
from agents.i18n import code_label, format_date, format_number, format_percent, t
from core.text import shortened

SHOWN = {
    "list_employees": 6,
    "who_knows": 8,
    "get_skill_gaps": 8,
    "list_courses": 8,
    "get_alerts": 6,
    "get_mentorship_suggestions": 5,
    "unfinished": 8,
    "list_pending_courses": 10,
}


Row = TypeVar("Row")


def _listing(rows: Sequence[Row], render: Callable[[Row], str], limit: int, lang: str, sep: str = ", ") -> str:
    """The first ``limit`` rows rendered, and "(first N of M; all in the table)" when rows were left out."""
    text = sep.join(render(row) for row in rows[:limit])
    if len(rows) > limit:
        text += " " + t("admin.reply.first_n", lang, shown=limit, total=len(rows))
    return text


def _error(result: dict) -> str:
    candidates = "; ".join(" · ".join(str(v) for v in row.values() if v) for row in result.get("rows", []))
    return f"{result['error']} {candidates}".strip()


def summarize(tool: str, arguments: dict, result: dict, lang: str, *, in_full: bool = False) -> str:
    """One or a few lines about one tool's result; ``in_full`` ("¿y quiénes son?" after it): every row, and
    each person with their job title, not the same few names again."""
    if "error" in result:
        return _error(result)
    rows = result.get("rows", [])
    n = result.get("total", len(rows))
    limit = max(len(rows), 1) if in_full else SHOWN.get(tool, 6)
    if tool == "list_employees":
        active = sum(1 for r in rows if r.get("is_active"))

        def named(r: dict) -> str:
            return f"{r['full_name']} ({r['job_title']})" if in_full and r.get("job_title") else r["full_name"]

        listed = t("admin.reply.employees", lang, n=n, active=active, names=_listing(rows, named, limit, lang))
        # "¿Cuántas personas hay en Atención al Cliente?": the count said of the department(s) asked about
        return f"{departments_label(result['departments'], lang)}: {listed}" if result.get("departments") else listed
    if tool == "get_employee_detail" and "course" in result:  # "¿Qué tal lleva Elena el curso de seguridad?"
        return _enrollment(result["employee"]["full_name"], result["course"], result["enrollment"], lang)
    if tool == "get_employee_detail":
        person, enrollments = result["employee"], result.get("enrollments", [])
        courses = ", ".join(
            f"{e['course']} ({code_label('status', e['status'], lang)}, {format_percent(e['progress'], lang)})"
            for e in enrollments[:5]
        )
        skills = ", ".join(f"{s['skill']}: {code_label('level', s['level'], lang)}" for s in rows[:6])
        return t(
            "admin.reply.employee_detail",
            lang,
            name=person["full_name"],
            role=_role(person, lang),
            courses=courses or t("admin.reply.none_m", lang),
            skills=skills or t("admin.reply.no_skills", lang),
        )
    if tool == "get_skills_matrix" and "departments" in result:  # "what skills does the finance team have?"
        return team_skills(result, lang)
    if tool == "get_skills_matrix":
        return t("admin.reply.matrix", lang, employees=result["employees"], skills=result["skills"])
    if tool == "get_skill_gaps" and "employee" in result:  # "What skills is Lucía missing for her role?"
        return _person_gaps(rows, result["employee"], lang)
    if tool == "get_skill_gaps":
        counted = result["threshold"] > 1  # "no expert", not "fewer than 1 expert": each one's 0 goes unsaid
        gaps = _listing(rows, lambda r: f"{r['skill']} ({r['experts']})" if counted else r["skill"], limit, lang)
        asked = "admin.reply.gaps" if counted else "admin.reply.gaps_no_expert"
        text = t(asked, lang, n=n, threshold=result["threshold"], gaps=gaps or t("admin.reply.none_f", lang))
        return f"{departments_label(result['department'], lang)} — {text}" if result.get("department") else text
    if tool == "who_knows" and result.get("unknown_skill"):
        return t(
            "admin.reply.who_knows_unknown",
            lang,
            skill=result["unknown_skill"],
            closest=", ".join(result["closest"]) or "—",
        )
    if tool == "who_knows":  # a row is a person's skill: a category asks for several skills, each person once
        known: dict[str, list[str]] = {}
        for r in rows:
            known.setdefault(r["full_name"], []).append(f"{r['skill']}: {code_label('level', r['level'], lang)}")
        exactly = result.get("level")  # one level asked: each person's level is that one, not repeated
        people = _listing(
            list(known.items()),
            lambda person: person[0] if exactly else f"{person[0]} ({'; '.join(person[1])})",
            limit,
            lang,
        )
        text = t(
            "admin.reply.who_knows_exactly" if exactly else "admin.reply.who_knows",
            lang,
            n=len(known),
            skills=", ".join(result["skills"]),
            level=code_label("level", exactly or result["min_level"], lang),
            people=people or t("admin.reply.nobody", lang),
        )
        return f"{result['department']} — {text}" if result.get("department") else text
    if tool == "list_courses" and result.get("nobody_enrolled"):  # "Which courses have nobody enrolled?"
        if not rows:
            return t("admin.reply.every_course_taken", lang)
        empty = _listing(rows, lambda r: f"{r['title']} ({code_label('status', r['status'], lang)})", limit, lang)
        return t("admin.reply.courses_nobody_enrolled", lang, n=n, courses=empty)
    if tool == "list_courses":
        courses = _listing(
            rows,
            lambda r: t(
                "admin.reply.course_item",
                lang,
                title=r["title"],
                status=code_label("status", r["status"], lang),
                enrolled=r["enrolled"],
            ),
            limit,
            lang,
        )
        return t("admin.reply.courses", lang, n=n, courses=courses or t("admin.reply.none_m", lang))
    if tool == "get_course_stats":
        c = result["course"]
        score = (
            "—"
            if c["avg_score"] is None
            else format_number(c["avg_score"] * 100 if c["avg_score"] <= 1 else c["avg_score"], lang)
        )
        hardest = ", ".join(  # an item nobody fails is not hard: left out
            t(
                "admin.reply.hardest_item",
                lang,
                prompt=shortened(r["prompt"], 60),
                rate=format_percent(r["failure_rate"], lang),
            )
            for r in rows[:3]
            if r["failure_rate"]
        )
        stats = t(
            "admin.reply.course_stats",
            lang,
            title=c["title"],
            status=code_label("status", c["status"], lang),
            enrolled=c["enrolled"],
            completed=c["completed"],
            rate=format_percent(c["completion_rate"], lang),
            overdue=c["overdue"],
            score=score,
        )
        hardest = t("admin.reply.hardest", lang, items=hardest) if hardest else ""
        return " ".join(
            part
            for part in (
                stats,
                _finished(result.get("finished", []), lang),
                _unfinished(result.get("unfinished", []), c["enrolled"], lang),
                hardest,
            )
            if part
        )
    if tool == "get_alerts":
        kind = result.get("kind")
        top = _listing(
            rows,
            lambda r: f"{r['user']} — {r['course'] + ': ' if r.get('course') else ''}{r['detail']}",
            limit,
            lang,
            sep="; ",
        )
        if result.get("scope"):  # "Who's overdue on the security course?", "…en Logística?": said for it
            alerts = _alerts(rows, n, top, kind, lang)
            return t("admin.reply.alerts_scoped", lang, scope=result["scope"], alerts=alerts)
        return _alerts(rows, n, top, kind, lang)
    if tool == "list_pending_courses":
        return _pending_courses(rows, result, limit, lang)
    if tool == "get_mentorship_suggestions" and "skill" in result:  # "who knows LOTO" → "who could teach them?"
        return skill_mentorship(result, lang)
    if tool == "get_mentorship_suggestions":
        pairs = _listing(rows, lambda r: f"{r['mentor']} → {r['mentee']} ({r['skill']})", limit, lang, sep="; ")
        return t("admin.reply.mentorship", lang, n=n, pairs=pairs or t("admin.reply.none_f", lang))
    return ""


def _role(person: dict, lang: str) -> str:
    """ "Contact Centre Agent · Customer Care · active account": the title and the department apart, and whether
    the account works ("¿Sigue activo Tom Baker?" showed a record that didn't say)."""
    state = t("admin.reply.account_active" if person.get("is_active") else "admin.reply.account_inactive", lang)
    return " · ".join(part for part in (person.get("job_title"), person.get("department"), state) if part)


def _person_gaps(rows: list[dict], person: dict, lang: str) -> str:
    """What one person lacks: their open courses' target levels not reached, then their colleagues' skills."""

    def level(code: str | None) -> str:
        return code_label("level", code, lang) if code else t("admin.reply.none_m", lang)

    aimed = [r for r in rows if "course" in r]
    known = [r for r in rows if r.get("colleagues")]
    found = [
        t(
            "admin.reply.person_gaps_courses",
            lang,
            items="; ".join(
                t(
                    "admin.reply.person_gap_course",
                    lang,
                    skill=r["skill"],
                    target=level(r["target"]),
                    level=level(r["level"]),
                    course=r["course"],
                )
                for r in aimed
            ),
        )
        if aimed
        else "",
        t(
            "admin.reply.person_gaps_colleagues",
            lang,
            department=person.get("department") or "—",
            items=_listing(
                known,
                lambda r: t(
                    "admin.reply.person_gap_known", lang, skill=r["skill"], n=r["colleagues"], best=level(r["best"])
                ),
                SHOWN["get_skill_gaps"],
                lang,
            ),
        )
        if known
        else "",
    ]
    return t(
        "admin.reply.person_gaps",
        lang,
        name=person["full_name"],
        role=_role(person, lang),
        found=" ".join(part for part in found if part) or t("admin.reply.person_gaps_none", lang),
    )


def _pending_courses(rows: list[dict], result: dict, limit: int, lang: str) -> str:
    """ "Cursos pendientes en Tiendas": who has which course open, how far, due when (earliest first)."""
    scope = result.get("employee") or departments_label(result.get("departments") or [], lang)
    scope = scope or t("admin.reply.whole_organisation", lang)
    if not rows:
        return t("admin.reply.pending_courses_none", lang, scope=scope)

    def line(row: dict) -> str:
        due = date.fromisoformat(row["deadline"]) if row["deadline"] else None
        when = t("admin.reply.due", lang, date=format_date(due, lang)) if due else ""
        when += t("admin.reply.past_due", lang) if row.get("overdue") else ""  # Harry's 29 Nov, read on 5 Dec
        return f"{row['full_name']} — {row['course']} ({format_percent(row['progress'], lang)}{when})"

    listing = _listing(rows, line, limit, lang, sep="; ")
    return t(
        "admin.reply.pending_courses",
        lang,
        scope=scope,
        people=result["people"],
        n=len(rows),
        titles=len(result["courses"]),
        listing=listing,
    )


def _alerts(rows: list[dict], n: int, top: str, kind: str | None, lang: str) -> str:
    if kind:
        kind_label = code_label("kind", kind, lang)
        return t("admin.reply.alerts_of_kind", lang, n=n, kind=kind_label, top=top or t("admin.reply.nobody", lang))
    high = sum(1 for r in rows if r["severity"] == "high")
    return t("admin.reply.alerts", lang, n=n, high=high, top=top).strip()


def _enrollment(name: str, title: str, row: dict | None, lang: str) -> str:
    """One person's place in one course: status, progress, deadline (and whether it is past), score."""
    if row is None:
        return t("admin.reply.not_enrolled", lang, name=name, title=title)
    due = (
        t("admin.reply.due", lang, date=format_date(date.fromisoformat(row["deadline"]), lang))
        if row["deadline"]
        else ""
    )
    if row.get("overdue"):
        due += t("admin.reply.enrollment_overdue", lang)
    score = (
        t("admin.reply.enrollment_score", lang, score=format_percent(row["score"], lang))
        if row.get("score") is not None
        else ""
    )
    return t(
        "admin.reply.enrollment",
        lang,
        name=name,
        title=title,
        status=code_label("status", row["status"], lang),
        progress=format_percent(row["progress"], lang),
        due=due,
        score=score,
    )


def _finished(names: list[str], lang: str) -> str:
    """Who has finished the course ("and who has finished it?"), the first to finish first."""
    return (
        t("admin.reply.finished", lang, n=len(names), people=_listing(names, str, SHOWN["unfinished"], lang))
        if names
        else ""
    )


def _unfinished(rows: list[dict], enrolled: int, lang: str) -> str:
    """Who has not finished the course ("who hasn't finished the security course?"), with how far each is."""

    def render(r: dict) -> str:
        due = (
            t("admin.reply.due", lang, date=format_date(date.fromisoformat(r["deadline"]), lang))
            if r["deadline"]
            else ""
        )
        return f"{r['full_name']} ({format_percent(r['progress'], lang)}{due})"

    if not rows:
        return t("admin.reply.all_finished", lang) if enrolled else ""
    people = _listing(rows, render, SHOWN["unfinished"], lang)
    return t("admin.reply.unfinished", lang, n=len(rows), people=people)
