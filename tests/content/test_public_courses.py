"""Offline courses of public documents nobody here wrote (and the demo's), measured as a trainer reads them:
no sentence twice in a lesson or a module, almost no cut sentence, the source's fact sentences taught, balanced
true/false sets, choice answers found in the sentence they cite, distractors of the answer's kind, and no
practical case answered by a list of figures. Prints the figures per document."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from agents.content.checks import lesson_units
from agents.content.facts import answer_kind, figures
from agents.content.lessons import sentence_key
from agents.content.text import in_source, is_whole
from tests.content.offline_courses import DEMO, PUBLIC, offline_course

DOCUMENTS = {**PUBLIC, **DEMO}


def _figures(course: dict) -> dict:
    source = "\n\n".join(s.text for s in course["sections"])
    repeated = fragments = units_total = 0
    for module in course["modules"]:
        in_module: Counter = Counter()
        for lesson in module["lessons"]:
            units = lesson_units(lesson["content"])
            keys = [sentence_key(u) for u, _ in units if len(sentence_key(u)) > 20]
            repeated += sum(c - 1 for c in Counter(keys).values())
            in_module.update(set(keys))
            units_total += len(units)
            fragments += sum("…" in u or in_paragraph and not is_whole(u) for u, in_paragraph in units)
        repeated += sum(c - 1 for c in in_module.values())
    exercises = [e for m in course["modules"] for e in m["exercises"]]
    answers = [e["content"]["answer"] for e in exercises if e["type"] == "true_false"]
    choices = [e for e in exercises if e["type"] == "test"]
    in_cited = sum(
        in_source(
            re.search(r"«([^»]*___[^»]*)»", e["prompt"])
            .group(1)
            .replace("___", e["content"]["options"][e["content"]["answer"]]),
            source,
        )
        for e in choices
    )
    distractors = [
        (o, e["content"]["options"][e["content"]["answer"]])
        for e in choices
        for i, o in enumerate(e["content"]["options"])
        if i != e["content"]["answer"]
    ]
    figure_cases = sum(
        len([line for line in e["content"]["model_answer"].splitlines() if figures(line)]) > 1
        for e in exercises
        if e["type"] == "practical_case"
    )
    return {
        "lessons": sum(len(m["lessons"]) for m in course["modules"]),
        "exercises": len(exercises),
        "repeated": repeated,
        "fragment_share": round(fragments / max(1, units_total), 3),
        "fact_coverage": course["review"]["checks"]["fact_coverage"],
        "tf_items": len(answers),
        "tf_false_share": round(answers.count(False) / len(answers), 2) if answers else None,
        "choices": len(choices),
        "choice_answers_in_source": in_cited,
        "same_kind_share": round(sum(answer_kind(o) == answer_kind(a) for o, a in distractors) / len(distractors), 2)
        if distractors
        else None,
        "figure_list_cases": figure_cases,
        "types": sorted({e["type"] for e in exercises}),
        "score": course["review"]["overall_score"],
        "critical": sum(i["severity"] == "critical" for i in course["review"]["issues"]),
    }


@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_an_offline_course_reads_like_a_study_guide(name):
    course = offline_course(DOCUMENTS[name])
    found = _figures(course)
    print(f"\n{name} ({course['language']}): {found}")
    assert found["repeated"] == 0
    assert found["fragment_share"] <= 0.01
    assert found["fact_coverage"] >= 0.8
    if found["tf_items"] >= 2:
        assert 0.3 <= found["tf_false_share"] <= 0.7
    assert found["choice_answers_in_source"] == found["choices"]
    assert found["same_kind_share"] is None or found["same_kind_share"] >= 0.9
    assert found["figure_list_cases"] == 0 and found["critical"] == 0
    titles = [m["module_spec"]["title"] for m in course["modules"]]
    assert not [title for title in titles if " · " in title], titles
