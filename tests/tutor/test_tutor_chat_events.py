"""The chat draws a finished answer from its turn's events alone: Done carries the final text and its
language, Citations the excerpts and what the source viewer opens (real PostgreSQL, the fake OpenAI
server over HTTP)."""

from __future__ import annotations

import json

from agents.tutor import service
from core.turns import Citations, Done, Error, Grounding, Token, as_json
from storage import chat
from storage import sessions as app_sessions
from tests.conftest import make_deps
from tests.fake_openai import Reply
from tests.tutor.conftest import by_name, run
from ui.chat_render import StreamedAnswer, render_answer, source_choices

APP = "http://app.test"
QUESTION = "How many days does a customer have to return a product?"


def _answer_with_a_citation(fake):
    def responder(request):
        if (request.get("response_format") or {}).get("type") == "json_object":
            return Reply(text=json.dumps({"intent": "cross_course"}))
        return Reply(text="Customers have 30 days to return a product [1].")

    fake.responder = responder


def _stored_answer(pool, user):
    with pool.connection() as conn:
        session = chat.list_sessions(conn, user.org_id, user.id, "tutor")[0]
        return session, chat.list_messages(conn, user.org_id, session.id)[-1]


def test_the_answer_and_its_sources_are_drawn_from_the_events_without_the_stored_message(
    seeded_pool, james, fake_openai
):
    _answer_with_a_citation(fake_openai)
    events, _ = run(james, QUESTION, seeded_pool)
    session, saved = _stored_answer(seeded_pool, james)
    stored_html = render_answer(saved.content, saved.metadata, saved.metadata["language"], APP)
    done = by_name(events, Done)
    assert (done.text, done.language) == (saved.content, "en")
    [cited] = by_name(events, Citations).citations
    assert cited["excerpt"] and cited["excerpt"] == saved.metadata["citations"][0]["excerpt"]
    assert cited["source_type"] and cited["source_id"]  # what the source viewer opens

    with seeded_pool.connection() as conn:  # the stored answer is gone: only the events are left
        chat.delete_session(conn, james.org_id, james.id, session.id)
    shown = StreamedAnswer()
    for event in events:
        shown.take(event)
    drawn = shown.html(APP)
    assert drawn == stored_html  # what reopening the conversation would show
    assert "30 days" in drawn and "[1]" in drawn and cited["excerpt"][:40] in drawn
    assert f"{APP}/source_viewer?" in drawn and "offline" not in drawn  # the viewer link; the model's engine badge
    assert shown.sources() == source_choices(saved.metadata) and shown.sources()[0][0].startswith("[1] ")


def test_the_chats_final_message_is_the_one_the_events_draw(seeded_pool, james, fake_openai):
    from ui import chat_turn

    _answer_with_a_citation(fake_openai)
    with seeded_pool.connection() as conn:
        signed_in = {"session": app_sessions.create_session(conn, james)}
    updates = list(chat_turn.respond(QUESTION, [], signed_in, None, {"app": APP}))
    # James takes the returns course in guided mode: the tutor asks first, "Just tell me" gets the answer
    chatbot, session = updates[-1][0], updates[-1][1]
    assert "🤔" in chatbot[-1]["content"] and "30 days" not in chatbot[-1]["content"]
    updates = list(chat_turn.respond("Just tell me", chatbot, signed_in, session, {"app": APP}))
    chatbot, (_, _, sources, _) = updates[-1][0], updates[-1][-1]
    _, saved = _stored_answer(seeded_pool, james)
    assert chatbot[-1]["content"] == render_answer(saved.content, saved.metadata, "en", APP)
    assert sources["choices"] == source_choices(saved.metadata) and sources["visible"] is True
    assert [m["role"] for m in chatbot] == ["user", "assistant"] * 2 and "30 days" in chatbot[-1]["content"]


def test_a_guiding_question_is_announced_as_one_and_the_status_line_names_no_document(seeded_pool, james, fake_openai):
    """James takes the returns course in guided mode: the tutor asks first. The Grounding says so (it was sent
    before the guided decision), and the line under the chat shows no "Company document" badge while the
    question streams, as the finished message shows none."""
    from ui import chat_turn

    _answer_with_a_citation(fake_openai)
    with seeded_pool.connection() as conn:
        signed_in = {"session": app_sessions.create_session(conn, james)}
    updates = list(chat_turn.respond(QUESTION, [], signed_in, None, {"app": APP}))
    assert "🤔" in updates[-1][0][-1]["content"]  # the guiding question
    assert [status for _, _, status, _ in updates] == [""] * len(updates)
    with seeded_pool.connection() as conn:
        session = chat.list_sessions(conn, james.org_id, james.id, "tutor")[0]
    asked, _ = run(james, QUESTION, seeded_pool, session_id=service.new_session(make_deps(seeded_pool), james).id)
    assert by_name(asked, Done).guided == by_name(asked, Grounding).guided == "ask"
    events, _ = run(james, "Just tell me", seeded_pool, session_id=session.id)  # the answer: its document named
    assert by_name(events, Grounding).guided is None and by_name(events, Grounding).rung == "chunks"


def test_the_cli_prints_each_event_in_its_wire_form():
    """`ask --json`'s lines: unset optional fields left out (as the dicts the tutor yielded before left them)."""
    assert as_json(Grounding("chunks", "semantic")) == {
        "event": "grounding",
        "data": {"rung": "chunks", "source": "semantic"},
    }
    assert as_json(Token("30 días")) == {"event": "token", "data": {"content": "30 días"}}
    assert as_json(Error("Espera 3 s.", "RATE_LIMITED", retry_after=3)) == {
        "event": "error",
        "data": {"message": "Espera 3 s.", "code": "RATE_LIMITED", "retry_after": 3},
    }
    done = Done("m1", "Text [1].", "en", 0, "semantic", 5, 7, None, "offline", False, hint_level=2)
    assert json.dumps(as_json(done)) == (
        '{"event": "done", "data": {"message_id": "m1", "text": "Text [1].", "language": "en", "tokens_used": 0, '
        '"retrieval_source": "semantic", "retrieval_latency_ms": 5, "generation_latency_ms": 7, "ttft_ms": null, '
        '"engine": "offline", "low_confidence": false, "hint_level": 2}}'
    )
