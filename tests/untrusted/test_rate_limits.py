"""Rate limits hold: counted as requests in their own table, atomically, per user and endpoint.

Before: the tutor counted stored messages (deleting conversations gave 30 more; a 45-request burst
got 31 through) and the admin assistant had no limit (60/60 in 1.1 s).
"""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from agents.admin import service as admin_service
from agents.tutor import service as tutor_service
from core.turns import Error
from storage import rate_limits, users
from tests.conftest import make_deps
from tests.people import upsert_user


@pytest.fixture(scope="module")
def burst_user(seeded_pool):
    with seeded_pool.connection() as conn:
        org = users.get_user_by_email(conn, "lucia@acme.test").org_id
        return upsert_user(
            conn,
            org,
            email="burst@acme.test",
            full_name="Burst Tester",
            role="employee",
            password="pw-burst-123",
            language="en",
        )


def _first_event(user, pool, start: threading.Barrier) -> dict:
    start.wait()
    turn = tutor_service.run_turn(make_deps(pool), user, "How long is the probation period?")
    try:
        return next(turn)  # "grounding" once served, "error" when refused; the rest is not needed
    finally:
        turn.close()


def test_45_concurrent_tutor_requests_serve_exactly_30(seeded_pool, burst_user):
    start = threading.Barrier(45)
    with ThreadPoolExecutor(max_workers=45) as workers:
        events = list(workers.map(lambda _: _first_event(burst_user, seeded_pool, start), range(45)))
    refused = [e for e in events if isinstance(e, Error)]
    assert len(events) - len(refused) == 30
    assert len(refused) == 15 and {e.code for e in refused} == {"RATE_LIMITED"}


def test_deleting_conversations_gives_no_requests_back(seeded_pool, burst_user):
    # the burst's 30 requests made 30 conversations; on a busy machine some of its requests may have left
    # the 60 s window already: the budget is topped up to full (as requests, no messages) before deleting
    with seeded_pool.connection() as conn:
        for _ in range(tutor_service.RATE_LIMIT_PER_MINUTE):
            rate_limits.take(conn, burst_user.id, "tutor.message", tutor_service.RATE_LIMIT_PER_MINUTE, 60)
    assert tutor_service.list_sessions(make_deps(seeded_pool), burst_user)
    for session in tutor_service.list_sessions(make_deps(seeded_pool), burst_user):
        tutor_service.delete_session(make_deps(seeded_pool), burst_user, session.id)
    assert tutor_service.list_sessions(make_deps(seeded_pool), burst_user) == []
    events = list(tutor_service.run_turn(make_deps(seeded_pool), burst_user, "How long is the probation period?"))
    assert [type(e) for e in events] == [Error] and events[0].code == "RATE_LIMITED"


def test_session_management_endpoints_have_their_own_limit(seeded_pool):
    """rename/delete are Gradio API endpoints too: limited per user, apart from the messages' limit."""
    with seeded_pool.connection() as conn:
        org = users.get_user_by_email(conn, "lucia@acme.test").org_id
        renamer = upsert_user(
            conn,
            org,
            email="renamer@acme.test",
            full_name="Re Namer",
            role="employee",
            password="pw-renamer-1",
            language="es",
        )
    session = tutor_service.new_session(make_deps(seeded_pool), renamer)
    for n in range(tutor_service.RATE_LIMIT_PER_MINUTE):
        tutor_service.rename_session(make_deps(seeded_pool), renamer, session.id, f"name {n}")
    with pytest.raises(tutor_service.TutorError) as caught:
        tutor_service.delete_session(make_deps(seeded_pool), renamer, session.id)
    assert caught.value.code == "RATE_LIMITED" and "espera" in str(caught.value).lower()
    assert [s.id for s in tutor_service.list_sessions(make_deps(seeded_pool), renamer)] == [session.id]


def test_admin_assistant_refuses_the_21st_request_in_a_minute(seeded_pool, monkeypatch):
    monkeypatch.delenv("SKILLNET_ADMIN_RATE_PER_MINUTE")  # the product's default, 20
    with seeded_pool.connection() as conn:
        admin = users.get_user_by_email(conn, "admin@acme.test")
    for _ in range(20):
        assert admin_service.ask(make_deps(seeded_pool), admin, "alertas").response
    with seeded_pool.connection() as conn:
        messages = conn.execute("SELECT count(*) FROM chat_messages").fetchone()[0]
    with pytest.raises(admin_service.AdminInputError) as caught:
        admin_service.ask(make_deps(seeded_pool), admin, "alertas")
    assert "espera" in str(caught.value) and "\n" not in str(caught.value)
    with seeded_pool.connection() as conn:
        assert conn.execute("SELECT count(*) FROM chat_messages").fetchone()[0] == messages


def test_limits_are_per_user_and_per_endpoint(seeded_pool):
    one, other = uuid.uuid4(), uuid.uuid4()
    with seeded_pool.connection() as conn:
        assert [rate_limits.take(conn, one, "a", 2, 60) for _ in range(3)][:2] == [None, None]
        assert 1 <= rate_limits.take(conn, one, "a", 2, 60) <= 60
        assert rate_limits.take(conn, one, "b", 2, 60) is None
        assert rate_limits.take(conn, other, "a", 2, 60) is None


def test_content_generation_jobs_are_limited_per_organisation(seeded_pool, seeded_deps, monkeypatch):
    from agents.content import service as content_service
    from agents.ingestion.pipeline import ingest_file
    from storage import documents

    monkeypatch.setenv("SKILLNET_CONTENT_JOBS_PER_HOUR", "2")
    with seeded_pool.connection() as conn:
        admin = users.get_user_by_email(conn, "admin@acme.test")  # reads Spanish
        colleague = upsert_user(
            conn,
            admin.org_id,
            email="hr.jobs@acme.test",
            full_name="Olivia Hart",
            role="admin",
            password="pw-olivia-1",
            language="en",
        )
        document = documents.list_documents(conn, admin.org_id)[0].id
        other_org = users.ensure_org(conn, "initech")
        outsider = upsert_user(
            conn,
            other_org.id,
            email="hr@initech.test",
            full_name="Bill Lumbergh",
            role="admin",
            password="pw-bill-123",
            language="en",
        )
    outsider_document = ingest_file(
        seeded_pool,
        outsider.org_id,
        "handbook.md",
        uploaded_by=outsider.id,
        data=(b"# Handbook\n\nReturns are accepted within thirty days with the receipt.\n"),
    ).document_id
    with seeded_pool.connection() as conn:
        jobs_before = conn.execute("SELECT count(*) FROM generation_jobs").fetchone()[0]
    content_service.start_job(seeded_deps, admin, [document])
    content_service.start_job(seeded_deps, colleague, [document])  # the budget is the organisation's
    for person, words in ((admin, "vuelve a intentarlo en"), (colleague, "try again in")):
        with pytest.raises(content_service.ContentServiceError) as caught:
            content_service.start_job(seeded_deps, person, [document])
        assert words in str(caught.value) and "min." in str(caught.value) and "\n" not in str(caught.value)
    content_service.start_job(seeded_deps, outsider, [outsider_document])  # another organisation's budget
    with seeded_pool.connection() as conn:
        assert conn.execute("SELECT count(*) FROM generation_jobs").fetchone()[0] == jobs_before + 3
