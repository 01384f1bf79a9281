"""An organisation's corpus as a whole: a signature that changes with its documents, its chunks grouped by
language with each group's mean vector (retrieval's cross-language shift), and every chunk with its vector
(the eval's exact anchors). Every query filters by org_id."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import numpy as np
import psycopg
from psycopg.rows import class_row


@dataclass(frozen=True)
class LanguageGroup:
    ts_config: str  # chunks are grouped by their text-search configuration (one per language)
    chunks: int
    centroid: np.ndarray


SIGNATURE = """SELECT count(d.id) AS documents, max(d.updated_at) AS updated, max(d.created_at) AS created
    FROM organizations o LEFT JOIN documents d ON d.org_id = o.id WHERE o.id = %(org_id)s GROUP BY o.id"""


def corpus_signature(conn: psycopg.Connection, org_id: UUID) -> tuple | None:
    """Changes whenever the organisation's documents do (cheap: the documents table is small); None when
    there is no such organisation."""
    row = conn.execute(SIGNATURE, {"org_id": org_id}).fetchone()
    return None if row is None else tuple(row)


def language_groups(conn: psycopg.Connection, org_id: UUID) -> list[LanguageGroup]:
    """The organisation's chunks by text-search configuration, with each group's mean embedding."""
    rows = conn.execute(
        """SELECT c.ts_config::text, count(*)::int, avg(c.embedding) FROM document_chunks c
           WHERE c.org_id = %(org_id)s GROUP BY c.ts_config ORDER BY 1""",
        {"org_id": org_id},
    ).fetchall()
    return [LanguageGroup(row[0], row[1], np.asarray(row[2], dtype=np.float32)) for row in rows]


@dataclass(frozen=True)
class EvalChunk:
    chunk_id: UUID
    document_title: str
    document_language: str
    heading: str
    content: str
    embedding: np.ndarray


def org_chunks(conn: psycopg.Connection, org_id: UUID) -> list[EvalChunk]:
    """Every chunk of the organisation with its vector: the eval's exact in-memory anchors."""
    with conn.cursor(row_factory=class_row(EvalChunk)) as cur:
        return cur.execute(
            """SELECT c.id AS chunk_id, d.title AS document_title, d.language AS document_language, c.heading,
                      c.content, c.embedding FROM document_chunks c JOIN documents d ON d.id = c.document_id
               WHERE c.org_id = %(org_id)s AND c.embedding IS NOT NULL ORDER BY d.title, c.position""",
            {"org_id": org_id},
        ).fetchall()


def vocabulary(conn: psycopg.Connection, org_id: UUID) -> list[str]:
    """Every distinct lower-cased word of the organisation's chunks, their headings and their documents'
    titles: what the company has written about (the tutor's answer check, issue 29)."""
    rows = conn.execute(
        """SELECT DISTINCT word FROM document_chunks c JOIN documents d ON d.id = c.document_id,
                  regexp_split_to_table(lower(c.content || ' ' || coalesce(c.heading, '') || ' ' || d.title),
                                        '[^[:alnum:]]+') AS word
           WHERE c.org_id = %(org_id)s AND length(word) >= 3""",
        {"org_id": org_id},
    ).fetchall()
    return [row[0] for row in rows]


def chunk_words(conn: psycopg.Connection, org_id: UUID) -> list[list[str]]:
    """Each chunk's distinct lower-cased words, its heading's and its document title's among them: how many of
    the organisation's chunks say a word (how rare it is: the tutor's closest material, issue 29)."""
    rows = conn.execute(
        """SELECT array_agg(DISTINCT word) FROM document_chunks c JOIN documents d ON d.id = c.document_id,
                  regexp_split_to_table(lower(c.content || ' ' || coalesce(c.heading, '') || ' ' || d.title),
                                        '[^[:alnum:]]+') AS word
           WHERE c.org_id = %(org_id)s AND length(word) >= 3 GROUP BY c.id""",
        {"org_id": org_id},
    ).fetchall()
    return [row[0] for row in rows]
