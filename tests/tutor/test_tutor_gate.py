"""The tutor's output gate through the real HTTP fake server: each misbehaviour a small model shows
is caught, the twin's answer replaces it (stored, streamed after a ``fallback`` event), and ``done``
says which engine answered and why the model's answer was rejected."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from agents.llm.memory import budgets_for
from agents.runtime.deps import process_embedder
from agents.tutor.gate import AnswerGate, repeated_phrase, unsupported_sentences
from core.turns import Citations, Done, Fallback, Token
from storage import chat, users
from tests.fake_openai import Reply
from tests.tutor.conftest import by_name, passage, run

QUESTION_EN = "How many days does a customer have to return a product?"
QUESTION_ES = "¿Cuántos días tiene un cliente para devolver un producto?"


def _answer_with(fake, script):
    """The classifier says cross_course; the generator's reply is ``script(request)``."""

    def responder(request):
        if (request.get("response_format") or {}).get("type") == "json_object":
            return Reply(text=json.dumps({"intent": "cross_course"}))
        return script(request)

    fake.responder = responder


def _stored(pool, user):
    with pool.connection() as conn:
        session = chat.list_sessions(conn, user.org_id, user.id, "tutor")[0]
        return chat.list_messages(conn, user.org_id, session.id)[-1]


def _after_fallback(events) -> str:
    start = [type(e) for e in events].index(Fallback)
    return "".join(e.text for e in events[start:] if isinstance(e, Token))


@pytest.mark.parametrize(
    "reason, script",
    [
        ("loop", lambda r: Reply(text=" ".join(["Returns are important for the company."] * 80))),
        ("no_citation", lambda r: Reply(text="Customers can return products within a reasonable time.")),
        ("length", lambda r: Reply(text="Customers have 30 days to return a product [1] and", finish_reason="length")),
        (
            "language",
            lambda r: Reply(
                text="Los clientes tienen treinta días para devolver un producto sin "
                "ningún problema, siempre que conserven el ticket de compra y el "
                "embalaje original del artículo [1]."
            ),
        ),
    ],
)
def test_a_bad_model_answer_is_replaced_by_the_twin(seeded_pool, james, fake_openai, reason, script):
    _answer_with(fake_openai, script)
    events, _ = run(james, QUESTION_EN, seeded_pool)
    done = by_name(events, Done)
    assert done.fallback == reason and done.engine == "offline"
    notice = by_name(events, Fallback)
    assert notice.reason == reason and "model" in notice.message
    replacement = _after_fallback(events)
    saved = _stored(seeded_pool, james)
    assert saved.content == replacement and "[1]" in replacement  # the extractive twin cites its passage
    assert saved.metadata["fallback"] == reason and saved.metadata["engine"] == "offline"
    assert [c["index"] for c in by_name(events, Citations).citations]


def test_max_tokens_comes_from_the_budget(seeded_pool, james, fake_openai):
    _answer_with(fake_openai, lambda r: Reply(text="Customers have 30 days to return a product [1]."))
    events, _ = run(james, QUESTION_EN, seeded_pool)
    generator = [r for r in fake_openai.chat_requests if not r.get("response_format")][-1]
    assert generator["max_tokens"] == budgets_for("openai:gpt-4o-mini", 128_000)["generation_reserve"] != 2000
    done = by_name(events, Done)
    assert done.engine == "openai:gpt-4o-mini" and done.fallback is None and done.low_confidence is False


def test_a_loop_is_cut_while_streaming(seeded_pool, james, fake_openai):
    _answer_with(fake_openai, lambda r: Reply(text=" ".join(["Returns matter a lot here."] * 400)))
    events, _ = run(james, QUESTION_EN, seeded_pool)
    before = "".join(e.text for e in events[: [type(e) for e in events].index(Fallback)] if isinstance(e, Token))
    assert by_name(events, Done).fallback == "loop"
    model_words = before.split()
    assert len(model_words) < 40  # stopped after a few repeats, not after 2,000 words


def test_one_token_a_second_runs_into_the_deadline(seeded_pool, lucia, fake_openai, monkeypatch):
    monkeypatch.setenv("LLM_ANSWER_SECONDS", "2")
    from agents.llm import get_llm

    get_llm.cache_clear()
    _answer_with(fake_openai, lambda r: Reply(text="Los clientes tienen treinta días [1] " * 5, token_delay=1.0))
    events, _ = run(lucia, QUESTION_ES, seeded_pool)
    done = by_name(events, Done)
    assert done.fallback == "timeout" and done.generation_latency_ms < 10_000
    assert "modelo" in by_name(events, Fallback).message  # the notice is in the learner's language


def test_a_figure_missing_from_the_passages_sets_low_confidence(seeded_pool, james, fake_openai):
    _answer_with(
        fake_openai,
        lambda r: Reply(
            text="Customers have 30 days to return a product [1]. Refunds are paid within 97 business days [1]."
        ),
    )
    events, text = run(james, QUESTION_EN, seeded_pool)
    done = by_name(events, Done)
    assert done.fallback is None and done.low_confidence is True
    assert _stored(seeded_pool, james).metadata["unsupported"] == ["Refunds are paid within 97 business days."]


def test_gate_units():
    assert repeated_phrase("a b c d e f a b c d e f a b c d e f".split())
    assert not repeated_phrase("customers have thirty days to return a product with the receipt".split())
    gate = AnswerGate(language="en", max_tokens=20, needs_citation=True)
    assert gate.feed(" ".join(f"word{i}" for i in range(30))) == "length"
    passages = [passage(1, "Customers have 30 days to return a product with the receipt.")]
    embedder = process_embedder()
    assert unsupported_sentences("Customers have 30 days to return a product [1].", passages, [1], embedder) == []
    assert unsupported_sentences("They have 45 days [1].", passages, [1], embedder) == ["They have 45 days."]


def test_cli_json_done_carries_engine_and_fallback(seeded_pool, fake_openai):
    _answer_with(fake_openai, lambda r: Reply(text=" ".join(["Returns are important."] * 80)))
    with seeded_pool.connection() as conn:  # James takes the returns course in guided mode: the tutor asks first
        user = users.get_user_by_email(conn, "james@acme.test")
        session = chat.create_session(conn, user.org_id, user.id, "tutor").id
    for message in (QUESTION_EN, "Just tell me"):
        done = subprocess.run(
            [sys.executable, "-m", "agents.tutor", "ask", message, "--user", user.email, "--session", str(session)]
            + ["--json"],
            capture_output=True,
            text=True,
            timeout=300,
            env=dict(os.environ),
        )
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert events[-1]["event"] == "done"
    assert events[-1]["data"]["engine"] == "offline" and events[-1]["data"]["fallback"] == "loop"
