"""Retrieval reads: scored chunk candidates, scopes, neighbours, course trees and whole documents.

Every query filters by org_id. Scores are returned as raw features (vector similarity, lexical
rank, exact-term rank); how they are fused is retrieval's business (agents/retrieval/fusion.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from uuid import UUID

import numpy as np
import psycopg
from psycopg.rows import class_row

# Below this many chunks in a scope the vector search is exact (a sequential scan over the scope).
EXACT_SCOPE_LIMIT = 5000
_CONFIG_NAME = re.compile(r"[a-z_]+")
LEXICAL_SAMPLE = 400  # strong lexical matches ranked per query at most


@dataclass(frozen=True)
class Candidate:
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
    lexical_score: float
    exact_score: float
    strong_match: bool  # every query word matched, in the chunk's own language
    ts_config: str


@dataclass(frozen=True)
class ModuleNode:
    id: UUID
    position: int
    title: str
    summary: str
    lesson_titles: list[str]


@dataclass(frozen=True)
class LessonText:
    id: UUID
    module_id: UUID
    module_title: str
    module_position: int
    position: int
    title: str
    content_md: str


@dataclass(frozen=True)
class WholeDocument:
    id: UUID
    title: str
    language: str
    full_text: str
    token_count: int
    relevance: float | None


@dataclass(frozen=True)
class ScopeOption:
    id: UUID
    title: str
    kind: str  # "course" | "document"


# The question as OR-queries (one per text-search configuration) plus the exact terms (codes,
# amounts, dates) as a 'simple' OR-query: question words rarely all occur in one chunk, so AND is
# only used to find strong lexical candidates. Inlined (not a CTE) so they fold to constants and the
# GIN index applies.
def _or_query(config: str, param: str = "text") -> str:
    return f"replace(websearch_to_tsquery('{config}', %({param})s)::text, ' & ', ' | ')::tsquery"


def _matched_rank(query: str) -> str:
    # ts_rank scores partial phrase matches of non-matching rows (codes are phrases): gate on @@.
    return f"CASE WHEN c.tsv @@ ({query}) THEN ts_rank(c.tsv, {query}) ELSE 0 END"


_EXACT = _or_query("simple", "exact")
_LEXICAL_QUERY = (f"CASE c.ts_config WHEN 'spanish'::regconfig THEN {_or_query('spanish')}"
                  f" WHEN 'english'::regconfig THEN {_or_query('english')} ELSE {_or_query('simple')} END")
_ALL_WORDS = ("((c.ts_config = 'spanish'::regconfig AND c.tsv @@ websearch_to_tsquery('spanish', %(text)s))"
              " OR (c.ts_config = 'english'::regconfig AND c.tsv @@ websearch_to_tsquery('english', %(text)s)))")
_STRONG_MATCH = f"({_ALL_WORDS} OR c.tsv @@ {_EXACT})"
_ANY_MATCH = (f"((c.ts_config = 'spanish'::regconfig AND c.tsv @@ {_or_query('spanish')})"
              f" OR (c.ts_config = 'english'::regconfig AND c.tsv @@ {_or_query('english')})"
              " OR (c.ts_config NOT IN ('spanish'::regconfig, 'english'::regconfig)"
              f" AND c.tsv @@ {_or_query('simple')}) OR c.tsv @@ {_EXACT})")
_SCOPE_FILTER = "c.org_id = %(org_id)s AND (%(doc_ids)s::uuid[] IS NULL OR c.document_id = ANY(%(doc_ids)s))"
_SCORED_SELECT = f"""
    SELECT c.id AS chunk_id, c.document_id, d.title AS document_title, d.language AS document_language,
           c.heading, c.page_start AS page, c.position, c.content, c.token_count,
           {{vector}} AS vector_score,
           {_matched_rank(_LEXICAL_QUERY)} AS lexical_score,
           {_matched_rank(_EXACT)} AS exact_score,
           {_ALL_WORDS} AS strong_match, c.ts_config::text AS ts_config
    FROM candidates JOIN document_chunks c ON c.id = candidates.id
    JOIN documents d ON d.id = c.document_id
    WHERE c.org_id = %(org_id)s"""


def count_scope_chunks(conn: psycopg.Connection, org_id: UUID, document_ids: list[UUID] | None) -> int:
    return conn.execute("SELECT count(*) FROM document_chunks c WHERE " + _SCOPE_FILTER,
                        {"org_id": org_id, "doc_ids": document_ids}).fetchone()[0]


def hybrid_candidates(conn: psycopg.Connection, org_id: UUID, query_vector: np.ndarray, text: str,
                      exact_terms: str, *, limit: int, document_ids: list[UUID] | None = None,
                      groups: list[str] | None = None, exact_scan: bool = False) -> list[Candidate]:
    """The ``limit`` nearest chunks in scope (in each of ``groups``, text-search configurations, when
    given: one per language, so a cross-lingual answer is never crowded out), plus strong lexical
    matches, all scored.

    The HNSW path runs as a pgvector 0.8 iterative scan so a filtered query still returns ``limit``
    rows; ``exact_scan`` (small scopes) orders the whole scope by distance instead.
    """
    params: dict = {"org_id": org_id, "qvec": query_vector, "text": text, "exact": exact_terms, "limit": limit,
                    "doc_ids": document_ids}
    nearest = []
    for group in groups or [None]:
        # The configuration is inlined (a name read from pg_ts_config) so the planner can prove the
        # partial per-language HNSW index of migration 002 applies.
        if group is not None and not _CONFIG_NAME.fullmatch(group):
            raise ValueError(f"not a text-search configuration name: {group!r}")
        filter_ = _SCOPE_FILTER + (f" AND c.ts_config = '{group}'::regconfig" if group else "")
        source = "scoped c" if exact_scan else "document_chunks c"
        nearest.append(f"(SELECT c.id FROM {source} WHERE {filter_} ORDER BY c.embedding <=> %(qvec)s LIMIT %(limit)s)")
    if exact_scan:
        ctes = [f"scoped AS MATERIALIZED (SELECT c.id, c.org_id, c.document_id, c.ts_config, c.embedding"
                f" FROM document_chunks c"
                f" WHERE {_SCOPE_FILTER})"]
    else:
        iterative_scan(conn, limit)
        ctes = []
    ctes += [f"nearest AS ({' UNION ALL '.join(nearest)})",
             # a code shared by thousands of chunks must not cost thousands of ts_ranks: rank a bounded sample
             f"""lexical AS (SELECT c.id FROM (SELECT c.id, c.tsv, c.ts_config FROM document_chunks c
                                               WHERE {_SCOPE_FILTER} AND {_STRONG_MATCH} LIMIT {LEXICAL_SAMPLE}) c
                    ORDER BY {_matched_rank(_LEXICAL_QUERY)} DESC LIMIT %(limit)s)""",
             "candidates AS (SELECT id FROM nearest UNION SELECT id FROM lexical)"]
    sql = f"WITH {', '.join(ctes)} {_SCORED_SELECT.format(vector='1 - (c.embedding <=> %(qvec)s)')}"
    with conn.cursor(row_factory=class_row(Candidate)) as cur:
        return cur.execute(sql, params, prepare=False).fetchall()  # custom plan: the tsqueries fold to constants


def lexical_candidates(conn: psycopg.Connection, org_id: UUID, text: str, exact_terms: str, *,
                       limit: int, document_ids: list[UUID] | None = None) -> list[Candidate]:
    """Full-text only: chunks matching any query word in their own language, best ts_rank first."""
    params = {"org_id": org_id, "doc_ids": document_ids, "text": text, "exact": exact_terms, "limit": limit}
    sql = f"""WITH
        candidates AS (SELECT c.id FROM document_chunks c WHERE {_SCOPE_FILTER} AND {_ANY_MATCH}
                       ORDER BY {_matched_rank(_LEXICAL_QUERY)} + {_matched_rank(_EXACT)} DESC
                       LIMIT %(limit)s)
        {_SCORED_SELECT.format(vector="NULL::float8")}"""
    with conn.cursor(row_factory=class_row(Candidate)) as cur:
        return cur.execute(sql, params, prepare=False).fetchall()  # custom plan: the tsqueries fold to constants


def iterative_scan(conn: psycopg.Connection, limit: int) -> None:
    """Let HNSW keep scanning until ``limit`` rows pass the filters (for this transaction), with a
    candidate list of 4x the rows wanted (ef_search 160 for the usual 40: HNSW recall@10 ~0.99 at
    100k chunks, where the default 40 gave 0.87)."""
    conn.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true),"
                 " set_config('hnsw.ef_search', %(ef)s, true)", {"ef": str(max(40, min(1000, 4 * limit)))})


def course_document_ids(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> list[UUID]:
    """The documents a course draws on: linked sources, its source document, its lessons' chunks."""
    rows = conn.execute(
        """SELECT document_id FROM course_documents WHERE org_id = %(org_id)s AND course_id = %(course)s
           UNION SELECT source_document_id FROM courses
                 WHERE org_id = %(org_id)s AND id = %(course)s AND source_document_id IS NOT NULL
           UNION SELECT c.document_id FROM lessons l JOIN modules m ON m.id = l.module_id
                 JOIN document_chunks c ON c.id = ANY(l.source_chunk_ids)
                 WHERE m.org_id = %(org_id)s AND m.course_id = %(course)s AND c.org_id = %(org_id)s""",
        {"org_id": org_id, "course": course_id}).fetchall()
    return [row[0] for row in rows]


def neighbour_chunks(conn: psycopg.Connection, org_id: UUID, document_id: UUID,
                     positions: list[int]) -> dict[int, tuple[str, int]]:
    """position -> (content, token_count) for these positions of one document."""
    rows = conn.execute(
        """SELECT position, content, token_count FROM document_chunks
           WHERE org_id = %(org_id)s AND document_id = %(doc)s AND position = ANY(%(positions)s)""",
        {"org_id": org_id, "doc": document_id, "positions": positions}).fetchall()
    return {row[0]: (row[1], row[2]) for row in rows}


def course_tree(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> list[ModuleNode]:
    """The course's "index page": modules in order with their summaries and lesson titles."""
    with conn.cursor(row_factory=class_row(ModuleNode)) as cur:
        return cur.execute(
            """SELECT m.id, m.position, m.title, m.summary,
                      coalesce(array_agg(l.title ORDER BY l.position) FILTER (WHERE l.id IS NOT NULL),
                               '{}') AS lesson_titles
               FROM modules m LEFT JOIN lessons l ON l.module_id = m.id
               WHERE m.org_id = %(org_id)s AND m.course_id = %(course)s
               GROUP BY m.id ORDER BY m.position""",
            {"org_id": org_id, "course": course_id}).fetchall()


_LESSON_SELECT = """
    SELECT l.id, l.module_id, m.title AS module_title, m.position AS module_position, l.position,
           l.title, l.content_md
    FROM lessons l JOIN modules m ON m.id = l.module_id"""


def module_lessons(conn: psycopg.Connection, org_id: UUID, module_ids: list[UUID]) -> list[LessonText]:
    with conn.cursor(row_factory=class_row(LessonText)) as cur:
        return cur.execute(f"{_LESSON_SELECT} WHERE l.org_id = %(org_id)s AND l.module_id = ANY(%(ids)s)"
                           " ORDER BY m.position, l.position",
                           {"org_id": org_id, "ids": module_ids}).fetchall()


def get_lesson(conn: psycopg.Connection, org_id: UUID, lesson_id: UUID) -> LessonText | None:
    with conn.cursor(row_factory=class_row(LessonText)) as cur:
        return cur.execute(f"{_LESSON_SELECT} WHERE l.org_id = %(org_id)s AND l.id = %(id)s",
                           {"org_id": org_id, "id": lesson_id}).fetchone()


def enrolled_course_documents(conn: psycopg.Connection, org_id: UUID, user_id: UUID,
                              query_vector: np.ndarray, course_id: UUID | None = None) -> list[WholeDocument]:
    """Whole documents of the courses the user is enrolled in (only ``course_id``'s when given).

    relevance is the best chunk similarity to the question (None for a document without chunks).
    """
    with conn.cursor(row_factory=class_row(WholeDocument)) as cur:
        return cur.execute(
            """WITH docs AS (
                   SELECT cd.document_id AS id FROM enrollments e
                   JOIN course_documents cd ON cd.course_id = e.course_id AND cd.org_id = e.org_id
                   WHERE e.org_id = %(org_id)s AND e.user_id = %(user)s AND e.status <> 'cancelled'
                     AND (%(course)s::uuid IS NULL OR e.course_id = %(course)s)
                   UNION
                   SELECT co.source_document_id FROM enrollments e JOIN courses co ON co.id = e.course_id
                   WHERE e.org_id = %(org_id)s AND e.user_id = %(user)s AND e.status <> 'cancelled'
                     AND co.source_document_id IS NOT NULL
                     AND (%(course)s::uuid IS NULL OR e.course_id = %(course)s))
               SELECT d.id, d.title, d.language, d.full_text,
                      greatest(d.token_count, length(d.full_text) / 4) AS token_count,
                      (SELECT max(1 - (c.embedding <=> %(qvec)s)) FROM document_chunks c
                       WHERE c.document_id = d.id AND c.org_id = %(org_id)s) AS relevance
               FROM docs JOIN documents d ON d.id = docs.id WHERE d.org_id = %(org_id)s
               ORDER BY relevance DESC NULLS LAST, d.title""",
            {"org_id": org_id, "user": user_id, "course": course_id, "qvec": query_vector}).fetchall()


def scope_options(conn: psycopg.Connection, org_id: UUID) -> list[ScopeOption]:
    """Courses and documents an admin can scope a search to."""
    with conn.cursor(row_factory=class_row(ScopeOption)) as cur:
        return cur.execute(
            """SELECT id, title, 'course' AS kind FROM courses WHERE org_id = %(org_id)s
               UNION ALL SELECT id, title, 'document' FROM documents WHERE org_id = %(org_id)s
               ORDER BY kind, title""", {"org_id": org_id}).fetchall()


def document_languages(conn: psycopg.Connection, org_id: UUID) -> dict[str, str]:
    """document title -> language (the eval's language-pair breakdown)."""
    rows = conn.execute("SELECT title, language FROM documents WHERE org_id = %(org_id)s",
                        {"org_id": org_id}).fetchall()
    return {row[0]: row[1] for row in rows}


@dataclass(frozen=True)
class LanguageGroup:
    ts_config: str          # chunks are grouped by their text-search configuration (one per language)
    chunks: int
    centroid: np.ndarray


def corpus_signature(conn: psycopg.Connection, org_id: UUID) -> tuple:
    """Changes whenever the organisation's documents do (cheap: the documents table is small)."""
    return tuple(conn.execute("SELECT count(*), max(updated_at), max(created_at) FROM documents"
                              " WHERE org_id = %(org_id)s", {"org_id": org_id}).fetchone())


def language_groups(conn: psycopg.Connection, org_id: UUID) -> list[LanguageGroup]:
    """The organisation's chunks by text-search configuration, with each group's mean embedding."""
    rows = conn.execute(
        """SELECT c.ts_config::text, count(*)::int, avg(c.embedding) FROM document_chunks c
           WHERE c.org_id = %(org_id)s GROUP BY c.ts_config ORDER BY 1""", {"org_id": org_id}).fetchall()
    return [LanguageGroup(row[0], row[1], np.asarray(row[2], dtype=np.float32)) for row in rows]


@dataclass(frozen=True)
class EvalChunk:
    chunk_id: UUID
    document_title: str
    document_language: str
    heading: str
    content: str
    embedding: np.ndarray


def org_chunks(conn: psycopg.Connection, org_id: UUID) -> list[EvalChunk]:
    """Every chunk of the organisation with its vector: the eval's exact in-memory anchors."""
    with conn.cursor(row_factory=class_row(EvalChunk)) as cur:
        return cur.execute(
            """SELECT c.id AS chunk_id, d.title AS document_title, d.language AS document_language, c.heading,
                      c.content, c.embedding FROM document_chunks c JOIN documents d ON d.id = c.document_id
               WHERE c.org_id = %(org_id)s ORDER BY d.title, c.position""", {"org_id": org_id}).fetchall()
