"""Helpers for the untrusted-input tests: row counts that must not move, a stopwatch, the semantic judge."""

from __future__ import annotations

import time
from contextlib import contextmanager

import pytest

from agents.ingestion import semantic_check
from core import instructions
from storage import users

# Content tables; rate_limit_hits is left out on purpose: a refused request still counts towards its limit.
TABLES = (
    "chat_sessions",
    "chat_messages",
    "helpdesk_sessions",
    "tickets",
    "documents",
    "document_chunks",
    "audit_log",
    "admin_pending_actions",
    "lessons",
    "flagged_passages",
)


def row_counts(pool) -> dict[str, int]:
    with pool.connection() as conn:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}


@contextmanager
def within(seconds: float):
    """Fails the test when the block takes longer than ``seconds``."""
    started = time.perf_counter()
    yield
    took = time.perf_counter() - started
    assert took < seconds, f"took {took:.2f} s (bound {seconds} s)"


@pytest.fixture(scope="module")
def people(seeded_pool):
    with seeded_pool.connection() as conn:
        return {key: users.get_user_by_email(conn, f"{key}@acme.test") for key in ("lucia", "james", "admin")}


@pytest.fixture(scope="module")
def judge() -> instructions.SecondOpinion:
    """The semantic check ingestion asks (agents/ingestion/semantic_check.py), on the bundled embeddings."""
    check = semantic_check.second_opinion()
    assert check is not None, "the semantic check's weights do not fit the bundled embeddings"
    return check
