"""The Employees page's write path (agents.admin.actions): the assistant's tools, preview → confirm,
executed once and audited; refused input holds nothing."""

from __future__ import annotations

import pytest

from agents.admin import actions
from agents.admin.service import AdminAccessError, AdminInputError
from storage import pending_actions
from tests.admin.conftest import audit_count, is_active


def test_propose_holds_a_preview_and_only_its_confirm_writes_once(seeded_deps, admin, seeded_pool):
    writes = audit_count(seeded_pool, "deactivate_employee")
    proposal = actions.propose(seeded_deps, admin, "deactivate_employee", {"employee_name": "elena@acme.test"})
    assert "Elena Castro" in proposal.preview and "inactivo" in proposal.preview
    assert is_active(seeded_pool, "elena@acme.test") and audit_count(seeded_pool, "deactivate_employee") == writes
    message = actions.confirm(seeded_deps, admin, proposal.id)
    assert "Elena Castro" in message and not is_active(seeded_pool, "elena@acme.test")
    assert audit_count(seeded_pool, "deactivate_employee") == writes + 1
    with pytest.raises(AdminInputError, match="ya se ejecutó"):
        actions.confirm(seeded_deps, admin, proposal.id)  # a second confirm writes nothing
    assert audit_count(seeded_pool, "deactivate_employee") == writes + 1


def test_a_cancelled_or_refused_proposal_writes_nothing(seeded_deps, admin, lucia, seeded_pool):
    proposal = actions.propose(
        seeded_deps,
        admin,
        "assign_course",
        {"course_title": "Seguridad en el almacén", "employee_names": ["priya@acme.test"]},
    )
    actions.cancel(seeded_deps, admin, proposal.id)
    with pytest.raises(AdminInputError):
        actions.confirm(seeded_deps, admin, proposal.id)
    with pytest.raises(AdminInputError):
        actions.propose(seeded_deps, admin, "archive_course", {"course_title": "Seguridad"})  # not a page write
    with pytest.raises(AdminInputError):
        actions.propose(
            seeded_deps, admin, "verify_skill", {"employee_name": "priya@acme.test", "skill_name": "x", "level": "guru"}
        )  # schema refuses
    with pytest.raises(AdminAccessError):
        actions.propose(seeded_deps, lucia, "deactivate_employee", {"employee_name": "james@acme.test"})
    with seeded_pool.connection() as conn:
        assert pending_actions.get_pending(conn, admin.org_id, admin.id, proposal.id).status == "cancelled"


def test_the_assistants_pending_action_is_not_confirmed_from_a_page(seeded_deps, turn, admin):
    reply = turn("desactiva a Harry")
    with pytest.raises(AdminInputError):
        actions.confirm(seeded_deps, admin, reply.pending["id"])
    turn(session=reply.session, cancel=True)
