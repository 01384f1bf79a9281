"""The tutor end to end on the offline engine and the demo organisation."""

from __future__ import annotations

import re

import pytest

from agents.offline import detect_language
from agents.tutor import service
from core.turns import Citations, Done, Error, Grounding, Suggestions, Token
from storage import chat, documents, rate_limits, users
from storage.progress import progress_summary
from tests.conftest import make_deps
from tests.people import upsert_user
from tests.tutor.conftest import by_name, run

# (document source file, Spanish question, English question)
QUESTIONS = [
    (
        "returns_policy.md",
        "¿Cuántos días hay para devolver un portátil o una tablet abiertos?",
        "How many days does a customer have to return a product?",
    ),
    (
        "politica_gastos_viajes.md",
        "¿Cuál es el precio máximo por noche de hotel?",
        "What is the maximum hotel price per night?",
    ),
    (
        "information_security_policy.pdf",
        "¿Cuántos caracteres debe tener una contraseña?",
        "What does the password standard require?",
    ),
    (
        "manual_atencion_cliente.docx",
        "¿Qué es el método ACRE para atender una consulta?",
        "What are the steps of the ACRE method?",
    ),
    (
        "manual_seguridad_almacen.pdf",
        "¿Qué equipos de protección individual son obligatorios en el almacén?",
        "Which personal protective equipment is mandatory in the warehouse?",
    ),
    ("onboarding_guide.docx", "¿Qué hace el onboarding buddy?", "How long is the probation period?"),
]


@pytest.fixture(scope="module")
def titles(seeded_pool, lucia):
    with seeded_pool.connection() as conn:
        return {d.source_name: d.title for d in documents.list_documents(conn, lucia.org_id)}


# The tutor answers from the document retrieval ranks first (one document per offline answer, so it is
# not padded with other topics). The Spanish returns question was a strict xfail until retrieval compared
# the Spanish manual's packed chunk section by section (fusion.SECTION_WEIGHT): its returns summary had
# outranked the English policy.


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("source,question_es,question_en", QUESTIONS)
def test_grounded_cited_answer_in_the_questions_language(
    seeded_pool, lucia, titles, source, question_es, question_en, language
):
    for question in (question_es if language == "es" else question_en,):
        events, text = run(lucia, question, seeded_pool)
        kinds = [type(e) for e in events]
        assert kinds[0] is Grounding and kinds[-3:] == [Citations, Suggestions, Done], kinds
        assert set(kinds[1:-3]) == {Token}
        assert by_name(events, Grounding).rung in ("chunks", "document")
        citations = by_name(events, Citations).citations
        assert titles[source] in {c["document"] for c in citations}, (question, citations)
        markers = {int(n) for n in re.findall(r"\[(\d+)\]", text)}
        assert markers and markers == {c["index"] for c in citations}
        assert detect_language(text.split("\n")[0], default="?") == language, text
        for suggestion in by_name(events, Suggestions).suggestions:  # quoted titles keep their language
            assert detect_language(re.sub(r"[«“].*?[»”]", "", suggestion), default=language) == language


def test_progress_answer_comes_from_the_database(seeded_pool, lucia):
    events, text = run(lucia, "¿Cómo voy en mis cursos?", seeded_pool)
    assert by_name(events, Grounding) == Grounding("general", "db")
    with seeded_pool.connection() as conn:
        summary = progress_summary(conn, lucia.org_id, lucia.id, lang=lucia.language)  # as she reads them
    assert summary["enrollments"], "the demo learner has courses"
    for enrollment in summary["enrollments"]:
        assert enrollment["course"] in text
    assert by_name(events, Done).retrieval_source == "db"
    # the exercises she got wrong: each once, quoted, without the prompt's own full stop doubled
    failed = list(dict.fromkeys(f["exercise"].rstrip(". ") for f in summary["recent_failures"]))[:3]
    assert failed, "the demo learner has failed exercises"
    line = next(line for line in text.splitlines() if line.startswith("Conviene repasar"))
    assert line == "Conviene repasar: " + ", ".join(f"«{exercise}»" for exercise in failed) + "."


def test_greeting_is_short_and_suggests(seeded_pool, james):
    events, text = run(james, "hola", seeded_pool)
    assert by_name(events, Grounding).source == "none"
    assert "James" in text and len(text) < 300 and detect_language(text) == "es"
    assert len(by_name(events, Suggestions).suggestions) >= 2
    assert by_name(events, Citations).citations == []


def test_off_topic_is_redirected(seeded_pool, james):
    events, text = run(james, "Who won the football match last night?", seeded_pool)
    assert by_name(events, Grounding).source == "none"
    assert "outside what I can help" in text and by_name(events, Citations).citations == []


def test_not_found_offline_is_said_once_without_a_low_confidence_warning(seeded_pool, lucia):
    """The offline refusal is the "not found" badge and its ways forward; a "low confidence: nothing in the
    documents backs it" warning beside it (seen in session 22's walk) said the same thing twice, as a doubt."""
    events, text = run(lucia, "¿Qué hay de menú hoy en la cantina?", seeded_pool)
    done = by_name(events, Done)
    assert by_name(events, Grounding).rung == "general" and "No encontré nada" in text, text
    assert done.engine == "offline" and done.low_confidence is False and done.low_confidence_reason is None


def test_answer_is_persisted_with_its_metadata(seeded_pool, james):
    events, text = run(james, "How long is the probation period?", seeded_pool)
    done = by_name(events, Done)
    with seeded_pool.connection() as conn:
        session = chat.list_sessions(conn, james.org_id, james.id, "tutor")[0]
        user_message, answer = chat.list_messages(conn, james.org_id, session.id)[-2:]
    assert str(answer.id) == done.message_id and answer.content == text
    assert user_message.content == "How long is the probation period?"
    meta = answer.metadata
    assert meta["engine"] == "offline" and meta["rung"] in ("chunks", "document") and meta["intent"] == "cross_course"
    assert meta["citations"] and all(c["excerpt"] for c in meta["citations"])
    for key in ("retrieval_source", "retrieval_latency_ms", "generation_latency_ms", "ttft_ms", "tokens_used"):
        assert meta[key] is not None and meta[key] == getattr(done, key)
    assert meta["low_confidence"] is False


def test_follow_up_turn_continues_the_session(seeded_pool, james):
    first, _ = run(james, "What does the password standard require?", seeded_pool)
    with seeded_pool.connection() as conn:
        session = chat.list_sessions(conn, james.org_id, james.id, "tutor")[0]
    second, _ = run(james, "thanks", seeded_pool, session_id=session.id)
    assert by_name(second, Done).message_id
    with seeded_pool.connection() as conn:
        assert len(chat.list_messages(conn, james.org_id, session.id)) == 4


def test_bad_input_gets_one_line_reasons(seeded_pool, lucia):
    for message, options, code in (
        ("   ", {}, "EMPTY_MESSAGE"),
        ("hola", {"course": "No such course"}, "COURSE_NOT_FOUND"),
        ("hola", {"lesson": "No such lesson"}, "LESSON_NOT_FOUND"),
        ("hola", {"session_id": "not-a-session"}, "SESSION_NOT_FOUND"),
    ):
        events, _ = run(lucia, message, seeded_pool, **options)
        [error] = events
        assert isinstance(error, Error) and error.code == code and "\n" not in error.message and error.message


def test_long_message_is_truncated_with_a_notice(seeded_pool, lucia):
    events, text = run(lucia, "¿Cuánto dura el periodo de prueba? " + "x" * 20_000, seeded_pool)
    # the notice comes with the grounding event, before any token, so clients show it above the answer
    assert by_name(events, Grounding).notice.startswith("Tu mensaje era muy largo")
    assert by_name(events, Done).notice == by_name(events, Grounding).notice
    assert "Tu mensaje era muy largo" not in text
    with seeded_pool.connection() as conn:
        session = chat.list_sessions(conn, lucia.org_id, lucia.id, "tutor")[0]
        asked, answer = chat.list_messages(conn, lucia.org_id, session.id)[-2:]
    assert len(asked.content) == service.MAX_MESSAGE_CHARS and answer.metadata["truncated"] is True
    assert answer.metadata["notice"].startswith("Tu mensaje era muy largo")


def test_deactivated_user_is_refused(seeded_pool, lucia):
    with seeded_pool.connection() as conn:
        users.set_active(conn, lucia.org_id, lucia.id, False)
    try:
        events, _ = run(lucia, "hola", seeded_pool)
        assert events == [Error("Tu cuenta está desactivada.", "ACCOUNT_INACTIVE")]
    finally:
        with seeded_pool.connection() as conn:
            users.set_active(conn, lucia.org_id, lucia.id, True)


def test_rate_limit_says_when_to_retry(seeded_pool):
    with seeded_pool.connection() as conn:
        org = users.get_user_by_email(conn, "lucia@acme.test").org_id
        busy = upsert_user(
            conn, org, email="busy@acme.test", full_name="Busy Bee", role="employee", password="x", language="en"
        )
        for _ in range(service.RATE_LIMIT_PER_MINUTE):
            assert rate_limits.take(conn, busy.id, "tutor.message", service.RATE_LIMIT_PER_MINUTE, 60) is None
    events, _ = run(busy, "one more", seeded_pool)
    [error] = events
    assert isinstance(error, Error) and error.code == "RATE_LIMITED" and 1 <= (error.retry_after or 0) <= 60
    assert f"wait {error.retry_after} s" in error.message


def test_sessions_are_private(seeded_pool, lucia, james):
    session = service.new_session(make_deps(seeded_pool), lucia)
    run(lucia, "hola", seeded_pool, session_id=session.id)
    assert session.id in {s.id for s in service.list_sessions(make_deps(seeded_pool), lucia)}
    for attempt in (
        lambda: service.session_messages(make_deps(seeded_pool), james, session.id),
        lambda: service.rename_session(make_deps(seeded_pool), james, session.id, "mine now"),
        lambda: service.delete_session(make_deps(seeded_pool), james, session.id),
    ):
        with pytest.raises(service.TutorError, match="not found"):
            attempt()
    events, _ = run(james, "hola", seeded_pool, session_id=session.id)
    assert events == [Error(events[0].message, "SESSION_NOT_FOUND")]
    service.rename_session(make_deps(seeded_pool), lucia, session.id, "Saludos")
    assert {s.title for s in service.list_sessions(make_deps(seeded_pool), lucia)} >= {"Saludos"}
    service.delete_session(make_deps(seeded_pool), lucia, session.id)
    with pytest.raises(service.TutorError):
        service.session_messages(make_deps(seeded_pool), lucia, session.id)


def test_an_answer_that_did_not_help_becomes_a_knowledge_gap(seeded_pool, lucia, james):
    from datetime import timedelta

    from storage import gaps

    deps = make_deps(seeded_pool)
    session = service.new_session(deps, lucia)
    question = "¿Cuántos días tengo para devolver un producto?"  # answered from a document: no gap by itself
    run(lucia, question, seeded_pool, session_id=session.id)

    def gap_texts() -> list[str]:
        with seeded_pool.connection() as conn:
            return [g.text for g in gaps.gap_questions(conn, lucia.org_id, timedelta(minutes=30))]

    assert question not in gap_texts()
    with pytest.raises(service.TutorError, match="not found"):  # someone else's conversation
        service.rate_answer(deps, james, session.id, 1, False)
    assert not service.rate_answer(deps, lucia, session.id, 0, False)  # the question itself is no answer
    assert not service.rate_answer(deps, lucia, session.id, 7, False)  # nothing there
    assert service.rate_answer(deps, lucia, session.id, 1, False)  # 👎 on the answer
    assert gap_texts().count(question) == 1
    assert service.rate_answer(deps, lucia, session.id, 1, None)  # taken back
    assert question not in gap_texts()
