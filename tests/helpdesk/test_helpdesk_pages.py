"""The Helpdesk pages with AppTest: start, live steps, chips, the draft modal, outcomes, restart, admin."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from agents.helpdesk import service, upkeep
from agents.runtime.deps import process_deps
from storage import helpdesk_sessions as sessions
from storage import tickets
from tests import apptest
from tests.apptest import texts


def open_page(user, page: str = "pages/helpdesk.py", query: dict | None = None, **state) -> AppTest:
    return apptest.open_page(user, page, query=query, **state)


def button(at: AppTest, key: str):
    return next(b for b in at.button if b.key == key)


def test_employee_files_a_ticket_through_chips_and_the_modal(org, pool):
    at = open_page(org.ana)
    assert "Ayuda" in texts(at) and "motor: sin modelo" in texts(at)
    at.text_area[0].input("El portátil no arranca y la pantalla parpadea")
    at.button[0].click().run()  # the form's submit button sends the text area with it
    assert not at.exception, at.exception
    assert "¿Te afecta solo a ti o a tu equipo?" in texts(at)
    assert "✓ Buscando tickets existentes…" in texts(at)  # the steps shown live stay listed
    button(at, "hd_chip_1").click().run()  # "Solo a mí"
    assert not at.exception, at.exception
    assert "¿Qué mensaje o código de error exacto ves?" in texts(at)
    at.text_input[0].input("Desde ayer, sin mensaje de error")
    next(b for b in at.button if "Enviar" in b.label).click().run()
    assert not at.exception, at.exception
    # The draft modal opens by itself: editable title, body, severity and category.
    assert [ti.label for ti in at.text_input][:1] == ["Título"] and at.text_area[0].label == "Descripción"
    assert {s.label for s in at.selectbox} == {"Gravedad", "Categoría"}
    # the description opens read as text (its Markdown rendered), its source one tab over for editing
    assert [tab.label for tab in at.tabs] == ["Descripción", "Editar la descripción"]
    assert at.tabs[0].markdown[0].value.startswith("## Problema\nEl portátil no arranca")
    assert at.tabs[1].text_area[0].value == at.tabs[0].markdown[0].value
    with pool.connection() as conn:
        before = len(tickets.list_tickets(conn, org.org.id))
    at.text_input[0].input("Portátil no arranca tras actualizar").run()
    button(at, "hd_file").click().run()
    assert not at.exception, at.exception
    assert "Ticket #" in texts(at) and "Portátil no arranca tras actualizar" in texts(at)
    # the status reads as a word, not a code chip, and the way to follow the ticket is a link
    assert "· abierto" in texts(at) and "`" not in texts(at) and "Síguelo en Mis tickets.](/my_tickets" in texts(at)
    with pool.connection() as conn:
        assert len(tickets.list_tickets(conn, org.org.id)) == before + 1
    # spec 001's "did this solve it?", asked under the filed ticket; the answer is kept and can change
    assert "¿Te ha servido?" in texts(at)
    button(at, "hd_helpful_False").click().run()
    assert not at.exception, at.exception
    assert "Gracias: has dicho que no te ha servido." in texts(at) and button(at, "hd_helpful_False").disabled
    with pool.connection() as conn:
        assert sessions.list_sessions(conn, org.org.id, user_id=org.ana.id, limit=1)[0].helpful is False


def test_cancel_in_the_modal_files_nothing_and_cancel_session_aborts(org, pool, checkpointer):
    turn = service.start(
        process_deps(), org.bob, "The projector in room B does not turn on, only me, since today, no error"
    )
    assert turn.kind == "draft_ready"
    at = open_page(org.bob, helpdesk_session=turn.session_id)
    button(at, "hd_cancel_modal").click().run()
    assert not at.exception and service.get_turn(process_deps(), org.bob, turn.session_id).kind == "draft_ready"
    button(at, "hd_abort").click().run()
    assert "You cancelled this request" in texts(at)


def test_tutor_handoff_prefills_the_question(org):
    at = open_page(org.bob, query={"q": "Oracle Financials returns 403 on budget reports"})
    assert at.text_area[0].value == "Oracle Financials returns 403 on budget reports"
    at.button[0].click().run()
    assert not at.exception, at.exception
    assert "This looks like ticket #" in texts(at)
    button(at, "hd_link").click().run()
    assert "Linked to existing ticket #" in texts(at)


def test_restarted_session_tells_the_user(org, pool):
    with pool.connection() as conn:
        row = sessions.create_session(conn, org.org.id, org.bob.id, language="en")
    upkeep.sweep_orphans(process_deps(), stale_after_seconds=0)
    at = open_page(org.bob, helpdesk_session=str(row.id))
    assert "The helpdesk restarted while working on your request" in texts(at)


def test_someone_elses_session_is_not_found_on_the_page(org):
    turn = service.start(process_deps(), org.ana, "No puedo entrar en la intranet")
    at = open_page(org.bob, helpdesk_session=turn.session_id)
    assert "That helpdesk session does not exist." in texts(at)


def test_operations_page_shows_the_agent_counters_and_charts(org):
    service.start(process_deps(), org.bob, "The projector in room C does not turn on, only me, since today, no error")
    at = open_page(org.admin, "pages/operations.py")
    assert "Operations" in texts(at) and "Injections blocked" in [m.label for m in at.metric]
    assert "Did it solve it? (people's answers)" in texts(at)  # the rate per outcome, for staff
    assert len(at.get("plotly_chart")) >= 2


@pytest.mark.parametrize("page", ["pages/helpdesk_admin.py", "pages/operations.py"])
def test_admin_pages_refuse_employees(org, page):
    at = open_page(org.bob, page)
    assert "This page is for HR admins" in texts(at) and not at.dataframe


def test_operations_page_lists_models_queue_and_locked_accounts(org):
    at = open_page(org.admin, "pages/operations.py")
    shown = texts(at)
    assert "Models" in shown and "Content generation queue" in shown and "Locked accounts" in shown
    spanish = open_page(org.ana.__class__(**{**org.admin.__dict__, "language": "es"}), "pages/operations.py")
    assert "Cola de generación de contenidos" in texts(spanish) and "Cuentas bloqueadas" in texts(spanish)


@pytest.mark.parametrize(
    ("lang", "empty", "link"),
    [
        ("es", "Todavía no tienes tickets.", "Pide ayuda en la página de Ayuda"),
        ("en", "You have no tickets yet.", "Ask the Helpdesk for help"),
    ],
)
def test_my_tickets_with_none_yet_leads_to_the_helpdesk(org, pool, lang, empty, link):
    from tests.people import upsert_user

    with pool.connection() as conn:
        newcomer = upsert_user(
            conn,
            org.org.id,
            email=f"new.{lang}@hd.test",
            full_name="New Person",
            role="employee",
            password="pw-new-123",
            language=lang,
        )
    at = open_page(newcomer, "pages/my_tickets.py")
    assert [i.value for i in at.info] == [empty]
    assert f"🛟 [{link}](/helpdesk?)" in texts(at)  # AppTest has no navigation: the page link falls back to Markdown
