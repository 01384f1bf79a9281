"""What a question is scoped to: the whole documents of a learner's enrolled courses, ranked by their
relevance; the courses and documents an admin picks a scope from; each document's language. Every query
filters by org_id."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import numpy as np
import psycopg
from psycopg.rows import class_row


@dataclass(frozen=True)
class WholeDocument:
    id: UUID
    title: str
    language: str
    full_text: str
    token_count: int
    relevance: float | None


@dataclass(frozen=True)
class ScopeOption:
    id: UUID
    title: str
    kind: str  # "course" | "document"


def enrolled_course_documents(
    conn: psycopg.Connection, org_id: UUID, user_id: UUID, query_vector: np.ndarray, course_id: UUID | None = None
) -> list[WholeDocument]:
    """Whole documents of the courses the user is enrolled in (only ``course_id``'s when given).

    relevance is the best chunk similarity to the question (None for a document without chunks).
    """
    with conn.cursor(row_factory=class_row(WholeDocument)) as cur:
        return cur.execute(
            """WITH docs AS (
                   SELECT cd.document_id AS id FROM enrollments e
                   JOIN course_documents cd ON cd.course_id = e.course_id AND cd.org_id = e.org_id
                   WHERE e.org_id = %(org_id)s AND e.user_id = %(user)s AND e.status <> 'cancelled'
                     AND (%(course)s::uuid IS NULL OR e.course_id = %(course)s)
                   UNION
                   SELECT co.source_document_id FROM enrollments e JOIN courses co ON co.id = e.course_id
                   WHERE e.org_id = %(org_id)s AND e.user_id = %(user)s AND e.status <> 'cancelled'
                     AND co.source_document_id IS NOT NULL
                     AND (%(course)s::uuid IS NULL OR e.course_id = %(course)s))
               SELECT d.id, d.title, d.language, d.full_text,
                      greatest(d.token_count, length(d.full_text) / 4) AS token_count,
                      (SELECT max(1 - (c.embedding <=> %(qvec)s)) FROM document_chunks c
                       WHERE c.document_id = d.id AND c.org_id = %(org_id)s) AS relevance
               FROM docs JOIN documents d ON d.id = docs.id WHERE d.org_id = %(org_id)s
               ORDER BY relevance DESC NULLS LAST, d.title""",
            {"org_id": org_id, "user": user_id, "course": course_id, "qvec": query_vector},
        ).fetchall()


def scope_options(conn: psycopg.Connection, org_id: UUID) -> list[ScopeOption]:
    """Courses and documents an admin can scope a search to."""
    with conn.cursor(row_factory=class_row(ScopeOption)) as cur:
        return cur.execute(
            """SELECT id, title, 'course' AS kind FROM courses WHERE org_id = %(org_id)s
               UNION ALL SELECT id, title, 'document' FROM documents WHERE org_id = %(org_id)s
               ORDER BY kind, title""",
            {"org_id": org_id},
        ).fetchall()


def document_languages(conn: psycopg.Connection, org_id: UUID) -> dict[str, str]:
    """document title -> language (the eval's language-pair breakdown)."""
    rows = conn.execute(
        "SELECT title, language FROM documents WHERE org_id = %(org_id)s", {"org_id": org_id}
    ).fetchall()
    return {row[0]: row[1] for row in rows}
