"""A tutor that adapts to the learner (issue 29, spec 003): on a guided course the tutor asks first and waits
for the learner's guess (feedback on it, then the answer; "just tell me" gives the answer; a new question drops
the pending one), the support level comes from the learner's record, what helps is named where the question
touches a weak spot, the learner is told why; a direct course and a course they don't take get none of it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from uuid import uuid4

import pytest
from fsrs import Card, Rating, Scheduler

from agents.i18n import t
from agents.runtime.deps import process_embedder
from agents.tutor.adapt import (
    answering_in,
    exercise_level,
    guiding_question,
    named_by,
    question_kind,
    support_level,
)
from agents.tutor.answer_check import ranked_sentences
from agents.tutor.guardrails import find_leaks
from agents.tutor.guided import reply_to, verdict
from core.instructions import without_instructions
from core.turns import Citations, Done, Suggestions
from storage import chat, mastery
from storage.attempts import abandon_attempts, start_attempt
from storage.courses import course_id_by_title
from storage.exercises import course_exercises, revealing_texts
from tests.fake_openai import Reply
from tests.tutor.conftest import by_name, passage, run
from ui.chat_render import render_answer

SERVICE = "Atención al cliente de excelencia"  # Lucía's, with three wrong answers on the ACRE steps
RETURNS = "Returns and Refunds Essentials"  # James's
NOW = datetime(2026, 6, 1, tzinfo=UTC)


def _record(**fields) -> mastery.CourseMastery:
    found = {"first_tried": 0, "first_correct": 0, "recent": 0, "recent_wrong": 0, "cards": [], "weak_spots": []}
    return mastery.CourseMastery(**{**found, **fields})


def _card(days_since_review: int) -> dict:
    reviewed = NOW - timedelta(days=days_since_review)
    card, _ = Scheduler(learning_steps=(), enable_fuzzing=False).review_card(
        Card(card_id=1, due=reviewed), Rating.Good, reviewed
    )
    return dict(card.to_dict())


def test_support_level_counts_wrong_answers_first_tries_and_fading_reviews():
    assert support_level(_record(), NOW) == (1, [])  # no record: a question to think about
    strong = support_level(_record(first_tried=6, first_correct=5, recent=6, recent_wrong=1, cards=[_card(1)]), NOW)
    assert strong == (1, [("first_tries", {"right": 5, "of": 6})])
    assert support_level(_record(recent=6, recent_wrong=2), NOW)[0] == 2
    struggling = _record(first_tried=4, first_correct=1, recent=6, recent_wrong=3, cards=[_card(60), _card(1)])
    level, signals = support_level(struggling, NOW)
    assert level == 3 and [code for code, _ in signals] == ["recent_wrong", "first_tries", "fading"]
    assert support_level(_record(cards=[_card(1), _card(2)]), NOW)[0] == 1  # fresh reviews are not fading


@pytest.mark.parametrize(
    "message, kind",
    [
        ("¿Cuántos días tengo para devolver un producto?", "number"),
        ("How long must a password be?", "number"),
        ("How long do I have to report an incident?", "when"),
        ("¿En cuánto tiempo hay que responder un correo?", "when"),
        ("¿Puedo devolver un producto sin ticket?", "permission"),
        ("What should I do if I click a suspicious link?", "steps"),
        ("¿Qué es el método ACRE?", "define"),
        ("Why do we summarise what the customer says?", "why"),
    ],
)
def test_the_guiding_question_follows_what_is_asked(message, kind):
    assert question_kind(message) == kind


def _course(pool, user, title):
    with pool.connection() as conn:
        return course_id_by_title(conn, user.org_id, title)


def _opening(text: str) -> str:
    return text.strip().split("\n\n", 1)[0]


def _session(pool, user):
    with pool.connection() as conn:
        return chat.create_session(conn, user.org_id, user.id, "tutor").id


def _stored(pool, user, session_id) -> tuple[dict, dict | None]:
    """(the last answer's metadata, the conversation's guided state)."""
    with pool.connection() as conn:
        last = chat.list_messages(conn, user.org_id, session_id)[-1].metadata
        return last, chat.get_session(conn, user.org_id, user.id, session_id, "tutor").context.get("guide")


def _asks_only(events, text: str, chip: str) -> None:
    """The turn is the guiding question alone: no answer, no source, the way out as its one chip."""
    assert re.fullmatch(r"🤔 \*\*[^*]+\?\*\*", _opening(text)), text
    assert "[1]" not in text and not by_name(events, Citations).citations, text
    assert by_name(events, Suggestions).suggestions == [chip] and not by_name(events, Suggestions).actions
    assert not by_name(events, Done).low_confidence


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("language", ["en", "es"])
def test_the_way_out_of_a_guiding_question_survives_the_instruction_filter(level, language):
    # the reply is stored as product text: the filter once cut level 3's "Or say “Just tell me” for the answer."
    way_out = t("tutor.guide.reveal", language)
    reply = t(f"tutor.guide.reply.{level}", language, topic="3.3 Exchanges", reveal=way_out)
    assert without_instructions(reply) == reply and way_out in reply


def test_guided_course_asks_first_says_why_and_waits(seeded_pool, lucia, james):
    course = _course(seeded_pool, lucia, SERVICE)
    session = _session(seeded_pool, lucia)
    events, text = run(lucia, "¿Qué es el método ACRE?", seeded_pool, course=str(course), session_id=session)
    _asks_only(events, text, "Dime la respuesta")
    assert "porque estás haciendo el curso «Atención al cliente de excelencia» (modo guiado)" in text
    assert "fallaste" in text  # her wrong answers are why she gets the most support
    assert "pide «Dime la respuesta»" in text  # the way out, named whole (never cut by the filter)
    stored, guide = _stored(seeded_pool, lucia, session)
    assert stored["learner"] == {"course_id": str(course), "mode": "guided", "level": 3}
    assert stored["guided"] == "ask" and guide["pending"]["question"] == "¿Qué es el método ACRE?"

    events, text = run(lucia, "Dime la respuesta", seeded_pool, session_id=session)  # the chip
    assert "🤔" not in text and "ACRE" in text and by_name(events, Citations).citations
    assert (
        "vuelve a la lección «Nuestros estándares»" in text and "repasos pendientes" in text
    )  # what helps with the ACRE steps, with the answer
    actions = by_name(events, Suggestions).actions
    assert actions[0]["kind"] == "course" and actions[0]["id"] == str(course) and actions[0]["lesson"]
    assert actions[0]["label"] == "Ir a la lección: Nuestros estándares"
    drawn = render_answer(text, {"actions": actions}, "es", "http://app")
    assert re.search(rf'href="http://app/course_player\?course={course}&(amp;)?lesson={actions[0]["lesson"]}"', drawn)
    assert not by_name(events, Done).low_confidence_reason
    stored, guide = _stored(seeded_pool, lucia, session)
    assert stored["guided"] == "reveal" and guide["pending"] is None

    receipt = "Can I refund a customer without a receipt?"  # no course open
    events, text = run(james, receipt, seeded_pool, session_id=_session(seeded_pool, james))
    _asks_only(events, text, "Just tell me")
    assert f"because you're taking the course “{RETURNS}” (guided mode)" in text


RETURN_DAYS = "How many days does a customer have to return a product?"


def test_a_guess_gets_feedback_against_the_fact_then_the_cited_answer(seeded_pool, james):
    session = _session(seeded_pool, james)
    events, text = run(james, RETURN_DAYS, seeded_pool, session_id=session)
    _asks_only(events, text, "Just tell me")
    assert "30" not in text  # the answer waits for the guess

    events, text = run(james, "I'd say 7 days", seeded_pool, session_id=session)
    assert text.startswith("❌ Not quite: you said 7 days, and the material says 30 days."), text
    assert text.index("Not quite") < text.index("within 30 days") < text.index("[1]")
    assert by_name(events, Citations).citations and by_name(events, Done).engine == "offline"
    stored, guide = _stored(seeded_pool, james, session)
    assert stored["guided"] == "guess" and stored["question"] == RETURN_DAYS and guide["pending"] is None

    events, text = run(james, RETURN_DAYS, seeded_pool, session_id=session)  # the same topic again: no second
    assert "🤔" not in text and "within 30 days" in text  # question in a row on it

    session = _session(seeded_pool, james)
    run(james, RETURN_DAYS, seeded_pool, session_id=session)
    _events, text = run(james, "thirty days?", seeded_pool, session_id=session)
    assert text.startswith("✅ Well thought: “thirty days?” matches what the material says."), text
    assert "within 30 days" in text and "[1]" in text


def test_the_guiding_question_names_the_section_of_the_answering_sentence(seeded_pool, james):
    # the chunk starts at "3.2 Approval limits" and packs "3.3 Exchanges", where gift receipts are
    session = _session(seeded_pool, james)
    events, text = run(james, "Can a customer with a gift receipt exchange a product?", seeded_pool, session_id=session)
    _asks_only(events, text, "Just tell me")
    assert "“3.3 Exchanges”" in text and "3.2" not in text, text


def test_a_spanish_learner_is_told_the_heading_her_guiding_question_names_is_in_english(seeded_pool, lucia):
    # the security course's policy is English: Lucía read "según «4.1 Password standard (POL-SEC-004)»" unwarned
    session = _session(seeded_pool, lucia)
    events, text = run(lucia, "¿Cada cuánto tengo que cambiar la contraseña?", seeded_pool, session_id=session)
    _asks_only(events, text, "Dime la respuesta")
    assert "«4.1 Password standard (POL-SEC-004)» (apartado en inglés)" in text, text
    assert without_instructions(text) == text  # stored as the product's own text: nothing of it is cut


def test_a_passage_in_the_learners_language_that_answers_too_names_the_topic(seeded_pool, lucia):
    question = "¿Cuántos caracteres debe tener como mínimo la contraseña?"
    english = passage(1, "Passwords must be at least 14 characters long.", section="4.1 Password standard")
    spanish = passage(2, "La contraseña debe tener como mínimo 14 caracteres.", section="2. Contraseñas")
    unrelated = passage(3, "Los pedidos retrasados más de tres días dan derecho a un vale.", section="7. Pedidos")
    passages = [english, spanish, unrelated]
    ranked = ranked_sentences(question, tuple(passages), process_embedder())
    own = answering_in("es", question, ranked, passages, process_embedder())
    assert own == (spanish, spanish.text)
    assert answering_in("es", question, ranked, [english, unrelated], process_embedder()) is None
    view = {"topic": "4.1 Password standard", "topic_language": "en", "course": "C", "mode": "guided", "level": 1}
    named = named_by(seeded_pool, lucia.org_id, view, *own)
    assert named["topic"] == "2. Contraseñas" and named["topic_language"] == "es"
    assert "«2. Contraseñas»" in guiding_question({**named, "signals": []}, question, "es")


@pytest.mark.parametrize("language, other", [("es", "en"), ("en", "es")])
def test_a_heading_in_the_other_language_is_named_with_its_language(language, other):
    view = {"topic": "3.3 Exchanges", "topic_language": other, "level": 2, "mode": "guided", "course": "C"}
    asked = guiding_question({**view, "signals": []}, "How long is a gift receipt valid?", language)
    named = t(
        "tutor.guide.heading_other_language",
        language,
        heading="3.3 Exchanges",
        language=t(f"tutor.language.{other}", language),
    )
    assert asked.count(named) == 2  # in the question and in the clue where the answer is
    same = guiding_question({**view, "topic_language": language, "signals": []}, "¿Qué es un ticket regalo?", language)
    assert (
        t("tutor.guide.heading", language, heading="3.3 Exchanges") in same
        and t(f"tutor.language.{other}", language) not in same
    )
    assert without_instructions(asked) == asked and without_instructions(same) == same


def test_a_new_question_drops_the_pending_one(seeded_pool, james):
    session = _session(seeded_pool, james)
    run(james, RETURN_DAYS, seeded_pool, session_id=session)
    events, text = run(james, "What is the ACRE method?", seeded_pool, session_id=session)
    assert "🤔" not in text and "Not quite" not in text and "Well thought" not in text
    assert by_name(events, Citations).citations
    stored, guide = _stored(seeded_pool, james, session)
    assert stored["guided"] is None and stored["question"] == "What is the ACRE method?" and guide["pending"] is None
    _events, text = run(james, "30 days", seeded_pool, session_id=session)  # nothing pending: not a guess
    assert "Well thought" not in text


@pytest.mark.parametrize(
    "message, reply",
    [
        ("Just tell me", "reveal"),
        ("ok, just tell me please", "reveal"),
        ("Dime la respuesta", "reveal"),
        ("no sé", "reveal"),
        ("30 days", "guess"),
        ("¿30 días?", "guess"),
        ("Is it 30 days?", "guess"),
        ("I think they need the receipt", "guess"),
        ("creo que hay que pedir el ticket", "guess"),
        ("What is the ACRE method?", None),
        ("¿Cómo reporto un correo de phishing?", None),
        ("gracias", None),
    ],
)
def test_a_reply_to_a_pending_question_is_read_as_a_guess_a_way_out_or_a_new_question(message, reply):
    assert reply_to({"pending": {"question": "?"}}, message) == reply
    assert reply_to({"pending": None, "last": ["c", "t"]}, message) is None  # nothing pending


def test_a_guess_is_compared_by_its_figures_then_its_key_words():
    fact = "Customers may return any unused product within 30 days of purchase for a full refund [1]."
    assert verdict("30 days", fact)[0] == "right" and verdict("thirty", fact)[0] == "right"
    assert verdict("14 days", fact) == ("figure", {"said": "14 days", "fact": "30 days"})
    assert verdict("thirty", fact) == ("right", {}) and verdict("14", fact) == ("figure", {"said": "14", "fact": "30"})
    code = "The Password Standard POL-SEC-004 requires a minimum length of 14 characters."
    assert verdict("creo que 8", code) == ("figure", {"said": "8", "fact": "14"})  # not the code's 004
    assert verdict("as long as it is unused", fact)[0] == "partly"  # the figure is missing
    rule = "A refund without proof of purchase is refused above 50 EUR; below it, store credit is offered."
    assert verdict("no", "Returns need the original receipt.")[0] == "wrong"
    assert verdict("they need the original receipt", "Returns need the original receipt.")[0] == "right"
    assert verdict("only store credit", rule)[0] == "partly"


def test_the_pending_question_survives_a_new_process(seeded_pool, james):
    session = _session(seeded_pool, james)
    run(james, RETURN_DAYS, seeded_pool, session_id=session)
    reply = subprocess.run(
        [sys.executable, "-m", "agents.tutor", "ask", "7 days", "--user", "james@acme.test", "--session", str(session)],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ),
    )
    assert reply.returncode == 0, reply.stderr
    assert "Not quite: you said 7 days, and the material says 30 days." in reply.stdout and "[1]" in reply.stdout


def test_direct_course_gives_the_facts_and_still_points_to_what_helps(seeded_pool, lucia):
    course = _course(seeded_pool, lucia, SERVICE)
    with seeded_pool.connection() as conn:
        assert mastery.set_tutor_mode(conn, lucia.org_id, course, "direct") == "guided"
    try:
        _events, text = run(lucia, "¿Qué es el método ACRE?", seeded_pool, course=str(course))
    finally:
        with seeded_pool.connection() as conn:
            mastery.set_tutor_mode(conn, lucia.org_id, course, "guided")
    assert "🤔" not in text and not _opening(text).endswith("?")
    assert "Te lo sugiero porque estás haciendo el curso «Atención al cliente de excelencia»" in text
    assert "vuelve a la lección «Nuestros estándares»" in text


def test_a_course_the_learner_is_not_taking_shapes_nothing(seeded_pool, james):
    course = _course(seeded_pool, james, SERVICE)  # Lucía's course; James is not enrolled
    _events, text = run(james, "What is the ACRE method?", seeded_pool, course=str(course))
    assert "🤔" not in text and "taking the course" not in text


def test_learner_state_is_scoped_by_organisation_and_person(seeded_pool, lucia, james):
    returns = _course(seeded_pool, james, RETURNS)
    with seeded_pool.connection() as conn:
        assert mastery.taking_course(conn, lucia.org_id, james.id, [], returns, "en").id == returns
        assert mastery.taking_course(conn, lucia.org_id, lucia.id, [], returns, "es") is None  # not hers
        assert mastery.taking_course(conn, uuid4(), james.id, [], returns, "en") is None  # another org
        assert mastery.course_mastery(conn, uuid4(), james.id, returns, "en") == _record()
        assert mastery.set_tutor_mode(conn, uuid4(), returns, "direct") is None
        assert mastery.tutor_mode(conn, james.org_id, returns) == "guided"


def test_a_struggling_learner_starts_on_a_fuller_hint(seeded_pool, lucia):
    course = _course(seeded_pool, lucia, SERVICE)
    with seeded_pool.connection() as conn:
        exercise = next(e for e in course_exercises(conn, lucia.org_id, course) if e.type == "order_steps")
        first_try = next(e for e in course_exercises(conn, lucia.org_id, course) if e.type == "dialogue")
    assert exercise_level(seeded_pool, lucia.org_id, lucia.id, exercise.id, 0) == 3  # wrong three times running
    assert exercise_level(seeded_pool, lucia.org_id, lucia.id, first_try.id, 0) == 1
    assert exercise_level(seeded_pool, lucia.org_id, lucia.id, first_try.id, 1) == 2  # then one level a hint
    assert exercise_level(seeded_pool, uuid4(), lucia.id, exercise.id, 0) == 1  # another org: no record


def _intent(request: dict) -> Reply | None:
    if (request.get("response_format") or {}).get("type") == "json_object":
        return Reply(text=json.dumps({"intent": "in_course"}))
    return None


def test_with_a_model_the_question_waits_and_the_model_answers_after_the_feedback(seeded_pool, lucia, fake_openai):
    course = _course(seeded_pool, lucia, SERVICE)
    prompts = []

    def responder(request):
        if reply := _intent(request):
            return reply
        prompts.append(request["messages"][0]["content"])
        return Reply(text="ACRE son cuatro pasos: acoger, comprender, resolver y encantar [1].")

    fake_openai.responder = responder
    session = _session(seeded_pool, lucia)
    events, text = run(lucia, "¿Qué es el método ACRE?", seeded_pool, course=str(course), session_id=session)
    _asks_only(events, text, "Dime la respuesta")
    assert not prompts and "acoger" not in text  # no answer written yet: the question is ours

    events, text = run(lucia, "creo que es acoger y resolver", seeded_pool, session_id=session)
    feedback, answer = text.split("\n\n", 1)
    assert feedback.startswith(("✅", "🟡", "❌")), text
    assert "acoger, comprender, resolver y encantar" in answer and by_name(events, Done).engine != "offline"
    assert "guided mode" in prompts[0] and '"creo que es acoger y resolver"' in prompts[0] and feedback in prompts[0]


def test_a_leaking_model_answer_is_rewritten_and_the_clean_rewrite_kept(seeded_pool, lucia, fake_openai):
    course = _course(seeded_pool, lucia, SERVICE)
    with seeded_pool.connection() as conn:
        exercise = next(e for e in course_exercises(conn, lucia.org_id, course) if e.type == "test")
        answer = revealing_texts(exercise.type, exercise.content)[0]
        abandon_attempts(conn, lucia.org_id, lucia.id)
        start_attempt(conn, lucia.org_id, lucia.id, exercise.id, None)
    drafts = []

    def responder(request):
        if reply := _intent(request):
            return reply
        drafts.append(request["messages"][-1]["content"])
        if len(drafts) == 1:
            return Reply(text=f"La respuesta correcta es: {answer}.")
        return Reply(text="¿Qué dice el material sobre el primer paso con un cliente? Relee esa parte [1].")

    fake_openai.responder = responder
    try:
        events, text = run(lucia, "Dame la respuesta de este ejercicio", seeded_pool, course=str(course))
    finally:
        with seeded_pool.connection() as conn:
            abandon_attempts(conn, lucia.org_id, lucia.id)
    assert len(drafts) == 2 and "Rewrite it as a Socratic hint" in drafts[1]
    assert "¿Qué dice el material sobre el primer paso" in text and answer not in text
    assert by_name(events, Done).engine != "offline"
    assert find_leaks(text, {"type": exercise.type, "content": exercise.content, "correct_texts": [answer]}) == []
