"""``@built_once``: a costly thing (a model, a pool) built once per process, however many threads ask at once.

``functools.cache`` alone lets threads that miss together each build their own: 20 chats reaching a fresh
server each loaded the language model, and a worker's job threads each opened a checkpointer pool.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def built_once(build: Callable[[], T]) -> Callable[[], T]:
    """``build()`` runs once, under a lock of its own; ``cache_clear``/``cache_info`` as functools.cache's."""
    cached = functools.cache(build)
    lock = threading.Lock()

    @functools.wraps(build)
    def get() -> T:
        with lock:
            return cached()

    get.cache_clear, get.cache_info = cached.cache_clear, cached.cache_info
    return get
