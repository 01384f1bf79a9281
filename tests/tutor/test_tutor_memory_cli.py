"""Conversation memory (raw recent turns + a summary rebuilt per aged-out batch) and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from agents.llm import get_llm
from agents.llm.memory import RAW_TURNS, SUMMARY_BATCH, prepare_history
from storage import chat


def _session_with(conn, user, n: int):
    session = chat.create_session(conn, user.org_id, user.id, "tutor")
    for i in range(n):
        chat.add_message(
            conn,
            user.org_id,
            session.id,
            "user" if i % 2 == 0 else "assistant",
            f"question about topic {i}" if i % 2 == 0 else f"answer {i}",
        )
    return session


def _reload(conn, user, session_id):
    return chat.get_session(conn, user.org_id, user.id, session_id)


def test_summary_is_rebuilt_only_when_a_batch_ages_out(seeded_pool, james):
    llm = get_llm()
    pool = seeded_pool  # prepare_history reads and writes on connections of its own, around the model call

    def reload():
        with pool.connection() as conn:
            return _reload(conn, james, session.id)

    with pool.connection() as conn:
        session = _session_with(conn, james, RAW_TURNS + SUMMARY_BATCH - 1)
    recent, summary = prepare_history(pool, llm, james.org_id, session, "en", 2000)
    assert summary is None and len(recent) == RAW_TURNS + SUMMARY_BATCH - 1
    with pool.connection() as conn:
        chat.add_message(conn, james.org_id, session.id, "assistant", "answer 11")
    recent, summary = prepare_history(pool, llm, james.org_id, reload(), "en", 2000)
    assert len(recent) == RAW_TURNS and recent[-1]["content"] == "answer 11"
    assert "question about topic 0" in summary and "question about topic 6" not in summary
    cached = reload()
    assert cached.summary == summary and cached.summary_turn_count == SUMMARY_BATCH
    with pool.connection() as conn:
        chat.add_message(conn, james.org_id, session.id, "user", "question about topic 12")
    recent, again = prepare_history(pool, llm, james.org_id, reload(), "en", 2000)
    assert again == summary and len(recent) == RAW_TURNS + 1  # no new batch yet: cached summary
    recent, _ = prepare_history(pool, llm, james.org_id, reload(), "en", 12)
    assert len(recent) < RAW_TURNS  # the token budget trims raw turns


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "agents.tutor", "ask", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ),
    )


def test_cli_prints_json_events_and_one_line_errors(seeded_pool):
    done = _cli("hello", "--user", "james@acme.test", "--json")
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert events[0]["event"] == "grounding" and events[-1]["event"] == "done"
    assert "".join(e["data"]["content"] for e in events if e["event"] == "token").startswith("Hi James")
    failed = _cli("hola", "--user", "lucia@acme.test", "--course", "Nope")
    assert failed.returncode != 0 and failed.stderr.strip() == "error: Curso no encontrado: Nope.", failed.stderr
