"""Admin test helpers: the demo admin and employees, AppDeps on an in-memory checkpointer, one turn."""

from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from agents.admin import service
from core.turns import finish
from storage import users
from tests.conftest import make_deps


def user_by_email(pool, email: str) -> users.User:
    with pool.connection() as conn:
        return users.get_user_by_email(conn, email)


@pytest.fixture(scope="module")
def admin(seeded_pool):
    return user_by_email(seeded_pool, "admin@acme.test")


@pytest.fixture(scope="module")
def lucia(seeded_pool):
    return user_by_email(seeded_pool, "lucia@acme.test")


@pytest.fixture(scope="module")
def james(seeded_pool):
    return user_by_email(seeded_pool, "james@acme.test")


@pytest.fixture(scope="module")
def saver():
    return InMemorySaver()


@pytest.fixture
def turn(admin, saver, seeded_pool):
    """turn(message, session=None, confirm=None, cancel=False, user=admin, llm=the process's, on_event=None)
    -> AdminReply, each of the turn's events handed to ``on_event``; the deps are built at each call, so a test
    that points the model elsewhere first is heard."""

    def run(
        message: str = "",
        session: str | None = None,
        *,
        confirm: str | None = None,
        cancel: bool = False,
        user=None,
        llm=None,
        on_event=None,
    ):
        deps = make_deps(seeded_pool, llm=llm, checkpointer_factory=lambda: saver)
        played = service.turn(deps, user or admin, message, session_id=session, confirm=confirm, cancel=cancel)
        return finish(played, on_event)

    return run


def audit_count(pool, action: str | None = None) -> int:
    with pool.connection() as conn:
        return conn.execute(
            "SELECT count(*) FROM audit_log WHERE %(a)s::text IS NULL OR action = %(a)s", {"a": action}
        ).fetchone()[0]


def is_active(pool, email: str) -> bool:
    return user_by_email(pool, email).is_active
