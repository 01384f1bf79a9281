"""AppDeps: what services need from the process — the database pool, the graph checkpointer, the model,
the embedder, the clock and the configuration — built once where a process starts and passed down.

Services take ``(deps, user, …)`` and never reach for a global pool or model, so a test hands them its
own database, model and clock through the same seam production uses. Only this module calls
``app_pool()``, ``checkpointer()`` and ``get_llm()`` (tests/test_deps.py checks).

Where it is built: ``ui/deps.py`` (Streamlit pages, ``st.cache_resource``), ``chat.py`` (the Gradio chat),
each CLI's ``main`` and the content worker (``process_deps()``); tests build theirs in tests/conftest.py.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import ModuleType
from typing import TYPE_CHECKING, Protocol

import numpy as np
from psycopg_pool import ConnectionPool

from agents.ingestion import embeddings
from core import config
from storage import db

if TYPE_CHECKING:
    from agents.llm import LLM


def _process_llm() -> LLM:
    """The process-wide model, imported on first use: the model client pulls in LangChain and the OpenAI SDK
    (seconds), and a process's first page, the sign-in form, needs neither (issue 32's restart in 5 s)."""
    from agents.llm import get_llm

    return get_llm()


class Embedder(Hashable, Protocol):
    """What retrieval embeds through: AppDeps is one (its embed_query and embed_passages), so a service hands
    its ``deps`` down and a test its own. Hashable: the answer check keeps its rankings per embedder."""

    def embed_query(self, text: str, /) -> np.ndarray: ...

    def embed_queries(self, texts: list[str], /) -> np.ndarray: ...

    def embed_passages(
        self, texts: list[str], /, batch_size: int | None = None, known: embeddings.VectorPack | None = None
    ) -> np.ndarray: ...


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class AppDeps:
    pool: ConnectionPool
    llm: LLM
    # a factory: a process that runs no graph (the learning CLI, dashboards) never opens the saver's pool
    checkpointer_factory: Callable[[], object] = field(default=db.checkpointer, repr=False)
    clock: Callable[[], datetime] = utc_now
    embed_query: Callable[[str], np.ndarray] = embeddings.embed_query
    embed_queries: Callable[[list[str]], np.ndarray] = embeddings.embed_queries
    embed_passages: Callable[..., np.ndarray] = embeddings.embed_passages
    config: ModuleType = config

    @property
    def checkpointer(self):
        """The LangGraph saver (PostgresSaver on its own autocommit pool), opened on first use."""
        return self.checkpointer_factory()

    def now(self) -> datetime:
        return self.clock()

    def is_current(self) -> bool:
        """Still the process's pool and model (tests point DATABASE_URL or the model elsewhere, then reset them)."""
        return self.pool is db.app_pool() and self.llm is _process_llm()


_lock = threading.Lock()
_current: AppDeps | None = None


def process_model() -> LLM:
    """The process's model alone, for a command that opens no database (the helpdesk's scenario eval)."""
    return _process_llm()


def process_embedder() -> Embedder:
    """The process's embedder alone, for a command that opens no database (the helpdesk's duplicates eval)."""
    return embeddings


def process_deps() -> AppDeps:
    """The process's AppDeps from the environment (database migrated, configuration checked).

    Built once; rebuilt only when the process-wide pool or model was reset (tests do, between modules)."""
    global _current
    with _lock:
        if _current is None or not _current.is_current():
            _current = AppDeps(pool=db.app_pool(), llm=_process_llm())
        return _current
