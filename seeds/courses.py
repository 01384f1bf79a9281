"""Demo courses: built from seeds/data/courses/*.yaml through storage.courses, lessons and exercises.

Lessons and exercises name their evidence as short phrases copied from the source documents
(`sources:` / `source:`); they are resolved here to the chunks that contain them, which become
the lesson citations and the exercises' source_chunk_ids.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

import psycopg
import yaml

from core.instructions import score_ahead
from storage import courses as course_store
from storage import exercises as exercise_store
from storage import lessons as lesson_store
from storage.documents import Chunk, document_chunks

log = logging.getLogger(__name__)
COURSES_DIR = Path(__file__).parent / "data" / "courses"


@dataclass(frozen=True)
class SeedExercise:
    id: UUID
    course_id: UUID
    type: str
    content: dict


def load_yaml(path: Path):
    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def course_specs() -> list[dict]:
    return [load_yaml(path) for path in sorted(COURSES_DIR.glob("*.yaml"))]


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


class SourceIndex:
    """Finds the chunk of the course's documents that contains a phrase (case and spacing ignored)."""

    def __init__(self, chunks: list[Chunk]):
        self._chunks = [(chunk, _squash(chunk.content)) for chunk in chunks]

    def find(self, phrase: str) -> Chunk | None:
        needle = _squash(phrase)
        chunk = next((chunk for chunk, text in self._chunks if needle in text), None)
        if chunk is None:
            log.warning("seed source phrase not found in the course documents: %r", phrase)
        return chunk

    def citations(self, phrases: list[str]) -> list[dict]:
        found = [chunk for chunk in map(self.find, phrases) if chunk is not None]
        return [
            {
                "index": n,
                "document": chunk.document_title,
                "section": chunk.heading,
                "page": chunk.page_start,
                "chunk_id": str(chunk.id),
            }
            for n, chunk in enumerate(found, start=1)
        ]


def _exercise_positions(spec: dict) -> dict[tuple[int, int, int], str]:
    """(module, lesson, exercise) positions -> exercise key, as the YAML lays them out."""
    return {
        (m, l, e): exercise["key"]
        for m, module in enumerate(spec["modules"], start=1)
        for l, lesson in enumerate(module["lessons"], start=1)
        for e, exercise in enumerate(lesson.get("exercises", []), start=1)
    }


def ensure_course(
    conn: psycopg.Connection,
    org_id: UUID,
    spec: dict,
    *,
    users: dict,
    skills: dict[str, UUID],
    documents: dict[str, UUID],
) -> tuple[UUID, dict[str, SeedExercise]]:
    """Create the course unless a course with its title exists; returns its id and exercises by key."""
    course_id = course_store.course_id_by_title(conn, org_id, spec["title"])
    if course_id is None:
        course_id = _build_course(conn, org_id, spec, users=users, skills=skills, documents=documents)
    course_store.set_course_titles(conn, org_id, course_id, spec["titles"])
    by_position = exercise_store.course_exercise_positions(conn, org_id, course_id)
    exercises = {}
    for position, key in _exercise_positions(spec).items():
        if position in by_position:
            exercise_id, kind, content = by_position[position]
            exercises[key] = SeedExercise(exercise_id, course_id, kind, content)
    return course_id, exercises


def _build_course(
    conn: psycopg.Connection,
    org_id: UUID,
    spec: dict,
    *,
    users: dict,
    skills: dict[str, UUID],
    documents: dict[str, UUID],
) -> UUID:
    document_ids = [documents[name] for name in spec["documents"]]
    # the instruction filter scores every text stored below in one call, not one call per field (~150 a demo)
    score_ahead(list(_texts(spec["modules"])))
    index = SourceIndex([chunk for doc_id in document_ids for chunk in document_chunks(conn, org_id, doc_id)])
    course_id = course_store.create_course(
        conn,
        org_id,
        title=spec["title"],
        description=spec["description"],
        outcome=spec["outcome"],
        language=spec["language"],
        source_document_id=document_ids[0],
        created_by=users[spec["created_by"]].id,
        status=spec["status"],
    )
    for document_id in document_ids:
        course_store.link_course_document(conn, org_id, course_id, document_id)
    for skill, level in spec["skills"].items():
        course_store.link_course_skill(conn, org_id, course_id, skills[skill], level)

    for module in spec["modules"]:
        lessons = [(lesson, index.citations(lesson.get("sources", []))) for lesson in module["lessons"]]
        module_chunks = list(dict.fromkeys(UUID(c["chunk_id"]) for _, cites in lessons for c in cites))
        module_id = lesson_store.add_module(
            conn,
            org_id,
            course_id,
            title=module["title"],
            summary=module["summary"],
            bloom_level=module.get("bloom_level"),
            skill_id=skills[module["skill"]],
            source_chunk_ids=module_chunks,
        )
        for lesson, citations in lessons:
            lesson_id = lesson_store.add_lesson(
                conn,
                org_id,
                module_id,
                title=lesson["title"],
                content_type=lesson["type"],
                content_md=lesson["content"].strip(),
                citations=citations,
                source_chunk_ids=[UUID(c["chunk_id"]) for c in citations],
            )
            for exercise in lesson.get("exercises", []):
                chunk = index.find(exercise["source"])
                exercise_store.add_exercise(
                    conn,
                    org_id,
                    lesson_id,
                    type=exercise["type"],
                    prompt=exercise["prompt"],
                    content=exercise["content"],
                    bloom_level=exercise["bloom"],
                    explanation=exercise["explanation"],
                    source_chunk_ids=[chunk.id] if chunk else [],
                )
    return course_id


def _texts(value) -> Iterator[str]:
    """Every string in a course spec's modules (titles, lessons, prompts, options, explanations)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)
