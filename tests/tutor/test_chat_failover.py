"""A chat process that never saw a frame's sign-in (the one serving it died; tests/deploy/test_failover.py) finds
the person by the app's session cookie and the conversation by the questions the frame shows — only theirs,
and only when every question on screen matches (else the next message starts a new conversation)."""

from __future__ import annotations

from types import SimpleNamespace

from agents.runtime.deps import process_deps
from agents.tutor import service
from core.markup import safe_markdown
from storage import sessions as app_sessions
from ui.chat_failover import conversation_on_screen, cookie_user


def _conversation(user, *questions: str) -> str:
    session_id = str(service.new_session(process_deps(), user).id)
    for question in questions:
        list(service.run_turn(process_deps(), user, question, session_id=session_id))
    return session_id


def _shown(*questions: str) -> list[dict]:
    """The frame's history as Gradio sends it back: typed parts, rendered questions, answers between."""
    return [
        turn
        for q in questions
        for turn in (
            {"role": "user", "content": [{"type": "text", "text": safe_markdown(q)}]},
            {"role": "assistant", "content": "…"},
        )
    ]


def test_the_conversation_on_screen_is_found_and_no_other(seeded_pool, james, lucia):
    older = _conversation(james, "How do I request a refund?", "Who approves refunds over 200 EUR?")
    _conversation(james, "How many weeks of parental leave do I get?")
    _conversation(lucia, "How do I request a refund?")
    assert (
        conversation_on_screen(james, _shown("How do I request a refund?", "Who approves refunds over 200 EUR?"))
        == older
    )
    assert conversation_on_screen(james, _shown("How do I request a refund?")) is None  # one question short
    assert conversation_on_screen(lucia, _shown("How many weeks of parental leave do I get?")) is None  # james's
    assert conversation_on_screen(james, []) is None


def test_the_person_is_the_session_cookies_while_it_lives(seeded_pool, james):
    with seeded_pool.connection() as conn:
        token = app_sessions.create_session(conn, james)
    assert cookie_user(SimpleNamespace(cookies={"skillnet_session": token})).email == james.email
    with seeded_pool.connection() as conn:
        app_sessions.revoke_session(conn, token)
    assert cookie_user(SimpleNamespace(cookies={"skillnet_session": token})) is None
    assert cookie_user(SimpleNamespace(cookies={})) is None and cookie_user(None) is None
