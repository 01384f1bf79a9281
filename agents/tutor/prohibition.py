"""A "can I…?" answered by a rule that forbids the thing it names (issue 29).

An employee tells what happened before asking ("I found a USB stick in the car park, can I plug it in to see whose
it is?"): the situation's words ("found", "car", "park", "see", "whose") are not the policy's, so the sentence that
answers, "USB memory sticks and external hard drives are blocked on company laptops." [5.3 Removable media], covers
two of the eight key terms and the check refused it. A rule forbidding the thing the question names answers whether
one may do something with it. Such a sentence passes when the message asks a permission (can I, may I, ¿puedo…?,
¿se puede…?, anywhere in it), the sentence forbids (blocked, prohibited, not allowed, must not…: "never" and "nunca"
say no to too much, "…nunca para gastos personales ni para sacar efectivo" is the corporate card's rule, not a
till's cash-back), it names the thing in its own words (two key terms side by side in the question, "USB stick",
both covered) and it is among the PROHIBITION_TOP best judged answers (seeds/eval/answers/TUNING.md, session 23).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agents.tutor.fact_kinds import asked_kind
from agents.tutor.key_terms import coverage, key_terms
from core import glossary
from core.text import fold, words

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

PROHIBITION_TOP = 3
_ASKS_MAY_I = re.compile(r"\b(can i|may i|can we|may we|am i allowed|are we allowed|puedo|podemos|se puede)\b")
_FORBIDS = re.compile(
    r"\b(blocked|prohibited|forbidden|not allowed|not permitted|must not|mustn't|may not|"
    r"bloquead[oa]s?|prohibid[oa]s?|no se permiten?|no esta permitid[oa]s?)\b"
)


def named_things(message: str) -> list[tuple[str, str]]:
    """Two key terms side by side in the question: the thing it names ("USB stick", "car park")."""
    terms, said = set(key_terms(message)), words(glossary.plain(message))
    return [(one, other) for one, other in zip(said, said[1:]) if one in terms and other in terms and one != other]


def forbids_the_thing(message: str, sentence: str, embedder: Embedder) -> bool:
    """Whether ``sentence`` forbids the thing a "can I…?" ``message`` names, in its own words."""
    return (
        (asked_kind(message) == "rule" or bool(_ASKS_MAY_I.search(fold(message))))
        and bool(_FORBIDS.search(fold(sentence)))
        and any(coverage(list(thing), sentence, embedder) == 1 for thing in named_things(message))
    )
