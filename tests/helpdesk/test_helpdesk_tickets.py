"""storage/tickets.py: hybrid search, idempotent create, listing and status changes, org isolation."""
from __future__ import annotations

from storage import tickets, users
from storage.embeddings import embed_query


def test_hybrid_search_finds_the_duplicate_first(org, pool):
    with pool.connection() as conn:
        query = "Oracle Financials 403 error on budget reports"
        hits = tickets.search(conn, org.org.id, query, embed_query(query), k=3)
    assert hits[0].ticket.title == "Oracle Financials returns 403 on budget reports"
    assert hits[0].text_match and hits[0].similarity > 0.885
    assert hits[0].score >= hits[-1].score


def test_unrelated_query_has_no_strong_match(org, pool):
    with pool.connection() as conn:
        query = "How many vacation days do I have left?"
        hits = tickets.search(conn, org.org.id, query, embed_query(query), k=3)
    assert all(not (h.text_match and h.similarity >= 0.885) for h in hits)


def test_create_is_idempotent_and_status_updates(org, pool):
    with pool.connection() as conn:
        first, created = tickets.create(conn, org.org.id, title="Mouse broken", body="The mouse is broken.",
                                        severity="low", category="hardware", idempotency_key="k-mouse")
        again, created_again = tickets.create(conn, org.org.id, title="Mouse broken", body="The mouse is broken.",
                                              idempotency_key="k-mouse")
        assert created and not created_again and again.id == first.id
        assert tickets.update_status(conn, org.org.id, first.id, "resolved", resolution="Replaced")
        updated = tickets.get_ticket(conn, org.org.id, first.id)
        assert updated.status == "resolved" and updated.resolution == "Replaced"
        assert tickets.get_by_number(conn, org.org.id, first.number).id == first.id
        assert first.id in {t.id for t in tickets.list_tickets(conn, org.org.id, status="resolved")}


def test_other_organisations_see_nothing(org, pool):
    with pool.connection() as conn:
        other = users.ensure_org(conn, "other-hd", "Other")
        query = "Oracle Financials 403"
        assert tickets.search(conn, other.id, query, embed_query(query)) == []
        assert tickets.list_tickets(conn, other.id) == []
        mine = tickets.list_tickets(conn, org.org.id)[0]
        assert tickets.get_ticket(conn, other.id, mine.id) is None
        assert not tickets.update_status(conn, other.id, mine.id, "closed")
