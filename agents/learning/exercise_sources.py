"""Where an exercise comes from, as the course player names it: each source chunk under the heading of its
part the exercise was written from. A chunk can pack several small sections (ingestion's heading spans);
its own heading names only the first, so an exercise on the chunk's second section showed its neighbour."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

import psycopg

from core.text import overlap
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


def section_of(chunk: Chunk, text: str) -> tuple[str, int | None]:
    """(heading, page) of the chunk's part that shares most words with ``text``; the chunk's own heading
    when it holds one section (or its spans were never recorded)."""
    spans = sorted((int(span[0]), span[1] or chunk.heading, span[2]) for span in chunk.heading_spans or ())
    if len(spans) < 2:
        return chunk.heading, chunk.page_start
    ends = [start for start, _, _ in spans[1:]] + [len(chunk.content)]
    parts = [(chunk.content[start:end], heading, page) for (start, heading, page), end in zip(spans, ends)]
    _, heading, page = max(parts, key=lambda part: overlap(part[0], text))  # the first of equals
    return heading, page if page is not None else chunk.page_start


def exercise_sources(conn: psycopg.Connection, org_id: UUID, exercise: ExerciseText) -> list[Source]:
    """The exercise's source chunks (in document order), one line per distinct (document, section, page)."""
    chunks: Iterable[Chunk] = (
        sources.chunks_by_id(conn, org_id, exercise.source_chunk_ids) if exercise.source_chunk_ids else []
    )
    text = exercise_text(exercise)
    seen, found = set(), []
    for chunk in chunks:
        heading, page = section_of(chunk, text)
        if (chunk.document_title, heading, page) not in seen:
            seen.add((chunk.document_title, heading, page))
            found.append(Source(chunk.document_title, heading, page, str(chunk.id)))
    return found
