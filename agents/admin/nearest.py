"""What the assistant answers when no tool does what the admin asked: why, when the product decides it ("delete
the expenses course": courses are archived, never deleted), and the nearest thing it can do about what the
request names (a person, a course, a department), so "not understood" is never the whole answer when the
request said what it was about."""

from __future__ import annotations

from agents.admin.names import OrgNames, words
from agents.admin.resolve import ToolContext, ToolError, resolve_course
from agents.admin.step_words import ACCESS_WORDS
from agents.admin.vocabulary import TOOL_KEYWORDS
from agents.i18n import t

# "delete / remove / borra / elimina el curso de gastos": a course is archived, never deleted (its enrolments
# and results are the organisation's training record); the same answer in both languages
_DELETE_VERBS = {"delete", "remove", "erase", "borra", "borrar", "borralo", "borrala", "elimina", "eliminar"}
_DELETE_VERBS |= {"eliminalo", "eliminala", "suprime", "suprimir", "deleting", "removing", "get rid", "quita", "quitar"}
_UNENROL_VERBS = {"unenrol", "unenroll", "desinscribe", "desapunta", "desapuntalo", "desapuntala", "saca", "sacale"}
# "¿Quién es el jefe de Javier?": SkillNet keeps no reporting lines
_MANAGER_WORDS = {"manager", "boss", "jefe", "jefa", "responsable", "supervisor", "supervisora", "line manager"}
_MANAGER_WORDS |= {"reports", "manages", "reporta", "superior"}


def removes_a_course(message: str, org: OrgNames) -> bool:
    """The admin asks to delete a course by name (no person named: "remove Harry from…" is not this; "quita de
    circulación" says archive)."""
    said = set(words(message))
    plain = f" {' '.join(words(message))} "
    deleting = said & _DELETE_VERBS or any(f" {verb} " in plain for verb in _DELETE_VERBS if " " in verb)
    archiving = said & {w for phrase in TOOL_KEYWORDS["archive_course"] for w in words(phrase) if len(w) > 6}
    asked = bool(deleting and not archiving and not said & ACCESS_WORDS and org.courses_in(message))
    return asked and not org.people_in(message)


def unenrols(message: str, org: OrgNames) -> bool:
    """The admin asks to take a person off a course ("Quita a Harry del curso de devoluciones"): no tool does."""
    said = set(words(message))
    off = said & (_DELETE_VERBS | _UNENROL_VERBS) and not said & ACCESS_WORDS
    return bool(off and org.people_in(message) and org.courses_in(message))


def nearest_offer(ctx: ToolContext, message: str) -> str:
    """Why no tool does it, or the nearest thing one does for what ``message`` names; else "not understood"."""
    org, lang = OrgNames.read(ctx.conn, ctx.org_id), ctx.lang
    people, titles = org.people_in(message), org.courses_in(message)
    title = _title_in(ctx, titles[0]) if len(titles) == 1 else None
    if title and removes_a_course(message, org):
        return t("admin.nearest.delete_course", lang, course=title)
    if people and title and unenrols(message, org):
        return t("admin.nearest.unenrol", lang, name=people[0], course=title)
    if people and set(words(message)) & _MANAGER_WORDS:
        return t("admin.nearest.manager", lang, name=people[0])
    if people:
        return t("admin.nearest.person", lang, name=people[0])
    if title:
        return t("admin.nearest.course", lang, course=title)
    if departments := org.said_whole(message, org.departments):
        return t("admin.nearest.department", lang, department=max(departments, key=len))
    return ""


def _title_in(ctx: ToolContext, title: str) -> str | None:
    """The course's title as the admin's language shows it."""
    try:
        return resolve_course(ctx, title=title).title
    except ToolError:
        return None
