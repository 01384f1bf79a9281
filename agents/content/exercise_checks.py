"""What a trainer sees in one exercise's shape, checked against the source's sections (the reviewer's eyes on
exercises, beside checks.py's figures and wording).

An ordered list asked short of the source's steps ("7 steps where the policy has 8"); a practical case whose
"situation" is no situation (the rule's own subject, "La situación: Los vehículos de alquiler"); a blank whose
answer the sentence writes again; a practical case or conversation titled with a section its answers do not come
from ("4. Alojamiento" about trains and flights); a rubric point the case's own model answer does not meet (the
grader then gives a right answer 0 %, or the point is cut: "You are not required to stay late, but."); a wrong
option or a false item's figure in another unit or form than the right answer ("four weeks" among hours, "80
hour" for "4 hours"), the right value written another way ("two-week" beside "two weeks"), or a figure the
document states nowhere ("6 días" made from "6 horas"; double or half the right value is the twin's last resort).
"""

from __future__ import annotations

import functools
import re

from agents.content.checks import finding
from agents.content.distractors import magnitude, noun_of, scaled, unit_of
from agents.content.facts import Value, is_situation, values
from agents.content.sections import Section
from agents.content.text import fold, in_source, is_whole, item_lists
from core.text import overlap, stems

RUBRIC_MET = 0.5  # share of a rubric point's words the model answer must hold (the offline grader's own bar)
_LABEL = re.compile(r"^\s*[^:.?¿]{1,25}:\s*")  # "La situación:", "The situation:", "Caso:"
_QUESTION = re.compile(r"\s*(?:¿[^?]*\?|[^.!?]*\?)\s*$")


def _same(a: str, b: str) -> bool:
    return fold(a).strip(" .") == fold(b).strip(" .")


def steps_cut(steps: list[str], texts: list[str]) -> tuple[int, int] | None:
    """(asked, in the source) when a list of the source's texts holding these steps has more of them (a list cut
    by a page or a chunk reads short in one section and whole in another)."""
    if not steps:
        return None
    for text in texts:
        for _numbered, _intro, items in item_lists(text):
            if any(_same(items[i], steps[0]) for i in range(len(items))) and len(items) > len(steps):
                if all(any(_same(step, item) for item in items) for step in steps):
                    return len(steps), len(items)
    return None


def situation_of(scenario: str) -> str:
    """The situation a case states: its text without a leading label and the closing question."""
    return _QUESTION.sub("", _LABEL.sub("", scenario.strip(), count=1)).strip(" .")


def not_a_situation(scenario: str, model_answer: str) -> bool:
    """A case whose situation is the rule's own opening words (its subject) or a condition that is no situation
    ("If you.", "Before doing so"); a case written as a story ("Ana, at the till, …") passes."""
    situation = situation_of(scenario)
    if not situation:
        return True
    answer, said = fold(model_answer), fold(situation)
    copied = answer.startswith(said)
    cut = copied and answer[len(said) :].lstrip()[:1] not in (",", "")  # "If a customer" of "If a customer becomes…"
    return cut or (copied or len(situation.split()) <= 4) and not is_situation(situation)


def given_away(text: str, answer: str) -> bool:
    """Whether the sentence around the blank writes the answer (or its word) again."""
    rest = text.replace("___", " ")
    number = re.search(r"\d[\d.,]*", answer)
    if number:
        return re.search(rf"(?<![\d.,]){re.escape(number.group(0))}(?![\d,]|\.\d)", rest) is not None
    wanted = stems(answer, min_length=4)
    return bool(wanted) and wanted <= stems(rest, min_length=4)


def _titled_sections(prompt: str, sections: list[Section]) -> list[Section]:
    title = prompt.split(":", 1)[1] if ":" in prompt else ""
    named = {fold(part).strip(' .«»“”"') for part in title.split(" · ")}
    return [s for s in sections if fold(s.heading.split(" > ")[-1]).strip(" .") in named]


def off_title(exercise: dict, sections: list[Section]) -> bool:
    """A case or conversation titled with sections none of whose text holds one of its right answers."""
    titled = _titled_sections(exercise.get("prompt", ""), sections)
    content = exercise.get("content") or {}
    if exercise["type"] == "practical_case":
        answers = [content.get("model_answer") or ""]
    else:
        answers = [
            o["text"] for n in (content.get("nodes") or {}).values() for o in n.get("options", []) if o["correct"]
        ]
    answers = [a for a in answers if any(in_source(a, s.text) for s in sections)]  # what the source says verbatim
    return bool(titled and answers) and any(not any(in_source(a, s.text) for s in titled) for a in answers)


def rubric_unmet(content: dict) -> str | None:
    """The first rubric point the model answer does not meet, or that is cut mid-clause."""
    model_answer = content.get("model_answer") or ""
    return next(
        (p for p in content.get("rubric") or [] if overlap(model_answer, p) < RUBRIC_MET or not is_whole(p)),
        None,
    )


@functools.cache
def _stated(source: str) -> frozenset[tuple[str, str]]:
    return frozenset((magnitude(v.text), unit_of(v)) for v in values(source))


def _figure(text: str) -> Value | None:
    return next((v for v in values(text) if v.kind.startswith("amount:") and v.kind != "amount:count"), None)


def wrong_figures(exercise: dict) -> list[tuple[str, str]]:
    """(figure, right figure) of each wrong option of a multiple-choice, or the changed figure of a false item,
    beside the right answer's figure: those a trainer would rewrite before checking ``option_findings``."""
    content = exercise.get("content") or {}
    if exercise["type"] == "test" and isinstance(content.get("answer"), int):
        options = content.get("options") or []
        right = options[content["answer"]] if content["answer"] < len(options) else ""
        return [(option, right) for i, option in enumerate(options) if i != content["answer"]]
    if exercise["type"] == "true_false" and content.get("answer") is False:
        quoted = re.search(r"«([^»]+)»", exercise.get("explanation") or "")
        if quoted is None:
            return []
        said = {(v.text, v.kind) for v in values(quoted.group(1))}
        changed = [v for v in values(content.get("statement") or "") if (v.text, v.kind) not in said]
        originals = [v for v in values(quoted.group(1)) if v.text not in content.get("statement", "")]
        return [(v.text, originals[0].text) for v in changed[:1] if originals]
    return []


def option_findings(exercise: dict, source: str, m: int, n: int, language: str) -> list[dict]:
    """A wrong figure in another unit or form than the right one, equal to it, or stated nowhere in the source."""
    found = []
    for wrong_text, right_text in wrong_figures(exercise):
        right = _figure(right_text)
        if right is None or right.text != right_text.strip():
            continue  # the right answer is no figure with a unit: nothing to compare
        wrong = _figure(wrong_text)
        if wrong is None or unit_of(wrong) != unit_of(right) or noun_of(wrong) != noun_of(right):
            code = "option_other_unit"
        elif magnitude(wrong.text) == magnitude(right.text):
            code = "option_same_value"
        elif (magnitude(wrong.text), unit_of(wrong)) not in _stated(source) and wrong.text not in scaled(right):
            code = "option_not_stated"
        else:
            continue
        found.append(finding("major", code, language, m, exercise=n, n=n + 1, value=wrong_text, answer=right_text))
    return found


def exercise_shape_findings(exercise: dict, sections: list[Section], m: int, n: int, language: str) -> list[dict]:
    kind, content, found = exercise["type"], exercise.get("content") or {}, []
    if kind == "order_steps" and (cut := steps_cut(content.get("steps") or [], [s.text for s in sections])):
        found.append(finding("major", "steps_cut", language, m, exercise=n, n=n + 1, asked=cut[0], total=cut[1]))
    if kind == "practical_case":
        if not_a_situation(content.get("scenario") or "", content.get("model_answer") or ""):
            situation = situation_of(content.get("scenario") or "")
            found.append(finding("major", "case_not_situation", language, m, exercise=n, n=n + 1, s=situation[:80]))
        if point := rubric_unmet(content):
            found.append(finding("major", "rubric_unmet", language, m, exercise=n, n=n + 1, point=point[:80]))
    if kind == "fill_blank" and content.get("answers") and given_away(content.get("text", ""), content["answers"][0]):
        found.append(finding("major", "blank_given_away", language, m, exercise=n, n=n + 1))
    if kind in ("practical_case", "dialogue") and off_title(exercise, sections):
        found.append(finding("major", "off_title", language, m, exercise=n, n=n + 1, kind=kind))
    found += option_findings(exercise, "\n".join(s.text for s in sections), m, n, language)
    return found
