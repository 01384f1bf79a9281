"""The demo's passage vectors ship with the seeds: a first start embeds nothing, a stale pack is ignored."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.ingestion import embeddings
from agents.ingestion.embeddings import VectorPack, embedding_calls
from agents.ingestion.pipeline import ingest_file, passage_texts
from seeds.loader import VECTORS, document_paths, load_demo
from storage.users import ensure_org


@pytest.fixture
def no_cache(tmp_path, monkeypatch):
    """An empty vector cache, so only the shipped pack can spare an embedding call."""
    monkeypatch.setenv("SKILLNET_EMBED_CACHE", str(tmp_path / "cache"))


def test_loading_the_demo_into_an_empty_database_embeds_nothing(pool, app_deps, no_cache):
    """Neither passages nor queries (issue 20: the first start makes no embedding call at all)."""
    embeddings._embed_query_cached.cache_clear()  # a query an earlier test embedded must count here too
    before = embedding_calls()
    summary = load_demo(pool, embedder=app_deps)
    assert summary["counts"]["document_chunks"] > 50 and summary["counts"]["tickets"] > 0
    assert embedding_calls() == before


def test_the_shipped_pack_holds_every_demo_passage_for_this_model():
    pack = VectorPack.load(VECTORS)
    assert pack is not None
    texts = [text for path in document_paths() for text in passage_texts(path)]
    assert all(pack.get(text) is not None for text in texts)


def _rewrite(source, target, **changes):
    with np.load(source) as data:
        parts = {name: data[name] for name in data.files}
    meta = json.loads(str(parts["meta"]))
    meta.update(changes.pop("meta", {}))
    parts.update(changes, meta=np.array(json.dumps(meta)))
    np.savez(target, **parts)


def test_a_pack_for_another_model_or_with_altered_vectors_is_ignored(tmp_path):
    other_model = tmp_path / "other.npz"
    _rewrite(VECTORS, other_model, meta={"model": "remote:some-other-model"})
    assert VectorPack.load(other_model) is None
    with np.load(VECTORS) as data:
        altered = data["vectors"].copy()
    altered[0] = altered[1]
    tampered = tmp_path / "tampered.npz"
    _rewrite(VECTORS, tampered, vectors=altered)
    assert VectorPack.load(tampered) is None
    assert VectorPack.load(tmp_path / "missing.npz") is None


def test_only_the_passages_the_pack_lacks_are_embedded(pool, no_cache, tmp_path):
    path = document_paths()[0]
    texts = passage_texts(path)
    known = VectorPack(
        {
            embeddings.text_hash(text): vector
            for text, vector in zip(texts[1:], VectorPack.load(VECTORS).vectors.values())
        }
    )
    with pool.connection() as conn:
        org = ensure_org(conn, "pack-partial")
    before = embedding_calls()["passages"]
    ingest_file(pool, org.id, path, known_vectors=known)
    assert embedding_calls()["passages"] == before + 1
