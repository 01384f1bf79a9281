"""A list answered with the item asked, ranked and quoted with its lead-in (issue 29, session 22). The warehouse and
security PDFs' lists reach the chunks as one line ("…son obligatorios: • Calzado… • Chaleco… • Guantes…"), so the
whole list was one sentence and an answer quoted all of it: "how long does my new password need to be?" got the
four rules of the password standard, "What colour vest do visitors wear?" the three pieces of equipment. A bullet
inside a line now starts an item; an item is ranked alone and after its list's lead-in, and quoted after it once.
The passages are the PDFs' chunks as ingestion gives them (seeds/documents)."""

from __future__ import annotations

from agents.offline import enclosing_list, item_lead_ins, split_sentences
from agents.runtime.deps import process_embedder
from agents.tutor.answer_check import Ranked, answers_question
from agents.tutor.answers import select_sentences
from agents.tutor.read_whole import read_whole
from tests.tutor.conftest import passage

EMBEDDER = process_embedder()

PASSWORD_STANDARD = (  # information_security_policy.pdf, "4.1 Password standard (POL-SEC-004)"
    "Your password is the key to your account and to everything you can reach with it. The Password Standard "
    "POL-SEC-004 requires: • A minimum length of 14 characters. A passphrase of four or more unrelated words is "
    "easier to remember and harder to crack than a short complex password. • No reuse: never use your Acme password "
    "on any other website or service, and do not reuse any of your last 10 Acme passwords. • No sharing: never tell "
    "anyone your password, including colleagues, managers or the IT Service Desk. The Service Desk will never ask "
    "for your password. • Change your password immediately if you think someone else may know it, and report it as "
    "a security incident. Passwords do not expire on a fixed schedule any more; they must be changed when there is "
    "any sign of compromise. Use the company password manager to store other work passwords; never write passwords "
    "on paper or in a text file."
)
PROTECTIVE_EQUIPMENT = (  # manual_seguridad_almacen.pdf, "3.1 EPI obligatorios"
    "En toda la zona de operaciones del almacén son obligatorios: • Calzado de seguridad de categoría S3, con "
    "puntera reforzada y suela antideslizante y antiperforación. • Chaleco de alta visibilidad, de color amarillo "
    "para el personal de Acme y de color naranja para visitantes y transportistas. • Guantes de protección mecánica "
    "al manipular cajas, flejes, palés o cuchillas. Además, según la tarea, se exige casco en las zonas de "
    "estanterías de más de 6 metros durante los trabajos en altura, gafas de protección al cortar flejes o manipular "
    "productos químicos y protectores auditivos en la zona de compactadoras."
)


def test_a_bullet_inside_a_line_starts_an_item_of_its_own():
    sentences = split_sentences(PROTECTIVE_EQUIPMENT)
    assert sentences[:4] == [
        "En toda la zona de operaciones del almacén son obligatorios:",
        "Calzado de seguridad de categoría S3, con puntera reforzada y suela antideslizante y antiperforación.",
        "Chaleco de alta visibilidad, de color amarillo para el personal de Acme y de color naranja para visitantes "
        "y transportistas.",
        "Guantes de protección mecánica al manipular cajas, flejes, palés o cuchillas.",
    ]
    lead_in, items = enclosing_list("Chaleco de alta visibilidad", PROTECTIVE_EQUIPMENT)
    assert lead_in == "En toda la zona de operaciones del almacén son obligatorios:"
    assert [item[:10] for item in items] == ["• Calzado ", "• Chaleco ", "• Guantes "]
    lead_ins = item_lead_ins(PASSWORD_STANDARD)
    assert lead_ins["A minimum length of 14 characters."] == "The Password Standard POL-SEC-004 requires:"
    # an item's second sentence goes on with the item: no lead-in of its own
    assert not any(sentence.startswith("A passphrase") for sentence in lead_ins)
    assert "Passwords do not expire" not in " ".join(lead_ins)


def test_the_item_asked_is_the_answer_after_its_lead_in_not_the_whole_list():
    standard = passage(
        1,
        PASSWORD_STANDARD,
        document="Information Security Policy",
        section="4.1 Password standard (POL-SEC-004)",
        score=0.87,
    )
    question = "how long does my new password need to be?"
    assert answers_question(question, (standard,), EMBEDDER)
    answer = select_sentences(question, [standard], "en", EMBEDDER)
    assert answer.startswith("The Password Standard POL-SEC-004 requires: A minimum length of 14 characters."), answer
    assert "No sharing" not in answer and "•" not in answer, answer
    equipment = passage(
        1,
        PROTECTIVE_EQUIPMENT,
        document="Manual de Seguridad en el Almacén",
        section="3.1 EPI obligatorios",
        score=0.85,
    )
    vest = select_sentences("What colour vest do visitors wear in the warehouse?", [equipment], "en", EMBEDDER)
    assert vest.startswith("En toda la zona de operaciones del almacén son obligatorios: Chaleco"), vest
    assert "naranja para visitantes" in vest and "Calzado" not in vest, vest


def test_a_lead_in_is_said_once_before_the_first_item_quoted():
    def ranked(position: int, sentence: str) -> Ranked:
        return Ranked(1, position, sentence, 1.0 - position / 10, "", lead_in="El procedimiento es:")

    first = ranked(0, "Fotografiar cada tique o factura con la aplicación de gastos el mismo día del gasto.")
    later = ranked(3, "Enviar la nota de gastos a aprobación del responsable directo.")
    body = read_whole([first, later], (first, later), [passage(1, "")], 700)
    assert body == (
        "El procedimiento es: Fotografiar cada tique o factura con la aplicación de gastos el mismo día del gasto. "
        "Enviar la nota de gastos a aprobación del responsable directo. [1]"
    ), body


def test_a_list_the_question_names_by_its_heading_is_answered_whole():
    """James's "Which personal protective equipment is mandatory in the warehouse?" (session 22's walk) got one
    item, the gloves, under "…son obligatorios:": read as if gloves were all. The section's heading ("EPI
    obligatorios") names the list asked for, so the answer is all of it, as "¿Qué es el método ACRE?" is."""
    duties = passage(  # the same manual's "2. Responsabilidades", retrieved first for it
        1,
        "La dirección del centro proporciona los equipos de protección individual, la formación y los medios "
        "necesarios. Cada trabajador cumple las normas, utiliza los equipos de protección, cuida de su seguridad y de "
        "la de sus compañeros y comunica cualquier riesgo, incidente o accidente.",
        document="Manual de Seguridad en el Almacén",
        section="2. Responsabilidades",
        score=0.86,
    )
    equipment = passage(
        2,
        PROTECTIVE_EQUIPMENT,
        document="Manual de Seguridad en el Almacén",
        section="3.1 EPI obligatorios",
        score=0.82,
    )
    answer = select_sentences(
        "Which personal protective equipment is mandatory in the warehouse?", [duties, equipment], "en", EMBEDDER
    )
    assert all(item in answer for item in ("Calzado de seguridad", "Chaleco de alta", "Guantes de protección")), answer
    assert answer.count("son obligatorios:") == 1 and "Cada trabajador" not in answer, answer
