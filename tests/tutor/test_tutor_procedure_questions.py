"""What an employee asks in a situation (issue 29, session 18's walk): "I think I clicked a dodgy link in an
email, what now?", "si me pongo mala un lunes, ¿a quién aviso?", "how long does my new password need to be?".
Before, the first was refused (no kind of fact asked, so nothing to hold, and "now" counted as what it is
about), the second was not a "who" question, and the third read "how long" as a period only, with "new" among
its key terms: "A minimum length of 14 characters" did not answer it."""

from __future__ import annotations

from agents.runtime.deps import process_embedder
from agents.tutor.answer_check import answers_question, key_terms
from agents.tutor.answers import select_sentences
from agents.tutor.fact_kinds import asked_kind, holds_kind
from tests.tutor.conftest import passage

EMBEDDER = process_embedder()

RECOGNISING = passage(
    1,
    "Phishing e-mails try to trick you into clicking a link, opening an attachment, entering your password or "
    "making a payment. Warning signs include a sense of urgency and a sender address that does not match the name.",
    document="Information Security Policy",
    section="6.1 Recognising phishing",
    score=0.84,
)
REPORTING = passage(
    2,
    'Use the "Report phishing" button in Outlook. It sends the message to the Information Security team and '
    "removes it from your inbox. If you have already clicked a link or entered your password, report it straight "
    "away as a security incident (section 8): speed matters more than embarrassment.",
    document="Information Security Policy",
    section="6.2 Reporting a suspicious e-mail",
    score=0.83,
)
DODGY_LINK = "I think I clicked a dodgy link in an email, what now?"


def test_what_now_asks_for_a_step_and_a_description_holds_none():
    assert asked_kind(DODGY_LINK) == "procedure" and asked_kind("Tengo un cliente gritando, ¿qué hago?") == "procedure"
    assert (
        asked_kind("¿Cómo se hace un reembolso a una tarjeta regalo?") != "procedure"
    )  # how it is done: a description
    assert holds_kind("If you have already clicked a link, report it straight away.", "procedure")
    assert holds_kind("Si hay riesgo para alguna persona, avisamos a seguridad o llamamos al 112.", "procedure")
    assert holds_kind("DVL will not appear in HR Links: reach out to your Benefits Specialist.", "procedure")
    assert not holds_kind("Phishing e-mails try to trick you into clicking a link.", "procedure")
    assert "now" not in key_terms(DODGY_LINK)


def test_the_dodgy_link_is_answered_with_what_to_do_not_with_what_phishing_is():
    assert answers_question(DODGY_LINK, (RECOGNISING, REPORTING), EMBEDDER)
    answer = select_sentences(DODGY_LINK, [RECOGNISING, REPORTING], "en", EMBEDDER)
    assert "report it straight away" in answer and "try to trick you" not in answer, answer
    # planted: the section that says what phishing looks like, without the one that says what to do
    assert not answers_question(DODGY_LINK, (RECOGNISING,), EMBEDDER)


def test_to_whom_asks_for_a_person_or_a_role():
    assert asked_kind("si me pongo mala un lunes, ¿a quién aviso y cómo?") == "who"
    assert asked_kind("Creo que me han pagado mal la nómina, ¿con quién hablo?") == "who"
    assert holds_kind("If you are ill, tell your manager before the start of your shift.", "who")


def test_how_long_a_password_must_be_is_a_length_and_new_is_not_what_it_is_about():
    question = "how long does my new password need to be?"
    assert key_terms(question) == ["password"]
    assert key_terms("How much is the daily M&IE rate in New York?")[-2:] == ["new", "york"]  # a name keeps it
    standard = passage(
        1,
        "The Password Standard POL-SEC-004 requires:\n\n- A minimum length of 14 characters.\n"
        "- No reuse: never use your Acme password on any other website or service.",
        document="Information Security Policy",
        section="4.1 Password standard (POL-SEC-004)",
        score=0.87,
    )
    assert answers_question(question, (standard,), EMBEDDER)
    assert "14 characters" in select_sentences(question, [standard], "en", EMBEDDER)
    unfigured = passage(1, "Your password is the key to your account.", document=standard.document, section="4.1")
    assert not answers_question(question, (unfigured,), EMBEDDER)  # planted: no length
