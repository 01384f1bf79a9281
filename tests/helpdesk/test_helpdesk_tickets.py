"""storage/tickets.py and the duplicate tool: search across languages, idempotent create, listing and
status changes, org isolation."""

from __future__ import annotations

from agents.helpdesk.tools import local_ticket_search
from agents.ingestion.embeddings import embed_query
from storage import tickets, users
from tests.conftest import make_deps


def test_duplicate_search_finds_the_same_problem_in_another_language(org, pool):
    hits = local_ticket_search(
        make_deps(pool), org.org.id, "Oracle Financials devuelve error 403 en los informes de presupuesto"
    )
    assert hits[0]["title"] == "Oracle Financials returns 403 on budget reports" and hits[0]["strong"]
    assert hits[0]["similarity"] >= hits[-1]["similarity"]


def test_unrelated_query_has_no_strong_match(org, pool):
    assert not any(
        h["strong"] for h in local_ticket_search(make_deps(pool), org.org.id, "How many vacation days do I have left?")
    )


def test_create_is_idempotent_and_status_updates(org, pool):
    with pool.connection() as conn:
        first, created = tickets.create(
            conn,
            org.org.id,
            title="Mouse broken",
            body="The mouse is broken.",
            severity="low",
            category="hardware",
            idempotency_key="k-mouse",
        )
        again, created_again = tickets.create(
            conn, org.org.id, title="Mouse broken", body="The mouse is broken.", idempotency_key="k-mouse"
        )
        assert created and not created_again and again.id == first.id
        assert tickets.update_status(conn, org.org.id, first.id, "resolved", resolution="Replaced")
        updated = tickets.get_ticket(conn, org.org.id, first.id)
        assert updated.status == "resolved" and updated.resolution == "Replaced"
        assert tickets.get_by_number(conn, org.org.id, first.number).id == first.id
        assert first.id in {t.id for t in tickets.list_tickets(conn, org.org.id, status="resolved")}


def test_other_organisations_see_nothing(org, pool):
    with pool.connection() as conn:
        other = users.ensure_org(conn, "other-hd", "Other")
        assert tickets.duplicate_candidates(conn, other.id, embed_query("Oracle Financials 403")) == []
        assert tickets.list_tickets(conn, other.id) == []
        mine = tickets.list_tickets(conn, org.org.id)[0]
        assert tickets.get_ticket(conn, other.id, mine.id) is None
        assert not tickets.update_status(conn, other.id, mine.id, "closed")
