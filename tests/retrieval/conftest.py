"""The demo organisation (six documents, five courses) for the retrieval tests."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import pytest

from storage.users import get_org_by_slug, get_user_by_email


@dataclass(frozen=True)
class Demo:
    org_id: UUID
    documents: dict[str, UUID]  # title -> id
    courses: dict[str, UUID]  # title -> id
    lucia: UUID
    admin: UUID


@pytest.fixture(scope="module")
def demo(seeded_pool) -> Demo:
    with seeded_pool.connection() as conn:
        org = get_org_by_slug(conn, "acme")
        documents = dict(conn.execute("SELECT title, id FROM documents WHERE org_id = %s", (org.id,)).fetchall())
        courses = dict(conn.execute("SELECT title, id FROM courses WHERE org_id = %s", (org.id,)).fetchall())
        lucia = get_user_by_email(conn, "lucia@acme.test")
        admin = get_user_by_email(conn, "admin@acme.test")
    return Demo(org.id, documents, courses, lucia.id, admin.id)
