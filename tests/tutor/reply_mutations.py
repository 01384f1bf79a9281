"""The tallies a reply check is judged by (the off-topic redirect's and the small talk's, session 22): each defect
kind planted in each good reply, and bad replies as small models write them, each with the kind expected."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

Verdict = Callable[[str, str, str], str | None]  # (reply, message, language) -> a fallback code or None
Plant = Callable[[int, str, str, str], str]  # (n, language, message, good reply) -> the reply with the defect
CLAIM = {"en": "According to the company material, ", "es": "Según el material de la empresa, "}


def shared_plants(good: list[tuple[str, str, str]], ramble: dict[str, str], instructions: str) -> dict[str, Plant]:
    """The defects every reply check must catch: the other language (a good reply of the other language's list,
    at the same place), too long (``ramble`` added), a document claimed (a phrase, or a [1] marker), a line of the
    system prompt (``instructions``) repeated."""

    def other_language(n: int) -> str:
        language = good[n][0]
        others = [reply for lang, _, reply in good if lang != language]
        return others[[lang for lang, _, _ in good[:n]].count(language) % len(others)]

    return {
        "language": lambda n, lang, q, reply: other_language(n),
        "length": lambda n, lang, q, reply: reply + ramble[lang],
        "source_claim (phrase)": lambda n, lang, q, reply: CLAIM[lang] + reply[0].lower() + reply[1:],
        "source_claim (marker)": lambda n, lang, q, reply: re.sub(r"([.!?])( |$)", r" [1]\1\2", reply, count=1),
        "instructions": lambda n, lang, q, reply: f"{reply} {instructions.splitlines()[-2]}",
    }


def planted_caught(good: list[tuple[str, str, str]], plants: dict[str, Plant], verdict: Verdict) -> tuple[int, list]:
    """How many planted defects the check catches, and the ones it misses; prints the table per kind."""
    table: Counter = Counter()
    missed = []
    for n, (lang, message, reply) in enumerate(good):
        for kind, plant in plants.items():
            bad = plant(n, lang, message, reply)
            found = verdict(bad, message, lang)
            table[kind, "planted"] += 1
            table[kind, "caught"] += found is not None
            table[kind, "as its kind"] += found == kind.split(" ")[0]
            if found is None:
                missed.append((kind, bad))
    for kind in plants:
        print(f"{kind:24} {table[kind, 'caught']}/{table[kind, 'planted']} (as its kind {table[kind, 'as its kind']})")
    return sum(table[kind, "caught"] for kind in plants), missed


def bad_caught(bad: list[tuple[str, str, str, str]], verdict: Verdict) -> tuple[int, list]:
    """How many bad replies the check catches, and the ones it misses; prints the table per expected kind."""
    results = [(expected, verdict(reply, message, lang), reply) for lang, message, reply, expected in bad]
    for kind in dict.fromkeys(expected for expected, _, _ in results):
        mine = [found for expected, found, _ in results if expected == kind]
        print(f"{kind:14} caught {sum(f is not None for f in mine)}/{len(mine)}, as {kind} {mine.count(kind)}")
    missed = [(reply, found) for expected, found, reply in results if found is None]
    return len(results) - len(missed), missed
