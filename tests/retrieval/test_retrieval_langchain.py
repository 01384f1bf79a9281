"""LangChain views: the notebook retriever wraps search; the chunks table opens as a PGVectorStore."""

from __future__ import annotations

from agents.retrieval import Scope
from agents.retrieval.langchain_retriever import as_retriever, async_url, pgvector_store


def test_as_retriever_returns_documents_with_provenance(seeded_db_url, seeded_deps, demo):
    doc = demo.documents["Returns and Refunds Policy"]
    documents = as_retriever(seeded_deps, "acme", k=3, scope=Scope(document_ids=[doc])).invoke(
        "opened electronics return period"
    )
    assert len(documents) == 3
    assert {d.metadata["document_title"] for d in documents} == {"Returns and Refunds Policy"}
    assert "14 days" in documents[0].page_content and documents[0].metadata["score"] > 0


def test_async_url_keeps_unix_sockets_and_tcp():
    assert (
        async_url("postgresql://postgres:@/postgres?host=/data/pg")
        == "postgresql+psycopg://postgres@/postgres?host=%2Fdata%2Fpg"
    )
    assert async_url("host=db port=5433 dbname=x user=u password=p") == "postgresql+psycopg://u:p@db:5433/x"


def test_pgvector_store_reads_our_chunks_table(seeded_db_url, seeded_deps, demo):
    store = pgvector_store(seeded_db_url, embedder=seeded_deps, k=2)
    found = store.similarity_search("minimum password length", k=2, filter={"org_id": str(demo.org_id)})
    assert len(found) == 2 and found[0].metadata["document_id"] == demo.documents["Information Security Policy"]
