"""The retrieval lab's service: what the admin page calls (one function per action)."""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from uuid import UUID

from agents.retrieval.eval import evaluate, parse_lines
from agents.retrieval.search import Hit, RetrievalError, Scope, search
from storage import chunks as chunk_store
from storage import flagged as flagged_store
from storage.db import app_pool

_WORD = re.compile(r"\w{3,}", re.UNICODE)


@dataclass(frozen=True)
class LabRow:
    rank: int
    score: float
    scores: dict
    document: str
    section: str
    page: int | None
    snippet_md: str  # the chunk with the query's words in bold


@dataclass(frozen=True)
class LabResult:
    rows: list[LabRow]
    latency_ms: float
    error: str | None = None


def scope_options(org_id: UUID) -> tuple[dict[str, UUID], dict[str, UUID]]:
    """(courses by title, documents by title) an admin can scope a search to."""
    with app_pool().connection() as conn:
        options = chunk_store.scope_options(conn, org_id)
    return ({o.title: o.id for o in options if o.kind == "course"},
            {o.title: o.id for o in options if o.kind == "document"})


def highlight(text: str, query: str) -> str:
    """``text`` as Markdown with words sharing a 4-letter stem with the query's words in bold."""
    stems = {word.lower()[:4] for word in _WORD.findall(query)}
    escaped = re.sub(r"([*_`#\[\]])", r"\\\1", text)
    return _WORD.sub(lambda m: f"**{m.group(0)}**" if m.group(0).lower()[:4] in stems else m.group(0), escaped)


def run_query(org_id: UUID, query: str, *, strategy: str = "hybrid", k: int = 8, course_id: UUID | None = None,
              document_ids: list[UUID] | None = None) -> LabResult:
    scope = Scope(document_ids=document_ids or None, course_id=course_id)
    started = time.perf_counter()
    try:
        hits: list[Hit] = search(org_id, query, k=k, scope=scope, strategy=strategy)
    except RetrievalError as exc:
        return LabResult([], 0.0, str(exc))
    latency = (time.perf_counter() - started) * 1000
    return LabResult([LabRow(rank, hit.score, hit.scores, hit.document_title, hit.heading, hit.page,
                             highlight(hit.content, query)) for rank, hit in enumerate(hits, 1)], round(latency, 1))


def run_eval(org_id: UUID, data: bytes, *, k: int = 5, strategy: str = "hybrid") -> dict:
    """An uploaded JSONL eval file's report (recall@k, MRR, latency, pairs, misses) or {"error": ...}."""
    try:
        items = parse_lines(data.decode("utf-8").splitlines())
        return evaluate(org_id, items, k=k, strategy=strategy)
    except UnicodeDecodeError:
        return {"error": "the file is not UTF-8 text"}
    except RetrievalError as exc:
        return {"error": str(exc)}


def flagged_by_document(org_id: UUID) -> dict[str, list[flagged_store.FlaggedPassage]]:
    """Passages held back at ingestion as instruction-like, grouped by document title."""
    with app_pool().connection() as conn:
        passages = flagged_store.for_org(conn, org_id)
    grouped: dict[str, list[flagged_store.FlaggedPassage]] = {}
    for passage in passages:
        grouped.setdefault(passage.document_title, []).append(passage)
    return grouped
