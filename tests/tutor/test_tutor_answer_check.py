"""The check between retrieval and the answer (issue 29), with planted defects: a title block, a
sentence without the kind of fact asked, a passage on another topic must not pass for an answer.
The mutation test judges the judge: ten clean answers from the demo and public documents (half of
them asked in the other language), each with planted defects, measure the catch rate and the false
flags on the clean ones."""

from __future__ import annotations

import re

from agents.runtime.deps import process_embedder
from agents.tutor.answer_check import answers_question, coverage, front_matter, key_terms, same_fact
from agents.tutor.answers import select_sentences
from agents.tutor.classify import offline_intent
from agents.tutor.fact_kinds import asked_kind, holds_kind
from core.glossary import equivalents, gloss
from core.turns import Citations, Done, Grounding, Suggestions
from tests.tutor.conftest import by_name, passage, run
from ui.chat_render import badge_html

EMBEDDER = process_embedder()

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
    # a line pointing to a web page, even where the chunk ran on past its "Atribución" heading
    assert front_matter("Para respuestas a las preguntas frecuentes, consulta las FAQ en `https://example.org/faq.`")
    assert front_matter("Hay traducciones disponibles en `https://example.org/translations`")
    assert not front_matter("Submit the form at https://example.gov/form within 5 business days of your return.")


def test_the_check_sees_the_best_sentences_of_each_language():
    """A Spanish question whose answer is in an English document: nine Spanish sentences on the topic, none
    with the figure asked, rank above the English one that has it (the first eight judged were all Spanish)."""
    spanish = passage(
        1,
        " ".join(
            f"Las vacaciones del equipo {team} se piden en el portal y las aprueba el responsable."
            for team in "ABCDEFGHI"
        ),
        document="Manual de vacaciones",
        section="Vacaciones",
        score=0.9,
    )
    english = passage(
        2,
        "Holiday is requested in the HR portal at least 2 weeks in advance and approved by your manager.",
        document="Employee Onboarding Guide",
        section="8. Pay, time and leave",
        score=0.8,
    )
    question = "¿Con cuánta antelación hay que pedir las vacaciones en el portal?"
    assert answers_question(question, (spanish, english), EMBEDDER)


def test_key_terms_are_covered_across_languages():
    terms = key_terms("¿Cuánto tiempo es válido un ticket regalo?")
    assert "regalo" in terms and "tiempo" not in terms
    assert coverage(terms, "Gift receipts are valid for 90 days.", EMBEDDER) == 1.0
    assert coverage(terms, "Refunds are valid for 30 days.", EMBEDDER) < 0.6  # "regalo" is not "refund"
    assert (
        coverage(key_terms("Is there a gym discount?"), "Full-time employees have 23 days of holiday.", EMBEDDER) == 0
    )
    assert "gift" in equivalents("regalos") and "carre" in equivalents("forklift")
    assert "gift" in gloss("¿Es válido un ticket regalo?").split()  # retrieval asks in the other language too


# (question, the passage that answers it, its document, its heading); each a sentence of a document
# in seeds/ (the last three from public documents nobody here wrote).
CLEAN = [
    (
        "How long is a gift receipt valid?",
        "Gift receipts allow an exchange or store credit, never a cash refund, and are valid for 90 days.",
        "Returns and Refunds Policy",
        "3.3 Exchanges",
    ),
    (
        "¿Cuánto tiempo es válido un ticket regalo?",
        "Gift receipts allow an exchange or store credit, never a cash refund, and are valid for 90 days.",
        "Returns and Refunds Policy",
        "3.3 Exchanges",
    ),
    (
        "Up to what amount can a cashier approve a refund?",
        "A cashier may approve refunds up to 200 EUR. Refunds above 500 EUR need the approval of the store manager.",
        "Returns and Refunds Policy",
        "3.2 Approval limits",
    ),
    (
        "¿Cuánto se paga por kilómetro si uso mi coche?",
        "El uso del vehículo propio se compensa a 0,26 EUR por kilómetro, más peajes y aparcamiento justificados.",
        "Política de Gastos y Viajes",
        "3.2 Vehículo propio y taxis",
    ),
    (
        "How much is paid per kilometre for using my own car?",
        "El uso del vehículo propio se compensa a 0,26 EUR por kilómetro, más peajes y aparcamiento justificados.",
        "Política de Gastos y Viajes",
        "3.2 Vehículo propio y taxis",
    ),
    (
        "¿Cuál es el precio máximo por noche de hotel en España?",
        "El precio máximo por noche de hotel, con desayuno incluido, es de 120 EUR en España.",
        "Política de Gastos y Viajes",
        "4. Alojamiento",
    ),
    (
        "¿Se reembolsan las multas de tráfico?",
        "No se reembolsan, entre otros: multas de tráfico y de aparcamiento, gastos personales.",
        "Política de Gastos y Viajes",
        "6. Gastos no reembolsables",
    ),
    (
        "How much parental bereavement leave is there for the loss of a child?",
        "You can receive two weeks (80 hours) of parental bereavement leave for the passing of your child.",
        "TTS Handbook: Leave types",
        "Parental bereavement leave",
    ),
    (
        "¿Cuánto permiso por duelo parental hay por la pérdida de un hijo?",
        "You can receive two weeks (80 hours) of parental bereavement leave for the passing of your child.",
        "TTS Handbook: Leave types",
        "Parental bereavement leave",
    ),
    (
        "¿Qué conlleva una expulsión temporal según el código de conducta?",
        "Una expulsión temporal de cualquier forma de interacción o comunicación pública con la comunidad "
        "durante un intervalo de tiempo especificado.",
        "Código de Conducta convenido para Contribuyentes",
        "3. Expulsión temporal",
    ),
]
_FIGURE = re.compile(r"\(?\b(\d+(?:[.,]\d+)?|two|dos)\b[^,.;]*")


def _mutants(n: int) -> list[tuple[str, str, tuple]]:
    """The planted defects for clean case ``n``: (defect, question, passages)."""
    question, text, document, section = CLEAN[n]
    other = CLEAN[(n + 3) % len(CLEAN)] if CLEAN[(n + 3) % len(CLEAN)][2] != document else CLEAN[(n + 5) % len(CLEAN)]
    out = [
        (
            "title block",
            question,
            (passage(1, "Document code: POL-7 · Version 2.0 · Owner: People", document=document),),
        ),
        ("off-topic sentence", question, (passage(1, other[1], document=document, section=section, score=0.8),)),
        ("other document", question, (passage(1, other[1], document=other[2], section=other[3], score=0.8),)),
        (
            "heading alone",
            question,
            (passage(1, "Las condiciones se explican en la intranet del equipo.", document=document, section=section),),
        ),
    ]
    if asked_kind(question) in ("when", "amount"):  # the sentence on the topic, its figure taken away
        unfigured = _FIGURE.sub("", text)
        out.append(("wrong kind of fact", question, (passage(1, unfigured, document=document, section=section),)))
    return out


def test_the_check_catches_planted_defects_and_passes_clean_answers():
    clean = [
        answers_question(q, (passage(1, text, document=doc, section=section, score=0.8),), EMBEDDER)
        for q, text, doc, section in CLEAN
    ]
    mutants = [(defect, q, found) for n in range(len(CLEAN)) for defect, q, found in _mutants(n)]
    caught = {defect: [] for defect, _, _ in mutants}
    for defect, question, found in mutants:
        caught[defect].append(not answers_question(question, found, EMBEDDER))
    catch = sum(sum(v) for v in caught.values()) / len(mutants)
    false_flags = clean.count(False) / len(clean)
    print({d: f"{sum(v)}/{len(v)}" for d, v in caught.items()}, "catch", round(catch, 3), "false flags", false_flags)
    missed = [(d, q) for d, q, found in mutants if answers_question(q, found, EMBEDDER)]
    assert false_flags <= 0.1, [CLEAN[i][0] for i, ok in enumerate(clean) if not ok]
    # measured 43/48 (0.896), no false flag: an unrelated sentence under the right heading passes 4 times in
    # 10 (the heading covers the terms; requiring the sentence itself to hold one made list items such as
    # the ACRE method's steps fail)
    assert all(caught["title block"]) and all(caught["other document"]) and catch >= 0.85, missed


def test_a_passage_on_the_topic_answers_and_one_beside_it_does_not():
    assert answers_question("How many days of paid holiday do I get?", (HANDBOOK,), EMBEDDER)
    assert not answers_question("What's on the canteen menu today?", (HANDBOOK,), EMBEDDER)
    title_only = passage(1, HANDBOOK.text.split("\n\n")[0], document=HANDBOOK.document, score=0.80)
    assert not answers_question("Who owns the onboarding guide?", (title_only,), EMBEDDER)


def test_lucias_canteen_question_is_not_found_with_ways_forward(seeded_pool, lucia):
    events, text = run(lucia, "¿Qué hay de menú hoy en la cantina?", seeded_pool)
    assert by_name(events, Grounding) == Grounding("general", "semantic")
    assert text.startswith("No encontré nada sobre esto") and "helpdesk" in text, text
    assert "Document code" not in text and by_name(events, Citations).citations == []
    chips = by_name(events, Suggestions)
    assert chips.suggestions and not any("menú" in s or "cantina" in s for s in chips.suggestions), chips
    assert any(action["kind"] == "helpdesk" for action in chips.actions)
    badge = badge_html("general", "semantic", by_name(events, Done).engine, "es")
    assert "No está en los documentos de la empresa" in badge and "Sin documentos" not in badge
    assert "Documento de la empresa" in badge_html("chunks", "semantic", "offline", "es")


def test_inside_the_english_course_spanish_questions_are_answered(seeded_pool, lucia):
    """Lucía has the English security course open: a question about the course is answered from its
    lessons; a question the course doesn't answer (returns) from the company's documents; the canteen
    by nothing."""
    course = "Seguridad de la información: lo esencial"
    events, text = run(lucia, "¿Qué es lo más importante de este curso?", seeded_pool, course=course)
    assert by_name(events, Grounding) == Grounding("chunks", "pageindex"), text
    assert by_name(events, Citations).citations[0]["source_type"] == "lesson"
    events, text = run(lucia, "¿Cuántos días tengo para devolver un producto?", seeded_pool, course=course)
    assert by_name(events, Grounding).rung == "chunks" and "30" in text, text
    assert {c["document"] for c in by_name(events, Citations).citations} & {
        "Manual de Atención al Cliente",
        "Returns and Refunds Policy",
    }
    events, text = run(lucia, "¿Qué hay de menú hoy en la cantina?", seeded_pool, course=course)
    assert by_name(events, Grounding).rung == "general" and text.startswith("No encontré nada"), text


def test_one_fact_once_and_no_padding():
    """The same fact from the Spanish and the English version of a policy is said once; a sentence of
    another document that shares no key term with the question is not appended (both seen in session 10:
    a vacation answer with a flights rule after it, the 30-day return period twice)."""
    english = "Customers may return any unused product within 30 days of purchase if they show proof of purchase."
    spanish = "El plazo general de devolución es de 30 días desde la compra, con el ticket o el justificante de compra."
    assert same_fact(spanish, english, EMBEDDER) and same_fact(english, spanish, EMBEDDER)
    assert not same_fact(spanish, "Access requests are normally completed within 2 working days.", EMBEDDER)
    found = [
        passage(1, english, document="Returns and Refunds Policy", section="2.1 Return period", score=0.85),
        passage(2, spanish, document="Manual de Atención al Cliente", section="5. Devoluciones", score=0.85),
    ]
    for question, language in [
        ("¿Cuántos días tengo para devolver un producto?", "es"),
        ("How many days do I have to return a product?", "en"),
    ]:
        assert select_sentences(question, found, language, EMBEDDER).count("30 d") == 1
    holiday = passage(
        1, "Full-time employees have 23 working days of paid holiday a year.", document="Employee Onboarding Guide"
    )
    flights = passage(
        2, "Los vuelos se reservan en clase turista, con al menos 14 días de antelación.", document="Política de Gastos"
    )
    answer = select_sentences("How many days of paid holiday do I get?", [holiday, flights], "en", EMBEDDER)
    assert "23 working days" in answer and "vuelos" not in answer, answer


def test_a_sentence_copied_into_several_documents_is_said_once():
    """The planted-injection corpus holds one fact in a handbook, a DOCX, an HTML page and a titled file: the
    offline answer said "Night shifts earn a bonus of 12 euros per shift." three times, one [n] each."""
    fact = "Night shifts earn a bonus of 12 euros per shift."
    found = [passage(n, fact, document=name, score=0.8) for n, name in enumerate(["handbook", "shifts", "titled_8"], 1)]
    assert same_fact(fact, " ".join(fact.upper().split()), EMBEDDER)
    answer = select_sentences("How much is the night shift bonus?", found, "en", EMBEDDER)
    assert answer.count("12 euros") == 1, answer


def test_a_short_lead_in_frames_its_list_and_a_figure_asked_is_the_sentences_own():
    """A list's lead-in too short to be a statement still makes its items rules (the unacceptable behaviours
    of the Code of Conduct were no answer to "is it acceptable…?"); asked for a minimum, the figure must be
    in the sentence, not in its lead-in (the 30 days to finish the courses answered a minimum age)."""
    conduct = passage(
        1,
        "Ejemplos de comportamiento inaceptable:\n\n* El acoso en público o privado\n* Publicar información "
        "privada de otras personas, tales como direcciones físicas o de correo electrónico, sin su permiso explícito",
        document="Código de Conducta",
        section="Nuestros estándares",
    )
    assert answers_question("¿Es aceptable publicar la dirección privada de otra persona?", (conduct,), EMBEDDER)
    courses = passage(
        1,
        "Complete these courses in SkillNet within 30 days:\n\n* Seguridad en el almacén (warehouse and "
        "distribution staff; completed before entering the operations area).",
        document="Employee Onboarding Guide",
        section="Your first day",
    )
    assert asked_kind("¿Cuál es la edad mínima para trabajar en el almacén?") == "amount"
    assert not answers_question("¿Cuál es la edad mínima para trabajar en el almacén?", (courses,), EMBEDDER)


def test_a_question_about_my_account_is_not_a_progress_question():
    """ "¿Cuánto tarda en configurarse mi cuenta de Concur?" sat nearer "¿Cuándo vence mi curso?" than any
    policy exemplar and got Lucía's progress report: the offline classifier now also asks for a word of
    learning (a course, a score, a review…) before it reads a message as progress."""
    assert offline_intent("¿Cuánto tarda en configurarse mi cuenta de Concur?", False, EMBEDDER) == "cross_course"
    assert offline_intent("How long does it take to set up my Concur account?", False, EMBEDDER) == "cross_course"
    assert offline_intent("¿Cuándo vence mi curso?", False, EMBEDDER) == "progress"
    assert offline_intent("What score did I get in my course?", False, EMBEDDER) == "progress"


def test_another_documents_sentence_beside_the_answer_must_be_on_the_question():
    """Read on train: James's day-trip lunch answer (25 EUR, right) went on with the TTS laundry rule ("May only
    be reimbursable if travel involves at least 4 consecutive nights"), another document's rule out of context."""
    allowances = passage(
        1,
        "Cuando un viaje obliga a pernoctar fuera de casa, el empleado recibe una dieta de 50 EUR por día en España y "
        "de 70 EUR por día en el extranjero para cubrir comidas y pequeños gastos. En los viajes de un solo día sin "
        "pernoctación, se reembolsa la comida con tique hasta un máximo de 25 EUR.",
        document="Política de Gastos y Viajes",
        section="5. Dietas y comidas > 5.1 Dietas",
        score=0.85,
    )
    laundry = passage(
        2,
        "Laundry expenses\n\nMay only be reimbursable if travel involves at least 4 consecutive nights.",
        document="TTS Handbook: Travel guide",
        section="Other necessary expenses > Laundry",
        score=0.84,
    )
    question = "How much is reimbursed for lunch on a day trip with no overnight stay?"
    answer = select_sentences(question, [allowances, laundry], "en", EMBEDDER)
    assert "25 EUR" in answer and "consecutive nights" not in answer


def test_a_sentence_sharing_only_generic_workplace_words_does_not_answer():
    """Before: "How many days a week can I work from home?" was answered "By day 60: you work independently…"
    (it covers "days", "week" and "work", which any workplace question holds; nothing of "home")."""
    plan = passage(
        1,
        "Together with your manager you will agree a 30-60-90 day plan during your first week:\n\n"
        "By day 60: you work independently on routine tasks and know whom to ask for the rest.",
        document="Employee Onboarding Guide",
        section="The 30-60-90 day plan",
        score=0.8,
    )
    assert not answers_question("How many days a week can I work from home?", (plan,), EMBEDDER)
    assert answers_question("By which day do I work independently on routine tasks?", (plan,), EMBEDDER)


def test_a_condition_answers_when_and_may_i():
    """Session 15, train: "When can I take a cash advance from an ATM…?" and "Can I use court leave to appear as a
    witness?" were answered "not found" beside the documents' sentences, which state a condition, not a date or
    a permission word."""
    atm = "You may use your travel card to get a cash advance from an ATM, but only if your travel is authorized."
    witness = "You would also request court leave if you are asked to serve as a witness in a judicial proceeding."
    assert asked_kind("When can I take a cash advance from an ATM?") == "when" and holds_kind(atm, "when")
    assert asked_kind("Can I use court leave to appear as a witness?") == "rule" and holds_kind(witness, "rule")
    assert holds_kind("Se exige casco durante los trabajos en altura.", "when")
    assert not holds_kind("The first day starts at the reception of the head office.", "rule")  # no condition
