"""The output gate's loop and language checks on progress replies that quote the learner's record (issue 29): the
titles the turn gave the model (courses, lessons, exercises, skills) are not the reply's own words, so a faithful
report that names a course line after line is no loop, and a Spanish reply quoting English lesson titles is not
English. Judged as the progress check is (test_tutor_progress_check.py): good replies of round 4
(progress_replies.QUOTING) pass, and loops and wrong-language replies planted in them are caught."""

from __future__ import annotations

import re

from tests.tutor.progress_replies import QUOTING
from tests.tutor.reply_mutations import planted_caught
from tests.tutor.test_tutor_progress_check import record, verdict

GOOD = [(language, scenario, reply) for language, scenario, reply, _ in QUOTING]
KEEP_GOING = {"en": " Keep going, you are doing really well!", "es": " ¡Sigue así, lo estás haciendo muy bien!"}


def last_line_again(n: int, language: str, scenario: str, reply: str) -> str:
    """A model that loops on what it just wrote: its last line (or sentence), title and all, three more times."""
    last = reply.splitlines()[-1] if "\n" in reply else re.split(r"(?<=[.!?])\s+", reply)[-1]
    return reply + f"\n{last}" * 3


def title_alone_again(n: int, language: str, scenario: str, reply: str) -> str:
    """A model stuck on one title of the record, written over and over."""
    title = next(t for t in record(scenario).titles if t.lower() in reply.lower())
    return reply + " " + ", ".join([title] * 8)


def between_titles(n: int, language: str, scenario: str, reply: str) -> str:
    """A model stuck on one sentence it says after each of two titles in turn, three times round."""
    first, second = record(scenario).titles[:2]
    said = {"en": " Go over “{}”:{}", "es": " Repasa «{}»:{}"}[language]
    return reply + "".join(said.format(title, KEEP_GOING[language]) for title in (first, second) * 3)


PLANTS = {
    "loop (last line)": last_line_again,
    "loop (whole reply)": lambda n, language, scenario, reply: f"{reply}\n{reply}\n{reply}",
    "loop (title alone)": title_alone_again,
    "loop (own words)": lambda n, language, scenario, reply: reply + KEEP_GOING[language] * 3,
    "loop (between titles)": between_titles,
    "language": lambda n, language, scenario, reply: QUOTING[n][3],
}
# measured on progress_replies.QUOTING (15 replies: 12 Spanish, 3 English): good flagged 0 (6 while the gate counted
# the record's titles as the reply's words: loop 4, language 2); planted caught 90 of 90 (6 kinds x 15, as before;
# the other language caught as "language" 15, 12 before)
MEASURED = {"good flagged": 0, "planted caught": 90}


def test_good_replies_quoting_the_record_pass():
    flagged = [(q, v, reply) for lang, q, reply in GOOD if (v := verdict(reply, q, lang))]
    print("good flagged", len(flagged), "of", len(GOOD), flagged)
    assert len(GOOD) >= 15 and {lang for lang, _, _ in GOOD} == {"es", "en"}
    assert len(flagged) <= MEASURED["good flagged"], flagged


def test_loops_and_the_other_language_planted_are_caught():
    caught, missed = planted_caught(GOOD, PLANTS, verdict)
    print("missed", missed)
    assert caught >= MEASURED["planted caught"], missed
