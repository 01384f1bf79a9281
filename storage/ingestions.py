"""Uploads being ingested in the background (table ``ingestions``) and the chunks they stage.

An ingestion's chunks carry its id while it runs: they are in the search index (full text at once,
vectors as each batch is embedded) beside the document's current version, and ``settle_chunks``
makes them the document's only chunks in one transaction — so a failure, which deletes them, leaves
the previous version exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import numpy as np
import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from storage.documents import NewChunk, insert_chunks
from storage.rows import scalar

IN_FLIGHT = ("queued", "parsing", "embedding")


@dataclass(frozen=True)
class Ingestion:
    id: UUID
    org_id: UUID
    uploaded_by: UUID | None
    source_name: str
    status: str  # queued | parsing | embedding | done | unchanged | failed
    document_id: UUID | None
    replaces: bool  # a previous version of the document stays until this one is complete
    pages: int | None
    chunks_total: int | None
    chunks_embedded: int
    error: str | None
    error_code: str | None
    error_params: dict | None
    created_at: datetime
    updated_at: datetime


_COLUMNS = (
    "id, org_id, uploaded_by, source_name, status, document_id, replaces, pages, chunks_total, "
    "chunks_embedded, error, error_code, error_params, created_at, updated_at"
)


def lock_source_name(conn: psycopg.Connection, org_id: UUID, source_name: str) -> None:
    """Until this transaction ends, nobody else queues or synchronously writes a document of this name:
    a synchronous ingestion either sees a queued upload (and refuses) or commits before it is queued."""
    conn.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended(%(key)s, 0))", {"key": f"ingestion:{org_id}:{source_name}"}
    )


def in_flight_named(conn: psycopg.Connection, org_id: UUID, source_name: str) -> Ingestion | None:
    """The upload of this document name still being ingested in the background, if any."""
    with conn.cursor(row_factory=class_row(Ingestion)) as cur:
        return cur.execute(
            f"""SELECT {_COLUMNS} FROM ingestions WHERE org_id = %(org_id)s
                               AND source_name = %(name)s AND status = ANY(%(flight)s)
                               ORDER BY created_at LIMIT 1""",
            {"org_id": org_id, "name": source_name, "flight": list(IN_FLIGHT)},
        ).fetchone()


def create(conn: psycopg.Connection, org_id: UUID, *, source_name: str, data: bytes, uploaded_by: UUID | None) -> UUID:
    lock_source_name(conn, org_id, source_name)
    return scalar(
        conn,
        """INSERT INTO ingestions (org_id, uploaded_by, source_name, data)
           VALUES (%(org_id)s, %(by)s, %(name)s, %(data)s) RETURNING id""",
        {"org_id": org_id, "by": uploaded_by, "name": source_name, "data": data},
    )


def get(conn: psycopg.Connection, org_id: UUID, ingestion_id: UUID, *, lock: bool = False) -> Ingestion | None:
    with conn.cursor(row_factory=class_row(Ingestion)) as cur:
        return cur.execute(
            f"SELECT {_COLUMNS} FROM ingestions WHERE org_id = %(org_id)s AND id = %(id)s"
            + (" FOR UPDATE" if lock else ""),
            {"org_id": org_id, "id": ingestion_id},
        ).fetchone()


def upload_data(conn: psycopg.Connection, org_id: UUID, ingestion_id: UUID) -> bytes | None:
    row = conn.execute(
        "SELECT data FROM ingestions WHERE org_id = %(org_id)s AND id = %(id)s", {"org_id": org_id, "id": ingestion_id}
    ).fetchone()
    return bytes(row[0]) if row and row[0] is not None else None


def recent(conn: psycopg.Connection, org_id: UUID, *, limit: int = 20) -> list[Ingestion]:
    with conn.cursor(row_factory=class_row(Ingestion)) as cur:
        return cur.execute(
            f"SELECT {_COLUMNS} FROM ingestions WHERE org_id = %(org_id)s ORDER BY created_at DESC LIMIT %(limit)s",
            {"org_id": org_id, "limit": limit},
        ).fetchall()


def in_flight_for_documents(conn: psycopg.Connection, org_id: UUID) -> set[UUID]:
    """Documents that exist only as an ingestion still running (not offered for generation yet)."""
    rows = conn.execute(
        """SELECT document_id FROM ingestions WHERE org_id = %(org_id)s AND NOT replaces
                           AND document_id IS NOT NULL AND status = ANY(%(flight)s)""",
        {"org_id": org_id, "flight": list(IN_FLIGHT)},
    ).fetchall()
    return {row[0] for row in rows}


def in_flight_ids(conn: psycopg.Connection, org_id: UUID) -> set[UUID]:
    """The organisation's uploads still being ingested (queued, parsing or embedding)."""
    rows = conn.execute(
        "SELECT id FROM ingestions WHERE org_id = %(org_id)s AND status = ANY(%(flight)s)",
        {"org_id": org_id, "flight": list(IN_FLIGHT)},
    ).fetchall()
    return {row[0] for row in rows}


def set_status(conn: psycopg.Connection, org_id: UUID, ingestion_id: UUID, status: str, **fields: Any) -> None:
    """Move to ``status``; ``fields`` among document_id, replaces, pages, chunks_total, error, error_code,
    error_params. A finished ingestion drops the uploaded bytes."""
    allowed = {"document_id", "replaces", "pages", "chunks_total", "error", "error_code", "error_params"}
    if set(fields) - allowed:
        raise ValueError(f"unknown ingestion fields: {sorted(set(fields) - allowed)}")
    sets = "".join(f", {name} = %({name})s" for name in fields)
    params = {**fields, "status": status, "org_id": org_id, "id": ingestion_id}
    if "error_params" in params:
        params["error_params"] = Jsonb(params["error_params"])
    conn.execute(
        f"""UPDATE ingestions SET status = %(status)s, updated_at = now(){sets},
                         data = CASE WHEN %(status)s = ANY(%(flight)s) THEN data END
                     WHERE org_id = %(org_id)s AND id = %(id)s""",
        {**params, "flight": list(IN_FLIGHT)},
    )


def stage_chunks(
    conn: psycopg.Connection,
    org_id: UUID,
    ingestion_id: UUID,
    document_id: UUID,
    chunks: list[NewChunk],
    ts_config: str,
) -> None:
    """The new version's chunks, searchable by full text from this commit on (vectors come later)."""
    insert_chunks(conn, org_id, document_id, chunks, ts_config, ingestion_id=ingestion_id)


def chunks_to_embed(conn: psycopg.Connection, org_id: UUID, ingestion_id: UUID) -> list[tuple[UUID, int]]:
    """(chunk id, position) of this ingestion's chunks that have no vector yet, in document order."""
    return conn.execute(
        """SELECT id, position FROM document_chunks WHERE org_id = %(org_id)s
                           AND ingestion_id = %(id)s AND embedding IS NULL ORDER BY position""",
        {"org_id": org_id, "id": ingestion_id},
    ).fetchall()


def save_vectors(
    conn: psycopg.Connection,
    org_id: UUID,
    ingestion_id: UUID,
    chunk_ids: list[UUID],
    vectors: np.ndarray,
    section_vectors: list[list[np.ndarray]],
) -> int:
    """Store one embedded batch (searchable by vector from this commit on; ``section_vectors``, per chunk
    its sections' vectors, [] for a one-section chunk); returns the running count."""
    with conn.cursor() as cur:
        cur.executemany(
            "UPDATE document_chunks SET embedding = %(v)s, section_embeddings = %(s)s::vector[]"
            " WHERE org_id = %(org_id)s AND id = %(id)s",
            [
                {"v": vector, "s": list(sections) or None, "org_id": org_id, "id": chunk_id}
                for chunk_id, vector, sections in zip(chunk_ids, vectors, section_vectors)
            ],
        )
    return scalar(
        conn,
        """UPDATE ingestions SET updated_at = now(), chunks_embedded = (SELECT count(*) FROM document_chunks
               WHERE org_id = %(org_id)s AND ingestion_id = %(id)s AND embedding IS NOT NULL)
           WHERE org_id = %(org_id)s AND id = %(id)s RETURNING chunks_embedded""",
        {"org_id": org_id, "id": ingestion_id},
    )


def settle_chunks(conn: psycopg.Connection, org_id: UUID, ingestion_id: UUID, document_id: UUID) -> None:
    """The staged chunks become the document's chunks; the previous version's go (one transaction)."""
    params = {"org_id": org_id, "id": ingestion_id, "doc": document_id}
    conn.execute(
        """DELETE FROM document_chunks WHERE org_id = %(org_id)s AND document_id = %(doc)s
                    AND ingestion_id IS DISTINCT FROM %(id)s""",
        params,
    )
    conn.execute(
        "UPDATE document_chunks SET ingestion_id = NULL WHERE org_id = %(org_id)s AND ingestion_id = %(id)s", params
    )


def discard_chunks(conn: psycopg.Connection, org_id: UUID, ingestion_id: UUID) -> None:
    conn.execute(
        "DELETE FROM document_chunks WHERE org_id = %(org_id)s AND ingestion_id = %(id)s",
        {"org_id": org_id, "id": ingestion_id},
    )
