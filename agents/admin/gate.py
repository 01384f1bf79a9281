"""The admin assistant's output gate (issue 13): a model's plan and a model's reply are checked
against what the tools can do and what they returned, before anyone sees them.

- ``invalid_arguments``: tool arguments checked against the tool's JSON schema before anything runs.
- ``plan_disagreement``: a model's schema-valid plan that misses the write the request asks for (or
  plans one it doesn't), drops a value the request gave (deadline, level, people), or changes one (another
  date, level, amount or person), judged against the twin's plan of the same words.
- ``ungrounded_mentions``: the figures and proper names a model's reply states that appear neither in
  the tool results nor in the admin's own message (a small model invents people and counts).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import cache

from jsonschema import Draft202012Validator

from core.text import fold

_FIGURE = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w])")
_NAME = re.compile(r"(?<![\w])([A-ZÁÉÍÓÚÑÜ][\wáéíóúñü'’-]{2,})")
_SENTENCE_START = re.compile(r"(^|[.!?:]\s+|\n\s*(?:[-*•]\s*)?|\*\*)$")
# "1. Ana" / "2) Tom": a numbered list's markers are layout, not figures the reply claims
_LIST_NUMBER = re.compile(r"(?m)^(\s*(?:[-*•]\s*)?)\d{1,3}[.)](?=\s)")


@cache
def _validator(schema_json: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(schema_json))


def invalid_arguments(parameters: dict, arguments: object) -> str | None:
    """One line saying why ``arguments`` don't fit the tool's schema, or None when they do."""
    if not isinstance(arguments, dict):
        return "arguments are not an object"
    error = next(iter(_validator(json.dumps(parameters, sort_keys=True)).iter_errors(arguments)), None)
    if error is None:
        return None
    where = ".".join(str(part) for part in error.absolute_path) or "arguments"
    return f"{where}: {error.message[:160]}"


WRITE_TOOLS = ("assign_course", "verify_skill", "deactivate_employee", "archive_course")
# the values a write's preview must carry when the admin said them
_GIVEN = (
    "deadline",
    "extend_days",
    "extend_months",
    "level",
    "employee_names",
    "employee_name",
    "department",
    "course_title",
    "skill_name",
)


def plan_disagreement(model_calls: list[dict], twin_calls: list[dict]) -> str | None:
    """``wrong_tool``: the writes planned differ from the writes the request asks for (a write read as
    "show Tom", or a write nobody asked for); ``dropped_argument``: a write lacks a value the twin read in
    the request ("by the end of the month" planned with no deadline); ``changed_argument``: it gives another
    date, level, amount or person than the twin read. None: the model's plan stands."""
    model_writes = [c for c in model_calls if c["tool"] in WRITE_TOOLS]
    twin_writes = [c for c in twin_calls if c["tool"] in WRITE_TOOLS]
    if twin_calls and [c["tool"] for c in model_writes] != [c["tool"] for c in twin_writes]:
        return "wrong_tool"
    for model, twin in zip(model_writes, twin_writes):
        if any(twin["arguments"].get(key) and not model["arguments"].get(key) for key in _GIVEN):
            return "dropped_argument"
        if any(
            not _same(key, model["arguments"][key], twin["arguments"][key])
            for key in _COMPARED
            if twin["arguments"].get(key)
        ):
            return "changed_argument"
    return None


# the values compared, not only required: a date, a level, an amount, who (a course, skill or department may be
# named in either language, so only its presence is judged)
_COMPARED = ("deadline", "extend_days", "extend_months", "level", "employee_names", "employee_name")


def _same(key: str, model: object, twin: object) -> bool:
    """Whether the model's value says what the twin read: the same date, level or amount; the same people, each
    named whole or in part ("Harry" for Harry Patel), none left out or added."""
    if key not in ("employee_names", "employee_name"):
        return str(model).strip() == str(twin).strip()
    said = [model] if isinstance(model, str) else list(model) if isinstance(model, list) else []
    read = [twin] if isinstance(twin, str) else list(twin) if isinstance(twin, list) else []
    if len(said) != len(read):
        return False
    read_words = [set(fold(str(name)).split()) for name in read]
    return all(any(set(fold(str(name)).split()) <= words for words in read_words) for name in said) and all(
        any(set(fold(str(name)).split()) <= words for name in said) for words in read_words
    )


def _known_figures(value: object, found: set[str]) -> None:
    """Every number in the results as text, with list sizes and percentages of fractions."""
    if isinstance(value, dict):
        for item in value.values():
            _known_figures(item, found)
    elif isinstance(value, list):
        found.add(str(len(value)))
        for item in value:
            _known_figures(item, found)
    elif isinstance(value, bool):
        return
    elif isinstance(value, (int, float)):
        found.update({str(value), f"{value:g}", str(round(value))})
        if 0 <= value <= 1:
            found.update({str(round(value * 100)), f"{value * 100:g}"})
    elif isinstance(value, str):
        found.update(_FIGURE.findall(value))


def ungrounded_mentions(text: str, results: Sequence[Mapping], message: str) -> list[str]:
    """Figures and capitalised names in ``text`` found in neither ``results`` nor ``message``."""
    figures: set[str] = set(_FIGURE.findall(message))
    _known_figures(results, figures)
    figures |= {f.replace(",", ".") for f in figures}
    source = fold(json.dumps(results, ensure_ascii=False, default=str) + " " + message)
    text = _LIST_NUMBER.sub(r"\1", text)
    missing = [f for f in _FIGURE.findall(text) if f not in figures and f.replace(",", ".") not in figures]
    for match in _NAME.finditer(text):
        if _SENTENCE_START.search(text[: match.start()]):
            continue  # any word starts a sentence with a capital
        if fold(match.group(1)) not in source:
            missing.append(match.group(1))
    return list(dict.fromkeys(missing))
