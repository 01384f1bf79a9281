"""The offline answer's chosen sentences made to read whole (issue 29, "the answer in the answer").

Sentences are picked one by one, and two ways that reads wrong to a person: a sentence that opens by pointing
back ("It sends the message to the Information Security team…") without the one it points to ("Use the
"Report phishing" button in Outlook."), and a few items of a list without the rest or what the list is ("¿Qué
es el método ACRE?" answered with three of its four steps, run together). Here the first brings the sentence
before it; an answer made of two or more items of one short list is that list, whole, under its lead-in.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agents.offline import cite_chosen, enclosing_list

if TYPE_CHECKING:
    from agents.retrieval.passages import Passage
    from agents.tutor.answer_check import Ranked

# a sentence that opens by pointing back at the one before it
_POINTS_BACK = re.compile(r"^(?:it|this|that|these|those|they|esto|eso|ello|estos|estas)\b", re.IGNORECASE)
MAX_LIST_ITEMS = 10


def read_whole(chosen: list[Ranked], ranked: tuple[Ranked, ...], passages: list[Passage], max_chars: int) -> str:
    """The answer's body: ``chosen`` (in the answer's order) with what makes it read whole, each run of one
    passage's sentences followed by its [n]; an answer all of whose sentences are items of one short list is
    that list, one item a line under its lead-in."""
    by_position = {r.position: r for r in ranked}
    whole = list(chosen)
    for r in chosen:
        before = by_position.get(r.position - 1)
        if _POINTS_BACK.match(r.sentence) and before and before.number == r.number and before not in whole:
            whole.insert(whole.index(r), before)
    texts = {p.index: p.text for p in passages}
    if len(whole) >= 2 and len({r.number for r in whole}) == 1:  # all of the answer in one list: the list
        lead_in, items = enclosing_list(whole[0].sentence, texts.get(whole[0].number, ""))
        listed = "\n".join(([lead_in, ""] if lead_in else []) + items)
        if len(items) <= MAX_LIST_ITEMS and len(listed) <= max_chars and all(_item_of(r, items) for r in whole):
            return f"{listed} [{whole[0].number}]"
    parts = [(r.number, r.sentence) for r in whole]
    return cite_chosen(parts, list(range(len(parts))), max_chars)


def _item_of(r: Ranked, items: list[str]) -> bool:
    return any(r.sentence[:30] in item for item in items)
