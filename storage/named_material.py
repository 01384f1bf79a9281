"""Material a learner names by its title: a document section's heading, a document's, a published course's or a
lesson's (the tutor's own suggestion chips name them: "What else does “3.2 Approval limits” say?"). Titles match
whole, ignoring case; a heading matches any part of a section's path ("3. Refunds" names its subsections too).
Every lookup is scoped to the organisation."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import psycopg
from psycopg.rows import class_row

from storage.corpus import SIGNATURE
from storage.documents import Chunk

# a chunk's section paths: where each merged section starts (heading_spans), else its one heading
_PATHS = """(SELECT array_agg(lower(s->>1)) FROM jsonb_array_elements(
                 CASE WHEN jsonb_array_length(COALESCE(c.heading_spans, '[]'::jsonb)) > 0 THEN c.heading_spans
                      ELSE jsonb_build_array(jsonb_build_array(0, c.heading)) END) s)"""


def _heads(name: str) -> str:
    """SQL: a section of chunk ``c`` is headed ``name`` (an SQL expression), or lies under a heading so named."""
    return f"EXISTS (SELECT 1 FROM unnest({_PATHS}) path WHERE lower({name}) = ANY(string_to_array(path, ' > ')))"


_COURSE_DOCUMENTS = """SELECT cd.document_id FROM course_documents cd JOIN courses k ON k.id = cd.course_id
                        WHERE k.org_id = %(org_id)s AND k.status = 'published' AND lower(k.title) = lower(%(name)s)
                       UNION SELECT k.source_document_id FROM courses k
                        WHERE k.org_id = %(org_id)s AND k.status = 'published' AND lower(k.title) = lower(%(name)s)"""


@dataclass(frozen=True)
class NamedChunk:
    chunk: Chunk
    named_as: str  # "section" | "document" | "course"
    course: str  # the course's title when named as a course, else ""


def named_chunks(conn: psycopg.Connection, org_id: UUID, name: str) -> list[NamedChunk]:
    """The chunks of the sections headed ``name``, else of the document titled ``name``, else of the documents of
    the published course titled ``name`` (the one it was written from first); in document order."""
    with conn.cursor() as cur:
        rows = cur.execute(
            f"""SELECT c.id, c.document_id, d.title, c.position, c.heading, c.page_start, c.page_end, c.content,
                       c.token_count, COALESCE(c.heading_spans, '[]'::jsonb),
                       CASE WHEN lower(d.title) = lower(%(name)s) THEN 'document'
                            WHEN {_heads("%(name)s")} THEN 'section' ELSE 'course' END,
                       (SELECT k.title FROM courses k WHERE k.org_id = %(org_id)s AND k.status = 'published'
                         AND lower(k.title) = lower(%(name)s) LIMIT 1)
                FROM document_chunks c JOIN documents d ON d.id = c.document_id
                WHERE c.org_id = %(org_id)s AND c.ingestion_id IS NULL
                  AND ({_heads("%(name)s")} OR lower(d.title) = lower(%(name)s) OR d.id IN ({_COURSE_DOCUMENTS}))
                ORDER BY d.id IN (SELECT k.source_document_id FROM courses k WHERE k.org_id = %(org_id)s
                                    AND lower(k.title) = lower(%(name)s)) DESC, d.title, c.position""",
            {"org_id": org_id, "name": name},
        ).fetchall()
    found = [NamedChunk(Chunk(*row[:10]), row[10], row[11] or "") for row in rows]
    for kind in ("section", "document", "course"):  # the narrowest reading of the name wins
        if any(n.named_as == kind for n in found):
            return [n for n in found if n.named_as == kind]
    return []


@dataclass(frozen=True)
class NamedText:
    id: UUID
    in_view: bool  # a lesson of the course in view
    kind: str  # "document" (kept whole, no chunks) | "lesson"
    title: str
    parent: str  # a lesson's module title; "" for a document
    text: str


def named_texts(conn: psycopg.Connection, org_id: UUID, name: str, course_id: UUID | None = None) -> list[NamedText]:
    """Documents kept whole titled ``name`` and lessons titled ``name`` of published courses (the course in view's
    first)."""
    with conn.cursor(row_factory=class_row(NamedText)) as cur:
        return cur.execute(
            """SELECT d.id, false AS in_view, 'document' AS kind, d.title, '' AS parent, d.full_text AS text
                 FROM documents d
                WHERE d.org_id = %(org_id)s AND lower(d.title) = lower(%(name)s)
                  AND NOT EXISTS (SELECT 1 FROM document_chunks c WHERE c.document_id = d.id)
               UNION ALL
               SELECT l.id, k.id = %(course_id)s, 'lesson', l.title, m.title, l.content_md FROM lessons l
                 JOIN modules m ON m.id = l.module_id JOIN courses k ON k.id = m.course_id
                WHERE l.org_id = %(org_id)s AND lower(l.title) = lower(%(name)s)
                  AND (k.status = 'published' OR k.id = %(course_id)s)
                ORDER BY in_view DESC, kind""",
            {"org_id": org_id, "name": name, "course_id": course_id},
        ).fetchall()


def titled_names(conn: psycopg.Connection, org_id: UUID, names: list[str]) -> tuple[tuple | None, list[tuple]]:
    """In one statement: the organisation's corpus signature (corpus.corpus_signature; None: no such organisation) and
    each of ``names`` as (name, lower-cased as the database folds it, whether it titles a document, a published course
    with chunks or a lesson of a published course). Section headings are ``section_names``: the chunks are many."""
    rows = conn.execute(
        f"""WITH signature AS ({SIGNATURE})
            SELECT n.name, lower(n.name),
                   EXISTS (SELECT 1 FROM documents d WHERE d.org_id = %(org_id)s AND lower(d.title) = lower(n.name))
                OR EXISTS (SELECT 1 FROM courses k JOIN document_chunks c
                             ON c.document_id = k.source_document_id OR c.document_id IN (
                                SELECT cd.document_id FROM course_documents cd WHERE cd.course_id = k.id)
                            WHERE k.org_id = %(org_id)s AND k.status = 'published' AND lower(k.title) = lower(n.name))
                OR EXISTS (SELECT 1 FROM lessons l JOIN modules m ON m.id = l.module_id
                             JOIN courses k ON k.id = m.course_id
                            WHERE l.org_id = %(org_id)s AND k.status = 'published' AND lower(l.title) = lower(n.name)),
                   g.*
            FROM signature g CROSS JOIN unnest(%(names)s::text[]) AS n(name)""",
        {"org_id": org_id, "names": list(names)},
    ).fetchall()
    return (tuple(rows[0][3:]) if rows else None), [tuple(row[:3]) for row in rows]


def section_names(conn: psycopg.Connection, org_id: UUID) -> frozenset[str]:
    """Every heading of the organisation's section paths, lower-cased: each part of "3. Refunds > 3.2 Approval limits",
    for every section a settled chunk starts (or its one heading). A name among them names a section (``_heads``)."""
    rows = conn.execute(
        f"""SELECT DISTINCT part FROM document_chunks c, unnest({_PATHS}) AS path,
                   unnest(string_to_array(path, ' > ')) AS part
            WHERE c.org_id = %(org_id)s AND c.ingestion_id IS NULL""",
        {"org_id": org_id},
    ).fetchall()
    return frozenset(row[0] for row in rows)
