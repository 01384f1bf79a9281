"""Every flag of course health at its threshold and one step past it, the small-sample rule, and the
switch from upper-lower groups to the correlation (no database: figures are made here)."""

from __future__ import annotations

import uuid
from dataclasses import replace

import pytest

from agents.content.health import Thresholds, judge, judge_item
from storage.item_stats import ItemFigures

LIMITS = Thresholds(
    min_answers=10,
    min_answers_options=20,
    too_easy=0.95,
    too_hard=0.2,
    low_discrimination=0.1,
    correlation_min=30,
    tf_set_min=3,
)
MODULE = uuid.uuid4()


def figures(n=40, facility=0.6, pb=0.4, ul=0.4, ranked=None, kind="fill_blank", content=None, picks=None):
    return ItemFigures(
        uuid.uuid4(),
        MODULE,
        "M",
        1,
        "L",
        1,
        kind,
        "Q?",
        content or {},
        n,
        facility,
        pb,
        ul,
        n if ranked is None else ranked,
        picks or {},
        None,
    )


def codes(item_figures, lang="en") -> list[str]:
    return [f.code for f in judge_item(item_figures, LIMITS, lang).flags]


def test_a_healthy_item_has_no_flag():
    assert codes(figures()) == []


@pytest.mark.parametrize("facility, expected", [(0.95, []), (0.951, ["too_easy"]), (0.2, []), (0.199, ["too_hard"])])
def test_facility_thresholds(facility, expected):
    assert codes(figures(facility=facility)) == expected


@pytest.mark.parametrize(
    "d, expected",
    [(0.11, []), (0.1, ["not_discriminating"]), (0.0, ["not_discriminating"]), (-0.01, ["negative_discrimination"])],
)
def test_discrimination_thresholds(d, expected):
    assert codes(figures(pb=d)) == expected


def test_negative_discrimination_says_the_key_may_be_wrong_in_both_languages():
    item = judge_item(figures(pb=-0.3), LIMITS, "en")
    assert item.flags[0].key_may_be_wrong and "key may be wrong" in item.flags[0].reason
    assert "-0.30" in item.flags[0].evidence or "−0.30" in item.flags[0].evidence
    assert "clave puede estar mal" in judge_item(figures(pb=-0.3), LIMITS, "es").flags[0].reason


def test_an_extreme_item_is_not_also_called_undiscriminating():
    assert codes(figures(facility=1.0, pb=None, ul=0.0)) == ["too_easy"]


def test_small_samples_say_not_enough_answers_instead_of_a_flag():
    item = judge_item(figures(n=9, facility=0.0, pb=-0.9), LIMITS, "en")
    assert item.flags == [] and not item.enough_answers and "Not enough answers yet (9 of the 10" in item.note
    assert "Aún no hay respuestas suficientes" in judge_item(figures(n=9), LIMITS, "es").note
    assert codes(figures(n=10, facility=0.0, pb=0.5, ul=0.5)) == ["too_hard"]


def test_discrimination_is_the_correlation_from_enough_ranked_learners_else_upper_lower():
    few = judge_item(figures(ranked=29, pb=0.5, ul=-0.2), LIMITS, "en")
    assert few.method == "upper_lower" and few.discrimination == -0.2
    many = judge_item(figures(ranked=30, pb=0.5, ul=-0.2), LIMITS, "en")
    assert many.method == "point_biserial" and many.discrimination == 0.5 and many.flags == []


def _test(n, picks):
    return figures(n=n, kind="test", content={"options": ["right", "near", "never"], "answer": 0}, picks=picks)


def test_a_distractor_never_chosen_needs_twenty_answers():
    assert codes(_test(19, {"0": 12, "1": 7})) == []
    assert codes(_test(20, {"0": 12, "1": 8})) == ["unused_distractor"]
    assert "“never” chosen by none of 20" in judge_item(_test(20, {"0": 12, "1": 8}), LIMITS, "en").flags[0].evidence


def test_an_option_chosen_more_than_the_key():
    assert codes(_test(12, {"0": 6, "1": 6})) == []
    item = judge_item(_test(12, {"0": 5, "1": 6, "2": 1}), LIMITS, "en")
    assert [f.code for f in item.flags] == ["distractor_beats_key"] and item.flags[0].key_may_be_wrong
    assert item.flags[0].evidence == "“near” chosen by 6 of 12; the key “right” by 5."


def _tf(answer, n=40):
    return figures(
        n=n,
        kind="true_false",
        content={"statement": "S", "answer": answer},
        picks={"true": n // 2, "false": n - n // 2},
    )


def test_a_true_false_set_all_true_or_all_false():
    all_true = judge([_tf(True), _tf(True), _tf(True, n=3)], "en", LIMITS)
    assert all(["tf_all_same"] == [f.code for f in item.flags] for item in all_true)  # small samples too
    assert "answering “True” always scores" in all_true[0].flags[0].reason
    assert all(not item.flags for item in judge([_tf(True), _tf(True)], "en", LIMITS))
    assert all(not item.flags for item in judge([_tf(True), _tf(False), _tf(True)], "en", LIMITS))
    other_module = [replace(_tf(False), module_id=uuid.uuid4()), _tf(False), _tf(False)]
    assert all(not item.flags for item in judge(other_module, "en", LIMITS))


def test_flags_come_key_first():
    item = replace(_test(40, {"0": 10, "1": 30}), facility=0.25, point_biserial=-0.2)
    assert [f.code for f in judge([item], "en", LIMITS)[0].flags] == [
        "negative_discrimination",
        "distractor_beats_key",
        "unused_distractor",
    ]
