"""How the vector and full-text evidence becomes one ranking.

Measured on seeds/eval/retrieval.jsonl (80 questions, 6 demo documents; recall@5, by pair
question->document language):
- raw cosine (multilingual-e5-small): es->en 0.33, en->es 0.94, mono 1.00. The model prefers any
  passage in the question's language to the right passage in the other language.
- reciprocal-rank fusion with full-text: es->en 0.22, en->es 0.59 — lexical matches across
  languages are noise, and RRF lets them outvote the embedding.
- cosine minus the chunk's language centroid (each language's mean embedding, relative to the
  corpus mean, projected on the question): es->en 0.94, en->es 1.00, en->en 0.95, es->es 1.00.
  Removing the language-specific mean is the known way to make multilingual encoders language
  neutral (Libovický et al., 2020).
How much of the centroid to remove depends on the question's language: e5's pull towards its own
language is stronger for Spanish questions than for English ones (removing all of it cost English
questions recall@1 0.95 -> 0.82; 60% keeps 0.95 and still lifts en->es from 0.53 to 0.82).
So hybrid = language-centred cosine + bounded boosts where lexical evidence means something: every
question word found in a chunk of the question's own language, and exact terms (codes, formatted
figures, acronyms) in any language. A same-language ts_rank boost was measured too and dropped: it
re-creates the language bias (es->en recall@1 0.78 -> 0.56 at weight 0.04).
"""
from __future__ import annotations

import numpy as np

from storage.chunks import Candidate, LanguageGroup

CENTRING = {"en": 0.6}   # share of the language centroid removed, by question language
DEFAULT_CENTRING = 1.0
ALL_WORDS_BOOST = 0.04   # every question word matched, chunk in the question's language
EXACT_WEIGHT = 0.04      # matched exact terms (saturating in ts_rank)
EXACT_HALF = 0.05
RRF_K = 60

STRATEGIES = ("hybrid", "vector", "fulltext", "course-tree")


def language_shifts(groups: list[LanguageGroup]) -> dict[str, np.ndarray]:
    """Per language (text-search configuration), its centroid's offset from the corpus centroid."""
    total = sum(group.chunks for group in groups)
    if len(groups) < 2 or total == 0:
        return {}
    corpus = sum(group.centroid * group.chunks for group in groups) / total
    return {group.ts_config: group.centroid - corpus for group in groups}


def _saturate(value: float, half: float) -> float:
    return value / (value + half) if value > 0 else 0.0


def hybrid_score(candidate: Candidate, query_language: str, shift: float) -> tuple[float, dict]:
    """(score, its parts): centred cosine plus the bounded lexical boosts."""
    vector = candidate.vector_score or 0.0
    centred = vector - shift
    all_words = ALL_WORDS_BOOST if candidate.strong_match and candidate.document_language == query_language else 0.0
    exact = EXACT_WEIGHT * _saturate(candidate.exact_score, EXACT_HALF)
    return centred + all_words + exact, {
        "vector": round(vector, 4), "centred": round(centred, 4), "lexical": round(candidate.lexical_score, 4),
        "exact": round(candidate.exact_score, 4), "boost": round(all_words + exact, 4)}


def rank(candidates: list[Candidate], strategy: str, query_language: str, query_vector: np.ndarray | None = None,
         shifts: dict[str, np.ndarray] | None = None) -> list[tuple[Candidate, float, dict]]:
    """Candidates best first under ``strategy`` ("hybrid", "vector", "fulltext" or the "rrf" baseline)."""
    if strategy == "rrf":
        return _reciprocal_rank_fusion(candidates)
    centring = CENTRING.get(query_language, DEFAULT_CENTRING)
    projections = {language: centring * float(np.dot(query_vector, shift))
                   for language, shift in (shifts or {}).items()} if query_vector is not None else {}
    scored = []
    for candidate in candidates:
        if strategy == "vector":
            score = candidate.vector_score or 0.0
            parts = {"vector": round(score, 4)}
        elif strategy == "fulltext":
            score = candidate.lexical_score + candidate.exact_score
            parts = {"lexical": round(candidate.lexical_score, 4), "exact": round(candidate.exact_score, 4)}
        else:
            score, parts = hybrid_score(candidate, query_language, projections.get(candidate.ts_config, 0.0))
        scored.append((candidate, score, parts))
    scored.sort(key=lambda item: (-item[1], str(item[0].document_title), item[0].position))
    return scored


def _reciprocal_rank_fusion(candidates: list[Candidate]) -> list[tuple[Candidate, float, dict]]:
    """Plain RRF over the vector and full-text orders: the measured baseline, not served by default."""
    by_vector = sorted(candidates, key=lambda c: -(c.vector_score or 0.0))
    lexical_hits = [c for c in candidates if c.lexical_score + c.exact_score > 0]
    by_lexical = sorted(lexical_hits, key=lambda c: -(c.lexical_score + c.exact_score))
    scores: dict = {}
    for order in (by_vector, by_lexical):
        for position, candidate in enumerate(order, 1):
            scores[candidate.chunk_id] = scores.get(candidate.chunk_id, 0.0) + 1.0 / (RRF_K + position)
    ranked = sorted(candidates, key=lambda c: -scores[c.chunk_id])
    return [(c, scores[c.chunk_id], {"rrf": round(scores[c.chunk_id], 5)}) for c in ranked]
