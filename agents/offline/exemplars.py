"""Matching a message against labelled example sentences (intents, tools, names): word for word, else by embedding."""

from __future__ import annotations

import functools
import re

import numpy as np

from agents.offline.sentences import WORD
from core.text import fold

EXEMPLAR_SETS_KEPT = 512  # fixed sets (intents, tools) plus the exercise prompts the guardrail compares with


@functools.lru_cache(maxsize=EXEMPLAR_SETS_KEPT)
def _exemplar_vectors(key: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[list[str], np.ndarray]:
    from agents.ingestion.embeddings import embed_query

    labels = [label for label, examples in key for _ in examples]
    vectors = np.vstack([embed_query(example) for _, examples in key for example in examples])
    return labels, vectors


@functools.lru_cache(maxsize=EXEMPLAR_SETS_KEPT)
def _exemplar_phrases(key: tuple[tuple[str, tuple[str, ...]], ...]) -> list[tuple[str, re.Pattern]]:
    """Each exemplar folded into a whole-word pattern, in order (built once: every tutor turn asks)."""
    phrases = [
        (label, " ".join(fold(word) for word in WORD.findall(example)))
        for label, examples in key
        for example in examples
    ]
    return [(label, re.compile(rf"\b{re.escape(phrase)}\b")) for label, phrase in phrases if phrase]


def match_exemplars(text: str, exemplars: dict[str, list[str]]) -> tuple[str, float]:
    """The label whose exemplar sentences are most similar to ``text`` and that similarity (cosine).

    An exemplar contained word for word in the text scores 1.0 (a command typed as taught).
    """
    key = tuple((label, tuple(examples)) for label, examples in exemplars.items() if examples)
    if not key or not (text or "").strip():
        return "", 0.0
    folded = " ".join(fold(word) for word in WORD.findall(text))
    for label, phrase in _exemplar_phrases(key):
        if phrase.search(folded):
            return label, 1.0
    from agents.ingestion.embeddings import embed_query

    labels, vectors = _exemplar_vectors(key)
    similarity = vectors @ embed_query(text)
    best = int(np.argmax(similarity))
    return labels[best], float(similarity[best])


def closest_labels(text: str, exemplars: dict[str, list[str]], k: int = 3) -> list[str]:
    """The ``k`` labels whose exemplars are most similar to ``text``, best first (embeddings only:
    for "nothing matched by name, what comes closest")."""
    key = tuple((label, tuple(examples)) for label, examples in exemplars.items() if examples)
    if not key or not (text or "").strip():
        return []
    from agents.ingestion.embeddings import embed_query

    labels, vectors = _exemplar_vectors(key)
    best: dict[str, float] = {}
    for label, score in zip(labels, (vectors @ embed_query(text)).tolist()):
        best[label] = max(score, best.get(label, -1.0))
    return sorted(best, key=best.__getitem__, reverse=True)[:k]
