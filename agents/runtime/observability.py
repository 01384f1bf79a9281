"""What every model call leaves behind: one JSON log line, and token counts that never need a network.

LangSmith tracing is LangChain's own: it switches on from the environment (LANGCHAIN_TRACING_V2 plus
its key) and nothing here turns it on or off, so without those variables no trace leaves the machine.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import tempfile
import threading

from core import config

logger = logging.getLogger("skillnet.llm")

_encodings: dict[str, object] = {}
_loading: dict[str, threading.Thread] = {}
_lock = threading.Lock()


def log_call(
    *,
    role: str,
    model: str,
    engine: str,
    outcome: str,
    latency_ms: float,
    tokens_in: int = 0,
    tokens_out: int = 0,
    attempts: int = 1,
    **extra,
) -> None:
    """One structured line per model call (or per offline answer standing in for one)."""
    record = {
        "event": "llm_call",
        "role": role,
        "model": model,
        "engine": engine,
        "outcome": outcome,
        "tokens_in": tokens_in,
        "tokens_out": tokens_out,
        "latency_ms": round(latency_ms, 1),
        "attempts": attempts,
        **extra,
    }
    logger.info(json.dumps(record, ensure_ascii=False, default=str))
    from agents.runtime.metrics import record_model_call  # lazily: prometheus registration happens once

    record_model_call(
        role=role, engine=engine, outcome=outcome, latency_ms=latency_ms, tokens_in=tokens_in, tokens_out=tokens_out
    )


def _load_encoding(name: str) -> None:
    try:
        import tiktoken

        encoding = tiktoken.get_encoding(name)
    except Exception:  # no cached file and no network: the estimate stays in use
        return
    _encodings[name] = encoding


def _cached_locally(name: str) -> bool:
    """Whether tiktoken would read ``name`` from its cache (the same path rule as tiktoken.load)."""
    folder = config.get("TIKTOKEN_CACHE_DIR") or os.path.join(tempfile.gettempdir(), "data-gym-cache")
    blob = f"https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"
    return os.path.exists(os.path.join(folder, hashlib.sha1(blob.encode()).hexdigest()))


def _encoding_for(model: str | None):
    """tiktoken's encoding for a known model, if its file is cached (or downloads within a second).

    tiktoken fetches encoding files from the internet on first use; a machine without it must not
    hang or crash, so a download is tried only with a hosted model configured, in a daemon thread
    that callers wait for at most once, briefly.
    """
    if not model:
        return None
    try:
        import tiktoken

        name = tiktoken.encoding_name_for_model(model.split("/")[-1])
    except Exception:  # an unknown (local) model: estimate
        return None
    if name in _encodings:
        return _encodings[name]
    if not (_cached_locally(name) or config.get("OPENAI_API_KEY")):
        return None  # no file here and no hosted model to suggest the internet is reachable
    with _lock:
        thread = _loading.get(name)
        first = thread is None
        if thread is None:
            thread = threading.Thread(target=_load_encoding, args=(name,), daemon=True)
            _loading[name] = thread
            thread.start()
    if first:
        thread.join(timeout=1.0)
    return _encodings.get(name)


def estimate_tokens(text: str) -> int:
    """About four UTF-8 bytes a token: close for English, and accented or Vietnamese text counts more."""
    return math.ceil(len(text.encode("utf-8")) / 4) if text else 0


def count_tokens(text: str, model: str | None = None) -> int:
    """Tokens in ``text`` for ``model`` (tiktoken when the model and its encoding are known)."""
    if not text:
        return 0
    encoding = _encoding_for(model)
    if encoding is None:
        return estimate_tokens(text)
    return len(encoding.encode(text, disallowed_special=()))
