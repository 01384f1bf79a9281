"""Which rubric points a free-text answer to a practical case covers.

The model (the caller's ``deps.llm``) judges each point (role "reviewer"); its deterministic twin —
used offline and whenever the model fails — measures coverage point by point:
  a point is covered when enough of its content words appear in the answer (prefix-stemmed, accent-
  and case-insensitive: lexical recall >= 0.5), or when some sentence of the answer means nearly the
  same (multilingual-e5 cosine >= 0.90), or both signals agree moderately (recall >= 0.2 and cosine
  >= 0.86). e5 cosines are compressed into ~0.75-0.95, hence the high thresholds.
Before the reveal the learner gets another try, so feedback names the points covered and only counts
the missing ones; the rubric shows with the model answer once the answer is revealed. A model's
feedback that names a missed point is replaced by that deterministic feedback.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, Field

from agents.i18n import language_name, t
from agents.learning.prompts import RUBRIC_GRADER_SYSTEM, RUBRIC_GRADER_USER
from agents.llm import LLM
from core.text import stems

LEXICAL_ALONE = 0.5
COSINE_ALONE = 0.90
LEXICAL_WITH_COSINE, COSINE_WITH_LEXICAL = 0.2, 0.86
_STEM = 5


@dataclass(frozen=True)
class RubricVerdict:
    covered: list[bool]  # one per rubric point, in rubric order
    feedback: str
    engine: str


class PointVerdict(BaseModel):
    index: int = Field(description="rubric point number, from 1")
    covered: bool
    comment: str = ""


class RubricAssessment(BaseModel):
    points: list[PointVerdict]
    feedback: str


def content_stems(text: str) -> set[str]:
    return stems(text, length=_STEM, min_length=3)


def lexical_recall(point: str, answer: str) -> float:
    wanted = content_stems(point)
    return len(wanted & content_stems(answer)) / len(wanted) if wanted else 0.0


def _sentences(text: str) -> list[str]:
    parts = [p.strip() for p in re.split(r"(?<=[.!?;])\s+|\n+", text) if p.strip()]
    return parts or [text]


def _unit(vector: np.ndarray) -> np.ndarray:
    return vector / (np.linalg.norm(vector) or 1.0)


def coverage_twin(rubric: list[str], answer: str, lang: str, embed: Callable[[str], np.ndarray]) -> RubricVerdict:
    pieces = _sentences(answer)
    if len(pieces) > 1:
        pieces.append(answer)
    piece_vectors = np.stack([_unit(embed(p)) for p in pieces])
    covered = []
    for point in rubric:
        recall = lexical_recall(point, answer)
        cosine = float(np.max(piece_vectors @ _unit(embed(point))))
        covered.append(
            recall >= LEXICAL_ALONE
            or cosine >= COSINE_ALONE
            or (recall >= LEXICAL_WITH_COSINE and cosine >= COSINE_WITH_LEXICAL)
        )
    return RubricVerdict(covered, rubric_feedback(rubric, covered, lang), "offline")


def rubric_feedback(rubric: list[str], covered: list[bool], lang: str) -> str:
    """The points the answer covers, and how many it still misses (never which: that is the reveal)."""
    hit = [point.rstrip(" .") for point, ok in zip(rubric, covered) if ok]
    missing = covered.count(False)
    parts = [t("learning.rubric.covered", lang, points="; ".join(hit))] if hit else []
    if missing:
        parts.append(t("learning.rubric.missing", lang, missing=missing, total=len(rubric)))
    return " ".join(parts)


def names_a_missed_point(feedback: str, rubric: list[str], covered: list[bool], case: str = "") -> bool:
    """Whether ``feedback`` holds a fifth of the words that only a missed point has (not the case's,
    not a covered point's): "falta la alternativa" gives away "offer an alternative"."""
    shared = content_stems(case).union(*(content_stems(p) for p, ok in zip(rubric, covered) if ok))
    said = content_stems(feedback)
    for point, ok in zip(rubric, covered):
        own = content_stems(point) - shared
        if not ok and own and len(own & said) / len(own) >= LEXICAL_WITH_COSINE:
            return True
    return False


def assess(
    content: dict, answer: str, *, lang: str, llm: LLM, embed_query: Callable[[str], np.ndarray], prompt: str = ""
) -> RubricVerdict:
    """The model's per-point verdict, or the coverage twin's."""
    rubric = content["rubric"]
    language = language_name(lang)
    messages = [
        ("system", RUBRIC_GRADER_SYSTEM.format(language=language)),
        (
            "human",
            RUBRIC_GRADER_USER.format(
                scenario=content["scenario"],
                prompt=prompt,
                model_answer=content["model_answer"],
                rubric="\n".join(f"{n}. {point}" for n, point in enumerate(rubric, 1)),
                answer=answer,
            ),
        ),
    ]
    twin_verdict: list[RubricVerdict] = []

    def twin() -> RubricAssessment:
        verdict = coverage_twin(rubric, answer, lang, embed_query)
        twin_verdict.append(verdict)
        return RubricAssessment(
            points=[PointVerdict(index=n, covered=c) for n, c in enumerate(verdict.covered, 1)],
            feedback=verdict.feedback,
        )

    result = llm.structured("reviewer", messages, RubricAssessment, twin)
    if twin_verdict:
        return twin_verdict[0]
    judged = {p.index: p.covered for p in result.value.points}
    covered = [judged.get(n, False) for n in range(1, len(rubric) + 1)]
    feedback = result.value.feedback.strip()
    if not feedback or names_a_missed_point(feedback, rubric, covered, f"{content['scenario']} {prompt}"):
        feedback = rubric_feedback(rubric, covered, lang)
    return RubricVerdict(covered, feedback, result.engine)
