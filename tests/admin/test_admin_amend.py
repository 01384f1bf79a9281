"""Amending a pending preview (spec 000 §5.5) and previewing two writes at once (issue 32)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from agents.admin import conversations
from agents.i18n import format_date
from storage import pending_actions
from tests.admin.conftest import audit_count, is_active


def _status(pool, admin, action_id: str) -> str:
    with pool.connection() as conn:
        return pending_actions.get_pending(conn, admin.org_id, admin.id, action_id).status


def test_an_amendment_replans_the_preview_and_the_old_one_cannot_be_confirmed(turn, seeded_deps, seeded_pool, admin):
    writes = audit_count(seeded_pool, "assign_course")
    first = turn("Assign Warehouse Safety to Tom Baker by the end of the month")
    end_of_month = date.today().replace(day=28) + timedelta(days=4)
    end_of_month -= timedelta(days=end_of_month.day)
    assert "Tom Baker" in first.pending["preview"] and format_date(end_of_month, "en") in first.pending["preview"]

    added = turn("wait, add Harry too", first.session)
    assert added.pending["id"] != first.pending["id"] and added.tool_calls[0]["tool"] == "assign_course"
    for name in ("Tom Baker", "Harry Patel"):
        assert name in added.pending["preview"]
    assert format_date(end_of_month, "en") in added.pending["preview"]  # what was not changed stays
    assert "no longer be confirmed" in added.response
    assert _status(seeded_pool, admin, first.pending["id"]) == "cancelled"

    stale = turn(session=first.session, confirm=first.pending["id"])  # the old preview: nothing runs
    assert stale.executed == [] and stale.pending["id"] == added.pending["id"]

    later = turn("mejor con fecha del 30", first.session)  # Spanish, a bare day of the month
    thirtieth = date.today().replace(day=30) if date.today().day < 30 else None
    assert later.pending["id"] != added.pending["id"] and "Harry Patel" in later.pending["preview"]
    if thirtieth:
        assert format_date(thirtieth, "es") in later.pending["preview"]
    removed = turn("sin Harry", first.session)
    assert "Harry Patel" not in removed.pending["preview"] and "Tom Baker" in removed.pending["preview"]

    question = turn("who knows Oracle Financials?", first.session)  # not an amendment: answered, the preview stays
    assert question.pending["id"] == removed.pending["id"] and [c["tool"] for c in question.tool_calls] == ["who_knows"]
    done = turn(session=first.session, confirm=removed.pending["id"])
    assert [e["tool"] for e in done.executed] == ["assign_course"]
    assert audit_count(seeded_pool, "assign_course") == writes + 1  # Tom only, once
    shown = conversations.conversation(seeded_deps, admin, first.session)
    [(marked, (decision, _when))] = shown.decisions.items()  # the click marks the preview it answered…
    preview = next(m for m in shown.messages if m.id == marked)
    assert decision == "confirm" and preview.metadata["pending"]["id"] == removed.pending["id"]
    assert preview.content == removed.response  # …where it was shown, not the reply saying it still waits
    assert [m.role for m in shown.messages[-2:]] == ["assistant", "assistant"]  # and is no message of its own


def test_two_writes_in_one_request_are_previewed_together_and_one_confirm_runs_both(turn, seeded_pool):
    deactivations, archives = (
        audit_count(seeded_pool, "deactivate_employee"),
        audit_count(seeded_pool, "archive_course"),
    )
    reply = turn("Deactivate Ryan Mitchell and archive the Business Expenses and Travel course")
    assert [c["tool"] for c in reply.tool_calls] == ["deactivate_employee", "archive_course"]
    assert "Ryan Mitchell" in reply.pending["preview"] and "Business Expenses and Travel" in reply.pending["preview"]
    assert is_active(seeded_pool, "ryan@acme.test")
    done = turn("yes", reply.session)
    assert [e["tool"] for e in done.executed] == ["deactivate_employee", "archive_course"]
    assert not is_active(seeded_pool, "ryan@acme.test")
    assert audit_count(seeded_pool, "deactivate_employee") == deactivations + 1
    assert audit_count(seeded_pool, "archive_course") == archives + 1


def test_a_conversation_is_renamed_and_deleted_with_the_write_it_held(turn, seeded_deps, seeded_pool, admin, lucia):
    from agents.admin import service

    reply = turn("deactivate Emily Watson")
    conversations.rename_conversation(seeded_deps, admin, reply.session, "  Emily   leaves  ")
    titles = {str(s.id): s.title for s in conversations.conversation(seeded_deps, admin, None).sessions}
    assert titles[reply.session] == "Emily leaves"
    with pytest.raises(service.AdminInputError):
        conversations.rename_conversation(seeded_deps, admin, reply.session, "   ")
    with pytest.raises(service.AdminAccessError):
        conversations.delete_conversation(seeded_deps, lucia, reply.session)  # employees never reach it

    conversations.delete_conversation(seeded_deps, admin, reply.session)
    assert reply.session not in {str(s.id) for s in conversations.conversation(seeded_deps, admin, None).sessions}
    with seeded_pool.connection() as conn:  # gone with its conversation (or cancelled where it is kept)
        held = pending_actions.get_pending(conn, admin.org_id, admin.id, reply.pending["id"])
    assert held is None or held.status == "cancelled"
    with pytest.raises(service.AdminInputError):  # its confirm names nothing now
        turn(confirm=reply.pending["id"])
    assert is_active(seeded_pool, "emily@acme.test")
