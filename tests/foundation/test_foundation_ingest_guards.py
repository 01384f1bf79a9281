"""Ingestion guards (issue 20): the synchronous path (``python -m storage ingest``, seeding), which
replaces a document's chunks in one go, refuses a document whose background upload is still in flight;
an ingestion worker killed mid-embedding is replaced by one that embeds only what has no vector, the
previous version intact until the new one settles. Embeddings come from the real HTTP fake server."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from agents.ingestion import uploads as ingestion
from agents.ingestion.pipeline import IngestError, ingest_file
from agents.runtime.refusals import ingest_refusal
from storage import documents
from storage.__main__ import main as storage_cli
from tests.foundation.test_foundation_background_ingest import (  # noqa: F401 (fixtures)
    _ingestion,
    _manual,
    _until,
    _worker,
    admin,
    remote_embeddings,
)

ROOT = Path(__file__).resolve().parents[2]


def _chunks(pool, org_id, document_id) -> list[tuple]:
    with pool.connection() as conn:
        return [(c.id, c.content) for c in documents.document_chunks(conn, org_id, document_id)]


def test_a_synchronous_ingestion_refuses_a_document_whose_upload_is_in_flight(
    pool, admin, remote_embeddings, tmp_path, capsys
):
    path = tmp_path / "turnos_almacen.md"
    path.write_bytes(_manual(6))
    kept = ingest_file(pool, admin.org_id, path, uploaded_by=admin.id)
    before = _chunks(pool, admin.org_id, kept.document_id)
    [queued] = ingestion.queue_uploads(admin, [("turnos_almacen.md", _manual(7))])  # no worker yet: in flight
    path.write_bytes(_manual(8))
    requests = len(remote_embeddings.embedding_requests)
    assert storage_cli(["ingest", str(path), "--org", "almacen"]) == 2  # refused input: the CLI contract
    refused = capsys.readouterr().err
    assert refused.count("\n") == 1 and "still being ingested in the background; nothing was changed" in refused
    assert len(remote_embeddings.embedding_requests) == requests, "refused before embedding anything"
    assert _chunks(pool, admin.org_id, kept.document_id) == before
    assert ingest_refusal(IngestError("", "in_flight"), "turnos_almacen.md", "es").startswith(
        "turnos_almacen.md: una subida de este documento aún se está ingiriendo en segundo plano"
    )

    _worker().join(120)  # the upload settles; then the synchronous path may replace it
    assert _ingestion(pool, admin.org_id, queued).status == "done"
    assert ingest_file(pool, admin.org_id, path).status == "replaced"


def test_an_upload_queued_while_a_synchronous_ingestion_embeds_wins(pool, admin, remote_embeddings, tmp_path):
    """The check is made again under the document name's lock in the writing transaction."""
    path = tmp_path / "turnos_almacen.md"
    path.write_bytes(_manual(9))
    before = _chunks(pool, admin.org_id, ingest_file(pool, admin.org_id, path).document_id)
    path.write_bytes(_manual(10))
    remote_embeddings.hold_embeddings()
    outcome: dict = {}

    def synchronous() -> None:
        try:
            outcome["result"] = ingest_file(pool, admin.org_id, path)
        except IngestError as exc:
            outcome["refused"] = exc

    requests = len(remote_embeddings.embedding_requests)
    thread = threading.Thread(target=synchronous, daemon=True)
    thread.start()
    try:
        _until(lambda: len(remote_embeddings.embedding_requests) > requests, 120)  # it is embedding now
        [queued] = ingestion.queue_uploads(admin, [("turnos_almacen.md", _manual(11))])
    finally:
        remote_embeddings.release_embeddings()
        thread.join(120)
    assert outcome["refused"].code == "in_flight" and "result" not in outcome
    with pool.connection() as conn:
        document = documents.find_by_source_name(conn, admin.org_id, "turnos_almacen.md")
    assert _chunks(pool, admin.org_id, document.id) == before, "nothing was changed"
    _worker().join(120)
    assert _ingestion(pool, admin.org_id, queued).status == "done"
    assert all("versión 11" in content for _, content in _chunks(pool, admin.org_id, document.id))


def _stalled_workers(pool) -> int:
    with pool.connection() as conn:
        return conn.execute(
            "SELECT count(*) FROM procrastinate_workers WHERE last_heartbeat < now() - interval '3 seconds'"
        ).fetchone()[0]


@pytest.mark.slow
def test_a_worker_killed_mid_embedding_is_replaced_by_one_that_embeds_only_what_has_no_vector(
    pool, admin, remote_embeddings, tmp_path, monkeypatch
):
    """Over 10 s: a real ``python -m agents.content worker`` process is started (its imports) and SIGKILLed."""
    monkeypatch.setenv("SKILLNET_JOB_STALE_SECONDS", "2")  # both workers: a dead one is found within seconds
    path = tmp_path / "inventario_ciclico.md"
    path.write_bytes(_manual(12))
    kept = ingest_file(pool, admin.org_id, path, uploaded_by=admin.id)
    before = _chunks(pool, admin.org_id, kept.document_id)
    with pool.connection() as conn:
        text_before = documents.get_full_text(conn, admin.org_id, kept.document_id)
    remote_embeddings.hold_embeddings(after=1)  # the first batch (2 passages) passes; the worker dies in the next
    [ingestion_id] = ingestion.queue_uploads(admin, [("inventario_ciclico.md", _manual(13))])
    log = (tmp_path / "worker.log").open("w")
    worker = subprocess.Popen(
        [sys.executable, "-m", "agents.content", "worker"],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        _until(
            lambda: _ingestion(pool, admin.org_id, ingestion_id).chunks_embedded == 2,
            240,
            lambda: (tmp_path / "worker.log").read_text()[-2000:],
        )
        worker.kill()  # SIGKILL: no cleanup, no failure recorded
        worker.wait(30)
    finally:
        if worker.poll() is None:
            worker.kill()
        remote_embeddings.release_embeddings()
    dead = _ingestion(pool, admin.org_id, ingestion_id)
    assert (dead.status, dead.chunks_embedded, dead.replaces) == ("embedding", 2, True)
    with pool.connection() as conn:
        vectored = dict(
            conn.execute(
                "SELECT id, embedding::text FROM document_chunks WHERE ingestion_id = %s AND embedding IS NOT NULL",
                (ingestion_id,),
            ).fetchall()
        )
        assert documents.get_full_text(conn, admin.org_id, kept.document_id) == text_before
    assert len(vectored) == 2 and _chunks(pool, admin.org_id, kept.document_id) == before, "previous version intact"
    requests_at_kill = len(remote_embeddings.embedding_requests)

    _until(lambda: _stalled_workers(pool) >= 1, 60)  # its heartbeat stopped
    _worker().join(180)  # a second worker: the stalled sweep, then the job
    job = _ingestion(pool, admin.org_id, ingestion_id)
    assert job.status == "done" and job.chunks_embedded == job.chunks_total
    embedded_again = [
        text for request in remote_embeddings.embedding_requests[requests_at_kill:] for text in request["input"]
    ]
    assert len(embedded_again) == job.chunks_total - 2, "only the passages that had no vector"
    after = _chunks(pool, admin.org_id, kept.document_id)
    with pool.connection() as conn:
        kept_vectors = dict(
            conn.execute(
                "SELECT id, embedding::text FROM document_chunks WHERE id = ANY(%s)", (list(vectored),)
            ).fetchall()
        )
    assert kept_vectors == vectored, "the first worker's vectors were kept, not recomputed"
    assert not {i for i, _ in before} & {i for i, _ in after} and all("versión 13" in c for _, c in after)
