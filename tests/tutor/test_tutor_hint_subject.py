"""A hint is about the exercise on screen, whatever the learner's message retrieves: one exercise of each
type, asked "I'm stuck" (which finds other sections: phishing beside an account-sharing dialogue, the
title block beside a phone standard). Level 1 names the exercise and the section its source sentence
sits under; level 2 cites that section of the exercise's own source chunk and quotes the source
sentence with the answer blanked, never the answer."""

from __future__ import annotations

import pytest

from agents.learning import service as learning
from agents.tutor.guardrails import find_leaks
from core.turns import Citations
from storage import attempts, users
from storage.exercises import revealing_texts
from tests.conftest import make_deps
from tests.tutor.conftest import by_name, run

# (type, who, the exercise's prompt or statement starts with, the section its source sentence is under)
EXERCISES = [
    ("dialogue", "lucia", "Un cliente llama muy molesto", "7. Pedidos retrasados o incidencias de entrega"),
    ("fill_blank", "lucia", "Completa el estándar telefónico", "2. Estándares de servicio"),
    ("order_steps", "james", "Put the steps for reporting a security incident", "8. Reporting security incidents"),
    ("practical_case", "lucia", "¿Qué debe hacer Diego?", "4.3 Hojas de reclamaciones"),
    ("test", "james", "What is the minimum password length", "4.1 Password standard (POL-SEC-004)"),
    ("true_false", "james", "The IT Service Desk may ask for your password", "4.1 Password standard (POL-SEC-004)"),
]
STUCK = {"lucia": "No sé cómo seguir, ¿me das una pista?", "james": "I'm stuck, can you give me a hint?"}


def _exercise(conn, kind: str, start: str):
    row = conn.execute(
        """SELECT id, content, source_chunk_ids FROM exercises
           WHERE type = %(kind)s AND (prompt LIKE %(start)s OR content->>'statement' LIKE %(start)s)""",
        {"kind": kind, "start": start + "%"},
    ).fetchone()
    assert row is not None, (kind, start)
    return row


@pytest.mark.parametrize(("kind", "who", "start", "section"), EXERCISES, ids=[e[0] for e in EXERCISES])
def test_the_hint_is_about_the_exercise_on_screen(seeded_pool, kind, who, start, section):
    with seeded_pool.connection() as conn:
        learner = users.get_user_by_email(conn, f"{who}@acme.test")
        exercise_id, content, source_chunks = _exercise(conn, kind, start)
        attempts.abandon_attempts(conn, learner.org_id, learner.id)
    learning.open_exercise(make_deps(seeded_pool), learner, exercise_id)
    answer = {"type": kind, "content": content, "correct_texts": revealing_texts(kind, content)}
    try:
        events, first = run(learner, STUCK[who], seeded_pool, from_exercise=str(exercise_id))
        assert start in first and (f"{section}»" in first or f"{section}”" in first), first
        assert not by_name(events, Citations).citations  # level 1 points at no passage yet

        events, second = run(learner, STUCK[who], seeded_pool, from_exercise=str(exercise_id))
        [cited, *_] = by_name(events, Citations).citations
        assert cited["section"].endswith(section) and cited["source_id"] in {str(c) for c in source_chunks}, cited
        body = second.split("\n\n", 1)[1]  # the "Hint 2 of 3" header is ours
        assert find_leaks(body, answer) == [], body
    finally:
        with seeded_pool.connection() as conn:
            attempts.abandon_attempts(conn, learner.org_id, learner.id)
