"""An employee's everyday words against the documents' words (issue 29, session 19's walk): "can I wear my own
trainers in the warehouse?" was answered, cited, with a mandatory course's name ("trainers" shared its first five
letters with "training"); "me he puesto mala el lunes, ¿qué hago?" was refused beside "If you are ill, tell your
manager…" ("mala" alone is "bad": the idiom is "sick"); "¿quién me da la compu del trabajo cuando entro?" was answered
with the same course's name ("compu" read as "compulsory"). Each test plants the wrong sentence the old check let
through and asks that it is refused."""

from __future__ import annotations

from agents.runtime.deps import process_embedder
from agents.tutor.answer_check import answers_question, key_terms
from agents.tutor.answers import select_sentences
from core import glossary
from core.turns import Grounding
from tests.tutor.conftest import by_name, passage, run

EMBEDDER = process_embedder()

MANDATORY_COURSES = passage(
    1,
    "Complete these courses in SkillNet during your first month:\n\n"
    "- Information security essentials (everyone).\n"
    "- Seguridad en el almacén (warehouse and distribution staff; completed before entering the operations area).",
    document="Employee Onboarding Guide",
    section="6. Mandatory training",
    score=0.83,
)
PROTECTIVE_EQUIPMENT = passage(
    2,
    "En toda la zona de operaciones del almacén son obligatorios:\n\n"
    "- Calzado de seguridad de categoría S3, con puntera reforzada y suela antideslizante y antiperforación.\n"
    "- Chaleco de alta visibilidad.",
    document="Manual de Seguridad en el Almacén",
    section="3.1 EPI obligatorios",
    score=0.82,
)
TRAINERS = "can I wear my own trainers in the warehouse?"


def test_trainers_are_footwear_not_training():
    assert "footw" in glossary.equivalents("trainers") and "calza" in glossary.equivalents("trainers")
    assert "footw" not in glossary.equivalents("training")  # "training" keeps its meaning
    assert "forma" in glossary.equivalents("training") and "forma" not in glossary.equivalents("trainers")
    assert "lapto" in glossary.equivalents("compu") and "oblig" not in glossary.equivalents("compu")
    assert "oblig" in glossary.equivalents("compulsory")


def test_trainers_in_the_warehouse_are_answered_with_the_safety_footwear_or_refused():
    answer = select_sentences(TRAINERS, [MANDATORY_COURSES, PROTECTIVE_EQUIPMENT], "en", EMBEDDER)
    assert "S3" in answer and "Seguridad en el almacén" not in answer, answer
    # planted: the course list alone does not say what to wear, and must not pass for the answer
    assert not answers_question(TRAINERS, (MANDATORY_COURSES,), EMBEDDER)


PAY_TIME_AND_LEAVE = passage(
    1,
    "- Salaries are paid by bank transfer on the last working day of each month. Your payslip is available in the "
    "HR portal.\n- If you are ill, tell your manager before the start of your shift and send the medical "
    "certificate to People & Culture within 3 days.",
    document="Employee Onboarding Guide",
    section="8. Pay, time and leave",
    score=0.83,
)
SICK_MONDAY = "me he puesto mala el lunes, ¿qué hago?"
FIRST_DAY = passage(
    2,
    "- Receive your laptop or handheld device from the IT Service Desk and set your password.",
    document="Employee Onboarding Guide",
    section="3. Your first day",
    score=0.82,
)


def test_an_everyday_idiom_for_being_ill_is_asked_in_the_glossarys_word():
    assert glossary.plain("Me he puesto mala el lunes") == " enfermo  el lunes"
    assert "enfermo" in key_terms(SICK_MONDAY) and "mala" not in key_terms(SICK_MONDAY)
    assert "mala" in key_terms("¿Qué hago con una mala reseña de un cliente?")  # "mala" alone stays "bad"
    assert "sick" in glossary.gloss("I'm feeling unwell, what do I do?")


def test_a_sick_monday_is_answered_with_what_to_do_when_ill():
    assert answers_question(SICK_MONDAY, (PAY_TIME_AND_LEAVE,), EMBEDDER)
    assert "tell your manager" in select_sentences(SICK_MONDAY, [PAY_TIME_AND_LEAVE], "es", EMBEDDER)
    # planted: the same section without the sentence about being ill
    payslip = passage(1, PAY_TIME_AND_LEAVE.text.split("\n- If")[0], document="Employee Onboarding Guide", score=0.83)
    assert not answers_question(SICK_MONDAY, (payslip,), EMBEDDER)


def test_the_work_laptop_is_not_a_compulsory_course():
    question = "¿quién me da la compu del trabajo cuando entro?"
    assert answers_question("¿quién me da el portátil del trabajo?", (FIRST_DAY,), EMBEDDER)
    # planted: the mandatory courses' list names no laptop ("compu" read as "compulsory" passed it)
    assert not answers_question(question, (MANDATORY_COURSES,), EMBEDDER)


def test_the_words_of_a_conversation_are_not_what_a_question_is_about():
    terms = key_terms("A bloke reckons I should just cut the toe cap out of my boots. Is that actually allowed?")
    assert {"bloke", "reckons", "actually"}.isdisjoint(terms) and {"cut", "toe", "cap", "boots"} <= set(terms)
    assert {"aca", "nomas"}.isdisjoint(key_terms("¿le puedo prestar la llave de la carretilla acá nomás?"))


DELAYED_ORDERS = passage(
    1,
    "Si un pedido en línea se retrasa más de 3 días sobre la fecha prometida, el cliente puede elegir entre esperar "
    "con un vale de cortesía de 10 EUR o cancelar el pedido con reembolso completo.",
    document="Manual de Atención al Cliente",
    section="7. Pedidos retrasados o incidencias de entrega",
    score=0.83,
)


def test_what_is_expected_of_me_is_not_waiting_for_an_order():
    """ "¿Qué se espera de mí…?" asks what is expected, not how long to wait: it was answered, cited, with the delayed
    orders' 3 days and 10 EUR voucher (session 19, the lead's read of the guided walk)."""
    question = "¿Qué se espera de mí cuando lleve 60 días en la empresa?"
    assert "expectativa" in key_terms(question) and "espera" not in key_terms(question)
    assert not answers_question(question, (DELAYED_ORDERS,), EMBEDDER)  # planted: waiting, not expecting
    assert "espera" in key_terms("¿Cuánto tiempo espera un cliente con un pedido retrasado?")  # waiting stays waiting


def test_my_boss_is_my_manager():
    password_rules = passage(
        1,
        "- No sharing: never tell anyone your password, including colleagues, managers or the IT Service Desk.",
        document="Information Security Policy",
        section="4.1 Password standard",
        score=0.84,
    )
    assert "manag" in glossary.equivalents("boss")
    assert answers_question("my boss asked me to share my password, is that ok?", (password_rules,), EMBEDDER)


def test_a_medical_certificate_is_no_receipt_a_customer_has_not_received():
    """ "¿En qué plazo tengo que enviar el justificante médico?" was answered, cited, with a delayed order ("el
    cliente no lo ha recibido"): "justificante" sat on the receipt line beside "recibo", whose first five letters
    are "recibido"'s. A "justificante" is a proof or a certificate (glossary.txt's proof and certify lines)."""
    question = "¿En qué plazo tengo que enviar el justificante médico?"
    delivery = passage(
        1,
        "Si el transportista marca un pedido como entregado pero el cliente no lo ha recibido, abrimos una "
        "investigación con el transportista, que dura como máximo 5 días hábiles.",
        document="Manual de Atención al Cliente",
        section="7. Pedidos retrasados o incidencias de entrega",
        score=0.83,
    )
    assert "recib" not in glossary.equivalents("justificante")
    assert {"certi", "proof"} <= glossary.equivalents("justificante")  # still a certificate, still a proof
    assert not answers_question(question, (delivery,), EMBEDDER)
    assert answers_question(question, (PAY_TIME_AND_LEAVE,), EMBEDDER)


def test_what_kind_of_is_how_a_question_is_asked_in_spanish_too():
    """ "What kind of…" asks; "¿Qué tipo de comunidad nos comprometemos a construir?" kept "tipo" as a term the
    commitment had to hold, was refused, and pointed at «4. Expulsión permanente» (whose text says "tipo")."""
    assert key_terms("¿Qué tipo de comunidad nos comprometemos a construir?") == [
        "comunidad",
        "comprometemos",
        "construir",
    ]
    assert key_terms("What kind of community do we pledge to build?") == ["community", "pledge", "build"]
    assert "tipos" in key_terms("¿Puedo juntar varios tipos de permiso?")  # "types of leave": what is asked about
    commitment = passage(
        1,
        "Nosotros, como miembros, contribuyentes y administradores nos comprometemos a hacer de la participación en "
        "nuestra comunidad una experiencia libre de acoso para todo el mundo.",
        document="Código de Conducta convenido para Contribuyentes",
        section="Nuestro compromiso",
        score=0.82,
    )
    assert answers_question("¿Qué tipo de comunidad nos comprometemos a construir?", (commitment,), EMBEDDER)


def test_an_angry_customer_is_answered_from_the_section_on_upset_customers(seeded_pool, lucia, james):
    """ "¿Qué hago si un cliente está muy enfadado?" (the real-model bench's question, session 21) was refused, in the
    model's turn too: "enfadado" was in no glossary line, so beside the other passages retrieved, the customer-service
    manual's section on upset customers ("clientes molestos") held half the question's key terms."""
    assert {"angry", "moles", "enoja"} <= glossary.equivalents("enfadado")
    assert "enfad" not in glossary.equivalents("aggressive")  # upset is not aggressive: two meanings, two lines
    for who, question, said in (
        (lucia, "¿Qué hago si un cliente está muy enfadado?", "mantenemos la calma"),
        (james, "What do I do if a customer is really angry?", "stay calm"),
    ):
        events, text = run(who, question, seeded_pool)
        assert by_name(events, Grounding).rung == "chunks" and said in text, text
