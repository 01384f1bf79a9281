"""Property: over any sequence of admin messages, typed yeses, confirms (right, stale, made up) and
cancels, a write happens exactly when the admin confirms the action pending at that moment (with the
button's id or a message of only confirmation words)."""

from __future__ import annotations

import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.admin.typed import typed_decision
from tests.admin.conftest import audit_count

WRITE_REQUESTS = [
    "verifica el nivel de Tom Baker en Coaching como alto",
    "verify Elena's Manual handling as medium",
    "desactiva a Harry",
]
OTHER_MESSAGES = ["alertas", "sí", "yes", "no", "who knows Oracle Financials?", "ok, hazlo"]
ACTIONS = st.one_of(
    st.tuples(st.just("say"), st.sampled_from(WRITE_REQUESTS + OTHER_MESSAGES)),
    st.tuples(st.just("confirm_current"), st.none()),
    st.tuples(st.just("confirm_stale"), st.none()),
    st.tuples(st.just("confirm_made_up"), st.none()),
    st.tuples(st.just("cancel"), st.none()),
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(ACTIONS, min_size=1, max_size=7))
def test_only_confirming_the_current_pending_action_writes(turn, seeded_pool, steps):
    session, current, seen = None, None, []
    for kind, text in steps:
        before = audit_count(seeded_pool)
        expected_ids: list[str] = []
        if kind == "say":
            expected_ids = [current] if current and typed_decision(text) == "confirm" else []
            reply = turn(text, session)
        elif kind == "cancel":
            reply = turn(session=session, cancel=True) if session else None
        else:
            if session is None:
                continue
            target = {
                "confirm_current": current,
                "confirm_stale": next((s for s in seen if s != current), None),
                "confirm_made_up": str(uuid.uuid4()),
            }[kind] or str(uuid.uuid4())
            expected_ids = [current] if kind == "confirm_current" and current else []
            reply = turn(session=session, confirm=target)
        if reply is None:
            continue
        session = reply.session
        assert [e["id"] for e in reply.executed] == expected_ids
        writes = audit_count(seeded_pool) - before
        assert (writes > 0) == bool(expected_ids), (kind, text, writes)
        if reply.pending:
            seen.append(reply.pending["id"])
        # what is pending now: a new preview, or the same one left untouched by a refused confirm
        current = reply.pending["id"] if reply.pending else None
