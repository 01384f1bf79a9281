"""Retrieval QA from a notebook: the product's search and the retrieval eval as pandas DataFrames.

    from agents.retrieval import notebook as qa
    qa.search("¿Cuántos días tengo para devolver un producto?", org="acme")   # one row per hit
    frame = qa.retrieval_eval("seeds/eval/retrieval.jsonl", org="acme")      # one row per question
    frame.groupby("pair")[["hit_at_1", "hit_at_k", "reciprocal_rank"]].mean()

Each function takes ``deps`` (the process's by default: ``DATABASE_URL``, else the embedded database
under ``SKILLNET_DATA_DIR``) and runs exactly what the CLI runs (``python -m agents.retrieval``).
agents/tutor/notebook.py adds asking the tutor and the answer eval.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from agents.retrieval.eval import EvalItem, evaluate, load
from agents.retrieval.hits import Scope
from agents.retrieval.search import search as product_search
from agents.runtime.deps import AppDeps, process_deps

SEARCH_COLUMNS = ["rank", "document", "section", "page", "score", "language", "text", "chunk_id"]
EVAL_COLUMNS = [
    "question",
    "lang",
    "kind",
    "split",
    "pair",
    "expected",
    "rank",
    "hit_at_1",
    "hit_at_k",
    "reciprocal_rank",
    "found",
    "latency_ms",
]


def _section(hit) -> str:
    """The heading path without the document's own title (the row names the document already)."""
    return " > ".join(part for part in hit.heading.split(" > ") if part.strip() != hit.document_title.strip())


def search(
    query: str,
    org: str = "acme",
    *,
    k: int = 5,
    strategy: str = "hybrid",
    scope: Scope | None = None,
    deps: AppDeps | None = None,
) -> pd.DataFrame:
    """The k best passages for ``query``, best first: rank, document, section, page, fused score,
    language, text and chunk id. RetrievalError (one line) for a bad query, k or organisation."""
    deps = deps or process_deps()
    hits = product_search(org, query, k=k, scope=scope, strategy=strategy, pool=deps.pool, embedder=deps)
    rows = [
        [rank, hit.document_title, _section(hit), hit.page, hit.score, hit.language, hit.content, str(hit.chunk_id)]
        for rank, hit in enumerate(hits, 1)
    ]
    return pd.DataFrame(rows, columns=SEARCH_COLUMNS)


def retrieval_eval(
    questions: str | Path | list[EvalItem],
    org: str = "acme",
    *,
    k: int = 5,
    strategy: str = "hybrid",
    split: str | None = None,
    limit: int | None = None,
    deps: AppDeps | None = None,
) -> pd.DataFrame:
    """An eval file (``{"question", "expected": [titles], "lang"?, "kind"?, "split"?}`` a line) run
    against the organisation: one row per question with the rank of the first expected document (NaN:
    not in the top k), hits at 1 and k, the titles found and the latency. ``limit`` keeps the first
    questions only. The whole run's report (recall, MRR, percentiles, by pair) is in ``frame.attrs``."""
    deps = deps or process_deps()
    items = load(questions, split) if isinstance(questions, str | Path) else list(questions)
    items = items[:limit] if limit else items
    report = evaluate(org, items, pool=deps.pool, embedder=deps, k=k, strategy=strategy, per_question=True)
    rows = []
    for item, result in zip(items, report.pop("items")):
        rank = result["rank"]
        rows.append(
            {
                "question": item.question,
                "lang": item.lang,
                "kind": item.kind,
                "split": item.split,
                "pair": result["pair"],
                "expected": item.expected,
                "rank": rank,
                "hit_at_1": rank == 1,
                "hit_at_k": rank is not None and rank <= k,
                "reciprocal_rank": 1 / rank if rank else 0.0,
                "found": result["found"],
                "latency_ms": result["latency_ms"],
            }
        )
    frame = pd.DataFrame(rows, columns=EVAL_COLUMNS)
    frame["rank"] = frame["rank"].astype("Int64")  # a miss stays <NA>, ranks stay integers
    frame.attrs["report"] = report
    return frame
