"""Chunk reads for retrieval: scored candidates (vector, BM25 and exact-term features) and a chunk's
neighbours (the corpus as a whole, its language groups and the eval's chunks: storage/corpus.py).

Every query filters by org_id. Scores are returned as raw features (vector similarity, lexical
rank, exact-term rank); how they are fused is retrieval's business (agents/retrieval/fusion.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple
from uuid import UUID

import numpy as np
import psycopg

from storage.corpus import SIGNATURE
from storage.rows import scalar

# Below this many chunks in a scope the vector search is exact (a sequential scan over the scope).
EXACT_SCOPE_LIMIT = 5000
_CONFIG_NAME = re.compile(r"[a-z_]+")
LEXICAL_SAMPLE = 400  # strong lexical matches ranked per query at most


class Candidate(NamedTuple):  # a tuple: ~150 rows a turn, each made ~5x faster than as a frozen dataclass
    chunk_id: UUID
    document_id: UUID
    document_title: str
    document_language: str
    heading: str
    page: int | None
    position: int
    content: str
    token_count: int
    vector_score: float | None
    section_score: float | None  # the best of its sections' similarities, for a chunk packing several
    lexical_score: float  # BM25 of the question's words in the chunk's own text-search configuration
    exact_score: float
    strong_match: bool  # every query word matched, in the chunk's own language
    ts_config: str
    spans_json: str | None  # [[offset, heading path, page], ...]: where each section a chunk packs starts

    @property
    def heading_spans(self) -> list | None:  # parsed when read: for the ~10 of a search's ~80 candidates it keeps
        return None if self.spans_json is None else json.loads(self.spans_json)


BM25_K1 = 1.2
BM25_B = 0.75
RARE_TERMS = 8  # the rarest question lexemes (per configuration) that find lexical candidates


@dataclass(frozen=True)
class QueryTerms:
    """The question's lexemes in each text-search configuration of the organisation, with BM25's
    inverse document frequency and average chunk length (lexeme_stats, kept by migration 090)."""

    configs: list[str]
    lexemes: list[str]
    idf: list[float]
    average_length: list[float]
    chunks: list[int]  # chunks holding the lexeme: 0 for a word the configuration has never seen

    def ceilings(self) -> dict[str, float]:
        """Per configuration, the BM25 a chunk would reach holding every question lexeme many times:
        dividing by it turns BM25 into the share of the question's evidence a chunk holds (0..1)."""
        totals: dict[str, float] = {}
        for config, idf in zip(self.configs, self.idf):
            totals[config] = totals.get(config, 0.0) + idf * (BM25_K1 + 1)
        return totals

    def rare_query(self, config: str) -> str | None:
        """An OR-tsquery of the configuration's rarest lexemes that occur in it (None: none do)."""
        ranked = sorted(
            (-idf, lexeme)
            for c, lexeme, idf, df in zip(self.configs, self.lexemes, self.idf, self.chunks)
            if c == config and df > 0
        )
        return _any_of(lexeme for _, lexeme in ranked[:RARE_TERMS])

    def any_query(self) -> str | None:
        """An OR-tsquery of every question lexeme, in any configuration (None: there is none). A chunk
        it doesn't match holds none of them, so its BM25 is 0 without reading its lexemes."""
        return _any_of(dict.fromkeys(self.lexemes))


def _any_of(lexemes: Iterable[str]) -> str | None:
    quoted = ["'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'" for lexeme in lexemes]
    return " | ".join(quoted) or None


def query_terms(conn: psycopg.Connection, org_id: UUID, text: str) -> QueryTerms:
    return query_terms_each(conn, org_id, [text])[0]


# Each text's lexemes in each of the organisation's configurations. A word absent from a configuration stays in (df 0,
# the highest idf): a chunk there lacks it, so it counts against its share of the question's evidence (ceilings).
_QUERY_TERMS = """SELECT q.n, k.ts_config::text AS config, u.lexeme,
                  ln(1 + (k.chunks - coalesce(s.chunks, 0) + 0.5) / (coalesce(s.chunks, 0) + 0.5)) AS idf,
                  greatest(k.lexemes::float8 / greatest(k.chunks, 1), 1) AS avgdl, coalesce(s.chunks, 0) AS df
           FROM unnest(%(texts)s::text[]) WITH ORDINALITY AS q(text, n) CROSS JOIN lexeme_corpus k
           CROSS JOIN LATERAL unnest(to_tsvector(k.ts_config, q.text)) u
           LEFT JOIN lexeme_stats s ON s.org_id = k.org_id AND s.ts_config = k.ts_config AND s.lexeme = u.lexeme
           WHERE k.org_id = %(org_id)s AND k.chunks > 0"""


def query_terms_each(conn: psycopg.Connection, org_id: UUID, texts: list[str]) -> list[QueryTerms]:
    """Each text's QueryTerms, read in one statement."""
    rows = conn.execute(_QUERY_TERMS + " ORDER BY 1, 2, 3", {"org_id": org_id, "texts": texts}).fetchall()
    return _terms_of(rows, len(texts))


def _terms_of(rows: Sequence[Sequence], count: int) -> list[QueryTerms]:
    """QueryTerms of texts 1..count from rows (n, config, lexeme, idf, avgdl, df) in that order."""
    found: list[QueryTerms] = []
    for number in range(1, count + 1):
        mine = [row for row in rows if row[0] == number]
        found.append(
            QueryTerms(
                [r[1] for r in mine],
                [r[2] for r in mine],
                [float(r[3]) for r in mine],
                [float(r[4]) for r in mine],
                [int(r[5]) for r in mine],
            )
        )
    return found


# One generic plan per connection for the prepared hybrid statements (their text-search queries are computed once per
# execution, _QUERIES): parsing, analysing and planning one was over half its backend CPU (2.0 of 3.7 ms on the demo).
_SCAN_SETTINGS = (
    "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', %(ef)s, true),"
    " set_config('plan_cache_mode', 'force_generic_plan', true)"
)


def _ef_search(limit: int) -> str:
    return str(max(40, min(1000, 4 * limit)))


def search_start(
    conn: psycopg.Connection, org_id: UUID, texts: list[str], limit: int
) -> tuple[tuple | None, list[QueryTerms]]:
    """What a search of ``texts`` reads before its candidates, in one statement: the organisation's corpus
    signature (None: there is no such organisation; corpus.corpus_signature) and each text's QueryTerms. It also
    makes iterative_scan's settings for ``limit`` (for this transaction): three statements of every tutor turn."""
    rows = conn.execute(
        f"""WITH scan AS ({_SCAN_SETTINGS}), signature AS ({SIGNATURE}), terms AS ({_QUERY_TERMS})
            SELECT t.n, t.config, t.lexeme, t.idf, t.avgdl, t.df, g.* FROM scan, signature g
            LEFT JOIN terms t ON true ORDER BY 1, 2, 3""",
        {"org_id": org_id, "texts": texts, "ef": _ef_search(limit)},
    ).fetchall()
    if not rows:
        return None, [QueryTerms([], [], [], [], []) for _ in texts]
    return tuple(rows[0][6:]), _terms_of([row for row in rows if row[0] is not None], len(texts))


# The question's text-search queries, computed once per execution (InitPlans: the GIN index applies to them as to
# constants): its exact terms (codes, amounts, dates) as a 'simple' OR-query, and all its words in each language.
_QUERIES = (
    "queries AS MATERIALIZED (SELECT replace(websearch_to_tsquery('simple', %(exact)s)::text, ' & ', ' | ')::tsquery"
    " AS exact, websearch_to_tsquery('spanish', %(text)s) AS spanish, websearch_to_tsquery('english', %(text)s)"
    " AS english, websearch_to_tsquery('vietnamese', %(text)s) AS vietnamese)"
)
_EXACT = "(SELECT exact FROM queries)"
_TERMS = (
    "terms AS (SELECT * FROM unnest(%(t_config)s::text[], %(t_lexeme)s::text[], %(t_idf)s::float8[],"
    " %(t_avgdl)s::float8[]) AS t(config, lexeme, idf, avgdl))"
)
# Okapi BM25 from the chunk's tsvector: term frequency = the lexeme's positions, document length =
# its distinct lexemes (length(tsv)), idf and average length from the question's terms.
_BM25 = f"""(SELECT coalesce(sum(t.idf * u.tf * {BM25_K1 + 1}
                              / (u.tf + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * length(c.tsv) / t.avgdl))), 0)
             FROM (SELECT lexeme, coalesce(array_length(positions, 1), 1)::float8 AS tf FROM unnest(c.tsv)) u
             JOIN terms t ON t.config = c.ts_config::text AND t.lexeme = u.lexeme)"""
_ALL_WORDS = (
    "((c.ts_config = 'spanish'::regconfig AND c.tsv @@ (SELECT spanish FROM queries))"
    " OR (c.ts_config = 'english'::regconfig AND c.tsv @@ (SELECT english FROM queries))"
    " OR (c.ts_config = 'vietnamese'::regconfig AND c.tsv @@ (SELECT vietnamese FROM queries)))"
)
_SECTION = "(SELECT max(1 - (s.v <=> %(qvec)s)) FROM unnest(c.section_embeddings) AS s(v))"
_SCOPE_FILTER = "c.org_id = %(org_id)s AND (%(doc_ids)s::uuid[] IS NULL OR c.document_id = ANY(%(doc_ids)s))"
_SCORED_SELECT = f"""
    SELECT c.id AS chunk_id, c.document_id, d.title AS document_title, d.language AS document_language,
           c.heading, c.page_start AS page, c.position, c.content, c.token_count,
           {{vector}} AS vector_score, {{section}} AS section_score,
           CASE WHEN c.tsv @@ %(any_term)s::tsquery THEN {_BM25} ELSE 0 END AS lexical_score,
           CASE WHEN c.tsv @@ ({_EXACT}) THEN ts_rank(c.tsv, {_EXACT}) ELSE 0 END AS exact_score,
           {_ALL_WORDS} AS strong_match, c.ts_config::text AS ts_config, c.heading_spans::text AS spans_json
    FROM candidates JOIN document_chunks c ON c.id = candidates.id
    JOIN documents d ON d.id = c.document_id
    WHERE c.org_id = %(org_id)s"""


def _candidate_row(cursor: psycopg.Cursor) -> Callable[[Sequence], Candidate]:
    """Candidates from rows of its fields in order (checked once per statement; class_row makes a dict a row)."""
    if [column.name for column in cursor.description or []] != list(Candidate._fields):
        raise ValueError("the candidate columns are not Candidate's fields in order")
    return Candidate._make


def _terms_params(terms: QueryTerms) -> dict:
    return {
        "t_config": terms.configs,
        "t_lexeme": terms.lexemes,
        "t_idf": terms.idf,
        "t_avgdl": terms.average_length,
        "any_term": terms.any_query(),
    }


def _lexical_ctes(terms: QueryTerms, configs: list[str], params: dict, limit: int) -> list[str]:
    """CTEs ``lexical`` (the ``limit`` best BM25 chunks among those holding a rare question lexeme, or an
    exact term) for these configurations. A bounded sample is ranked, so a common word costs little."""
    sources = []
    for number, config in enumerate(configs):
        if not _CONFIG_NAME.fullmatch(config):
            raise ValueError(f"not a text-search configuration name: {config!r}")
        rare = terms.rare_query(config)
        if rare is None:
            continue
        params[f"rare_{number}"] = rare
        sources.append(
            f"(SELECT c.id, c.tsv, c.ts_config FROM document_chunks c WHERE {_SCOPE_FILTER}"
            f" AND c.ts_config = '{config}'::regconfig AND c.tsv @@ %(rare_{number})s::tsquery"
            f" LIMIT {LEXICAL_SAMPLE})"
        )
    sources.append(
        f"(SELECT c.id, c.tsv, c.ts_config FROM document_chunks c WHERE {_SCOPE_FILTER}"
        f" AND c.tsv @@ {_EXACT} LIMIT {LEXICAL_SAMPLE})"
    )
    return [f"lexical AS (SELECT c.id FROM ({' UNION '.join(sources)}) c ORDER BY {_BM25} DESC LIMIT {limit:d})"]


def count_scope_chunks(conn: psycopg.Connection, org_id: UUID, document_ids: list[UUID] | None) -> int:
    return scalar(
        conn,
        "SELECT count(*) FROM document_chunks c WHERE " + _SCOPE_FILTER,
        {"org_id": org_id, "doc_ids": document_ids},
    )


def hybrid_candidates(
    conn: psycopg.Connection,
    org_id: UUID,
    query_vector: np.ndarray,
    text: str,
    exact_terms: str,
    *,
    limit: int,
    document_ids: list[UUID] | None = None,
    groups: list[str] | None = None,
    exact_scan: bool = False,
    terms: QueryTerms | None = None,
    scan_settings: bool = True,
) -> list[Candidate]:
    """The ``limit`` nearest chunks in scope (in each of ``groups``, text-search configurations, when
    given: one per language, so a cross-lingual answer is never crowded out), plus the best BM25 and
    exact-term matches, all scored.

    The HNSW path runs as a pgvector 0.8 iterative scan so a filtered query still returns ``limit``
    rows; ``exact_scan`` (small scopes) orders the whole scope by distance instead. ``scan_settings``
    False: this transaction made iterative_scan's settings already (for the same ``limit``).
    """
    terms = terms or query_terms(conn, org_id, text)
    params: dict = {
        "org_id": org_id,
        "qvec": query_vector,
        "text": text,
        "exact": exact_terms,
        "doc_ids": document_ids,
    } | _terms_params(terms)
    nearest = []
    scan_groups: list[str | None] = list(groups) if groups else [None]
    for group in scan_groups:
        # The configuration is inlined (a name read from pg_ts_config) so the planner can prove the
        # partial per-language HNSW index of migrations 002 and 090 applies.
        if group is not None and not _CONFIG_NAME.fullmatch(group):
            raise ValueError(f"not a text-search configuration name: {group!r}")
        filter_ = _SCOPE_FILTER + (f" AND c.ts_config = '{group}'::regconfig" if group else "")
        source = "scoped c" if exact_scan else "document_chunks c"
        nearest.append(f"(SELECT c.id FROM {source} WHERE {filter_} ORDER BY c.embedding <=> %(qvec)s LIMIT {limit:d})")
    if exact_scan:
        ctes = [
            f"scoped AS MATERIALIZED (SELECT c.id, c.org_id, c.document_id, c.ts_config, c.embedding"
            f" FROM document_chunks c"
            f" WHERE {_SCOPE_FILTER})"
        ]
    else:
        if scan_settings:
            iterative_scan(conn, limit)
        ctes = []
    ctes += [
        _QUERIES,
        _TERMS,
        f"nearest AS ({' UNION ALL '.join(nearest)})",
        *_lexical_ctes(terms, sorted(set(terms.configs)), params, limit),
        "candidates AS (SELECT id FROM nearest UNION SELECT id FROM lexical)",
    ]
    sql = f"WITH {', '.join(ctes)} {_SCORED_SELECT.format(vector='1 - (c.embedding <=> %(qvec)s)', section=_SECTION)}"
    with conn.cursor(row_factory=_candidate_row) as cur:  # prepared: one generic plan per connection (_SCAN_SETTINGS)
        return cur.execute(sql, params, prepare=not exact_scan).fetchall()


def lexical_candidates(
    conn: psycopg.Connection,
    org_id: UUID,
    text: str,
    exact_terms: str,
    *,
    limit: int,
    document_ids: list[UUID] | None = None,
    terms: QueryTerms | None = None,
) -> list[Candidate]:
    """Full-text only: the best BM25 (and exact-term) matches in their own configuration."""
    terms = terms or query_terms(conn, org_id, text)
    params = {
        "org_id": org_id,
        "doc_ids": document_ids,
        "text": text,
        "exact": exact_terms,
    } | _terms_params(terms)
    ctes = [_QUERIES, _TERMS, *_lexical_ctes(terms, sorted(set(terms.configs)), params, limit)]
    ctes.append("candidates AS (SELECT id FROM lexical)")
    sql = f"WITH {', '.join(ctes)} {_SCORED_SELECT.format(vector='NULL::float8', section='NULL::float8')}"
    with conn.cursor(row_factory=_candidate_row) as cur:
        return cur.execute(sql, params, prepare=False).fetchall()


def iterative_scan(conn: psycopg.Connection, limit: int) -> None:
    """Let HNSW keep scanning until ``limit`` rows pass the filters (for this transaction), with a
    candidate list of 4x the rows wanted (ef_search 160 for the usual 40: HNSW recall@10 ~0.99 at
    100k chunks, where the default 40 gave 0.87)."""
    conn.execute(_SCAN_SETTINGS, {"ef": _ef_search(limit)})


def neighbour_chunks(
    conn: psycopg.Connection, org_id: UUID, document_id: UUID, positions: list[int]
) -> dict[int, tuple[str, int, str, list | None]]:
    """position -> (content, token_count, heading, heading_spans) for these positions of one document."""
    sql = """SELECT position, content, token_count, heading, heading_spans FROM document_chunks
             WHERE org_id = %(org_id)s AND document_id = %(doc)s AND position = ANY(%(positions)s)"""
    rows = conn.execute(sql, {"org_id": org_id, "doc": document_id, "positions": positions})
    return {row[0]: (row[1], row[2], row[3], row[4]) for row in rows}
