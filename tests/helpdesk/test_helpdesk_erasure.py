"""Right to delete (previewed, confirmed, audited; tickets kept anonymised) and the Audit log page."""

from __future__ import annotations

import pytest

from agents.helpdesk import erasure, service, staff
from agents.helpdesk.turns import HelpdeskError
from agents.insights import operations
from storage import erasure as erasure_store
from storage import users
from tests import apptest
from tests.apptest import texts
from tests.people import upsert_user


@pytest.fixture(scope="module")
def dana(org, pool):
    with pool.connection() as conn:
        return upsert_user(
            conn,
            org.org.id,
            email="dana@hd.test",
            full_name="Dana",
            role="employee",
            password="pw-dana-123",
            language="es",
        )


def _file(user, deps, text: str) -> dict:
    turn = service.start(deps, user, text)
    while turn.kind == "question":
        turn = service.resume(deps, user, turn.session_id, question_id=turn.question_id, text=turn.choices[0])
    return service.confirm(deps, user, turn.session_id, question_id=turn.question_id).ticket


def test_erasure_previews_then_removes_chat_and_helpdesk_data_and_keeps_tickets(org, dana, deps, pool):
    ticket = _file(dana, deps, "La pantalla del aula 7 no se enciende, solo a mí, desde hoy, sin mensaje")
    staff.change_status(deps, org.admin, ticket["id"], "in_progress", "Lo miramos")
    seen = erasure.preview(deps, org.admin, "dana@hd.test")
    assert seen["counts"]["helpdesk_sessions"] == 1 and seen["counts"]["tickets_reported"] == 1
    assert seen["counts"]["chat_sessions"] >= 1 and seen["counts"]["notifications"] == 1
    with pytest.raises(HelpdeskError):
        erasure.erase(deps, org.admin, "dana@hd.test", "not-the-preview")  # no erase without its preview
    done = erasure.erase(deps, org.admin, "dana@hd.test", seen["token"])
    assert done["sessions_deleted"] == 1 and done["tickets_anonymised"] == 1
    with pool.connection() as conn:
        assert erasure_store.footprint(conn, org.org.id, dana.id) == {
            "chat_sessions": 0,
            "chat_messages": 0,
            "helpdesk_sessions": 0,
            "tickets_reported": 0,
            "tickets_linked": 0,
            "notifications": 0,
        }
    kept = staff.ticket_detail(deps, org.admin, ticket["id"])
    assert kept["reporter"] == "" and kept["snapshot"] == [] and kept["status"] == "in_progress"
    entries = [e for e in operations.audit_entries(deps, org.admin) if e["action"] == "person.erase"]
    assert entries and entries[0]["who"] == "Boss" and '"helpdesk_sessions": 1' in entries[0]["before_json"]
    assert "helpdesk sessions: 1" in entries[0]["before"] and entries[0]["entity_name"] == "Dana"  # read, not JSON


def test_erasure_refuses_employees_strangers_and_oneself(org, deps):
    with pytest.raises(HelpdeskError):
        erasure.preview(deps, org.bob, "ana@hd.test")
    with pytest.raises(HelpdeskError) as unknown:
        erasure.preview(deps, org.admin, "nobody@hd.test")
    assert unknown.value.code == "not_found"
    with pytest.raises(HelpdeskError):
        erasure.preview(deps, org.admin, "boss@hd.test")


def _shows(cell: str, whole: str) -> bool:
    """A table's cell shows ``whole``: all of it, or its beginning and "…" (ui/tables.py fits tables to the page)."""
    return cell == whole or (cell.endswith("…") and whole.startswith(cell[:-1]) and len(cell) > 5)


def test_audit_log_page_filters_and_previews_an_erasure(org, deps):
    ticket = _file(
        org.ana, deps, "El ascensor del edificio norte hace un ruido fuerte, solo a mí, desde hoy, sin mensaje"
    )
    staff.change_status(deps, org.admin, ticket["id"], "resolved", "Listo")
    at = apptest.open_page(org.admin, "pages/audit_log.py")
    frame = at.dataframe[0].value
    assert (
        "ticket status changed" in frame["action"].tolist() and "Boss" in frame["who"].tolist()
    )  # codes read as words
    changed = frame[frame["action"] == "ticket status changed"].iloc[0]
    # the ticket, not its uuid (cut with "…" to fit the page: a picked row shows it whole)
    assert _shows(changed["entity_name"], f"#{ticket['number']} · {ticket['title']}")
    assert _shows(changed["after"], "status: open → resolved · note: Listo")  # not a JSON dump
    assert list(frame.columns) == ["when", "who", "action", "entity_name", "after"]  # "before": in a picked row
    at.text_input[1].input("ana@hd.test")
    next(b for b in at.button if b.label == "Preview").click().run()
    assert not at.exception, at.exception
    assert "This erases the data of Ana (ana@hd.test):" in texts(at)
    assert any(b.label == "Erase for good" for b in at.button)
    spanish = apptest.open_page(users.User(**{**org.admin.__dict__, "language": "es"}), "pages/audit_log.py")
    assert "Registro de auditoría" in texts(spanish) and "Derecho de supresión" in texts(spanish)
    changed = spanish.dataframe[0].value.iloc[0]
    assert changed["action"] == "estado del ticket cambiado"
    assert _shows(changed["after"], "estado: abierto → resuelto · nota: Listo")
