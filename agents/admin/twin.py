"""The offline planner: cut a request into steps, route each to a tool (``agents.admin.routing``), then
pull its arguments out of the text — people, skills and courses resolved against the organisation
(``agents.admin.names``), deadlines read by dateparser (``agents.admin.deadlines``), levels.

Every step is planned: reads run together, writes are previewed together. A value the admin gave
is never dropped: a deadline no parser reads reaches the tool as said, and the tool says so.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING
from uuid import UUID

import psycopg

from agents.admin import names
from agents.admin.deadlines import deadline_in, extension_in
from agents.admin.department_routes import family_word
from agents.admin.earlier import (
    EarlierAnswer,
    asks_who_they_are,
    courses_of,
    earlier_people,
    narrows,
    skill_follow_up,
    with_earlier_course,
    with_other_skill,
    without_introduction,
)
from agents.admin.names import EMAIL, STOPWORDS, WORD, OrgNames, content_words, course_phrase, says_any, without, words
from agents.admin.routing import LEVEL_WORDS, route, split_steps
from agents.admin.vocabulary import AT_LEAST_WORDS, BEGINNER_WORDS, NICKNAMES
from core.names import fold
from core.text import NUMBER_VALUES

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

_QUOTED = re.compile(r"[\"“«'‘]([^\"”»'’]{3,80})[\"”»'’]")
_STATUS_WORDS = {
    "draft": {"draft", "drafts", "borrador", "borradores", "sin publicar", "unpublished", "not published"}
    | {"half published", "not yet published", "a medias", "por publicar", "no publicados", "no publicado"}
    | {"being written", "work in progress", "en preparacion", "en elaboracion"},
    "published": {"published", "publicado", "publicados", "publicada", "publicadas", "live"},
    "archived": {"archived", "archivado", "archivados", "archivada", "archivadas", "archive", "retired", "retirado"}
    | {"retirados"},
}
# What an alert question asks for: "¿Quién tiene cursos vencidos?" is overdue only, never "at risk".
_ALERT_KIND_WORDS = {
    "overdue": {"overdue", "vencido", "vencidos", "vencida", "vencidas", "late", "atrasado", "atrasados", "missed"}
    | {"retrasado", "retrasados", "retrasada", "retrasadas"}
    | {"a tiempo", "on time", "past due", "va tarde", "van tarde"},
    "deadline_at_risk": {"risk", "riesgo", "won t make", "no va a llegar", "no van a llegar", "going to miss"}
    | {"llegar tarde", "will miss", "gonna miss"},
    "repeated_failures": {"failures", "failing", "fails", "fallos", "falla", "fallan", "suspensos", "suspende"}
    | {"suspenden", "suspenda", "suspendan", "can t pass", "cannot pass", "no aprueba", "no aprueban"},
    "inactive": {"inactive", "inactivos", "inactivas", "inactividad", "logged", "login", "sin entrar", "no entra"}
    | {"no ha entrado", "no han entrado", "conectarse", "conecta"},
    "skill_expired": {"expired", "caducada", "caducadas", "caducado", "caducados", "run out", "out of date", "lapsed"},
    "skill_expiring": {"expiring", "expire", "expires", "caducan", "caducar", "caduca", "run out soon", "lapse"},
}
_INACTIVE_WORDS = {"inactive", "inactivo", "inactivos", "inactivas", "deactivated"}
_INACTIVE_WORDS |= {"desactivados", "desactivadas", "desactivado"}
_INACTIVE_WORDS |= {"left", "offboarded", "disabled", "ido", "idos", "baja"}
# "fewer than three experts"; not "one"/"una", which are as often articles ("no one", "una habilidad")
_COUNT_WORDS = {word: value for word, value in NUMBER_VALUES.items() if value > 1}
_ADMIN_WORDS = {"admin", "admins", "administrador", "administradores", "administradora", "administradoras"}


def _pick(words_in: list[str], table: dict[str, set[str]]) -> str | None:
    """The key whose longest phrase is said whole ("run out soon" is expiring, not "run out": expired), else
    the first key one of whose words is said (with one slip)."""
    said = f" {' '.join(words_in)} "
    phrases = [(len(s), key) for key, synonyms in table.items() for s in synonyms if " " in s and f" {s} " in said]
    if phrases:
        return max(phrases, key=lambda found: found[0])[1]
    exact = next((key for key, synonyms in table.items() if set(words_in) & synonyms), None)
    return exact or next(  # "published" said is published, not a slip of "unpublished"
        (key for key, synonyms in table.items() if says_any(words_in, {s for s in synonyms if " " not in s})), None
    )


_DEPARTMENT_READS = {"list_employees", "who_knows", "get_alerts", "list_pending_courses", "get_skill_gaps"}
_DEPARTMENT_READS |= {"get_skills_matrix"}  # "what skills does the finance team have?"


def arguments_for(tool: str, step: str, org: OrgNames, people: list[str], today: date) -> dict:
    said_in_order = words(step)
    said = set(said_in_order)
    department = org.said_whole(step, org.departments)
    if tool in _DEPARTMENT_READS and (family := family_word(step, org)):
        department = [family]  # "Stores", "Tiendas": every department whose name it begins (the tool reads them)
    if tool == "list_employees":
        args: dict = {}
        if says_any(said, _INACTIVE_WORDS):
            args["is_active"] = False
        elif says_any(said, {"active", "activo", "activos", "activas"}):
            args["is_active"] = True
        if says_any(said, _ADMIN_WORDS):
            args["role"] = "admin"
        if people:
            args["search"] = people[0]
        if department:  # "¿Cuántas personas hay en Logística?"
            args["department"] = max(department, key=len)
        return args
    if tool == "list_pending_courses":  # "Cursos pendientes en Tiendas": its people's; none: everyone's
        return {"department": max(department, key=len)} if department else {}
    if tool == "deactivate_employee":  # a department is answered with who is in it: one person at a time
        return (
            {"employee_name": people[0]} if people else {"department": max(department, key=len)} if department else {}
        )
    if tool == "get_employee_detail":  # with a course: how they are doing in it
        title = _course_title(step, org) if people and _course_meant(step, said, org) else ""
        return {"employee_name": people[0], **({"course_title": title} if title else {})} if people else {}
    if tool == "get_mentorship_suggestions":  # "Who could mentor Laura?"; "…mentor anyone in forklift operation?"
        skill = org.said_whole(step, org.skills)
        return {"employee_name": people[0]} if people else {"skill_name": skill[0]} if len(skill) == 1 else {}
    if tool == "get_skills_matrix":  # a category's skills; a department's people ("the finance team's skills")
        category = (
            org.named(without(step, department), org.categories) if department else org.named(step, org.categories)
        )
        return {
            **({"category": category[0]} if category else {}),
            **({"department": max(department, key=len)} if department else {}),
        }
    if tool == "get_skill_gaps":  # "¿En qué habilidades flojea Logística?": among its people; Lucía's: hers
        number = re.search(r"\b(\d{1,2})\b", step)
        counted = int(number[1]) if number else next((_COUNT_WORDS[w] for w in said_in_order if w in _COUNT_WORDS), 0)
        return {
            **({"threshold": counted} if counted else {}),
            **({"employee_name": people[0]} if people else {}),
            **({"department": max(department, key=len)} if department and not people else {}),
        }
    if tool in ("who_knows", "verify_skill"):
        # "¿Quién sabe de RGPD en Atención al Cliente?": a skill named outside a department's name that is also
        # a category's ("atención al cliente"): that skill, among that department's people
        outside = without(step, department) if department else ""
        step = outside if outside and org.named(outside, org.skills) else step
        # a skill is matched by any of its names (the admin may say it in Spanish or English), typos too
        skills = org.named(step, org.skills)
        # "who knows information security": a category named whole, and no skill, asks for its skills
        category = org.said_whole(step, org.categories) if not org.said_whole(step, org.skills) else []
        if tool == "who_knows" and len(category) == 1:
            args = {"skill_name": category[0]}
        else:
            args = {
                "skill_name": skills[0]
                if len(skills) == 1
                else (_residue(step, people) if not skills else _common_words(skills))
            }
        level = _pick(names.after_correction(said_in_order), LEVEL_WORDS) or _pick(said_in_order, LEVEL_WORDS)
        # "Who in Stores UK is a beginner at returns?": that department's people; never one a skill's or a skill
        # category's name holds ("¿Quién sabe de atención al cliente?" asks about the category)
        named = [f" {' '.join(words(label))} " for label in [*org.skills, *org.categories]]
        if step != outside:
            department = [d for d in department if not any(f" {' '.join(words(d))} " in label for label in named)]
        if tool == "who_knows" and department:
            args["department"] = max(department, key=len)
        # "the beginners at X", "¿Quién tiene nivel bajo en X?": that level only (none is "at least low")
        beginners = says_any(said, BEGINNER_WORDS) or level == "low"
        if tool == "who_knows" and beginners and not said & AT_LEAST_WORDS:
            return {**args, "level": "low"}
        if tool == "who_knows":
            return {**args, "min_level": level} if level else args
        return {**args, "level": level, **({"employee_name": people[0]} if people else {})}
    if tool == "get_alerts":  # "Who's overdue on the security course?": that course's alerts only
        kind = _pick(said_in_order, _ALERT_KIND_WORDS)
        # a course said whole or called one: "Who in Stores UK is overdue?" is no course ("Store policy …")
        outside = without(step, department)  # "Stores UK: who's missed a course deadline?" names no course
        # "¿Quién va retrasado con seguridad de la información?": one course named, if not whole
        meant = org.said_whole(step, org.courses) or _COURSE_WORDS & said or len(org.courses_in(outside)) == 1
        title = _course_title(outside, org) if meant else ""
        # "¿Quién va con retraso en Logística?"; not a department the course's title holds ("atención al cliente")
        department = [d for d in department if not title or fold(d) not in fold(title)]
        return {
            **({"kind": kind} if kind else {}),
            **({"course_title": title} if title else {}),
            **({"department": max(department, key=len)} if department else {}),
            **({"employee_name": people[0]} if people and org.people_in(step) else {}),  # "alerts for Ryan"
        }
    if tool == "list_courses":
        status = _pick(said_in_order, _STATUS_WORDS)
        nobody = says_any(said, _NOBODY_WORDS) or " no one " in f" {' '.join(said_in_order)} "
        return {**({"status": status} if status else {}), **({"nobody_enrolled": True} if nobody else {})}
    if tool in ("get_course_stats", "archive_course", "assign_course"):
        title = _course_title(step, org)
        args = {"course_title": title} if title else {}
        if tool == "assign_course":
            extension = extension_in(step)  # "one more week": each one's deadline 7 days later
            deadline = (
                deadline_in(step, today) if extension is None else extension if isinstance(extension, str) else None
            )
            args["employee_names"] = people
            if department and not people:  # "to the whole Stores UK team": every one of its people, each previewed
                args["department"] = max(department, key=len)
            if isinstance(extension, dict):
                args |= extension
            if deadline:  # a date, or the words said when no parser reads them: the tool names them
                args["deadline"] = deadline.isoformat() if isinstance(deadline, date) else deadline
        return args
    return {}


_COURSE_WORDS = {"course", "curso", "training", "formacion"}
# what a course is, not what it is called: "¿Tiene Sergio algún curso sin terminar?", "any open course"
_UNFINISHED_WORDS = {"sin", "terminar", "acabar", "pendiente", "pendientes", "abierto", "abiertos", "unfinished"}
_UNFINISHED_WORDS |= {"open"}
# "What's Chloe's progress on the returns course?": a course meant without a course word or its whole title
_PROGRESS_WORDS = {"progress", "progreso", "lleva", "far", "donde", "finished", "terminado", "termino", "acabado"}
_PROGRESS_WORDS |= {"done", "completed", "completado", "acabo"}  # "Is Priya done with infosec?"
_PROGRESS_WORDS |= {"avanzado", "avanza", "avanzando", "getting"}  # "¿Harry ha avanzado algo en devoluciones?"
# "Which courses have nobody enrolled?", "¿Hay cursos vacíos?": only the courses no one takes
_NOBODY_WORDS = {"nobody", "nobodys", "noone", "nadie", "empty", "vacio", "vacios", "vacia", "vacias", "zero"}


def _course_meant(step: str, said: set[str], org: OrgNames) -> bool:
    """Whether a question about a person is about one of their courses: a course word, a title said whole, or
    a progress word with a course named and no skill said whole ("Is Harry good at returns and refunds?")."""
    if _COURSE_WORDS & said or org.said_whole(step, org.courses):
        return True
    return bool(_PROGRESS_WORDS & said and org.courses_in(step) and not org.said_whole(step, org.skills))


def _course_title(step: str, org: OrgNames) -> str:
    """The course the step names; when what was said fits several, that phrase, so the tool asks which."""
    titles = org.courses_in(step)
    phrase = course_phrase(step)
    # "their course deadline", "algún curso sin terminar": no course is called "deadline" or "sin terminar"
    if phrase and not set(content_words(phrase)) - _UNFINISHED_WORDS:
        phrase = None
    return titles[0] if len(titles) == 1 else (phrase or _common_words(titles))


def _common_words(names: list[str]) -> str:
    """Several names matched equally: the words they share, so the tool lists them as candidates."""
    shared = set.intersection(*(set(content_words(n)) for n in names)) if names else set()
    return next((w for w in content_words(names[0]) if w in shared), "") if names else ""


def _residue(step: str, people: list[str]) -> str:
    """The words left once routing words and names are gone: what the admin called the skill."""
    taken = {w for p in people for w in words(p)}
    kept = [
        w
        for w in WORD.findall(EMAIL.sub(" ", step))  # as typed: the reply quotes the admin's words
        if len(w) >= 3 and fold(w) not in STOPWORDS and fold(w) not in taken
    ]
    return " ".join(kept)


def _with_nicknames(org: OrgNames) -> OrgNames:
    """The organisation's names and what admins call them for short ("infosec" for the course whose title says
    "information security", "HR" for People & Culture), each a name of the course or department it fits."""
    courses, departments = dict(org.courses), dict(org.departments)
    for nickname, meaning in NICKNAMES.items():
        said = f" {' '.join(words(meaning))} "
        for label, title in org.courses.items():
            if said in f" {' '.join(words(label))} ":
                courses.setdefault(nickname, title)
        for label, department in org.departments.items():
            if words(label) == words(meaning):
                departments.setdefault(nickname, department)
    return replace(org, courses=courses, departments=departments)


# what a follow-up may narrow each read by ("¿y en Logística?", "only the experts", "¿y los vencidos?")
_NARROWED_BY = {
    "who_knows": {"department", "min_level", "level"},
    "get_alerts": {"department", "kind"},
    "list_pending_courses": {"department"},
    "list_employees": {"department", "is_active", "role"},
    "get_skill_gaps": {"department"},
}


def _narrowed(read: dict, message: str, org: OrgNames, today: date) -> dict | None:
    """The previous read again, narrowed by what the follow-up says (a level said replaces the one before);
    None when it names a person or a course (a request of its own) or nothing the read is narrowed by."""
    tool, outside = read["tool"], without(message, org.said_whole(message, org.departments))
    if org.people_in(outside) or org.courses_in(outside):  # "and in Customer Care?" names no course
        return None
    person = read["arguments"].get("employee_name")
    if tool == "get_employee_detail" and person and _UNFINISHED_WORDS & set(words(message)):
        return {"tool": "list_pending_courses", "arguments": {"employee_name": person}}  # "¿y cuáles tiene pendientes?"
    if tool not in _NARROWED_BY:
        return None
    said = {k: v for k, v in arguments_for(tool, message, org, [], today).items() if k in _NARROWED_BY[tool]}
    levels = {"level", "min_level"}
    kept = {k: v for k, v in read["arguments"].items() if not (k in levels and levels & said.keys())}
    return {"tool": tool, "arguments": {**kept, **said}} if said else None


def plan_offline(
    conn: psycopg.Connection,
    org_id: UUID,
    message: str,
    today: date,
    embedder: Embedder,
    earlier: str | None = None,
    answer: EarlierAnswer | None = None,
) -> tuple[list[dict], list[str]]:
    """([{"tool", "arguments"}] for every step that asks for a tool, the steps that don't as suggestions;
    a step no words decide is matched by meaning through ``embedder``). ``earlier``: the admin's previous
    message in the conversation, which "it" / "ese curso" / "dale" point back to; ``answer``: what the previous
    answer read, which "them" / "apúntalos" / "¿y quiénes son?" point back to (``agents.admin.earlier``)."""
    if answer and asks_who_they_are(message, answer):  # "and who are they?": the same reads, listed in full
        return [dict(read) for read in answer["reads"]], []
    org = _with_nicknames(OrgNames.read(conn, org_id))
    named_people, skill = org.people_in(message), org.said_whole(message, org.skills)
    names_its_own = named_people or skill or org.courses_in(message)
    if not names_its_own and (follow_up := skill_follow_up(message, answer)):  # "¿y quién podría enseñarles?"
        return [follow_up], []
    if len(skill) == 1 and not named_people and (other := with_other_skill(message, answer, skill[0])):
        return [other], []  # "what about budget analysis?"
    if answer and narrows(message, answer) and (narrowed := _narrowed(answer["reads"][0], message, org, today)):
        return [narrowed], []
    planned: list[dict] = []
    unplanned: list[str] = []
    message = without_introduction(message, org)  # "Oliver here - …": the speaker is no target
    said_before = earlier_people(message, earlier, org, answer)
    message = with_earlier_course(message, earlier, org, answer)
    step_before = None
    for step in names.rejoin_corrections(split_steps(message, org)):
        people = org.people_in(step) or said_before  # "…and mark him as high": the person said before
        # "Apunta a Javier a seguridad… y dime quién va retrasado en ese curso": the course the step before named
        step, step_before = (with_earlier_course(step, step_before, org) if step_before else step), step
        tool = route(step, org, people, embedder=embedder)
        if tool is None:
            unplanned.append(step)
            continue
        # "Deactivate Ryan and Isabel": one call each, previewed together (one confirm runs both)
        for person in people if tool == "deactivate_employee" and len(people) > 1 else [None]:
            said = [person] if person else people
            arguments = arguments_for(tool, step, org, said, today)
            # "Who is overdue?" → "give them another week": each one's course from that answer, a call a course
            groups = courses_of(said, answer) if tool == "assign_course" and not org.people_in(step) else {}
            if groups and not arguments.get("course_title"):
                calls = [{**arguments, "course_title": c, "employee_names": who} for c, who in groups.items()]
                planned += [{"tool": tool, "arguments": call} for call in calls]
            else:
                planned.append({"tool": tool, "arguments": arguments})
        said_before = people
    return planned, (unplanned if planned else unplanned[1:])
