"""Reference manuals generated from documents (content studio)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from core.markup import product_text
from storage.rows import scalar


@dataclass(frozen=True)
class Manual:
    id: UUID
    org_id: UUID
    course_id: UUID | None
    generation_job_id: UUID | None
    title: str
    content_md: str
    toc: list
    source_document_ids: list[UUID]
    language: str
    created_at: datetime
    sections: list  # [{heading, level, anchor, body, chunk_ids, page, document}]


_COLUMNS = (
    "id, org_id, course_id, generation_job_id, title, content_md, toc, source_document_ids, "
    "language, created_at, sections"
)


def create_manual(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    title: str,
    content_md: str,
    toc: list,
    source_document_ids: list[UUID],
    language: str = "es",
    course_id: UUID | None = None,
    generation_job_id: UUID | None = None,
    sections: list | None = None,
) -> UUID:
    sections = [
        {**s, "heading": product_text(str(s.get("heading", ""))), "body": product_text(str(s.get("body", "")))}
        for s in sections or []
    ]
    return scalar(
        conn,
        """INSERT INTO manuals (org_id, course_id, generation_job_id, title, content_md, toc,
                                source_document_ids, language, sections)
           VALUES (%(org_id)s, %(course_id)s, %(job_id)s, %(title)s, %(content_md)s, %(toc)s,
                   %(docs)s, %(language)s, %(sections)s)
           RETURNING id""",
        {
            "org_id": org_id,
            "course_id": course_id,
            "job_id": generation_job_id,
            "title": product_text(title),
            "content_md": product_text(content_md),
            "toc": Jsonb(toc),
            "docs": list(source_document_ids),
            "language": language,
            "sections": Jsonb(sections),
        },
    )


def get_manual(conn: psycopg.Connection, org_id: UUID, manual_id: UUID) -> Manual | None:
    with conn.cursor(row_factory=class_row(Manual)) as cur:
        return cur.execute(
            f"SELECT {_COLUMNS} FROM manuals WHERE org_id = %(org_id)s AND id = %(id)s",
            {"org_id": org_id, "id": manual_id},
        ).fetchone()


def list_manuals(conn: psycopg.Connection, org_id: UUID) -> list[Manual]:
    with conn.cursor(row_factory=class_row(Manual)) as cur:
        return cur.execute(
            f"SELECT {_COLUMNS} FROM manuals WHERE org_id = %(org_id)s ORDER BY created_at DESC", {"org_id": org_id}
        ).fetchall()


@dataclass(frozen=True)
class ManualSectionSource:
    """A section of a published manual written from a given chunk (what a tutor citation names instead)."""

    manual_id: UUID
    manual_title: str
    language: str
    course_id: UUID | None
    chunk_id: str
    position: int  # the section's place in the manual, from 0
    heading: str
    anchor: str


def sections_from_chunks(conn: psycopg.Connection, org_id: UUID, chunk_ids: list[str]) -> list[ManualSectionSource]:
    """The sections of published manuals (their course published, or a manual with no course) that were
    written from any of ``chunk_ids``, newest manual first."""
    if not chunk_ids:
        return []
    with conn.cursor(row_factory=class_row(ManualSectionSource)) as cur:
        return cur.execute(
            """SELECT m.id AS manual_id, m.title AS manual_title, m.language, m.course_id, ids.chunk_id,
                      (s.n - 1)::int AS position, COALESCE(s.section->>'heading', '') AS heading,
                      COALESCE(s.section->>'anchor', '') AS anchor
               FROM manuals m
               LEFT JOIN courses c ON c.id = m.course_id AND c.org_id = m.org_id
               CROSS JOIN LATERAL jsonb_array_elements(m.sections) WITH ORDINALITY AS s(section, n)
               CROSS JOIN LATERAL jsonb_array_elements_text(
                   CASE jsonb_typeof(s.section->'chunk_ids') WHEN 'array' THEN s.section->'chunk_ids'
                        ELSE '[]'::jsonb END) AS ids(chunk_id)
               WHERE m.org_id = %(org_id)s AND (m.course_id IS NULL OR c.status = 'published')
                 AND ids.chunk_id = ANY(%(chunks)s)
               ORDER BY m.created_at DESC, s.n""",
            {"org_id": org_id, "chunks": [str(c) for c in chunk_ids]},
        ).fetchall()
