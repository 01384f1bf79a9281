"""Admin test helpers: the demo admin and employees, a graph on an in-memory checkpointer, one turn."""
from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from agents.admin import service
from agents.admin.graph import build_graph
from storage import users


def _user(pool, email: str) -> users.User:
    with pool.connection() as conn:
        return users.get_user_by_email(conn, email)


@pytest.fixture(scope="module")
def admin(seeded_pool):
    return _user(seeded_pool, "admin@acme.test")


@pytest.fixture(scope="module")
def lucia(seeded_pool):
    return _user(seeded_pool, "lucia@acme.test")


@pytest.fixture(scope="module")
def james(seeded_pool):
    return _user(seeded_pool, "james@acme.test")


@pytest.fixture(scope="module")
def graph():
    return build_graph(InMemorySaver())


@pytest.fixture
def turn(admin, graph):
    """turn(message, session=None, confirm=None, cancel=False, user=admin, **ask options) -> AdminReply."""
    def run(message: str = "", session: str | None = None, *, confirm: str | None = None, cancel: bool = False,
            user=None, **options):
        return service.ask(user or admin, message, session_id=session, confirm=confirm, cancel=cancel, graph=graph,
                           **options)
    return run


def audit_count(pool, action: str | None = None) -> int:
    with pool.connection() as conn:
        return conn.execute("SELECT count(*) FROM audit_log WHERE %(a)s::text IS NULL OR action = %(a)s",
                            {"a": action}).fetchone()[0]


def is_active(pool, email: str) -> bool:
    return _user(pool, email).is_active
