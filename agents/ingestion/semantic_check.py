"""A second opinion for the instruction filter at ingestion: does this sentence speak to whoever processes
the text? A logistic regression on the bundled e5 sentence embeddings (scikit-learn), trained on the
filter's training split (core/instruction_data/train.jsonl): every attack sentence, the clean sentences
the n-gram model finds least clean, and a fixed sample of the rest.

It reads meaning where the rules and the n-gram model read words, so it reaches some phrasings neither
lists; it costs an embedding per sentence, so it is asked only at ingestion (once per document) and only
about the sentences the n-gram model gives some weight (core/instructions.SECOND_OPINION_FROM), and only
when the embeddings are the ones it was trained on (another model's vectors mean nothing to its weights).
Retrain after editing the corpus: ``python -m agents.ingestion.semantic_check``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import random
from pathlib import Path

import numpy as np

from agents.ingestion.embeddings import VectorPack, embed_passages, model_version
from core.instruction_corpus import DATA
from core.instructions import SecondOpinion

WEIGHTS = Path(__file__).with_name("semantic_check.json")
# Chosen on clean text only: above the highest verdict any sentence of the demo documents, public handbooks,
# tickets or held-out clean text gets (0.899, an onboarding guide's "HR portal: payslips, personal details…").
THRESHOLD = 0.92
HARD_CLEAN_FROM = 0.03  # clean sentences the n-gram model gives this much are the ones worth learning from
CLEAN_SAMPLE = 2500


def _train_digest() -> str:
    return hashlib.sha256((DATA / "train.jsonl").read_bytes()).hexdigest()[:16]


@functools.cache
def _weights() -> tuple[np.ndarray, float] | None:
    try:
        saved = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if saved.get("model") != model_version():
        return None
    return np.asarray(saved["coef"], dtype=np.float32), float(saved["intercept"])


def second_opinion(known: VectorPack | None = None) -> SecondOpinion | None:
    """The semantic check, embedding with ``known`` vectors first; None when its weights do not fit the
    configured embeddings (a remote model) or are missing."""
    weights = _weights()
    if weights is None:
        return None
    coef, intercept = weights
    at = math.log(THRESHOLD / (1 - THRESHOLD))  # the threshold as a score, before the logistic

    def judge(texts: list[str]) -> list[bool]:
        return [bool(score >= at) for score in embed_passages(texts, known=known) @ coef + intercept]

    return judge


def training_texts() -> tuple[list[str], list[int]]:
    from core.instruction_model import attack_probabilities, training_sentences

    texts, labels = training_sentences()
    attacks = [text for text, label in zip(texts, labels, strict=True) if label]
    clean = [text for text, label in zip(texts, labels, strict=True) if not label]
    scores = attack_probabilities(clean)
    hard = [text for text, score in zip(clean, scores, strict=True) if score >= HARD_CLEAN_FROM]
    rest = [text for text, score in zip(clean, scores, strict=True) if score < HARD_CLEAN_FROM]
    sample = random.Random(9).sample(rest, min(CLEAN_SAMPLE, len(rest)))
    return attacks + hard + sample, [1] * len(attacks) + [0] * (len(hard) + len(sample))


def train() -> int:
    """Fit the check on the training split and write its weights; returns how many sentences it learnt from."""
    from sklearn.linear_model import LogisticRegression

    texts, labels = training_texts()
    vectors = embed_passages(texts)
    # C=16 reached a few more attacks but put that onboarding line at 0.97: a weaker fit keeps clean text lower
    fitted = LogisticRegression(C=4.0, class_weight="balanced", max_iter=5000).fit(vectors, labels)
    saved = {
        "model": model_version(),
        "train": _train_digest(),
        "intercept": float(fitted.intercept_[0]),
        "coef": [round(float(c), 6) for c in fitted.coef_[0]],
    }
    WEIGHTS.write_text(json.dumps(saved) + "\n", encoding="utf-8")
    _weights.cache_clear()
    return len(texts)


if __name__ == "__main__":
    print(f"{WEIGHTS.name}: trained on {train()} sentences")
