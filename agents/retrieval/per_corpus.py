"""A value derived from an organisation's documents, kept per process until those documents change."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar
from uuid import UUID

T = TypeVar("T")


class PerCorpus(Generic[T]):
    """One value per organisation, computed again only when its corpus signature (storage.corpus) changes: an
    upload, a deletion or a re-ingest. Safe across the tutor's turn threads (two may compute it at once; the
    last one kept)."""

    def __init__(self) -> None:
        self._values: dict[UUID, tuple[Hashable, T]] = {}
        self._lock = threading.Lock()

    def get(self, org_id: UUID, signature: Hashable, compute: Callable[[], T]) -> T:
        with self._lock:
            cached = self._values.get(org_id)
        if cached is not None and cached[0] == signature:
            return cached[1]
        value = compute()
        with self._lock:
            self._values[org_id] = (signature, value)
        return value
