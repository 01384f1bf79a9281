"""The tutor's conversations list shows conversations with something in them (issue 29): the chat starts a
conversation before its first message is sent, and when that message never arrives (refused by the rate limit,
or the learner gone) it stayed in the list as "…" — 80 of 197 entries in a bench database. A conversation with
a message, or one its owner named, is always listed."""

from __future__ import annotations

from agents.tutor import service
from core.turns import Error
from storage import rate_limits, users
from tests.conftest import make_deps
from tests.people import upsert_user


def test_a_conversation_whose_first_message_never_arrived_is_not_listed(seeded_pool):
    deps = make_deps(seeded_pool)
    with seeded_pool.connection() as conn:
        org = users.get_user_by_email(conn, "lucia@acme.test").org_id
        learner = upsert_user(
            conn, org, email="listed@acme.test", full_name="Ana Lista", role="employee", password="x", language="es"
        )
    answered = service.new_session(deps, learner)
    list(service.run_turn(deps, learner, "¿Qué hace el onboarding buddy?", session_id=answered.id))
    named = service.new_session(deps, learner)
    service.rename_session(deps, learner, named.id, "Mis dudas de la semana")
    abandoned = service.new_session(deps, learner)  # opened, nothing sent
    refused = service.new_session(deps, learner)
    with seeded_pool.connection() as conn:
        while rate_limits.take(conn, learner.id, "tutor.message", service.RATE_LIMIT_PER_MINUTE, 60) is None:
            pass
    [error] = list(service.run_turn(deps, learner, "¿Y el periodo de prueba?", session_id=refused.id))
    assert isinstance(error, Error) and error.code == "RATE_LIMITED"

    listed = {s.id: s.title for s in service.conversation_titles(deps, learner)}
    assert set(listed) == {answered.id, named.id}, listed
    assert listed[answered.id] == "¿Qué hace el onboarding buddy?" and listed[named.id] == "Mis dudas de la semana"
    # the home page's recent chats read the same list
    assert [s.id for s in service.list_sessions(deps, learner)] == list(listed)
    # nothing is lost: the empty ones still open, and the refused one is listed once its message is answered
    assert service.session_messages(deps, learner, abandoned.id) == []
    list(service.run_turn(deps, learner, "¿Y el periodo de prueba?", session_id=refused.id, rate_limit=1_000_000))
    assert refused.id in {s.id for s in service.conversation_titles(deps, learner)}
