"""Practical cases and conversations from a section's rules, as a trainer reads them (session 13): a rule's subject
is asked as a colleague's question, never passed off as a situation; a question whose subject is the section's own
title does not name it twice; a procedure is asked whole."""

from __future__ import annotations

from agents.content.exercise_checks import exercise_shape_findings
from agents.content.exercise_parts import Facts
from agents.content.exercises import order_steps
from agents.content.facts import is_situation, topic_of
from agents.content.rule_exercises import practical_case
from agents.content.sections import Section


def _section(heading: str, text: str) -> Section:
    return Section("doc", "Policy", heading, f"Policy > {heading}", None, ["c1"], [text])


def test_a_subject_is_asked_about_and_a_condition_is_a_situation():
    assert not is_situation("Los vehículos de alquiler") and topic_of("Los vehículos de alquiler")
    assert is_situation("If a customer becomes angry") and not is_situation("If that's the case")
    assert topic_of("For office staff") == "office staff" and topic_of("It") is None
    section = _section(
        "Award leave",
        "Award leave is offered for End of Year Performance Awards and Special Act Awards.\n\n"
        "If you leave TTS, award leave is not paid out.",
    )
    cases = practical_case(Facts([section], [section.text]), "en")
    scenarios = [case["content"]["scenario"] for case in cases]
    assert scenarios == [
        "A colleague asks you about award leave. What do you answer, according to “Award leave”?",
        "The situation: If you leave TTS. What applies, according to “Award leave”?",
    ], scenarios
    assert not [f for case in cases for f in exercise_shape_findings(case, [section], 0, 0, "en")]


def test_a_procedure_is_asked_whole():
    steps = [f"{n}. Do step number {n} of the procedure carefully." for n in range(1, 9)]
    section = _section("6. Processing a return", "Follow these steps:\n\n" + "\n".join(steps))
    exercise = order_steps(section, "en", [section.text])[0]
    assert len(exercise["content"]["steps"]) == 8
    exercise["content"]["steps"].pop()
    found = exercise_shape_findings(exercise, [section], 0, 0, "en")
    assert [f["code"] for f in found] == ["steps_cut"]
