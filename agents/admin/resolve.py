"""What every admin tool stands on: its context, its one-line errors, and name resolution
(partial, accent-insensitive, org-scoped; an ambiguous name returns the candidates)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

import psycopg
from babel.lists import format_list

from agents.admin.names import words
from agents.i18n import code_label, format_date, t
from agents.offline import closest_labels
from core.inputs import parse_uuid
from core.names import fold
from storage import courses as course_store
from storage import skills as skill_store
from storage import users as user_store
from storage.users import User

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder


@dataclass(frozen=True)
class ToolContext:
    conn: psycopg.Connection
    org_id: UUID
    admin: User
    lang: str
    today: date
    embedder: Embedder  # the caller's AppDeps: unknown skills are matched by meaning through it


class ToolError(Exception):
    """A tool's answer that is not data: unknown or ambiguous names, bad arguments. One line."""

    def __init__(
        self,
        message: str,
        candidates: list[dict] | None = None,
        phrase: str | None = None,
        argument: str | None = None,
    ):
        super().__init__(message)
        self.candidates = candidates or []
        self.phrase = phrase  # what the admin said that fits every candidate: the answer replaces it
        self.argument = argument  # the argument the answer fills when the request named none ("which course?")


def jsonable(value: Any) -> Any:
    """Rows for the trace, the model and the JSON output: no internal ids, ISO dates, rounded floats."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):  # an instance, not the class
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


def resolve_person(
    ctx: ToolContext,
    *,
    name: str | None = None,
    person_id: str | None = None,
) -> user_store.EmployeeSummary:
    if parse_uuid(person_id):
        found = [
            p for p in user_store.list_employees(ctx.conn, ctx.org_id, lang=ctx.lang) if p.id == parse_uuid(person_id)
        ]
        label = str(person_id)
    else:
        label = (name or "").strip()
        if not label:
            raise ToolError(t("admin.resolve.which_employee", ctx.lang))
        found = user_store.find_people(ctx.conn, ctx.org_id, label, ctx.lang)
    if not found:
        raise ToolError(t("admin.resolve.no_employee", ctx.lang, label=label))
    if len(found) > 1:
        raise ToolError(
            t("admin.resolve.several_employees", ctx.lang, label=label),
            [{"name": p.full_name, "email": p.email, "department": p.department} for p in found],
            label,
        )
    return found[0]


def department_family(said: str, labels: Iterable[str]) -> list[str]:
    """The departments' names (of either language) one word said alone stands for when it begins several of
    them: "Stores" for Stores Spain and Stores UK. None for a name of two words or a word that begins one name
    only (a department's own name wins over this: ``department_members``)."""
    head = words(said)
    if len(head) != 1:
        return []
    family = [label for label in labels if words(label)[:1] == head]
    return family if len(family) > 1 and any(len(words(label)) > 1 for label in family) else []


def department_members(ctx: ToolContext, department: str, *, family: bool = False) -> tuple[list[str], set[UUID]]:
    """(the departments meant, named in the admin's language; everyone in them, active or not) for a department
    named in either language ("Logística", "Logistics"). ``family`` (reads): a word that names no department
    whole but begins several names stands for all of them ("Stores": Stores Spain and Stores UK). A department's
    own name is that department in either language: "Tiendas" is the Spanish stores (Stores Spain), as a Spanish
    admin's org chart calls them, never Tiendas Reino Unido too. A write names one whole. None: one line."""
    labels: dict[str, dict[str, set[UUID]]] = {"en": {}, "es": {}}
    for lang, named in labels.items():
        for person in user_store.list_employees(ctx.conn, ctx.org_id, lang=lang):
            if person.department:
                named.setdefault(person.department, set()).add(person.id)
    every = {label: ids for named in labels.values() for label, ids in named.items()}
    whole = [label for label in every if fold(label) == fold(department)]
    meant = whole or department_family(department, every) if family else whole
    ids = set().union(*(every[label] for label in meant))
    if not ids:
        raise ToolError(t("admin.resolve.no_department", ctx.lang, label=department))
    names = {p.department for p in user_store.list_employees(ctx.conn, ctx.org_id, lang=ctx.lang) if p.id in ids}
    return sorted(name for name in names if name), ids


def departments_label(names: list[str], lang: str) -> str:
    """The departments a read covered, as a reply names them: "Stores Spain and Stores UK", "Tiendas y …"."""
    return format_list(names, locale=lang)


def department_people(ctx: ToolContext, department: str, *, family: bool = False) -> list[user_store.EmployeeSummary]:
    """The active people of a department (``department_members``), in the admin's language."""
    _, ids = department_members(ctx, department, family=family)
    return [p for p in user_store.list_employees(ctx.conn, ctx.org_id, is_active=True, lang=ctx.lang) if p.id in ids]


def resolve_course(
    ctx: ToolContext,
    *,
    title: str | None = None,
    course_id: str | None = None,
    among: set[UUID] | None = None,
) -> course_store.CourseSummary:
    """The course meant; a title several fit is narrowed to ``among`` (the courses of the person asked
    about: Elena's "curso de seguridad" is the one she is enrolled in), else the admin is asked which."""
    courses = course_store.list_course_summaries(ctx.conn, ctx.org_id, lang=ctx.lang)
    if parse_uuid(course_id):
        found, label = [c for c in courses if c.id == parse_uuid(course_id)], str(course_id)
    else:
        label = (title or "").strip()
        if not label:
            raise ToolError(t("admin.resolve.which_course", ctx.lang))
        found = course_store.find_courses(ctx.conn, ctx.org_id, label, ctx.lang)
    if len(found) > 1 and among and len(theirs := [c for c in found if c.id in among]) == 1:
        found = theirs
    if not found:
        titles = ", ".join(c.title for c in courses[:8])
        raise ToolError(t("admin.resolve.no_course", ctx.lang, label=label, titles=titles))
    if len(found) > 1:
        raise ToolError(
            t("admin.resolve.several_courses", ctx.lang, label=label),
            [{"title": c.title, "status": code_label("status", c.status, ctx.lang)} for c in found],
            label,
        )
    return found[0]


def resolve_skills(ctx: ToolContext, name: str | None, *, single: bool) -> list[skill_store.Skill]:
    label = (name or "").strip()
    if not label:
        raise ToolError(t("admin.resolve.which_skill", ctx.lang))
    found = skill_store.find_skills(ctx.conn, ctx.org_id, label)
    if not found:
        closest = ", ".join(closest_skills(ctx, label))
        raise ToolError(t("admin.resolve.no_skill", ctx.lang, label=label, closest=closest))
    if single and len(found) > 1:
        raise ToolError(
            t("admin.resolve.several_skills", ctx.lang, label=label),
            [{"skill": s.name_in(ctx.lang), "category": s.category} for s in found],
            label,
        )
    return found


def closest_skills(ctx: ToolContext, label: str, k: int = 3) -> list[str]:
    """The organisation's skills nearest in meaning to a name that matched none, in the reader's language."""
    skills = {s.name: s for s in skill_store.list_skills(ctx.conn, ctx.org_id)}
    names = closest_labels(
        label, {name: [f"{n} ({s.category})" for n in s.all_names()] for name, s in skills.items()}, ctx.embedder, k
    )
    return [skills[name].name_in(ctx.lang) for name in names]


def parse_deadline(ctx: ToolContext, value: Any) -> date | None:
    if value in (None, ""):
        return None
    try:
        deadline = date.fromisoformat(str(value)[:10])
    except ValueError:
        raise ToolError(t("admin.resolve.not_a_date", ctx.lang, value=value)) from None
    if deadline < ctx.today:
        raise ToolError(t("admin.resolve.past_deadline", ctx.lang, deadline=format_date(deadline, ctx.lang)))
    return deadline
