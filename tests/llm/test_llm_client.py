"""The LLM seam against a real HTTP fake OpenAI server: streaming, tools, JSON recovery, retries."""

from __future__ import annotations

import json
import logging
import time
from typing import Literal

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.tools import tool
from pydantic import BaseModel

from agents.llm import LLM, Structured, get_llm
from tests.fake_openai import Reply


class Intent(BaseModel):
    intent: Literal["question", "greeting", "ticket"]
    confidence: float = 0.5


def twin_intent() -> Intent:
    return Intent(intent="question", confidence=0.0)


@tool
def list_courses(status: str) -> str:
    """List the organisation's courses with the given status."""
    return status


@tool
def enroll_user(email: str, course: str) -> str:
    """Enroll a user in a course."""
    return email


def test_tokens_arrive_incrementally_with_usage(fake_openai):
    fake_openai.reply("Las vacaciones son veintidós días laborables.", token_delay=0.05)
    stream = get_llm().stream(
        "generator", [SystemMessage("Eres un tutor."), HumanMessage("¿Vacaciones?")], twin=lambda: "twin"
    )
    arrivals = []
    for token in stream:
        arrivals.append((time.perf_counter(), token))
    assert [token for _, token in arrivals] == ["Las ", "vacaciones ", "son ", "veintidós ", "días ", "laborables."]
    assert arrivals[-1][0] - arrivals[0][0] >= 0.2  # tokens came one by one, not in a single burst
    assert stream.text == "Las vacaciones son veintidós días laborables."
    assert stream.engine == "openai:gpt-4o-mini" and stream.outcome == "ok"
    assert stream.tokens_out == 6 and stream.tokens_in > 0  # from the server's usage chunk
    assert stream.ttft_ms is not None and stream.ttft_ms < stream.latency_ms
    request = fake_openai.chat_requests[-1]
    assert request["stream"] is True and request["stream_options"] == {"include_usage": True}
    assert request["messages"][0] == {"role": "system", "content": "Eres un tutor."}


def test_tool_call_parses(fake_openai):
    fake_openai.tool_call("list_courses", {"status": "active"})
    reply = get_llm().with_tools("admin", "Which courses are active?", [list_courses, enroll_user])
    assert reply is not None
    assert reply.tool_calls[0]["name"] == "list_courses"
    assert reply.tool_calls[0]["args"] == {"status": "active"}
    sent = {t["function"]["name"] for t in fake_openai.chat_requests[-1]["tools"]}
    assert sent == {"list_courses", "enroll_user"}


def test_streamed_tool_call_deltas_assemble(fake_openai):
    fake_openai.tool_call("enroll_user", {"email": "lucia@acme.test", "course": "Seguridad e higiene"})
    model = get_llm().chat_model("admin").bind_tools([enroll_user])
    message = None
    chunks = 0
    for chunk in model.stream("Enroll Lucía"):
        message = chunk if message is None else message + chunk
        chunks += 1
    assert chunks > 3  # the arguments arrived in pieces
    assert message.tool_calls[0]["name"] == "enroll_user"
    assert message.tool_calls[0]["args"] == {"email": "lucia@acme.test", "course": "Seguridad e higiene"}


def test_unknown_tool_name_goes_to_the_callers_twin(fake_openai):
    fake_openai.tool_call("drop_database", {})
    assert get_llm().with_tools("admin", "list courses", [list_courses]) is None
    assert len(fake_openai.chat_requests) == 1


def test_rate_limit_honours_retry_after(fake_openai):
    fake_openai.fault(429, retry_after=0.4).json({"intent": "greeting", "confidence": 0.9})
    started = time.perf_counter()
    result = get_llm().structured("classifier", "hola", Intent, twin_intent)
    assert time.perf_counter() - started >= 0.4
    assert result.value.intent == "greeting" and result.engine == "openai:gpt-4o-mini"
    assert len(fake_openai.chat_requests) == 2


def test_server_errors_retried_with_backoff(fake_openai):
    fake_openai.fault(500).fault(503).reply("Bien.")
    stream = get_llm().stream("generator", "¿Qué tal?", twin=lambda: "twin")
    assert "".join(stream) == "Bien."
    assert stream.attempts == 3 and len(fake_openai.chat_requests) == 3


def test_persistent_server_errors_fall_back_to_the_twin(fake_openai):
    fake_openai.fault(500, times=3)
    result = get_llm().structured("classifier", "hola", Intent, twin_intent)
    assert result.engine == "offline" and result.value == twin_intent()
    assert len(fake_openai.chat_requests) == 3  # Settings.attempts, then no more


def test_timeout_retried(fake_openai, monkeypatch):
    monkeypatch.setenv("LLM_TIMEOUT", "0.3")
    get_llm.cache_clear()
    fake_openai.slow(1.0).json({"intent": "ticket"})
    result = get_llm().structured("classifier", "my laptop is broken", Intent, twin_intent)
    assert result.value.intent == "ticket" and result.engine != "offline"
    assert len(fake_openai.chat_requests) == 2


@pytest.mark.parametrize("status", [400, 401, 403, 404])
def test_client_errors_never_retried(fake_openai, status):
    fake_openai.fault(status)
    stream = get_llm().stream("generator", "hola", twin=lambda: "Respuesta sin modelo.")
    assert list(stream) == ["Respuesta ", "sin ", "modelo."]
    assert stream.engine == "offline" and stream.outcome == "twin:error"
    assert len(fake_openai.chat_requests) == 1


def test_stream_cut_after_first_token_keeps_the_text_and_does_not_retry(fake_openai):
    fake_openai.reply("uno dos tres cuatro cinco", break_after=2)
    stream = get_llm().stream("generator", "cuenta", twin=lambda: "twin")
    assert "".join(stream) == "uno dos "
    assert stream.outcome == "truncated" and stream.engine == "openai:gpt-4o-mini"
    assert len(fake_openai.chat_requests) == 1


def test_stream_empty_answer_goes_to_the_twin(fake_openai):
    fake_openai.reply("")
    stream = get_llm().stream("generator", "hola", twin=lambda: "Hola, soy el tutor.")
    assert "".join(stream) == "Hola, soy el tutor." and stream.engine == "offline"


def test_json_mode_requested_and_schema_described(fake_openai):
    fake_openai.json({"intent": "greeting"})
    get_llm().structured("classifier", "hola", Intent, twin_intent)
    request = fake_openai.chat_requests[-1]
    assert request["response_format"] == {"type": "json_object"}
    assert "JSON" in request["messages"][-1]["content"] and "greeting" in request["messages"][-1]["content"]


def test_malformed_json_repaired_without_another_call(fake_openai):
    fake_openai.reply('Sure! {"intent": "ticket", "confidence": 0.8,')
    result = get_llm().structured("classifier", "Need a ticket (json)", Intent, twin_intent)
    assert result.value == Intent(intent="ticket", confidence=0.8) and result.engine != "offline"
    assert len(fake_openai.chat_requests) == 1


def test_fenced_json_parsed(fake_openai):
    fake_openai.reply('Here it is:\n```json\n{"intent": "greeting", "confidence": 1}\n```')
    result = get_llm().structured("classifier", "hi", Intent, twin_intent)
    assert result.value.intent == "greeting" and result.engine != "offline"


def test_unparseable_json_fixed_by_one_model_call(fake_openai):
    fake_openai.reply("I would say it is a greeting.").json({"intent": "greeting", "confidence": 0.7})
    result = get_llm().structured("classifier", "hi", Intent, twin_intent)
    assert result.value == Intent(intent="greeting", confidence=0.7) and result.engine != "offline"
    fix_request = fake_openai.chat_requests[1]
    assert "I would say it is a greeting." in fix_request["messages"][-1]["content"]


def test_unfixable_json_falls_back_to_the_twin(fake_openai):
    fake_openai.reply("no idea").reply("still no idea")
    result = get_llm().structured("classifier", "hi", Intent, twin_intent)
    assert result.engine == "offline" and result.value == twin_intent()
    assert len(fake_openai.chat_requests) == 2  # the answer, one fix attempt, then the twin


def test_out_of_enum_value_rejected_for_the_twin(fake_openai):
    fake_openai.json({"intent": "delete_all_users", "confidence": 1.0})
    result = get_llm().structured("supervisor", "do it", Intent, twin_intent)
    assert result.engine == "offline" and result.value == twin_intent()
    assert len(fake_openai.chat_requests) == 1  # valid JSON saying something invalid is not "fixed"


def test_base_url_without_key_is_enough(fake_openai, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")
    get_llm.cache_clear()
    llm = get_llm()
    assert not llm.offline
    assert "".join(llm.stream("generator", "ping", twin=lambda: "twin")) == "Echo: ping"
    assert llm.settings.api_key == "not-needed"


def test_one_json_log_line_per_call(fake_openai, caplog):
    fake_openai.reply("Hola.")
    with caplog.at_level(logging.INFO, logger="skillnet.llm"):
        "".join(get_llm().stream("summarizer", "resume", twin=lambda: "twin"))
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "skillnet.llm"]
    assert len(lines) == 1
    assert {
        "role": "summarizer",
        "model": "gpt-4o-mini",
        "engine": "openai:gpt-4o-mini",
        "outcome": "ok",
        "attempts": 1,
    }.items() <= lines[0].items()
    assert lines[0]["tokens_out"] == 1 and lines[0]["latency_ms"] >= 0


def test_default_responder_hook(fake_openai):
    fake_openai.responder = lambda request: Reply(text=f"{len(request['messages'])} messages")
    assert "".join(get_llm().stream("generator", [("system", "s"), ("human", "h")], twin=str)) == "2 messages"


def test_offline_when_nothing_is_configured():
    get_llm.cache_clear()
    llm = get_llm()
    assert llm.offline and llm.engine == "offline" and llm.chat_model("generator") is None
    assert llm.structured("classifier", "hola", Intent, twin_intent) == Structured(twin_intent(), "offline", "offline")
    stream = llm.stream("generator", "hola", twin=lambda: "Hola, ¿qué tal?")
    assert list(stream) == ["Hola, ", "¿qué ", "tal?"] and stream.engine == "offline"
    assert stream.tokens_out > 0
    assert llm.with_tools("admin", "x", [list_courses]) is None


def test_from_model_wraps_a_scripted_model():
    llm = LLM.from_model(FakeListChatModel(responses=['{"intent": "ticket"}', "Respuesta del modelo."]))
    assert not llm.offline
    result = llm.structured("classifier", "help", Intent, twin_intent)
    assert result.value.intent == "ticket" and result.engine != "offline"
    stream = llm.stream("generator", "hola", twin=lambda: "twin")
    assert "".join(stream) == "Respuesta del modelo." and stream.engine != "offline"


def test_stream_timeout_before_the_first_token_is_retried(fake_openai, monkeypatch):
    monkeypatch.setenv("LLM_TIMEOUT", "0.3")
    get_llm.cache_clear()
    fake_openai.slow(1.0).reply("A tiempo.")
    stream = get_llm().stream("generator", "hola", twin=lambda: "twin")
    assert "".join(stream) == "A tiempo." and stream.attempts == 2 and stream.outcome == "ok"


def test_answer_deadline_holds_while_the_server_keeps_a_queued_request_alive(fake_openai):
    # llama.cpp holds a request behind another and sends keep-alive pings: no read timeout ever fires
    fake_openai.queued(8.0, "Demasiado tarde.")
    started = time.perf_counter()
    stream = get_llm().stream("generator", "hola", twin=lambda: "Respuesta sin modelo.", deadline_s=1.0)
    assert "".join(stream) == "Respuesta sin modelo."
    assert stream.outcome == "twin:timeout" and stream.engine == "offline"
    assert time.perf_counter() - started < 4.0


def test_server_without_json_mode_gets_a_plain_request(fake_openai):
    fake_openai.push(
        Reply(
            status=400,
            body=json.dumps({"error": {"message": "Unrecognized request argument supplied: response_format"}}),
        )
    )
    fake_openai.json({"intent": "ticket"}).json({"intent": "greeting"})
    llm = get_llm()
    assert llm.structured("classifier", "help", Intent, twin_intent).value.intent == "ticket"
    assert llm.structured("classifier", "hi", Intent, twin_intent).value.intent == "greeting"
    assert [("response_format" in r) for r in fake_openai.chat_requests] == [True, False, False]


def test_unreachable_server_retries_then_twin(fake_openai, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens on port 9
    get_llm.cache_clear()
    stream = get_llm().stream("generator", "hola", twin=lambda: "Sin conexión.")
    assert "".join(stream) == "Sin conexión." and stream.engine == "offline" and stream.attempts == 3


def test_reader_leaving_early_is_logged_as_cancelled(fake_openai, caplog):
    fake_openai.reply("uno dos tres cuatro cinco seis siete", token_delay=0.02)
    stream = get_llm().stream("generator", "cuenta", twin=lambda: "twin")
    with caplog.at_level(logging.INFO, logger="skillnet.llm"):
        tokens = iter(stream)
        assert next(tokens) == "uno "
        tokens.close()
    assert stream.outcome == "cancelled" and stream.text == "uno "
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "skillnet.llm"]
    assert [line["outcome"] for line in lines] == ["cancelled"]


def test_empty_structured_answer_goes_straight_to_the_twin(fake_openai):
    fake_openai.reply("")
    result = get_llm().structured("classifier", "hi", Intent, twin_intent)
    assert result.engine == "offline" and len(fake_openai.chat_requests) == 1
