"""LangChain views of retrieval, for notebooks and for the benchmark.

``as_retriever(process_deps(), org)`` is what a notebook user gets: a langchain-core ``BaseRetriever`` around
``search`` (scoped, hybrid, language-centred). We wrap ``search`` rather than serve it through
``PGVectorStore`` because PGVectorStore cannot express it: its full-text side parses the question
with one ``tsv_lang`` for every row (our chunks carry their own ts_config), its dense side is one
``ORDER BY embedding <=> q LIMIT n`` (no per-language candidate groups, no iterative scan for
filtered queries), and its fusion function sees only the two result lists, not the question's
language or vector. ``pgvector_store()`` still exposes the same chunks table as a PGVectorStore —
its own similarity and hybrid search are the peer tests/bench/retrieval.py measures.
"""

from __future__ import annotations

from uuid import UUID

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.retrievers import BaseRetriever
from psycopg.conninfo import conninfo_to_dict

from agents.llm import LLM
from agents.retrieval.search import Scope, search
from agents.runtime.deps import AppDeps, Embedder

CHUNK_METADATA = ["org_id", "document_id", "position", "heading", "page_start"]


class SkillNetRetriever(BaseRetriever):
    """``search`` as a LangChain retriever: Documents with the hit's provenance and scores as metadata."""

    deps: AppDeps
    org: str
    k: int = 5
    scope: Scope | None = None
    strategy: str = "hybrid"

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return [
            Document(
                page_content=hit.content,
                id=str(hit.chunk_id),
                metadata={
                    "chunk_id": str(hit.chunk_id),
                    "document_id": str(hit.document_id),
                    "document_title": hit.document_title,
                    "heading": hit.heading,
                    "page": hit.page,
                    "position": hit.position,
                    "score": hit.score,
                    "scores": hit.scores,
                },
            )
            for hit in search(
                self.org,
                query,
                k=self.k,
                scope=self.scope,
                strategy=self.strategy,
                pool=self.deps.pool,
                embedder=self.deps,
            )
        ]


# AppDeps names its model's type (agents.llm.LLM) for type checkers only, so the sign-in form needn't import the
# model client; pydantic checks the field's type here, where LangChain is imported anyway
SkillNetRetriever.model_rebuild(_types_namespace={"LLM": LLM})


def as_retriever(
    deps: AppDeps, org: UUID | str, *, k: int = 5, scope: Scope | None = None, strategy: str = "hybrid"
) -> SkillNetRetriever:
    """A LangChain retriever over the organisation's documents (``retriever.invoke("question")``)."""
    return SkillNetRetriever(deps=deps, org=str(org), k=k, scope=scope, strategy=strategy)


class E5Embeddings(Embeddings):
    """The product's embeddings (e5 query/passage prefixes) behind LangChain's interface."""

    def __init__(self, embedder: Embedder):
        self.embedder = embedder

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embedder.embed_passages(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.embedder.embed_query(text).tolist()


def async_url(conninfo: str) -> str:
    """A SQLAlchemy async (psycopg 3) URL for a libpq conninfo or URL, unix sockets included.

    The embedded server's ``postgresql://postgres:@/postgres?host=/data/pg`` becomes
    ``postgresql+psycopg://postgres:@/postgres?host=/data/pg``: the socket directory travels as the
    ``host`` query parameter, which psycopg's async connect accepts as it is.
    """
    from sqlalchemy.engine import URL

    params = {key: str(value) for key, value in conninfo_to_dict(conninfo).items() if value is not None}
    host, port = params.pop("host", None), params.pop("port", None)
    query = {key: value for key, value in params.items() if key not in ("user", "password", "dbname")}
    socket = host is not None and host.startswith("/")
    if socket and host:
        query["host"] = host
    return URL.create(
        "postgresql+psycopg",
        username=params.get("user"),
        password=params.get("password") or None,
        host=None if socket else host,
        port=int(port) if port and not socket else None,
        database=params.get("dbname"),
        query=query,
    ).render_as_string(hide_password=False)


def pgvector_store(conninfo: str, *, embedder: Embedder, k: int = 5):
    """The chunks table as langchain-postgres's PGVectorStore (its own similarity search), its questions
    embedded by ``embedder`` (an AppDeps)."""
    from langchain_postgres import PGEngine, PGVectorStore

    engine = PGEngine.from_connection_string(url=async_url(conninfo))
    return PGVectorStore.create_sync(
        engine=engine,
        embedding_service=E5Embeddings(embedder),
        table_name="document_chunks",
        id_column="id",
        content_column="content",
        embedding_column="embedding",
        metadata_columns=CHUNK_METADATA,
        metadata_json_column=None,  # type: ignore[arg-type]  # the store takes Optional[str]; its sync wrapper says str
        k=k,
    )


def hybrid_search_config(question: str, k: int = 5, tsv_lang: str = "pg_catalog.simple"):
    """PGVectorStore's own hybrid search (RRF over dense + ts_rank_cd on our tsv column) for one question.

    Built per question on purpose: langchain-postgres 0.0.19 writes the first question into a
    store-wide config's ``fts_query`` and reuses it for every later question.
    """
    from langchain_postgres.v2.hybrid_search_config import HybridSearchConfig, reciprocal_rank_fusion

    return HybridSearchConfig(
        tsv_column="tsv",
        tsv_lang=tsv_lang,
        fts_query=question,
        fusion_function=reciprocal_rank_fusion,
        fusion_function_parameters={},
        primary_top_k=max(20, 4 * k),
        secondary_top_k=max(20, 4 * k),
    )
