"""The check between retrieval and the answer (issue 29), with planted defects: a title block, a
sentence without the kind of fact asked, a passage on another topic must not pass for an answer."""

from __future__ import annotations

from agents.tutor.answer_check import (
    answers_question,
    asked_kind,
    coverage,
    front_matter,
    holds_kind,
    key_terms,
)
from tests.tutor.conftest import by_name, passage, run
from ui.chat_render import badge_html

HANDBOOK = passage(
    1,
    "Document code: HR-ONB-001 · Version 2.0 · Owner: People & Culture · For: every new employee.\n\n"
    "Full-time employees have 23 working days of paid holiday a year, plus public holidays. "
    "Holiday is requested in the HR portal at least 2 weeks in advance.",
    document="Employee Onboarding Guide",
    section="8. Pay, time and leave",
    score=0.80,
)


def test_the_kind_of_fact_asked():
    assert asked_kind("¿Cuántos días de vacaciones tengo?") == "amount"
    assert asked_kind("When are salaries paid?") == "when"
    assert asked_kind("¿Quién aprueba el reembolso?") == "who"
    assert asked_kind("Can I use a USB stick?") == "rule"
    assert holds_kind("You have 23 working days of paid holiday.", "amount")
    assert not holds_kind("Holiday is approved by your manager.", "amount")  # planted: no figure


def test_front_matter_is_never_an_answer():
    assert front_matter("Document code: HR-ONB-001 · Version 2.0 · Owner: People & Culture")
    assert front_matter("Ejemplos de comportamiento inaceptable:")
    assert front_matter("Este Código es una adaptación del Contributor Covenant.", "Atribución")
    assert not front_matter("Holiday is requested in the HR portal at least 2 weeks in advance.")


def test_key_terms_are_covered_across_languages():
    terms = key_terms("¿Cuánto tiempo es válido un ticket regalo?")
    assert "regalo" in terms and "tiempo" not in terms
    assert coverage(terms, "Gift receipts are valid for 90 days.") >= 0.6
    assert coverage(terms, "Gift receipts are valid for 90 days.", cross_lingual=False) < 0.6
    assert coverage(key_terms("Is there a gym discount?"), "Full-time employees have 23 days of holiday.") == 0


def test_a_passage_on_the_topic_answers_and_one_beside_it_does_not():
    assert answers_question("How many days of paid holiday do I get?", (HANDBOOK,))
    assert not answers_question("What's on the canteen menu today?", (HANDBOOK,))
    title_only = passage(1, HANDBOOK.text.split("\n\n")[0], document=HANDBOOK.document, score=0.80)
    assert not answers_question("Who owns the onboarding guide?", (title_only,))


def test_lucias_canteen_question_is_not_found_with_ways_forward(seeded_pool, lucia):
    events, text = run(lucia, "¿Qué hay de menú hoy en la cantina?", seeded_pool)
    assert by_name(events, "grounding") == {"rung": "general", "source": "semantic"}
    assert text.startswith("No encontré nada sobre esto") and "helpdesk" in text, text
    assert "Document code" not in text and by_name(events, "citations")["citations"] == []
    chips = by_name(events, "suggestions")
    assert chips["suggestions"] and not any("menú" in s or "cantina" in s for s in chips["suggestions"]), chips
    assert any(action["kind"] == "helpdesk" for action in chips["actions"])
    badge = badge_html("general", "semantic", by_name(events, "done")["engine"], "es")
    assert "No está en los documentos de la empresa" in badge and "Sin documentos" not in badge
    assert "Documento de la empresa" in badge_html("chunks", "semantic", "offline", "es")


def test_inside_the_english_course_spanish_questions_are_answered(seeded_pool, lucia):
    """Lucía has the English security course open: a question about the course is answered from its
    lessons; a question the course doesn't answer (returns) from the company's documents; the canteen
    by nothing."""
    course = "Seguridad de la información: lo esencial"
    events, text = run(lucia, "¿Qué es lo más importante de este curso?", seeded_pool, course=course)
    assert by_name(events, "grounding") == {"rung": "chunks", "source": "pageindex"}, text
    assert by_name(events, "citations")["citations"][0]["source_type"] == "lesson"
    events, text = run(lucia, "¿Cuántos días tengo para devolver un producto?", seeded_pool, course=course)
    assert by_name(events, "grounding")["rung"] == "chunks" and "30" in text, text
    assert {c["document"] for c in by_name(events, "citations")["citations"]} & {
        "Manual de Atención al Cliente",
        "Returns and Refunds Policy",
    }
    events, text = run(lucia, "¿Qué hay de menú hoy en la cantina?", seeded_pool, course=course)
    assert by_name(events, "grounding")["rung"] == "general" and text.startswith("No encontré nada"), text
