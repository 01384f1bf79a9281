"""The words facts are made of (months, units of time, number words) live once, in core/text.py (issue 27,
"one text toolkit"); the content pipeline's fact finder and the tutor's answer check each build their own
patterns from them. The two were not copies (the fact finder reads the text as written, "días", "11" as
"once"; the check reads it folded, "dias", and "once" as "once a week"), so each must still see what it saw
before the move: these expectations were taken from the patterns as they were (and the same held for the
2,804 sentences of the nine eval documents and the eval's questions, compared before and after)."""

from __future__ import annotations

import pytest

from agents.content.facts import values
from agents.tutor.fact_kinds import holds_kind

SAMPLES = [  # (sentence, the fact finder's values, the kinds of fact the answer check finds in it)
    ("Once a week for 15 días hábiles.", [("15 días hábiles", "amount:time")], ["when", "amount"]),
    ("once días y 3 meses", [("once días", "amount:time"), ("3 meses", "amount:time")], ["when", "amount"]),
    ("dias naturales", [], []),
    ("twelve months, half a day", [("twelve months", "amount:time")], ["when", "amount"]),
    ("5 de mayo de 2024", [("5 de mayo de 2024", "date")], ["when", "amount"]),
    ("May 5, 2024", [("May 5, 2024", "date")], ["when", "amount", "rule"]),
    ("every 2 pay periods", [("every", "quantifier"), ("2 pay periods", "amount:time")], ["when", "amount"]),
    ("3 jornadas", [("3 jornadas", "amount:time")], ["amount"]),
    ("eleven hours", [("eleven hours", "amount:time")], []),
    ("1 AÑO", [("1 AÑO", "amount:time")], ["when", "amount"]),
    (
        "During the Christmas period, products bought between 15 November and 24 December may be returned "
        "until 15 January of the following year.",
        [("15 November", "date"), ("24 December", "date"), ("15 January", "date")],
        ["when", "amount", "rule"],
    ),
    (
        "Your buddy meets you at least once a week during your first 4 weeks.",
        [("4 weeks", "amount:time")],
        ["when", "amount", "who", "rule"],  # session 15: "during" is a condition, which says whether one may
    ),
    ("El calzado de seguridad se renueva cada 12 meses.", [("12 meses", "amount:time")], ["when", "amount"]),
    ("Un daño que requiere reparación en 4 semanas.", [("4 semanas", "amount:time")], ["when", "amount"]),
]


@pytest.mark.parametrize(("sentence", "found", "kinds"), SAMPLES)
def test_both_users_of_the_shared_fact_words_see_what_they_saw(sentence, found, kinds):
    assert [(v.text, v.kind) for v in values(sentence)] == found
    assert [kind for kind in ("when", "amount", "who", "rule") if holds_kind(sentence, kind)] == kinds
