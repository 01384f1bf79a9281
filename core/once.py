"""``@built_once``: a costly thing (a model, a pool) built once per process, however many threads ask at once.

``functools.cache`` alone lets threads that miss together each build their own: 20 chats reaching a fresh
server each loaded the language model, and a worker's job threads each opened a checkpointer pool.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Once(Generic[T]):
    """What ``built_once`` returns: call it for the thing; ``cache_clear``/``cache_info`` as functools.cache's."""

    def __init__(self, build: Callable[[], T]) -> None:
        self._cached = functools.cache(build)
        self._lock = threading.Lock()
        self.cache_clear, self.cache_info = self._cached.cache_clear, self._cached.cache_info
        functools.update_wrapper(self, build)

    def __call__(self) -> T:
        with self._lock:
            return self._cached()


def built_once(build: Callable[[], T]) -> Once[T]:
    """``build()`` runs once, under a lock of its own."""
    return Once(build)
