"""The tutor's output gate (issue 13): a model's answer is judged while it streams and when it ends.

A failing answer is replaced by the generator's twin and the turn records why (``fallback``):
``loop`` (a phrase repeating), ``length`` (past the answer budget, or cut by the server's limit),
``language`` (not the language of the question), ``no_citation`` (passages were retrieved and none
is cited), ``timeout`` (the model ran past the turn's deadline), ``error``/``empty`` (no usable text),
and the codes of the turn's own ``judge`` (redirect_check.py: an off-topic reply that is no redirect;
chitchat_check.py: a reply to a greeting that is more than a short reply to it; progress_check.py: a progress reply
that states figures, dates, courses or lessons not in the learner's record, or leaves out what was asked).
A reply that quotes the learner's record (a progress turn: the titles of its courses, lessons, exercises and skills) is
judged on its own words: a title counts as one word for the loop check, and as none for the language check (a course
may be in another language; a report names a course line after line).
An answer that passes can still be weakly grounded: ``unsupported_sentences`` finds the sentences no
cited passage backs (lexically or by embedding; a figure must appear in a passage) → ``low_confidence``.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from agents.offline import detect_language, split_sentences
from agents.retrieval.passages import CITATION_MARKER, Passage
from agents.runtime.observability import count_tokens
from core.text import stems

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

LOOP_NGRAM = 5  # words per phrase
LOOP_REPEATS = 3  # the same phrase this often is a loop, not emphasis
LANGUAGE_MIN_WORDS = 20  # language detection needs this much text to be trusted
CHECK_EVERY_WORDS = 8  # the streaming checks run at most this often
LEXICAL_SUPPORT = 0.6  # share of a sentence's content words found in its passages
EMBEDDING_SUPPORT = 0.84  # e5 query→passage cosine above which a paraphrase counts as supported
MIN_TERMS = 4  # shorter sentences ("Según el material:") are not judged

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_FIGURE = re.compile(r"\d+(?:[.,]\d+)*")


TITLE_MARK = "«"  # opens the one word a quoted title of the record counts as (no word of the text holds it)


def _words(text: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(CITATION_MARKER.sub(" ", text))]


@functools.lru_cache(maxsize=64)
def _titles_pattern(titles: tuple[str, ...]) -> re.Pattern[str] | None:
    """Any of ``titles`` as a whole (longest first; its closing full stop may be left out), in any case, with the
    quotes around it (left alone, "« »" reads as French)."""
    spans = sorted({t.strip().rstrip(".").strip() for t in titles} - {""}, key=len, reverse=True)
    if not spans:
        return None
    alternatives = "|".join(map(re.escape, spans))
    return re.compile(rf"[«“‘\"*]*(?<!\w)({alternatives})(?!\w)[»”’\"*]*", re.IGNORECASE)


def without_titles(text: str, titles: Sequence[str]) -> str:
    """``text`` with each of ``titles`` (quoted from the learner's record) taken out."""
    pattern = _titles_pattern(tuple(titles))
    return pattern.sub(" ", text) if pattern else text


def own_words(text: str, titles: Sequence[str] = ()) -> list[str]:
    """The words of ``text``, lower-cased, citation markers aside; each of ``titles`` it quotes is one word."""
    pattern = _titles_pattern(tuple(titles))
    if pattern is None:
        return _words(text)
    pieces = pattern.split(text)  # the text between titles, then each title matched, in turn
    return [
        word
        for n, piece in enumerate(pieces)
        for word in (_words(piece) if n % 2 == 0 else [TITLE_MARK + " ".join(_words(piece))])
    ]


def repeated_phrase(words: list[str]) -> bool:
    """A phrase of LOOP_NGRAM words said LOOP_REPEATS times after the same title (or with none before it): the
    phrase each item of a list says after its own title ("completado, 100 % completado, fecha límite") is the
    list's layout, not a loop."""
    grams: Counter[tuple[str | None, tuple[str, ...]]] = Counter()
    title = None
    for i in range(len(words) - LOOP_NGRAM + 1):
        title = words[i] if words[i].startswith(TITLE_MARK) else title
        grams[title, tuple(words[i : i + LOOP_NGRAM])] += 1
    return bool(grams) and grams.most_common(1)[0][1] >= LOOP_REPEATS


def repeated_line(text: str, titles: Sequence[str] = ()) -> bool:
    """The same line said LOOP_REPEATS times, however few words it has besides the titles it quotes."""
    lines = Counter(words for line in text.splitlines() if (words := tuple(own_words(line, titles))))
    return bool(lines) and lines.most_common(1)[0][1] >= LOOP_REPEATS


def wrong_language(text: str, expected: str, min_words: int = LANGUAGE_MIN_WORDS) -> bool:
    if expected not in ("es", "en") or len(_words(text)) < min_words:
        return False
    found = detect_language(CITATION_MARKER.sub(" ", text), default=expected)
    return found != expected


class AnswerGate:
    """Feed it the visible text as it grows; ``reason`` is set once the answer is unusable."""

    def __init__(
        self,
        *,
        language: str,
        max_tokens: int,
        needs_citation: bool,
        judge: Callable[[str], str | None] | None = None,
        titles: Sequence[str] = (),
    ):
        self.language = language
        self.max_tokens = max_tokens
        self.needs_citation = needs_citation
        self.judge = judge  # a check of the whole answer for its kind of turn (redirect_check.py, chitchat_check.py)
        self.titles = tuple(titles)  # quoted from the learner's record: not the reply's own words
        self.reason: str | None = None
        self._text = ""
        self._checked_words = 0

    def feed(self, text: str) -> str | None:
        self._text += text
        words = own_words(self._text, self.titles)
        if len(words) - self._checked_words < CHECK_EVERY_WORDS:
            return None
        self._checked_words = len(words)
        if self._loops(words):
            self.reason = "loop"
        elif count_tokens(self._text) > self.max_tokens:
            self.reason = "length"
        elif len(words) >= 2 * LANGUAGE_MIN_WORDS and wrong_language(self._own_text(), self.language):
            self.reason = "language"  # twice the minimum mid-stream: an opening quote may be in another one
        return self.reason

    def finish(self, outcome: str, finish_reason: str | None) -> str | None:
        """The verdict on the whole answer, given the stream's outcome and the server's finish reason."""
        if self.reason:
            return self.reason
        text, words = self._text, own_words(self._text, self.titles)
        if outcome == "timeout":
            self.reason = "timeout"
        elif outcome == "truncated" or not words:
            self.reason = "error" if words else "empty"
        elif self._loops(words):
            self.reason = "loop"
        elif finish_reason == "length" or count_tokens(text) > self.max_tokens:
            self.reason = "length"
        elif wrong_language(self._own_text(), self.language):
            self.reason = "language"
        elif self.needs_citation and not CITATION_MARKER.search(text):
            self.reason = "no_citation"
        elif self.judge is not None:
            self.reason = self.judge(text)
        return self.reason

    def _loops(self, words: list[str]) -> bool:
        return repeated_phrase(words) or repeated_line(self._text, self.titles)

    def _own_text(self) -> str:
        return without_titles(self._text, self.titles)


def unsupported_sentences(text: str, passages: list[Passage], cited: list[int], embedder: Embedder) -> list[str]:
    """The answer's sentences that none of the cited passages backs (all passages when none is cited);
    ``embedder`` judges the paraphrases."""
    sources = [p for p in passages if p.index in set(cited)] or passages
    if not sources:
        return []
    source_text = "\n".join(p.text for p in sources)
    source_terms = stems(source_text)
    source_figures = set(_FIGURE.findall(source_text))
    wrong_figures, few_words = [], []
    for sentence in split_sentences(CITATION_MARKER.sub("", text)):
        if set(_FIGURE.findall(sentence)) - source_figures:
            wrong_figures.append(sentence)
            continue
        terms = stems(sentence)
        if len(terms) >= MIN_TERMS and len(terms & source_terms) / len(terms) < LEXICAL_SUPPORT:
            few_words.append(sentence)
    return wrong_figures + _not_paraphrased(few_words, sources, embedder)


def _not_paraphrased(sentences: list[str], sources: list[Passage], embedder: Embedder) -> list[str]:
    """The sentences that no passage paraphrases either (embedding similarity)."""
    if not sentences:
        return []
    vectors = embedder.embed_passages([p.text for p in sources])
    return [s for s in sentences if float(np.max(vectors @ embedder.embed_query(s))) < EMBEDDING_SUPPORT]
