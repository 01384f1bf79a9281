"""Writes used only by the demo loader (seeds/): skills, the matrix, backdated learning history and
seed tickets. Every statement is org-scoped and idempotent, so loading the demo twice changes nothing.
Course rows go through storage.courses, lessons and exercises like any other course.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from uuid import UUID

import numpy as np
import psycopg
from psycopg.types.json import Jsonb

# Tables counted for `python -m seeds --json` (all org-scoped).
COUNTED_TABLES = ("users", "skill_categories", "skills", "user_skills", "documents", "document_chunks",
                  "courses", "course_documents", "course_skills", "modules", "lessons", "exercises",
                  "enrollments", "lesson_completions", "exercise_attempts", "review_cards", "tickets")


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
    return conn.execute("SELECT EXISTS (SELECT 1 FROM organizations)").fetchone()[0]


def delete_org(conn: psycopg.Connection, slug: str) -> bool:
    """Delete the organisation and, by cascade, everything it owns."""
    return conn.execute("DELETE FROM organizations WHERE slug = %(slug)s", {"slug": slug}).rowcount == 1


def table_counts(conn: psycopg.Connection, org_id: UUID) -> dict[str, int]:
    # Table names come from the constant above, never from input.
    return {table: conn.execute(f"SELECT count(*) FROM {table} WHERE org_id = %(org_id)s",
                                {"org_id": org_id}).fetchone()[0]
            for table in COUNTED_TABLES}


def ensure_user(conn: psycopg.Connection, org_id: UUID, *, email: str, full_name: str, role: str,
                password_hash: str, department: str, job_title: str, language: str, is_active: bool) -> UUID:
    """Create the user unless the email exists (a reload keeps later edits, such as a deactivation).

    Takes a ready hash: the demo's accounts share two passwords, so each is hashed once per load.
    """
    conn.execute(
        """INSERT INTO users (org_id, email, full_name, role, password_hash, department, job_title, language,
                              is_active)
           VALUES (%(org_id)s, %(email)s, %(full_name)s, %(role)s, %(hash)s, %(department)s, %(job_title)s,
                   %(language)s, %(is_active)s)
           ON CONFLICT (email) DO NOTHING""",
        {"org_id": org_id, "email": email, "full_name": full_name, "role": role, "hash": password_hash,
         "department": department, "job_title": job_title, "language": language, "is_active": is_active})
    row = conn.execute("SELECT id FROM users WHERE org_id = %(org_id)s AND email = %(email)s",
                       {"org_id": org_id, "email": email}).fetchone()
    if row is None:
        raise ValueError(f"{email} belongs to another organisation")
    return row[0]


def ensure_skill(conn: psycopg.Connection, org_id: UUID, *, category: str, name: str, description: str,
                 names: dict[str, str], category_names: dict[str, str]) -> UUID:
    """The skill (and its category), with their names per language."""
    conn.execute("INSERT INTO skill_categories (org_id, name, names) VALUES (%(org_id)s, %(name)s, %(names)s)"
                 " ON CONFLICT (org_id, name) DO UPDATE SET names = EXCLUDED.names",
                 {"org_id": org_id, "name": category, "names": Jsonb(category_names)})
    return conn.execute(
        """INSERT INTO skills (org_id, category_id, name, description, names)
           SELECT %(org_id)s, id, %(name)s, %(description)s, %(names)s FROM skill_categories
           WHERE org_id = %(org_id)s AND name = %(category)s
           ON CONFLICT (org_id, name) DO UPDATE SET description = EXCLUDED.description,
               category_id = EXCLUDED.category_id, names = EXCLUDED.names
           RETURNING id""",
        {"org_id": org_id, "name": name, "description": description, "category": category,
         "names": Jsonb(names)}).fetchone()[0]


def ensure_user_skill(conn: psycopg.Connection, org_id: UUID, user_id: UUID, skill_id: UUID, *, level: str,
                      source: str, verified_by: UUID | None, assessed_at: datetime) -> None:
    """Record the level unless the person already has one (a demo never overwrites later assessments)."""
    conn.execute(
        """INSERT INTO user_skills (org_id, user_id, skill_id, level, source, verified_by, last_assessed_at)
           SELECT %(org_id)s, u.id, s.id, %(level)s, %(source)s, %(verified_by)s, %(assessed_at)s
           FROM users u JOIN skills s ON s.org_id = u.org_id
           WHERE u.org_id = %(org_id)s AND u.id = %(user_id)s AND s.id = %(skill_id)s
           ON CONFLICT (user_id, skill_id) DO NOTHING""",
        {"org_id": org_id, "user_id": user_id, "skill_id": skill_id, "level": level, "source": source,
         "verified_by": verified_by, "assessed_at": assessed_at})


def seed_ticket_keys(conn: psycopg.Connection, org_id: UUID) -> set[str]:
    return {row[0] for row in conn.execute(
        "SELECT idempotency_key FROM tickets WHERE org_id = %(org_id)s AND source = 'seed'", {"org_id": org_id})}


def add_seed_ticket(conn: psycopg.Connection, org_id: UUID, *, key: str, title: str, body: str, status: str,
                    severity: str, category: str, resolution: str | None, created_by: UUID | None,
                    created_at: datetime, closed_at: datetime | None, embedding: np.ndarray) -> None:
    conn.execute(
        """INSERT INTO tickets (org_id, title, body, status, severity, category, resolution, created_by,
                                source, idempotency_key, embedding, created_at, updated_at, closed_at)
           VALUES (%(org_id)s, %(title)s, %(body)s, %(status)s, %(severity)s, %(category)s, %(resolution)s,
                   %(created_by)s, 'seed', %(key)s, %(embedding)s, %(created_at)s,
                   coalesce(%(closed_at)s, %(created_at)s), %(closed_at)s)
           ON CONFLICT (idempotency_key) DO NOTHING""",
        {"org_id": org_id, "title": title, "body": body, "status": status, "severity": severity,
         "category": category, "resolution": resolution, "created_by": created_by, "key": key,
         "embedding": embedding, "created_at": created_at, "closed_at": closed_at})


