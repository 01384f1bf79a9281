"""Grading an answer to each of the six exercise types (pure, except practical_case's model call).

Answers, per type (what the course player submits):
  test int (option index) · true_false bool · fill_blank list[str] (one per ___; a str for one blank)
  order_steps list[str] (the steps in the learner's order) · practical_case str
  dialogue list[int] (the option index chosen at each node, walking from the start node)
Scores are in [0, 1]; ``correct`` is the pass/fail verdict shown to the learner and used for alerts.
fill_blank compares case-, accent- and surrounding-punctuation-insensitively. A wrong answer's feedback
never states the answer: the learner gets a second try first; ``solution`` is what is revealed after.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.i18n import t
from agents.learning.rubric import assess
from agents.llm import LLM
from core.text import fold


class AnswerError(ValueError):
    """The answer does not fit the exercise (wrong shape, unknown option); one line."""


@dataclass(frozen=True)
class Grade:
    correct: bool
    score: float
    feedback: str
    engine: str = "rules"  # practical_case: "offline" (rubric coverage) or the model's engine


def normalize(text: str) -> str:
    """Casefolded, accents stripped, inner whitespace collapsed, surrounding punctuation removed."""
    return re.sub(r"\s+", " ", fold(text)).strip(" \t\n.,;:!?¡¿\"'«»“”()")


def grade_test(content: dict, answer: Any, lang: str) -> Grade:
    options = content["options"]
    if not isinstance(answer, int) or isinstance(answer, bool) or not 0 <= answer < len(options):
        raise AnswerError(t("learning.grade.choose_option", lang))
    if answer == content["answer"]:
        return Grade(True, 1.0, t("learning.grade.correct", lang))
    return Grade(False, 0.0, t("learning.grade.not_yet", lang))


def grade_true_false(content: dict, answer: Any, lang: str) -> Grade:
    if not isinstance(answer, bool):
        raise AnswerError(t("learning.grade.true_or_false", lang))
    if answer == content["answer"]:
        verdict = t("learning.grade.true" if content["answer"] else "learning.grade.false", lang)
        return Grade(True, 1.0, t("learning.grade.statement_is", lang, verdict=verdict))
    return Grade(False, 0.0, t("learning.grade.not_yet", lang))


def blank_count(text: str) -> int:
    return max(len(re.findall(r"_{3,}", text)), 1)


def accepted_per_blank(content: dict) -> list[list[str]]:
    """One blank: every listed answer is accepted for it. Several blanks with one answer each: in order."""
    answers, blanks = content["answers"], blank_count(content["text"])
    if blanks > 1 and len(answers) == blanks:
        return [[a] if isinstance(a, str) else list(a) for a in answers]
    return [list(answers)] * blanks


def grade_fill_blank(content: dict, answer: Any, lang: str) -> Grade:
    accepted = accepted_per_blank(content)
    if isinstance(answer, str):
        answer = [answer]
    if not isinstance(answer, list) or len(answer) != len(accepted) or not all(isinstance(a, str) for a in answer):
        raise AnswerError(t("learning.grade.fill_every_blank", lang))
    hits = [normalize(given) in {normalize(a) for a in options} for given, options in zip(answer, accepted)]
    score = sum(hits) / len(hits)
    if all(hits):
        return Grade(True, 1.0, t("learning.grade.correct", lang))
    return Grade(False, score, t("learning.grade.blanks_right", lang, right=sum(hits), total=len(hits)))


def grade_order_steps(content: dict, answer: Any, lang: str) -> Grade:
    steps = content["steps"]
    if not isinstance(answer, list) or sorted(map(str, answer)) != sorted(steps):
        raise AnswerError(t("learning.grade.order_every_step", lang))
    in_place = sum(given == expected for given, expected in zip(answer, steps))
    if list(answer) == list(steps):
        return Grade(True, 1.0, t("learning.grade.order_right", lang))
    return Grade(
        False, in_place / len(steps), t("learning.grade.steps_in_place", lang, right=in_place, total=len(steps))
    )


def dialogue_path(content: dict, choices: Any, lang: str) -> list[dict]:
    """The options chosen, validated against the graph: each index exists at its node, and the
    walk ends exactly where the conversation does (an option whose next is null)."""
    if (
        not isinstance(choices, list)
        or not choices
        or not all(isinstance(c, int) and not isinstance(c, bool) for c in choices)
    ):
        raise AnswerError(t("learning.grade.walk_dialogue", lang))
    nodes, node_id, chosen = content["nodes"], content["start"], []
    for index in choices:
        if node_id is None:
            raise AnswerError(t("learning.grade.dialogue_over", lang))
        options = nodes[node_id]["options"]
        if not 0 <= index < len(options):
            raise AnswerError(t("learning.grade.no_such_option", lang))
        chosen.append(options[index])
        node_id = options[index]["next"]
    if node_id is not None:
        raise AnswerError(t("learning.grade.walk_dialogue", lang))
    return chosen


def grade_dialogue(content: dict, answer: Any, lang: str) -> Grade:
    chosen = dialogue_path(content, answer, lang)
    good = sum(bool(option["correct"]) for option in chosen)
    # each turn's note once: right replies often share theirs ("Right, that is what the source says.")
    notes = " ".join(dict.fromkeys(option["feedback"] for option in chosen if option.get("feedback")))
    if good == len(chosen):
        return Grade(True, 1.0, t("learning.grade.dialogue_good", lang, notes=notes).strip())
    return Grade(
        False,
        good / len(chosen),
        t("learning.grade.dialogue_some", lang, right=good, total=len(chosen), notes=notes).strip(),
    )


PRACTICAL_PASS = 0.6  # share of rubric points a practical case must cover to pass


def grade_practical_case(
    content: dict, answer: Any, lang: str, prompt: str, llm: LLM | None, embed_query: Callable[[str], np.ndarray] | None
) -> Grade:
    if llm is None or embed_query is None:
        raise TypeError("a practical case is judged by a model (or its embedding twin): pass llm and embed_query")
    if not isinstance(answer, str) or len(answer.split()) < 3:
        raise AnswerError(t("learning.grade.write_answer", lang))
    verdict = assess(content, answer.strip(), lang=lang, prompt=prompt, llm=llm, embed_query=embed_query)
    score = sum(verdict.covered) / len(verdict.covered)
    return Grade(score >= PRACTICAL_PASS, score, verdict.feedback, verdict.engine)


_RULES = {
    "test": grade_test,
    "true_false": grade_true_false,
    "fill_blank": grade_fill_blank,
    "order_steps": grade_order_steps,
    "dialogue": grade_dialogue,
}


def grade(
    kind: str,
    content: dict,
    answer: Any,
    *,
    lang: str = "es",
    prompt: str = "",
    llm: LLM | None = None,
    embed_query: Callable[[str], np.ndarray] | None = None,
) -> Grade:
    """Grade ``answer``; raises AnswerError for an answer that does not fit the exercise. ``llm`` and
    ``embed_query`` (the caller's ``deps.llm`` and ``deps.embed_query``) judge practical cases; the other
    kinds are graded by rule."""
    if kind == "practical_case":
        return grade_practical_case(content, answer, lang, prompt, llm, embed_query)
    if kind not in _RULES:
        raise AnswerError(t("learning.grade.unknown_type", lang))
    return _RULES[kind](content, answer, lang)


def solution(kind: str, content: dict, lang: str) -> str:
    """The correct answer in words: shown only once the learner has had their second try (or asks)."""
    if kind == "test":
        return t("learning.solution.option", lang, answer=content["options"][content["answer"]])
    if kind == "true_false":
        verdict = t("learning.grade.true" if content["answer"] else "learning.grade.false", lang)
        return t("learning.solution.statement", lang, verdict=verdict)
    if kind == "fill_blank":
        return t(
            "learning.solution.blanks", lang, answer=" · ".join(options[0] for options in accepted_per_blank(content))
        )
    if kind == "order_steps":
        return t("learning.solution.order", lang, answer=" → ".join(content["steps"]))
    if kind == "practical_case" and content.get("model_answer"):
        points = "; ".join(point.rstrip(" .") for point in content.get("rubric") or [])
        return " ".join(
            [t("learning.solution.model", lang, answer=content["model_answer"])]
            + ([t("learning.solution.rubric", lang, points=points)] if points else [])
        )
    return ""
