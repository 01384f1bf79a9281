"""What the source viewer and the tutor's citations read: a chunk with its neighbours, a document's
passages in order, a lesson's text. Every lookup is scoped to the organisation (others: None)."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import psycopg
from psycopg.rows import class_row

from core.inputs import parse_uuid
from core.names import in_language
from storage.documents import Chunk

_CHUNK_SELECT = """
    SELECT c.id, c.document_id, d.title AS document_title, c.position, c.heading, c.page_start,
           c.page_end, c.content, c.token_count, COALESCE(c.heading_spans, '[]'::jsonb) AS heading_spans
    FROM document_chunks c JOIN documents d ON d.id = c.document_id"""


def nearby_chunks(conn: psycopg.Connection, org_id: UUID, chunk_id: object, radius: int = 1) -> list[Chunk]:
    """The chunk and the ``radius`` chunks either side of it in its document, in reading order."""
    parsed = parse_uuid(chunk_id)
    if parsed is None:
        return []
    with conn.cursor(row_factory=class_row(Chunk)) as cur:
        return cur.execute(
            f"""{_CHUNK_SELECT}
                JOIN document_chunks hit ON hit.document_id = c.document_id AND hit.org_id = c.org_id
                WHERE c.org_id = %(org_id)s AND hit.id = %(id)s
                  AND c.position BETWEEN hit.position - %(radius)s AND hit.position + %(radius)s
                ORDER BY c.position""",
            {"org_id": org_id, "id": parsed, "radius": radius},
        ).fetchall()


def chunks_by_id(conn: psycopg.Connection, org_id: UUID, chunk_ids: list[UUID]) -> list[Chunk]:
    """The chunks with these ids, with their heading spans, in document order; another organisation's are skipped."""
    with conn.cursor(row_factory=class_row(Chunk)) as cur:
        return cur.execute(
            f"{_CHUNK_SELECT} WHERE c.org_id = %(org_id)s AND c.id = ANY(%(ids)s) ORDER BY c.document_id, c.position",
            {"org_id": org_id, "ids": list(chunk_ids)},
        ).fetchall()


def document_chunks_by_document(conn: psycopg.Connection, org_id: UUID, document_id: object) -> list[Chunk]:
    parsed = parse_uuid(document_id)
    if parsed is None:
        return []
    with conn.cursor(row_factory=class_row(Chunk)) as cur:
        return cur.execute(
            f"{_CHUNK_SELECT} WHERE c.org_id = %(org_id)s AND c.document_id = %(doc)s ORDER BY c.position",
            {"org_id": org_id, "doc": parsed},
        ).fetchall()


def org_document_chunks(conn: psycopg.Connection, org_id: UUID) -> list[Chunk]:
    """Every chunk of the organisation's documents, with its heading spans, by document and position (the tutor's
    closest material reads each document's sections, issue 29)."""
    with conn.cursor(row_factory=class_row(Chunk)) as cur:
        return cur.execute(
            f"{_CHUNK_SELECT} WHERE c.org_id = %(org_id)s ORDER BY c.document_id, c.position", {"org_id": org_id}
        ).fetchall()


@dataclass(frozen=True)
class SourceDocument:
    id: UUID
    title: str
    source_name: str
    mime_type: str
    page_count: int
    language: str
    full_text: str


def source_document(conn: psycopg.Connection, org_id: UUID, document_id: object) -> SourceDocument | None:
    parsed = parse_uuid(document_id)
    if parsed is None:
        return None
    with conn.cursor(row_factory=class_row(SourceDocument)) as cur:
        return cur.execute(
            """SELECT id, title, source_name, mime_type, page_count, language, full_text
                              FROM documents WHERE org_id = %(org_id)s AND id = %(id)s""",
            {"org_id": org_id, "id": parsed},
        ).fetchone()


def chunk_document_id(conn: psycopg.Connection, org_id: UUID, chunk_id: object) -> UUID | None:
    parsed = parse_uuid(chunk_id)
    if parsed is None:
        return None
    row = conn.execute(
        "SELECT document_id FROM document_chunks WHERE org_id = %(org_id)s AND id = %(id)s",
        {"org_id": org_id, "id": parsed},
    ).fetchone()
    return row[0] if row else None


@dataclass(frozen=True)
class SourceLesson:
    id: UUID
    title: str
    course_title: str
    module_title: str
    content_md: str
    citations: list


def source_lesson(conn: psycopg.Connection, org_id: UUID, lesson_id: object) -> SourceLesson | None:
    parsed = parse_uuid(lesson_id)
    if parsed is None:
        return None
    with conn.cursor(row_factory=class_row(SourceLesson)) as cur:
        return cur.execute(
            """SELECT l.id, l.title, c.title AS course_title, m.title AS module_title, l.content_md, l.citations
               FROM lessons l JOIN modules m ON m.id = l.module_id JOIN courses c ON c.id = m.course_id
               WHERE l.org_id = %(org_id)s AND l.id = %(id)s""",
            {"org_id": org_id, "id": parsed},
        ).fetchone()


@dataclass(frozen=True)
class Material:
    """Somewhere to read on: a document, or a published course made from it (titled in the reader's language)."""

    kind: str  # "course" | "document"
    id: UUID
    title: str


def material_of(conn: psycopg.Connection, org_id: UUID, source_id: object, lang: str) -> list[Material]:
    """The document a chunk (or a whole document: ``source_id`` its id) comes from, after the first published
    course made from it by title; nothing when the organisation holds no such chunk or document."""
    parsed = parse_uuid(source_id)
    if parsed is None:
        return []
    with conn.cursor(row_factory=class_row(Material)) as cur:
        return cur.execute(
            f"""WITH doc AS (
                    SELECT d.id, d.title FROM documents d
                    WHERE d.org_id = %(org_id)s AND d.id = coalesce(
                        (SELECT c.document_id FROM document_chunks c WHERE c.org_id = %(org_id)s AND c.id = %(id)s),
                        %(id)s))
                SELECT kind, id, title FROM (
                    (SELECT 'course' AS kind, c.id, {in_language("c.titles", "c.title")} AS title, 0 AS n
                     FROM courses c JOIN doc ON c.source_document_id = doc.id
                     WHERE c.org_id = %(org_id)s AND c.status = 'published' ORDER BY c.title LIMIT 1)
                    UNION ALL
                    SELECT 'document', doc.id, doc.title, 1 FROM doc) AS material
                ORDER BY n""",
            {"org_id": org_id, "id": parsed, "lang": lang},
        ).fetchall()
