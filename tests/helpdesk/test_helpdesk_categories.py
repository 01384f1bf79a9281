"""The offline helpdesk's category on a labelled set of common IT and HR problems in Spanish and English
(tests/helpdesk/data/categories.jsonl, written for issue 32: a BitLocker boot screen that asks for a
"password" was filed as an account problem). Accuracy is printed; the floor is 0.95."""

import json
from collections import Counter
from pathlib import Path

from agents.helpdesk.twins import classify, ticket_title

CASES = [json.loads(line) for line in (Path(__file__).parent / "data" / "categories.jsonl").read_text().splitlines()]


def category(text: str) -> str:
    return classify({"conversation": [{"role": "user", "content": text}]}).category


def test_categories_are_right_on_the_labelled_problems():
    wrong = [
        (case["category"], category(case["text"]), case["text"])
        for case in CASES
        if category(case["text"]) != case["category"]
    ]
    accuracy = 1 - len(wrong) / len(CASES)
    print(
        f"\nhelpdesk categories: {accuracy:.3f} right on {len(CASES)} problems "
        f"({dict(Counter(case['category'] for case in CASES))}); wrong: {wrong}"
    )
    assert accuracy >= 0.95, wrong
    assert (
        category("El portátil se queda bloqueado al arrancar en la pantalla de BitLocker pidiendo una contraseña")
        == "hardware"
    )
    assert category("Mi cuenta está bloqueada después de varios intentos") == "account"


def test_a_title_is_short_cut_at_a_word_and_skips_the_greeting():
    report = (
        "Hola, buenos días. Al encender el portátil sale una pantalla azul de BitLocker que me pide una clave "
        "de recuperación de 48 dígitos y no la tengo, no puedo trabajar desde esta mañana."
    )
    title = ticket_title(report)
    assert len(title) <= 80 and title.endswith("…") and title.startswith("Al encender el portátil")
    assert title[:-1] in report and report[report.index(title[:-1]) + len(title) - 1] == " ", "cut at a word"
    assert ticket_title("No puedo entrar en Oracle. Me da 403.") == "No puedo entrar en Oracle"
    assert ticket_title("Hola") == "Hola"
