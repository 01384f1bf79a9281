"""The Content studio page (AppTest): start from an ingested document, review the structure, edit a
lesson inline, approve and publish; finish a draft course; employees are refused."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from agents.content import service
from storage import audit, enrollments
from storage import courses as course_store
from storage import lessons as lesson_store
from tests.people import upsert_user

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
        employee = upsert_user(
            conn, org.id, email="eva@sol.test", full_name="Eva", role="employee", password="secret-pass"
        )
    at = _open(employee)
    assert any("solo para administradores" in e.value for e in at.error) and not at.button


def test_from_a_document_to_a_published_course(pool, app_deps, studio):
    org, admin, docs = studio
    at = _open(admin)
    picked = at.multiselect(key="picked-0")
    picked.select(next(o for o in picked.options if o.startswith("Política de devoluciones"))).run()
    _button(at, "start").click().run()
    assert not at.exception, at.exception
    job_id = at.session_state["job_id"]
    assert at.multiselect(key="picked-1").value == []  # a started job empties the form: no second start
    assert service.run_job(app_deps, org.id, job_id).status == "awaiting_structure_review"

    at.run()
    assert not at.exception, at.exception
    assert any(s.value in ("Revisión de la estructura", "Structure review") for s in at.subheader)
    assert len(at.dataframe) == 2  # the job list and the editable outline
    _button(at, "s_approve").click().run()
    assert service.run_job(app_deps, org.id, job_id).status == "awaiting_final_review"

    at.run()
    assert not at.exception, at.exception
    assert any(s.value in ("Revisión final", "Final review") for s in at.subheader)
    assert any(m.label in ("Puntuación de calidad", "Quality score") for m in at.metric)
    lesson = at.text_area(key=f"l-{job_id}-0-0")
    lesson.input("Texto corregido por la administradora [Fuente: manual, sección, pág. 1]").run()
    _button(at, f"ls-{job_id}-0-0").click().run()
    assert not at.exception, at.exception
    service.run_job(app_deps, org.id, job_id)
    state = service.job_view(app_deps, admin, job_id).state
    assert state["generated_modules"][0]["lessons"][0]["content"].startswith("Texto corregido")

    # an exercise fixed in its own form (no JSON), then the course's details
    at.run()
    state = service.job_view(app_deps, admin, job_id).state
    ei = next(i for i, e in enumerate(state["generated_modules"][0]["exercises"]) if e["type"] == "true_false")
    _button(at, f"ee-{job_id}-0-{ei}").click().run()  # the editor opens in a dialog
    form = f"ef-{job_id}-0-{ei}"
    at.text_input(key=f"{form}-prompt").input("¿Es cierta esta frase de la política?")
    at.text_area(key=f"{form}-expl").input("Lo dice la política de devoluciones.")
    next(b for b in at.button if form in str(b.id) and b.proto.is_form_submitter).click().run()
    assert not at.exception, at.exception
    service.run_job(app_deps, org.id, job_id)
    exercise = service.job_view(app_deps, admin, job_id).state["generated_modules"][0]["exercises"][ei]
    assert exercise["prompt"] == "¿Es cierta esta frase de la política?"
    assert exercise["explanation"] == "Lo dice la política de devoluciones."
    at.run()
    at.text_area(key=f"meta-{job_id}-title").input("Devoluciones paso a paso")
    next(b for b in at.button if f"meta-{job_id}" in str(b.id) and b.proto.is_form_submitter).click().run()
    service.run_job(app_deps, org.id, job_id)
    assert service.job_view(app_deps, admin, job_id).state["course_outline"]["title"] == "Devoluciones paso a paso"

    at.run()
    _button(at, "f_approve").click().run()
    job = service.run_job(app_deps, org.id, job_id)
    assert job.status == "published" and job.result_course_id
    at.run()
    assert any(s.value in ("Curso y manual publicados.", "Course and manual published.") for s in at.success)
    assert at.radio(key=f"tutor-mode-{job.result_course_id}").value == "guided"  # the default, set here (issue 29)
    # "Assign to…": preview first, the write only on confirm, recorded like the admin assistant's
    at.multiselect(key=f"assign-who-{job_id}").select(str(admin.id)).run()
    _button(at, f"assign-prev-{job_id}").click().run()
    with pool.connection() as conn:
        assert not enrollments.get_enrollment(conn, org.id, admin.id, job.result_course_id)
    assert any("Ana Admin" in m.value for m in at.markdown)
    shown = len(at.success)
    _button(at, f"assign-ok-{job_id}").click().run()
    assert not at.exception, at.exception
    with pool.connection() as conn:
        assert enrollments.get_enrollment(conn, org.id, admin.id, job.result_course_id).status == "assigned"
        assert audit.list_entries(conn, org.id, action="assign_course")
    # the preview is gone once it ran: no second Confirm to click, the outcome said instead
    assert not any(b.key == f"assign-ok-{job_id}" for b in at.button)
    assert len(at.success) == shown + 1, "the assignment's outcome is said once it ran"

    manual_page = AppTest.from_file(str(ROOT / "pages/manuals.py"), default_timeout=90)
    manual_page.session_state["user"] = admin
    manual_page.query_params["manual"] = str(job.result_manual_id)
    manual_page.run()
    assert not manual_page.exception, manual_page.exception
    assert manual_page.header and "<" not in manual_page.markdown[0].value
    manual_page.radio(key=f"section-{job.result_manual_id}").set_value(1).run()
    assert not manual_page.exception and manual_page.header[0].value


def _draft(pool, org, admin, title: str):
    """A draft course of one module and one lesson, as an admin left it."""
    with pool.connection() as conn:
        course = course_store.create_course(conn, org.id, title=title, created_by=admin.id)
        module = lesson_store.add_module(conn, org.id, course, title="Plazos")
        lesson_store.add_lesson(
            conn,
            org.id,
            module,
            title="Los 30 días",
            content_type="theory",
            content_md="Se devuelve en 30 días con ticket.",
        )
    return course


def test_a_draft_course_is_finished_from_the_studio_after_its_preview(pool, studio):
    """The drafts panel: the admin asks to publish, reads what will happen, confirms; the draft is published
    and leaves the list."""
    org, admin, _ = studio
    course = _draft(pool, org, admin, "Borrador de devoluciones")
    at = _open(admin)
    assert any(e.label == "📝 Cursos en borrador (1)" for e in at.expander)
    _button(at, f"draft-prev-{course}").click().run()
    assert [
        i.value
        for i in at.info
        if i.value.startswith("Publicar «Borrador de devoluciones»: 1 módulo, 1 lección y 0 ejercicios")
    ]
    with pool.connection() as conn:
        assert course_store.get_course(conn, org.id, course).status == "draft"
    _button(at, f"draft-ok-{course}").click().run()
    assert not at.exception, at.exception
    assert at.success[0].value == "«Borrador de devoluciones» está publicado."  # above the job panels
    assert not any(e.label.startswith("📝") for e in at.expander)
    with pool.connection() as conn:
        assert course_store.get_course(conn, org.id, course).status == "published"


def test_a_draft_course_is_deleted_from_the_studio_after_its_preview(pool, studio):
    """The drafts panel's other write: delete, read what goes, confirm; the draft is gone, and its lessons."""
    org, admin, _ = studio
    course = _draft(pool, org, admin, "Borrador que sobra")
    at = _open(admin)
    _button(at, f"draft-del-{course}").click().run()
    assert [
        w.value
        for w in at.warning
        if w.value.startswith(
            "Eliminar «Borrador que sobra» definitivamente: se borran su 1 módulo, 1 lección y 0 ejercicios"
        )
    ]
    assert not any(b.key == f"draft-ok-{course}" for b in at.button)  # the publish confirm is not offered
    with pool.connection() as conn:
        assert course_store.get_course(conn, org.id, course).status == "draft"
    _button(at, f"draft-delok-{course}").click().run()
    assert not at.exception, at.exception
    assert at.success[0].value == "«Borrador que sobra» se ha eliminado."
    assert not any(e.label.startswith("📝") for e in at.expander)
    with pool.connection() as conn:
        assert course_store.get_course(conn, org.id, course) is None
        assert lesson_store.get_course_outline(conn, org.id, course) is None


def test_documents_in_another_language_are_named_before_generating(pool, studio):
    """The walk's trainer chose English and Spanish documents for one course and got a Spanish course of
    English lessons without a word: the studio says which documents are in another language, and what happens,
    before "Generar"; one language, no warning."""
    org, admin, _ = studio
    at = _open(admin)
    picked = at.multiselect(key="picked-0")
    spanish = next(o for o in picked.options if o.startswith("Política de devoluciones"))
    picked.select(spanish).run()
    assert not at.warning
    english = next(o for o in at.multiselect(key="picked-0").options if o.startswith("Store Returns Guide"))
    at.multiselect(key="picked-0").select(english).run()
    assert not at.exception, at.exception
    [warning] = [w.value for w in at.warning if w.value.startswith("El curso tendrá un solo idioma")]
    named = [title for title in ("Política de devoluciones", "Store Returns Guide") if f"«{title}" in warning]
    assert len(named) == 1 and "sin traducir" in warning, warning
    assert ("inglés" if named[0].startswith("Política") else "español") in warning.split(".")[0]


def test_the_draft_whose_exercise_was_saved_stays_open_with_its_exercises(pool, studio):
    """After the editor's save the page reruns: the draft and its exercises stay unfolded, so the reviewer's
    findings "below" are in view (the walk's trainer had to find and reopen the module after every save)."""
    org, admin, _ = studio
    course = _draft(pool, org, admin, "Borrador abierto")
    at = _open(admin)
    assert not [e for e in at.expander if e.label.startswith(("📝", "Ejercicios")) and e.proto.expanded]
    at.session_state["draft-open"] = str(course)  # what the editor's save leaves
    at.run()
    opened = [e.label for e in at.expander if e.proto.expanded]
    assert "📝 Cursos en borrador (1)" in opened and "Ejercicios: editar o eliminar (0 ejercicios)" in opened
