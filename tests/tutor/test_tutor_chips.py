"""Our own suggestion chips, clicked (issue 29, item 7): each template in each language is answered from the
section, document or course it names, cited sentence by sentence; a chip is offered only when that works."""

from __future__ import annotations

import json
import re

import pytest

from agents.i18n import t
from agents.tutor.chip_answers import chip_answer
from agents.tutor.chip_questions import CHIP_KEYS, ChipQuestion, offerable, recognise
from core.turns import Citations, Done, Grounding, Suggestions
from storage import chat
from tests.fake_openai import Reply
from tests.tutor.conftest import by_name, passage, run


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("kind", sorted(CHIP_KEYS))
def test_every_chip_template_is_recognised_with_its_topic(kind, language):
    chip = t(CHIP_KEYS[kind], language, topic="3.2 Approval limits")
    assert recognise(chip) == ChipQuestion(kind, "3.2 Approval limits")
    assert recognise(chip.replace("“", '"').replace("”", '"').replace("«", '"').replace("»", '"').rstrip("?")) == (
        ChipQuestion(kind, "3.2 Approval limits")
    )  # typed by hand: straight quotes, no question mark


def test_questions_that_are_no_chip_are_not_recognised():
    for message in ("What else should I know about refunds?", "Give me a practical example", "¿Qué más dice?"):
        assert recognise(message) is None


def _answer(user, message, pool):
    events, text = run(user, message, pool)
    assert "nothing" not in text and "nada" not in text  # "I found nothing about this" / "No he encontrado nada"
    return events, text


def _cited(events) -> list[str]:
    return [c["section"] for c in by_name(events, Citations).citations]


def test_what_else_does_a_section_say_in_english(seeded_pool, james):
    events, text = _answer(james, t("tutor.suggest.more", "en", topic="3.2 Approval limits"), seeded_pool)
    assert by_name(events, Grounding).source == "named"
    assert "This is what “3.2 Approval limits” says:" in text
    assert "A cashier may approve refunds up to 200 EUR." in text and "store manager" in text
    assert _cited(events) == ["3. Refunds > 3.2 Approval limits"]
    assert "200 EUR" in by_name(events, Citations).citations[0]["quote"]  # the viewer marks the sentences


def test_what_else_does_a_section_say_in_spanish(seeded_pool, lucia):
    events, text = _answer(lucia, t("tutor.suggest.more", "es", topic="4. Alojamiento"), seeded_pool)
    assert "Esto es lo que dice «4. Alojamiento»:" in text and "120 EUR" in text and "minibar" in text
    assert _cited(events) == ["4. Alojamiento"]


def test_key_points_of_a_document_follow_its_sections_in_english(seeded_pool, james):
    events, text = _answer(
        james, t("tutor.suggest.explain_course", "en", topic="Returns and Refunds Policy"), seeded_pool
    )
    points = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(points) >= 8 and all(re.search(r"\[\d+\]$", line) for line in points)
    sections = _cited(events)
    assert sections[0] == "1. Purpose"
    assert sections.index("7. Online returns") > sections.index("5. Products that cannot be returned")
    assert "Policy code" not in text  # the title block is no key point


def test_key_points_of_a_course_in_spanish_come_from_its_document(seeded_pool, lucia):
    events, text = _answer(lucia, t("tutor.suggest.explain_course", "es", topic="Seguridad en el almacén"), seeded_pool)
    assert text.count("\n- ") >= 8 and "apartado por apartado" in text
    assert "• " not in text  # a PDF's run-in list is split, its first item kept with its lead-in
    assert all(c["document"] == "Manual de Seguridad en el Almacén" for c in by_name(events, Citations).citations)


def test_key_points_of_a_section_in_english_from_a_spanish_document_are_noted_once(seeded_pool, james):
    events, text = _answer(james, t("tutor.suggest.explain_course", "en", topic="4. Alojamiento"), seeded_pool)
    assert text.startswith("The key points of “4. Alojamiento”:") or "The key points of “4. Alojamiento”:" in text
    assert text.count("quoted from the Spanish text") == 1 and "120 EUR" in text


@pytest.mark.parametrize(
    ("email", "language", "topic", "figure"),
    [("james@acme.test", "en", "3.2 Approval limits", "500 EUR"), ("lucia@acme.test", "es", "5.1 Dietas", "50 EUR")],
)
def test_a_practical_example_offline_gives_the_sections_concrete_rules(seeded_pool, email, language, topic, figure):
    from storage import users

    with seeded_pool.connection() as conn:
        user = users.get_user_by_email(conn, email)
    events, text = _answer(user, t("tutor.suggest.example", language, topic=topic), seeded_pool)
    assert ("without a language model" if language == "en" else "Sin un modelo de lenguaje") in text
    assert figure in text and _cited(events)[0].endswith(topic)


def test_a_name_the_organisation_does_not_have_is_searched_for(seeded_pool, james):
    events, _ = run(james, t("tutor.suggest.more", "en", topic="Quarterly bonus scheme"), seeded_pool)
    assert by_name(events, Grounding).source != "named"


def test_offline_chips_name_material_that_answers_and_offer_no_example(seeded_pool, james, lucia):
    for user, question in ((james, "Who can approve a refund of 300 EUR?"), (lucia, "¿Cuánto es la dieta por día?")):
        events, _ = run(user, question, seeded_pool)
        chips = by_name(events, Suggestions).suggestions
        named = [recognise(chip) for chip in chips if recognise(chip)]
        assert named and all(chip.kind != "example" for chip in named)
        for chip in chips[:1]:
            _answer(user, chip, seeded_pool)


def test_a_chip_whose_topic_does_not_resolve_is_not_offered(seeded_pool, james):
    chips = [
        t("tutor.suggest.more", "en", topic="No such heading"),
        t("tutor.suggest.more", "en", topic="3.2 Approval limits"),
        t("tutor.suggest.course", "en"),
    ]
    with seeded_pool.connection() as conn:
        assert offerable(conn, james.org_id, "Hi", chips) == chips[1:]
        # not on the material the chip just clicked was about
        asked = t("tutor.suggest.explain_course", "en", topic="3.2 Approval limits")
        assert offerable(conn, james.org_id, asked, chips) == chips[2:]
        # nor the question just asked, offered again ("What should I review today?" after its answer)
        review = [t("tutor.suggest.review", "en"), t("tutor.suggest.next", "en")]
        assert offerable(conn, james.org_id, "what should I review today", review) == review[1:]


NEXT, REVIEW, PROGRESS = "tutor.suggest.next", "tutor.suggest.review", "tutor.suggest.progress"


@pytest.mark.parametrize(
    "who, question, asked_again, still_offered",
    [  # the learner's question, the chip that asks it again, a chip that asks something else
        ("james", "What's my next step?", NEXT, REVIEW),
        ("james", "What is my next step?", NEXT, REVIEW),
        ("lucia", "¿Cuál es mi próximo paso?", NEXT, REVIEW),
        ("lucia", "¿Cuál es mi siguiente paso?", NEXT, REVIEW),
        ("james", "What do I have to review today?", REVIEW, NEXT),
        ("james", "What should I review today?", REVIEW, NEXT),
        ("lucia", "¿Qué me toca repasar hoy?", REVIEW, NEXT),
        ("lucia", "¿Qué debería repasar hoy?", REVIEW, NEXT),
        ("james", "How am I doing?", PROGRESS, REVIEW),
        ("lucia", "¿Cómo voy en mis cursos?", PROGRESS, REVIEW),
    ],
)
def test_a_progress_turn_does_not_offer_its_own_question_again(
    seeded_pool, request, who, question, asked_again, still_offered
):
    """Offline: "¿Qué me toca repasar hoy?" answered offered "¿Qué debería repasar hoy?", and "What's my next step?"
    offered "What is my next step?" (only the chip in the message's very words was left out)."""
    language = "es" if question.startswith("¿") else "en"
    events, _ = run(request.getfixturevalue(who), question, seeded_pool)
    chips = by_name(events, Suggestions).suggestions
    assert t(asked_again, language) not in chips and t(still_offered, language) in chips, chips


def test_with_a_model_a_progress_turn_does_not_offer_its_own_question_again(seeded_pool, james, lucia, fake_openai):
    def responder(request):
        if (request.get("response_format") or {}).get("type") == "json_object":
            return Reply(text=json.dumps({"intent": "progress"}))
        return Reply(text="Keep going.")  # replaced by the twin's answer or not, the chips are the turn's

    fake_openai.responder = responder
    for user, question, asked_again, language in (
        (james, "What's my next step?", NEXT, "en"),
        (lucia, "¿Qué me toca repasar hoy?", REVIEW, "es"),
    ):
        asked = len(fake_openai.chat_requests)
        events, _ = run(user, question, seeded_pool)
        assert [r for r in fake_openai.chat_requests[asked:] if not r.get("response_format")]  # the model wrote
        chips = by_name(events, Suggestions).suggestions
        assert chips and t(asked_again, language) not in chips, chips


def test_with_a_model_the_example_is_written_from_the_section_and_checked(seeded_pool, james, fake_openai):
    seen = []

    def responder(request):
        if (request.get("response_format") or {}).get("type") == "json_object":
            return Reply(text=json.dumps({"intent": "cross_course"}))
        seen.append(request)
        return Reply(
            text="A customer returns a coat that cost more than 500 EUR: the store manager approves the refund and "
            "records the reason [1]. "
            "The manager is paid 97 EUR for it [1]."
        )

    fake_openai.responder = responder
    events, text = run(james, t("tutor.suggest.example", "en", topic="3.2 Approval limits"), seeded_pool)
    prompt = seen[-1]["messages"][-1]["content"]
    assert "[Source 1: Returns and Refunds Policy > 3. Refunds > 3.2 Approval limits]" in prompt
    assert "A cashier may approve refunds up to 200 EUR" in prompt and "[Source 2:" not in prompt
    assert "the store manager approves the refund and records the reason [1]" in text
    done = by_name(events, Done)
    assert done.low_confidence is True  # the gate still judges the model's example: 97 EUR is in no passage
    with seeded_pool.connection() as conn:
        session = chat.list_sessions(conn, james.org_id, james.id, "tutor")[0]
        stored = chat.list_messages(conn, james.org_id, session.id)[-1].metadata
    assert stored["unsupported"] == ["The manager is paid 97 EUR for it."]
    assert by_name(events, Suggestions).suggestions[0] != t("tutor.suggest.example", "en", topic="3.2 Approval limits")


def test_with_a_model_the_example_chip_is_offered(seeded_pool, james, fake_openai):
    def responder(request):
        if (request.get("response_format") or {}).get("type") == "json_object":
            return Reply(text=json.dumps({"intent": "cross_course"}))
        return Reply(text="Refunds between 200 EUR and 500 EUR need the approval of a shift supervisor [1].")

    fake_openai.responder = responder
    events, _ = run(james, "Who can approve a refund of 300 EUR?", seeded_pool)
    kinds = [chip.kind for chip in map(recognise, by_name(events, Suggestions).suggestions) if chip]
    assert kinds[:1] == ["example"]


def test_a_lists_items_are_one_a_line_after_their_lead_in():
    standards = passage(
        1,
        "Ejemplos de comportamientos que contribuyen a crear un ambiente positivo:\n\n"
        "* Demostrar empatía y amabilidad ante otras personas\n"
        "* Respeto a diferentes opiniones, puntos de vista y experiencias\n",
        document="Código de Conducta",
        section="Nuestros estándares",
    )
    text = chip_answer(ChipQuestion("more", "Nuestros estándares"), [standards], [], "es")
    assert text == (
        "Esto es lo que dice «Nuestros estándares»:\n\n"
        "Ejemplos de comportamientos que contribuyen a crear un ambiente positivo:\n"
        "- Demostrar empatía y amabilidad ante otras personas [1]\n"
        "- Respeto a diferentes opiniones, puntos de vista y experiencias [1]"
    )


def test_what_else_after_the_whole_section_was_quoted_says_so():
    allowance = passage(
        1, "The allowance is 50 EUR a day. Receipts are not needed.", document="P", section="5.1 Allowance"
    )
    said = [{"role": "assistant", "content": "The allowance is 50 EUR a day. Receipts are not needed. [1]"}]
    for language, words in (("en", "says no more than I quoted"), ("es", "no dice más de lo que te cité")):
        text = chip_answer(ChipQuestion("more", "5.1 Allowance"), [allowance], said, language)
        assert words in text and "50 EUR" in text
    partly = [{"role": "assistant", "content": "The allowance is 50 EUR a day. [1]"}]
    text = chip_answer(ChipQuestion("more", "5.1 Allowance"), [allowance], partly, "en")
    assert text.endswith("\n\nReceipts are not needed. [1]")  # only what the previous answer didn't quote
