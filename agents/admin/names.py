"""What an admin's words name in the organisation: people, skills, courses and categories, matched
through accents, partial words and typos ("Jmaes", "phising", "Saftey"), using ``rapidfuzz``.

``OrgNames`` is read once per request and answers for every step of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from uuid import UUID

import psycopg
from rapidfuzz.distance import DamerauLevenshtein

from agents.admin.step_words import SELF_CORRECTIONS
from core.names import fold
from storage import courses as course_store
from storage import skills as skill_store
from storage import users as user_store

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
WORD = re.compile(r"[^\W_]+")
_QUOTED = re.compile(r"[\"“«'‘]([^\"”»'’]{3,80})[\"”»'’]")
_ACRONYM = re.compile(r"\(([A-Z][A-Z ]{2,})\)")
# Words that never name a person, skill or course on their own.
# "training": "¿Quién va atrasado con su formación?" names no course ("información" is one slip away)
# courtesy around a request ("Oye, … porfa", "Hi! …, cheers"): it names nothing and asks nothing
STOPWORDS = {
    "ser",  # "¿Quién podría ser mentor de Laura?": a verb, never Sergio
    "son",
    "the",
    "and",
    "for",
    "with",
    "course",
    "courses",
    "skill",
    "skills",
    "level",
    "who",
    "knows",
    "show",
    "list",
}
STOPWORDS |= {"all", "his", "her", "their", "him", "them", "from", "that", "this", "what", "deadline", "del", "las"}
STOPWORDS |= {
    "los",
    "una",
    "uno",
    "con",
    "para",
    "por",
    "curso",
    "cursos",
    "training",
    "formacion",
    "habilidad",
    "nivel",
}
STOPWORDS |= {"quien", "sabe", "que", "como", "fecha", "limite", "todos", "todas", "employee", "employees", "empleado"}
STOPWORDS |= {
    "empleados",
    "empleada",
    "assign",
    "asigna",
    "asignar",
    "archive",
    "archiva",
    "set",
    "pon",
    "high",
    "medium",
}
STOPWORDS |= {"low", "alto", "alta", "medio", "media", "bajo", "baja", "expert", "experto", "experta", "mark", "marca"}
STOPWORDS |= {"rate", "verify", "verifica", "enrol", "enroll", "please", "favor", "thanks", "gracias", "hola", "hello"}
STOPWORDS |= {
    "could",
    "would",
    "mind",
    "access",
    "acceso",
    "account",
    "cuenta",
    "programme",
    "program",
    "hey",
    "cheers",
}
STOPWORDS |= {
    "kindly",
    "thank",
    "buenas",
    "buenos",
    "tardes",
    "oye",
    "porfa",
    "porfis",
    "antemano",
    "you",
    "can",
    "puedes",
}
STOPWORDS |= {"podrias"}
# endings that make a first name familiar ("Tommy", "Pablito")
_DIMINUTIVES = ("my", "ie", "ito", "ita")
# A typo is one slip in five letters: "Jmaes"/"James", "phising"/"phishing", "alretas"/"alertas".
TYPO_SIMILARITY = 0.8


def words(text: str) -> list[str]:
    return [fold(word) for word in WORD.findall(EMAIL.sub(" ", text or ""))]


def after_correction(said: list[str]) -> list[str]:
    """The words after the admin's last self-correction (step_words.SELF_CORRECTIONS), none when they make none."""
    ends = [at + len(c) for c in SELF_CORRECTIONS for at in range(len(said)) if said[at : at + len(c)] == c]
    return said[max(ends) :] if ends else []


def rejoin_corrections(steps: list[str]) -> list[str]:
    """A request cut into steps right after a self-correction ("… en medium… bueno no" | "en high, …") is one
    step again: what follows the correction says what the step before meant."""
    joined: list[str] = []
    for step in steps:
        if joined and any(words(joined[-1])[-len(c) :] == c for c in SELF_CORRECTIONS):
            joined[-1] += ", " + step
        else:
            joined.append(step)
    return joined


def content_words(text: str) -> list[str]:
    return [w for w in words(text) if len(w) >= 3 and w not in STOPWORDS]


def typo_of(typed: str, known: str, min_length: int = 5) -> bool:
    """``typed`` is ``known`` with one slip: a letter missed, doubled, swapped or wrong, a Spanish letter
    that sounds the same ("desactiba", "reclamasiones") counting as none. Never an inflection ("archived"
    is not a typo of "archive") and never a short word."""
    if min(len(typed), len(known)) < min_length or typed.startswith(known) or known.startswith(typed):
        return False
    return any(
        DamerauLevenshtein.normalized_similarity(a, b) >= TYPO_SIMILARITY
        for a, b in ((typed, known), (_sounded(typed), _sounded(known)))
    )


_SOUNDS = ((re.compile("v"), "b"), (re.compile("c(?=[ei])|z"), "s"), (re.compile("ll"), "y"))


def _sounded(word: str) -> str:
    for letters, sound in _SOUNDS:
        word = letters.sub(sound, word)
    return word


def says_any(said: Iterable[str], vocabulary: set[str]) -> bool:
    """Whether one of the words said is one of ``vocabulary``'s, as typed or with one slip ("ovrdue")."""
    return any(w in vocabulary or any(typo_of(w, known) for known in vocabulary) for w in said)


def _typed_as(word: str, said: set[str]) -> bool:
    """A name's word the message says: whole, its first five letters (devolución/devoluciones), or with a typo."""
    return word in said or any(
        w[:5] == word[:5] and abs(len(w) - len(word)) <= 3 or typo_of(w, word)
        for w in said
        if len(w) >= 5 and len(word) >= 5
    )


def without(text: str, labels: Iterable[str]) -> str:
    """``text``'s words (accents and case aside) with each label said in it taken out: what it says outside those
    names ("Quién sabe de RGPD en atencion al cliente" without the department: "quien sabe de rgpd en")."""
    said = f" {' '.join(words(text))} "
    for label in labels:
        said = said.replace(f" {' '.join(words(label))} ", " ")
    return said.strip()


def best_names(message: str, names: list[str], same: dict[str, str] | None = None) -> list[str]:
    """The names best covered by the message's words. ``same`` maps each name to what it names (a skill's
    English and Spanish names name one skill), so two names of one thing tying is still a single winner."""
    quoted = [fold(q) for q in _QUOTED.findall(message)]
    said = set(content_words(message))
    scored: list[tuple[float, str]] = []
    for name in names:
        acronym = _ACRONYM.search(name)  # "RGPD" is Protección de datos (RGPD), "LOTO" Lockout-tagout (LOTO)
        said_acronym = acronym and f" {' '.join(words(acronym[1]))} " in f" {' '.join(words(message))} "
        if fold(name) in fold(message) or said_acronym or any(q and q in fold(name) for q in quoted):
            scored.append((2.0 + len(name) / 1000, name))
            continue
        parts = set(content_words(name))
        if parts:
            scored.append((sum(_typed_as(part, said) for part in parts) / len(parts), name))
    best = max((score for score, _ in scored), default=0.0)
    winners = [name for score, name in scored if score == best]
    single = len({(same or {}).get(name, name) for name in winners}) == 1
    # half the name's words said, or fewer when that alone singles one out ("the returns course", "LOTO")
    return winners if best >= 0.5 or (best > 0 and single) else []


def extract_people(message: str, people: list) -> list[str]:
    """Each person mentioned: an email, or runs of name words ("Lucía", "james smith", "Jmaes"). A run
    that fits several people comes back as the words typed, so the tool answers with the candidates."""
    mentions = [email for email in EMAIL.findall(message.lower()) if any(p.email == email for p in people)]
    index: dict[str, set[UUID]] = {}
    for person in people:
        for part in words(person.full_name):
            if len(part) >= 3 and part not in STOPWORDS:
                index.setdefault(part, set()).add(person.id)
    by_id = {p.id: p for p in people}
    run_ids: set[UUID] | None = None
    run_words: list[str] = []
    for token in [*words(message), ""]:  # "": the end, which closes the last run
        ids = _name_ids(index, token)
        if ids and run_ids is not None and run_ids & ids:
            run_ids, run_words = run_ids & ids, [*run_words, token]
            continue
        if run_ids:
            mentions.append(by_id[next(iter(run_ids))].full_name if len(run_ids) == 1 else " ".join(run_words))
        run_ids, run_words = (set(ids), [token]) if ids else (None, [])
    return list(dict.fromkeys(mentions))


def _name_ids(index: dict[str, set[UUID]], token: str | None) -> set[UUID] | None:
    """Who a word names: a whole name word, the start of one ("Mar" → Marta, Marina, Martín), or one
    with a typo ("Pirya" → Priya)."""
    if not token or len(token) < 3 or token in STOPWORDS:
        return None
    if token in index:
        return index[token]
    if stem := next(
        (token[: -len(end)] for end in _DIMINUTIVES if token.endswith(end) and token[: -len(end)] in index), None
    ):
        return index[stem]  # "Tommy" is Tom
    ids = set().union(*(ids for name, ids in index.items() if name.startswith(token)))
    if not ids:
        ids = set().union(*(ids for name, ids in index.items() if typo_of(token, name)))
    return ids or None


@dataclass(frozen=True)
class OrgNames:
    """The organisation's names, read once per request: people, and every name of each skill, course
    and skill category mapped to its canonical one."""

    people: list[user_store.EmployeeSummary]
    skills: dict[str, str]
    courses: dict[str, str]
    categories: dict[str, str]
    departments: dict[str, str]

    @classmethod
    def read(cls, conn: psycopg.Connection, org_id: UUID) -> OrgNames:
        categories = {
            label: name
            for lang in ("en", "es")
            for name, label in skill_store.category_names(conn, org_id, lang).items()
        }
        return cls(
            user_store.list_employees(conn, org_id),
            {label: s.name for s in skill_store.list_skills(conn, org_id) for label in s.all_names()},
            {
                label: c.title
                for c in course_store.list_courses(conn, org_id)
                for label in dict.fromkeys([c.title, *c.titles.values()])
            },
            categories | {name: name for name in set(categories.values())},
            {  # each department by its name in either language ("Logística", "Logistics")
                person.department: person.department
                for lang in ("en", "es")
                for person in user_store.list_employees(conn, org_id, lang=lang)
                if person.department
            },
        )

    def people_in(self, text: str) -> list[str]:
        return extract_people(text, self.people)

    def said_whole(self, text: str, table: dict[str, str]) -> list[str]:
        """The canonical names one of whose labels ``text`` holds whole (case and accents aside); a label of
        under four letters only as written, capitals and all ("IT" is a department, "it" is not)."""
        folded = f" {' '.join(words(text))} "

        def said(label: str) -> bool:
            if len(label) < 4:
                return re.search(rf"\b{re.escape(label)}\b", text) is not None
            return f" {' '.join(words(label))} " in folded

        return list(dict.fromkeys(name for label, name in table.items() if said(label)))

    def named(self, text: str, table: dict[str, str]) -> list[str]:
        """The canonical names ``text`` names in ``table`` (one winner, several tied, or none)."""
        return list(dict.fromkeys(table[label] for label in best_names(text, list(table), table)))

    def courses_in(self, text: str) -> list[str]:
        """The courses ``text`` names; when what it calls the course ("el curso de seguridad", "the essentials
        course") fits several titles and is none of them whole, every course it fits (the tool asks which)."""
        named = self.named(text, self.courses)
        phrase = course_phrase(text)
        said = content_words(phrase) if phrase else []
        typed = set(content_words(text))
        if (
            not said
            or len(named) > 1
            or any(
                course in named and all(_typed_as(word, typed) for word in content_words(label))
                for label, course in self.courses.items()
            )
        ):
            return named  # a title said whole, typos aside ("segurida en el almacen"), is that course
        fitting = [
            course
            for label, course in self.courses.items()
            if all(_typed_as(word, set(content_words(label))) for word in said)
        ]
        fitting = list(dict.fromkeys(fitting))
        # several: the tool asks which; one, when the words alone tied ("the whole Customer Care team on the
        # security course": "customer" and "security" each fit a title): the one the course phrase names
        return fitting if len(fitting) > 1 or (fitting and not named) else named


def course_phrase(message: str) -> str | None:
    """What the admin called the course when no title matched: quoted text, the words after 'course' ("the
    course Safety Basics", "el curso de Seguridad"), or before it ("the Returns and Refunds course to Ryan")."""
    quoted = _QUOTED.findall(message)
    if quoted:
        return quoted[0].strip()
    after = re.search(
        r"\b(?:course|curso)\s+(?:de\s+|del\s+|on\s+|about\s+|called\s+|llamado\s+)?"
        r"(?!(?:to|a|al|para|for|by)\b)"  # "course to Ryan": Ryan is the person, not the course
        r"(.+?)(?:\s+(?:to|a|para|by|before|antes|with|con|in|en)\s+|[,.;?!]|$)",
        message,
        re.IGNORECASE,
    )
    if after:
        return after.group(1).strip()
    # the last "the" before "course": "the whole Stores UK team in the returns course" → "returns"
    before = re.search(r".*\bthe\s+(.+?)\s+course\b", message, re.IGNORECASE)
    return before.group(1).strip() if before else None
