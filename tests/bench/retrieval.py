"""Retrieval benchmark: python tests/bench/retrieval.py [--sizes 10000,100000] [--queries 80]

On a throwaway embedded database (or DATABASE_URL's server, in a new database): the six demo
documents plus a synthetic corpus of distractors grown to each size. Synthetic chunks are real chunks
with words swapped in from other chunks of the same language; their vectors mix two real chunk
vectors of that language plus noise (embedding 100k passages would take hours). Rows are bulk
loaded with COPY and the HNSW index is rebuilt after each load.

Per size it prints: search p50/p95 with and without the query embedding; HNSW recall@10 against
exact search; an exact in-memory numpy search; PGVectorStore similarity and hybrid search over the
same rows; and each one's recall@5 / MRR on seeds/eval/retrieval.jsonl.
"""

from __future__ import annotations

import argparse
import atexit
import os
import random
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from psycopg.conninfo import make_conninfo  # noqa: E402

EVAL_FILE = ROOT / "seeds" / "eval" / "retrieval.jsonl"
CHUNKS_PER_DOCUMENT = 50


def percentiles(samples: list[float]) -> str:
    return f"p50 {np.percentile(samples, 50):6.1f} ms  p95 {np.percentile(samples, 95):6.1f} ms"


def fresh_database() -> str:
    import psycopg

    from storage.db import database_url, migrate

    server = database_url()
    name = f"bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = make_conninfo(server, dbname=name)
    migrate(url)
    return url


def load_demo_documents(pool) -> uuid.UUID:
    from agents.ingestion.pipeline import ingest_file
    from storage.users import ensure_org

    with pool.connection() as conn:
        org = ensure_org(conn, "acme", "Acme Retail", "es")
    for path in sorted((ROOT / "seeds" / "documents").glob("*.*")):
        ingest_file(pool, org.id, path)
    return org.id


def grow(pool, org_id: uuid.UUID, target: int, rng: np.random.Generator) -> None:
    """Add synthetic documents/chunks until the organisation holds ``target`` chunks."""
    with pool.connection() as conn:
        real = conn.execute(
            "SELECT c.ts_config::text, d.language, c.heading, c.content, c.embedding"
            " FROM document_chunks c JOIN documents d ON d.id = c.document_id"
            " WHERE c.org_id = %s AND d.source_name NOT LIKE 'synthetic-%%'",
            (org_id,),
        ).fetchall()
        have = conn.execute("SELECT count(*) FROM document_chunks WHERE org_id = %s", (org_id,)).fetchone()[0]
        documents = conn.execute("SELECT count(*) FROM documents WHERE org_id = %s", (org_id,)).fetchone()[0]
    missing = target - have
    if missing <= 0:
        return
    by_language: dict[str, list] = {}
    for row in real:
        by_language.setdefault(row[0], []).append(row)
    words = {config: [w for row in rows for w in row[3].split()] for config, rows in by_language.items()}
    configs = sorted(by_language)
    started = time.perf_counter()
    with pool.connection() as conn:
        for index in (
            "document_chunks_embedding",
            "document_chunks_embedding_spanish",
            "document_chunks_embedding_english",
        ):
            conn.execute(f"DROP INDEX IF EXISTS {index}")
        with conn.cursor() as cur:
            n_docs = -(-missing // CHUNKS_PER_DOCUMENT)
            doc_rows = []
            for i in range(n_docs):
                config = configs[i % len(configs)]
                language = by_language[config][0][1]
                doc_id = uuid.uuid4()
                doc_rows.append((doc_id, config, language))
                cur.execute(
                    "INSERT INTO documents (id, org_id, source_name, title, mime_type, full_text, language,"
                    " content_hash) VALUES (%s, %s, %s, %s, 'text/plain', '', %s, %s)",
                    (
                        doc_id,
                        org_id,
                        f"synthetic-{documents + i}",
                        f"Synthetic {documents + i:06d}",
                        language,
                        f"synthetic-{documents + i}",
                    ),
                )
            with cur.copy(
                "COPY document_chunks (org_id, document_id, position, heading, content, token_count,"
                " ts_config, embedding) FROM STDIN"
            ) as copy:
                written = 0
                for doc_id, config, _ in doc_rows:
                    pool_rows, pool_words = by_language[config], words[config]
                    for position in range(min(CHUNKS_PER_DOCUMENT, missing - written)):
                        a, b = rng.integers(len(pool_rows), size=2)
                        base = pool_rows[a]
                        tokens = base[3].split()
                        for swap in rng.integers(len(tokens), size=max(1, len(tokens) // 4)):
                            tokens[swap] = pool_words[rng.integers(len(pool_words))]
                        vector = (
                            0.6 * np.asarray(base[4]) + 0.4 * np.asarray(pool_rows[b][4]) + rng.normal(0, 0.025, 384)
                        )
                        vector /= np.linalg.norm(vector)
                        text = " ".join(tokens)
                        copy.write_row(
                            (
                                org_id,
                                doc_id,
                                position,
                                base[2],
                                text,
                                len(text) // 4,
                                config,
                                "[" + ",".join(f"{x:.5f}" for x in vector) + "]",
                            )
                        )
                        written += 1
        loaded = time.perf_counter() - started
        conn.execute("SET maintenance_work_mem = '512MB'")
        conn.execute(
            "CREATE INDEX document_chunks_embedding ON document_chunks USING hnsw (embedding vector_cosine_ops)"
        )
        conn.execute((ROOT / "storage" / "migrations" / "002_retrieval.sql").read_text())  # per-language indexes
        conn.execute("ANALYZE document_chunks")
    print(
        f"  loaded {missing} synthetic chunks in {loaded:.1f} s (COPY), 3 HNSW indexes rebuilt in "
        f"{time.perf_counter() - started - loaded:.1f} s"
    )


def measure(pool, url: str, org_id: uuid.UUID, items, size: int) -> None:
    from agents.ingestion import embeddings
    from agents.retrieval import search
    from agents.retrieval.eval import evaluate
    from agents.retrieval.langchain_retriever import hybrid_search_config, pgvector_store
    from storage import chunks as chunk_store

    embedder = embeddings  # the process's embedder, whose query cache is cleared below (agents.runtime.deps.Embedder)
    print(f"\n== {size} chunks ==")
    questions = [item.question for item in items]
    vectors = {q: embeddings.embed_query(q) for q in questions}

    def report(name: str, result: dict) -> None:
        pairs = " ".join(f"{p} {f['recall_at_k']:.2f}" for p, f in result["by_pair"].items())
        print(
            f"  {name:<30} recall@1 {result['recall_at_1']:.3f} recall@5 {result['recall_at_k']:.3f} "
            f"MRR {result['mrr']:.3f}  [{pairs}]  p50 {result['p50_ms']} ms p95 {result['p95_ms']} ms"
        )

    for strategy in ("hybrid", "vector", "fulltext"):
        search(
            org_id,
            questions[0],
            k=5,
            strategy=strategy,
            pool=pool,
            embedder=embedder,
            query_vector=vectors[questions[0]],
        )  # warm
        result = evaluate(
            org_id,
            items,
            k=5,
            strategy=strategy,
            pool=pool,
            embedder=embedder,
            search_fn=lambda q, k, s=strategy: [
                h.document_title
                for h in search(
                    org_id,
                    q,
                    k=k,
                    strategy=s,
                    pool=pool,
                    embedder=embedder,
                    query_vector=None if s == "fulltext" else vectors[q],
                )
            ],
        )
        report(f"{strategy} (no embedding)", result)

    embeddings._embed_query_cached.cache_clear()
    with_embedding = []
    for question in questions:
        started = time.perf_counter()
        search(org_id, question, k=5, pool=pool, embedder=embedder)
        with_embedding.append((time.perf_counter() - started) * 1000)
    print(f"  hybrid with query embedding    {percentiles(with_embedding)}")

    with pool.connection() as conn:
        rows = conn.execute(
            "SELECT c.id, d.title, c.embedding, c.ts_config::text FROM document_chunks c JOIN documents d"
            " ON d.id = c.document_id WHERE c.org_id = %s",
            (org_id,),
        ).fetchall()
    ids = [row[0] for row in rows]
    titles = [row[1] for row in rows]
    matrix = np.vstack([row[2] for row in rows]).astype(np.float32)
    configs = np.array([row[3] for row in rows])
    exact_ms, recalls, group_recalls = [], [], []
    for question in questions:
        vector = vectors[question]
        started = time.perf_counter()
        scores = matrix @ vector
        top = np.argpartition(-scores, 10)[:10]
        top = top[np.argsort(-scores[top])]
        exact_ms.append((time.perf_counter() - started) * 1000)
        with pool.connection() as conn:
            chunk_store.iterative_scan(conn, 40)  # the settings search() uses for its 40 candidates
            hnsw = [
                r[0]
                for r in conn.execute(
                    "SELECT id FROM document_chunks WHERE org_id = %s ORDER BY embedding <=> %s LIMIT 10",
                    (org_id, vector),
                ).fetchall()
            ]
        recalls.append(len(set(hnsw) & {ids[i] for i in top}) / 10)
        for config in ("spanish", "english"):  # the per-language scans hybrid runs (partial indexes)
            members = np.flatnonzero(configs == config)
            exact_group = {ids[i] for i in members[np.argsort(-scores[members])[:10]]}
            with pool.connection() as conn:
                chunk_store.iterative_scan(conn, 40)
                found = [
                    r[0]
                    for r in conn.execute(
                        f"SELECT id FROM document_chunks WHERE org_id = %s AND ts_config = '{config}'::regconfig"
                        " ORDER BY embedding <=> %s LIMIT 10",
                        (org_id, vector),
                    ).fetchall()
                ]
            group_recalls.append(len(set(found) & exact_group) / 10)
    print(f"  HNSW recall@10 vs exact        {np.mean(recalls):.3f} (min {np.min(recalls):.1f}; whole index)")
    print(f"  HNSW recall@10, per language   {np.mean(group_recalls):.3f} (min {np.min(group_recalls):.1f})")
    print(f"  exact numpy (in memory)        {percentiles(exact_ms)}")
    report(
        "exact numpy raw cosine",
        evaluate(
            org_id,
            items,
            k=5,
            pool=pool,
            embedder=embedder,
            search_fn=lambda q, k: [titles[i] for i in np.argsort(-(matrix @ vectors[q]))[:k]],
        ),
    )

    with pool.connection() as conn:
        by_id = {
            str(doc_id): title
            for doc_id, title in conn.execute("SELECT id, title FROM documents WHERE org_id = %s", (org_id,)).fetchall()
        }
    store = pgvector_store(url, embedder=embedder, k=5)
    only_org = {"org_id": str(org_id)}

    def store_similarity(question: str, k: int) -> list[str]:
        found = store.similarity_search_by_vector(vectors[question].tolist(), k=k, filter=only_org)
        return [by_id[str(d.metadata["document_id"])] for d in found]

    def store_hybrid(question: str, k: int) -> list[str]:
        found = store.similarity_search_by_vector(
            vectors[question].tolist(), k=k, filter=only_org, hybrid_search_config=hybrid_search_config(question, k)
        )
        return [by_id[str(d.metadata["document_id"])] for d in found]

    for name, function in (
        ("PGVectorStore similarity", store_similarity),
        ("PGVectorStore hybrid (RRF)", store_hybrid),
    ):
        function(questions[0], 5)  # warm the async engine
        report(name, evaluate(org_id, items, k=5, pool=pool, embedder=embedder, search_fn=function))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=0, help="use only the first N eval questions")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL"):
        os.environ["SKILLNET_DATA_DIR"] = tempfile.mkdtemp(prefix="skillnet-bench-")
        # registered before the embedded server starts, so it runs after the server has stopped
        atexit.register(shutil.rmtree, os.environ["SKILLNET_DATA_DIR"], ignore_errors=True)
    os.environ.setdefault("SKILLNET_EMBED_CACHE", os.path.expanduser("~/.cache/skillnet/embeddings"))
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        os.environ.pop(var, None)
    from agents.retrieval.eval import load
    from storage.db import open_pool

    url = fresh_database()
    pool = open_pool(url)
    items = load(EVAL_FILE)[: args.queries or None]
    org_id = load_demo_documents(pool)
    rng = np.random.default_rng(7)
    random.seed(7)
    with pool.connection() as conn:
        base = conn.execute("SELECT count(*) FROM document_chunks").fetchone()[0]
    print(f"demo corpus: {base} chunks; eval: {len(items)} questions")
    measure(pool, url, org_id, items, base)
    for size in (int(s) for s in args.sizes.split(",") if s):
        grow(pool, org_id, size, rng)
        measure(pool, url, org_id, items, size)
    pool.close()


if __name__ == "__main__":
    main()
