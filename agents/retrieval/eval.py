"""Retrieval evaluation: recall@1, recall@k, MRR and latency over a labelled JSONL file.

Each line: {"question": "...", "expected": ["document title", ...]} (optionally "lang": "es"|"en" and
"kind": mono|cross|paraphrase|exact). A hit is a result whose document title is in ``expected``.
The breakdown by language pair (question language -> language of the expected document) is what
shows whether a fusion hurts cross-lingual questions.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.offline import detect_language
from agents.retrieval.search import RetrievalError, resolve_org, search
from storage import chunks as chunk_store


@dataclass(frozen=True)
class EvalItem:
    question: str
    expected: list[str]
    lang: str | None = None
    kind: str = ""


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
            raise RetrievalError(f"line {number} is not {{\"question\": str, \"expected\": [title, ...]}}") from None
        items.append(EvalItem(question, [str(title) for title in expected], data.get("lang"), data.get("kind", "")))
    if not items:
        raise RetrievalError("the eval file has no questions")
    return items


def load(path: str | Path) -> list[EvalItem]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RetrievalError(f"cannot read {path}: {exc.strerror or exc}") from None
    return parse_lines(text.splitlines())


def _summary(ranks: list[int | None], k: int) -> dict:
    n = len(ranks)
    return {"n": n,
            "recall_at_1": round(sum(r == 1 for r in ranks) / n, 4),
            "recall_at_k": round(sum(r is not None and r <= k for r in ranks) / n, 4),
            "mrr": round(sum(1 / r for r in ranks if r) / n, 4)}


def evaluate(org, items: list[EvalItem], *, k: int = 5, strategy: str = "hybrid", scope=None, pool=None,
             search_fn=None) -> dict:
    """The CONVENTIONS §3 report plus ``by_pair``, ``by_kind`` and ``misses``.

    ``search_fn(question, k)`` replaces the search (the benchmark scores other retrievers this way).
    """
    from storage.db import app_pool

    pool = pool or app_pool()
    with pool.connection() as conn:
        org_id = resolve_org(conn, org)
        languages = chunk_store.document_languages(conn, org_id)
    if search_fn is None:
        def search_fn(question: str, top: int) -> list[str]:
            return [hit.document_title for hit in
                    search(org_id, question, k=top, scope=scope, strategy=strategy, pool=pool)]
    ranks, latencies, misses = [], [], []
    groups: dict[str, dict[str, list]] = {"by_pair": {}, "by_kind": {}}
    for item in items:
        started = time.perf_counter()
        titles = search_fn(item.question, k)
        latencies.append((time.perf_counter() - started) * 1000)
        rank = next((i for i, title in enumerate(titles, 1) if title in item.expected), None)
        ranks.append(rank)
        if rank is None or rank > k:
            misses.append({"question": item.question, "expected": item.expected, "got": titles[:3]})
        pair = f"{item.lang or detect_language(item.question)}->{languages.get(item.expected[0], '?')}"
        groups["by_pair"].setdefault(pair, []).append(rank)
        if item.kind:
            groups["by_kind"].setdefault(item.kind, []).append(rank)
    report = _summary(ranks, k)
    report.update({"k": k, "strategy": strategy,
                   "p50_ms": round(float(np.percentile(latencies, 50)), 1),
                   "p95_ms": round(float(np.percentile(latencies, 95)), 1)})
    for name, group in groups.items():
        report[name] = {key: _summary(group_ranks, k) for key, group_ranks in sorted(group.items())}
    report["misses"] = misses
    return report
