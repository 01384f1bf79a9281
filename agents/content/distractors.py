"""Wrong values for a fact, as a trainer picks them: in the right answer's unit and form, and stated by the
document for another thing.

"4 hours" of poll-worker leave is asked beside the document's "2 hours" or "80 hours", never beside "four
weeks" (another unit: wrong for no reason a learner could learn), "80 hour" (the form of "an 80 hour cap"),
"four hours" (the right value written another way) or "7 hours" (a number made from the document's "7 days").
A value the document states for a neighbouring thing of the same section comes first: mixing up two limits
of one topic is the mistake worth practising; double or half the right value only when the document states
no other of its unit. A quantifier turns into its opposite where the sentence still
reads ("nunca" ↔ "siempre", not in "siempre que" nor before "ni").
"""

from __future__ import annotations

import re

from agents.content.facts import Value, replace, values
from agents.content.text import in_source
from core.text import NUMBER_VALUES, fold

_AMOUNT = re.compile(r"^(?P<number>\d[\d.,]*|[^\W\d_]+)(?P<unit>[\s-].*)?$")
# "5 días laborables", "2 working days" and "14 days" count days alike
_QUALIFIERS = {"working", "business", "calendar", "consecutive", "natural", "naturales", "habiles", "laborables"}
_OPPOSITE = {"never": "always", "always": "never", "nunca": "siempre", "siempre": "nunca"}
# "nunca para gastos personales ni para sacar efectivo" turned "siempre … ni" is no Spanish: a negative word after
# it needs the negation; so does a "nunca" after the verb ("no se usa nunca"). "Siempre que" is a condition; a
# "siempre" after its verb ("se revisa siempre") cannot become "nunca"; "not always" is no "not never"
_NEEDS_NEGATION = re.compile(r"\b(?:ni|nada|nadie|ningún|ninguna|ninguno|tampoco|jamás|nor)\b", re.IGNORECASE)
_BEFORE_ITS_VERB = re.compile(
    r"\s+(?:se|me|te|le|les|lo|la|los|las|nos|hay|ha|han|es|son|está|están|debe|deben|tiene|tienen|puede|pueden)\b"
)


def magnitude(text: str) -> str:
    """The value's number as digits ("four hours" and "4 hours" → "4"; "$1,200" → "1200"), else the value."""
    amount = _AMOUNT.match(text.strip().lstrip("$€").strip())
    if amount is None:
        return fold(text)
    number = amount.group("number")
    if number[0].isdigit():
        return re.sub(r"[.,](?=\d{3}\b)", "", number).replace(",", ".")
    word = NUMBER_VALUES.get(number.lower())
    return str(word) if word else fold(text)


def noun_of(value: Value) -> str:
    """The unit's noun as written, folded ("hours" in "4 working hours", "hour" in "80 hour", "dias" in "30
    días naturales"); the currency of money; the value's kind when it has no unit (a percentage)."""
    if value.kind == "amount:money":
        folded = fold(value.text)
        return "$" if "$" in folded or "dollar" in folded else "eur" if re.search(r"€|eur", folded) else folded
    amount = _AMOUNT.match(value.text) if value.kind.startswith("amount:") else None
    if amount is None or not amount.group("unit"):
        return value.kind
    words = [w for w in fold(amount.group("unit")).strip(" -").split() if w not in _QUALIFIERS]
    return words[-1] if words else fold(amount.group("unit")).strip(" -")


def unit_of(value: Value) -> str:
    """What the value counts, the same however it is written: "hour" for "4 hours", "80 hour" and "four
    hours"; "week" for "two-week"; "eur" for "60 EUR"; the value's kind when it has no unit (a percentage)."""
    last = noun_of(value)
    for ending in "se":  # "hours" and "hour", "meses" and "mes", "minutes" and "minute" count the same
        last = last[:-1] if last.endswith(ending) and len(last) > 3 else last
    return last


def written_as(value: Value, other: str) -> str:
    """``other`` written in the answer's own form: its number with the answer's unit words ("80 hour" beside
    "4 hours" reads "80 hours"; "14 days" beside "2 working days" reads "14 working days")."""
    mine, theirs = _AMOUNT.match(value.text), _AMOUNT.match(other)
    if value.kind.startswith("amount:") and value.kind != "amount:money" and mine and theirs and mine.group("unit"):
        number = theirs.group("number")
        if mine.group("number")[0].isdigit() and not number[0].isdigit():
            number = magnitude(other)  # "four weeks" beside "2 weeks" reads "4 weeks"
        return number + mine.group("unit")
    return other


def scaled(value: Value) -> list[str]:
    """Double and half of a whole amount with a unit, in the answer's form ("6 meses": "12 meses", "3 meses"):
    the wrong values of a document that states no other of the unit (the learner recalls the magnitude)."""
    number, amount = magnitude(value.text), _AMOUNT.match(value.text.strip())
    if not number.isdigit() or int(number) < 2 or amount is None or not value.kind.startswith("amount:"):
        return []
    if value.kind == "amount:count" or (not amount.group("unit") and value.kind != "amount:money"):
        return []
    whole = int(number)
    others = [whole * 2] + ([whole // 2] if whole % 2 == 0 and whole > 2 else [])
    return [value.text.replace(amount.group("number"), str(other), 1) for other in others]


def wrong_values(value: Value, sentence: str, pool: dict[str, list[str]], near: str = "", source: str = "") -> list:
    """The document's other values of ``value``'s unit, in its form: those of ``near`` (the sentence's section)
    first, then double and half of it (``scaled``); none the sentence itself states, none equal to the answer,
    none that would make a sentence the ``source`` states."""
    unit, stated = unit_of(value), {(magnitude(v.text), unit_of(v)) for v in values(sentence)}
    rank: dict[str, int] = {}
    for other in pool.get(value.kind, []):
        candidate = Value(other, value.kind, 0, len(other))
        if unit_of(candidate) != unit or (magnitude(other), unit) in stated or "-" in other.strip("-"):
            continue
        written = written_as(value, other)
        if written != other and (magnitude(written) == "1") != (magnitude(value.text) == "1"):
            continue  # "1 business days": the answer's unit words would not agree with the number
        rank.setdefault(written, 0 if in_source(other, near) else 1)
    for other in scaled(value):
        if (magnitude(other), unit) not in stated:
            rank.setdefault(other, 2)
    return sorted(
        (w for w in rank if not (source and in_source(replace(sentence, value, w), source))),
        key=lambda written: (rank[written], _distance(written, value.text)),  # a true sentence elsewhere: out
    )


def _distance(other: str, answer: str) -> float:
    """How far apart two magnitudes are (ratio, either way): "8 hours" for a day before "80 hours"."""
    try:
        mine, theirs = float(magnitude(answer)), float(magnitude(other))
    except ValueError:
        return 0.0
    return max(mine, theirs) / min(mine, theirs) if min(mine, theirs) > 0 else float("inf")


def _turns_cleanly(sentence: str, value: Value) -> bool:
    word, before, after = value.text.lower(), sentence[: value.start], sentence[value.end :]
    if re.search(r"\b(?:not|no|almost|casi)\s*$", before, re.IGNORECASE):
        return False
    if word == "nunca":
        return not _NEEDS_NEGATION.search(after) and not re.search(r"\bno\b", before, re.IGNORECASE)
    if word == "siempre":
        return not re.match(r"\s+(?:que|y cuando)\b", after) and bool(_BEFORE_ITS_VERB.match(after))
    return not (word == "never" and _NEEDS_NEGATION.search(after))


def changed_fact(
    sentence: str, pool: dict[str, list[str]], seed: int, near: str = "", source: str = ""
) -> tuple[str, Value, str] | None:
    """The sentence with one fact changed to a wrong value (``wrong_values``; a quantifier to its opposite):
    (new sentence, the value changed, what it became), or None when no fact of it has a wrong value."""
    for value in values(sentence):
        if value.kind == "amount:count":
            continue  # a bare number may be a version or a reference: not a fact to change
        if value.kind == "quantifier":
            opposite = _OPPOSITE.get(value.text.lower()) if _turns_cleanly(sentence, value) else None
            others = [opposite[:1].upper() + opposite[1:] if value.text[:1].isupper() else opposite] if opposite else []
        else:
            others = wrong_values(value, sentence, pool, near, source)
            # as the document writes it when the noun agrees ("15 días" for "30 días naturales": an admin who
            # edits the explanation away still leaves a figure the source states), else in the answer's form
            as_stated = {
                written_as(value, o): o
                for o in pool.get(value.kind, [])
                if noun_of(Value(o, value.kind, 0, len(o))) == noun_of(value)
            }
            stated = [as_stated.get(o, o) for o in others if o in as_stated or o not in scaled(value)]
            others = [o for o in stated if in_source(o, near)] or stated or others
        if others:
            other = others[seed % min(2, len(others))]  # one of the two nearest in magnitude
            return replace(sentence, value, other), value, other
    return None
