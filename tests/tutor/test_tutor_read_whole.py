"""The offline answer reads whole (issue 29, "the answer in the answer"): a sentence that opens by pointing back
brings the one it points to, and a list the answer takes items of is quoted whole under its lead-in, one item a
line — found in session 14's walk ("It sends the message…" without the button it is about; the ACRE method
answered with three of its four steps)."""

from __future__ import annotations

from agents.tutor.answer_check import Ranked
from agents.tutor.read_whole import read_whole
from tests.tutor.conftest import passage, run

PHISHING = (
    'Use the "Report phishing" button in Outlook. It sends the message to the Information Security team. '
    "Do not forward suspicious e-mails to colleagues."
)
ACRE = (
    "Para atender cualquier consulta seguimos el método ACRE:\n\n"
    "1) Acoger: saludar, sonreír y mostrar disponibilidad.\n\n"
    "2) Comprender: escuchar sin interrumpir.\n\n"
    "3) Resolver: ofrecer la solución o las alternativas posibles.\n\n"
    "4) Encantar: confirmar que el cliente está satisfecho.\n\n"
    "Una queja bien resuelta fideliza al cliente."
)


def _ranked(number: int, sentences: list[str]) -> tuple[Ranked, ...]:
    return tuple(
        Ranked(number, position, sentence, 1.0 - position / 10, "") for position, sentence in enumerate(sentences)
    )


def test_a_sentence_that_points_back_brings_the_one_before_it():
    ranked = _ranked(
        1,
        [
            'Use the "Report phishing" button in Outlook.',
            "It sends the message to the Information Security team.",
            "Do not forward suspicious e-mails to colleagues.",
        ],
    )
    body = read_whole([ranked[1], ranked[2]], ranked, [passage(1, PHISHING)], 700)
    assert body.startswith('Use the "Report phishing" button in Outlook. It sends the message'), body
    assert body.endswith("colleagues. [1]"), body
    alone = read_whole([ranked[2]], ranked, [passage(1, PHISHING)], 700)
    assert alone == "Do not forward suspicious e-mails to colleagues. [1]"  # no pointing back: nothing added


def test_items_of_one_list_bring_the_whole_list_under_its_lead_in():
    items = [
        "Acoger: saludar, sonreír y mostrar disponibilidad.",
        "Comprender: escuchar sin interrumpir.",
        "Resolver: ofrecer la solución o las alternativas posibles.",
        "Encantar: confirmar que el cliente está satisfecho.",
        "Una queja bien resuelta fideliza al cliente.",
    ]
    ranked = _ranked(1, items)
    body = read_whole([ranked[1], ranked[2], ranked[3]], ranked, [passage(1, ACRE)], 700)
    lines = body.splitlines()
    assert lines[0] == "Para atender cualquier consulta seguimos el método ACRE:", body
    assert [line[:3] for line in lines[2:]] == ["1) ", "2) ", "3) ", "4) "], body
    assert body.endswith("satisfecho. [1]") and "fideliza" not in body, body
    one_item = read_whole([ranked[1]], ranked, [passage(1, ACRE)], 700)
    assert one_item == "Comprender: escuchar sin interrumpir. [1]"  # one item asked: that item
    assert "Acoger" not in read_whole([ranked[1], ranked[2]], ranked, [passage(1, ACRE)], 60)  # too long: as chosen


def test_the_acre_method_is_answered_with_its_four_steps(seeded_pool, lucia):
    _events, text = run(lucia, "¿Qué es el método ACRE?", seeded_pool)
    steps = [text.find(step) for step in ("Acoger:", "Comprender:", "Resolver:", "Encantar:")]
    assert 0 < steps[0] < steps[1] < steps[2] < steps[3], text
    assert "seguimos el método ACRE:" in text, text


ACCRUAL = (  # the TTS Handbook's leave page (seeds/public/tts_leave_types.md)
    "Annual leave accrues based on how long you’ve worked for the federal government:\n\n"
    "* Fewer than 3 years: 4 hours per pay period\n"
    "* Between 3 and 15 years: 6 hours per pay period\n"
    "* 15+ years: 8 hours per pay period\n\n"
    "You can carry over a maximum of 240 annual leave hours, from one leave year to the next."
)


def test_two_items_of_a_list_beside_another_sentence_bring_the_list_whole():
    """Session 15, train: "¿Cuántas horas de vacaciones acumulo … con más de 15 años de servicio?" was answered
    "Fewer than 3 years: 4 hours per pay period Between 3 and 15 years: 6 hours per pay period You can carry
    over…", two rows run together and the one asked missing."""
    ranked = _ranked(
        1,
        [
            "Fewer than 3 years: 4 hours per pay period",
            "Between 3 and 15 years: 6 hours per pay period",
            "15+ years: 8 hours per pay period",
            "You can carry over a maximum of 240 annual leave hours, from one leave year to the next.",
        ],
    )
    body = read_whole([ranked[0], ranked[1], ranked[3]], ranked, [passage(1, ACCRUAL)], 700)
    blocks = body.split("\n\n")
    assert blocks[0] == "Annual leave accrues based on how long you’ve worked for the federal government:", body
    assert blocks[1].splitlines() == [
        "* Fewer than 3 years: 4 hours per pay period",
        "* Between 3 and 15 years: 6 hours per pay period",
        "* 15+ years: 8 hours per pay period [1]",
    ], body
    assert blocks[2] == "You can carry over a maximum of 240 annual leave hours, from one leave year to the next. [1]"
