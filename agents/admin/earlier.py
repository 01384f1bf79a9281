"""What a message takes from who says it, from the admin's previous message and from the previous answer.

- A speaker who names themself is not a target: "Oliver here - put Laura on the returns course", "Soy Marta:
  apunta a Javier…" ask for Laura and Javier only.
- "it", "that course", "ese curso" with no course named mean the course the previous message named ("How is the
  warehouse safety course doing?" → "Who hasn't finished it yet?"), else the one course the previous answer
  listed; "him", "her", "dale" with nobody named mean the one person the previous message named, and "them",
  "apúntalos" the people the previous answer listed ("Who knows forklifts at a high level?" → "assign them…").
  Nothing is taken when there was none, or several where one is meant.
- "and who are they?", "¿y quiénes son?" ask the previous answer's reads again: its list, in full.
"""

from __future__ import annotations

import re
from typing import TypedDict

from agents.admin.deadlines import extension_in
from agents.admin.names import OrgNames, words

OPEN = ("assigned", "in_progress")

_INTRODUCTION = re.compile(
    r"^\s*(?:(?:hi|hello|hey|hola|buenas|buenos d[ií]as)[\s,!.]+)?"
    r"(?:(?:it'?s|this is|soy|aqu[ií]|te escribe|le escribe|te habla)\s+(?P<said_after>[^\W\d_]+)"
    r"|(?P<said_before>[^\W\d_]+)\s+(?:here|again|aqu[ií]|al habla|de nuevo|otra vez))"
    r"\s*(?:[-—–:,.!]+\s*|$)",
    re.IGNORECASE,
)
# the words that point at a course the message does not name (longest first: "that course" before "that")
_COURSE_POINTERS = re.compile(
    r"\b(?:(?:that|this|the same) (?:course|training|one)|(?-i:[Ii]t)"  # "it", never the department "IT"
    r"|(?:ese|este|el mismo|dicho|ese mismo) (?:curso|training)|esa formaci[oó]n|esta formaci[oó]n)\b",
    re.IGNORECASE,
)
_PERSON_POINTERS = {"him", "her", "them", "his", "their", "le", "les", "dale", "darle", "ponle", "apuntalo"}
_PERSON_POINTERS |= {"apuntala", "inscribelo", "inscribela", "su", "sus"}
# several people at once: the people an answer listed ("assign them…", "apúntalos…", "¿y a ellos?")
_GROUP_POINTERS = {"them", "those", "these", "ellos", "ellas", "les", "esos", "esas", "asignales", "ponles"}
_GROUP_POINTERS |= {"apuntalos", "apuntalas", "inscribelos", "inscribelas", "ponlos", "ponlas", "metelos", "metelas"}
_GROUP_POINTERS |= {"matriculalos", "matriculalas", "dales", "ampliales", "extiendeles", "cambiales", "muevales"}
# a Spanish verb that carries "it" (a course) in its ending: "archívalo", "asígnalo a Harry"
_COURSE_CLITICS = {"archivalo", "archivala", "asignalo", "asignala", "retiralo", "retirala"}
# "and who are they?", "¿y quiénes son?", "which ones?", "name them": the answer's list asked for again
_ASKS_WHO = {"who", "which", "quienes", "quien", "cuales", "names", "nombres", "name", "list", "dime", "tell"}
_WHO_FILLER = {"and", "y", "e", "are", "were", "me", "the", "so", "ok", "vale", "pues", "entonces", "son", "eran"}
_WHO_FILLER |= {"they", "them", "those", "these", "ones", "ellos", "ellas", "esos", "esas", "sus", "exactly", "then"}


class EarlierAnswer(TypedDict):
    """What the previous turn's reads answered: the calls, and the people and courses their results named."""

    reads: list[dict]  # [{"tool", "arguments"}]
    people: list[str]
    courses: list[str]
    pairs: list[list[str]]  # [[person, course]] of the rows that name both (an alert, an unfinished course)


def earlier_answer(tool_calls: list[dict]) -> EarlierAnswer:
    """The previous turn's reads (a preview or an error answered nothing to point back at)."""
    reads = [call for call in tool_calls if "preview" not in call["result"] and "error" not in call["result"]]
    people: list[str] = []
    courses: list[str] = []
    pairs: list[list[str]] = []
    for call in reads:
        result = call["result"]
        for row in result.get("rows", []) if call["tool"] != "get_course_stats" else result.get("unfinished", []):
            person = row.get("full_name") or row.get("user") or ""
            course = row.get("course") or (row.get("title") if call["tool"] == "list_courses" else "") or ""
            people.append(person)
            courses.append(course)
            pairs += [[person, course]] if person and course else []
        course = result.get("course")  # a course's stats, or a person's place in one
        courses.append(course.get("title", "") if isinstance(course, dict) else course or "")
        people.append((result.get("employee") or {}).get("full_name", ""))
        courses += [e["course"] for e in result.get("enrollments", []) if e.get("status") in OPEN]  # theirs open
    return {
        "reads": [{"tool": call["tool"], "arguments": call["arguments"]} for call in reads],
        "people": [p for p in dict.fromkeys(people) if p],
        "courses": [c for c in dict.fromkeys(courses) if c],
        "pairs": pairs,
    }


def courses_of(people: list[str], answer: EarlierAnswer | None) -> dict[str, list[str]]:
    """The people grouped by the one course the previous answer gave each ("Who is overdue?" → "give them
    another week": Harry's returns course, Raúl's warehouse one); none when someone had none, or several."""
    owned: dict[str, set[str]] = {}
    for person, course in answer["pairs"] if answer else []:
        owned.setdefault(person, set()).add(course)
    if not people or any(len(owned.get(person, ())) != 1 for person in people):
        return {}
    groups: dict[str, list[str]] = {}
    for person in people:
        groups.setdefault(next(iter(owned[person])), []).append(person)
    return groups


def without_introduction(message: str, org: OrgNames) -> str:
    """The message without an opening self-introduction that names a person of the organisation."""
    found = _INTRODUCTION.match(message)
    if found and org.people_in(found["said_after"] or found["said_before"]):
        return message[found.end() :]
    return message


# "¿y en nivel alto?", "only the experts", "Vale, ¿y de ellos quién está en Logística?": the last read narrowed
_NARROWING_OPENERS = {"and", "y", "e", "only", "just", "solo", "but", "pero", "which", "cuales", "cual"}
_FILLER_OPENERS = {"vale", "ok", "okay", "so", "pues", "entonces", "great", "genial", "thanks", "gracias", "bien"}
_OF_THEM = (" de ellos ", " de ellas ", " de esos ", " de esas ", " of them ", " of those ", " among them ")


def narrows(message: str, answer: EarlierAnswer | None) -> bool:
    """A short follow-up that only narrows the previous answer's one read: it opens with "and" / "y" / "only",
    or asks "of them"; what it narrows by (a department, a level, a kind) is read by the planner."""
    said = [w for w in words(message) if w not in _FILLER_OPENERS]
    plain = f" {' '.join(said)} "
    opens = bool(said) and (said[0] in _NARROWING_OPENERS or any(phrase in plain for phrase in _OF_THEM))
    return bool(answer and len(answer["reads"]) == 1 and opens and len(said) <= 8)


def asks_who_they_are(message: str, answer: EarlierAnswer | None) -> bool:
    """ "and who are they?" after an answer that read something: its reads again, listing what it counted."""
    said = set(words(message))
    return bool(answer and answer["reads"] and said & _ASKS_WHO and not said - _ASKS_WHO - _WHO_FILLER)


def with_earlier_course(message: str, earlier: str | None, org: OrgNames, answer: EarlierAnswer | None = None) -> str:
    """The message with "it" / "ese curso" replaced by the one course the previous message named, else the one
    course the previous answer named."""
    said = set(words(message))
    # "Dale tres semanas más" after "¿Cómo va Sofía con el curso de atención al cliente?": her deadline in it
    clitic = bool(_COURSE_CLITICS & said) or bool(_PERSON_POINTERS & said and extension_in(message) is not None)
    if org.courses_in(message) or not (clitic or _COURSE_POINTERS.search(message)):
        return message
    titles = org.courses_in(without_introduction(earlier, org)) if earlier else []
    if not titles and answer:
        titles = answer["courses"]
    if len(titles) != 1:
        return message
    if clitic:
        return f"{message} «{titles[0]}»"
    lang_article = "el curso" if {"ese", "este", "dicho", "esa", "mismo"} & set(words(message)) else ""
    return _COURSE_POINTERS.sub(f"{lang_article} «{titles[0]}»".strip(), message, count=1)


def earlier_people(message: str, earlier: str | None, org: OrgNames, answer: EarlierAnswer | None = None) -> list[str]:
    """The one person the previous message named, when this one names nobody and points at someone; else the
    people the previous answer listed ("them", "apúntalos"), or the one it named ("him")."""
    said = set(words(message))
    if org.people_in(message) or not (_PERSON_POINTERS | _GROUP_POINTERS) & said:
        return []
    people = org.people_in(without_introduction(earlier, org)) if earlier else []
    if len(people) == 1:
        return people
    listed = answer["people"] if answer else []
    return listed if _GROUP_POINTERS & said or len(listed) == 1 else []


# after "who knows LOTO": "¿y quién podría enseñarles?" asks for that skill's mentors; "and who else?" for its
# holders at any level (the answer listed those at medium or above)
_TEACH_STEMS = ("teach", "train", "mentor", "coach", "ensen", "formar", "tutor")
_ELSE_WORDS = {"else", "mas", "more", "other", "others", "otros", "otras"}
_WHO_WORDS = {"who", "quien", "quienes", "anyone", "anybody", "alguien", "someone"}


def skill_follow_up(message: str, answer: EarlierAnswer | None) -> dict | None:
    """The call a short follow-up to a "who knows" answer asks for, when it names nothing of its own (the
    caller checks): who could teach that skill, or who else holds it; None for anything else."""
    reads = answer["reads"] if answer else []
    said = words(message)
    if len(reads) != 1 or reads[0]["tool"] != "who_knows" or len(said) > 8:
        return None
    known = reads[0]["arguments"]
    if not known.get("skill_name"):
        return None
    if any(word.startswith(_TEACH_STEMS) for word in said):
        return {"tool": "get_mentorship_suggestions", "arguments": {"skill_name": known["skill_name"]}}
    if set(said) & _ELSE_WORDS and set(said) & _WHO_WORDS:
        widened = {key: value for key, value in known.items() if key not in ("level", "min_level")}
        return {"tool": "who_knows", "arguments": {**widened, "min_level": "low"}}
    return None


_OTHER_SKILL_OPENERS = ("what about", "how about", "and", "y", "que tal", "y que hay de", "and for", "y de")
_ASKED_AGAIN = {"who", "quien", "quienes", "know", "knows", "sabe", "saben"}


def with_other_skill(message: str, answer: EarlierAnswer | None, skill: str) -> dict | None:
    """ "what about budget analysis?" after "Who in Finance knows Oracle Financials?": the same read for the skill
    said, in the same department; a question asked in full ("and who knows forklifts?") is planned as one."""
    reads = answer["reads"] if answer else []
    said = words(message)
    plain = f"{' '.join(said)} "
    if len(reads) != 1 or reads[0]["tool"] != "who_knows" or len(said) > 6 or set(said) & _ASKED_AGAIN:
        return None
    if not any(plain.startswith(f"{opener} ") for opener in _OTHER_SKILL_OPENERS):
        return None
    return {"tool": "who_knows", "arguments": {**reads[0]["arguments"], "skill_name": skill}}
