"""Which rubric points a free-text answer to a practical case covers.

The model (the caller's ``deps.llm``) judges each point (role "reviewer"); its deterministic twin —
used offline and whenever the model fails — measures coverage point by point:
  a point is covered when enough of its content words appear in the answer (Snowball-stemmed in the
  answer's language, accent- and case-insensitive, taxi ~ taxis, one typo forgiven: recall >= 0.4; a point
  listing alternatives, "Los taxis y vehículos con conductor se usan", is said by one of them), or
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


_OR, _AND = frozenset("o u or".split()), frozenset("y e and".split())
# what ends a list's item: punctuation, a linking word, a clause opener; a subject's item also ends at its verb
_ITEM_END = frozenset(
    "y e o u ni and or nor pero but que that which who quien cuando when if si porque because".split()
)
_VERB_AFTER_SUBJECT = frozenset("se is are was were can may must should will debe deben puede pueden son es".split())
_ITEM_WORDS = 3  # an item longer than this is cut to its neighbour's length (the list's edge is unknown)


def _run(tokens: list[str], start: int, step: int, stop: frozenset[str] = frozenset()) -> list[str]:
    """The words from ``start`` going ``step`` until punctuation or a word of ``_ITEM_END`` or ``stop``."""
    run = []
    while 0 <= start < len(tokens) and tokens[start][0].isalnum() and tokens[start] not in _ITEM_END | stop:
        run.append(tokens[start])
        start += step
    return run[::step]


def alternative_lists(point: str) -> list[list[list[str]]]:
    """The lists of alternatives a point gives, each item as its folded words: "económica o compacta", "por la
    noche o con material pesado" (and the comma items before them), and a subject list that opens the point
    ("Los taxis y vehículos con conductor se usan"): any one item of such a list says the point. Other "and"
    lists are requirements ("descargar el módulo, acordonar la zona y no usarlo"), never split."""
    tokens = re.findall(r"\w+|[^\w\s]", fold(point))
    found = []
    for i, token in enumerate(tokens):
        subject = token in _AND
        if not subject and token not in _OR:
            continue
        runs, before = [_run(tokens, i - 1, -1)], i - 1
        before -= len(runs[0])
        while before > 0 and tokens[before] == ",":  # "A, B o C": the comma items before
            runs.insert(0, _run(tokens, before - 1, -1))
            before -= len(runs[0]) + 1
        right = _run(tokens, i + 1, 1, _VERB_AFTER_SUBJECT if subject else frozenset())
        after = i + 1 + len(right)
        if not right or not all(runs):
            continue
        if subject:  # only a list of short items that opens the point and its verb follows
            if before < 0 and max(map(len, runs)) <= _ITEM_WORDS and len(right) <= 5 and after < len(tokens):
                if tokens[after] in _VERB_AFTER_SUBJECT:
                    found.append([*runs, right])
            continue
        inner = [len(item) for item in [*runs[1:], right] if len(item) <= _ITEM_WORDS]
        size = min(inner or [len(item) for item in [*runs, right]])
        found.append([item if len(item) <= _ITEM_WORDS and n else item[-size:] for n, item in enumerate(runs)])
        found[-1].append(right if len(right) <= _ITEM_WORDS else right[:size])
    return found


def _variants(point: str, wanted: dict[str, set[bool]], lang: str) -> list[set[str]]:
    """The point's stems, and for each item of a list of alternatives the stems left when the other items go."""
    stemmer = _STEMMERS.get(lang, _STEMMERS["en"])
    variants = [set(wanted)]
    for items in alternative_lists(point):
        stemmed = [{stemmer.stemWord(word) for word in item} & set(wanted) for item in items]
        for n, own in enumerate(stemmed):
            others = set().union(*(s for m, s in enumerate(stemmed) if m != n)) - own
            variants.append(set(wanted) - others)
    return [variant for variant in variants if variant]


def stem_evidence(point: str, answer: str, lang: str) -> tuple[float, float, bool]:
    """The share of the point's words the answer says (stemmed, typo-tolerant); the same share when the point lists
    alternatives and the answer says one of them ("Cojo un taxi" for "Los taxis y vehículos con conductor se usan"),
    at least the first; and whether the answer contradicts the point: most shared words negated in one and not the
    other, or the point's figure replaced by another."""
    wanted, said = _stem_polarity(point, lang), _stem_polarity(answer, lang)
    hit, contradicted = set(), 0
    for stem, polarity in wanted.items():
        hits = set().union(*(flags for other, flags in said.items() if _same_word(stem, other)))
        hit |= {stem} if hits else set()
        contradicted += bool(hits) and not hits & polarity
    point_figures, answer_figures = set(_FIGURE.findall(point)), set(_FIGURE.findall(answer))
    wrong_figure = bool(point_figures - answer_figures) and bool(answer_figures - point_figures)
    negated_instead = hit and contradicted / len(hit) > CONTRADICTED_SHARE
    recalls = [len(hit & variant) / len(variant) for variant in _variants(point, wanted, lang)] or [0.0]
    return recalls[0], max(recalls), bool(negated_instead) or wrong_figure


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
        recall, alternative_recall, contradicted = stem_evidence(point, answer, lang)
        cosine = float(np.max(piece_vectors @ _unit(embed(point))))
        covered.append(
            not contradicted
            and (
                alternative_recall >= LEXICAL_ALONE
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
