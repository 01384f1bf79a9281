"""Where an exercise comes from, as the course player names it: each source chunk under the heading of its
part the exercise was written from (``chunk_sections.heading_at``, as the tutor names a citation). A chunk
can pack several small sections (ingestion's heading spans); its own heading names only the first, so an
exercise on the chunk's second section showed its neighbour."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

import psycopg

from agents.retrieval.chunk_sections import heading_at
from storage import sources
from storage.documents import Chunk


@dataclass(frozen=True)
class Source:
    document: str
    section: str
    page: int | None
    chunk_id: str | None = None  # opens the passage in the source viewer


class ExerciseText(Protocol):
    @property
    def prompt(self) -> str: ...
    @property
    def content(self) -> dict: ...
    @property
    def explanation(self) -> str: ...
    @property
    def source_chunk_ids(self) -> list[UUID]: ...


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def exercise_text(exercise: ExerciseText) -> str:
    """Everything the exercise says: its question, its payload's texts (steps, options, blanks, dialogue,
    rubric) and its explanation."""
    return "\n".join([exercise.prompt, *_strings(exercise.content), exercise.explanation])


def exercise_sources(conn: psycopg.Connection, org_id: UUID, exercise: ExerciseText) -> list[Source]:
    """The exercise's source chunks (in document order), one line per distinct (document, section, page)."""
    chunks: Iterable[Chunk] = (
        sources.chunks_by_id(conn, org_id, exercise.source_chunk_ids) if exercise.source_chunk_ids else []
    )
    text = exercise_text(exercise)
    seen, found = set(), []
    for chunk in chunks:
        heading, page = heading_at(chunk, text)
        if (chunk.document_title, heading, page) not in seen:
            seen.add((chunk.document_title, heading, page))
            found.append(Source(chunk.document_title, heading, page, str(chunk.id)))
    return found
