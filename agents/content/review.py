"""The quality reviewer's deterministic checks: the quiz-quality report (the offline twin, and the floor
under a model's review).

Per exercise: answerable from the chunk it cites, not guessable without it (multiple choice: the right
option is not the only one sharing words with the question, distractors of the same kind and length
class), fill-in blanks on content words, step orders from a real sequence. Per course: citations, the
Bloom mix (>= 50 % apply or higher), coverage of the source's sections, the copy ratio of the lessons
and how often the right option is the longest. Severities (spec 004 §3.6): critical = a wrong or
unverifiable answer, major = missing citations, a guessable quiz, a significant omission; minor = style.
The score can never read 1.00 while an issue is open: every issue takes its weight off.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from agents.content import checks as reader
from agents.content.exercise_checks import exercise_shape_findings
from agents.content.exercises import why_left_out
from agents.content.facts import answer_kind
from agents.content.lessons import copy_ratio
from agents.content.sections import Section
from agents.content.state import APPLIED_LEVELS
from agents.content.text import STOPWORDS, content_words, fold, words
from agents.content.verify import verify_exercise
from agents.i18n import t

PASS_THRESHOLD = 0.8
CRITICAL_CAP = 0.89  # a course with a critical finding open never reads as good
MAX_LONGEST_RIGHT_SHARE = 0.4
EXERCISE_TYPES = ("test", "true_false", "fill_blank", "order_steps", "practical_case", "dialogue")
WEIGHTS = {"critical": 0.3, "major": 0.1, "minor": 0.02}
_CITE_MARK = re.compile(r"\[\d+\]")


def _issue(
    severity: str, module_index: int | None, code: str, language: str, exercise_index: int | None = None, **values
) -> dict:
    return {
        "severity": severity,
        "module_index": module_index,
        "exercise_index": exercise_index,
        "code": code,
        "description": t(f"content.review.{code}", language, **values),
        "suggestion": t(f"content.review.{code}_fix", language, **values),
    }


def _stems(text: str) -> set[str]:
    return {fold(w)[:5] for w in content_words(text)}


def longest_is_right(exercise: dict) -> bool:
    options, answer = exercise["content"].get("options") or [], exercise["content"].get("answer")
    if not isinstance(answer, int) or not 0 <= answer < len(options) or len(options) < 2:
        return False
    right = len(options[answer].strip())
    return all(right > len(o.strip()) for i, o in enumerate(options) if i != answer)


def exercise_findings(exercise: dict, cited_text: str, source: str) -> list[tuple[str, str, dict]]:
    """(severity, code, values) for one exercise, checked against the text of the chunks it cites."""
    found: list[tuple[str, str, dict]] = []
    why = verify_exercise(exercise, cited_text) if cited_text else "it cites no chunk"
    if why is not None:
        found.append(
            ("critical", "unanswerable", {"why": why})
            if verify_exercise(exercise, source) is not None
            else ("major", "wrong_chunk", {})
        )
    kind, content = exercise["type"], exercise.get("content") or {}
    if kind == "test":
        options, answer = content.get("options") or [], content.get("answer")
        if isinstance(answer, int) and 0 <= answer < len(options):
            right, others = options[answer], [o for i, o in enumerate(options) if i != answer]
            quoted = re.findall(r"«([^»]+)»", exercise.get("prompt", ""))
            question = _stems(" ".join(quoted) if quoted else exercise.get("prompt", ""))
            if _stems(right) & question and not any(_stems(o) & question for o in others):
                found.append(("major", "only_shared_words", {}))
            odd = [
                o
                for o in others
                if answer_kind(o) != answer_kind(right) or not 0.5 <= (len(o) + 1) / (len(right) + 1) <= 2.0
            ]
            if odd:
                found.append(("major", "implausible_distractors", {"options": ", ".join(odd)}))
    elif kind == "fill_blank":
        bad = [
            a
            for a in content.get("answers") or []
            if not re.search(r"\d", a) and (len(a) < 4 or fold(a) in STOPWORDS or not any(len(w) > 3 for w in words(a)))
        ]
        if bad:
            found.append(("major", "blank_not_content_word", {"blank": ", ".join(bad)}))
    return found


def _source_text(sections: list[Section]) -> tuple[str, dict[str, str]]:
    by_chunk: dict[str, list[str]] = {}
    for section in sections:
        for chunk_id, text in zip(section.chunk_ids, section.texts):
            by_chunk.setdefault(chunk_id, []).append(f"{section.heading}\n{text}")
    return "\n\n".join(f"{s.heading}\n{s.text}" for s in sections), {
        chunk_id: "\n\n".join(parts) for chunk_id, parts in by_chunk.items()
    }


def one_exercise_review(exercise: dict, sections: list[Section], language: str) -> list[dict]:
    """What the course reviewer finds in one exercise (an admin's edit of a draft course's), as the issues
    ``review_twin`` lists for it: its answer against the passages it cites, its text, its options."""
    source, chunk_text = _source_text(sections)
    cited = "\n\n".join(chunk_text.get(str(c), "") for c in exercise.get("source_chunk_ids") or [])
    issues = [
        _issue(severity, 0, code, language, exercise_index=0, n=1, kind=exercise["type"], **values)
        for severity, code, values in exercise_findings(exercise, cited, source)
    ]
    return (
        issues
        + reader.exercise_text_findings(exercise, source, 0, 0, language)
        + exercise_shape_findings(exercise, sections, 0, 0, language)
    )


def review_twin(
    modules: Sequence[Mapping[str, Any]], manual: dict | None, sections: list[Section], language: str
) -> dict:
    source, chunk_text = _source_text(sections)
    issues: list[dict] = []
    lessons_total = lessons_cited = exercises_total = answers_ok = applied = mc_total = mc_longest = 0
    covered: set[str] = set()
    types: set[str] = set()
    for index, module in enumerate(modules):
        for lesson in module["lessons"]:
            lessons_total += 1
            covered.update(lesson.get("source_chunk_ids") or [])
            practice = lesson["content_type"] == "exercise"
            if lesson.get("citations") and (practice or _CITE_MARK.search(lesson.get("content", ""))):
                lessons_cited += 1
            else:
                issues.append(_issue("major", index, "uncited", language, title=lesson["title"]))
        if not module["exercises"]:
            issues.append(_issue("major", index, "no_exercises", language))
        for gone in module.get("replaced_lessons") or []:  # the model's lesson failed twice (gate.py)
            issues.append(
                _issue("minor", index, "lesson_replaced", language, title=gone["title"], why=" ".join(gone["findings"]))
            )
        for n, exercise in enumerate(module["exercises"]):
            exercises_total += 1
            types.add(exercise["type"])
            applied += exercise["bloom_level"] in APPLIED_LEVELS
            cited = "\n\n".join(chunk_text.get(c, "") for c in exercise.get("source_chunk_ids") or [])
            findings = exercise_findings(exercise, cited, source)
            answers_ok += not any(code in ("unanswerable", "wrong_chunk") for _, code, _ in findings)
            for severity, code, values in findings:
                issues.append(
                    _issue(severity, index, code, language, exercise_index=n, n=n + 1, kind=exercise["type"], **values)
                )
            if exercise["type"] == "test":
                mc_total += 1
                mc_longest += longest_is_right(exercise)
    applied_share = applied / exercises_total if exercises_total else 0.0
    if exercises_total and applied_share < 0.5:
        worst = min(
            range(len(modules)),
            key=lambda i: (
                sum(e["bloom_level"] in APPLIED_LEVELS for e in modules[i]["exercises"])
                - len(modules[i]["exercises"]) / 2
            ),
        )
        issues.append(_issue("major", worst, "bloom", language, share=round(applied_share * 100)))
    longest_share = mc_longest / mc_total if mc_total else 0.0
    if mc_total >= 3 and longest_share > MAX_LONGEST_RIGHT_SHARE:
        issues.append(_issue("major", None, "longest_right", language, share=round(longest_share * 100)))
    if manual:
        for section in manual.get("sections", []):
            covered.update(section.get("chunk_ids") or [])
        if not manual.get("toc"):
            issues.append(_issue("major", None, "manual_toc", language))
    lesson_covered = {c for m in modules for lesson in m["lessons"] for c in lesson.get("source_chunk_ids") or []}
    missing = [s.heading for s in sections if not covered & set(s.chunk_ids)]
    coverage = 1 - len(missing) / len(sections) if sections else 0.0
    if coverage < 0.95:
        issues.append(
            _issue(
                "major" if coverage < 0.8 else "minor",
                None,
                "coverage",
                language,
                share=round(coverage * 100),
                missing=", ".join(missing[:5]),
            )
        )
    # copying whole source sentences is how the lessons stay exact; pasting a passage is the defect (checks.py)
    ratio = (
        copy_ratio(
            sections,
            [lesson["content"] for m in modules for lesson in m["lessons"] if lesson["content_type"] != "exercise"],
        )
        if modules
        else 0.0
    )
    issues += reader.lesson_findings(modules, sections, language) + reader.true_false_findings(modules, language)
    for index, module in enumerate(modules):
        for n, exercise in enumerate(module["exercises"]):
            issues += reader.exercise_text_findings(exercise, source, index, n, language)
            issues += exercise_shape_findings(exercise, sections, index, n, language)
    fact_share, left_out = reader.fact_coverage(modules, sections)
    if fact_share < reader.MIN_FACT_COVERAGE:
        issues.append(
            _issue(
                "major",
                None,
                "fact_coverage",
                language,
                share=round(fact_share * 100),
                missing="; ".join(s[:60] for s in left_out[:3]),
            )
        )
    left_out_types = (
        [{"type": kind, "why": why_left_out(kind, language)} for kind in EXERCISE_TYPES if kind not in types]
        if exercises_total
        else []
    )
    issues += [
        _issue("minor", None, "left_out_type", language, kind=item["type"], why=item["why"]) for item in left_out_types
    ]
    bloom_mix: dict[str, int] = {}
    for module in modules:
        for exercise in module["exercises"]:
            bloom_mix[exercise["bloom_level"]] = bloom_mix.get(exercise["bloom_level"], 0) + 1
    citation_coverage = lessons_cited / lessons_total if lessons_total else 0.0
    answers_verified = answers_ok / exercises_total if exercises_total else 0.0
    checks = {
        "citation_coverage": citation_coverage,
        "answers_verified": answers_verified,
        "applied_share": applied_share,
        "section_coverage": coverage,
        "lesson_section_coverage": (
            sum(bool(lesson_covered & set(s.chunk_ids)) for s in sections) / len(sections) if sections else 0.0
        ),
        "copy_ratio": ratio,
        "mc_longest_right_share": round(longest_share, 3),
        "multiple_choice": mc_total,
        "bloom_mix": dict(sorted(bloom_mix.items())),
        "exercise_types": sorted(types),
        "fact_coverage": fact_share,
        "left_out": left_out,
        "left_out_types": left_out_types,
        "replaced_lessons": [
            {"module": index + 1, **gone} for index, m in enumerate(modules) for gone in m.get("replaced_lessons") or []
        ],
    }
    score = (citation_coverage + answers_verified + min(1.0, applied_share / 0.5) + coverage) / 4
    return finish_report(issues, score, len(modules), checks, "offline")


def quality_summary(report: dict | None) -> dict | None:
    """The job's quality figures: overall score and open issues by severity."""
    return _quality(report) if report else None


def _quality(report: dict) -> dict:
    counts = {
        severity: sum(i["severity"] == severity for i in report.get("issues") or [])
        for severity in ("critical", "major", "minor")
    }
    return {"score": report.get("overall_score"), **counts}


def review_summary(report: dict | None) -> dict | None:
    """The review as the CLI reports it: score, open findings by severity and by kind, exercise types left out."""
    if not report:
        return None
    kinds: dict[str, int] = {}
    for issue in report.get("issues") or []:
        kinds[issue["code"]] = kinds.get(issue["code"], 0) + 1
    return {
        **_quality(report),
        "findings": dict(sorted(kinds.items())),
        "left_out_types": (report.get("checks") or {}).get("left_out_types") or [],
    }


def report_figures(report: dict | None) -> dict:
    """The review's figures in the CLI's JSON: score, issues by severity, the review by kind, the copy ratio, the
    coverage of the source's fact sentences and those left out."""
    checks = (report or {}).get("checks") or {}
    return {
        "review_score": (report or {}).get("overall_score"),
        "quality": quality_summary(report),
        "copy_ratio": checks.get("copy_ratio"),
        "review": review_summary(report),
        "coverage": checks.get("fact_coverage"),
        "left_out": checks.get("left_out") or [],
        "replaced_lessons": checks.get("replaced_lessons") or [],
    }


def _modules_with_serious_findings(issues: Sequence[Mapping], module_count: int) -> set[int]:
    """The modules with a major or critical finding of their own."""
    return {
        i["module_index"]
        for i in issues
        if i["severity"] in ("critical", "major") and i.get("module_index") in range(module_count)
    }


def finish_report(issues: list[dict], score: float, module_count: int, checks: dict, engine: str) -> dict:
    """Each module's score loses its own findings' weight; the course's is what its modules say: their mean,
    times ``score`` (the whole course's checks), less the weight of findings about no one module, less a
    critical's weight times the share of modules with a major (or critical) finding: a course with one in every
    module needs another pass as a whole, not a reader's patience in each module (0.60, not 0.90), while one
    such module of several leaves it publishable after a look. Never 1.00 with an issue listed; capped when a
    critical one is open; passed = score >= 0.8, no module under it and nothing critical (spec 004 §3.6)."""
    module_scores, checks_score = [], score
    for index in range(module_count):
        penalty = sum(WEIGHTS[i["severity"]] for i in issues if i.get("module_index") == index)
        module_scores.append(round(max(0.0, 1.0 - penalty), 3))
    course_wide = sum(WEIGHTS[i["severity"]] for i in issues if i.get("module_index") not in range(module_count))
    mean = sum(module_scores) / module_count if module_count else 1.0
    spread = len(_modules_with_serious_findings(issues, module_count)) / module_count if module_count else 0.0
    score = round(max(0.0, min(1.0, score * mean - course_wide - WEIGHTS["critical"] * spread)), 3)
    if issues and score >= 1.0:
        score = 0.99
    critical = any(i["severity"] == "critical" for i in issues)
    if critical:
        score = min(score, CRITICAL_CAP)
    weakest = min(module_scores, default=1.0)  # a good mean does not carry a failing module
    passed = score >= PASS_THRESHOLD and weakest >= PASS_THRESHOLD and not critical
    return {
        "passed": passed,
        "overall_score": score,
        "issues": issues,
        "module_scores": module_scores,
        "checks_score": checks_score,
        "checks": checks,
        "engine": engine,
    }
