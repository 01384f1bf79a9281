"""Uploads ingested in the background, for the content studio and the retrieval lab: queue them (the
page returns at once) and watch them — pages parsed, passages embedded — in the reader's language."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from procrastinate import JobContext, RetryStrategy

from agents.i18n import t
from agents.ingestion.embeddings import EmbeddingUnavailable
from agents.ingestion.pipeline import IngestError, check_upload, max_upload_bytes
from agents.ingestion.staged import run_ingestion
from agents.runtime import tasks
from agents.runtime.deps import process_deps
from agents.runtime.refusals import ingest_refusal
from storage import audit, ingestions, jobs
from storage.users import User

INGEST_TASK = "documents.ingest"


# An embedding server that is down (restarting, redeployed) is waited for: the upload runs again after
# 2, 4, 8 … 512 s (about 17 minutes in all), from the passages already embedded, before it fails.
EMBEDDING_WAITS = 9
EMBEDDING_WAIT = RetryStrategy(
    max_attempts=EMBEDDING_WAITS, exponential_wait=2, retry_exceptions=[EmbeddingUnavailable]
)


@tasks.app.task(name=INGEST_TASK, retry=EMBEDDING_WAIT, pass_context=True)
def ingest_upload(context: JobContext, org_id: str, ingestion_id: str) -> str:
    """Parse, stage, embed and settle one upload; then start the generation jobs that waited for it."""
    pool = process_deps().pool
    waits_left = context.job is not None and context.job.attempts < EMBEDDING_WAITS
    status = run_ingestion(pool, UUID(org_id), UUID(ingestion_id), wait_for_embeddings=waits_left)
    with pool.connection() as conn:
        for job_id in jobs.waiting_on_ingestion(conn, UUID(org_id), UUID(ingestion_id)):
            # by name: generation is the content studio's (agents/content/worker.py), above this layer
            tasks.defer("content.generate", conn, jobs.queue_lock(job_id), org_id=org_id, job_id=str(job_id))
    return status


class UploadRefused(ValueError):
    """An upload refused before anything was queued; the message is one line in the reader's language."""


@dataclass(frozen=True)
class IngestionView:
    id: UUID
    name: str
    status: str
    status_label: str
    progress: float | None  # share of passages embedded, while it runs
    detail: str  # pages parsed · passages embedded, or why it failed
    note: str  # what a search sees meanwhile
    document_id: UUID | None
    updated_at: datetime

    @property
    def running(self) -> bool:
        return self.status in ingestions.IN_FLIGHT


def max_upload_mb() -> int:
    """The largest file ingestion accepts (SKILLNET_MAX_UPLOAD_MB), so an uploader refuses bigger ones itself."""
    return max(1, round(max_upload_bytes() / 1_048_576))


def queue_uploads(user: User, files: list[tuple[str, bytes]], *, pool=None) -> list[UUID]:
    """Check each upload, then queue them all (with their queue jobs, in one transaction)."""
    if not user.is_admin:
        raise UploadRefused(t("ingestion.admins_only", user.language))
    for name, data in files:
        try:
            check_upload(name, data)
        except IngestError as exc:
            raise UploadRefused(ingest_refusal(exc, name, user.language)) from exc
    ids = []
    with (pool or process_deps().pool).connection() as conn:
        for name, data in files:
            ingestion_id = ingestions.create(conn, user.org_id, source_name=name, data=data, uploaded_by=user.id)
            tasks.defer(
                INGEST_TASK, conn, f"ingestion:{ingestion_id}", org_id=str(user.org_id), ingestion_id=str(ingestion_id)
            )
            audit.record(
                conn,
                user.org_id,
                actor_id=user.id,
                action="content.upload",
                entity_type="ingestion",
                entity_id=ingestion_id,
                before=None,
                after={"file": name, "size_kb": round(len(data) / 1024)},
            )
            ids.append(ingestion_id)
    return ids


def failure_reason(ingestion: ingestions.Ingestion, lang: str | None) -> str:
    """Why it failed, one line, in the reader's language where the catalogue words it."""
    if ingestion.error_code == "embedding_failed":
        return t("ingestion.embedding_failed", lang, name=ingestion.source_name)
    exc = IngestError(ingestion.error or "", ingestion.error_code, **(ingestion.error_params or {}))
    return ingest_refusal(exc, ingestion.source_name, lang) if ingestion.error_code else (ingestion.error or "")


def _view(ingestion: ingestions.Ingestion, lang: str | None) -> IngestionView:
    total, embedded = ingestion.chunks_total or 0, ingestion.chunks_embedded
    if ingestion.status == "failed":
        detail, note = failure_reason(ingestion, lang), t("ingestion.failed_kept", lang)
    elif ingestion.pages is not None and ingestion.status in ("embedding", "done"):
        detail = t("ingestion.progress", lang, pages=ingestion.pages, embedded=embedded, total=total)
        note = ""
        if ingestion.status == "embedding":
            note = t("ingestion.previous_kept" if ingestion.replaces else "ingestion.searchable_text", lang)
            if ingestion.error_code == "embedding_waiting":
                note = f"{t('ingestion.embedding_waiting', lang)} {note}"
    else:
        detail, note = "", ""
    return IngestionView(
        ingestion.id,
        ingestion.source_name,
        ingestion.status,
        t(f"ingestion.status.{ingestion.status}", lang),
        embedded / total if total and ingestion.status == "embedding" else None,
        detail,
        note,
        ingestion.document_id,
        ingestion.updated_at,
    )


def recent(user: User, *, limit: int = 10, pool=None) -> list[IngestionView]:
    """The organisation's latest uploads, newest first (admins)."""
    if not user.is_admin:
        return []
    with (pool or process_deps().pool).connection() as conn:
        return [_view(i, user.language) for i in ingestions.recent(conn, user.org_id, limit=limit)]


def uploads_in_flight(user: User, *, pool=None) -> set[str]:
    """Ids of the organisation's uploads not ingested yet (a generation job waiting for them counts them)."""
    if not user.is_admin:
        return set()
    with (pool or process_deps().pool).connection() as conn:
        return {str(i) for i in ingestions.in_flight_ids(conn, user.org_id)}
