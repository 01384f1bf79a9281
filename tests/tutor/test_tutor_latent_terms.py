"""The answer check's second way to pass (issue 29, session 17): the bundled model's latent terms
(agents/tutor/latent_terms.py). An employee's own words cover too few of a sentence's words for the key-term
test ("¿hasta cuánto puede costar el hotel?" against "El precio máximo por noche de hotel…"); the sentence whose
latent terms match the question's clearly best among the judged ones passes, if it holds the kind of fact asked
and more than a third of the key terms. Neighbour topics (the canteen's menu, parking at head office, another
section's figure) must still be refused."""

from __future__ import annotations

from agents.runtime.deps import process_embedder
from agents.tutor.answer_check import MIN_COVERAGE, answering, coverage, key_terms, ranked_sentences
from agents.tutor.latent_terms import latent_similarity
from tests.tutor.conftest import passage

EMBEDDER = process_embedder()
EXPENSES, ONBOARDING = "Política de Gastos y Viajes", "Employee Onboarding Guide"
HOTEL = passage(
    1,
    "El precio máximo por noche de hotel, con desayuno incluido, es de 120 EUR en España y de 180 EUR en Londres, "
    "París y otras capitales europeas. Si no hay disponibilidad dentro del límite, la agencia de viajes justifica la "
    "excepción. No se reembolsan los gastos de minibar, películas ni servicios de ocio del hotel.",
    document=EXPENSES,
    section="4. Alojamiento",
    score=0.80,
)
TRAIN = passage(
    2,
    "Para trayectos de menos de 600 km se usa el tren en clase turista, salvo que no exista conexión razonable. Los "
    "vuelos se reservan en clase turista, con al menos 14 días de antelación siempre que sea posible.",
    document=EXPENSES,
    section="3.1 Tren y avión",
    score=0.78,
)
CAR = passage(
    3,
    "El uso del vehículo propio se compensa a 0,26 EUR por kilómetro, más peajes y aparcamiento justificados. Los "
    "taxis y vehículos con conductor se usan cuando no haya transporte público adecuado, por la noche o cuando se "
    "viaja con material pesado. Los vehículos de alquiler se reservan en categoría económica o compacta.",
    document=EXPENSES,
    section="3.2 Vehículo propio y taxis",
    score=0.77,
)
BUDDY = passage(
    1,
    "Every new employee gets a buddy: an experienced colleague from another team who helps with the practical "
    "questions nobody writes down. Your buddy meets you at least once a week during your first 4 weeks. The buddy "
    "is not your manager: performance matters are discussed with your line manager.",
    document=ONBOARDING,
    section="4. Your onboarding buddy",
    score=0.80,
)
PROBATION = passage(
    2,
    "The probation period is 2 months for store and warehouse roles and 6 months for technical and management "
    "roles, as set out in your contract. Your manager gives you feedback at least once a month so that there are "
    "no surprises.",
    document=ONBOARDING,
    section="7. Probation period",
    score=0.78,
)
PAY = passage(
    3,
    "- Salaries are paid by bank transfer on the last working day of each month.\n- Full-time employees have 23 "
    "working days of paid holiday a year, plus public holidays.\n- Store and warehouse staff record their working "
    "time with their badge at the time clock; office staff record it in the HR portal.",
    document=ONBOARDING,
    section="8. Pay, time and leave",
    score=0.77,
)


def _lead(question: str, passages: tuple) -> str | None:
    lead = answering(question, ranked_sentences(question, passages, EMBEDDER), EMBEDDER)
    return lead.sentence if lead else None


def test_latent_terms_are_much_the_same_in_either_language():
    sentences = [
        "Passwords must be at least 12 characters long.",
        "Las contraseñas deben tener al menos 12 caracteres.",
        "The canteen is open from 12:00 to 15:00.",
        "Refunds are always made to the original payment method.",
    ]
    for question in ("how long does my new password need to be?", "¿qué longitud debe tener mi contraseña nueva?"):
        similarity = latent_similarity(question, sentences)
        assert similarity is not None
        assert min(similarity[:2]) > 2 * max(similarity[2:]), (question, similarity)


def test_an_employees_own_words_pass_by_latent_terms():
    for question, passages, answer in (
        (
            "la semana que viene voy a Londres, ¿hasta cuánto puede costar el hotel por noche?",
            (HOTEL, TRAIN, CAR),
            "180 EUR en Londres",
        ),
        ("how often will I see my buddy in the first months?", (BUDDY, PROBATION, PAY), "once a week"),
    ):
        lead = _lead(question, passages)
        assert lead is not None and answer in lead, (question, lead)
        # the key-term test alone refuses it: the employee's words are not the document's
        framed = f"{lead} {next(p.section for p in passages if lead in p.text)} {passages[0].document}"
        assert coverage(key_terms(question), framed, EMBEDDER) < MIN_COVERAGE


def test_neighbour_topics_are_still_refused():
    assert (
        _lead("la semana que viene voy a Londres, ¿hasta cuánto puede costar el hotel por noche?", (TRAIN, CAR)) is None
    )
    assert _lead("how often will I see my buddy in the first months?", (PROBATION, PAY)) is None
    assert _lead("What are the night-shift hours in the warehouse?", (PROBATION, PAY)) is None
    assert _lead("¿Qué hay de menú hoy en la cantina?", (BUDDY, PROBATION, PAY)) is None
    assert _lead("¿Dónde puedo aparcar el coche en la oficina central?", (HOTEL, TRAIN, CAR)) is None


def test_planted_defects_beside_an_employees_words_are_caught():
    """The judge judged: what the second way must not let through, for the question it lets through above."""
    question = "la semana que viene voy a Londres, ¿hasta cuánto puede costar el hotel por noche?"
    header = passage(
        1, "Document code: FIN-TRV-002 · Version 3.1 · Owner: Finance · For: every employee", document=EXPENSES
    )
    same_figure = passage(  # another document's sentence carrying the figure of the answer
        1,
        "A store manager may approve refunds up to 180 EUR in London, Paris and the other European stores.",
        document="Returns and Refunds Policy",
        section="3.2 Approval limits",
        score=0.80,
    )
    unfigured = passage(1, HOTEL.text.replace("120 EUR", "").replace("180 EUR", ""), document=EXPENSES, section="4")
    for planted in ((header,), (same_figure,), (unfigured, TRAIN), (header, TRAIN, CAR)):
        assert _lead(question, planted) is None, planted


def test_a_remote_embedder_has_no_latent_terms_and_the_rule_decides_alone(monkeypatch):
    """Only the bundled model has a sparse head: with an embedding server nothing is sent for latent terms."""
    monkeypatch.setenv("EMBEDDINGS_BASE_URL", "http://127.0.0.1:9/v1")  # never reached
    question = "¿quién firma el parte cuando una carretilla se avería a mitad de turno?"  # kept by no other test
    assert latent_similarity(question, ["El jefe de turno firma el parte de averías."]) is None
