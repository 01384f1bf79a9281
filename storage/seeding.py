"""The demo loader's own plumbing (seeds/): one load at a time, "is anything loaded", deleting the
demo organisation and counting what it holds. The rows themselves go through the table modules
(users, skills, courses, lessons, exercises, enrollments, attempts, reviews, tickets), whose demo
writes are idempotent, so loading the demo twice changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from uuid import UUID

import psycopg

from storage.rows import scalar

# Tables counted for `python -m seeds --json` (all org-scoped).
COUNTED_TABLES = (
    "users",
    "skill_categories",
    "skills",
    "user_skills",
    "documents",
    "document_chunks",
    "courses",
    "course_documents",
    "course_skills",
    "modules",
    "lessons",
    "exercises",
    "enrollments",
    "lesson_completions",
    "exercise_attempts",
    "review_cards",
    "tickets",
)


DEMO_LOCK_KEY = 7_305_416_222  # pg_advisory_lock key: one demo load at a time


@contextmanager
def exclusive_load(conn: psycopg.Connection) -> Iterator[None]:
    """Hold a session lock while loading, so two processes starting on an empty database load once."""
    conn.execute("SELECT pg_advisory_lock(%(key)s)", {"key": DEMO_LOCK_KEY})
    try:
        yield
    finally:
        conn.execute("SELECT pg_advisory_unlock(%(key)s)", {"key": DEMO_LOCK_KEY})


def any_organization(conn: psycopg.Connection) -> bool:
    return scalar(conn, "SELECT EXISTS (SELECT 1 FROM organizations)")


def delete_org(conn: psycopg.Connection, slug: str) -> bool:
    """Delete the organisation and, by cascade, everything it owns."""
    return conn.execute("DELETE FROM organizations WHERE slug = %(slug)s", {"slug": slug}).rowcount == 1


def table_counts(conn: psycopg.Connection, org_id: UUID) -> dict[str, int]:
    # Table names come from the constant above, never from input.
    return {
        table: scalar(conn, f"SELECT count(*) FROM {table} WHERE org_id = %(org_id)s", {"org_id": org_id})
        for table in COUNTED_TABLES
    }
