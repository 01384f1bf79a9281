"""Checking any exercise (the twin's, a model's, an admin's edit) against the source text it cites."""

from __future__ import annotations

import re

from agents.content.facts import values
from agents.content.text import in_source, normalized, overlap

_QUOTE = re.compile(r"«([^»]+)»")


def _supported(snippet: str, source: str) -> bool:
    """Verbatim in the source, or (a model's paraphrase) nearly all its content words are and every figure,
    date and quantifier it states is the source's (a changed number is not a paraphrase)."""
    if in_source(snippet, source):
        return True
    folded = normalized(source)
    return overlap(snippet, source) >= 0.8 and all(normalized(v.text) in folded for v in values(snippet))


def _ordered(steps: list[str], source: str) -> bool:
    folded, last = normalized(source), -1
    for step in steps:
        at = folded.find(normalized(step).strip(" ."), last + 1)
        if at < 0:
            return False
        last = at
    return True


def verify_exercise(exercise: dict, source: str) -> str | None:
    """None when the exercise's answer can be checked in the source text; else why it cannot."""
    kind, content = exercise.get("type"), exercise.get("content") or {}
    quotes = _QUOTE.findall(exercise.get("explanation", "")) + _QUOTE.findall(exercise.get("prompt", ""))
    if kind == "true_false":
        statement = content.get("statement", "")
        if content.get("answer") is True:
            return None if _supported(statement, source) else "the true statement is not in the source"
        if in_source(statement, source):
            return "a statement marked false is stated in the source"
        return (
            None
            if any(in_source(q, source) for q in quotes) or _supported(statement, source)
            else "the false statement has no source sentence to contrast with"
        )
    if kind == "fill_blank":
        answers = content.get("answers") or [""]
        return (
            None
            if _supported(content.get("text", "").replace("___", answers[0]), source)
            else "the completed sentence is not in the source"
        )
    if kind == "test":
        options, answer = content.get("options") or [], content.get("answer")
        if not isinstance(answer, int) or not 0 <= answer < len(options):
            return "the right answer is not one of the options"
        masked = next((q for q in quotes if "___" in q), None)
        if masked is None:
            return None if _supported(options[answer], source) else "the right option is not supported by the source"
        if not in_source(masked.replace("___", options[answer]), source):
            return "the right option does not complete the source sentence"
        if any(in_source(masked.replace("___", o), source) for i, o in enumerate(options) if i != answer):
            return "more than one option completes the source sentence"
        return None
    if kind == "order_steps":
        steps = content.get("steps") or []
        if all(in_source(s, source) for s in steps):
            return None if _ordered(steps, source) else "the steps are not in the source's order"
        return None if all(_supported(s, source) for s in steps) else "some steps are not in the source"
    if kind == "practical_case":
        rubric = content.get("rubric") or []
        supported = sum(_supported(point, source) for point in rubric)
        return None if rubric and supported * 2 >= len(rubric) else "the rubric is not grounded in the source"
    if kind == "dialogue":
        correct = [
            o["text"]
            for node in (content.get("nodes") or {}).values()
            for o in node.get("options", [])
            if o.get("correct")
        ]
        return (
            None
            if correct and all(_supported(t, source) for t in correct)
            else "the right replies are not grounded in the source"
        )
    return f"unknown exercise type {kind}"
