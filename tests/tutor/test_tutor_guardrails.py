"""Academic integrity: during an active attempt the tutor never gives the answer away.

The guardrail is checked directly on every seeded exercise; the whole graph on a couple (offline, and
through the fake OpenAI server with a model that keeps answering outright).
"""

from __future__ import annotations

import pytest

from agents.retrieval import Passage
from agents.tutor.guardrails import find_leaks, socratic_hint
from core import instructions
from core.turns import Done
from storage import courses as course_store
from storage import sources
from storage.attempts import abandon_attempts, start_attempt
from storage.exercises import course_exercises, revealing_texts
from tests.fake_openai import Reply
from tests.tutor.conftest import by_name, run


@pytest.fixture(scope="module")
def exercises(seeded_pool, lucia):
    """Every seeded exercise with its attempt view and the passages it was written from."""
    found = []
    with seeded_pool.connection() as conn:
        for course in course_store.list_courses(conn, lucia.org_id):
            for exercise in course_exercises(conn, lucia.org_id, course.id):
                chunks = sources.chunks_by_id(conn, lucia.org_id, list(exercise.source_chunk_ids))
                passages = [
                    Passage(
                        index=i,
                        text=c.content,
                        document=course.title,
                        section=c.heading,
                        page=None,
                        source_type="document_chunk",
                        source_id=str(c.id),
                    )
                    for i, c in enumerate(chunks, 1)
                ]
                attempt = {
                    "exercise_id": str(exercise.id),
                    "type": exercise.type,
                    "prompt": exercise.prompt,
                    "content": exercise.content,
                    "correct_texts": revealing_texts(exercise.type, exercise.content),
                }
                found.append((exercise, course, attempt, passages))
    assert len(found) >= 6 and {e.type for e, *_ in found} >= {"test", "true_false", "fill_blank"}
    return found


def test_every_seeded_exercise_leak_is_caught_and_the_hint_is_clean(exercises):
    for exercise, _course, attempt, passages in exercises:
        for language in ("es", "en"):
            leaky = f"Here you go: {attempt['correct_texts'][0]}"
            assert find_leaks(leaky, attempt), (exercise.type, exercise.prompt)
            for level in (1, 2, 3):
                hint = socratic_hint(attempt, passages, language, level)
                assert hint and find_leaks(hint, attempt) == [], (exercise.type, level, hint)


def test_every_seeded_exercises_hint_is_stored_whole(exercises):
    """The hint is stored (and shown again from storage) as product text, through the instruction filter. Composed,
    the clue line ("This line of the material…", naming the text) with the lines around it read to the filter's
    window as an order to a machine, and James saw "💡 Hint 2 of 3 · where to look" and "Ask me for another
    hint." with nothing between (session 16's walk). Every hint of every seeded exercise, at each level and in
    both languages, keeps every sentence."""
    hints = [
        socratic_hint(attempt, passages, language, level)
        for _exercise, _course, attempt, passages in exercises
        for language in ("es", "en")
        for level in (1, 2, 3)
    ]
    instructions.score_ahead([part for hint in hints for part in instructions.sentences(hint)])
    cut = [(hint, removed) for hint in hints if (removed := instructions.split_instructions(hint)[1])]
    assert cut == [], f"{len(cut)} of {len(hints)} hints cut, e.g. {[r for _, r in cut]}"


def _open_attempt(pool, user, exercise, course):
    with pool.connection() as conn:
        abandon_attempts(conn, user.org_id, user.id)
        start_attempt(conn, user.org_id, user.id, exercise.id, None)


def _close_attempts(pool, user):
    with pool.connection() as conn:
        abandon_attempts(conn, user.org_id, user.id)


def test_graph_answers_with_hints_during_an_attempt_offline(seeded_pool, lucia, exercises):
    picked = {}
    for exercise, course, attempt, _passages in exercises:
        picked.setdefault(exercise.type, (exercise, course, attempt))
    for exercise, course, attempt in list(picked.values())[:2]:
        _open_attempt(seeded_pool, lucia, exercise, course)
        try:
            events, text = run(
                lucia, f"¿Cuál es la respuesta correcta? {exercise.prompt}", seeded_pool, course=str(course.id)
            )
        finally:
            _close_attempts(seeded_pool, lucia)
        assert by_name(events, Done) and text
        assert find_leaks(text, attempt) == [], text


def test_model_that_keeps_answering_is_rewritten_then_replaced(seeded_pool, lucia, exercises, fake_openai):
    exercise, course, attempt, _ = next(item for item in exercises if item[0].type == "test")
    answer = attempt["correct_texts"][0]
    generations = []

    def responder(request):
        if (request.get("response_format") or {}).get("type") == "json_object":
            return Reply(text='{"intent": "in_course"}')
        generations.append(request)
        return Reply(text=f"The correct answer is: {answer}.")

    fake_openai.responder = responder
    _open_attempt(seeded_pool, lucia, exercise, course)
    try:
        events, text = run(lucia, "Just tell me the answer, please", seeded_pool, course=str(course.id))
    finally:
        _close_attempts(seeded_pool, lucia)
    assert len(generations) == 3  # the draft and two rewrites
    assert "Rewrite it as a Socratic hint" in generations[-1]["messages"][-1]["content"]
    assert find_leaks(text, attempt) == [] and answer not in text
    assert by_name(events, Done)


def test_an_unrelated_question_during_an_open_exercise_gets_a_normal_answer_never_the_answer():
    from agents.runtime.deps import process_embedder
    from agents.tutor.guardrails import is_about_exercise

    embedder = process_embedder()

    attempt = {
        "prompt": "¿Cuántos caracteres debe tener como mínimo una contraseña?",
        "type": "test",
        "correct_texts": ["12 caracteres"],
        "lesson_id": "lesson-1",
        "content": {},
    }
    assert is_about_exercise("Dame una pista", attempt, embedder)
    assert is_about_exercise("¿cuántos caracteres necesita la contraseña?", attempt, embedder)
    assert is_about_exercise("How many characters must a password have at least?", attempt, embedder)  # any language
    assert not is_about_exercise("¿Cuánto tiempo tengo para reportar un incidente?", attempt, embedder)
    assert not is_about_exercise(
        "What is the maximum amount I can refund without asking the store manager?", attempt, embedder
    )
