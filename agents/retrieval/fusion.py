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
All of the centroid is removed, for questions in every language. English questions used to keep 40%
of theirs: removing it all pushed Spanish chunks into the top 5 of one weak English question (recall@5
en->en 1.0 -> 0.95). The search now caps each document at two of the top k (search.PER_DOCUMENT), so a
Spanish manual's three near-ties cannot fill the list, and full centring wins everywhere it was measured
(same run, English centring 0.6 -> 1.0 with the cap): demo R@1/R@5/MRR .900/.988/.931 -> .913/1.0/.942,
React docs held-out en->es MRR .337 -> .392, tutor eval right-document-first .838 -> .887.
A chunk that packs several small sections (ingestion keeps a section too small to stand alone with its
neighbour, heading_spans) has one vector for all their topics, which sits near many questions and near
none: such chunks were the wrong first hit of most misses on the tutor eval ("4.4 Cuando la situación se
complica" + "5. Devoluciones" answered a Spanish question about the English returns policy). Ingestion
embeds each of their sections too (migration 180; one-section chunks have their own vector only), and
the similarity moves SECTION_WEIGHT of the way from the chunk's to its best section's. Same run, weight
0 -> 0.9: tutor eval first citation on the answering chunk .787 -> .875, right document first .887 ->
.963, on-topic quoted sentences .759 -> .861; demo R@1/R@5/MRR .913/1.0/.942 -> .913/.975/.938 (two
questions that were fifth drop to sixth behind packed chunks); React docs held-out MRR .662 -> .720
(en->en .820 -> .849, en->es .392 -> .507, es->en .453 -> .555, es->es .829 -> .829, vi->en .346 -> .443,
vi->vi .860 -> .903; tune half .686 -> .738), so it is not the tutor eval's doing. Weight 0.5 gave half of
that everywhere. Measured first and dropped: a vector of each section's heading alone, as a ranking
signal or in the offline sentence selection (tutor first citation .787 -> .750-.787), and hubness scaling
(CSLS: tutor .787 at best, demo R@1 .913 -> .875).
So hybrid = language-centred cosine + lexical evidence where it means something. ts_rank has no
inverse document frequency, so the lexical signal is BM25 with real statistics (migration 090 keeps
per-lexeme chunk counts at ingestion): each chunk's BM25 divided by the BM25 a chunk holding every
question lexeme would reach, i.e. the share of the question's (rare) words it holds, raised to a power
so that partial matches count little, and added only for chunks in the question's language (across
languages it re-creates the language bias: a same-language boost of 0.03 without the power cost the
demo's en->es MRR 0.93 -> 0.61). Exact terms (codes, formatted figures, acronyms) count in any language.
Weights tuned on the tune half of seeds/eval/react_docs (209 React docs pages in en/es/vi) and
reported on its held-out half next to the dense, BM25 and RRF anchors of the same run (see
seeds/eval/react_docs/README.md and tests/retrieval/test_retrieval_broad_eval.py).
Vietnamese gets its own configuration ('vietnamese', a copy of 'simple': syllables with their
diacritics, no stemming, no stop words), so it is centred as its own language and has its own HNSW
index. Measured with in-memory BM25 on the 103 Vietnamese questions (MRR@5 vi->vi / vi->en): simple
syllables .845 / .030, unaccented .859 / .051, syllables + bigrams .856 / .042. Unaccenting is not
adopted for +0.014 (about one question of 67): it merges distinct words (bố, bộ, bỏ) and needs the
unaccent extension; worth revisiting with more Vietnamese text.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

from storage.chunks import Candidate
from storage.corpus import LanguageGroup

CENTRING = 1.0  # share of the language centroid removed
SECTION_WEIGHT = 0.9  # how far a packed chunk's similarity moves from its own vector's to its best section's
SAME_LANGUAGE_BM25 = 0.8  # weight of the question's lexical evidence a chunk holds, chunk in the question's language
OTHER_LANGUAGE_BM25 = 0.0  # ... in another language (shared words across languages are mostly noise)
LEXICAL_POWER = 4.0  # partial matches count much less than whole ones
STRONG_LEXICAL = 0.04  # a boost this large is lexical evidence worth answering from (grounding)
EXACT_WEIGHT = 0.04  # matched exact terms (saturating in ts_rank)
EXACT_HALF = 0.05
RRF_K = 60

STRATEGIES = ("hybrid", "vector", "fulltext", "course-tree")
LANGUAGE_CONFIGS = {"es": "spanish", "en": "english", "vi": "vietnamese"}


def language_shifts(groups: list[LanguageGroup]) -> dict[str, np.ndarray]:
    """Per language (text-search configuration), its centroid's offset from the corpus centroid."""
    total = sum(group.chunks for group in groups)
    if len(groups) < 2 or total == 0:
        return {}
    corpus = sum(group.centroid * group.chunks for group in groups) / total
    return {group.ts_config: group.centroid - corpus for group in groups}


def _saturate(value: float, half: float) -> float:
    return value / (value + half) if value > 0 else 0.0


def dense_similarity(candidate: Candidate) -> float:
    """The chunk's cosine, moved SECTION_WEIGHT of the way to its best section's when it packs several."""
    vector = candidate.vector_score or 0.0
    if candidate.section_score is not None:
        vector += SECTION_WEIGHT * (candidate.section_score - vector)
    return vector


def hybrid_score(candidate: Candidate, query_config: str, shift: float, ceiling: float) -> float:
    """Centred cosine plus bounded lexical evidence, weighted by language match (``query_config``: the
    question's text-search configuration)."""
    return dense_similarity(candidate) - shift + _boost(candidate, query_config, ceiling)


def _boost(candidate: Candidate, query_config: str, ceiling: float) -> float:
    relative = min(1.0, candidate.lexical_score / ceiling) ** LEXICAL_POWER if ceiling > 0 else 0.0
    lexical = (SAME_LANGUAGE_BM25 if candidate.ts_config == query_config else OTHER_LANGUAGE_BM25) * relative
    return lexical + EXACT_WEIGHT * _saturate(candidate.exact_score, EXACT_HALF)


def hybrid_parts(candidate: Candidate, query_config: str, shift: float, ceiling: float) -> dict:
    """What hybrid_score adds up, rounded for people and for grounding's strong-lexical test."""
    return {
        "vector": round(candidate.vector_score or 0.0, 4),
        "section": round(candidate.section_score or 0.0, 4),
        "centred": round(dense_similarity(candidate) - shift, 4),
        "bm25": round(candidate.lexical_score, 4),
        "exact": round(candidate.exact_score, 4),
        "boost": round(_boost(candidate, query_config, ceiling), 4),
    }


# A ranked candidate: (candidate, score, its parts). The parts are worked out only for the few
# candidates that become hits: the search ranks ~80 and keeps k.
Ranked = tuple[Candidate, float, Callable[[], dict]]


def rank(
    candidates: list[Candidate],
    strategy: str,
    query_language: str,
    query_vector: np.ndarray | None = None,
    shifts: dict[str, np.ndarray] | None = None,
    ceilings: dict[str, float] | None = None,
) -> list[Ranked]:
    """Candidates best first under ``strategy`` ("hybrid", "vector", "fulltext" or the "rrf" baseline).

    ``ceilings`` (QueryTerms.ceilings) scale each configuration's BM25 to the share of the question's
    lexical evidence a chunk holds, so a chunk matching only common words gets little."""
    if strategy == "rrf":
        return _reciprocal_rank_fusion(candidates)
    scored: list[Ranked]
    if strategy == "vector":
        scored = [(c, c.vector_score or 0.0, partial(_vector_parts, c)) for c in candidates]
    elif strategy == "fulltext":
        scored = [(c, c.lexical_score + c.exact_score, partial(_lexical_parts, c)) for c in candidates]
    else:
        projections = (
            {language: CENTRING * float(np.dot(query_vector, shift)) for language, shift in (shifts or {}).items()}
            if query_vector is not None
            else {}
        )
        config, ceilings = LANGUAGE_CONFIGS.get(query_language, "simple"), ceilings or {}
        scored = []
        for c in candidates:
            weights = (config, projections.get(c.ts_config, 0.0), ceilings.get(c.ts_config, 0.0))
            scored.append((c, hybrid_score(c, *weights), partial(hybrid_parts, c, *weights)))
    scored.sort(key=lambda item: (-item[1], str(item[0].document_title), item[0].position))
    return scored


def _vector_parts(candidate: Candidate) -> dict:
    return {"vector": round(candidate.vector_score or 0.0, 4)}


def _lexical_parts(candidate: Candidate) -> dict:
    return {"bm25": round(candidate.lexical_score, 4), "exact": round(candidate.exact_score, 4)}


def _reciprocal_rank_fusion(candidates: list[Candidate]) -> list[Ranked]:
    """Plain RRF over the vector and full-text orders: the measured baseline, not served by default."""
    by_vector = sorted(candidates, key=lambda c: -(c.vector_score or 0.0))
    lexical_hits = [c for c in candidates if c.lexical_score + c.exact_score > 0]
    by_lexical = sorted(lexical_hits, key=lambda c: -(c.lexical_score + c.exact_score))
    scores: dict = {}
    for order in (by_vector, by_lexical):
        for position, candidate in enumerate(order, 1):
            scores[candidate.chunk_id] = scores.get(candidate.chunk_id, 0.0) + 1.0 / (RRF_K + position)
    ranked = sorted(candidates, key=lambda c: -scores[c.chunk_id])
    return [(c, scores[c.chunk_id], partial(dict, rrf=round(scores[c.chunk_id], 5))) for c in ranked]
