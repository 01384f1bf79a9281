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
from pathlib import Path

from core.text import content_words, fold

STEM = 5
MEANINGS = Path(__file__).resolve().parent / "glossary.txt"


@functools.cache
def _meanings() -> tuple[str, ...]:
    """The glossary's lines, one meaning each (read once a process)."""
    lines = MEANINGS.read_text(encoding="utf-8").splitlines()
    return tuple(line for line in lines if line.strip() and not line.startswith("#"))


@functools.cache
def _by_stem() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for line in _meanings():
        stems = {fold(word)[:STEM] for word in line.split()}
        for stem in stems:
            out.setdefault(stem, set()).update(stems)
    return {stem: frozenset(same) for stem, same in out.items()}


def equivalents(word: str) -> frozenset[str]:
    """The stems that say what ``word`` says, in either language (its own stem included)."""
    stem = fold(word)[:STEM]
    return _by_stem().get(stem, frozenset()) | {stem}


def knows(word: str) -> bool:
    """Whether the glossary has ``word`` (by its stem)."""
    return fold(word)[:STEM] in _by_stem()


@functools.cache
def _words_by_stem() -> dict[str, tuple[str, ...]]:
    out: dict[str, dict[str, None]] = {}
    for line in _meanings():
        words = [fold(word) for word in line.split()]
        for word in words:
            out.setdefault(word[:STEM], {}).update(dict.fromkeys(w for w in words if w[:STEM] != word[:STEM]))
    return {stem: tuple(words) for stem, words in out.items()}


def other_words(word: str) -> tuple[str, ...]:
    """The glossary's other words for ``word`` (its translations and synonyms), in the glossary's order."""
    return _words_by_stem().get(fold(word)[:STEM], ())


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
