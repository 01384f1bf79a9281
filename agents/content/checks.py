"""What a trainer sees when reading a course, checked deterministically (the reviewer's eyes; review.py gates on it).

Lessons: a sentence shown twice in a lesson or a module, a cut sentence, a word the source writes whole split
in two ("37 signals"), a figure that is not the source's, a source passage pasted as one paragraph, text in
another language than the course's, text addressed to an assistant, template text with nothing from the
source. Exercises: a changed figure given as right, one-sided true/false sets, options of another kind than
the answer or whose length gives the answer away, a practical case answered by a list of figures, a dialogue
reply that is not a sentence. Course: how many of the source's fact sentences reach a lesson or an exercise.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from agents.content.facts import figures, values
from agents.content.lessons import sentence_key
from agents.content.sections import Section
from agents.content.text import fact_sentences, in_source, is_whole, normalized, overlap
from agents.i18n import t
from agents.ingestion.pipeline import detect_language
from agents.offline import split_sentences
from core.instructions import instruction_family

MIN_FACT_COVERAGE = 0.8
PASTED_RUN = 4  # source sentences in a row, in one paragraph, read as a pasted section
_CITE = re.compile(r"\s*\[\d+\]\s*$")
_LINE_LEAD = re.compile(r"^\s*(?:[-*]\s+|\d{1,2}[.)]\s+|>\s*)")
_FIGURE_LEAD = re.compile(r"^\*\*[^*]+\*\*\s+—\s+")


def _plain(text: str) -> str:
    return re.sub(r"\*\*|__|`", "", text).strip()


def lesson_units(markdown: str) -> list[tuple[str, bool]]:
    """(what a reader reads as one sentence or item, whether it stands in a paragraph) of a lesson, without
    headings, markup and citation markers."""
    units, recap = [], {f"#### {t('content.lesson.recap', lang)}" for lang in ("es", "en")}
    in_recap = False
    for line in markdown.splitlines():
        line = _CITE.sub("", line.strip())
        if line.startswith("#"):
            in_recap = line in recap  # the recap lists titles and figures: labels, not sentences
        if not line or line.startswith("#") or in_recap or re.fullmatch(r"\|?[-|: ]+\|?", line):
            continue
        if line.startswith("|"):
            line = line.strip("|").split("|")[-1]
        in_list = bool(_LINE_LEAD.match(line)) and not line.lstrip().startswith(">")
        line = _FIGURE_LEAD.sub("", _LINE_LEAD.sub("", line))
        units += [(_plain(s), not in_list) for s in split_sentences(_plain(line)) if s.strip()]
    return units


def _weight(family: str) -> str:
    """An order to an assistant blocks publishing; a label addressed to a model ("MODELO: …") is to remove."""
    return "major" if family == "addressed" else "critical"


def finding(
    severity: str,
    code: str,
    language: str,
    module: int | None = None,
    lesson: int | None = None,
    exercise: int | None = None,
    **values,
) -> dict:
    return {
        "severity": severity,
        "module_index": module,
        "lesson_index": lesson,
        "exercise_index": exercise,
        "code": code,
        "description": t(f"content.review.{code}", language, **values),
        "suggestion": t(f"content.review.{code}_fix", language, **values),
    }


def _source_items(sections: list[Section]) -> set[str]:
    """Every sentence and list item of the source, as a reader compares them."""
    items = set()
    for section in sections:
        for line in section.text.splitlines():
            line = _LINE_LEAD.sub("", line.strip())
            items.add(sentence_key(line))
            items.update(sentence_key(s) for s in split_sentences(line))
    return items


def changed_value(text: str, source: str, near: list[str]) -> str | None:
    """A figure or date of ``text`` that is not the one the source sentence it nearly repeats (``near``) gives:
    the mark of a changed fact (a value swapped for another of the document's still reads as changed)."""
    if not near:
        return None
    closest = max(near, key=lambda s: overlap(text, s) + overlap(s, text))

    def facts_of(sentence: str) -> list:
        return [v for v in values(sentence) if v.kind != "quantifier"]

    mine = [normalized(v.text) for v in facts_of(text)]
    theirs = [normalized(v.text) for v in facts_of(closest)]
    added = next(
        (v.text for v in facts_of(text) if mine.count(normalized(v.text)) > theirs.count(normalized(v.text))), None
    )
    # a bare number the text leaves out may be a list's or a heading's number: only a figure missing counts
    dropped = next(
        (
            v.text
            for v in facts_of(closest)
            if v.kind != "amount:count" and theirs.count(normalized(v.text)) > mine.count(normalized(v.text))
        ),
        None,
    )
    return added or dropped


def _near(text: str, sentences: list[str]) -> list[str]:
    return [s for s in sentences if overlap(text, s) >= 0.8 and overlap(s, text) >= 0.6]


def _broken_tokens(text: str, source_tokens: dict[str, str], source: str) -> list[str]:
    found = []
    tokens = text.split()
    for a, b in itertools.pairwise(tokens):
        joined = re.sub(r"\W", "", a + b).lower()
        whole = source_tokens.get(joined)
        if (
            whole
            and len(joined) >= 4
            and re.search(r"\w", a)
            and re.search(r"\w", b)
            and normalized(f"{a} {b}") not in normalized(source)
            and re.sub(r"\W", "", a).lower() != joined
        ):
            found.append(f"{a} {b}")
    return found


def _language_of(text: str) -> str | None:
    return detect_language(text) if len(text.split()) >= 25 else None


def lesson_findings(modules: Sequence[Mapping[str, Any]], sections: list[Section], language: str) -> list[dict]:
    source = "\n\n".join(s.text for s in sections)
    items = _source_items(sections)
    source_sentences = [s for sec in sections for s in split_sentences(re.sub(r"\n+", " ", sec.text))]
    source_tokens = {re.sub(r"\W", "", tok).lower(): tok for tok in source.split()}
    filler = {sentence_key(t("content.lesson.practice_intro", lang)) for lang in ("es", "en")}
    found = []
    for m, module in enumerate(modules):
        family = instruction_family(module["module_spec"]["title"] if "module_spec" in module else "")
        if family:
            found.append(
                finding(
                    _weight(family),
                    "instruction",
                    language,
                    m,
                    title=module["module_spec"]["title"],
                    sentence=module["module_spec"]["title"],
                )
            )
        in_module: Counter = Counter()
        for n, lesson in enumerate(module["lessons"]):
            title, units = lesson["title"], lesson_units(lesson.get("content") or "")
            keys = [sentence_key(u) for u, _ in units]
            counts = Counter(k for k in keys if len(k) > 20)
            in_module.update(set(counts))
            for key, count in counts.items():
                if count > 1:
                    found.append(
                        finding("major", "repeated", language, m, n, title=title, count=count, sentence=key[:80])
                    )
            if (
                units
                and all(k in filler for k in keys)
                or lesson["content_type"] != "exercise"
                and units
                and not any(k in items or in_source(u, source) for k, (u, _) in zip(keys, units))
            ):
                found.append(finding("major", "filler", language, m, n, title=title))
            run = 0
            for (unit, in_paragraph), key in zip(units, keys):
                known = key in items or in_source(unit, source)
                run = run + 1 if in_paragraph and known else 0
                if run == PASTED_RUN:
                    found.append(finding("major", "pasted", language, m, n, title=title, count=PASTED_RUN))
                if family := instruction_family(unit):
                    found.append(
                        finding(_weight(family), "instruction", language, m, n, title=title, sentence=unit[:120])
                    )
                    continue
                # a list item need not be a sentence; an ellipsis always says something was cut
                cut = "…" in unit or unit.endswith("...") or in_paragraph and not is_whole(unit)
                if cut and key not in items:  # a substring of the source is no excuse: it is cut
                    found.append(finding("major", "fragment", language, m, n, title=title, sentence=unit[:120]))
                elif not known and (value := changed_value(unit, source, _near(unit, source_sentences))):
                    found.append(
                        finding(
                            "critical", "changed_fact", language, m, n, title=title, n=n + 1, kind=title, value=value
                        )
                    )
                for token in _broken_tokens(unit, source_tokens, source)[:1]:
                    found.append(finding("major", "broken_token", language, m, n, title=title, token=token))
            spoken = _language_of(" ".join(u for u, _ in units))
            if spoken and spoken != language:
                said, asked = (t(f"code.language.{code}", language) for code in (spoken, language))
                found.append(finding("major", "language", language, m, n, title=title, found=said, expected=asked))
        for key, count in in_module.items():
            if count > 1:
                found.append(
                    finding(
                        "major",
                        "repeated",
                        language,
                        m,
                        title=module["module_spec"]["title"],
                        count=count,
                        sentence=key[:80],
                    )
                )
    return found


def _texts_of(exercise: dict) -> list[str]:
    """Every text of an exercise a learner reads."""
    content = exercise.get("content") or {}
    texts = [exercise.get("prompt", ""), exercise.get("explanation", "")]
    for value in content.values():
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, list):
            texts += [v for v in value if isinstance(v, str)]
    for node in (content.get("nodes") or {}).values():
        texts += [node.get("text", "")] + [o.get("text", "") for o in node.get("options", [])]
    return texts


def exercise_text_findings(exercise: dict, source: str, m: int, n: int, language: str) -> list[dict]:
    """The checks a reader makes on one exercise, beyond answerability (review.exercise_findings)."""
    kind, content, found = exercise["type"], exercise.get("content") or {}, []
    family = next((f for text in _texts_of(exercise) if (f := instruction_family(text))), None)
    if family:
        found.append(
            finding(
                _weight(family),
                "instruction",
                language,
                m,
                exercise=n,
                title=exercise.get("prompt", "")[:60],
                sentence=next(x for x in _texts_of(exercise) if instruction_family(x))[:120],
            )
        )
    sentences = [s for s in split_sentences(re.sub(r"\n+", " ", source))]
    stated = []
    if kind == "true_false" and content.get("answer") is True:
        stated = [content.get("statement", "")]
    elif kind == "fill_blank" and content.get("answers"):
        stated = [content.get("text", "").replace("___", content["answers"][0])]
    elif kind == "test" and isinstance(content.get("answer"), int):
        masked = re.findall(r"«([^»]*___[^»]*)»", exercise.get("prompt", ""))
        options = content.get("options") or []
        if masked and 0 <= content["answer"] < len(options):
            stated = [masked[0].replace("___", options[content["answer"]])]
        right, others = (
            options[content["answer"]] if stated else "",
            [o for i, o in enumerate(options) if i != content.get("answer")],
        )
        if right and others and len(right) > 1.6 * max(len(o) for o in others) and len(right) > 12:
            found.append(finding("major", "option_length", language, m, exercise=n, n=n + 1))
    for text in stated:
        if not in_source(text, source) and (value := changed_value(text, source, _near(text, sentences))):
            found.append(finding("critical", "changed_fact", language, m, exercise=n, n=n + 1, kind=kind, value=value))
    if kind == "practical_case":
        lines = [line for line in (content.get("model_answer") or "").splitlines() if line.strip()]
        figure_lines = [line for line in lines + list(content.get("rubric") or []) if figures(line)]
        if len(lines) > 1 and len(figure_lines) * 2 >= len(lines) + len(content.get("rubric") or []):
            found.append(finding("critical", "figures_answer", language, m, exercise=n, n=n + 1, kind=kind))
    if kind == "dialogue":
        for node in (content.get("nodes") or {}).values():
            for option in node.get("options", []):
                reply = option.get("text", "")
                if len(reply.split()) < 4 or not re.search(r"[A-Za-zÁÉÍÓÚáéíóúñ]{3}", re.sub(r"\d", "", reply)):
                    found.append(
                        finding("major", "reply_not_sentence", language, m, exercise=n, n=n + 1, reply=reply[:60])
                    )
                    break
    return found


def true_false_findings(modules: Sequence[Mapping[str, Any]], language: str) -> list[dict]:
    """One-sided sets: a module's two or more items all true (or all false), or a course outside 30–70 %."""
    found, answers = [], []
    for m, module in enumerate(modules):
        mine = [e["content"].get("answer") for e in module["exercises"] if e["type"] == "true_false"]
        answers += mine
        if len(mine) >= 2 and len(set(mine)) == 1:
            found.append(finding("major", "tf_balance", language, m, share=round(100 * mine.count(False) / len(mine))))
    share = answers.count(False) / len(answers) if answers else 0.5
    if len(answers) >= 4 and not 0.3 <= share <= 0.7:
        found.append(finding("major", "tf_balance", language, share=round(share * 100)))
    return found


def fact_coverage(modules: Sequence[Mapping[str, Any]], sections: list[Section]) -> tuple[float, list[str]]:
    """Share of the source's fact sentences that reach a lesson or an exercise, and those left out."""
    shown = " ".join(normalized(_plain(lesson.get("content") or "")) for m in modules for lesson in m["lessons"])
    shown += " ".join(normalized(text) for m in modules for e in m["exercises"] for text in _texts_of(e))
    shown = re.sub(r"\s*\[\d+\]", "", shown)
    facts = list(dict.fromkeys(s for section in sections for s in fact_sentences(section.text)))
    left_out = [s for s in facts if normalized(_plain(s)).strip(" .") not in shown]
    return (round(1 - len(left_out) / len(facts), 3) if facts else 1.0), left_out
