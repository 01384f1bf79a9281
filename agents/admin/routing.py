"""Which tool each step of an admin's request asks for: the offline planner's first half.

A request is cut into steps ("show the alerts and the matrix": two; "assign it to Javier y Ana": one),
and each step goes to a tool by, in order: a write keyword not asked as a question; a level said with a
person and a skill ("Mark Tom as high in forklift operation"); an assigning verb with a course and a
person ("Give Emily the customer service course"); nothing, when it asks what no tool does; a read
keyword; the most similar exemplar (if close, and what its tool needs is named); a person alone.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from rapidfuzz.distance import DamerauLevenshtein

from agents.admin.deadlines import extension_in, gives_deadline
from agents.admin.department_routes import about_a_department, says_pending
from agents.admin.names import OrgNames, content_words, says_any, typo_of, words
from agents.admin.nearest import removes_a_course, unenrols
from agents.admin.prompts import MIN_ROUTE_SCORE, TOOL_EXEMPLARS
from agents.admin.step_words import ACCESS_WORDS, HELP_KEYWORDS, HELP_ONLY_WORDS, JOINERS, OUT_OF_SCOPE, STEP_SEPARATORS
from agents.admin.vocabulary import (
    ASSIGN_VERBS,
    NEEDS_COURSE,
    NEEDS_PERSON,
    QUESTION_WORDS,
    TOOL_KEYWORDS,
)
from agents.offline import match_exemplars

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

WRITES = ("assign_course", "verify_skill", "deactivate_employee", "archive_course")
LEVEL_WORDS = {
    "high": {"high", "alto", "alta", "expert", "experto", "experta", "advanced", "avanzado", "avanzada"}
    | {"experts", "expertos", "expertas"},
    "medium": {"medium", "medio", "media", "intermediate", "intermedio", "intermedia"},
    "low": {"low", "bajo", "baja", "basic", "basico", "basica", "beginner", "principiante"}
    | {"beginners", "principiantes", "novice", "novices", "novato", "novatos", "novata", "novatas"},
}
_KEYWORD_WORDS = {tool: [words(phrase) for phrase in phrases] for tool, phrases in TOOL_KEYWORDS.items()}
# A step opening with one of these asks whether something is so; it orders nothing.
YES_NO_STARTS = {"is", "are", "was", "were", "has", "have", "did", "does", "está", "sigue", "ha", "tiene"}
_ASKING_STARTS = {"do", "should", "shall", "han", "ya", "se"}  # with a question mark: "¿Ya archivaste…?"
_RAW_WORD = re.compile(r"[^\W\d_]+")
_ANTONYMS = {"reactivate", "reactivar", "reactiva", "reactivalo", "reactivala", "activate", "activar", "activa"}
_PARTICIPLE = re.compile(r"(?:ad|id)(?:o|a|os|as)$")
# a request asked politely ("Can you…?", "¿Me puedes…?"), after any greeting: an order, not a yes/no question
_POLITE_WORDS = {"can", "could", "would", "will", "please", "puedes", "podrias", "podrías", "puede", "podría"}
_POLITE_WORDS |= {"podemos", "quieres", "mind", "importa", "pls", "plz", "porfa", "favor", "need", "necesito"}
_POLITE_WORDS |= {"metes", "pones", "apuntas", "inscribes", "asignas"}  # "¿Me metes a David en…?": an order
_GREETINGS = {"hi", "hello", "hey", "hola", "buenas", "oye", "ok", "vale", "sorry", "perdona", "me", "te", "nos"}
_LEARNER_WORDS = {"learners", "learner", "students", "alumnos", "alumnas", "estudiantes"}
_GONE_QUIET_WORDS = {"inactive", "inactivos", "inactivas", "inactivo", "inactiva"}
# "Who works in Tiendas?", "¿Quiénes están en Logística?": a department's people
_STAFF_WORDS = {"works", "work", "working", "trabaja", "trabajan", "who", "quien", "quienes", "people", "personas"}
_STAFF_WORDS |= {"team", "equipo", "staff", "plantilla", "gente", "members", "miembros", "everyone", "everybody"}
_STAFF_WORDS |= {"anyone", "anybody", "alguien"}  # "¿Hay alguien inactivo en Logística?"
_KNOW_WORDS = {"know", "knows", "sabe", "saben", "domina", "dominan", "maneja", "manejan"}
_KNOW_WORDS |= {"handy", "controla", "controlan", "good", "strong", "fuerte", "fuertes"}  # "anyone handy with X?"
_LACKING_WORDS = {"missing", "lacking", "lack", "lacks", "falta", "faltan"}
_REMOVE_VERBS = {"remove", "revoke", "cut", "quita", "quitale", "elimina", "retira", "retirale", "bloquea"}
_DEADLINE_WORDS = {"deadline", "deadlines", "plazo", "plazos"}
_MOVE_VERBS = {"move", "change", "push", "bump", "set", "extend", "bring", "cambia", "cambiale", "mueve", "pasa", "pon"}
_MOVE_VERBS |= {"ponle", "amplia", "alarga", "adelanta", "retrasa", "aplaza", "extiende"}
_LISTING_WORDS = {"list", "lista", "listar", "show", "muestra", "muestrame", "ensename", "employees", "empleados"}
# words that only ask about the person named ("what about Tom?", "¿y Lucía qué tal?")
_ABOUT_WORDS = {"about", "tal", "sobre", "info", "information", "informacion", "datos", "details", "detalles", "news"}
_ABOUT_WORDS |= {"update", "how", "going", "everything", "todo", "quick", "question", "pregunta", "ensename"}
_ABOUT_WORDS |= {"muestrame"}
_ABOUT_WORDS |= {"ver", "see", "open", "abre", "look", "mira", "dime", "tell", "show"}


def _word_is(typed: str, keyword: str) -> bool:
    # "assigning", "archiving" say the verb ("archived" does not: a state, asked about); a short keyword
    # takes no typo unless the lengths match ("stats" is not "status", "matris" is "matriz")
    forms = (keyword + "ing", keyword[:-1] + "ing", keyword + keyword[-1] + "ing")
    if typed == keyword or typed in forms:
        return True
    if typed in _ANTONYMS or keyword in _ANTONYMS:
        return False  # "reactivate" is no slip of "deactivate", nor "deactivated" of "reactivate"
    if _PARTICIPLE.search(typed) and not _PARTICIPLE.search(keyword):
        return False  # a state, not an order: "apuntado" is no slip of "apúntalo" ("¿Hay cursos sin nadie apuntado?")
    if len(typed) > len(keyword) and len(os.path.commonprefix([typed, keyword])) >= len(keyword) - 1:
        return False  # another ending of the same word ("desactivada", "¿está desactivada?"), not a slip
    return (
        (len(keyword) >= 6 or len(typed) == len(keyword))
        and typo_of(typed, keyword)
        or (
            len(keyword) >= 5
            and not keyword.endswith("ed")  # "missing" is no slip of "missed"
            and any(DamerauLevenshtein.distance(typed, form) == 1 for form in forms)  # "assignnig"
        )
    )


def said_at(step_words: list[str], phrase: list[str]) -> int | None:
    """Where ``phrase`` is said in the step (each word as typed or with one slip), else None."""
    for start in range(len(step_words) - len(phrase) + 1):
        if all(_word_is(step_words[start + i], word) for i, word in enumerate(phrase)):
            return start
    return None


def keyword_at(step_words: list[str], tool: str) -> int | None:
    found = [at for phrase in _KEYWORD_WORDS[tool] if (at := said_at(step_words, phrase)) is not None]
    return min(found) if found else None


def level_in(step_words: list[str]) -> str | None:
    return next((level for level, synonyms in LEVEL_WORDS.items() if says_any(step_words, synonyms)), None)


def _question_at(step: str) -> int | None:
    """Where a question word is ("Who is enrolled…", "¿Quiénes están…"; accents keep "qué" from "que"), or 0
    for a yes/no question ("Has Grace been deactivated?", "¿Está desactivada la cuenta de Andrés?")."""
    if asks_yes_or_no(step):
        return 0
    return next((i for i, w in enumerate(_RAW_WORD.findall(step.lower())) if w in QUESTION_WORDS), None)


def asks_yes_or_no(step: str) -> bool:
    """A yes/no question: opened as one ("Is…", "¿Está…", "¿Ya…?"), or a question mark on a step that is no
    wh-question, names no write verb and asks nothing politely ("Can you…?", "¿Me haces el favor…?"):
    "Tom Baker is deactivated, right?", "¿Lucía está dada de baja?"."""
    raw = [w.lower() for w in _RAW_WORD.findall(step)]
    if not raw:
        return False
    if raw[0] in YES_NO_STARTS or raw[0] in _ASKING_STARTS and "?" in step:
        return True
    if "?" not in step or any(w in QUESTION_WORDS for w in raw) or set(words(step)) & _POLITE_WORDS:
        return False
    return all(keyword_at(words(step), tool) is None for tool in WRITES)


def asks_for_help(message: str) -> bool:
    """The admin asks what the assistant does ("help", "¿qué puedes hacer?"), and nothing else."""
    asked = any(said_at(words(message), words(phrase)) is not None for phrase in HELP_KEYWORDS)
    return asked and all(word in HELP_ONLY_WORDS for word in content_words(message))


def route(
    step: str,
    org: OrgNames | None = None,
    people: list[str] | None = None,
    *,
    embedder: Embedder | None = None,
) -> str | None:
    """The tool for one step, or None (help, or nothing a tool does). ``people``: who the step names,
    or the previous step's people when it only says "him"/"márcalo". ``embedder`` (the caller's AppDeps):
    what the similarity guess embeds with when no words decide; without one, words only, no similarity
    guess and no person alone (is this part of a sentence a request of its own?)."""
    said = words(step)
    if asks_for_help(step):
        return None
    asked = _question_at(step)
    people = org.people_in(step) if people is None and org else people or []
    if org and (removes_a_course(step, org) or unenrols(step, org)):
        return None  # "remove the expenses course": courses are archived, never deleted (agents.admin.nearest)
    for tool in WRITES:
        at = keyword_at(said, tool)
        if at is not None and (asked is None or asked > at) and (tool not in NEEDS_COURSE or _course(step, org)):
            if tool == "deactivate_employee" and _fails_exams(said, people):
                continue  # "¿Hay alguien que suspenda los exámenes…?": failing, not an account suspended
            return tool
    if people and asked is None and set(said) & _REMOVE_VERBS and set(said) & ACCESS_WORDS:
        return "deactivate_employee"  # "remove Harry Patel's access": the name between the verb and the access
    if people and asked is None and (extension_in(step) is not None or _moves_deadline(said)):
        return "assign_course"  # "Give Harry one more week", "Move Grace's deadline to 1 March": theirs moved
    if asked == 0 and people and asks_yes_or_no(step):
        return "get_employee_detail"  # "Is Tom Baker still active?": what their record says
    if asked is not None and people and says_any(said, _DEADLINE_WORDS) and org and org.courses_in(step):
        return "get_employee_detail"  # "What's Diego's deadline for the returns course?": his enrolment
    if org and asked is None and people:
        if level_in(said) and org.named(step, org.skills):
            return "verify_skill"
    if org and asked is None and (people or org.said_whole(step, org.departments)):
        if set(said) & ASSIGN_VERBS and _course(step, org):
            return "assign_course"  # "Put the whole Customer Care team on the security course"
    if any(said_at(said, words(phrase)) is not None for phrase in OUT_OF_SCOPE):
        return None
    if org and not people and (department_tool := about_a_department(step, said, org)):
        return department_tool
    if org and people and asked is not None and set(said) & _LACKING_WORDS and not org.courses_in(step):
        return "get_skill_gaps"  # "What is Raúl missing?": what he lacks beside his courses and colleagues
    if org and people and says_pending(said) and not org.courses_in(step) and not gives_deadline(step):
        return "get_employee_detail"  # "what's Diego got left to do?": his record, each course with its state
    if says_any(said, _LEARNER_WORDS) and says_any(said, _GONE_QUIET_WORDS):
        return "get_alerts"  # "Which learners have gone inactive?": the inactivity alert, not the accounts
    for tool in TOOL_KEYWORDS:
        if tool in WRITES or keyword_at(said, tool) is None:
            continue
        if tool == "get_employee_detail" and not people and org and _course(step, org):
            return "get_course_stats"  # "How is Store policy check-up doing?": the course, not a person
        if org and (tool in NEEDS_PERSON and not people or tool in NEEDS_COURSE and not _course(step, org)):
            continue
        if tool == "list_courses" and people:
            return "get_employee_detail"  # "Which courses does Sergio still have open?": his, not the catalogue
        if tool == "list_employees" and people and asked is None and not set(said) & _LISTING_WORDS:
            continue  # "Elena se ha ido de la empresa, quítale el acceso": said of one person, not a listing
        return tool
    if org and not people and (level_in(said) or set(said) & _KNOW_WORDS) and org.named(step, org.skills):
        return "who_knows"  # "Who are the forklift experts?", "Who in Logistics knows manual handling?"
    if (
        org
        and not people
        and set(said) & _STAFF_WORDS
        and org.said_whole(step, org.departments)
        and not org.said_whole(step, org.courses)
    ):
        return "list_employees"
    if org and not people and says_any(said, {"courses", "cursos"}) and not org.courses_in(step):
        return "list_courses"  # "Show me all the courses", "¿Qué cursos tenemos?"
    if org and asked is None and people and _course(step, org) and gives_deadline(step):
        return "assign_course"  # "Raúl, seguridad de la info, para el viernes": who, what and by when
    if embedder is None:
        return None
    # "Priya?", "Show me Emily Watson": a person and nothing else asked. "Schedule a meeting with Emily"
    # asks something no tool does: its other words are left unexplained, so no guess is made on them alone.
    if people and not _unexplained(step, people):
        return "get_employee_detail"
    tool, score = match_exemplars(step, TOOL_EXEMPLARS, embedder)
    if tool in WRITES and asked is not None:
        return None  # a question never guesses its way to a write: its verb must be said
    if tool and score >= MIN_ROUTE_SCORE and (org is None or _has_what_it_needs(tool, step, org, people)):
        return tool
    return None


def _fails_exams(said: list[str], people: list[str]) -> bool:
    """Spanish "suspender" is failing an exam as well as suspending an account: with nobody named and no account
    said, it is the exams ("¿Hay alguien que suspenda una y otra vez?")."""
    suspended = any(word.startswith("suspend") for word in said) and not set(said) & ACCESS_WORDS
    return suspended and not people


def _moves_deadline(said: list[str]) -> bool:
    """A deadline said with a verb that moves it ("Move Grace's deadline to…", "Cambia la fecha límite de…")."""
    named = says_any(said, _DEADLINE_WORDS) or said_at(said, ["fecha", "limite"]) is not None
    return named and bool(set(said) & _MOVE_VERBS)


def _unexplained(step: str, people: list[str]) -> list[str]:
    named = {w for p in people for w in words(p)}
    return [
        w
        for w in content_words(step)
        if w not in named
        and not says_any([w], _ABOUT_WORDS)
        and not any(typo_of(w, n, 4) or n.startswith(w) for n in named)
    ]


def _course(step: str, org: OrgNames | None) -> bool:
    return org is None or bool(org.courses_in(step))


def _has_what_it_needs(tool: str, step: str, org: OrgNames, people: list[str]) -> bool:
    if tool in NEEDS_PERSON or tool in ("deactivate_employee", "verify_skill"):
        return bool(people)
    if tool in NEEDS_COURSE or tool == "assign_course":
        return _course(step, org)
    return True


def split_steps(message: str, org: OrgNames | None = None) -> list[str]:
    """The request's steps: cut at "then"/"y luego"/";" always, and at "and"/"y"/","/"?" only where what
    follows is a request of its own ("the alerts and the matrix", not "Javier y Ana")."""
    steps = [message]
    for separator in STEP_SEPARATORS:
        steps = [part for step in steps for part in re.split(re.escape(separator), step, flags=re.IGNORECASE)]
    steps = [part for step in steps for part in _split_joined(step, org)]
    # a step keeps its question mark: "¿Lucía está dada de baja?" asks, "Lucía está dada de baja" tells
    asked = [step.rstrip(" ,.;¡!").endswith("?") for step in steps]
    return [step.strip(" ,.;¿?¡!") + "?" * q for step, q in zip(steps, asked) if step.strip(" ,.;¿?¡!")]


def _split_joined(step: str, org: OrgNames | None) -> list[str]:
    for joiner in JOINERS:
        for cut in re.finditer(joiner, step, flags=re.IGNORECASE):
            left, right = step[: cut.start()], step[cut.end() :]
            if not left.strip() or not right.strip() or _joins_a_name(left, cut[0], right, org):
                continue
            left_people = org.people_in(left) if org else []
            right_people = (org.people_in(right) if org else []) or left_people  # "…and mark him as high"
            if _is_remark(right):
                continue  # "Desactiva a Pablo, ha dejado la empresa": why, not a question of its own
            if org and "?" not in cut[0] and not org.people_in(right) and asks_yes_or_no(right):
                continue  # "Can you sign Chloe up for returns, due 15 January?": the whole request's question mark
            left_tool, right_tool = route(left, org, left_people), route(right, org, right_people)
            if left_tool == "assign_course" and org and org.people_in(right) and _names_the_rest(left, right, org):
                continue  # "enrol Emily and Harry on the expenses course": one list of people, one course
            if left_tool == "get_alerts" and right_tool == "assign_course" and left_people and not _question_at(left):
                continue  # "Andrés va tarde con su curso, dale una semana más": why his deadline moves, no alerts
            if left_tool and right_tool:
                return [*_split_joined(left, org), *_split_joined(right, org)]
    return [step]


def _names_the_rest(left: str, right: str, org: OrgNames) -> bool:
    """The right side only goes on with the left's order: the left names no course, the right one and no verb."""
    said = words(right)
    return not org.courses_in(left) and bool(org.courses_in(right)) and all(keyword_at(said, w) is None for w in WRITES)


def _joins_a_name(left: str, joiner: str, right: str, org: OrgNames | None) -> bool:
    """The cut falls inside a name: "…up for returns and refunds, due 15 January" (Returns and Refunds
    Essentials, the Returns and refunds skill) is one request, not "returns" and "refunds, due…?"."""
    around = [*words(left)[-1:], *words(joiner), *words(right)[:1]]
    said = f" {' '.join(around)} "
    names = [*org.courses, *org.skills, *org.departments] if org else []
    return len(around) > 2 and any(said in f" {' '.join(words(name))} " for name in names)


def _is_remark(clause: str) -> bool:
    """A clause that opens like a yes/no question but asks nothing (no question mark): a reason given."""
    raw = _RAW_WORD.findall(clause)
    return bool(raw) and raw[0].lower() in YES_NO_STARTS and "?" not in clause
