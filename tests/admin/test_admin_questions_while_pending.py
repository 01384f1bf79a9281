"""A read-only question asked while a write waits for its confirm is answered; the write keeps waiting (the
same Confirm button), reminded in one line; a second write is held until the first is answered."""

from __future__ import annotations

from storage import pending_actions
from tests.admin.conftest import audit_count, is_active


def test_a_question_under_a_preview_is_answered_and_the_preview_keeps_waiting(turn, seeded_pool, admin):
    writes = audit_count(seeded_pool)
    reply = turn("desactiva a Chloe")
    assert reply.pending and "Chloe Evans" in reply.pending["preview"]
    asked = turn("¿quién está atrasado en Seguridad en el almacén?", reply.session)
    assert [c["tool"] for c in asked.tool_calls] == ["get_alerts"] and asked.executed == []
    assert asked.pending["id"] == reply.pending["id"]  # the same preview, the same Confirm button
    assert "Sigue pendiente de confirmar: " + reply.pending["preview"].splitlines()[0] in asked.response
    assert asked.response.count(reply.pending["preview"].splitlines()[0]) == 1  # reminded once, not re-shown
    assert "antes de pedir otro cambio" not in asked.response
    with seeded_pool.connection() as conn:
        assert pending_actions.get_pending(conn, admin.org_id, admin.id, reply.pending["id"]).status == "pending"

    english = turn("who knows forklift operation?", reply.session)  # in English: answered in English
    assert [c["tool"] for c in english.tool_calls] == ["who_knows"] and english.pending["id"] == reply.pending["id"]
    assert "Still waiting for your confirmation: " in english.response
    assert is_active(seeded_pool, "chloe@acme.test") and audit_count(seeded_pool) == writes

    yes = turn(session=reply.session, confirm=reply.pending["id"])  # the button still confirms it
    assert [e["id"] for e in yes.executed] == [reply.pending["id"]] and yes.pending is None
    assert not is_active(seeded_pool, "chloe@acme.test") and audit_count(seeded_pool) == writes + 1


def _pending_rows(pool) -> int:
    with pool.connection() as conn:
        return conn.execute("SELECT count(*) FROM admin_pending_actions").fetchone()[0]


def test_a_second_write_under_a_preview_is_held(turn, seeded_pool):
    reply = turn("desactiva a Harry")
    rows = _pending_rows(seeded_pool)
    second = turn("asigna el curso Seguridad en el almacén a Priya", reply.session)
    assert second.pending["id"] == reply.pending["id"] and second.tool_calls == [] and second.executed == []
    assert "Este cambio sigue pendiente de confirmar: Desactivar a Harry Patel" in second.response
    assert _pending_rows(seeded_pool) == rows  # nothing prepared for the second write
    cancelled = turn("no", reply.session)
    assert cancelled.pending is None and is_active(seeded_pool, "harry@acme.test")


def test_a_no_said_with_what_it_points_at_cancels(turn, seeded_pool):
    """A no with what it points at ("no, cancel that", "no, cancela eso") was held as another request ("still
    waiting…") and "yes please" was not read as a yes: pointing and polite words go with a yes or a no."""
    for no in ("no, cancel that", "no, cancela eso", "olvídalo"):
        reply = turn("desactiva a Harry")
        cancelled = turn(no, reply.session)
        assert cancelled.pending is None and cancelled.decision == "cancel", (no, cancelled.response)
        assert is_active(seeded_pool, "harry@acme.test")
    reply = turn("deactivate Isabel")
    done = turn("yes please", reply.session)
    assert done.decision == "confirm" and [e["id"] for e in done.executed] == [reply.pending["id"]]
    assert not is_active(seeded_pool, "isabel@acme.test")
