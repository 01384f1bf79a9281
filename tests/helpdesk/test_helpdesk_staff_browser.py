"""Done when, in a real browser: an employee files a ticket (Spanish); an admin opens it, reads the
description and the snapshot, assigns it and changes its status with a note (English); the employee
sees the new status and the note under My tickets. A Spanish admin's view of the same ticket too."""

import re

from tests.browser import chromium_page, needs_chromium, open_page, pick, running_app, selectbox, sign_in, sign_out
from tests.people import upsert_user

QUESTION = "El proyector de la sala B no enciende, solo a mí, desde hoy, sin mensaje de error"
NOTE = "Cambiamos la lámpara del proyector esta tarde"


@needs_chromium
def test_ticket_filed_worked_and_followed_in_the_browser(db_url, org, pool, tmp_path):
    with pool.connection() as conn:
        upsert_user(
            conn,
            org.org.id,
            email="jefa@hd.test",
            full_name="Jefa",
            role="admin",
            password="pw-jefa-123",
            language="es",
        )
    with running_app(db_url) as base, chromium_page() as page:
        try:
            sign_in(page, base, "ana@hd.test", "pw-ana-123")
            open_page(page, "Ayuda")
            page.get_by_label("¿Qué problema tienes?").fill(QUESTION)
            page.get_by_role("button", name="Pedir ayuda").click()
            dialog = page.get_by_role("dialog")
            dialog.get_by_label("Título").wait_for(timeout=180_000)
            page.screenshot(path=str(tmp_path / "1_employee_draft_es.png"))
            dialog.get_by_role("button", name="Crear ticket").click()
            page.get_by_text("Síguelo en Mis tickets.").wait_for(timeout=120_000)
            page.get_by_text(re.compile(r"· abierto$")).wait_for(timeout=30_000)  # the status in Spanish, a word
            page.screenshot(path=str(tmp_path / "2_employee_filed_es.png"))
            sign_out(page, "Salir")

            sign_in(page, base, "boss@hd.test", "pw-boss-123")
            open_page(page, "Helpdesk tickets")
            page.get_by_text("reported by Ana").wait_for(timeout=120_000)
            body = page.inner_text("body")
            assert "El proyector de la sala B no enciende" in body  # the description
            assert "reported by Ana on " in body  # she has no department: no "(—)" where it would be
            page.get_by_role("tab", name="Conversation").click()
            page.get_by_text(QUESTION).last.wait_for(timeout=30_000)  # the redacted snapshot
            page.screenshot(path=str(tmp_path / "3_admin_ticket_en.png"), full_page=True)
            pick(page, selectbox(page, "Assign to"), "Boss")
            page.get_by_role("button", name="Save assignee").click()
            page.get_by_text("assigned to Boss").first.wait_for(timeout=60_000)
            pick(page, selectbox(page, "New status"), "in progress")
            page.get_by_label("Note for the people affected").fill(NOTE)
            page.get_by_role("button", name="Save status").click()
            page.get_by_text("is now in progress; the people affected were notified").wait_for(timeout=60_000)
            page.screenshot(path=str(tmp_path / "4_admin_status_changed_en.png"), full_page=True)
            open_page(page, "Audit log")
            page.get_by_text("Right to delete").wait_for(timeout=60_000)
            page.screenshot(path=str(tmp_path / "4b_audit_log_en.png"), full_page=True)
            open_page(page, "Operations")
            page.get_by_text("Content generation queue").wait_for(timeout=60_000)
            page.screenshot(path=str(tmp_path / "4c_operations_en.png"), full_page=True)
            sign_out(page, "Sign out")

            sign_in(page, base, "jefa@hd.test", "pw-jefa-123")
            open_page(page, "Tickets de ayuda")
            page.get_by_text("reportado por Ana").wait_for(timeout=120_000)
            page.get_by_role("tab", name="Historial").click()
            page.get_by_text(NOTE).first.wait_for(timeout=30_000)
            page.screenshot(path=str(tmp_path / "5_admin_history_es.png"), full_page=True)
            open_page(page, "Registro de auditoría")
            page.get_by_text("Derecho de supresión").wait_for(timeout=60_000)
            page.screenshot(path=str(tmp_path / "5b_audit_log_es.png"), full_page=True)
            open_page(page, "Operaciones")
            page.get_by_text("Cola de generación de contenidos").wait_for(timeout=60_000)
            page.screenshot(path=str(tmp_path / "5c_operations_es.png"), full_page=True)
            sign_out(page, "Salir")

            sign_in(page, base, "ana@hd.test", "pw-ana-123")
            open_page(page, "Mis tickets")
            page.get_by_text(NOTE).first.wait_for(timeout=120_000)
            body = page.inner_text("body")
            assert "en curso" in body and "El ticket #" in body  # status and the in-app notification
            page.screenshot(path=str(tmp_path / "6_employee_my_tickets_es.png"), full_page=True)
        except Exception:
            page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
            raise
