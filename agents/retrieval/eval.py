"""Retrieval evaluation: recall@1, recall@k, MRR and latency over a labelled JSONL file.

Each line: {"question": "...", "expected": ["document title", ...]} (optionally "lang": "es"|"en"|"vi",
"kind": mono|cross|paraphrase|exact|..., and "split": tune|heldout). A hit is a result whose document
title is in ``expected``. The breakdown by language pair (question language -> language of the
expected document) is what shows whether a fusion hurts cross-lingual questions.

With ``anchors`` the same run also ranks every question with the exact in-memory anchors
(agents/retrieval/anchors.py: dense cosine, BM25, RRF) over the same chunks and query vector.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from agents.offline import detect_language
from agents.retrieval.anchors import ANCHORS, Anchors
from agents.retrieval.search import RetrievalError, resolve_org, search
from storage import corpus, scopes

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

SPLITS = ("tune", "heldout")


@dataclass(frozen=True)
class EvalItem:
    question: str
    expected: list[str]
    lang: str | None = None
    kind: str = ""
    split: str = ""


def parse_lines(lines) -> list[EvalItem]:
    """Eval items from JSONL text lines; RetrievalError (one line) names the first bad line."""
    items = []
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        try:
            data = json.loads(line)
            question, expected = data["question"], data["expected"]
            if not isinstance(question, str) or not isinstance(expected, list) or not expected:
                raise ValueError
        except (ValueError, KeyError, TypeError):
            raise RetrievalError(
                f"line {number} is not a question with its expected titles: "
                '{"question": "...", "expected": ["title", ...]}'
            ) from None
        items.append(
            EvalItem(
                question,
                [str(title) for title in expected],
                data.get("lang"),
                data.get("kind", ""),
                data.get("split", ""),
            )
        )
    if not items:
        raise RetrievalError("the eval file has no questions")
    return items


def load(path: str | Path, split: str | None = None) -> list[EvalItem]:
    """The file's questions (only ``split``'s half when given)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RetrievalError(f"cannot read {path}: {exc.strerror or exc}") from None
    items = parse_lines(text.splitlines())
    if split is None:
        return items
    if split not in SPLITS:
        raise RetrievalError(f"unknown split {split!r}; use {' or '.join(SPLITS)}")
    chosen = [item for item in items if item.split == split]
    if not chosen:
        raise RetrievalError(f"the eval file has no {split} questions")
    return chosen


def _summary(ranks: list[int | None], k: int) -> dict:
    n = len(ranks)
    return {
        "n": n,
        "recall_at_1": round(sum(r == 1 for r in ranks) / n, 4),
        "recall_at_k": round(sum(r is not None and r <= k for r in ranks) / n, 4),
        "mrr": round(sum(1 / r for r in ranks if r) / n, 4),
    }


def _rank(titles: list[str], expected: list[str]) -> int | None:
    return next((i for i, title in enumerate(titles, 1) if title in expected), None)


def evaluate(
    org,
    items: list[EvalItem],
    *,
    pool,
    embedder: Embedder,
    k: int = 5,
    strategy: str = "hybrid",
    scope=None,
    search_fn=None,
    anchors: bool = False,
    per_question: bool = False,
) -> dict:
    """The CONVENTIONS §3 report plus ``by_pair``, ``by_kind`` and ``misses``; with ``anchors``, also
    ``anchors`` = {dense|bm25|rrf: the same report keys} from the same run (whole organisation); with
    ``per_question``, ``items``: each question's rank of the first hit (None: not in the top k), pair,
    titles found and latency.

    ``search_fn(question, k)`` replaces the search (the benchmark scores other retrievers this way).
    """
    with pool.connection() as conn:
        org_id = resolve_org(conn, org)
        languages = scopes.document_languages(conn, org_id)
        exact = Anchors(corpus.org_chunks(conn, org_id)) if anchors else None
    if search_fn is None:

        def search_fn(question: str, top: int, vector: np.ndarray | None = None) -> list[str]:
            return [
                hit.document_title
                for hit in search(
                    org_id,
                    question,
                    k=top,
                    scope=scope,
                    strategy=strategy,
                    pool=pool,
                    embedder=embedder,
                    query_vector=vector,
                )
            ]

    runs: dict[str, list[int | None]] = {name: [] for name in [strategy, *(ANCHORS if exact else ())]}
    latencies, misses, pairs, found = [], [], [], []
    for item in items:
        vector = embedder.embed_query(item.question) if exact else None
        started = time.perf_counter()
        titles = search_fn(item.question, k, vector) if exact else search_fn(item.question, k)
        latencies.append((time.perf_counter() - started) * 1000)
        rank = _rank(titles, item.expected)
        runs[strategy].append(rank)
        found.append(titles)
        if rank is None or rank > k:
            misses.append({"question": item.question, "expected": item.expected, "got": titles[:3]})
        if exact is not None and vector is not None:
            for anchor in ANCHORS:
                runs[anchor].append(_rank(exact.ranked_titles(anchor, item.question, vector, k), item.expected))
        pairs.append(f"{item.lang or detect_language(item.question)}->{languages.get(item.expected[0], '?')}")
    reports = {name: _breakdown(items, pairs, ranks, k) for name, ranks in runs.items()}
    report = reports.pop(strategy)
    report.update(
        {
            "k": k,
            "strategy": strategy,
            "p50_ms": round(float(np.percentile(latencies, 50)), 1),
            "p95_ms": round(float(np.percentile(latencies, 95)), 1),
            "misses": misses,
        }
    )
    if exact:
        report["anchors"] = reports
    if per_question:
        report["items"] = [
            {"question": item.question, "pair": pair, "rank": rank, "found": titles, "latency_ms": round(ms, 1)}
            for item, pair, rank, titles, ms in zip(items, pairs, runs[strategy], found, latencies)
        ]
    return report


def _breakdown(items: list[EvalItem], pairs: list[str], ranks: list[int | None], k: int) -> dict:
    groups: dict[str, dict[str, list]] = {"by_pair": {}, "by_kind": {}}
    for item, pair, rank in zip(items, pairs, ranks):
        groups["by_pair"].setdefault(pair, []).append(rank)
        if item.kind:
            groups["by_kind"].setdefault(item.kind, []).append(rank)
    report = _summary(ranks, k)
    for name, group in groups.items():
        report[name] = {key: _summary(group_ranks, k) for key, group_ranks in sorted(group.items())}
    return report
