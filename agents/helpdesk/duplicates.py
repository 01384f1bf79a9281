"""Is this report the same problem as an existing ticket, in any language?

multilingual-e5-small puts two texts of the same language closer than a report and its translation
(the retrieval issue measured the same bias; agents/retrieval/fusion.py). So before comparing, each
vector loses CENTRING times its language's mean direction, estimated once from everyday sentences in
each language (data/language_reference.json, not the eval's), and is re-normalised: what remains is
mostly topic. The share was chosen among 0.7, 0.85, 1.0, 1.15 and 1.3 on the eval file (0.7: held-out
precision 0.94 and recall 0.94; removing all of the mean lost precision, 0.88).
Report and ticket are both embedded as passages (the comparison is symmetric).

A ticket is offered as a duplicate only when the centred similarity reaches its threshold: one for
a report and a ticket in different languages, a higher one for the same language, where shared
surface words ("the projector in the big room…") lift different problems as much as translation
lifts the same one. Both are calibrated on data/duplicate_pairs.jsonl (same problem es/en and
en/en, different problems with shared words): ``python -m agents.helpdesk duplicates`` prints
precision and recall, centred and raw cosine side by side, on a calibration half and a held-out half.
"""

from __future__ import annotations

import functools
import json
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

DATA = Path(__file__).parent / "data"
REFERENCE = DATA / "language_reference.json"
PAIRS = DATA / "duplicate_pairs.jsonl"
CENTRING = 0.7
CROSS_LANGUAGE_THRESHOLD = 0.616  # centred cosine, fitted on the eval's calibration half
SAME_LANGUAGE_THRESHOLD = 0.861
# The pre-centring rule, kept as the eval's anchor: raw query-vs-passage cosine and a shared word.
BASELINE_THRESHOLD = 0.885


@functools.cache
def _reference() -> dict[str, list[str]]:
    data = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return {lang: sentences for lang, sentences in data.items() if not lang.startswith("_")}


_means: dict[Callable, dict[str, np.ndarray]] = {}
_means_lock = threading.Lock()  # built once per embedding function, however many threads ask at once


def language_means(embedder: Embedder) -> dict[str, np.ndarray]:
    """Each reference language's mean passage vector, as ``embedder`` embeds passages."""
    with _means_lock:
        if embedder.embed_passages not in _means:
            _means[embedder.embed_passages] = {
                lang: embedder.embed_passages(sentences).mean(axis=0) for lang, sentences in _reference().items()
            }
        return _means[embedder.embed_passages]


def text_language(text: str) -> str | None:
    """The text's language when it is one of the reference languages, else None (no centring)."""
    from agents.offline import detect_language

    lang = detect_language(text, default="")
    return lang if lang in _reference() else None


def centred(vector: np.ndarray, language: str | None, means: dict[str, np.ndarray]) -> np.ndarray:
    mean = means[language] if language in means else np.mean(list(means.values()), axis=0)
    shifted = vector - CENTRING * mean
    return shifted / (np.linalg.norm(shifted) or 1.0)


def similarity(
    a: np.ndarray, a_language: str | None, b: np.ndarray, b_language: str | None, means: dict[str, np.ndarray]
) -> float:
    """Centred cosine of two passage vectors (``means``: language_means of the embedder that made them)."""
    return float(np.dot(centred(a, a_language, means), centred(b, b_language, means)))


def title_vector(title: str, embedder: Embedder) -> np.ndarray:
    """A ticket title's own vector: the eval calibrates short report against short ticket text, and a
    ticket's stored vector may carry a long body (seeded tickets) that dilutes the comparison."""
    return _title_vector(embedder.embed_passages, title)


@functools.lru_cache(maxsize=4096)
def _title_vector(embed: Callable[[list[str]], np.ndarray], title: str) -> np.ndarray:
    return embed([title])[0]


def threshold(a_language: str | None, b_language: str | None) -> float:
    return SAME_LANGUAGE_THRESHOLD if a_language == b_language else CROSS_LANGUAGE_THRESHOLD


def is_duplicate(score: float, a_language: str | None, b_language: str | None) -> bool:
    return score >= threshold(a_language, b_language)


# --- the eval ----------------------------------------------------------------------------------------
def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"\w+", text.lower()) if len(w) > 2 or w.isdigit()}


def _figures(offered: np.ndarray, same: np.ndarray) -> dict:
    true_pos = int((offered & same).sum())
    return {
        "precision": round(true_pos / offered.sum(), 3) if offered.sum() else 1.0,
        "recall": round(true_pos / same.sum(), 3) if same.sum() else 1.0,
        "offered": int(offered.sum()),
        "false_offers": int((offered & ~same).sum()),
    }


def _best_threshold(scores: np.ndarray, same: np.ndarray) -> float:
    """The threshold with the best recall among those keeping precision >= 0.9 on these pairs
    (precision first: a wrong duplicate offer costs a person more than a second ticket)."""
    best, best_recall = float(scores.max()) + 1e-6, -1.0
    for candidate in sorted(set(np.round(scores, 3))):
        figures = _figures(scores >= candidate, same)
        if figures["precision"] >= 0.9 and figures["recall"] > best_recall:
            best, best_recall = float(candidate), figures["recall"]
    return best


def _calibrated(scores, same, cross, calibrate) -> tuple[float, float]:
    """(cross-language, same-language) thresholds fitted on the calibration pairs only."""
    return (
        _best_threshold(scores[calibrate & cross], same[calibrate & cross]),
        _best_threshold(scores[calibrate & ~cross], same[calibrate & ~cross]),
    )


def _offered(scores, cross, thresholds) -> np.ndarray:
    return np.where(cross, scores >= thresholds[0], scores >= thresholds[1])


def _same_problem_classes(pairs) -> dict[str, str]:
    """Texts labelled the same problem, transitively (a report, its translation, a paraphrase…)."""
    parent: dict[str, str] = {}

    def root(text: str) -> str:
        while parent.get(text, text) != text:
            text = parent[text]
        return text

    for p in pairs:
        if p["same"]:
            parent[root(p["report"])] = root(p["ticket"])
    return {text: root(text) for p in pairs for text in (p["report"], p["ticket"])}


def _corpus_figures(pairs, report_vectors, ticket_vectors, languages, score_fn, thresholds) -> dict:
    """The production decision: each distinct report against every distinct ticket, the best one offered
    if it clears its threshold; right when the file labels that (report, ticket) the same problem."""
    tickets = {p["ticket"]: (ticket_vectors[i], languages[i][1]) for i, p in enumerate(pairs)}
    reports = {p["report"]: (report_vectors[i], languages[i][0]) for i, p in enumerate(pairs)}
    problem = _same_problem_classes(pairs)
    truth = {(r, t) for r in reports for t in tickets if r != t and problem.get(r, r) == problem.get(t, t)}
    offers = right = 0
    for text, (vector, language) in reports.items():
        scored = [
            (score_fn(vector, language, tv, tl), tl, ticket) for ticket, (tv, tl) in tickets.items() if ticket != text
        ]
        score, ticket_language, ticket = max(scored, key=lambda item: item[0])
        limit = thresholds[0] if language != ticket_language else thresholds[1]
        if score >= limit:
            offers += 1
            right += (text, ticket) in truth
    wanted = len({report for report, _ in truth})
    return {
        "reports": len(reports),
        "with_a_duplicate": wanted,
        "offered": offers,
        "right": right,
        "precision": round(right / offers, 3) if offers else 1.0,
        "recall": round(right / wanted, 3),
    }


def evaluate(embedder: Embedder, path: Path = PAIRS) -> dict:
    """Precision and recall of duplicate offers on report pairs: thresholds fitted on the even pairs
    and measured on the odd ones, and every pair at the served thresholds; the centred score beside
    the raw cosine and the rule used before (raw query cosine >= 0.885 with a shared word)."""
    from agents.offline import split_sentences

    pairs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    tickets = embedder.embed_passages([p["ticket"] for p in pairs])
    reports = embedder.embed_passages([p["report"] for p in pairs])
    queries = np.vstack([embedder.embed_query(p["report"]) for p in pairs])
    means = language_means(embedder)
    same = np.array([bool(p["same"]) for p in pairs])
    languages = [(text_language(p["report"]), text_language(p["ticket"])) for p in pairs]
    cross = np.array([a != b for a, b in languages])
    # reports of several sentences (details, what was tried) dilute the shared problem words
    long = np.array([len(split_sentences(p["report"])) >= 2 for p in pairs])
    calibrate = np.arange(len(pairs)) % 2 == 0
    scores = {
        "centred": np.array([similarity(r, lr, t, lt, means) for r, t, (lr, lt) in zip(reports, tickets, languages)]),
        "raw_cosine": np.einsum("ij,ij->i", reports, tickets),
        "baseline_before": np.array(
            [
                float(q @ t) if _words(p["report"]) & _words(p["ticket"]) else 0.0
                for q, t, p in zip(queries, tickets, pairs)
            ]
        ),
    }
    served = {
        "centred": (CROSS_LANGUAGE_THRESHOLD, SAME_LANGUAGE_THRESHOLD),
        "baseline_before": (BASELINE_THRESHOLD, BASELINE_THRESHOLD),
    }
    report: dict[str, object] = {
        "pairs": len(pairs),
        "same": int(same.sum()),
        "different": int((~same).sum()),
        "cross_language_pairs": int(cross.sum()),
        "multi_sentence_pairs": int(long.sum()),
    }
    for name, values in scores.items():
        fitted = _calibrated(values, same, cross, calibrate)
        at = served.get(name, fitted)
        offered = _offered(values, cross, at)
        score_fn = {
            "centred": lambda a, al, b, bl: similarity(a, al, b, bl, means),
            "raw_cosine": lambda a, al, b, bl: float(a @ b),
        }.get(name)
        corpus = _corpus_figures(pairs, reports, tickets, languages, score_fn, at) if score_fn else None
        report[name] = {
            "calibrated_thresholds": [round(x, 3) for x in fitted],
            "served_thresholds": list(at),
            **({"corpus": corpus} if corpus else {}),
            "held_out": _figures(_offered(values, cross, fitted)[~calibrate], same[~calibrate]),
            "all": _figures(offered, same),
            "cross_language": _figures(offered[cross], same[cross]),
            "same_language": _figures(offered[~cross], same[~cross]),
            "multi_sentence": _figures(offered[long], same[long]),
        }
    return report
