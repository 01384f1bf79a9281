"""How the vector and full-text scores become one ranking.

Measured on seeds/eval/retrieval.jsonl (see the report in tests/retrieval/test_retrieval_eval.py):
reciprocal-rank fusion lets lexical noise outvote the embedding on cross-lingual questions (a
Spanish question shares no stems with an English chunk, so RRF promotes whatever Spanish chunk
shares its function words). Hybrid therefore keeps the cosine similarity as the base and adds a
bounded lexical boost only where lexical evidence means something: words matched in the chunk's own
language when the question is in that language, and exact terms (codes, amounts, dates) in any.
"""
from __future__ import annotations

from storage.chunks import Candidate

# Calibrated on the eval set (tests/retrieval/test_retrieval_eval.py keeps them honest).
LEXICAL_WEIGHT = 0.08      # boost for a chunk whose ts_rank in the question's language saturates
LEXICAL_HALF = 0.1         # ts_rank at which the lexical boost is half its maximum
EXACT_WEIGHT = 0.06        # boost for matching the question's codes / amounts / dates
EXACT_HALF = 0.05
RRF_K = 60

STRATEGIES = ("hybrid", "vector", "fulltext", "course-tree")


def _saturate(value: float, half: float) -> float:
    return value / (value + half) if value > 0 else 0.0


def hybrid_score(candidate: Candidate, query_language: str) -> tuple[float, dict[str, float]]:
    """Cosine similarity plus the bounded lexical and exact-term boosts; returns (score, parts)."""
    vector = candidate.vector_score or 0.0
    same_language = candidate.document_language == query_language
    lexical = LEXICAL_WEIGHT * _saturate(candidate.lexical_score, LEXICAL_HALF) if same_language else 0.0
    exact = EXACT_WEIGHT * _saturate(candidate.exact_score, EXACT_HALF)
    parts = {"vector": round(vector, 4), "lexical": round(candidate.lexical_score, 4),
             "exact": round(candidate.exact_score, 4), "boost": round(lexical + exact, 4)}
    return vector + lexical + exact, parts


def rank(candidates: list[Candidate], strategy: str, query_language: str) -> list[tuple[Candidate, float, dict]]:
    """Candidates best first under ``strategy`` ("hybrid", "vector", "fulltext" or "rrf")."""
    scored: list[tuple[Candidate, float, dict]] = []
    if strategy == "rrf":
        return _reciprocal_rank_fusion(candidates)
    for candidate in candidates:
        if strategy == "vector":
            score = candidate.vector_score or 0.0
            parts = {"vector": round(score, 4)}
        elif strategy == "fulltext":
            score = candidate.lexical_score + candidate.exact_score
            parts = {"lexical": round(candidate.lexical_score, 4), "exact": round(candidate.exact_score, 4)}
        else:
            score, parts = hybrid_score(candidate, query_language)
        scored.append((candidate, score, parts))
    scored.sort(key=lambda item: (-item[1], str(item[0].document_title), item[0].position))
    return scored


def _reciprocal_rank_fusion(candidates: list[Candidate]) -> list[tuple[Candidate, float, dict]]:
    """Plain RRF over the vector and lexical orders: kept as the measured baseline, not served."""
    by_vector = sorted(candidates, key=lambda c: -(c.vector_score or 0.0))
    lexical_hits = [c for c in candidates if c.lexical_score + c.exact_score > 0]
    by_lexical = sorted(lexical_hits, key=lambda c: -(c.lexical_score + c.exact_score))
    scores: dict = {}
    for order in (by_vector, by_lexical):
        for position, candidate in enumerate(order, 1):
            scores[candidate.chunk_id] = scores.get(candidate.chunk_id, 0.0) + 1.0 / (RRF_K + position)
    ranked = sorted(candidates, key=lambda c: -scores[c.chunk_id])
    return [(c, scores[c.chunk_id], {"rrf": round(scores[c.chunk_id], 5)}) for c in ranked]
