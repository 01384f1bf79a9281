"""The retrieval lab's service: what the admin page calls (one function per action, ``(deps, admin, …)``,
each refusing anyone but an admin)."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from uuid import UUID

from agents.i18n import t
from agents.retrieval.eval import evaluate, parse_lines
from agents.retrieval.search import Hit, RetrievalError, Scope, search
from agents.runtime.deps import AppDeps
from storage import documents as document_store
from storage import flagged as flagged_store
from storage import ingestions, scopes
from storage.users import User

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


def _admin(user: User) -> None:
    if not user.is_admin:
        raise PermissionError(t("common.admins_only", user.language))


def scope_options(deps: AppDeps, admin: User) -> tuple[dict[str, UUID], dict[str, UUID]]:
    """(courses by title, documents by title) an admin can scope a search to."""
    _admin(admin)
    with deps.pool.connection() as conn:
        options = scopes.scope_options(conn, admin.org_id)
    return (
        {o.title: o.id for o in options if o.kind == "course"},
        {o.title: o.id for o in options if o.kind == "document"},
    )


def highlight(text: str, query: str) -> str:
    """``text`` as Markdown with words sharing a 4-letter stem with the query's words in bold."""
    stems = {word.lower()[:4] for word in _WORD.findall(query)}
    escaped = re.sub(r"([*_`#\[\]])", r"\\\1", text)
    return _WORD.sub(lambda m: f"**{m.group(0)}**" if m.group(0).lower()[:4] in stems else m.group(0), escaped)


def run_query(
    deps: AppDeps,
    admin: User,
    query: str,
    *,
    strategy: str = "hybrid",
    k: int = 8,
    course_id: UUID | None = None,
    document_ids: list[UUID] | None = None,
) -> LabResult:
    _admin(admin)
    scope = Scope(document_ids=document_ids or None, course_id=course_id)
    started = time.perf_counter()
    try:
        hits: list[Hit] = search(
            admin.org_id, query, k=k, scope=scope, strategy=strategy, pool=deps.pool, embedder=deps
        )
    except RetrievalError as exc:
        return LabResult([], 0.0, str(exc))
    latency = (time.perf_counter() - started) * 1000
    return LabResult(
        [
            LabRow(
                rank, hit.score, hit.scores, hit.document_title, hit.heading, hit.page, highlight(hit.content, query)
            )
            for rank, hit in enumerate(hits, 1)
        ],
        round(latency, 1),
    )


def run_eval(deps: AppDeps, admin: User, data: bytes, *, k: int = 5, strategy: str = "hybrid") -> dict:
    """An uploaded JSONL eval file's report (recall@k, MRR, latency, pairs, misses) or {"error": ...}."""
    _admin(admin)
    try:
        items = parse_lines(data.decode("utf-8").splitlines())
        return evaluate(admin.org_id, items, k=k, strategy=strategy, pool=deps.pool, embedder=deps)
    except UnicodeDecodeError:
        return {"error": "the file is not UTF-8 text"}
    except RetrievalError as exc:
        return {"error": str(exc)}


def flagged_by_document(deps: AppDeps, admin: User) -> dict[str, list[flagged_store.FlaggedPassage]]:
    """Passages held back at ingestion as instruction-like, grouped by document title."""
    _admin(admin)
    with deps.pool.connection() as conn:
        passages = flagged_store.for_org(conn, admin.org_id)
    grouped: dict[str, list[flagged_store.FlaggedPassage]] = {}
    for passage in passages:
        grouped.setdefault(passage.document_title, []).append(passage)
    return grouped


def searchable_documents(deps: AppDeps, admin: User) -> list[dict]:
    """The organisation's documents a search can find, by title: language, pages, passages, last change.

    A first upload still being ingested is left out (it shows under the uploads in progress until done)."""
    _admin(admin)
    with deps.pool.connection() as conn:
        still_ingesting = ingestions.in_flight_for_documents(conn, admin.org_id)
        found = [d for d in document_store.list_documents(conn, admin.org_id) if d.id not in still_ingesting]
    return [
        {
            "title": d.title,
            "language": d.language,
            "pages": d.page_count,
            "passages": d.chunk_count,
            "updated_at": d.updated_at,
        }
        for d in found
    ]
