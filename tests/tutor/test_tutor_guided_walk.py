"""What Lucía saw in session 13's walk, answered right (issue 29): her correct guess at the ACRE method is judged
against the ACRE steps (a chunk that packs two sections frames each sentence by its own heading), "a month"
is 30 days, the suspicious e-mail is answered from the English security policy, and the guiding question
alone wears no document badge."""

from __future__ import annotations

from agents.tutor.answer_check import statements
from agents.tutor.guided import the_list_of, verdict
from core.turns import Citations, Done, Grounding
from storage import chat
from tests.tutor.conftest import by_name, passage, run
from ui.chat_render import StreamedAnswer, render_answer

ACRE = "¿Qué es el método ACRE?"
PACKED = (
    "Para atender cualquier consulta seguimos el método ACRE:\n\n"
    "1) Acoger: saludar, sonreír y mostrar disponibilidad.\n\n"
    "2) Comprender: escuchar sin interrumpir.\n\n"
    "3) Resolver: ofrecer la solución o las alternativas posibles.\n\n"
    "4) Encantar: confirmar que el cliente está satisfecho.\n\n"
    "Cuando un cliente presenta una queja, seguimos estos pasos:\n\n"
    "1) Escuchar toda la queja sin interrumpir.\n\n"
    "2) Registrar la queja en el sistema de CRM."
)
COMPLAINTS_AT = PACKED.index("Cuando")


def _session(pool, user):
    with pool.connection() as conn:
        return chat.create_session(conn, user.org_id, user.id, "tutor").id


def test_a_sentence_of_a_packed_chunk_is_framed_by_the_section_it_sits_in():
    packed = passage(
        1,
        PACKED,
        section="3. El método ACRE",
        sections=((0, "3. El método ACRE"), (COMPLAINTS_AT, "4. Gestión de quejas > 4.1 Procedimiento")),
    )
    framed = dict(zip((sentence for _, sentence in statements([packed])[0]), statements([packed])[1]))
    assert "El método ACRE" in framed["Acoger: saludar, sonreír y mostrar disponibilidad."]
    crm = framed["Registrar la queja en el sistema de CRM."]
    assert "Procedimiento" in crm and "ACRE" not in crm  # it framed the complaints steps as the ACRE method


def test_a_guess_naming_a_whole_list_is_compared_with_the_list():
    steps = the_list_of("Resolver: ofrecer la solución o las alternativas posibles.", PACKED)
    assert steps.startswith("Acoger:") and steps.endswith("está satisfecho.") and "queja" not in steps
    guess = "Acoger, comprender, resolver y encantar"
    assert verdict(guess, "Resolver: ofrecer la solución o las alternativas posibles.", steps)[0] == "right"
    alone = "Cualquier empleado puede ofrecer un vale."
    assert the_list_of(alone, PACKED) == alone  # not an item of a list


def test_a_period_said_another_way_is_right():
    fact = "Customers may return any unused product within 30 days of purchase for a full refund [1]."
    assert verdict("a month", fact)[0] == "right" and verdict("one month?", fact)[0] == "right"
    assert verdict("un mes", "El plazo general de devolución es de 30 días desde la compra.")[0] == "right"
    mail = "Los correos se responden en un plazo máximo de 24 horas laborables."
    assert verdict("24 horas", mail)[0] == "right" and verdict("24 hours", mail)[0] == "right"
    assert verdict("un día", mail) == ("figure", {"said": "un día", "fact": "24 horas laborables"})  # working time
    assert verdict("two weeks", fact) == ("figure", {"said": "two weeks", "fact": "30 days"})  # not "2" and "30"
    assert verdict("dos semanas", "El plazo es de 30 días.") == ("figure", {"said": "dos semanas", "fact": "30 días"})


def test_lucias_acre_guess_is_judged_against_the_acre_steps(seeded_pool, lucia):
    session = _session(seeded_pool, lucia)
    _events, text = run(lucia, ACRE, seeded_pool, session_id=session)  # the tutor page: no course in view
    assert "«3. El método ACRE para atender una consulta»" in text, text  # not "4.1 Procedimiento…"
    events, text = run(lucia, "Acoger, comprender, resolver y encantar", seeded_pool, session_id=session)
    assert text.startswith("✅"), text
    assert "CRM" not in text, text
    steps = [text.index(step) for step in ("Acoger: saludar", "Comprender:", "Resolver:", "Encantar: confirmar")]
    assert steps == sorted(steps), text  # the whole list the question names, in order (not its best three)
    cited = by_name(events, Citations).citations
    assert cited and all("El método ACRE" in c["section"] for c in cited), cited


def test_the_guiding_question_alone_wears_no_document_badge(seeded_pool, lucia):
    session = _session(seeded_pool, lucia)
    events, _text = run(lucia, ACRE, seeded_pool, session_id=session)
    assert by_name(events, Grounding).rung == "chunks" and by_name(events, Done).guided == "ask"
    shown = StreamedAnswer()
    for event in events:
        shown.take(event)
    with seeded_pool.connection() as conn:
        stored = chat.list_messages(conn, lucia.org_id, session)[-1]
    for drawn in (shown.html(), render_answer(stored.content, stored.metadata, "es")):
        assert "Documento" not in drawn and "badge company" not in drawn, drawn
        assert "⚙ sin modelo" in drawn  # the engine still says who wrote it
    events, _text = run(lucia, "Dime la respuesta", seeded_pool, session_id=session)
    answered = StreamedAnswer()
    for event in events:
        answered.take(event)
    assert "Documento de la empresa" in answered.html()  # the answer does come from a document


def test_a_suspicious_email_is_answered_from_the_english_security_policy(seeded_pool, lucia):
    events, text = run(lucia, "¿Qué hago si recibo un correo sospechoso?", seeded_pool)
    assert by_name(events, Grounding).rung == "chunks" and "No encontré" not in text, text
    assert "Report phishing" in text, text
    assert any("suspicious e-mail" in c["section"] for c in by_name(events, Citations).citations)
