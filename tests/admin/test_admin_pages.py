"""Admin pages (AppTest, demo organisation): each renders for an admin with CSV downloads; an
employee arriving at any of them by URL gets the refusal and no data; the assistant page's chat,
trace and Confirm card work on the product's PostgresSaver checkpointer."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.i18n import code_label, format_datetime, t
from storage import chat
from tests.admin.conftest import audit_count, is_active
from tests.apptest import open_page, texts
from ui.tables import column_labels

MIGRATIONS = Path(__file__).parents[2] / "storage" / "migrations"
MIGRATION = MIGRATIONS / "216_admin_tool_calls.sql"
DASHBOARDS = [
    "pages/home_admin.py",
    "pages/skills_matrix.py",
    "pages/skill_gaps.py",
    "pages/course_stats.py",
    "pages/employee_detail.py",
]


@pytest.mark.parametrize("page", DASHBOARDS + ["pages/admin_assistant.py"])
def test_an_employee_reaches_no_admin_page(lucia, page):
    at = open_page(lucia, page)
    assert "solo para administradores" in texts(at)
    assert not at.dataframe and not at.get("plotly_chart") and not at.chat_input


def test_overview_counts_and_alerts(admin):
    at = open_page(admin, "pages/home_admin.py")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Empleados activos"] == "22" and int(metrics["Alertas"]) > 0
    assert len(at.dataframe) == 2 and len(at.get("download_button")) == 2


def test_overview_engine_card_shows_the_probe(admin, fake_openai):
    fake_openai.capabilities["tool_calling"] = False
    at = open_page(admin, "pages/home_admin.py")
    shown = texts(at)
    assert "gpt-4o-mini" in shown and "herramientas no" in shown and "modo JSON sí" in shown
    assert any("planifica con su gemelo" in info.value for info in at.info)


def test_skills_matrix_heatmap_with_filters(admin):
    at = open_page(admin, "pages/skills_matrix.py", matrix_department="Logística", matrix_category="Warehouse safety")
    assert "5 empleados × 6 habilidades" in texts(at)
    assert len(at.get("plotly_chart")) == 2 and at.get("download_button")  # heatmap + skills evolution
    table = at.dataframe[0].value
    assert set(table["employee"]) == {"Javier Torres", "Ana Morales", "Raúl Navarro", "Elena Castro", "Tom Baker"}


def test_skill_gaps_who_knows_and_mentorship(admin):
    at = open_page(admin, "pages/skill_gaps.py", who_skill="Oracle Financials", who_level="medium")
    frames = [df.value for df in at.dataframe]
    assert "Bloqueo y etiquetado (LOTO)" in set(frames[0]["skill"])  # skill names in the admin's language
    assert list(frames[1]["full_name"]) == ["Isabel Vega", "Ryan Mitchell"]
    assert {"mentor", "mentee", "skill"} <= set(frames[2].columns) and len(at.get("download_button")) == 3


def test_course_statistics_and_employee_detail(admin):
    at = open_page(admin, "pages/course_stats.py", stats_course="Returns and Refunds Essentials")
    # + the course health's modules and exercises (no flagged multiple choice here), + review forecast
    assert {m.label for m in at.metric} >= {"Inscritos", "Finalización"} and len(at.dataframe) == 5
    assert "Salud del curso" in [h.value for h in at.subheader]
    # the course's tutor mode (issue 29): guided unless set, saved as picked, audited
    [mode] = [radio for radio in at.radio if radio.label == "Modo del tutor en este curso"]
    assert mode.value == "guided"
    mode.set_value("direct").run()
    assert [s.value for s in at.success] == ["Modo del tutor de «Devoluciones y reembolsos: lo esencial»: directo."]
    at.radio(key=mode.key).set_value("guided").run()
    assert not at.exception and at.radio(key=mode.key).value == "guided"
    at = open_page(admin, "pages/employee_detail.py", detail_email="james@acme.test")
    assert "James Carter" in texts(at) and len(at.dataframe) >= 3


def test_assistant_page_chat_trace_and_confirm_card(admin, seeded_pool):
    at = open_page(admin, "pages/admin_assistant.py")
    at.chat_input[0].set_value("who knows Oracle Financials?").run()
    assert not at.exception, at.exception
    assert "Isabel Vega" in texts(at) and at.expander and at.dataframe
    assert "motor: sin modelo" in [c.value for c in at.caption]  # the twin: no model, no token count
    at.chat_input[0].set_value("desactiva a Diego").run()
    assert "Diego Martín" in texts(at) and is_active(seeded_pool, "diego@acme.test")
    preview = at.dataframe[-1]  # the write's rows in the trace: each field and its new value, in Spanish
    assert preview.value.iloc[0].to_dict() == {
        "employee": "Diego Martín",
        "email": "diego@acme.test",
        "is_active": "sí",
        "new_is_active": "no",
    }
    assert column_labels(preview.value, "es")["new_is_active"] == "Activo después"
    confirm = next(b for b in at.button if b.label.endswith("Confirmar"))
    confirm.click().run()
    assert not at.exception, at.exception
    assert not is_active(seeded_pool, "diego@acme.test") and "Hecho" in texts(at)
    assert not [b for b in at.button if b.label.endswith("Confirmar")]
    # the click is no message the admin wrote: the preview it answered is marked with it
    assert [m.name for m in at.chat_message][-3:] == ["user", "assistant", "assistant"]
    assert any(c.value.startswith("✔ Confirmado por ti · ") for c in at.chat_message[-2].caption)


def test_a_conversation_stored_in_the_old_tool_call_shape_is_drawn_after_its_migration(admin, seeded_pool):
    old_call = {  # before issue 27: the result spread beside tool and arguments, its other tables apart
        "tool": "who_knows",
        "arguments": {"skill_name": "Oracle Financials"},
        "rows": [{"full_name": "Isabel Vega", "level": "high"}],
        "result_count": 3,
        "total": 3,
        "tables": {"skills": [{"skill": "Oracle Financials"}]},
    }
    with seeded_pool.connection() as conn:
        session = chat.create_session(conn, admin.org_id, admin.id, "admin", title="old")
        chat.add_message(conn, admin.org_id, session.id, "user", "who knows Oracle Financials?")
        chat.add_message(conn, admin.org_id, session.id, "assistant", "Isabel Vega.", {"tool_calls": [old_call]})
        conn.execute(MIGRATION.read_text(encoding="utf-8"))
        stored = chat.list_messages(conn, admin.org_id, session.id)[-1].metadata["tool_calls"]
    assert stored == [
        {
            "tool": "who_knows",
            "arguments": {"skill_name": "Oracle Financials"},
            "result": {"rows": old_call["rows"], "total": 3, "skills": [{"skill": "Oracle Financials"}]},
            "result_count": 3,
        }
    ]
    at = open_page(admin, "pages/admin_assistant.py", admin_assistant_session=str(session.id))
    tool = code_label("tool", "who_knows", admin.language)
    assert t("admin.assistant.tool_rows", admin.language, tool=tool, n=3) in [e.label for e in at.expander]
    assert len(at.dataframe) == 2  # its rows and its skills table


def test_a_confirm_stored_as_a_user_message_becomes_the_mark_on_its_preview(admin, seeded_pool):
    """Before issue 27's step 2 a click on Confirm was stored as the admin's message "✔ Confirmar"."""
    with seeded_pool.connection() as conn:
        session = chat.create_session(conn, admin.org_id, admin.id, "admin", title="old confirm")
        pending = {"id": "5d1c7d52-0000-4000-8000-000000000001", "tool": "deactivate_employee", "preview": "Diego"}
        executed = [{"id": pending["id"], "tool": "deactivate_employee", "result": {"message": "Diego"}}]
        for role, content, metadata in [
            ("user", "desactiva a Diego", {"confirm": None, "cancel": False}),
            ("assistant", "Desactivar a Diego Martín.", {"pending": pending}),
            ("user", "✔ Confirmar", {"confirm": pending["id"], "cancel": False}),
            ("assistant", "Hecho: Diego.", {"executed": executed}),
        ]:
            chat.add_message(conn, admin.org_id, session.id, role, content, metadata)
        conn.execute((MIGRATIONS / "217_admin_decisions.sql").read_text(encoding="utf-8"))
        stored = chat.list_messages(conn, admin.org_id, session.id)
    assert [(m.role, m.content) for m in stored] == [
        ("user", "desactiva a Diego"),
        ("assistant", "Desactivar a Diego Martín."),
        ("assistant", "Hecho: Diego."),
    ]
    assert stored[-1].metadata["decision"] == "confirm"
    at = open_page(admin, "pages/admin_assistant.py", admin_assistant_session=str(session.id))
    assert "✔ Confirmar" not in texts(at)
    marks = [c.value for m in at.chat_message for c in m.caption if c.value.startswith("✔")]
    assert marks == [t("admin.assistant.decided_confirm", "es", when=format_datetime(stored[-1].created_at, "es"))]


def test_assistant_conversation_renamed_then_deleted_from_the_sidebar(admin):
    at = open_page(admin, "pages/admin_assistant.py")
    at.chat_input[0].set_value("lista de cursos").run()
    session = at.session_state["admin_assistant_session"]
    at.text_input(key=f"title_{session}").set_value("Cursos del trimestre")
    at.button(key=f"rename_{session}").click().run()
    assert not at.exception, at.exception
    assert any(b.label.startswith("Cursos del trimestre ·") for b in at.sidebar.button)
    assert at.button(key=f"delete_{session}").disabled  # only once "for good" is ticked
    at.checkbox(key=f"sure_{session}").check().run()
    at.button(key=f"delete_{session}").click().run()
    assert not at.exception, at.exception
    assert "admin_assistant_session" not in at.session_state
    assert not any(b.label.startswith("Cursos del trimestre") for b in at.sidebar.button)


def test_employees_page_writes_through_preview_then_confirm(admin, seeded_pool):
    at = open_page(admin, "pages/employee_detail.py", detail_email="harry@acme.test")
    writes = audit_count(seeded_pool, "verify_skill")
    at.selectbox(key="action_skill").set_value("Complaint handling")
    at.selectbox(key="action_level").set_value("high")
    at.button(key="preview_verify").click().run()
    assert not at.exception, at.exception
    assert "Harry Patel" in texts(at) and "alto" in texts(at)  # the preview, in Spanish
    assert audit_count(seeded_pool, "verify_skill") == writes  # nothing written yet
    next(b for b in at.button if b.label.endswith("Confirmar")).click().run()
    assert not at.exception, at.exception
    assert audit_count(seeded_pool, "verify_skill") == writes + 1 and "Harry Patel" in texts(at)

    at.button(key="preview_deactivate").click().run()
    assert is_active(seeded_pool, "harry@acme.test")
    next(b for b in at.button if b.label.endswith("Cancelar")).click().run()
    assert is_active(seeded_pool, "harry@acme.test") and not [b for b in at.button if b.label.endswith("Confirmar")]


def test_an_empty_assistant_page_offers_examples_that_run_when_clicked(admin):
    at = open_page(admin, "pages/admin_assistant.py")
    examples = [b for b in at.button if b.key and b.key.startswith("example_")]
    assert len(examples) == 6 and "¿Quién tiene cursos vencidos?" in {b.label for b in examples}
    next(b for b in examples if b.label == "¿Quién tiene cursos vencidos?").click().run()
    assert not at.exception, at.exception
    assert "vencido" in texts(at) and texts(at).endswith("motor: sin modelo")  # the twin spends no tokens
    assert not [b for b in at.button if b.key and b.key.startswith("example_")]  # the page is no longer empty


def test_empty_learning_pages_give_an_admin_the_next_step(admin):
    """Marta is enrolled in nothing and no manual is published: each page says where to go instead."""
    player = open_page(admin, "pages/course_player.py")
    assert "desde sus estadísticas" in texts(player) and "/course_stats" in texts(player)
    manuals = open_page(admin, "pages/manuals.py")
    assert "El estudio de contenidos lo redacta" in texts(manuals) and "/content_studio" in texts(manuals)
    stats = open_page(admin, "pages/course_stats.py", stats_course="Returns and Refunds Essentials")
    assert any("Ver este curso" in line and "/course_player?course=" in line for line in texts(stats).splitlines())


def test_retrieval_lab_scope_pickers_say_what_empty_means(admin):
    at = open_page(admin, "pages/retrieval_lab.py")
    assert at.selectbox(key="lab_course").placeholder == "Todos los cursos"
    assert at.multiselect(key="lab_docs").placeholder == "Todos los documentos"
