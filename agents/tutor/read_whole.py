"""The offline answer's chosen sentences made to read whole (issue 29, "the answer in the answer").

Sentences are picked one by one, and two ways that reads wrong to a person: a sentence that opens by pointing
back ("It sends the message to the Information Security team…") without the one it points to ("Use the
"Report phishing" button in Outlook."), and a few items of a list without the rest or what the list is ("¿Qué
es el método ACRE?" answered with three of its four steps, run together). Here the first brings the sentence
before it; an answer made of two or more items of one short list is that list, whole, under its lead-in, and
is complete: nothing pads it (the paragraph after the list was its last item's neighbour). A list the question
names ("¿Qué es el método ACRE?") is quoted whole from its first item on (moved here from answers.py).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agents.offline import cite_chosen, enclosing_list
from agents.tutor.answer_check import MIN_COVERAGE, Ranked
from agents.tutor.fact_kinds import asked_kind
from agents.tutor.key_terms import coverage, key_terms

if TYPE_CHECKING:
    from agents.retrieval.passages import Passage
    from agents.runtime.deps import Embedder

# a sentence that opens by pointing back at the one before it
_POINTS_BACK = re.compile(r"^(?:it|this|that|these|those|they|esto|eso|ello|estos|estas)\b", re.IGNORECASE)
MAX_LIST_ITEMS = 10


def read_whole(chosen: list[Ranked], ranked: tuple[Ranked, ...], passages: list[Passage], max_chars: int) -> str:
    """The answer's body: ``chosen`` (in the answer's order) with what makes it read whole, each run of one
    passage's sentences followed by its [n]; two or more items of one short list are that list, one item a
    line under its lead-in, where its first chosen item stood; other items come after their list's lead-in,
    said once ("The Password Standard POL-SEC-004 requires: A minimum length of 14 characters.")."""
    by_position = {r.position: r for r in ranked}
    whole = list(chosen)
    for r in chosen:
        before = by_position.get(r.position - 1)
        if _POINTS_BACK.match(r.sentence) and before and before.number == r.number and before not in whole:
            whole.insert(whole.index(r), before)
    texts = {p.index: p.text for p in passages}
    lists = {r.position: _listed(r, texts.get(r.number, "")) for r in whole}
    said: set[tuple[int, str]] = set()  # the lead-ins quoted so far: each once, before its first item
    blocks: list[tuple[int, str, bool]] = []  # (passage, text, a whole list)
    for r in whole:
        listed = lists[r.position]
        items_chosen = [o for o in whole if o.number == r.number and lists[o.position] == listed]
        items = {_item_of(o, texts.get(o.number, "")) for o in items_chosen}  # an item's two sentences: one item
        if listed and len(items) >= 2 and len(listed) <= max_chars:
            if items_chosen[0] is r:
                blocks.append((r.number, listed, True))
            continue
        blocks.append((r.number, r.sentence if (r.number, r.lead_in) in said else r.as_read, False))
        said.add((r.number, r.lead_in))
    if not any(is_list for _, _, is_list in blocks):
        return cite_chosen([(n, text) for n, text, _ in blocks], list(range(len(blocks))), max_chars)
    out = ""
    for k, (number, text, is_list) in enumerate(blocks):
        follows = k + 1 < len(blocks) and blocks[k + 1][0] == number and not (is_list or blocks[k + 1][2])
        gap = "" if not out else "\n\n" if is_list or blocks[k - 1][2] else " "
        out += gap + text + ("" if follows else f" [{number}]")
    return out


def named_list(
    message: str, lead: Ranked, passages: list[Passage], ranked: tuple[Ranked, ...], embedder: Embedder, max_chars: int
) -> list[Ranked]:
    """The items of the list the lead is an item of, in order, when the question names that list (its heading and
    lead-in cover its key terms: "¿Qué es el método ACRE?", "Which personal protective equipment is mandatory?" ->
    "3.1 EPI obligatorios … son obligatorios:"), asks no kind of fact ("How long does my password need to be?" asks
    the 14 characters, not "4.1 Password standard") and it fits ``max_chars``: the whole list; else none."""
    text = next((p.text for p in passages if p.index == lead.number), "")
    lead_in, items = enclosing_list(lead.sentence, text)
    if asked_kind(message) or not lead_in or coverage(key_terms(message), lead.context, embedder) < MIN_COVERAGE:
        return []
    listed = " ".join(items)
    named = sorted((r for r in ranked if r.number == lead.number and r.sentence in listed), key=lambda r: r.position)
    return named if sum(len(r.sentence) + 5 for r in named) <= max_chars else []


def quotes_a_list(chosen: list[Ranked], passages: list[Passage], max_chars: int) -> bool:
    """Whether ``chosen`` holds two or more items of one short list, which read_whole quotes whole: the answer is
    complete, and a sentence after it pads ("¿Puedo ir en zapatillas al almacén?": the mandatory PPE, then "Además,
    según la tarea, se exige casco…", the paragraph after the list)."""
    texts = {p.index: p.text for p in passages}
    items: dict[tuple[int, str], set[str]] = {}
    for r in chosen:
        text = texts.get(r.number, "")
        if (listed := _listed(r, text)) and len(listed) <= max_chars:
            items.setdefault((r.number, listed), set()).add(_item_of(r, text))
    return any(len(found) >= 2 for found in items.values())


def _listed(r: Ranked, text: str) -> str:
    """The short list ``r`` is an item of, one item a line under its lead-in; "" when it is no item of one."""
    lead_in, items = enclosing_list(r.sentence, text)
    if not items or len(items) > MAX_LIST_ITEMS:
        return ""
    return "\n".join(([lead_in, ""] if lead_in else []) + items)


def _item_of(r: Ranked, text: str) -> str:
    """The item of its list that ``r`` is a sentence of, as written."""
    return next((item for item in enclosing_list(r.sentence, text)[1] if r.sentence[:30] in item), "")
