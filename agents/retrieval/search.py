"""search(): hybrid (vector + full-text) retrieval over an organisation's document chunks."""

from __future__ import annotations

from typing import TYPE_CHECKING
from uuid import UUID

import numpy as np
from psycopg_pool import ConnectionPool

from agents.offline import detect_language
from agents.retrieval import fusion
from agents.retrieval.course_tree import course_tree_hits
from agents.retrieval.hits import Hit, Scope, packed_spans
from agents.retrieval.per_corpus import PerCorpus
from agents.retrieval.postprocess import deduplicate
from storage import chunks as chunk_store
from storage import corpus, course_outline, users

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

MAX_QUERY_CHARS = 2000
MAX_K = 100
# At most this many chunks of one document among the top k while other documents have candidates
# (fusion.py: it lets full language-centring keep a weak same-language answer in the top 5).
PER_DOCUMENT = 2
_TOKEN_EDGES = "¿?¡!.,;:()[]{}\"'«»“”"


class RetrievalError(ValueError):
    """Bad retrieval input (empty query, unknown organisation, k out of range); one line."""


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


def _is_exact_term(token: str) -> bool:
    """Codes (POL-SEC-004, F-ALM-07), formatted figures (0,26; 1.500; 15/03; 30-60-90) and acronyms
    (VPN, NPS): terms that mean the same in every language. Bare small numbers ("30") match too much."""
    has_digit = any(ch.isdigit() for ch in token)
    has_letter = any(ch.isalpha() for ch in token)
    if has_digit:
        return has_letter or any(sep in token for sep in "-/.,%")
    return len(token) >= 3 and token.isupper()


def exact_terms(query: str) -> str:
    """The query's exact terms, space-separated (an OR-query for the 'simple' configuration)."""
    tokens = (token.strip(_TOKEN_EDGES) for token in query.split())
    return " ".join(dict.fromkeys(token for token in tokens if token and _is_exact_term(token)))


def scope_document_ids(conn, org_id: UUID, scope: Scope | None) -> list[UUID] | None:
    """The document ids a scope allows (None: the whole organisation)."""
    if scope is None or (scope.document_ids is None and scope.course_id is None):
        return None
    allowed = None if scope.document_ids is None else {UUID(str(d)) for d in scope.document_ids}
    if scope.course_id is not None:
        course_docs = set(course_outline.course_document_ids(conn, org_id, UUID(str(scope.course_id))))
        allowed = course_docs if allowed is None else allowed & course_docs
    return None if allowed is None else sorted(allowed)


def search(
    org: UUID | str,
    query: str,
    k: int = 8,
    scope: Scope | None = None,
    strategy: str = "hybrid",
    *,
    pool: ConnectionPool,
    embedder: Embedder,
    query_vector: np.ndarray | None = None,
    llm=None,
) -> list[Hit]:
    """The k best chunks for ``query`` in the organisation (and scope), best first, read on the caller's
    ``pool`` and embedded by its ``embedder`` (its AppDeps, or its context's).

    ``query_vector`` skips embedding the query (benchmarks, callers that embedded it already);
    ``llm`` is only used by the course-tree strategy (module selection; offline twin without it).
    """
    query = validate(query, k, strategy)
    if strategy == "course-tree":  # module selection may call the model: no connection held meanwhile
        if scope is None or scope.course_id is None:
            raise RetrievalError("the course-tree strategy needs a course scope")
        with pool.connection() as conn:
            org_id = resolve_org(conn, org)
        return course_tree_hits(pool, org_id, UUID(str(scope.course_id)), query, k, embedder=embedder, llm=llm)
    with pool.connection() as conn:
        org_id = resolve_org(conn, org)
        candidates = _candidates(conn, embedder, org_id, query, k, scope, strategy, query_vector)
    return _ranked_hits(*candidates, k=k, strategy=strategy)


def search_each(
    org: UUID | str, queries: list[str], k: int = 8, *, pool: ConnectionPool, embedder: Embedder
) -> list[list[Hit]]:
    """``search(org, query, k)`` for each query (hybrid, the whole organisation), read in one transaction:
    the organisation, its language groups, the queries' lexemes and the scan settings are looked up once, in one
    statement (the tutor searches a question as asked and as the glossary says it in the other language, every turn)."""
    queries = [validate(query, k, "hybrid") for query in queries]
    with pool.connection() as conn:
        try:  # an id: whether the organisation exists is read with its corpus signature
            org_id = org if isinstance(org, UUID) else UUID(str(org))
        except ValueError:
            org_id = resolve_org(conn, org)
        signature, terms = chunk_store.search_start(conn, org_id, queries, _candidate_limit(k))
        groups = _corpus_groups(conn, org_id, signature)
        found = [
            _candidates(conn, embedder, org_id, query, k, None, "hybrid", None, groups, lexemes, scan_settings=False)
            for query, lexemes in zip(queries, terms)
        ]
    return [_ranked_hits(*candidates, k=k, strategy="hybrid") for candidates in found]


def _candidates(
    conn,
    embedder: Embedder,
    org_id: UUID,
    query: str,
    k: int,
    scope: Scope | None,
    strategy: str,
    query_vector: np.ndarray | None,
    groups: list[corpus.LanguageGroup] | None = None,
    lexemes: chunk_store.QueryTerms | None = None,
    *,
    scan_settings: bool = True,
) -> tuple[list[chunk_store.Candidate], str, np.ndarray | None, dict, dict[str, float]]:
    """The scored candidates for ``query`` and what ranks them: (candidates, language, vector, shifts, ceilings).
    ``scan_settings`` False: this transaction made them already (chunks.search_start)."""
    document_ids = scope_document_ids(conn, org_id, scope)
    language = query_language(query)
    if document_ids == []:
        return [], language, None, {}, {}
    limit = _candidate_limit(k)
    exact = exact_terms(query)
    shifts: dict = {}
    lexemes = chunk_store.query_terms(conn, org_id, query) if lexemes is None else lexemes
    if strategy == "fulltext":
        vector = None
        candidates = chunk_store.lexical_candidates(
            conn, org_id, query, exact, limit=limit, document_ids=document_ids, terms=lexemes
        )
    else:
        vector = embedder.embed_query(query) if query_vector is None else np.asarray(query_vector, dtype=np.float32)
        groups = _language_groups(conn, org_id) if groups is None else groups
        shifts = fusion.language_shifts(groups)
        exact_scan = (
            document_ids is not None
            and chunk_store.count_scope_chunks(conn, org_id, document_ids) <= chunk_store.EXACT_SCOPE_LIMIT
        )
        candidates = chunk_store.hybrid_candidates(
            conn,
            org_id,
            vector,
            query,
            exact,
            limit=limit,
            document_ids=document_ids,
            groups=_scoped_groups(groups) if strategy == "hybrid" else None,
            exact_scan=exact_scan,
            terms=lexemes,
            scan_settings=scan_settings,
        )
    return candidates, language, vector, shifts, lexemes.ceilings()


def _candidate_limit(k: int) -> int:
    return max(4 * k, 40)


def _ranked_hits(
    candidates: list[chunk_store.Candidate],
    language: str,
    vector: np.ndarray | None,
    shifts: dict,
    ceilings: dict[str, float],
    *,
    k: int,
    strategy: str,
) -> list[Hit]:
    ranked = fusion.rank(candidates, strategy, language, vector, shifts, ceilings)
    hits = (  # made as deduplicate reaches them: it stops once k are kept
        Hit(
            chunk_id=c.chunk_id,
            document_id=c.document_id,
            document_title=c.document_title,
            heading=c.heading,
            page=c.page,
            position=c.position,
            content=c.content,
            score=round(score, 4),
            scores=parts(),
            token_count=c.token_count,
            language=c.document_language,
            heading_spans=packed_spans(c.heading_spans),
        )
        for c, score, parts in ranked
    )
    return deduplicate(hits, limit=k, per_document=PER_DOCUMENT)


_groups: PerCorpus[list[corpus.LanguageGroup]] = PerCorpus()


def _language_groups(conn, org_id: UUID) -> list[corpus.LanguageGroup]:
    return _corpus_groups(conn, org_id, corpus.corpus_signature(conn, org_id))


def _corpus_groups(conn, org_id: UUID, signature: tuple | None) -> list[corpus.LanguageGroup]:
    """The organisation's language groups and centroids, recomputed only when its documents change (``signature``,
    corpus.corpus_signature: None when there is no such organisation)."""
    if signature is None:
        raise RetrievalError(f"unknown organisation: {org_id}")
    return _groups.get(org_id, signature, lambda: corpus.language_groups(conn, org_id))


def _scoped_groups(groups: list[corpus.LanguageGroup]) -> list[str] | None:
    """One candidate group per language (text-search configuration); None when there is one."""
    return [group.ts_config for group in groups] if len(groups) > 1 else None


def query_language(query: str) -> str:
    return detect_language(query)
