"""Backfills for chunks stored before a migration: per-section heading spans (migration 050) from the original
files, and the vectors of packed chunks' sections (migration 180). Idempotent; each returns how many chunks it
filled."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from psycopg_pool import ConnectionPool

from agents.ingestion.embeddings import EmbeddingError, VectorPack, embed_passages
from agents.ingestion.parsers import IngestError
from agents.ingestion.pipeline import parse_and_chunk, section_texts
from storage import documents


def backfill_heading_spans(pool: ConnectionPool, find_original: Callable[[str], Path | None]) -> int:
    """Give chunks stored before migration 050 their per-section heading spans (citations name a merged
    section's own heading from them), by chunking each such document again from its original file.

    Only a file whose content hash is the document's counts, and only chunks whose text is the same at the
    same position are filled, so nothing is re-embedded or changed otherwise; idempotent (filled chunks
    are not read again). Returns how many chunks were filled."""
    with pool.connection() as conn:
        pending = documents.documents_without_heading_spans(conn)
    filled = 0
    for document in pending:
        path = find_original(document.source_name)
        data = path.read_bytes() if path is not None else b""
        if not data or hashlib.sha256(data).hexdigest() != document.content_hash:
            continue  # the original is gone or is another version: the chunks keep their first heading
        try:
            _, _, new_chunks = parse_and_chunk(document.source_name, data)
        except IngestError:
            continue
        with pool.connection() as conn:
            filled += documents.fill_heading_spans(conn, document.org_id, document.id, new_chunks)
    return filled


def backfill_section_vectors(pool: ConnectionPool, known: VectorPack | None = None, batch: int = 200) -> int:
    """Embed the sections of packed chunks stored before migration 180 (search compares them section by
    section, fusion.SECTION_WEIGHT), ``batch`` chunks a transaction, ``known`` vectors (the seeds') as they
    are; idempotent (filled chunks are not read again). Returns how many chunks were filled."""
    filled = 0
    while True:
        with pool.connection() as conn:
            pending = documents.packed_chunks_without_section_vectors(conn, batch)
        if not pending:
            return filled
        for stored in pending:
            as_new = documents.NewChunk(
                0, stored.heading, None, None, stored.content, 0, tuple(tuple(span) for span in stored.heading_spans)
            )
            try:
                vectors = embed_passages(section_texts(stored.document_title, as_new), known=known)
            except EmbeddingError:  # the embedding server is down: the next start tries again
                return filled
            with pool.connection() as conn:
                filled += documents.set_section_vectors(conn, stored.org_id, stored.id, list(vectors))
