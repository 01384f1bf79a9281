"""The Content studio page (AppTest): start from an ingested document, review the structure, edit a
lesson inline, approve and publish; employees are refused."""
from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from agents.content import service
from storage import users

ROOT = Path(__file__).resolve().parents[2]


def _open(user) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages/content_studio.py"), default_timeout=90)
    at.session_state["user"] = user
    at.run()
    assert not at.exception, at.exception
    return at


def _button(at: AppTest, key: str):
    return next(b for b in at.button if b.key == key)


def test_an_employee_is_refused(pool, studio):
    org = studio[0]
    with pool.connection() as conn:
        employee = users.upsert_user(conn, org.id, email="eva@sol.test", full_name="Eva", role="employee",
                                     password="secret-pass")
    at = _open(employee)
    assert any("solo para administradores" in e.value for e in at.error) and not at.button


def test_from_a_document_to_a_published_course(pool, studio):
    org, admin, docs = studio
    at = _open(admin)
    picked = at.multiselect(key="picked")
    picked.select(next(o for o in picked.options if o.startswith("Política de devoluciones"))).run()
    _button(at, "start").click().run()
    assert not at.exception, at.exception
    job_id = at.session_state["job_id"]
    assert service.run_job(pool, org.id, job_id).status == "awaiting_structure_review"

    at.run()
    assert not at.exception, at.exception
    assert any(s.value in ("Revisión de la estructura", "Structure review") for s in at.subheader)
    assert len(at.dataframe) == 2                       # the job list and the editable outline
    _button(at, "s_approve").click().run()
    assert service.run_job(pool, org.id, job_id).status == "awaiting_final_review"

    at.run()
    assert not at.exception, at.exception
    assert any(s.value in ("Revisión final", "Final review") for s in at.subheader)
    assert any(m.label in ("Puntuación de calidad", "Quality score") for m in at.metric)
    lesson = at.text_area(key=f"l-{job_id}-0-0")
    lesson.input("Texto corregido por la administradora [Fuente: manual, sección, pág. 1]").run()
    _button(at, f"ls-{job_id}-0-0").click().run()
    assert not at.exception, at.exception
    service.run_job(pool, org.id, job_id)
    state = service.job_view(pool, admin, job_id).state
    assert state["generated_modules"][0]["lessons"][0]["content"].startswith("Texto corregido")

    at.run()
    _button(at, "f_approve").click().run()
    job = service.run_job(pool, org.id, job_id)
    assert job.status == "published" and job.result_course_id
    at.run()
    assert any(s.value in ("Curso y manual publicados.", "Course and manual published.") for s in at.success)
