"""The admin's answer to a "which one?" (spec 000 §5.5). A tool found several people, courses or skills for
what the admin said ("Varios cursos coinciden con «seguridad»; ¿cuál? …"); the next message that picks one
of them completes the request that asked: the same call with that phrase replaced by the one picked, so the
person, the deadline and everything else said stay. A pick is the candidate's name ("Seguridad en el
almacén", "Marina"), a word only it has ("the warehouse one", "la de Logística") or its place in the list
("la primera", "the second"). Anything else is planned as a new request.
"""

from __future__ import annotations

from agents.admin.names import STOPWORDS, OrgNames, typo_of, words
from agents.admin.resolve import ToolError
from agents.admin.routing import route
from core.names import fold

PLACES = {
    "first": 0,
    "primera": 0,
    "primero": 0,
    "second": 1,
    "segunda": 1,
    "segundo": 1,
    "third": 2,
    "tercera": 2,
    "tercero": 2,
    "last": -1,
    "ultima": -1,
    "ultimo": -1,
}
PLACE_WORDS_AT_MOST = 4  # "la primera", "the first one, please": a place is an answer only said alone


def question(tool: str, arguments: dict, error: ToolError) -> dict | None:
    """What the next message may answer: the call that asked, the phrase that fit several (or the argument the
    answer fills: "which course?" after "one more week"), the candidates."""
    if not (error.phrase or error.argument) or len(error.candidates) < 2:
        return None
    return {
        "tool": tool,
        "arguments": arguments,
        "phrase": error.phrase or "",
        "argument": error.argument,
        "candidates": error.candidates,
    }


def answered_call(asked: dict, message: str, org: OrgNames) -> dict | None:
    """The call that asked, completed with the candidate ``message`` picks; None when it picks none or
    is a request of its own ("¿cómo va Seguridad en el almacén?")."""
    if route(message, org) not in (None, asked["tool"]):
        return None
    picked = _picked(asked["candidates"], asked["phrase"], message)
    if picked is None:
        return None
    arguments, replaced = {}, False
    for key, value in asked["arguments"].items():
        if asked["phrase"] and isinstance(value, str) and fold(value) == fold(asked["phrase"]):
            value, replaced = picked, True
        elif asked["phrase"] and isinstance(value, list) and fold(asked["phrase"]) in {fold(str(i)) for i in value}:
            value = [picked if fold(str(item)) == fold(asked["phrase"]) else item for item in value]
            replaced = True
        arguments[key] = value
    if not replaced and asked.get("argument") and not arguments.get(asked["argument"]):
        arguments[asked["argument"]], replaced = picked, True  # the course "one more week" left unsaid
    return {"tool": asked["tool"], "arguments": arguments} if replaced else None


def _name(candidate: dict) -> str:
    return str(candidate.get("name") or candidate.get("title") or candidate.get("skill") or "")


def _picked(candidates: list[dict], phrase: str, message: str) -> str | None:
    said = words(message)
    names = [_name(c) for c in candidates]
    whole = [name for name in names if fold(name) and fold(name) in fold(message)]
    if len(whole) == 1:
        return whole[0]
    places = [PLACES[w] for w in said if w in PLACES]
    if places and len(said) <= PLACE_WORDS_AT_MOST and -len(names) <= places[0] < len(names):
        return names[places[0]]
    asked_words = set(words(phrase)) | STOPWORDS
    meant = {w for w in said if len(w) >= 3 and w not in asked_words}
    fitting = [
        name
        for name, candidate in zip(names, candidates, strict=True)
        if meant & _own_words(candidate, candidates, asked_words)
        or any(typo_of(w, own) for w in meant for own in _own_words(candidate, candidates, asked_words))
    ]
    return fitting[0] if len(fitting) == 1 else None


def _own_words(candidate: dict, candidates: list[dict], asked_words: set[str]) -> set[str]:
    """The words of a candidate's name and details that no other candidate has ("almacen", "logistica")."""
    mine = {w for value in candidate.values() for w in words(str(value)) if len(w) >= 3}
    others = {
        w for other in candidates if other is not candidate for value in other.values() for w in words(str(value))
    }
    return mine - others - asked_words
