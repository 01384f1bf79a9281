"""What the pipeline's nodes depend on (pool, model, embedder, concurrency), passed as LangGraph's run context."""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from psycopg_pool import ConnectionPool

from agents.llm import LLM
from storage import jobs

if TYPE_CHECKING:
    from agents.runtime.deps import Embedder

log = logging.getLogger(__name__)
MAX_CONCURRENT_LLM_CALLS = 3  # spec 004 §10
MAX_REFINEMENT_CYCLES = 2


@dataclass
class ContentContext:
    pool: ConnectionPool
    llm: LLM
    embedder: Embedder  # the worker's AppDeps: the modules' supplemental search embeds through it
    model_calls: threading.BoundedSemaphore = field(
        default_factory=lambda: threading.BoundedSemaphore(MAX_CONCURRENT_LLM_CALLS)
    )

    def event(self, state: Mapping[str, Any], event_type: str, data: dict) -> None:
        with self.pool.connection() as conn:
            jobs.add_event(conn, state["org_id"], state["job_id"], event_type, data)

    def step(self, state: Mapping[str, Any], status: str, step: str) -> None:
        """Move the job to ``status`` (when the lifecycle allows it) and log a step event."""
        org_id, job_id = state["org_id"], state["job_id"]
        with self.pool.connection() as conn:
            job = jobs.get_job(conn, org_id, job_id, lock=True)
            if job is not None and jobs.allowed(job.status, status):
                jobs.set_status(conn, org_id, job_id, status)
            jobs.add_event(conn, org_id, job_id, "step", {"step": step})
