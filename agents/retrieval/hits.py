"""What retrieval returns and where it looks: shared by every strategy (hybrid search, course tree)."""

from __future__ import annotations

from dataclasses import dataclass, field
from uuid import UUID


@dataclass(frozen=True)
class Scope:
    """Where to search inside the organisation: some documents, a course's sources, or (None) all."""

    document_ids: list[UUID] | None = None
    course_id: UUID | None = None


@dataclass(frozen=True)
class Hit:
    chunk_id: UUID
    document_id: UUID
    document_title: str
    heading: str
    page: int | None
    position: int
    content: str
    score: float
    scores: dict = field(default_factory=dict)
    token_count: int = 0
    language: str = ""
    # ((offset in content, heading path), ...): where each section starts in a chunk that packs several
    heading_spans: tuple = ()

    def sections(self) -> tuple[tuple[int, str], ...]:
        """Where each section of the hit's text starts, with its heading path (one section: its heading)."""
        return self.heading_spans or ((0, self.heading),)


def packed_spans(spans: list | None) -> tuple[tuple[int, str], ...]:
    """A chunk's stored heading spans ([offset, heading path, page] each; None before they were recorded) as
    (offset, heading path)."""
    return tuple((int(offset), heading) for offset, heading, *_ in spans or () if heading)
