"""Hint-only answers are the exception: only with the exercise on screen (or a question about it), graded
1 → 2 → 3, and never once the attempt has expired (30 minutes idle, injected clock) or was left.
Driven through the learner CLI and the tutor CLI, as QA would."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest

from agents.learning.__main__ import main as learning_cli
from agents.tutor.__main__ import main as tutor_cli
from agents.tutor.guardrails import find_leaks
from agents.tutor.service import ATTEMPT_MAX_IDLE
from core.turns import Done
from storage import chat
from storage.attempts import abandon_attempts, active_attempt
from storage.exercises import get_exercise, revealing_texts
from tests.tutor.conftest import by_name, run

OTHER_TOPIC = "What is the maximum amount I can refund without asking the store manager?"


def _json(capsys, cli, *argv) -> tuple[int, object]:
    code = cli(list(argv))
    out = capsys.readouterr().out
    return code, [json.loads(line) for line in out.splitlines() if line.strip()]


@pytest.fixture()
def james_exercise(seeded_pool, james, capsys):
    """A (preferably unanswered) closed-answer exercise of one of James's courses, opened through the learner CLI."""
    code, (courses,) = _json(capsys, learning_cli, "courses", "--user", james.email, "--json")
    assert code == 0 and courses
    listed = [
        x
        for course in courses
        for lesson in course["lessons"]
        for x in lesson["exercises"]
        if x["type"] in ("test", "true_false", "fill_blank")
    ]
    exercise = sorted(listed, key=lambda x: x["answered"])[0]
    code, (opened,) = _json(capsys, learning_cli, "start", exercise["exercise_id"], "--user", james.email, "--json")
    assert code == 0 and opened["attempt"] == "open"
    with seeded_pool.connection() as conn:
        found = get_exercise(conn, james.org_id, exercise["exercise_id"])
    yield found
    with seeded_pool.connection() as conn:
        abandon_attempts(conn, james.org_id, james.id)


def _tokens(events: list[dict]) -> str:
    """The streamed text of the CLI's JSON events."""
    return "".join(e["data"]["content"] for e in events if e["event"] == "token")


def _data(events: list[dict], name: str) -> dict:
    return next(e["data"] for e in events if e["event"] == name)


def test_open_attempt_hints_only_with_the_exercise_on_screen_then_expires(seeded_pool, james, james_exercise, capsys):
    answer_texts = revealing_texts(james_exercise.type, james_exercise.content)
    attempt = {"type": james_exercise.type, "content": james_exercise.content, "correct_texts": answer_texts}

    with seeded_pool.connection() as conn:  # James takes the returns course in guided mode: asked first
        session = str(chat.create_session(conn, james.org_id, james.id, "tutor").id)
    for message in (OTHER_TOPIC, "Just tell me"):
        code, events = _json(capsys, tutor_cli, "ask", message, "--user", james.email, "--session", session, "--json")
        assert code == 0
    text = _tokens(events)
    assert "Hint" not in text and "exercise" not in text.lower(), text  # a normal, grounded answer
    assert _data(events, "citations")["citations"]

    levels = []
    for _ in range(3):
        code, events = _json(
            capsys,
            tutor_cli,
            "ask",
            "I'm stuck, can you help?",
            "--user",
            james.email,
            "--from-exercise",
            str(james_exercise.id),
            "--json",
        )
        assert code == 0
        text = _tokens(events)
        levels.append(int(re.search(r"Hint (\d) of 3", text).group(1)))
        assert find_leaks(text, attempt) == [], text  # never the answer
        assert _data(events, "done")["hint_level"] == levels[-1]
    assert levels == [1, 2, 3]

    later = datetime.now(UTC) + ATTEMPT_MAX_IDLE + timedelta(minutes=1)
    with seeded_pool.connection() as conn:
        assert active_attempt(conn, james.org_id, james.id, now=later, max_idle=ATTEMPT_MAX_IDLE) is None
    events, text = run(james, "I'm stuck, can you help?", seeded_pool, from_exercise=str(james_exercise.id), now=later)
    assert "Hint" not in text and by_name(events, Done).hint_level is None, text


def test_a_question_about_the_exercise_from_the_tutor_page_still_gets_a_hint(seeded_pool, james, james_exercise):
    events, text = run(james, f"Give me a hint: {james_exercise.prompt}", seeded_pool)
    assert text.lstrip("* ").startswith("💡 Hint 1 of 3"), text


def test_learner_cli_refuses_bad_input_with_one_line(james, capsys):
    assert learning_cli(["start", "not-an-id", "--user", james.email]) == 2
    assert capsys.readouterr().err.strip() == "error: That exercise does not exist in your organisation."
    assert learning_cli(["answer", "x", "--user", james.email, "--answer", "{oops"]) == 2
    assert capsys.readouterr().err.startswith("error: The answer is not valid JSON")
    assert (
        tutor_cli(["ask", "hi", "--user", james.email, "--from-exercise", "nope"]) == 2
    )  # a refusal: the CLI contract
    assert "Exercise not found: nope." in capsys.readouterr().err
