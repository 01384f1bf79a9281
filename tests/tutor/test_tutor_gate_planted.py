"""Judging the judge with the defects an employee's question meets (issue 29, session 20): beside the title
blocks and off-topic sentences of test_tutor_answer_check.py, a sentence with the right kind of fact about the
wrong subject (the funeral leave's 3 days for the parental bereavement leave asked, the COVID vaccine's 4 hours for
blood donation) and a neighbour in the other language (an English organ donor's days for a Spanish question about
military leave). Every sentence is one of the documents in seeds/; each planted sentence is judged alone, as
the only statement retrieved, with the same retrieval score as the clean one. The catch rate and the false flags
are pinned where they were measured (the rule gate: kind of fact + key-term coverage); a gate that replaces it must
catch at least as many without refusing a clean answer."""

from __future__ import annotations

from agents.runtime.deps import process_embedder
from agents.tutor.answer_check import answers_question
from tests.tutor.conftest import passage

EMBEDDER = process_embedder()
# measured on main 2447f45: wrong subject 4 of 6, translated neighbour 2 of 4 caught, no clean answer refused. Missed:
# the COVID vaccine's hours for blood donation (both languages), the funeral leave for military leave, the organ
# donor's days for "permiso militar": a figure of leave beside "leave"/"administrative leave" covers enough terms.
# (The learned gate tried in session 20, not landed, caught 5: it also passed the advanced sick leave's 240 hours.)
MEASURED_FALSE_FLAGS = 0
MEASURED_CAUGHT = 6
LEAVE = "TTS Handbook: Leave types"
RETURNS = "Returns and Refunds Policy"
EXPENSES = "Política de Gastos y Viajes"

FUNERAL = "You can receive 3 days (24 hours) of funeral leave to plan or attend services of an immediate relative who has suffered a combat-related death."  # noqa: E501
VACCINE = "You can take up to 4 hours of Administrative Leave to get a COVID vaccine or booster for yourself or a family member."  # noqa: E501
BLOOD = "You can also be granted up to 4 hours of Administrative Leave for blood donation."
ORGAN = "You can access up to 7 days of Administrative Leave during a calendar year to serve as a bone marrow donor, and up to 30 days serve as an organ donor."  # noqa: E501
MILITARY = "You can receive 15 Military Leave days each year for active duty, active duty training, and inactive duty training in the National Guard or as a Reservist."  # noqa: E501
CARRY_OVER = "You can carry over a maximum of 240 annual leave hours, from one leave year to the next."
ADVANCED_SICK = "You can request up to 240 hours of advanced sick leave."
BEREAVEMENT = "You can receive two weeks (80 hours) of parental bereavement leave for the passing of your child."
RETURN_PERIOD = "Customers may return any unused product within 30 days of purchase if they show proof of purchase."
GIFT = "Gift receipts allow an exchange or store credit, never a cash refund, and are valid for 90 days."
HOTEL = "El precio máximo por noche de hotel, con desayuno incluido, es de 120 EUR en España."
MILEAGE = "El uso del vehículo propio se compensa a 0,26 EUR por kilómetro, más peajes y aparcamiento justificados."

# (question, the sentence that answers it, its document, a wrong sentence: the right kind, the wrong subject,
# and a neighbour of the same kind in the other language)
CASES = [
    ("How much parental bereavement leave is there for the loss of a child?", BEREAVEMENT, LEAVE, FUNERAL, None),
    ("How many hours of administrative leave can I get for blood donation?", BLOOD, LEAVE, VACCINE, None),
    ("How many annual leave hours can I carry over to the next year?", CARRY_OVER, LEAVE, ADVANCED_SICK, None),
    ("How many days of military leave do I get each year?", MILITARY, LEAVE, FUNERAL, None),
    ("¿Cuántos días de permiso militar tengo al año?", MILITARY, LEAVE, None, ORGAN),
    ("¿Cuántas horas de permiso me dan por donar sangre?", BLOOD, LEAVE, None, VACCINE),
    ("How long is a gift receipt valid?", GIFT, RETURNS, RETURN_PERIOD, None),
    ("¿Cuánto tiempo es válido un ticket regalo?", GIFT, RETURNS, None, RETURN_PERIOD),
    ("¿Cuánto se paga por kilómetro si uso mi coche?", MILEAGE, EXPENSES, HOTEL, None),
    ("What is the maximum hotel price per night in Spain?", HOTEL, EXPENSES, None, MILEAGE),
]


def _passes(question: str, sentence: str, document: str) -> bool:
    return answers_question(question, (passage(1, sentence, document=document, score=0.8),), EMBEDDER)


def test_the_gate_catches_the_wrong_subject_and_the_translated_neighbour():
    clean = [_passes(question, right, document) for question, right, document, _, _ in CASES]
    planted = [
        (defect, question, not _passes(question, wrong, document))
        for question, _, document, same_kind, translated in CASES
        for defect, wrong in (("right kind, wrong subject", same_kind), ("translated neighbour", translated))
        if wrong
    ]
    caught = {defect: [ok for d, _, ok in planted if d == defect] for defect, _, _ in planted}
    false_flags = [question for (question, *_), ok in zip(CASES, clean) if not ok]
    missed = [question for _, question, ok in planted if not ok]
    print({d: f"{sum(v)}/{len(v)}" for d, v in caught.items()}, "false flags", false_flags, "missed", missed)
    assert len(false_flags) <= MEASURED_FALSE_FLAGS, false_flags
    assert sum(ok for *_, ok in planted) >= MEASURED_CAUGHT, missed
