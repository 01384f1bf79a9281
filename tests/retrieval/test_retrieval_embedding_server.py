"""EMBEDDINGS_BASE_URL: passages and queries go to an OpenAI-compatible embedding server, batched and
retried, independently of the chat model; the bundled model is used when it is unset."""

from __future__ import annotations

import numpy as np
import pytest

from agents.ingestion import embeddings
from agents.ingestion.embeddings import EmbeddingError, embed_passages, embed_query, embedding_calls


@pytest.fixture
def embedding_server(fake_openai, monkeypatch, tmp_path):
    monkeypatch.delenv("OPENAI_BASE_URL")  # the chat model is configured elsewhere (or not at all)
    monkeypatch.setenv("EMBEDDINGS_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("EMBEDDINGS_MODEL", "multilingual-e5-small")
    monkeypatch.setenv("EMBEDDINGS_API_KEY", "emb-key")
    monkeypatch.setenv("EMBEDDINGS_BATCH", "4")
    monkeypatch.setenv("SKILLNET_EMBED_CACHE", str(tmp_path / "cache"))
    embeddings._remote_client.cache_clear()
    yield fake_openai
    embeddings._remote_client.cache_clear()


def test_passages_go_to_the_server_in_batches_with_the_e5_modality(embedding_server):
    texts = [f"passage number {i}" for i in range(10)]
    vectors = embed_passages(texts)
    sent = embedding_server.embedding_requests
    assert [len(request["input"]) for request in sent] == [4, 4, 2]
    assert {request["model"] for request in sent} == {"multilingual-e5-small"}
    assert {request["input_type"] for request in sent} == {"passage"} and "dimensions" not in sent[0]
    assert vectors.shape == (10, 384) and np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    assert embeddings.model_version() == "remote:multilingual-e5-small"


def test_a_query_is_one_request_marked_as_a_query(embedding_server):
    vector = embed_query("how many holidays do I have (server test)")
    assert vector.shape == (384,)
    assert embedding_server.embedding_requests[-1]["input_type"] == "query"


def test_5xx_and_429_are_retried_and_the_batch_still_lands(embedding_server):
    embedding_server.embedding_fault(503).embedding_fault(429)
    before = embedding_calls()["passages"]
    vectors = embed_passages(["retried passage one", "retried passage two"])
    assert vectors.shape == (2, 384)
    assert len(embedding_server.embedding_requests) == 3
    assert embedding_calls()["passages"] == before + 2  # counted once, however often it was retried


def test_a_server_that_keeps_failing_raises_one_line(embedding_server, monkeypatch):
    monkeypatch.setenv("EMBEDDINGS_RETRY_ATTEMPTS", "2")
    embedding_server.embedding_fault(500, times=2)
    with pytest.raises(EmbeddingError, match="the embedding server failed") as failure:
        embed_passages(["never embedded"])
    assert "\n" not in str(failure.value)
    assert isinstance(failure.value, embeddings.EmbeddingUnavailable)  # a queued upload waits for it
    embedding_server.embedding_fault(400)
    with pytest.raises(EmbeddingError) as refused:  # a bad request is not retried
        embed_passages(["bad request"])
    assert not isinstance(refused.value, embeddings.EmbeddingUnavailable)  # nor waited for
    assert len(embedding_server.embedding_requests) == 3


def test_without_a_server_the_bundled_model_embeds(monkeypatch):
    monkeypatch.delenv("EMBEDDINGS_BASE_URL", raising=False)
    assert embeddings.backend() == "local" and embeddings.model_version().startswith("local:")
