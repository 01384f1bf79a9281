"""storage/jobs.py: the lifecycle of spec 004 §9, SKIP LOCKED claims, heartbeats, module progress."""
from __future__ import annotations

import time

import pytest

from storage import jobs


@pytest.fixture()
def new_job(pool, studio):
    org, admin, docs = studio

    def make():
        with pool.connection() as conn:
            return jobs.create_job(conn, org.id, triggered_by=admin.id, source_document_ids=list(docs.values()))
    return make


def test_status_follows_the_lifecycle(pool, studio, new_job):
    org = studio[0]
    job_id = new_job()
    with pool.connection() as conn:
        for status in ("extracting", "structuring", "awaiting_structure_review", "generating", "reviewing",
                       "awaiting_final_review", "publishing", "published"):
            jobs.set_status(conn, org.id, job_id, status)
        with pytest.raises(jobs.JobStateError):
            jobs.set_status(conn, org.id, job_id, "generating")       # published is final
    other = new_job()
    with pool.connection() as conn:
        jobs.set_status(conn, org.id, other, "extracting")
        with pytest.raises(jobs.JobStateError):
            jobs.set_status(conn, org.id, other, "publishing")        # no skipping the reviews
        jobs.set_status(conn, org.id, other, "failed", error="[extract_themes] boom")
        assert jobs.get_job(conn, org.id, other).error == "[extract_themes] boom"
        jobs.set_status(conn, org.id, other, "pending")               # retry
        assert jobs.get_job(conn, org.id, other).error is None


def test_two_workers_never_claim_the_same_job(pool, studio, new_job):
    org = studio[0]
    with pool.connection() as conn:                  # only this test's jobs are runnable
        conn.execute("UPDATE generation_jobs SET status = 'cancelled' WHERE org_id = %s", (org.id,))
    first, second = new_job(), new_job()
    with pool.connection() as a, pool.connection() as b:
        claimed_a = jobs.claim_job(a, "worker-a", stale_seconds=30)   # a's transaction still holds the row
        claimed_b = jobs.claim_job(b, "worker-b", stale_seconds=30)
        assert {claimed_a.id, claimed_b.id} == {first, second}
    with pool.connection() as conn:
        assert jobs.claim_job(conn, "worker-c", stale_seconds=30) is None     # both held by live workers
        assert jobs.heartbeat(conn, org.id, first, claimed_a.claimed_by if claimed_a.id == first else "worker-b")
        assert not jobs.heartbeat(conn, org.id, first, "someone-else")


def test_a_stale_claim_is_taken_over_and_commands_are_cleared_once(pool, studio, new_job):
    org = studio[0]
    with pool.connection() as conn:
        conn.execute("UPDATE generation_jobs SET status = 'cancelled' WHERE org_id = %s", (org.id,))
    job_id = new_job()
    with pool.connection() as conn:
        assert jobs.claim_job(conn, "dead-worker", stale_seconds=30).id == job_id
        jobs.set_status(conn, org.id, job_id, "extracting")
    time.sleep(1.1)
    with pool.connection() as conn:
        assert jobs.claim_job(conn, "late", stale_seconds=30) is None
        taken = jobs.claim_job(conn, "rescuer", stale_seconds=1)
        assert taken.id == job_id and taken.claimed_by == "rescuer" and taken.attempts == 2
        jobs.set_status(conn, org.id, job_id, "structuring")
        jobs.set_status(conn, org.id, job_id, "awaiting_structure_review")
        jobs.release(conn, org.id, job_id, "rescuer", ran_command=None)
        jobs.set_command(conn, org.id, job_id, {"decision": "approve"}, status="generating")
        with pytest.raises(jobs.JobStateError):                        # one decision at a time
            jobs.set_command(conn, org.id, job_id, {"decision": "reject"}, status="generating")
        claimed = jobs.claim_job(conn, "w", stale_seconds=30)
        assert claimed.command == {"decision": "approve"}
        jobs.release(conn, org.id, job_id, "w", ran_command=claimed.command)
        assert jobs.get_job(conn, org.id, job_id).command is None


def test_module_progress_counts_each_module_once(pool, studio, new_job):
    org = studio[0]
    job_id = new_job()
    with pool.connection() as conn:
        jobs.set_progress(conn, org.id, job_id, {"total": 3, "done": []})
        jobs.mark_module_done(conn, org.id, job_id, 0, "Uno")
        jobs.mark_module_done(conn, org.id, job_id, 2, "Tres")
        progress = jobs.mark_module_done(conn, org.id, job_id, 0, "Uno otra vez")   # a crash re-ran it
    assert progress["completed"] == 2 and progress["total"] == 3 and progress["current"] == "Uno otra vez"
