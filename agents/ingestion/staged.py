"""Ingestion of an upload as a background job, in stages a person can watch and a search can use:

parsed (pages known; the chunks written without vectors: full-text search finds them at once) ->
embedded batch by batch (each batch's vectors searchable as it commits) -> settled (one transaction:
the new chunks become the document's, the previous version's go, stale lessons are flagged).
Any failure deletes the staged chunks, so the previous version stays exactly as it was. A worker that
dies half-way is replaced by another that re-parses and embeds only what has no vector yet.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from pathlib import Path
from uuid import UUID

from psycopg_pool import ConnectionPool

from agents.ingestion import limits
from agents.ingestion.embeddings import EmbeddingError, EmbeddingUnavailable
from agents.ingestion.pipeline import MIME_TYPES, TS_CONFIGS, IngestError, embed_chunks, parse_and_chunk
from core import config
from storage import documents, flagged, ingestions, source_changes

log = logging.getLogger(__name__)


def run_ingestion(pool: ConnectionPool, org_id: UUID, ingestion_id: UUID, *, wait_for_embeddings: bool = False) -> str:
    """Take an ingestion from wherever it stands to done, unchanged or failed; returns that status.

    ``wait_for_embeddings``: when the embedding server is unavailable, the ingestion stays in flight, says it
    waits, and ``EmbeddingUnavailable`` goes up for the task queue to run it again later (from the passages
    already embedded); otherwise it fails like any other error."""
    with pool.connection() as conn:
        job = ingestions.get(conn, org_id, ingestion_id)
        data = ingestions.upload_data(conn, org_id, ingestion_id)
    if job is None or job.status not in ingestions.IN_FLIGHT or data is None:
        return job.status if job else "missing"
    try:
        return _run(pool, job, data)
    except EmbeddingUnavailable as exc:
        if not wait_for_embeddings:
            _fail(pool, job, exc)
            return "failed"
        with pool.connection() as conn:
            ingestions.set_status(
                conn, org_id, job.id, "embedding", error=str(exc)[:500], error_code="embedding_waiting"
            )
        raise
    except (IngestError, limits.LimitExceeded, EmbeddingError) as exc:
        _fail(pool, job, exc)
        return "failed"
    except Exception as exc:  # anything else: the previous version stays, the reason is kept for the admin
        log.exception("ingestion %s failed", ingestion_id)
        _fail(pool, job, exc)
        return "failed"


def _run(pool: ConnectionPool, job: ingestions.Ingestion, data: bytes) -> str:
    org_id, content_hash = job.org_id, hashlib.sha256(data).hexdigest()
    with pool.connection() as conn:
        same = documents.find_by_hash(conn, org_id, content_hash)
        if same is not None and same.id != job.document_id:
            ingestions.set_status(
                conn,
                org_id,
                job.id,
                "unchanged",
                document_id=same.id,
                pages=same.page_count,
                chunks_total=same.chunk_count,
            )
            return "unchanged"
        ingestions.set_status(conn, org_id, job.id, "parsing")
    parsed, language, new_chunks = parse_and_chunk(job.source_name, data)
    ts_config = TS_CONFIGS.get(language, "simple")
    upsert_document = functools.partial(
        documents.upsert_document,
        source_name=job.source_name,
        title=parsed.title,
        full_text=parsed.full_text,
        mime_type=MIME_TYPES[Path(job.source_name).suffix.lower()],
        page_count=parsed.page_count,
        language=language,
        content_hash=content_hash,
        token_count=sum(c.token_count for c in new_chunks),
        uploaded_by=job.uploaded_by,
    )

    with pool.connection() as conn:  # parsed: the text is searchable from this commit on
        previous = documents.find_by_source_name(conn, org_id, job.source_name)
        replaces = job.replaces or (previous is not None and previous.id != job.document_id)
        document_id = previous.id if previous else upsert_document(conn, org_id)
        if not ingestions.chunks_to_embed(conn, org_id, job.id) and not job.chunks_embedded:
            ingestions.discard_chunks(conn, org_id, job.id)
            ingestions.stage_chunks(conn, org_id, job.id, document_id, new_chunks, ts_config)
        ingestions.set_status(
            conn,
            org_id,
            job.id,
            "embedding",
            document_id=document_id,
            replaces=replaces,
            pages=parsed.page_count,
            chunks_total=len(new_chunks),
            error=None,  # a wait for the embedding server is over
            error_code=None,
        )
        pending = ingestions.chunks_to_embed(conn, org_id, job.id)

    by_position = {c.position: c for c in new_chunks}
    batch = max(1, config.get("EMBEDDINGS_BATCH"))
    for start in range(0, len(pending), batch):
        ids, positions = zip(*pending[start : start + batch])
        vectors, section_vectors = embed_chunks(parsed.title, [by_position[p] for p in positions])
        with pool.connection() as conn:  # this batch's vectors are searchable from this commit on
            ingestions.save_vectors(conn, org_id, job.id, list(ids), vectors, section_vectors)

    with pool.connection() as conn:  # settled: the new version replaces the old one in one transaction
        old_chunks = documents.document_chunks(conn, org_id, document_id)
        if replaces:
            upsert_document(conn, org_id)
        ingestions.settle_chunks(conn, org_id, job.id, document_id)
        flagged.record(conn, org_id, document_id, parsed.flagged, new_chunks)
        source_changes.flag_stale_content(conn, org_id, document_id, old_chunks if replaces else [])
        ingestions.set_status(conn, org_id, job.id, "done")
    return "done"


def _fail(pool: ConnectionPool, job: ingestions.Ingestion, exc: Exception) -> None:
    with pool.connection() as conn:
        current = ingestions.get(conn, job.org_id, job.id, lock=True)
        ingestions.discard_chunks(conn, job.org_id, job.id)
        if current is None:  # the upload was deleted meanwhile: nothing left to record
            return
        if current.document_id and not current.replaces:  # a new document that never got a first version
            documents.delete_document(conn, job.org_id, current.document_id)
        code = "embedding_failed" if isinstance(exc, EmbeddingError) else getattr(exc, "code", None)
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        ingestions.set_status(
            conn,
            job.org_id,
            job.id,
            "failed",
            error=message[:500],
            error_code=code,
            error_params={k: str(v) for k, v in (getattr(exc, "params", None) or {}).items()},
        )
