"""Insights test helpers: the demo admin and learners."""

from __future__ import annotations

import pytest

from storage import users


def person(pool, email: str) -> users.User:
    with pool.connection() as conn:
        return users.get_user_by_email(conn, email)


@pytest.fixture(scope="module")
def admin(seeded_pool):
    return person(seeded_pool, "admin@acme.test")


@pytest.fixture(scope="module")
def admin_en(seeded_pool):
    return person(seeded_pool, "oliver@acme.test")
