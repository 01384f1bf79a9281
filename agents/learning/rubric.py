"""Which rubric points a free-text answer to a practical case covers.

The model (the caller's ``deps.llm``) judges each point (role "reviewer"); its deterministic twin —
used offline and whenever the model fails — measures coverage point by point:
  a point is covered when enough of its content words appear in the answer (Snowball-stemmed in the
  answer's language, accent- and case-insensitive, taxi ~ taxis, one typo forgiven: recall >= 0.4), or
  when some sentence of the answer means nearly the same (multilingual-e5 cosine >= 0.92), or both
  signals agree moderately (recall >= 0.2 and cosine >= 0.88) — unless the answer contradicts it: most
  shared words negated in one and not the other ("delete the e-mail" against "does not delete the
  e-mail"), or the point's figure replaced by another ("24 hours" against "1 hour"). e5 cosines are
  compressed into ~0.75-0.95 and barely move with a negation, hence the high thresholds and the veto.
  Thresholds tuned on tests/learning/data/rubric_answers.yaml's train split (test_rubric_judge.py).
Before the reveal the learner gets another try, so feedback names the points covered and only counts
the missing ones; the rubric shows with the model answer once the answer is revealed. A model's
feedback that names a missed point is replaced by that deterministic feedback.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import snowballstemmer
from pydantic import BaseModel, Field
from rapidfuzz.fuzz import ratio

from agents.i18n import language_name, t
from agents.learning.prompts import RUBRIC_GRADER_SYSTEM, RUBRIC_GRADER_USER
from agents.llm import LLM
from core.text import STOPWORDS, fold, stems, words

LEXICAL_ALONE = 0.4
COSINE_ALONE = 0.92
LEXICAL_WITH_COSINE, COSINE_WITH_LEXICAL = 0.2, 0.88
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


_STEMMERS = {"es": snowballstemmer.stemmer("spanish"), "en": snowballstemmer.stemmer("english")}
# words that turn their clause around ("does not delete", "nobody is disciplined"); a clause ends at punctuation
# or a linking word
_NEGATORS = frozenset("no not never nobody nothing none nunca jamas nadie nada ningun ninguna ninguno ni".split())
_CLAUSE_END = re.compile(r"[.,;:!?()]|\b(?:porque|pero|aunque|y|o|because|but|although|so|since|and|or)\b")
_FIGURE = re.compile(r"\d+(?:[.,]\d+)?")
CONTRADICTED_SHARE = 0.5  # of the shared words, standing negated in one text and plain in the other


def _stem_polarity(text: str, lang: str) -> dict[str, set[bool]]:
    """Each content word's Snowball stem, and whether it stands in a negated clause (True), a plain one (False)
    or both."""
    stemmer = _STEMMERS.get(lang, _STEMMERS["en"])
    found: dict[str, set[bool]] = {}
    for clause in _CLAUSE_END.split(fold(text).replace("n't", " not")):
        clause_words = words(clause)
        negated = any(word in _NEGATORS for word in clause_words)
        for word in clause_words:
            if len(word) >= 3 and word not in STOPWORDS and word not in _NEGATORS:
                found.setdefault(stemmer.stemWord(word), set()).add(negated)
    return found


def _same_word(wanted: str, said: str) -> bool:
    """Stems of one word: equal, one a short extension of the other (taxi/taxis), or one typo apart."""
    if wanted == said:
        return True
    if min(len(wanted), len(said)) >= 4 and abs(len(wanted) - len(said)) <= 2:
        if wanted.startswith(said) or said.startswith(wanted):
            return True
    return min(len(wanted), len(said)) >= 5 and ratio(wanted, said) >= 80


def stem_evidence(point: str, answer: str, lang: str) -> tuple[float, bool]:
    """The share of the point's words the answer says (stemmed, typo-tolerant), and whether it contradicts the
    point: a shared word negated in one and not the other, or the point's figure replaced by another."""
    wanted, said = _stem_polarity(point, lang), _stem_polarity(answer, lang)
    matched = contradicted = 0
    for stem, polarity in wanted.items():
        hits = set().union(*(flags for other, flags in said.items() if _same_word(stem, other)))
        matched += bool(hits)
        contradicted += bool(hits) and not hits & polarity
    point_figures, answer_figures = set(_FIGURE.findall(point)), set(_FIGURE.findall(answer))
    wrong_figure = bool(point_figures - answer_figures) and bool(answer_figures - point_figures)
    negated_instead = matched and contradicted / matched > CONTRADICTED_SHARE
    return (matched / len(wanted) if wanted else 0.0), bool(negated_instead) or wrong_figure


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
        recall, contradicted = stem_evidence(point, answer, lang)
        cosine = float(np.max(piece_vectors @ _unit(embed(point))))
        covered.append(
            not contradicted
            and (
                recall >= LEXICAL_ALONE
                or cosine >= COSINE_ALONE
                or (recall >= LEXICAL_WITH_COSINE and cosine >= COSINE_WITH_LEXICAL)
            )
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
