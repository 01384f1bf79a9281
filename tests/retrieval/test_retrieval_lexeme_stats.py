"""BM25's lexical statistics (migrations 090, 171) stay equal to a recount of the chunks whatever writes
them, and a write that leaves the text alone (a vector stored, staged chunks settled) takes no lexeme lock:
two documents ingested at once had deadlocked on their shared lexemes."""

import psycopg
import pytest

RECOUNT = """SELECT c.org_id, c.ts_config::text, u.lexeme, count(*) FROM document_chunks c, unnest(c.tsv) u
             GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"""
STATS = "SELECT org_id, ts_config::text, lexeme, chunks FROM lexeme_stats WHERE chunks > 0 ORDER BY 1, 2, 3"
CORPUS = "SELECT org_id, ts_config::text, chunks, lexemes FROM lexeme_corpus WHERE chunks > 0 ORDER BY 1, 2"
CORPUS_RECOUNT = """SELECT org_id, ts_config::text, count(*), sum(length(tsv)) FROM document_chunks
                    GROUP BY 1, 2 ORDER BY 1, 2"""


def consistent(conn) -> bool:
    return (
        conn.execute(STATS).fetchall() == conn.execute(RECOUNT).fetchall()
        and conn.execute(CORPUS).fetchall() == conn.execute(CORPUS_RECOUNT).fetchall()
    )


@pytest.fixture
def two_chunks_of_two_documents(seeded_pool):
    """One chunk of each of two documents of the same organisation and language (they share lexemes)."""
    with seeded_pool.connection() as conn:
        rows = conn.execute("""SELECT DISTINCT ON (document_id) id FROM document_chunks c
                               WHERE ts_config = 'english'::regconfig
                                 AND org_id = (SELECT org_id FROM document_chunks LIMIT 1)
                               ORDER BY document_id, position LIMIT 2""").fetchall()
    assert len(rows) == 2
    return [row[0] for row in rows]


def test_text_edits_and_deletes_keep_the_statistics_equal_to_a_recount(seeded_pool, two_chunks_of_two_documents):
    first, second = two_chunks_of_two_documents
    with seeded_pool.connection() as conn:
        assert consistent(conn)
        conn.execute("UPDATE document_chunks SET content = content || ' forklift zeppelin' WHERE id = %s", (first,))
        assert consistent(conn)
        conn.execute("UPDATE document_chunks SET ts_config = 'simple' WHERE id = %s", (second,))
        assert consistent(conn)
        conn.execute("DELETE FROM document_chunks WHERE id = %s", (second,))
        assert consistent(conn)
        conn.rollback()


def test_storing_a_vector_takes_no_lexeme_lock(seeded_db_url, two_chunks_of_two_documents):
    first, second = two_chunks_of_two_documents
    with psycopg.connect(seeded_db_url) as one, psycopg.connect(seeded_db_url) as other:
        before = one.execute(STATS).fetchall()
        one.execute("UPDATE document_chunks SET embedding = embedding, ingestion_id = NULL WHERE id = %s", (first,))
        other.execute("SET lock_timeout = '3s'")  # the old triggers waited here on the first one's lexemes
        other.execute("UPDATE document_chunks SET embedding = embedding, ingestion_id = NULL WHERE id = %s", (second,))
        assert one.execute(STATS).fetchall() == before
        other.rollback()
        one.rollback()
