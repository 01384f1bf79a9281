"""Wrong options a trainer can publish (session 15's read of the offline courses): a wrong value keeps the right
answer's unit and form and is one the document states for another thing. Before, the leave course offered "four
weeks" among hours, "80 hour" and "240 hour" in running text, "24/80/13 pay periods" and "7/3/2 hours" made from
other units' numbers, and "5 days" for a "240 hour" cap; the expenses course "6 días" made from "6 horas"."""

from __future__ import annotations

from agents.content.distractors import changed_fact, wrong_values
from agents.content.exercise_checks import option_findings
from agents.content.facts import rule_of, values
from tests.content.offline_courses import DEMO, PUBLIC, offline_course

POLL = "You can receive up to 4 hours for each election event."
POOL = {"amount:time": ["80 hour", "four weeks", "four hours", "2 days", "240 hours", "1 hour", "5 days laborables"]}


def test_a_wrong_value_keeps_the_unit_and_form_and_is_the_documents_own():
    value = values(POLL)[0]
    wrong = wrong_values(value, POLL, POOL)
    # not "four weeks", "2 days", "four hours" (= 4), nor "1 hours"; double and half last
    assert wrong == ["80 hours", "240 hours", "8 hours", "2 hours"]
    near = "Blood donation: up to 240 hours."
    assert wrong_values(value, POLL, POOL, near=near)[0] == "240 hours"  # the neighbouring thing's value first
    assert wrong_values(value, POLL, {"amount:time": ["80 hours", "6 hours"]})[:2] == ["6 hours", "80 hours"]
    turned = changed_fact("Lunch is unpaid, so you work 8 hours per day.", {"amount:time": ["80 hours", "10 hours"]}, 0)
    assert turned and turned[2] == "10 hours"  # of the nearest two magnitudes, not "80 hours per day"
    true_elsewhere = "You can receive up to 80 hours for each election event."
    assert wrong_values(value, POLL, POOL, source=true_elsewhere) == ["240 hours", "8 hours", "2 hours"]


def test_no_false_item_is_made_from_another_units_number():
    """Not "6 días" made from "6 horas": a value the document never states, wrong for no reason a learner can
    learn. With no other value of the unit, double or half of the right one."""
    alone = changed_fact("Los gastos se presentan en un plazo de 30 días.", {"amount:time": ["6 horas"]}, 0)
    assert alone and alone[2] in ("60 días", "15 días")
    turned = changed_fact("Los gastos se presentan en un plazo de 30 días.", {"amount:time": ["6 horas", "5 días"]}, 0)
    assert turned and turned[0] == "Los gastos se presentan en un plazo de 5 días."


def test_a_figure_is_read_without_the_sentences_comma():
    assert [v.text for v in values("Supervisors may be reimbursed up to $75, and no more.")] == ["$75"]
    assert [v.text for v in values("It costs $1,200.50 a year.")] == ["$1,200.50"]


def test_a_rules_answer_does_not_open_with_the_conditions_second_clause():
    """The rubric read "And you did not use any of those hours, you would forfeit 96 hours…"."""
    rule = rule_of(
        "If you continued to accrue annual leave for the rest of the year, and you did not use any of those hours, "
        "you would forfeit 96 hours of annual leave at the end of the year."
    )
    assert rule and rule.consequence == "You would forfeit 96 hours of annual leave at the end of the year."
    assert rule_of("If you leave TTS, award leave is not paid out.").consequence == "Award leave is not paid out."


def test_the_courses_wrong_options_pass_the_reviewers_option_check():
    """Before this change the reviewer's check found 13 such options in the leave course, 7 in the travel guide,
    5 in the expenses course and 2 in the returns course."""
    for path in (PUBLIC["tts_leave"], PUBLIC["tts_travel"], DEMO["demo_gastos"], DEMO["demo_returns"]):
        course = offline_course(path)
        source = "\n".join(s.text for s in course["sections"])
        asked = 0
        for m, module in enumerate(course["modules"]):
            for n, exercise in enumerate(module["exercises"]):
                asked += exercise["type"] in ("test", "true_false")
                assert option_findings(exercise, source, m, n, course["language"]) == [], (path.name, exercise)
        assert asked >= 3, path.name
        for module in course["modules"]:
            for case in (e for e in module["exercises"] if e["type"] == "practical_case"):
                assert not case["content"]["rubric"][0].lower().startswith(("and ", "y ")), case


def test_a_lesson_sentence_is_no_link_text_no_cut_line_and_no_half_italic():
    """The travel guide asked "Jump to Step 3: What to Consider While Traveling" as a true/false statement and a
    false item ended "…not more than $75 over the authorized amount..."; the leave course's first lesson opened
    "*Source: GSA … leave.md)." and listed "Public domain (CC0 1.0).*"."""
    from agents.content.text import sentences

    text = (
        '*Source: GSA TTS Handbook, page "Leave types" (github.com/18F/handbook, pages/leave.md). '
        "Public domain (CC0 1.0).*\n\nJump to Step 3: What to Consider While\nTraveling\n\n"
        "As long as all lodging and meals expenses are within the per diem rate, and the amount...\n\n"
        "This is *very* important for all employees here."
    )
    assert sentences(text) == [
        'Source: GSA TTS Handbook, page "Leave types" (github.com/18F/handbook, pages/leave.md).',
        "Public domain (CC0 1.0).",
        "This is *very* important for all employees here.",
    ]
    shown = str([[lesson["content"] for lesson in m["lessons"]] + m["exercises"] for m in _travel()["modules"]])
    assert "Jump to Step" not in shown and "authorized amount..." not in shown


def _travel() -> dict:
    return offline_course(PUBLIC["tts_travel"])
