"""search(): hybrid (vector + full-text) retrieval over an organisation's document chunks."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from uuid import UUID

import numpy as np
from psycopg_pool import ConnectionPool

from agents.offline import detect_language
from agents.retrieval import fusion
from agents.retrieval.postprocess import deduplicate
from storage import chunks as chunk_store
from storage import users
from storage.embeddings import embed_query

MAX_QUERY_CHARS = 2000
MAX_K = 100
# Codes (POL-SEG-003), amounts (1.500 €, 25%), dates and acronyms (VPN, RGPD) match exactly in any language.
_EXACT_TERM = re.compile(r"\b(?:[\w.,/-]*\d[\w.,/-]*|[A-Z][A-Z0-9]{1,}(?:-[A-Z0-9]+)*)\b")


class RetrievalError(ValueError):
    """Bad retrieval input (empty query, unknown organisation, k out of range); one line."""


@dataclass(frozen=True)
class Scope:
    """Where to search inside the organisation: some documents, a course's sources, or (None) all."""
    document_ids: list[UUID] | None = None
    course_id: UUID | None = None


@dataclass(frozen=True)
class Hit:
    chunk_id: UUID
    document_id: UUID
    document_title: str
    heading: str
    page: int | None
    position: int
    content: str
    score: float
    scores: dict = field(default_factory=dict)
    token_count: int = 0
    language: str = ""


def resolve_org(conn, org: UUID | str) -> UUID:
    """An organisation id from its UUID or slug; RetrievalError when there is none."""
    try:
        org_id = org if isinstance(org, UUID) else UUID(str(org))
        found = users.get_org(conn, org_id)
    except ValueError:
        found = users.get_org_by_slug(conn, str(org).strip().lower())
    if found is None:
        raise RetrievalError(f"unknown organisation: {org}")
    return found.id


def validate(query: str, k: int, strategy: str) -> str:
    query = (query or "").strip()
    if not query:
        raise RetrievalError("the query is empty")
    if len(query) > MAX_QUERY_CHARS:
        raise RetrievalError(f"the query is {len(query)} characters long; the limit is {MAX_QUERY_CHARS}")
    if not isinstance(k, int) or not 1 <= k <= MAX_K:
        raise RetrievalError(f"k must be between 1 and {MAX_K}, not {k}")
    if strategy not in fusion.STRATEGIES + ("rrf",):
        raise RetrievalError(f"unknown strategy {strategy!r}; use one of {', '.join(fusion.STRATEGIES)}")
    return query


def exact_terms(query: str) -> str:
    """The query's codes, numbers and acronyms, space-separated (an OR-query for 'simple')."""
    return " ".join(dict.fromkeys(term.strip(".,") for term in _EXACT_TERM.findall(query) if term.strip(".,")))


def scope_document_ids(conn, org_id: UUID, scope: Scope | None) -> list[UUID] | None:
    """The document ids a scope allows (None: the whole organisation)."""
    if scope is None or (scope.document_ids is None and scope.course_id is None):
        return None
    allowed = None if scope.document_ids is None else {UUID(str(d)) for d in scope.document_ids}
    if scope.course_id is not None:
        course_docs = set(chunk_store.course_document_ids(conn, org_id, UUID(str(scope.course_id))))
        allowed = course_docs if allowed is None else allowed & course_docs
    return sorted(allowed)


def search(org: UUID | str, query: str, k: int = 8, scope: Scope | None = None, strategy: str = "hybrid", *,
           pool: ConnectionPool | None = None, query_vector: np.ndarray | None = None,
           llm=None) -> list[Hit]:
    """The k best chunks for ``query`` in the organisation (and scope), best first.

    ``query_vector`` skips embedding the query (benchmarks, callers that embedded it already);
    ``llm`` is only used by the course-tree strategy (module selection; offline twin without it).
    """
    from storage.db import app_pool

    query = validate(query, k, strategy)
    pool = pool or app_pool()
    with pool.connection() as conn:
        org_id = resolve_org(conn, org)
        if strategy == "course-tree":
            from agents.retrieval.course_tree import course_tree_hits

            if scope is None or scope.course_id is None:
                raise RetrievalError("the course-tree strategy needs a course scope")
            return course_tree_hits(conn, org_id, UUID(str(scope.course_id)), query, k, llm=llm)
        document_ids = scope_document_ids(conn, org_id, scope)
        if document_ids == []:
            return []
        limit = max(4 * k, 40)
        terms = exact_terms(query)
        if strategy == "fulltext":
            candidates = chunk_store.lexical_candidates(conn, org_id, query, terms, limit=limit,
                                                        document_ids=document_ids)
        else:
            vector = embed_query(query) if query_vector is None else query_vector
            exact_scan = document_ids is not None and \
                chunk_store.count_scope_chunks(conn, org_id, document_ids) <= chunk_store.EXACT_SCOPE_LIMIT
            candidates = chunk_store.hybrid_candidates(conn, org_id, vector, query, terms, limit=limit,
                                                       document_ids=document_ids, exact_scan=exact_scan)
    ranked = fusion.rank(candidates, strategy, query_language(query))
    hits = [Hit(chunk_id=c.chunk_id, document_id=c.document_id, document_title=c.document_title,
                heading=c.heading, page=c.page, position=c.position, content=c.content,
                score=round(score, 4), scores=parts, token_count=c.token_count, language=c.document_language)
            for c, score, parts in ranked]
    return deduplicate(hits)[:k]


def query_language(query: str) -> str:
    return detect_language(query)
