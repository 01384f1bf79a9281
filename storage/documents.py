"""Documents and their chunks: the rows ingestion writes and retrieval, courses and the tutor read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import numpy as np
import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from storage.rows import scalar


@dataclass(frozen=True)
class Document:
    id: UUID
    org_id: UUID
    source_name: str
    title: str
    mime_type: str
    page_count: int
    language: str
    content_hash: str
    token_count: int
    updated_at: datetime
    chunk_count: int


@dataclass(frozen=True)
class Chunk:
    id: UUID
    document_id: UUID
    document_title: str
    position: int
    heading: str
    page_start: int | None
    page_end: int | None
    content: str
    token_count: int
    heading_spans: tuple = ()  # as NewChunk's, where a reader selects them (storage/sources.py)


@dataclass(frozen=True)
class NewChunk:
    position: int
    heading: str
    page_start: int | None
    page_end: int | None
    content: str
    token_count: int
    heading_spans: tuple = ()  # ((offset in content, heading path, page), ...) where each heading starts


_DOCUMENT_SELECT = """
    SELECT d.id, d.org_id, d.source_name, d.title, d.mime_type, d.page_count, d.language,
           d.content_hash, d.token_count, d.updated_at,
           (SELECT count(*) FROM document_chunks c WHERE c.document_id = d.id AND c.ingestion_id IS NULL)::int
               AS chunk_count
    FROM documents d"""
_CHUNK_SELECT = """
    SELECT c.id, c.document_id, d.title AS document_title, c.position, c.heading, c.page_start,
           c.page_end, c.content, c.token_count
    FROM document_chunks c JOIN documents d ON d.id = c.document_id"""


def list_documents(conn: psycopg.Connection, org_id: UUID) -> list[Document]:
    with conn.cursor(row_factory=class_row(Document)) as cur:
        return cur.execute(
            f"{_DOCUMENT_SELECT} WHERE d.org_id = %(org_id)s ORDER BY d.title", {"org_id": org_id}
        ).fetchall()


def get_document(conn: psycopg.Connection, org_id: UUID, document_id: UUID) -> Document | None:
    with conn.cursor(row_factory=class_row(Document)) as cur:
        return cur.execute(
            f"{_DOCUMENT_SELECT} WHERE d.org_id = %(org_id)s AND d.id = %(id)s", {"org_id": org_id, "id": document_id}
        ).fetchone()


def get_full_text(conn: psycopg.Connection, org_id: UUID, document_id: UUID) -> str | None:
    row = conn.execute(
        "SELECT full_text FROM documents WHERE org_id = %(org_id)s AND id = %(id)s",
        {"org_id": org_id, "id": document_id},
    ).fetchone()
    return row[0] if row else None


def find_by_hash(conn: psycopg.Connection, org_id: UUID, content_hash: str) -> Document | None:
    with conn.cursor(row_factory=class_row(Document)) as cur:
        return cur.execute(
            f"{_DOCUMENT_SELECT} WHERE d.org_id = %(org_id)s AND d.content_hash = %(hash)s",
            {"org_id": org_id, "hash": content_hash},
        ).fetchone()


def find_by_source_name(conn: psycopg.Connection, org_id: UUID, source_name: str) -> Document | None:
    with conn.cursor(row_factory=class_row(Document)) as cur:
        return cur.execute(
            f"{_DOCUMENT_SELECT} WHERE d.org_id = %(org_id)s AND d.source_name = %(name)s",
            {"org_id": org_id, "name": source_name},
        ).fetchone()


def document_chunks(conn: psycopg.Connection, org_id: UUID, document_id: UUID) -> list[Chunk]:
    with conn.cursor(row_factory=class_row(Chunk)) as cur:
        return cur.execute(
            f"{_CHUNK_SELECT} WHERE c.org_id = %(org_id)s AND c.document_id = %(doc)s"
            " AND c.ingestion_id IS NULL ORDER BY c.position",  # not a version still ingesting
            {"org_id": org_id, "doc": document_id},
        ).fetchall()


def chunk_heading_spans(conn: psycopg.Connection, org_id: UUID, document_id: UUID) -> dict[UUID, list]:
    """Per chunk id, where each heading's text starts in it ([[offset, heading path, page], ...]);
    chunks ingested before spans were recorded are absent."""
    rows = conn.execute(
        "SELECT id, heading_spans FROM document_chunks WHERE org_id = %(org_id)s"
        " AND document_id = %(doc)s AND heading_spans IS NOT NULL",
        {"org_id": org_id, "doc": document_id},
    ).fetchall()
    return {chunk_id: spans for chunk_id, spans in rows}


@dataclass(frozen=True)
class SpanlessDocument:
    org_id: UUID
    id: UUID
    source_name: str
    content_hash: str


def documents_without_heading_spans(conn: psycopg.Connection) -> list[SpanlessDocument]:
    """Every organisation's documents with a chunk stored before heading spans were (migration 050): a
    maintenance read at startup, like a migration, so it is not scoped to one organisation."""
    with conn.cursor(row_factory=class_row(SpanlessDocument)) as cur:
        return cur.execute(
            """SELECT d.org_id, d.id, d.source_name, d.content_hash FROM documents d
               WHERE EXISTS (SELECT 1 FROM document_chunks c WHERE c.org_id = d.org_id AND c.document_id = d.id
                             AND c.heading_spans IS NULL AND c.ingestion_id IS NULL)
               ORDER BY d.org_id, d.source_name"""
        ).fetchall()


def fill_heading_spans(conn: psycopg.Connection, org_id: UUID, document_id: UUID, chunks: list[NewChunk]) -> int:
    """Record ``chunks``' heading spans on the stored chunks still without them that hold the same text at
    the same position (the document chunked again from its original file); returns how many were filled."""
    rows = [
        (chunk.position, chunk.content, Jsonb([list(span) for span in chunk.heading_spans]))
        for chunk in chunks
        if chunk.heading_spans
    ]
    if not rows:
        return 0
    return conn.execute(
        """UPDATE document_chunks c SET heading_spans = v.spans
           FROM unnest(%(positions)s::int[], %(contents)s::text[], %(spans)s::jsonb[]) AS v(position, content, spans)
           WHERE c.org_id = %(org_id)s AND c.document_id = %(doc)s AND c.position = v.position
             AND c.content = v.content AND c.heading_spans IS NULL AND c.ingestion_id IS NULL""",
        {
            "org_id": org_id,
            "doc": document_id,
            "positions": [r[0] for r in rows],
            "contents": [r[1] for r in rows],
            "spans": [r[2] for r in rows],
        },
    ).rowcount


@dataclass(frozen=True)
class PackedChunk:
    org_id: UUID
    id: UUID
    document_title: str
    heading: str
    content: str
    heading_spans: list


def packed_chunks_without_section_vectors(conn: psycopg.Connection, limit: int) -> list[PackedChunk]:
    """Every organisation's chunks that pack several sections but were stored before their sections were
    embedded (migration 180): a maintenance read at startup, so it is not scoped to one organisation."""
    with conn.cursor(row_factory=class_row(PackedChunk)) as cur:
        return cur.execute(
            """SELECT c.org_id, c.id, d.title AS document_title, c.heading, c.content, c.heading_spans
               FROM document_chunks c JOIN documents d ON d.id = c.document_id AND d.org_id = c.org_id
               WHERE c.section_embeddings IS NULL AND c.embedding IS NOT NULL AND c.ingestion_id IS NULL
                 AND jsonb_array_length(c.heading_spans) > 1
               ORDER BY c.org_id, c.document_id, c.position LIMIT %(limit)s""",
            {"limit": limit},
        ).fetchall()


def set_section_vectors(conn: psycopg.Connection, org_id: UUID, chunk_id: UUID, vectors: list) -> int:
    return conn.execute(
        "UPDATE document_chunks SET section_embeddings = %(v)s::vector[]"
        " WHERE org_id = %(org_id)s AND id = %(id)s AND section_embeddings IS NULL",
        {"v": list(vectors), "org_id": org_id, "id": chunk_id},
    ).rowcount


def upsert_document(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    source_name: str,
    title: str,
    mime_type: str,
    full_text: str,
    page_count: int,
    language: str,
    content_hash: str,
    token_count: int,
    uploaded_by: UUID | None,
) -> UUID:
    """Insert the document row, or update the one with this source name (its chunks are not touched)."""
    return scalar(
        conn,
        """INSERT INTO documents (org_id, source_name, title, mime_type, full_text, page_count, language,
                                  content_hash, token_count, uploaded_by)
           VALUES (%(org_id)s, %(source_name)s, %(title)s, %(mime_type)s, %(full_text)s, %(page_count)s,
                   %(language)s, %(hash)s, %(tokens)s, %(uploaded_by)s)
           ON CONFLICT (org_id, source_name) DO UPDATE SET
               title = EXCLUDED.title, mime_type = EXCLUDED.mime_type, full_text = EXCLUDED.full_text,
               page_count = EXCLUDED.page_count, language = EXCLUDED.language,
               content_hash = EXCLUDED.content_hash, token_count = EXCLUDED.token_count,
               uploaded_by = EXCLUDED.uploaded_by, updated_at = now()
           RETURNING id""",
        {
            "org_id": org_id,
            "source_name": source_name,
            "title": title,
            "mime_type": mime_type,
            "full_text": full_text,
            "page_count": page_count,
            "language": language,
            "hash": content_hash,
            "tokens": token_count,
            "uploaded_by": uploaded_by,
        },
    )


def delete_document(conn: psycopg.Connection, org_id: UUID, document_id: UUID) -> None:
    conn.execute(
        "DELETE FROM documents WHERE org_id = %(org_id)s AND id = %(id)s", {"org_id": org_id, "id": document_id}
    )


def save_document(
    conn: psycopg.Connection,
    org_id: UUID,
    *,
    source_name: str,
    title: str,
    mime_type: str,
    full_text: str,
    page_count: int,
    language: str,
    ts_config: str,
    content_hash: str,
    chunks: list[NewChunk],
    embeddings: np.ndarray,
    uploaded_by: UUID | None,
    section_embeddings: list | None = None,
) -> UUID:
    """Insert the document, or replace an existing one with this source name, chunks included."""
    document_id = upsert_document(
        conn,
        org_id,
        source_name=source_name,
        title=title,
        mime_type=mime_type,
        full_text=full_text,
        page_count=page_count,
        language=language,
        content_hash=content_hash,
        token_count=sum(c.token_count for c in chunks),
        uploaded_by=uploaded_by,
    )
    conn.execute(
        "DELETE FROM document_chunks WHERE org_id = %(org_id)s AND document_id = %(doc)s",
        {"org_id": org_id, "doc": document_id},
    )
    insert_chunks(
        conn, org_id, document_id, chunks, ts_config, embeddings=embeddings, section_embeddings=section_embeddings
    )
    return document_id


def insert_chunks(
    conn: psycopg.Connection,
    org_id: UUID,
    document_id: UUID,
    chunks: list[NewChunk],
    ts_config: str,
    *,
    embeddings: np.ndarray | Sequence[Any] | None = None,
    section_embeddings: list | None = None,
    ingestion_id: UUID | None = None,
) -> None:
    """A document version's chunks: with their vectors (synchronous ingestion; ``section_embeddings``, per
    chunk its sections' vectors, [] for a one-section chunk), or without, staged under ``ingestion_id``
    (background ingestion: searchable by full text from this commit on, vectors later)."""
    vectors = embeddings if embeddings is not None else [None] * len(chunks)
    sections = section_embeddings if section_embeddings is not None else [[]] * len(chunks)
    with conn.cursor() as cur:
        cur.executemany(
            """INSERT INTO document_chunks (org_id, document_id, position, heading, page_start, page_end, content,
                                            token_count, ts_config, embedding, section_embeddings, heading_spans,
                                            ingestion_id)
               VALUES (%(org_id)s, %(doc)s, %(position)s, %(heading)s, %(page_start)s, %(page_end)s, %(content)s,
                       %(token_count)s, %(ts_config)s::regconfig, %(embedding)s, %(sections)s::vector[], %(spans)s,
                       %(ingestion)s)""",
            [
                {
                    "org_id": org_id,
                    "doc": document_id,
                    "position": chunk.position,
                    "heading": chunk.heading,
                    "page_start": chunk.page_start,
                    "page_end": chunk.page_end,
                    "content": chunk.content,
                    "token_count": chunk.token_count,
                    "ts_config": ts_config,
                    "embedding": vector,
                    "ingestion": ingestion_id,
                    "sections": list(section) or None,
                    "spans": Jsonb([list(span) for span in chunk.heading_spans]) if chunk.heading_spans else None,
                }
                for chunk, vector, section in zip(chunks, vectors, sections)
            ],
        )
