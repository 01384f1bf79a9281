"""Bad input: a document with no text, a one-page document, a model that only returns malformed JSON."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.content import decisions, service
from agents.content.__main__ import main
from agents.ingestion.pipeline import IngestError, ingest_file
from storage import documents, jobs
from tests.fake_openai import Reply

ONE_PAGE = """# Uso del uniforme

Todo el personal de tienda debe llevar el uniforme completo durante su turno. El uniforme incluye el polo
azul, el pantalón negro y la tarjeta identificativa visible. Los empleados reciben 2 polos al empezar y
pueden pedir uno nuevo cada 6 meses. Si un cliente pregunta por un empleado, debe poder leer su nombre en
la tarjeta. Para cambiar una prenda dañada, el empleado sigue estos pasos:

1. Avisar al encargado de tienda.
2. Rellenar el formulario de reposición.
3. Entregar la prenda dañada en la oficina.
"""


def test_a_document_without_text_fails_with_one_line(pool, app_deps, studio, tmp_path):
    org, admin, _ = studio
    blank = tmp_path / "vacio.md"
    blank.write_text("   \n\n  ")
    with pytest.raises(IngestError):
        ingest_file(pool, org.id, blank, uploaded_by=admin.id)
    with pool.connection() as conn:  # a stored document whose text is gone (e.g. a scanned PDF)
        doc_id = documents.save_document(
            conn,
            org.id,
            source_name="escaneado.pdf",
            title="Escaneado",
            mime_type="application/pdf",
            full_text="",
            page_count=1,
            language="es",
            ts_config="spanish",
            content_hash="empty",
            chunks=[],
            embeddings=np.zeros((0, 384), dtype=np.float32),
            uploaded_by=admin.id,
        )
    job_id = service.start_job(app_deps, admin, [doc_id])
    job = service.run_job(app_deps, org.id, job_id)
    assert job.status == "failed" and "no text" in job.error and "\n" not in job.error
    with pool.connection() as conn:
        error = [e for e in jobs.list_events(conn, org.id, job_id) if e.event_type == "error"][-1]
    assert error.data["step"] == "prepare_context"


def test_a_one_page_document_still_becomes_a_course(pool, studio, tmp_path, capsys):
    org, admin, _ = studio
    path = tmp_path / "uniforme.md"
    path.write_text(ONE_PAGE)
    code = main(["generate", str(path), "--org", "sol", "--by", admin.email, "--approve-all", "--json"])
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert code == 0 and summary["status"] == "published"
    assert summary["modules"] == 1 and summary["lessons"] == 2  # one section: one lesson and its practice
    assert {"order_steps", "true_false"} <= set(summary["exercises_by_type"])


def test_malformed_json_on_every_model_call_lets_the_twins_finish_the_job(pool, app_deps, studio, fake_openai):
    org, admin, docs = studio
    fake_openai.responder = lambda request: Reply(text="{'themes': [{'key': oops,,")
    job_id = service.start_job(app_deps, admin, [docs["devoluciones.md"]])
    for decide in (None, "structure", "final"):
        if decide == "structure":
            decisions.review_structure(app_deps, admin, job_id, "approve")
        elif decide == "final":  # every module is the twin's, in place of the model's: the admin ticks it
            decisions.review_final(app_deps, admin, job_id, "approve", accept_template_modules=True)
        job = service.run_job(app_deps, org.id, job_id)
    assert job.status == "published" and job.result_course_id and job.result_manual_id
    assert len(fake_openai.chat_requests) >= 4  # the model was asked (and its repair too) every time
    with pool.connection() as conn:
        events = jobs.list_events(conn, org.id, job_id)
    engines = [e.data["engine"] for e in events if "engine" in e.data]
    assert engines and set(engines) == {"offline"}
