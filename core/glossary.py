"""A small Spanish-English glossary of workplace words: which words of the other language say the same.

The bundled multilingual model cannot tell a translation from a neighbour word by word ("regalo"/"gift"
0.94, "regalo"/"refund" 0.88, "aporta"/"ofrecer" 0.94), so the tutor's answer check (issue 29) pairs a
question's terms with a document's words here. Each line of glossary.txt beside this module is one meaning:
its words in both languages (folded: lower case, no accents), compared by their first ``STEM`` letters as
``core.text.stems`` does. Written by hand for the vocabulary of company policies (people, leave, pay, travel,
expenses, stores, customers, warehouses, security, conduct), not from any question of an eval.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from core.text import content_words, fold

STEM = 5
MEANINGS = Path(__file__).resolve().parent / "glossary.txt"


@functools.cache
def _meanings() -> tuple[str, ...]:
    """The glossary's lines, one meaning each (read once a process)."""
    lines = MEANINGS.read_text(encoding="utf-8").splitlines()
    return tuple(line for line in lines if line.strip() and not line.startswith(("#", ">")))


@functools.cache
def _phrases() -> tuple[tuple[re.Pattern[str], str], ...]:
    """The glossary's everyday phrases ("> enfermo: me he puesto mala, feeling unwell"), each with its word."""
    out = []
    for line in MEANINGS.read_text(encoding="utf-8").splitlines():
        if line.startswith(">"):
            word, said = line[1:].split(":", 1)
            alternatives = "|".join(re.escape(fold(phrase.strip())) for phrase in said.split(","))
            out.append((re.compile(rf"\b(?:{alternatives})\b"), f" {word.strip()} "))
    return tuple(out)


def plain(text: str) -> str:
    """``text`` folded, with the everyday phrases the glossary knows said in its words: "me he puesto mala el
    lunes" -> "enfermo el lunes" (a word of the idiom alone, "mala", means something else). For the answer check's
    key terms; the glossed query keeps the words as typed ("sick ill" took retrieval to another company's sick
    leave, away from the onboarding guide's "If you are ill")."""
    out = fold(text)
    for phrase, word in _phrases():
        out = phrase.sub(word, out)
    return out


def _key(word: str) -> str:
    """How glossary.txt's ``word`` is compared: its first STEM letters, or the whole word when written "=word" (an
    everyday word whose first letters are another word's: "=trainers" is footwear, "training" is not)."""
    folded = fold(word)
    return folded[1:] if folded.startswith("=") else folded[:STEM]


@functools.cache
def _whole_words() -> frozenset[str]:
    return frozenset(_key(word) for line in _meanings() for word in line.split() if word.startswith("="))


def _lookup(word: str) -> str:
    """The key ``word`` is found under: the whole word when the glossary has it whole, else its stem."""
    folded = fold(word)
    return folded if folded in _whole_words() else folded[:STEM]


@functools.cache
def _by_stem() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for line in _meanings():
        stems = {_key(word) for word in line.split()}
        for stem in stems:
            out.setdefault(stem, set()).update(stems)
    return {stem: frozenset(same) for stem, same in out.items()}


def equivalents(word: str) -> frozenset[str]:
    """The stems (or whole words) that say what ``word`` says, in either language (its own included); a text
    holds one when one of its words has it as its first STEM letters or is it whole (``held``)."""
    key = _lookup(word)
    return _by_stem().get(key, frozenset()) | {key}


def held(words: list[str]) -> set[str]:
    """What a text's folded ``words`` hold for ``equivalents``: each word's stem and the word whole."""
    return {word[:STEM] for word in words} | set(words)


def knows(word: str) -> bool:
    """Whether the glossary has ``word`` (by its stem, or whole)."""
    return _lookup(word) in _by_stem()


@functools.cache
def _words_by_stem() -> dict[str, tuple[str, ...]]:
    out: dict[str, dict[str, None]] = {}
    for line in _meanings():
        words = [(_key(word), fold(word).lstrip("=")) for word in line.split()]
        for key, _ in words:
            out.setdefault(key, {}).update(dict.fromkeys(w for k, w in words if k != key))
    return {stem: tuple(words) for stem, words in out.items()}


def other_words(word: str) -> tuple[str, ...]:
    """The glossary's other words for ``word`` (its translations and synonyms), in the glossary's order."""
    return _words_by_stem().get(_lookup(word), ())


# Words any workplace question holds ("work", "days", "week", "office"): they say where a question is, not what
# it asks. A sentence that shares only these with a question ("How many days a week can I work from home?" and
# "By day 60: you work independently…") is about something else.
_GENERIC_WORDS = "work job day week month year hour office employee staff people"


@functools.cache
def _generic_stems() -> frozenset[str]:
    return frozenset().union(*(equivalents(word) for word in _GENERIC_WORDS.split()))


def generic(word: str) -> bool:
    """Whether ``word`` is one of the words any workplace question holds, in either language."""
    return fold(word)[:STEM] in _generic_stems()


def gloss(text: str, per_word: int = 2) -> str:
    """``text`` said with the glossary's words for each of its content words (up to ``per_word`` each; a
    word it doesn't know stays as it is): the question put in the other language for retrieval."""
    out: dict[str, None] = {}
    for word in content_words(text):
        out.update(dict.fromkeys(other_words(word)[:per_word] or (word,)))
    return " ".join(out)
