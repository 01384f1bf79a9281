"""search(): the eval floors, the fusion rule, scopes returning k rows, dedup, neighbours, bad input, CLI."""

from __future__ import annotations

import json
from pathlib import Path
from uuid import uuid4

import pytest

from agents.retrieval import RetrievalError, Scope, search
from agents.retrieval.__main__ import main
from agents.retrieval.eval import evaluate, load
from agents.retrieval.postprocess import deduplicate, document_order, expand_neighbours
from agents.retrieval.search import Hit
from storage import chunks as chunk_store
from storage.corpus import corpus_signature
from tests.conftest import make_deps

EVAL_FILE = Path(__file__).resolve().parents[2] / "seeds" / "eval" / "retrieval.jsonl"
# Floors set from the measured run (hybrid: recall@5 0.975, every pair >= 0.95, recall@1 0.91, with full
# language-centring, at most two chunks per document in the top k and packed chunks compared section by
# section; before the sections recall@5 was 1.0: two questions that were fifth are sixth now, behind packed
# chunks, for +0.06 MRR on the held-out React docs and +0.09 first citations on the tutor eval).
RECALL_AT_5_FLOOR = 0.97
PAIR_RECALL_FLOOR = 0.94
RECALL_AT_1_FLOOR = 0.88


@pytest.fixture(scope="module")
def reports(seeded_pool, demo):
    items = load(EVAL_FILE)
    deps = make_deps(seeded_pool)
    return {
        strategy: evaluate(demo.org_id, items, k=5, strategy=strategy, pool=seeded_pool, embedder=deps)
        for strategy in ("hybrid", "vector", "fulltext", "rrf")
    }


def test_eval_set_covers_what_the_issue_asks():
    items = load(EVAL_FILE)
    kinds = {item.kind for item in items}
    assert len(items) >= 60 and {"cross", "paraphrase", "exact", "mono"} <= kinds
    assert {item.lang for item in items} == {"es", "en"}


def test_hybrid_meets_the_eval_floors(reports):
    hybrid = reports["hybrid"]
    assert hybrid["recall_at_k"] >= RECALL_AT_5_FLOOR, hybrid["misses"]
    assert hybrid["recall_at_1"] >= RECALL_AT_1_FLOOR
    assert set(hybrid["by_pair"]) == {"es->es", "es->en", "en->en", "en->es"}
    for pair, figures in hybrid["by_pair"].items():
        assert figures["recall_at_k"] >= PAIR_RECALL_FLOOR, (pair, figures)


def test_fusion_never_falls_below_the_better_single_retriever(reports):
    """Mono- and cross-lingual pairs alike: recall@5 at least the best of vector and full-text but for at
    most one question of the pair (comparing packed chunks section by section puts one English question
    that was fifth sixth, where plain cosine keeps it fifth), and MRR at least theirs overall."""
    hybrid = reports["hybrid"]
    for pair, figures in hybrid["by_pair"].items():
        best = max(reports[single]["by_pair"][pair]["recall_at_k"] for single in ("vector", "fulltext"))
        assert figures["recall_at_k"] >= best - 1 / figures["n"] - 1e-3, (pair, figures, best)  # figures are rounded
    assert hybrid["mrr"] >= max(reports["vector"]["mrr"], reports["fulltext"]["mrr"])


def test_plain_rrf_is_the_cross_lingual_failure_we_measured(reports):
    # Why hybrid is not RRF: lexical noise across languages drags Spanish->English answers down.
    assert (
        reports["rrf"]["by_pair"]["es->en"]["recall_at_k"] < reports["hybrid"]["by_pair"]["es->en"]["recall_at_k"] - 0.3
    )


def test_exact_terms_rank_their_chunk_first(seeded_pool, seeded_deps, demo):
    hit = search(demo.org_id, "¿Qué es el formulario F-ALM-07?", k=1, pool=seeded_pool, embedder=seeded_deps)[0]
    assert hit.document_title == "Manual de Seguridad en el Almacén" and "F-ALM-07" in hit.content
    assert hit.scores["exact"] > 0 and hit.score > hit.scores["centred"]


def test_a_turns_two_searches_start_with_one_statement(seeded_pool, seeded_deps, demo, monkeypatch):
    """The question and its glossary translation (search_each): the corpus signature, both queries' lexemes and
    the scan settings are one statement, then one hybrid statement each (five statements before)."""
    import psycopg

    from agents.retrieval.search import search_each

    queries = ["¿Cuál es el precio máximo por noche de hotel?", "What is the maximum hotel price per night?"]
    search_each(demo.org_id, queries, k=8, pool=seeded_pool, embedder=seeded_deps)  # the language groups, cached
    statements: list[str] = []
    execute = psycopg.Cursor.execute

    def counted(cursor, query, params=None, **options):
        statements.append(str(query))
        return execute(cursor, query, params, **options)

    monkeypatch.setattr(psycopg.Cursor, "execute", counted)
    both = search_each(demo.org_id, queries, k=8, pool=seeded_pool, embedder=seeded_deps)
    monkeypatch.undo()
    assert len(statements) == 3 and all("lexical AS" in statement for statement in statements[1:]), statements
    assert [[hit.chunk_id for hit in hits] for hits in both] == [
        [hit.chunk_id for hit in search(demo.org_id, query, k=8, pool=seeded_pool, embedder=seeded_deps)]
        for query in queries
    ]
    with seeded_pool.connection() as conn:
        signature, terms = chunk_store.search_start(conn, demo.org_id, queries, 40)
        assert conn.execute("SHOW hnsw.ef_search").fetchone()[0] == "160"
        assert signature == corpus_signature(conn, demo.org_id) and terms == chunk_store.query_terms_each(
            conn, demo.org_id, queries
        )
        assert chunk_store.search_start(conn, uuid4(), queries, 40)[0] is None  # no such organisation


def test_the_hybrid_statement_is_planned_once_per_connection(seeded_db_url, seeded_deps, demo):
    """Its text-search queries are computed once per execution (chunks._QUERIES), so one generic plan serves every
    question: psycopg prepares the statement and PostgreSQL plans it once per connection, where a custom plan per
    execution was half its backend CPU."""
    from agents.retrieval.search import search_each
    from storage.db import open_pool

    questions = [
        ["¿Cuál es el precio máximo por noche de hotel?", "What is the maximum hotel price per night?"],
        ["¿Cuántos caracteres debe tener una contraseña?", "How many characters must a password have?"],
        ["How do I report a phishing email?", "¿Cómo informo de un correo de phishing?"],
    ]
    with open_pool(seeded_db_url, max_size=1) as pool:  # one connection: its prepared statements are the ones read
        found = [search_each(demo.org_id, pair, k=8, pool=pool, embedder=seeded_deps) for pair in questions]
        with pool.connection() as conn:
            plans = conn.execute(
                "SELECT sum(generic_plans), sum(custom_plans) FROM pg_prepared_statements WHERE statement LIKE %s",
                ["%lexical AS%"],
            ).fetchone()
    assert plans == (6, 0), plans  # the 6 hybrid statements of three turns, all on generic plans
    assert all(hits for pair in found for hits in pair)


@pytest.mark.parametrize("force_hnsw", [False, True])
def test_a_document_scope_returns_k_rows(seeded_pool, seeded_deps, demo, monkeypatch, force_hnsw):
    """Both paths: the exact scan of a small scope and the HNSW iterative scan with a filter."""
    if force_hnsw:
        monkeypatch.setattr(chunk_store, "EXACT_SCOPE_LIMIT", 0)
    doc = demo.documents["Returns and Refunds Policy"]
    with seeded_pool.connection() as conn:
        available = chunk_store.count_scope_chunks(conn, demo.org_id, [doc])
    hits = search(
        demo.org_id,
        "¿Cuánto tarda un reembolso con tarjeta?",
        k=available,
        pool=seeded_pool,
        embedder=seeded_deps,
        scope=Scope(document_ids=[doc]),
    )
    assert len(hits) == available >= 5 and {h.document_id for h in hits} == {doc}


def test_a_course_scope_searches_only_the_course_sources(seeded_pool, seeded_deps, demo):
    course = demo.courses["Atención al cliente de excelencia"]
    allowed = {demo.documents["Manual de Atención al Cliente"], demo.documents["Returns and Refunds Policy"]}
    hits = search(
        "acme",
        "What is the minimum password length?",
        k=8,
        pool=seeded_pool,
        embedder=seeded_deps,
        scope=Scope(course_id=course),
    )
    assert len(hits) == 8 and {h.document_id for h in hits} <= allowed


def test_strategies_and_org_slug(seeded_pool, seeded_deps, demo):
    for strategy in ("vector", "fulltext", "rrf"):
        hits = search("acme", "password minimum length", k=3, strategy=strategy, pool=seeded_pool, embedder=seeded_deps)
        assert hits and hits[0].document_title == "Information Security Policy", strategy


@pytest.mark.parametrize(
    "query, k, org, message",
    [
        ("", 5, "acme", "empty"),
        ("   ", 5, "acme", "empty"),
        ("x" * 10_000, 5, "acme", "limit"),
        ("hola", 0, "acme", "k must be"),
        ("hola", 5, "no-such-org", "unknown organisation"),
    ],
)
def test_bad_input_is_one_line(seeded_pool, seeded_deps, query, k, org, message):
    with pytest.raises(RetrievalError, match=message) as caught:
        search(org, query, k=k, pool=seeded_pool, embedder=seeded_deps)
    assert "\n" not in str(caught.value)


def _hit(text: str, position: int = 0, document="d1", tokens: int = 0) -> Hit:
    return Hit(
        chunk_id=f"c{position}{document}",
        document_id=document,
        document_title=document,
        heading="",
        page=None,
        position=position,
        content=text,
        score=0.0,
        token_count=tokens,
    )


def test_near_duplicates_are_removed_keeping_the_better():
    text = "Customers may return any unused product in its original condition within 30 days of purchase"
    hits = [_hit(text, 0), _hit(text + " for a full refund.", 1), _hit("Opened electronics: 14 days.", 2)]
    kept = deduplicate(hits)
    assert [h.position for h in kept] == [0, 2]


def test_one_document_fills_the_list_only_when_no_other_document_has_a_candidate():
    hits = [_hit(f"alpha {n}", n, "d1") for n in range(4)] + [_hit("beta", 9, "d2")]
    assert [(h.document_id, h.position) for h in deduplicate(hits, limit=3, per_document=2)] == [
        ("d1", 0),
        ("d1", 1),
        ("d2", 9),
    ]
    assert [h.position for h in deduplicate(hits[:4], limit=3, per_document=2)] == [0, 1, 2]


def test_document_order_groups_documents_in_reading_order():
    hits = [_hit("b", 5, "d1"), _hit("x", 2, "d2"), _hit("a", 1, "d1")]
    assert [(h.document_id, h.position) for h in document_order(hits)] == [("d1", 1), ("d1", 5), ("d2", 2)]


def test_short_hits_get_their_neighbour(seeded_pool, demo):
    doc = demo.documents["Returns and Refunds Policy"]
    with seeded_pool.connection() as conn:
        rows = conn.execute(
            "SELECT position, content FROM document_chunks WHERE document_id = %s ORDER BY position", (doc,)
        ).fetchall()
        short = _hit(rows[1][1], rows[1][0], doc, tokens=10)
        long = _hit(rows[3][1], rows[3][0], doc, tokens=400)
        expanded = expand_neighbours(conn, demo.org_id, [short, long])
    assert expanded[0].content == f"{rows[1][1]}\n\n{rows[2][1]}" and expanded[0].token_count > 10
    assert expanded[1] == long


def test_cli_search_and_eval_print_the_contract(seeded_db_url, capsys, tmp_path):
    assert (
        main(
            ["search", "¿Cuál es el peso máximo que puede levantar una persona?", "--org", "acme", "--k", "2", "--json"]
        )
        == 0
    )
    hits = json.loads(capsys.readouterr().out)
    assert len(hits) == 2 and hits[0]["document_title"] == "Manual de Seguridad en el Almacén"
    few = tmp_path / "few.jsonl"
    few.write_text("\n".join(EVAL_FILE.read_text(encoding="utf-8").splitlines()[:3]), encoding="utf-8")
    assert main(["eval", str(few), "--org", "acme", "--k", "5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {"n", "recall_at_1", "recall_at_k", "mrr", "p50_ms", "p95_ms"} <= set(report) and report["n"] == 3


@pytest.mark.parametrize(
    "argv",
    [
        ["search", "", "--org", "acme"],
        ["search", "hola", "--org", "nope"],
        ["search", "hola", "--org", "acme", "--k", "0"],
        ["search", "y" * 10_000, "--org", "acme"],
        ["eval", "/no/such/file.jsonl", "--org", "acme"],
    ],
)
def test_cli_bad_input_exits_2_with_one_line(seeded_db_url, capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


PACKED = """# Uniform Policy

## 1. Badges

Wear your badge at all times inside the store, clipped at chest height.

## 2. Shoes

Closed non-slip shoes are mandatory in the warehouse and the stockroom.

## 3. Lockers

Personal belongings stay in the staff lockers, which are emptied every Friday evening.
"""


def test_a_chunk_packing_small_sections_is_compared_with_each_of_them(pool, app_deps, tmp_path):
    """Ingestion embeds each section of a chunk that packs several; search scores the chunk mostly by its
    best section (fusion.SECTION_WEIGHT), here the shoes rule for a Spanish question about footwear."""
    from agents.ingestion.backfill import backfill_section_vectors
    from agents.ingestion.pipeline import ingest_file
    from storage.users import ensure_org

    path = tmp_path / "uniform_policy.md"
    path.write_text(PACKED, encoding="utf-8")
    with pool.connection() as conn:
        org = ensure_org(conn, "packed-sections")
    ingest_file(pool, org.id, path)
    with pool.connection() as conn:
        [(sections, spans)] = conn.execute(
            "SELECT cardinality(section_embeddings), jsonb_array_length(heading_spans)"
            " FROM document_chunks WHERE org_id = %s",
            (org.id,),
        ).fetchall()
    assert sections == spans == 3
    [hit] = search(org.id, "¿Qué calzado es obligatorio en el almacén?", k=3, pool=pool, embedder=app_deps)
    assert hit.scores["section"] > hit.scores["vector"], hit.scores

    # a chunk stored before migration 180 gets its sections' vectors at startup, once
    with pool.connection() as conn:
        conn.execute("UPDATE document_chunks SET section_embeddings = NULL WHERE org_id = %s", (org.id,))
    assert backfill_section_vectors(pool) == 1 and backfill_section_vectors(pool) == 0
    [again] = search(org.id, "¿Qué calzado es obligatorio en el almacén?", k=3, pool=pool, embedder=app_deps)
    assert again.scores == hit.scores
