"""The offline planner: route a message to a tool by exemplar similarity, then pull its arguments
out of the text — people, skills and courses resolved against the organisation, dates, levels.

A request with several steps ("assign X to Ana and then show the alerts") gets its first step
planned; the rest come back as suggested next steps.
"""
from __future__ import annotations

import re
from datetime import date, timedelta
from uuid import UUID

import psycopg

from agents.admin.prompts import HELP_KEYWORDS, MIN_ROUTE_SCORE, STEP_SEPARATORS, TOOL_EXEMPLARS, TOOL_KEYWORDS
from agents.offline import detect_language, match_exemplars
from storage import courses as course_store
from storage import skills as skill_store
from storage import users as user_store
from storage.names import fold

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_WORD = re.compile(r"[^\W_]+")
_QUOTED = re.compile(r"[\"“«'‘]([^\"”»'’]{3,80})[\"”»'’]")
# Words that never name a person, skill or course on their own.
_STOPWORDS = {
    "the", "and", "for", "with", "course", "courses", "skill", "skills", "level", "who", "knows", "show",
    "list", "all", "his", "her", "their", "him", "them", "from", "that", "this", "what", "deadline",
    "del", "las", "los", "una", "uno", "con", "para", "por", "curso", "cursos", "habilidad", "nivel", "quien",
    "sabe", "que", "como", "fecha", "limite", "todos", "todas", "employee", "employees", "empleado",
    "empleados", "empleada", "assign", "asigna", "asignar", "archive", "archiva", "set", "pon", "high", "medium",
    "low", "alto", "alta", "medio", "media", "bajo", "baja", "expert", "experto", "experta",
}
_LEVEL_WORDS = {
    "high": {"high", "alto", "alta", "expert", "experto", "experta", "advanced", "avanzado", "avanzada"},
    "medium": {"medium", "medio", "media", "intermediate", "intermedio", "intermedia"},
    "low": {"low", "bajo", "baja", "basic", "basico", "basica", "beginner", "principiante"},
}
_STATUS_WORDS = {"draft": {"draft", "drafts", "borrador", "borradores"},
                 "published": {"published", "publicado", "publicados", "publicada", "publicadas"},
                 "archived": {"archived", "archivado", "archivados", "archivada", "archivadas"}}
# What an alert question asks for: "¿Quién tiene cursos vencidos?" is overdue only, never "at risk".
_ALERT_KIND_WORDS = {
    "overdue": {"overdue", "vencido", "vencidos", "vencida", "vencidas", "late", "atrasado", "atrasados"},
    "deadline_at_risk": {"risk", "riesgo"},
    "repeated_failures": {"failures", "failing", "fails", "fallos", "falla", "fallan", "suspensos"},
    "inactive": {"inactive", "inactivos", "inactivas", "inactividad"},
    "skill_expired": {"expired", "caducada", "caducadas", "caducado", "caducados"},
    "skill_expiring": {"expiring", "expire", "expires", "caducan", "caducar", "caduca"},
}
_MONTHS = {name: number for number, names in enumerate(
    [("january", "enero"), ("february", "febrero"), ("march", "marzo"), ("april", "abril"), ("may", "mayo"),
     ("june", "junio"), ("july", "julio"), ("august", "agosto"), ("september", "septiembre", "setiembre"),
     ("october", "octubre"), ("november", "noviembre"), ("december", "diciembre")], start=1) for name in names}
_UNITS = {"day": 1, "days": 1, "dia": 1, "dias": 1, "week": 7, "weeks": 7, "semana": 7, "semanas": 7,
          "month": 30, "months": 30, "mes": 30, "meses": 30}


def words(text: str) -> list[str]:
    return [fold(word) for word in _WORD.findall(EMAIL.sub(" ", text or ""))]


def split_steps(message: str) -> list[str]:
    steps = [message]
    for separator in STEP_SEPARATORS:
        steps = [part for step in steps for part in re.split(re.escape(separator), step, flags=re.IGNORECASE)]
    return [step.strip(" ,.;") for step in steps if step.strip(" ,.;")]


def extract_people(message: str, people: list[user_store.EmployeeSummary]) -> list[str]:
    """Each person mentioned: an email, or runs of name words ("Lucía", "james smith"). A run that fits
    several people comes back as the words typed, so the tool answers with the candidates."""
    mentions = [email for email in EMAIL.findall(message.lower()) if any(p.email == email for p in people)]
    index: dict[str, set[UUID]] = {}
    for person in people:
        for part in words(person.full_name):
            if len(part) >= 3 and part not in _STOPWORDS:
                index.setdefault(part, set()).add(person.id)
    by_id = {p.id: p for p in people}
    run_ids: set[UUID] | None = None
    run_words: list[str] = []
    for token in [*words(message), None]:
        ids = _name_ids(index, token)
        if ids and run_ids is not None and run_ids & ids:
            run_ids, run_words = run_ids & ids, [*run_words, token]
            continue
        if run_ids:
            mentions.append(by_id[next(iter(run_ids))].full_name if len(run_ids) == 1 else " ".join(run_words))
        run_ids, run_words = (set(ids), [token]) if ids else (None, [])
    return list(dict.fromkeys(mentions))


def _name_ids(index: dict[str, set[UUID]], token: str | None) -> set[UUID] | None:
    """Who a word names: a whole name word, else the start of one ("Mar" → Marta, Marina, Martín)."""
    if not token or len(token) < 3 or token in _STOPWORDS:
        return None
    if token in index:
        return index[token]
    ids = set().union(*(ids for name, ids in index.items() if name.startswith(token)))
    return ids or None


def _content_words(text: str) -> list[str]:
    return [w for w in words(text) if len(w) >= 3 and w not in _STOPWORDS]


def best_names(message: str, names: list[str], same: dict[str, str] | None = None) -> list[str]:
    """The names best covered by the message's words (a 5-letter prefix counts: devolución/devoluciones).
    ``same`` maps each name to what it names (a skill's English and Spanish names name one skill), so
    two names of one thing tying is still a single winner."""
    quoted = [fold(q) for q in _QUOTED.findall(message)]
    message_words = {w[:5] for w in _content_words(message)}
    scored: list[tuple[float, str]] = []
    for name in names:
        if fold(name) in fold(message) or any(q and q in fold(name) for q in quoted):
            scored.append((2.0 + len(name) / 1000, name))
            continue
        parts = {w[:5] for w in _content_words(name)}
        if parts:
            scored.append((len(parts & message_words) / len(parts), name))
    best = max((score for score, _ in scored), default=0.0)
    winners = [name for score, name in scored if score == best]
    single = len({(same or {}).get(name, name) for name in winners}) == 1
    # half the name's words said, or fewer when that alone singles one out ("the returns course", "LOTO")
    return winners if best >= 0.5 or (best > 0 and single) else []


def course_phrase(message: str) -> str | None:
    """What the admin called the course when no title matched: quoted text, the words after 'course' ("the
    course Safety Basics", "el curso de Seguridad"), or before it ("the Returns and Refunds course to Ryan")."""
    quoted = _QUOTED.findall(message)
    if quoted:
        return quoted[0].strip()
    after = re.search(r"\b(?:course|curso)\s+(?:de\s+|del\s+|on\s+|about\s+|called\s+|llamado\s+)?"
                      r"(?!(?:to|a|al|para|for|by)\b)"    # "course to Ryan": Ryan is the person, not the course
                      r"(.+?)(?:\s+(?:to|a|para|by|before|antes|with|con|in|en)\s+|[,.;?!]|$)", message, re.IGNORECASE)
    if after:
        return after.group(1).strip()
    before = re.search(r"\bthe\s+(.+?)\s+course\b", message, re.IGNORECASE)
    return before.group(1).strip() if before else None


def extract_date(message: str, today: date) -> date | None:
    text = fold(message)
    if match := re.search(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b", text):
        parts = (int(match[1]), int(match[2]), int(match[3]))
    elif match := re.search(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b", text):
        parts = (int(match[3]), int(match[2]), int(match[1]))
    elif match := re.search(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:de\s+|of\s+)?([a-z]+)(?:\s+(?:de\s+)?(\d{4}))?", text) \
            or re.search(r"\b([a-z]+)\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?", text):
        day, month = (match[1], match[2]) if match[1].isdigit() else (match[2], match[1])
        if month not in _MONTHS:
            match = None
        else:
            year = int(match[3]) if match[3] else today.year
            parts = (year, _MONTHS[month], int(day))
            if not match[3] and date(*parts) < today:
                parts = (year + 1, _MONTHS[month], int(day))
    if match:
        try:
            return date(*parts)
        except ValueError:
            return None
    if match := re.search(r"\b(?:in|en|within|dentro de)\s+(\d{1,3})\s+([a-z]+)", text):
        if match[2] in _UNITS:
            return today + timedelta(days=int(match[1]) * _UNITS[match[2]])
    if re.search(r"\b(tomorrow|manana)\b", text):
        return today + timedelta(days=1)
    if re.search(r"\b(next week|proxima semana|semana que viene)\b", text):
        return today + timedelta(days=7)
    return None


def _pick(words_in: set[str], table: dict[str, set[str]]) -> str | None:
    return next((key for key, synonyms in table.items() if words_in & synonyms), None)


def arguments_for(tool: str, step: str, conn: psycopg.Connection, org_id: UUID, today: date) -> dict:
    said = set(words(step))
    people = extract_people(step, user_store.list_employees(conn, org_id))
    if tool == "list_employees":
        args: dict = {}
        if said & {"inactive", "inactivo", "inactivos", "inactivas", "deactivated", "desactivados"}:
            args["is_active"] = False
        elif said & {"active", "activo", "activos", "activas"}:
            args["is_active"] = True
        if said & {"admin", "admins", "administrador", "administradores"}:
            args["role"] = "admin"
        if people:
            args["search"] = people[0]
        return args
    if tool in ("get_employee_detail", "deactivate_employee"):
        return {"employee_name": people[0]} if people else {}
    if tool == "get_skills_matrix":
        # a category is matched by any of its names, and one category's names count once
        canonical = {label: name for lang in ("en", "es")
                     for name, label in skill_store.category_names(conn, org_id, lang).items()}
        canonical |= {name: name for name in set(canonical.values())}
        category = list(dict.fromkeys(canonical[label] for label in best_names(step, list(canonical), canonical)))
        return {"category": category[0]} if category else {}
    if tool == "get_skill_gaps":
        number = re.search(r"\b(\d{1,2})\b", step)
        return {"threshold": int(number[1])} if number else {}
    if tool in ("who_knows", "verify_skill"):
        # a skill is matched by any of its names (the admin may say it in Spanish or English); several
        # names of one skill count once, by its canonical name
        canonical = {label: s.name for s in skill_store.list_skills(conn, org_id) for label in s.all_names()}
        skills = list(dict.fromkeys(canonical[label] for label in best_names(step, list(canonical), canonical)))
        args = {"skill_name": skills[0] if len(skills) == 1 else (_residue(step, people) if not skills else
                                                                   _common_words(skills))}
        level = _pick(said, _LEVEL_WORDS)
        if tool == "who_knows":
            return {**args, "min_level": level} if level else args
        return {**args, "level": level, **({"employee_name": people[0]} if people else {})}
    if tool == "get_alerts":
        kind = _pick(said, _ALERT_KIND_WORDS)
        return {"kind": kind} if kind else {}
    if tool == "list_courses":
        status = _pick(said, _STATUS_WORDS)
        return {"status": status} if status else {}
    if tool in ("get_course_stats", "archive_course", "assign_course"):
        # a course is matched by its title in any language, and one course's titles count once
        canonical = {label: c.title for c in course_store.list_courses(conn, org_id)
                     for label in dict.fromkeys([c.title, *c.titles.values()])}
        titles = list(dict.fromkeys(canonical[label] for label in best_names(step, list(canonical), canonical)))
        title = titles[0] if len(titles) == 1 else (course_phrase(step) or _common_words(titles))
        args = {"course_title": title} if title else {}
        if tool == "assign_course":
            deadline = extract_date(step, today)
            args |= {"employee_names": people, **({"deadline": deadline.isoformat()} if deadline else {})}
        return args
    return {}


def _common_words(names: list[str]) -> str:
    """Several names matched equally: the words they share, so the tool lists them as candidates."""
    shared = set.intersection(*(set(_content_words(n)) for n in names)) if names else set()
    return next((w for w in _content_words(names[0]) if w in shared), "") if names else ""


def _residue(step: str, people: list[str]) -> str:
    """The words left once routing words and names are gone: what the admin called the skill."""
    taken = {w for p in people for w in words(p)}
    kept = [w for w in _WORD.findall(EMAIL.sub(" ", step))  # as typed: the reply quotes the admin's words
            if len(w) >= 3 and fold(w) not in _STOPWORDS and fold(w) not in taken]
    return " ".join(kept)


def _says(text: str, phrase: str) -> bool:
    return re.search(rf"\b{re.escape(' '.join(words(phrase)))}\b", " ".join(words(text))) is not None


def route(step: str) -> str | None:
    """The tool for one step: a keyword said word for word, else the most similar exemplar (if close)."""
    if any(_says(step, phrase) for phrase in HELP_KEYWORDS):
        return None
    for tool, phrases in TOOL_KEYWORDS.items():
        if any(_says(step, phrase) for phrase in phrases):
            return tool
    tool, score = match_exemplars(step, TOOL_EXEMPLARS)
    return tool if tool and score >= MIN_ROUTE_SCORE else None


def reply_language(conn: psycopg.Connection, org_id: UUID, message: str, default: str) -> str:
    """The language the admin wrote in, judged without the names in it ("asigna Returns and Refunds
    Essentials a James" is Spanish); only Spanish or English, else the admin's own language."""
    text = message
    titles = [c.title for c in course_store.list_course_summaries(conn, org_id)]
    titles += [name for skill in skill_store.list_skills(conn, org_id) for name in skill.all_names()]
    for title in sorted(titles, key=len, reverse=True):
        text = re.sub(re.escape(title), " ", text, flags=re.IGNORECASE)
    name_words = {w for p in user_store.list_employees(conn, org_id) for w in words(p.full_name)}
    text = " ".join(w for w in re.split(r"\s+", EMAIL.sub(" ", text)) if fold(w.strip("¿?¡!.,;:'’")) not in name_words)
    lang = detect_language(text, default=default)
    return lang if lang in ("es", "en") else default


def plan_offline(conn: psycopg.Connection, org_id: UUID, message: str, today: date) -> tuple[list[dict], list[str]]:
    """([{"tool", "arguments"}] for the first step, the remaining steps as suggestions)."""
    steps = split_steps(message)
    if not steps:
        return [], []
    tool = route(steps[0])
    if not tool and not any(_says(steps[0], phrase) for phrase in HELP_KEYWORDS) \
            and extract_people(steps[0], user_store.list_employees(conn, org_id)):
        tool = "get_employee_detail"  # "How is Priya doing?": a person and no other request is about them
    if not tool:
        return [], steps[1:]
    return [{"tool": tool, "arguments": arguments_for(tool, steps[0], conn, org_id, today)}], steps[1:]
