"""Extractive answers: the retrieved passages' sentences closest to the question, with their [n] markers."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import numpy as np

from agents.offline.sentences import WORD, answer_candidates
from core.text import STOPWORDS, fold

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

MAX_CANDIDATES = 20  # sentences embedded per answer: embedding is the slow part (~0.1 s a sentence)


def _terms(text: str) -> set[str]:
    """Content words, accent-folded and cut to a 5-letter stem (vacaciones ~ vacación, policy ~ policies)."""
    return {fold(word)[:5] for word in WORD.findall(text) if fold(word) not in STOPWORDS and len(word) > 1}


_vector_caches: dict[object, dict[str, np.ndarray]] = {}  # per embedding function: a sentence's vector
_vector_lock = threading.Lock()


def sentence_vectors(sentences: list[str], embedder: Embedder) -> np.ndarray:
    """Passage embeddings by text, as ``embedder`` makes them, computed in one batch for the ones not seen before."""
    with _vector_lock:
        cache = _vector_caches.setdefault(embedder.embed_passages, {})
        missing = list(dict.fromkeys(s for s in sentences if s not in cache))
    if missing:
        vectors = embedder.embed_passages(missing)
        with _vector_lock:
            if len(cache) > 20_000:
                cache.clear()
            cache.update(zip(missing, vectors))
    return np.vstack([cache[s] for s in sentences])


def cite_chosen(candidates: list[tuple[int, str]], chosen: list[int], max_chars: int) -> str:
    """The chosen candidates in the given order, each run of one passage's sentences followed by its [n]."""
    parts: list[str] = []
    for k, i in enumerate(chosen):
        number, sentence = candidates[i]
        if len(chosen) == 1 and len(sentence) > max_chars:
            sentence = sentence[:max_chars].rsplit(" ", 1)[0] + "…"
        parts.append(sentence)
        if k + 1 == len(chosen) or candidates[chosen[k + 1]][0] != number:
            parts[-1] += f" [{number}]"
    return " ".join(parts)


def extractive_answer(
    question: str,
    passages: list[tuple[int, str]],
    embedder: Embedder,
    max_chars: int = 900,
    *,
    margin: float = 0.06,
    max_sentences: int | None = None,
) -> str:
    """The passages' sentences that best answer ``question``, in document order, each run of
    sentences followed by the [n] marker of the passage it came from; "" when there is nothing.
    A sentence is kept when it scores within ``margin`` of the best (at most ``max_sentences``)."""
    candidates = answer_candidates(passages)
    if not candidates:
        return ""
    asked = _terms(question)
    overlap = [len(asked & _terms(sentence)) / (len(asked) or 1) for _, sentence in candidates]
    shortlist = sorted(range(len(candidates)), key=lambda i: (-overlap[i], i))[:MAX_CANDIDATES]
    vectors = sentence_vectors([candidates[i][1] for i in shortlist], embedder)
    similarity = vectors @ embedder.embed_query(question)
    score = {i: float(similarity[k]) + 0.1 * overlap[i] for k, i in enumerate(shortlist)}
    ranked = sorted(shortlist, key=lambda i: -score[i])
    best = score[ranked[0]]
    chosen: list[int] = []
    used = 0
    for i in ranked:
        sentence = candidates[i][1]
        if chosen and (
            score[i] < best - margin
            or used + len(sentence) + 5 > max_chars
            or (max_sentences is not None and len(chosen) >= max_sentences)
        ):
            continue
        chosen.append(i)
        used += len(sentence) + 5
    return cite_chosen(candidates, sorted(chosen), max_chars)
