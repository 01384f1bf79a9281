"""Helpdesk fixtures: a small organisation with two employees and an admin, a few tickets, and HelpdeskDeps
wired to the test database (PostgresSaver checkpoints, offline engine, local ticket tools)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from agents.helpdesk import tools as hd_tools
from agents.helpdesk.guards import Settings
from agents.helpdesk.wiring import HelpdeskDeps
from storage import users
from tests.people import upsert_user

TICKETS = [
    (
        "Oracle Financials returns 403 on budget reports",
        "Since this morning every budget report in Oracle Financials fails with HTTP 403 Forbidden.",
        "access",
    ),
    ("VPN disconnects every ten minutes", "The VPN client drops the connection every ten minutes at home.", "network"),
    ("Printer on floor 2 prints blank pages", "The shared printer prints blank pages for everyone.", "hardware"),
]


@pytest.fixture(scope="module")
def org(pool):
    from agents.ingestion.embeddings import embed_passages
    from storage import tickets

    with pool.connection() as conn:
        organisation = users.ensure_org(conn, "helpdesk-test", "Helpdesk Test")
        ana = upsert_user(
            conn,
            organisation.id,
            email="ana@hd.test",
            full_name="Ana",
            role="employee",
            password="pw-ana-123",
            language="es",
        )
        bob = upsert_user(
            conn,
            organisation.id,
            email="bob@hd.test",
            full_name="Bob",
            role="employee",
            password="pw-bob-123",
            language="en",
        )
        admin = upsert_user(
            conn,
            organisation.id,
            email="boss@hd.test",
            full_name="Boss",
            role="admin",
            password="pw-boss-123",
            language="en",
        )
        vectors = embed_passages([f"{t}\n{b}" for t, b, _ in TICKETS])
        for (title, body, category), vector in zip(TICKETS, vectors):
            tickets.create(
                conn,
                organisation.id,
                title=title,
                body=body,
                category=category,
                source="seed",
                idempotency_key=f"seed:{title}",
                embedding=vector,
            )
    return SimpleNamespace(org=organisation, ana=ana, bob=bob, admin=admin)


def local_toolbox(deps, org_id, user_id):
    """Production ticket tools on the test database; the knowledge base is empty here."""
    box = hd_tools.default_toolbox(deps, org_id, user_id)
    box.retry_kb = lambda query: []
    return box


@pytest.fixture(scope="module")
def checkpointer(pool):
    from storage.db import checkpointer as shared_checkpointer

    return shared_checkpointer()


def make_deps(pool, checkpointer, settings: Settings | None = None, **options) -> HelpdeskDeps:
    from tests.conftest import make_deps as make_app_deps

    settings = settings or replace(Settings(), max_sessions_per_day=1000)  # the cap has its own test
    app = make_app_deps(pool, llm=options.pop("llm", None), checkpointer_factory=lambda: checkpointer)
    return HelpdeskDeps(app, toolbox=options.pop("toolbox", local_toolbox), settings=lambda: settings, **options)


@pytest.fixture
def deps(pool, checkpointer, org):
    return make_deps(pool, checkpointer)
