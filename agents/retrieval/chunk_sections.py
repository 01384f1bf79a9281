"""Where in a chunk a claim comes from: the chunk's sentences, the ones a claim cites, and the heading of
the section they sit in (a chunk can pack several small sections, ``heading_spans``: where each starts).

Pure functions on a chunk's text, shared by the tutor (citations and the source viewer) and learning (an
exercise's sources in the course player).
"""

from __future__ import annotations

import functools
import re

_WORDS = re.compile(r"[^\W\d_]{3,}|\d+", re.UNICODE)


@functools.lru_cache(maxsize=8192)  # the same chunks and sentences are compared with every answer citing them
def _stems(text: str) -> frozenset[str]:
    return frozenset(word.lower()[:5] for word in _WORDS.findall(text or ""))


def support(claim: str, text: str) -> float:
    """Share of the claim's words (5-letter stems) that ``text`` holds."""
    asked = _stems(claim)
    return len(asked & _stems(text)) / len(asked) if asked else 0.0


# A sentence in a passage: from its first non-blank character (after a list or heading mark) to the
# end of the line or a stop followed by a space ("3.3" and "p.ej." mid-word do not end one).
_SENTENCE = re.compile(r"[^\s|](?:.*?)(?:[.!?…]+(?=\s)|$)", re.MULTILINE)
_LINE_MARK = re.compile(r"(?:[-*+>]|#{1,6}|\d{1,3}[.)])\s+")
# Share of a claim sentence's words a passage sentence must hold to be the one the claim cites: an
# offline answer quotes it whole (1.0); a model's paraphrase in other words marks nothing.
CITED_SUPPORT = 0.5


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of a passage, table rows left out (a mark would cross their cells)."""
    spans = []
    for match in _SENTENCE.finditer(text or ""):
        line_start = text.rfind("\n", 0, match.start()) + 1
        if text[line_start:].lstrip().startswith("|"):
            continue
        start = match.start()
        if not text[line_start:start].strip():
            mark = _LINE_MARK.match(text, start)  # a list item's or heading's mark is not the sentence
            start = mark.end() if mark and mark.end() < match.end() else start
        spans.append((start, match.end()))
    return spans


def cited_sentences(text: str, claim: str) -> list[tuple[int, int]]:
    """Where in ``text`` the sentences are that the claim cites, in the text's order: each passage
    sentence the claim quotes (nearly all its words in the claim), and for each sentence of the claim the
    passage sentence holding most of its words (at least CITED_SUPPORT of them)."""
    spans = sentence_spans(text)
    found = {
        span
        for span in spans
        if len(_stems(text[span[0] : span[1]])) >= 3 and support(text[span[0] : span[1]], claim) >= 0.8
    }
    for start, end in sentence_spans(claim or ""):
        part = claim[start:end]
        if len(_stems(part)) < 2 or not spans:
            continue
        best = max(spans, key=lambda span: support(part, text[span[0] : span[1]]))
        if support(part, text[best[0] : best[1]]) >= CITED_SUPPORT:
            found.add(best)
    return sorted(found)


def heading_at_offset(chunk, offset: int) -> tuple[str, int | None]:
    """(heading, page) of the section ``offset`` of the chunk's text sits in (``heading_spans``: where
    each of the small sections merged into one chunk starts)."""
    spans = sorted(tuple(span) for span in chunk.heading_spans or ())
    if not spans:
        return chunk.heading, chunk.page_start
    _, heading, page = next((span for span in reversed(spans) if span[0] <= offset), spans[0])
    return heading or chunk.heading, page or chunk.page_start


def claim_offset(chunk, claim: str) -> int:
    """Where in the chunk's text the claim comes from: its first cited sentence, else the paragraph
    sharing most words with it (a paraphrase)."""
    cited = cited_sentences(chunk.content, claim)
    if cited:
        return cited[0][0]
    paragraphs, offset = [], 0
    for paragraph in chunk.content.split("\n\n"):
        paragraphs.append((offset, paragraph))
        offset += len(paragraph) + 2
    return max(paragraphs, key=lambda item: support(claim, item[1]))[0]


def heading_at(chunk, claim: str) -> tuple[str, int | None]:
    """(heading, page) of the section the claim comes from inside ``chunk``."""
    if len(chunk.heading_spans or ()) < 2:
        return chunk.heading, chunk.page_start
    return heading_at_offset(chunk, claim_offset(chunk, claim))
