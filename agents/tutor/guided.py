"""The guided exchange (issue 29, spec 003's Socratic guidance): on a topic of a course the learner takes in
guided mode, the tutor asks first and waits; the learner's next message is read against that question.

The question waiting for an answer lives with the conversation (``chat_sessions.context["guide"]``, written
with the answer that asked it), so another chat process or a restart picks it up:
``{"pending": {question, language, course_id, topic} | None, "last": [course_id, topic] | None}`` — ``last``
the topic asked about most recently, so the same topic is never asked about twice in a row.

The next message is
- a way out ("just tell me", "no sé") → the answer to the pending question;
- a greeting or a new question → the pending question is dropped, the message answered as it is;
- anything else → a guess: feedback comparing it with the fact (its figures, its key words), then the answer.
All of it deterministic, with or without a model.
"""

from __future__ import annotations

import re

from agents.i18n import t
from agents.offline import enclosing_list, without_list_marker
from agents.retrieval.passages import CITATION_MARKER
from agents.tutor.classify import heuristic_intent
from core.text import NUMBER_VALUES, fold, shortened, stems, words

_POLITE = re.compile(r"\b(please|pls|por favor|porfa|ok|okay|vale|just|solo|ya|then|entonces|so|pues|bueno|well)\b")
# the whole message, once polite words are off: a way out, not a guess
_WAY_OUT = re.compile(
    r"(tell me|tell me the answer|just tell me|give me the answer|what is the answer|whats the answer|"
    r"show me( the answer)?|the answer|answer|i dont know|i do not know|dont know|no idea|not sure|i give up|"
    r"no clue|skip|dime|dimelo|dime la respuesta|dame la respuesta|cual es la respuesta|la respuesta|"
    r"respuesta|no se|no lo se|ni idea|no tengo ni idea|no estoy seguro|no estoy segura|me rindo|paso)"
)
_ASKING = re.compile(
    r"^(how|what|whats|when|why|which|who|where|can|could|may|should|do|does|did|is|are|tell me about|"
    r"explain|como|que|cuando|cuanto|cuanta|cuantos|cuantas|por que|para que|cual|cuales|quien|quienes|donde|"
    r"puedo|se puede|podemos|hay|debo|explicame|explica|dime como|dime que)\b"
)
# a guess phrased as a question: "is it 30 days?", "¿son 30 días?", "maybe two weeks?"
_GUESSING = re.compile(
    r"^(is it|it is|its|it s|are they|maybe|perhaps|probably|i think|i guess|i d say|id say|i would say|"
    r"quizas|quiza|tal vez|creo|supongo|diria|yo diria|probablemente|a lo mejor)\b"
)
# a figure on its own, not a part of a code ("POL-SEC-004", "HR-ONB-001", "v2")
_FIGURE = re.compile(r"(?<![^\W_])(?<![^\W\d_]-)\d+(?:[.,]\d+)?")
# a period said either way ("a month", "un mes", "30 days", "24 horas"); one counted in working time ("24 horas
# laborables", "5 business days") only the same way, never converted ("un día" is not 24 working hours)
_PERIOD = re.compile(
    r"\b(\d+|[^\W\d_]+) (?:(working|business) )?(hours?|horas?|days?|d[ií]as?|weeks?|semanas?|months?|mes|meses|"
    r"years?|a[ñn]os?)(?: (laborables|h[aá]biles))?\b",
    re.I,
)
_UNIT = {"hora": "hour", "dia": "day", "semana": "week", "mes": "month", "ano": "year"}
_HOURS = {"hour": 1, "day": 24, "week": 168, "month": 720, "year": 8760}
_ONE = ("a", "an", "one", "un", "una", "uno")


def pending(guide: dict | None) -> dict | None:
    return (guide or {}).get("pending")


def way_out(message: str) -> bool:
    """Whether ``message`` asks for the answer instead of guessing ("just tell me", "no sé")."""
    plain = " ".join(words(message))
    return bool(_WAY_OUT.fullmatch(" ".join(_POLITE.sub(" ", plain).split())))


def reply_to(guide: dict | None, message: str) -> str | None:
    """What ``message`` is, after the question ``guide`` keeps pending: "reveal" (a way out), "guess", or
    None (no question pending, or a greeting or a new question: the pending one is dropped)."""
    if not pending(guide):
        return None
    if way_out(message):
        return "reveal"
    plain = " ".join(words(message))
    if heuristic_intent(message) is not None:
        return None
    asks = message.strip().endswith("?") or _ASKING.match(plain)
    if asks and not _GUESSING.match(plain) and not (_figures(message) and len(plain.split()) <= 5):
        return None
    return "guess"


def _figures(text: str) -> list[str]:
    """The figures of ``text`` in order, number words as digits ("thirty" → "30"), decimal commas as points."""
    found = [(m.start(), m.group(0).replace(",", ".")) for m in _FIGURE.finditer(text)]
    plain = fold(text)
    found += [
        (m.start(), str(NUMBER_VALUES[m.group(0)]))
        for m in re.finditer(r"[a-z]+", plain)
        if m.group(0) in NUMBER_VALUES
    ]
    return list(dict.fromkeys(figure for _, figure in sorted(found)))


def _periods(text: str) -> list[tuple[set, str]]:
    """The periods ``text`` states, each with its words and what it equals: its count and unit, and its hours
    unless counted in working time ("a month" and "30 days" are both 720 hours)."""
    found = []
    for match in _PERIOD.finditer(text):
        number, unit = fold(match.group(1)), fold(match.group(3))
        count = 1 if number in _ONE else int(number) if number.isdigit() else NUMBER_VALUES.get(number)
        singular = "mes" if unit == "meses" else unit if unit in _UNIT or unit in _HOURS else unit[:-1]
        base = _UNIT.get(singular, singular)
        if count and base in _HOURS:
            working = match.group(2) or match.group(4)
            found.append(({(count, base)} | (set() if working else {float(count) * _HOURS[base]}), match.group(0)))
    return found


def the_list_of(sentence: str, text: str) -> str:
    """All the items of the list ``sentence`` is an item of in ``text`` (the ACRE method's four steps, each
    its own sentence), else the sentence alone: what a guess naming the whole list is compared with."""
    return " ".join(without_list_marker(item) for item in enclosing_list(sentence, text)[1]) or sentence


def verdict(guess: str, fact: str, listed: str = "") -> tuple[str, dict]:
    """How the learner's guess compares with the sentence that answers the question: ("right" | "figure" |
    "partly" | "wrong", values for the message). Periods decide when both state one (said another way is
    right: "a month" for 30 days; else both are named), then figures (the guess's all in the fact: right;
    else both are named); otherwise the key words the guess shares with the fact, or with the whole list
    it is an item of (``listed``)."""
    fact_text = CITATION_MARKER.sub("", fact)
    said, stated = _figures(guess), _figures(fact_text)
    shared = stems(guess) & stems(CITATION_MARKER.sub("", listed) or fact_text)
    said_periods, stated_periods = _periods(guess), _periods(fact_text)
    if said_periods and stated_periods:  # "two weeks" against "30 days": the periods, named as said
        if all(any(said_as & stated_as for stated_as, _ in stated_periods) for said_as, _ in said_periods):
            return "right", {}
        return "figure", {"said": said_periods[0][1], "fact": stated_periods[0][1]}
    if said and stated:
        if set(said) <= set(stated):
            return "right", {}
        return "figure", {"said": ", ".join(said), "fact": stated[0]}
    if stated:  # the fact is a figure the guess doesn't give
        return ("partly" if shared else "wrong"), {}
    guessed = stems(guess)
    if shared and (len(shared) >= 2 or len(shared) * 2 >= len(guessed)):
        return "right", {}
    return ("partly" if shared else "wrong"), {}


def feedback(guess: str, fact: str | None, language: str, listed: str = "") -> str:
    """The line that opens the answer to a guess: how it compares with the fact (None: no sentence answers
    the question, so only an invitation to compare) and the list it is an item of, if any."""
    if fact is None:
        return t("tutor.guide.feedback.compare", language, guess=shortened(guess, 80))
    code, values = verdict(guess, fact, listed)
    return t(f"tutor.guide.feedback.{code}", language, guess=shortened(guess, 80), **values)


def asked(question: str, language: str, view: dict) -> dict:
    """The conversation's guided state once the tutor asks about ``view``'s topic for ``question``."""
    return {
        "pending": {"question": question, "language": language, "course_id": view["course_id"], "topic": view["topic"]},
        "last": [view["course_id"], view["topic"]],
    }


def settled(guide: dict | None) -> dict | None:
    """The conversation's guided state after a turn that asked nothing: no question pending any more."""
    return {**guide, "pending": None} if guide and pending(guide) else guide


def repeats_topic(guide: dict | None, view: dict) -> bool:
    """Whether the last question asked was on ``view``'s topic (never twice in a row on one topic)."""
    return (guide or {}).get("last") == [view["course_id"], view["topic"]]
