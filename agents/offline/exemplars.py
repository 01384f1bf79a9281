"""Matching a message against labelled example sentences (intents, tools, names): word for word, else by embedding."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from agents.offline.sentences import WORD
from core.text import fold

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

EXEMPLAR_SETS_KEPT = 512  # fixed sets (intents, tools) plus the exercise prompts the guardrail compares with


@functools.lru_cache(maxsize=EXEMPLAR_SETS_KEPT)
def _exemplar_vectors(
    key: tuple[tuple[str, tuple[str, ...]], ...], embed: Callable[[str], np.ndarray]
) -> tuple[list[str], np.ndarray]:
    """The exemplars' vectors as ``embed`` makes them (kept per embedding function, not per AppDeps)."""
    labels = [label for label, examples in key for _ in examples]
    vectors = np.vstack([embed(example) for _, examples in key for example in examples])
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


def match_exemplars(text: str, exemplars: dict[str, list[str]], embedder: Embedder) -> tuple[str, float]:
    """The label whose exemplar sentences are most similar to ``text`` and that similarity (cosine), embedded
    by the caller's ``embedder`` (AppDeps, or a test's own).

    An exemplar contained word for word in the text scores 1.0 (a command typed as taught).
    """
    key = tuple((label, tuple(examples)) for label, examples in exemplars.items() if examples)
    if not key or not (text or "").strip():
        return "", 0.0
    folded = " ".join(fold(word) for word in WORD.findall(text))
    for label, phrase in _exemplar_phrases(key):
        if phrase.search(folded):
            return label, 1.0
    labels, vectors = _exemplar_vectors(key, embedder.embed_query)
    similarity = vectors @ embedder.embed_query(text)
    best = int(np.argmax(similarity))
    return labels[best], float(similarity[best])


def closest_labels(text: str, exemplars: dict[str, list[str]], embedder: Embedder, k: int = 3) -> list[str]:
    """The ``k`` labels whose exemplars are most similar to ``text``, best first (embeddings only:
    for "nothing matched by name, what comes closest")."""
    key = tuple((label, tuple(examples)) for label, examples in exemplars.items() if examples)
    if not key or not (text or "").strip():
        return []
    labels, vectors = _exemplar_vectors(key, embedder.embed_query)
    best: dict[str, float] = {}
    for label, score in zip(labels, (vectors @ embedder.embed_query(text)).tolist()):
        best[label] = max(score, best.get(label, -1.0))
    return sorted(best, key=best.__getitem__, reverse=True)[:k]
