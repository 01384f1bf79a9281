"""What every admin tool stands on: its context, its one-line errors, and name resolution
(partial, accent-insensitive, org-scoped; an ambiguous name returns the candidates)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from uuid import UUID

import psycopg

from agents.offline import closest_labels
from storage import admin as admin_store
from storage import courses as course_store
from storage.inputs import parse_uuid
from storage.users import User
from storage import skills as skill_store


@dataclass(frozen=True)
class ToolContext:
    conn: psycopg.Connection
    org_id: UUID
    admin: User
    lang: str
    today: date

    def say(self, en: str, es: str) -> str:
        return es if self.lang == "es" else en


class ToolError(Exception):
    """A tool's answer that is not data: unknown or ambiguous names, bad arguments. One line."""

    def __init__(self, message: str, candidates: list[dict] | None = None):
        super().__init__(message)
        self.candidates = candidates or []


def jsonable(value: Any) -> Any:
    """Rows for the trace, the model and the JSON output: no internal ids, ISO dates, rounded floats."""
    if dataclasses.is_dataclass(value):
        value = dataclasses.asdict(value)
    if isinstance(value, dict):
        return {key: jsonable(item) for key, item in value.items() if key != "id" and not key.endswith(("_id", "_ids"))}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    if isinstance(value, datetime):
        return value.isoformat(timespec="minutes")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, float):
        return round(value, 3)
    return value


def resolve_person(ctx: ToolContext, *, name: str | None = None, person_id: str | None = None,
                   ) -> admin_store.EmployeeSummary:
    if parse_uuid(person_id):
        found = [p for p in admin_store.list_employees(ctx.conn, ctx.org_id) if p.id == parse_uuid(person_id)]
        label = str(person_id)
    else:
        label = (name or "").strip()
        if not label:
            raise ToolError(ctx.say("Tell me which employee (a name or an email).",
                                    "Dime qué empleado (nombre o correo)."))
        found = admin_store.find_people(ctx.conn, ctx.org_id, label)
    if not found:
        raise ToolError(ctx.say(f"No employee matches “{label}”.", f"Ningún empleado coincide con «{label}»."))
    if len(found) > 1:
        raise ToolError(ctx.say(f"Several employees match “{label}”; which one?",
                                f"Varios empleados coinciden con «{label}»; ¿cuál?"),
                        [{"name": p.full_name, "email": p.email, "department": p.department} for p in found])
    return found[0]


def resolve_course(ctx: ToolContext, *, title: str | None = None, course_id: str | None = None,
                   ) -> course_store.CourseSummary:
    courses = course_store.list_course_summaries(ctx.conn, ctx.org_id)
    if parse_uuid(course_id):
        found, label = [c for c in courses if c.id == parse_uuid(course_id)], str(course_id)
    else:
        label = (title or "").strip()
        if not label:
            raise ToolError(ctx.say("Tell me which course.", "Dime qué curso."))
        found = course_store.find_courses(ctx.conn, ctx.org_id, label)
    if not found:
        titles = ", ".join(c.title for c in courses[:8])
        raise ToolError(ctx.say(f"No course matches “{label}”. Courses: {titles}.",
                                f"Ningún curso coincide con «{label}». Cursos: {titles}."))
    if len(found) > 1:
        raise ToolError(ctx.say(f"Several courses match “{label}”; which one?",
                                f"Varios cursos coinciden con «{label}»; ¿cuál?"),
                        [{"title": c.title, "status": c.status} for c in found])
    return found[0]


def resolve_skills(ctx: ToolContext, name: str | None, *, single: bool) -> list[skill_store.Skill]:
    label = (name or "").strip()
    if not label:
        raise ToolError(ctx.say("Tell me which skill.", "Dime qué habilidad."))
    found = skill_store.find_skills(ctx.conn, ctx.org_id, label)
    if not found:
        closest = ", ".join(closest_skills(ctx, label))
        raise ToolError(ctx.say(f"No skill matches “{label}”. Closest: {closest}.",
                                f"Ninguna habilidad coincide con «{label}». Las más parecidas: {closest}."))
    if single and len(found) > 1:
        raise ToolError(ctx.say(f"Several skills match “{label}”; which one?",
                                f"Varias habilidades coinciden con «{label}»; ¿cuál?"),
                        [{"skill": s.name, "category": s.category} for s in found])
    return found


def closest_skills(ctx: ToolContext, label: str, k: int = 3) -> list[str]:
    """The organisation's skills nearest in meaning to a name that matched none, in the reader's language."""
    skills = {s.name: s for s in skill_store.list_skills(ctx.conn, ctx.org_id)}
    names = closest_labels(label, {name: [f"{n} ({s.category})" for n in s.all_names()] for name, s in skills.items()}, k)
    return [skills[name].name_in(ctx.lang) for name in names]


def parse_deadline(ctx: ToolContext, value: Any) -> date | None:
    if value in (None, ""):
        return None
    try:
        deadline = date.fromisoformat(str(value)[:10])
    except ValueError:
        raise ToolError(ctx.say(f"“{value}” is not a date (use YYYY-MM-DD).",
                                f"«{value}» no es una fecha (usa AAAA-MM-DD).")) from None
    if deadline < ctx.today:
        raise ToolError(ctx.say(f"The deadline {deadline} is in the past.",
                                f"La fecha límite {deadline} ya pasó."))
    return deadline
