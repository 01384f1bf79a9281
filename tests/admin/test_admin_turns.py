"""A turn as the page lives it: events while it runs (the tool starting, the reply token by token, a
refused model reply replaced), tokens used recorded per message, and the tutor's summary memory so a
long session keeps its beginning."""

from __future__ import annotations

from agents.llm import LLM, Settings
from core.turns import Replace, Step, Token
from storage import chat
from tests.fake_openai import Reply


def _written(events: list) -> str:
    return "".join(e.text for e in events if isinstance(e, Token))


def _events(turn, message: str, **kwargs):
    events: list = []
    reply = turn(message, on_event=events.append, **kwargs)
    return reply, events


def test_offline_the_tool_starts_then_the_reply_streams_token_by_token(turn):
    reply, events = _events(turn, "¿Quién tiene cursos vencidos?")
    assert events[0] == Step("get_alerts", "🔧 alertas…")
    assert len([e for e in events if isinstance(e, Token)]) > 10 and _written(events) == reply.response
    assert reply.tokens_used == 0


def test_a_model_reply_streams_and_a_refused_one_is_replaced_on_screen(fake_openai, turn, seeded_pool, admin):
    fake_openai.tool_call("who_knows", {"skill_name": "Oracle Financials"}).reply(
        "Isabel Vega and Ryan Mitchell know it."
    )
    reply, events = _events(turn, "who knows Oracle Financials?")
    assert _written(events) == reply.response == "Isabel Vega and Ryan Mitchell know it."
    assert reply.tokens_used > 0
    with seeded_pool.connection() as conn:
        stored = chat.list_messages(conn, admin.org_id, reply.session)[-1]
    assert stored.metadata["tokens_used"] == reply.tokens_used  # recorded per message

    fake_openai.tool_call("who_knows", {"skill_name": "Oracle Financials"}).reply("Zoltan Kovacs knows it, 42 years.")
    reply, events = _events(turn, "who knows Oracle Financials?")
    assert "Zoltan" in _written(events)  # shown while it was written…
    assert events[-1] == Replace(reply.response) and "Zoltan" not in reply.response  # …then replaced
    assert reply.fallback == "ungrounded" and "Isabel Vega" in reply.response


def test_after_many_messages_the_model_still_gets_the_sessions_beginning(fake_openai, turn):
    offline = LLM(Settings())
    first = turn("perfil de James", llm=offline)
    for message in [
        "alertas",
        "lista de empleados",
        "brechas de habilidades",
        "sugerencias de mentores",
        "matriz de habilidades",
    ]:
        turn(message, first.session, llm=offline)  # 12 messages stored: the first six age out
    fake_openai.push(
        Reply(text="The admin first opened James Carter's profile, then the alerts."),  # summary
        Reply(text="We started with James Carter's profile."),
    )  # plan
    turn("¿De qué hablamos al principio?", first.session)
    summarising, planning = fake_openai.chat_requests[0], fake_openai.chat_requests[1]
    assert "perfil de James" in str(summarising["messages"])
    assert "perfil de James" not in str(planning["messages"])  # not as a raw turn any more…
    assert "James Carter's profile" in str(planning["messages"])  # …but through the summary


def test_a_request_it_cant_place_says_so_before_listing_what_it_does(turn):
    unplaced = turn("How is the quarterly budget looking?").response
    assert (
        unplaced.startswith("I couldn't match that to something I can do here.") and "I can list employees" in unplaced
    )
    asked = turn("what can you do?").response  # asked for: the list alone
    assert asked.startswith("I can list employees")


def test_a_persons_record_says_whether_the_account_works_and_keeps_title_and_department_apart(turn):
    record = turn("¿Sigue activo James Carter?").response
    assert "cuenta activa" in record and " · " in record.split("Cursos:")[0], record
