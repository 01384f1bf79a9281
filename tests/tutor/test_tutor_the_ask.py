"""A message that tells what happened before it asks (issue 29): "Bloke's bringing back a drone and the box looks a
bit light. What am I actually supposed to check before I take a return?" has nine key terms, seven of them the
situation's (drone, box, light…); the returns steps' "check that all accessories are present" covers two, and the
check refused. The ask's own terms (check, return) are what the answering sentence says; a sentence holding only
one of them is still refused (planted below), and a one-sentence question is judged as before."""

from __future__ import annotations

from agents.runtime.deps import process_embedder
from agents.tutor.answer_check import answers_question
from agents.tutor.answers import select_sentences
from agents.tutor.key_terms import ask_terms, key_terms
from tests.tutor.conftest import passage

EMBEDDER = process_embedder()
DRONE = (
    "Bloke's bringing back a drone and the box looks a bit light. "
    "What am I actually supposed to check before I take a return?"
)
RETURN_STEPS = passage(
    1,
    "Follow these steps for every return in store:\n\n"
    "1. Greet the customer and ask for the product and the proof of purchase.\n"
    "2. Check that the return is within the return period for that product.\n"
    "3. Inspect the product for use or damage and check that all accessories are present.",
    document="Returns and Refunds Policy",
    section="4. Processing a return",
    score=0.8,
)
TILL_FLOAT = passage(
    1,
    "At the start of every shift, check the float in your till before the first sale.",
    document="Customer Service Manual",
    section="2. Opening the till",
    score=0.8,
)


def test_the_ask_of_a_message_of_several_sentences():
    assert ask_terms(DRONE) == ["check", "return"]
    assert "drone" in key_terms(DRONE)
    # an ask that says too little is about the situation told before it
    cracked = "Customer dropped his phone and the screen cracked, he says it's covered by the guarantee. Is it?"
    assert ask_terms(cracked) == key_terms(cracked)
    assert ask_terms("How long is a gift receipt valid?") == key_terms("How long is a gift receipt valid?")


def test_a_situation_told_first_does_not_hide_the_answer():
    assert answers_question(DRONE, (RETURN_STEPS,), EMBEDDER)
    answer = select_sentences(DRONE, [RETURN_STEPS], "en", EMBEDDER)
    assert "all accessories are present" in answer, answer
    # planted: a sentence holding one of the ask's terms ("check") and none of the situation's is refused
    assert not answers_question(DRONE, (TILL_FLOAT,), EMBEDDER)
