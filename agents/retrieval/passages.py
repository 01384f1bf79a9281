"""The one passage type, from retrieval to the screen.

``ground()`` numbers the passages an answer may stand on (chunks, lessons, whole documents); the tutor
keeps them as they are through generation, renumbers them in the order the answer cites them and
pins each cited one on the chunk its sentence comes from (``dataclasses.replace``, never another
shape). At the service boundary a cited passage becomes its wire form, ``shown()``: the dict the
``citations`` event carries and the stored answer keeps, which the chat and a reopened conversation
draw the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from agents.llm import count_tokens

EXCERPT_CHARS = 600
# a citation marker as answers carry it, "[2]" or "[1, 3]", with the space before it (group 1) and its numbers (2)
CITATION_MARKER = re.compile(r"(\s*)\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]")


@dataclass(frozen=True)
class Passage:
    index: int  # its [n] in the answer (0 until ground() numbers it)
    text: str
    document: str
    section: str
    page: int | None
    source_type: str  # "document_chunk" | "lesson" | "document"; "manual" once cited as a manual's section
    source_id: str
    score: float | None = None  # the hit's hybrid score (chunks only): the offline answer ranks by it
    quote: str | None = None  # once cited: the sentence its [n] ends, which the source viewer highlights
    anchor: str | None = None  # cited as a manual's section: that section
    chunk_id: str | None = None  # cited as a manual's section: the chunk it was written from
    # a chunk that packs several small sections: ((offset in text, section), ...) where each starts
    sections: tuple[tuple[int, str], ...] = ()

    def section_at(self, offset: int) -> str:
        """The section the text at ``offset`` sits in (``section`` unless the passage packs several)."""
        return next((section for start, section in reversed(self.sections) if start <= offset), self.section)

    def numbered(self, index: int) -> Passage:
        return replace(self, index=index)

    def citation(self) -> dict:
        """What names the source: its number, document, section, page and what the viewer opens."""
        cited = {
            "index": self.index,
            "document": self.document,
            "section": self.section,
            "page": self.page,
            "source_type": self.source_type,
            "source_id": self.source_id,
        }
        cited.update(
            {
                key: value
                for key, value in (("quote", self.quote), ("anchor", self.anchor), ("chunk_id", self.chunk_id))
                if value is not None
            }
        )
        return cited

    def excerpt(self, limit: int = EXCERPT_CHARS) -> str:
        """The passage as the answer shows it: one paragraph, cut at a word under ``limit`` characters."""
        text = " ".join(self.text.split())
        return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"

    def shown(self) -> dict:
        """The cited passage on the wire (the ``citations`` event, the stored answer): its citation and excerpt."""
        return {**self.citation(), "excerpt": self.excerpt()}


def trim_passages(passages: list[Passage], budget_tokens: int) -> list[Passage]:
    """The passages that fit the context budget, in their given order (at least one)."""
    kept: list[Passage] = []
    used = 0
    for passage in passages:
        cost = count_tokens(passage.text)
        if kept and used + cost > budget_tokens:
            break
        kept.append(passage)
        used += cost
    return kept
