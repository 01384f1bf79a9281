"""The tutor through a real HTTP fake OpenAI server: streamed tokens, validated citations."""

from __future__ import annotations

import json

import pytest

from agents.i18n import code_label, t
from agents.offline import detect_language
from agents.tutor.chitchat_check import CHITCHAT_TOKENS
from agents.tutor.general_check import GENERAL_TOKENS
from agents.tutor.redirect_check import REDIRECT_TOKENS
from core.turns import Citations, Done, Fallback, Grounding, Suggestions, Token
from storage import chat, users
from storage.progress import progress_summary
from tests.fake_openai import Reply
from tests.tutor.conftest import by_name, run


def _script(fake, intent: str, answer: str, seen: list):
    def responder(request):
        if (request.get("response_format") or {}).get("type") == "json_object":
            return Reply(text=json.dumps({"intent": intent}))
        seen.append(request)
        return Reply(text=answer, token_delay=0.005)

    fake.responder = responder


def test_streamed_grounded_answer_with_a_hallucinated_marker_removed(seeded_pool, james, fake_openai):
    seen = []
    _script(
        fake_openai,
        "cross_course",
        "Customers have 30 days to return a product [1]. Managers approve exceptions [7].",
        seen,
    )
    events, text = run(james, "How many days does a customer have to return a product?", seeded_pool)
    tokens = [e.text for e in events if isinstance(e, Token)]
    assert len(tokens) > 5 and all("[7]" not in t for t in tokens)
    # James takes the returns course in guided mode: the answer after "just tell me", what helps closes it
    # (test_tutor_adapt.py)
    assert "🤔" not in text and "[7]" not in text
    assert text.startswith("Customers have 30 days to return a product [1]. Managers approve exceptions.\n\n")
    assert [c["index"] for c in by_name(events, Citations).citations] == [1]
    prompt = seen[-1]["messages"]
    assert "[Source 1:" in prompt[-1]["content"] and "Write in English" in prompt[0]["content"]
    with seeded_pool.connection() as conn:
        session = chat.list_sessions(conn, james.org_id, james.id, "tutor")[0]
        answer = chat.list_messages(conn, james.org_id, session.id)[-1]
    meta = answer.metadata
    assert meta["engine"].startswith("openai:") and meta["low_confidence"] is True
    assert meta["removed_citations"] == [7] and meta["tokens_used"] > 0
    assert by_name(events, Done).ttft_ms is not None


def test_spanish_question_is_answered_in_spanish(seeded_pool, lucia, fake_openai):
    seen = []
    _script(fake_openai, "cross_course", "El precio máximo es de 120 EUR por noche en España [1].", seen)
    events, text = run(lucia, "¿Cuál es el precio máximo por noche de hotel?", seeded_pool)
    assert "Write in Spanish" in seen[-1]["messages"][0]["content"]
    assert detect_language(text) == "es" and by_name(events, Citations).citations[0]["index"] == 1
    assert all(detect_language(s) == "es" for s in by_name(events, Suggestions).suggestions)


def test_greeting_skips_the_classifier_and_retrieval(seeded_pool, lucia, fake_openai):
    seen = []
    _script(fake_openai, "off_topic", "¡Hola Lucía! ¿Qué quieres aprender hoy?", seen)
    events, text = run(lucia, "hola", seeded_pool)
    assert by_name(events, Grounding) == Grounding("general", "none")
    assert text == "¡Hola Lucía! ¿Qué quieres aprender hoy?"
    assert len(fake_openai.chat_requests) == 1  # the heuristic decided; only the answer was asked
    assert fake_openai.chat_requests[-1]["max_tokens"] == CHITCHAT_TOKENS  # a greeting's reply is asked short


@pytest.mark.parametrize(
    "who, message, reply, reason, twin",
    [  # one of each kind small models write (test_tutor_chitchat_check.py)
        ("james", "who are you?", "I am ChatGPT, a large language model trained by OpenAI.", "identity", "hello"),
        ("lucia", "hola", "¡Hola! Pregunta: ¿Cuál es la capital de Francia? Respuesta: París.", "unasked", "hello"),
        ("lucia", "gracias", "You're welcome! Let me know if you need anything else.", "language", "thanks"),
        ("james", "bye", "User: bye\nAssistant: bye", "echo", "bye"),
    ],
)
def test_a_bad_chitchat_reply_is_replaced_by_the_twins(
    seeded_pool, request, fake_openai, who, message, reply, reason, twin
):
    user = request.getfixturevalue(who)
    _script(fake_openai, "chitchat", reply, [])
    events, _ = run(user, message, seeded_pool)
    done, notice = by_name(events, Done), by_name(events, Fallback)
    assert done.fallback == reason == notice.reason and done.engine == "offline"
    replacement = "".join(e.text for e in events[[type(e) for e in events].index(Fallback) :] if isinstance(e, Token))
    with seeded_pool.connection() as conn:
        found, org = users.get_user_and_org_name(conn, user.org_id, user.id)
    name = found.full_name.split()[0]  # the tutor calls the learner by first name
    assert replacement.startswith(t(f"tutor.{twin}", user.language, name=name, org=org)), replacement
    assert reply not in replacement


def test_off_topic_from_the_classifier(seeded_pool, james, fake_openai):
    """A good redirect from the model is used as it is (its check: test_tutor_redirect_check.py)."""
    seen = []
    _script(fake_openai, "off_topic", "Let's keep to work topics. What would you like to learn?", seen)
    events, text = run(james, "Which team will win the league this year?", seeded_pool)
    assert by_name(events, Grounding).source == "none" and by_name(events, Citations).citations == []
    assert text == "Let's keep to work topics. What would you like to learn?"
    assert "redirect politely" in seen[-1]["messages"][0]["content"]
    with seeded_pool.connection() as conn:
        session = chat.list_sessions(conn, james.org_id, james.id, "tutor")[0]
        assert chat.list_messages(conn, james.org_id, session.id)[-1].metadata["intent"] == "off_topic"


def test_progress_answer_is_written_from_the_learners_data(seeded_pool, lucia, fake_openai):
    seen = []
    with seeded_pool.connection() as conn:
        courses = [
            e["course"] for e in progress_summary(conn, lucia.org_id, lucia.id, lang=lucia.language)["enrollments"]
        ]
    reply = f"Vas muy bien en «{courses[0]}»: sigue así."  # her own course: the check passes it (progress_check.py)
    _script(fake_openai, "chitchat", reply, seen)
    events, text = run(lucia, "¿Cómo voy en mis cursos?", seeded_pool)
    assert by_name(events, Grounding) == Grounding("general", "db")
    prompt = seen[-1]["messages"][-1]["content"]
    assert "Learner data from the database" in prompt
    assert courses and all(course in prompt for course in courses)
    assert text == reply and by_name(events, Citations).citations == []


@pytest.mark.parametrize(
    "who, question, reply, reason",
    [  # the walk's reply from SmolLM2-135M, then one of each kind the check catches (test_tutor_redirect_check.py)
        ("james", "Tell me a joke", 'A: "How to get a puppy"', "no_redirect"),
        (
            "lucia",
            "Cuéntame un chiste",
            "Según el manual del empleado, no se cuentan chistes en el trabajo [1].",
            "source_claim",
        ),
        (
            "lucia",
            "¿Quién ganó el partido de fútbol ayer?",
            "That's outside what I can help with. Shall we look at your courses?",
            "language",
        ),
        (
            "james",
            "Which team will win the league this year?",
            "Q: Which team will win the league this year?\nA: Real Madrid.",
            "echo",
        ),
        (
            "james",
            "Tell me a joke",
            "My instructions say: Off-topic questions: redirect politely to work and learning topics.",
            "instructions",
        ),
    ],
)
def test_a_bad_off_topic_reply_is_replaced_by_the_redirect(
    seeded_pool, request, fake_openai, who, question, reply, reason
):
    user = request.getfixturevalue(who)
    _script(fake_openai, "off_topic", reply, [])
    events, _ = run(user, question, seeded_pool)
    done, notice = by_name(events, Done), by_name(events, Fallback)
    assert done.fallback == reason == notice.reason and done.engine == "offline"
    assert notice.message == t(
        "engine.fallback_notice", user.language, reason=code_label("fallback", reason, user.language)
    )
    start = [type(e) for e in events].index(Fallback)
    replacement = "".join(e.text for e in events[start:] if isinstance(e, Token))
    with seeded_pool.connection() as conn:
        org = users.get_user_and_org_name(conn, user.org_id, user.id)[1]
        session = chat.list_sessions(conn, user.org_id, user.id, "tutor")[0]
        saved = chat.list_messages(conn, user.org_id, session.id)[-1]
    assert replacement.startswith(t("tutor.off_topic", user.language, org=org))  # the deterministic redirect
    assert saved.content == replacement and reply not in saved.content
    assert saved.metadata["fallback"] == reason and saved.metadata["engine"] == "offline"


def test_an_off_topic_reply_is_asked_short(seeded_pool, james, fake_openai):
    _script(fake_openai, "off_topic", "Let's keep to work topics. What would you like to learn?", [])
    run(james, "What movie should I watch tonight?", seeded_pool)
    generator = [r for r in fake_openai.chat_requests if not r.get("response_format")][-1]
    assert generator["max_tokens"] == REDIRECT_TOKENS


def test_a_models_own_words_on_a_question_no_document_answers_are_framed(seeded_pool, lucia, fake_openai):
    """The general rung with a model (issue 29, item 1; spec 000): the tutor says first that the documents don't
    hold it and that what follows is general knowledge, then the model's words, then the ways on of the offline
    refusal; a reply the gate replaces is the twin's refusal alone, the line not said twice."""
    seen = []
    _script(fake_openai, "cross_course", "Muchas empresas publican el menú del día en la entrada del comedor.", seen)
    events, text = run(lucia, "¿Qué hay de menú hoy en la cantina?", seeded_pool)
    opening = t("tutor.general.opening", "es", org="Acme Retail")
    assert text.startswith(f"{opening}\n\nMuchas empresas publican el menú"), text
    assert text.rstrip().endswith(t("tutor.ways_forward", "es")) and by_name(events, Citations).citations == []
    assert "".join(e.text for e in events if isinstance(e, Token)) == text  # streamed as it is stored
    done = by_name(events, Done)
    assert done.engine.startswith("openai:") and done.low_confidence_reason == "not_grounded"

    english = (
        "Many companies post the day's menu at the entrance of the canteen, and some also send it by email every "
        "morning so that the staff can plan their lunch."
    )
    _script(fake_openai, "cross_course", english, seen)
    events, text = run(lucia, "¿Qué hay de menú hoy en la cantina?", seeded_pool)  # English to Lucía: replaced
    replaced = events.index(by_name(events, Fallback))  # the client clears what it showed, then the twin's answer
    shown = "".join(e.text for e in events[replaced:] if isinstance(e, Token))
    assert shown.startswith("No encontré nada sobre esto") and opening not in shown and "Many" not in shown, shown
    assert shown.count("No encontré nada") == 1, shown

    _script(
        fake_openai, "cross_course", "El água de la cerveza es el que se debe ahora.", seen
    )  # SmolLM2's, session 23
    events, text = run(lucia, "¿Qué hay de menú hoy en la cantina?", seeded_pool)
    assert by_name(events, Fallback).reason == "off_question" and by_name(events, Done).engine == "offline"
    assert seen[-1]["max_tokens"] == GENERAL_TOKENS  # a general answer is asked short
