"""Which read a request about a department as a group asks for, when no tool's keyword decides: its people's
unfinished courses, its head count, or its people's skills ("¿Qué habilidades tiene el equipo de finanzas?").
Departments are said whole, or by a word that begins several of them ("Stores": Stores Spain and Stores UK)."""

from __future__ import annotations

import re

from agents.admin.names import OrgNames, says_any, without
from agents.admin.resolve import department_family
from agents.admin.vocabulary import HEADCOUNT_WORDS

_RAW_WORD = re.compile(r"[^\W\d_]+")
_HOW_FAR_WORDS = {"doing", "going", "van", "llevan", "progress", "progreso"}
_COURSE_WORDS = {"course", "curso", "courses", "cursos"}
# Unfinished courses ("Cursos pendientes en Tiendas", "¿Cuántas personas no han terminado la formación?")
_PENDING_WORDS = {"pending", "pendiente", "pendientes", "unfinished", "outstanding", "incomplete", "open", "abiertos"}
_PENDING_PHRASES = ["sin terminar", "sin acabar", "por terminar", "not finished", "still to finish", "to finish"]
_PENDING_PHRASES += ["left to finish", "what s left", "queda por terminar", "les queda", "le queda", "left to do"]
_PENDING_PHRASES += ["hasn t finished", "haven t finished", "hasn t completed", "haven t completed", "not completed"]
_PENDING_PHRASES += ["no ha terminado", "no han terminado", "no ha acabado", "no han acabado", "no han completado"]
# "list all the customer care staff with their skills": what its people know, each person's levels
_SKILL_WORDS = {"skills", "skill", "skillset", "habilidades", "habilidad", "competencias", "conocimientos"}
_SKILL_WORDS |= {"good", "strong", "expertise"}  # "what are the Stores UK team good at?"
# …unless it asks what the team lacks ("Which skills is Logistics weakest in?": the skill gaps)
_LACK_WORDS = {"weak", "weakest", "weaker", "gap", "gaps", "missing", "lack", "lacks", "lacking", "need", "needs"}
_LACK_WORDS |= {"flojea", "flojean", "flojos", "brechas", "carencias", "cortos", "falta", "faltan", "necesita"}
_LACK_WORDS |= {"nobody", "nadie", "expert", "experts", "experto", "expertos", "fewer", "menos", "necesitan"}


def about_a_department(step: str, said: list[str], org: OrgNames) -> str | None:
    """A department's courses left to finish (list_pending_courses; also said of everyone), its people's skills
    (get_skills_matrix for it) or its head count (list_employees): "¿Cuántas personas hay en Atención al
    Cliente?" names the department, not the course whose title holds the same words, so a course counts only
    when named outside the department's name."""
    plain = f" {' '.join(said)} "
    family = family_word(step, org)
    departments = [family] if family else org.said_whole(step, org.departments)
    outside = without(step, departments)
    course_named = bool(org.courses_in(outside)) if outside.strip() else False
    # "¿Cómo van los de Logística con sus cursos?": how far its people are in what they have open
    progress = departments and set(said) & {"courses", "cursos"} and set(said) & _HOW_FAR_WORDS
    if (
        (says_pending(said) or progress)
        and (departments or set(said) & {*_COURSE_WORDS, "training", "formacion"})
        and not course_named
    ):
        return "list_pending_courses"
    if departments and set(said) & _SKILL_WORDS and not set(said) & (_LACK_WORDS | _COURSE_WORDS):
        if not org.named(outside, org.skills) and not org.named(outside, org.categories):
            return "get_skills_matrix"
    counted = any(f" {phrase} " in plain for phrase in HEADCOUNT_WORDS)
    if departments and counted and not course_named and not set(said) & _COURSE_WORDS:
        return "list_employees"
    return None


def says_pending(said: list[str]) -> bool:
    """Courses not finished yet: "pendientes", "sin terminar", "what's left", "hasn't finished"."""
    plain = f" {' '.join(said)} "
    return says_any(said, _PENDING_WORDS) or any(f" {phrase} " in plain for phrase in _PENDING_PHRASES)


def family_word(step: str, org: OrgNames) -> str | None:
    """A word said alone that begins several departments' names ("Who in Stores…": Stores Spain and Stores UK),
    as typed; the tool reads it as all of them (``resolve.department_members``). None when a department is said
    whole ("Tiendas" is the department so named, not Tiendas Reino Unido too)."""
    if org.said_whole(step, org.departments):
        return None
    return next((w for w in _RAW_WORD.findall(step) if department_family(w, org.departments)), None)
