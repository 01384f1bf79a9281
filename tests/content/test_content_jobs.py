"""storage/jobs.py and the task queue: the lifecycle of spec 004 §9, one queue job per generation job, commands,
module progress."""

from __future__ import annotations

import pytest

from agents.content import decisions
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
        for status in (
            "extracting",
            "structuring",
            "awaiting_structure_review",
            "generating",
            "reviewing",
            "awaiting_final_review",
            "publishing",
            "published",
        ):
            jobs.set_status(conn, org.id, job_id, status)
        with pytest.raises(jobs.JobStateError):
            jobs.set_status(conn, org.id, job_id, "generating")  # published is final
    other = new_job()
    with pool.connection() as conn:
        jobs.set_status(conn, org.id, other, "extracting")
        with pytest.raises(jobs.JobStateError) as refused:
            jobs.set_status(conn, org.id, other, "publishing")  # no skipping the reviews
        assert decisions._job_state_refusal(refused.value, "es") == (  # said in the admin's language
            "Un trabajo en «Analizando» no puede pasar a «Publicando». No se cambió nada."
        )
        jobs.set_status(conn, org.id, other, "failed", error="[extract_themes] boom")
        assert jobs.get_job(conn, org.id, other).error == "[extract_themes] boom"
        jobs.set_status(conn, org.id, other, "pending")  # retry
        assert jobs.get_job(conn, org.id, other).error is None


def test_a_job_is_queued_with_its_row_once_and_held_by_one_worker_at_a_time(pool, app_deps, studio):
    from psycopg.errors import UniqueViolation

    from agents.content import service
    from agents.content import worker as tasks
    from storage import queue

    org, admin, docs = studio
    job_id = service.start_job(app_deps, admin, [docs["devoluciones.md"]])
    lock = jobs.queue_lock(job_id)
    with pool.connection() as conn:
        assert queue.open_job_status(conn, lock) == "todo"
        assert not tasks.defer_generation(conn, org.id, job_id)  # one waiting queue job per generation job
        conn.execute("UPDATE procrastinate_jobs SET status = 'doing' WHERE lock = %s", (lock,))
        assert queue.open_job_status(conn, lock) == "doing"
        assert tasks.defer_generation(conn, org.id, job_id)  # a decision while it runs waits behind it
        with pytest.raises(UniqueViolation), conn.transaction():  # procrastinate's own guarantee
            conn.execute("UPDATE procrastinate_jobs SET status = 'doing' WHERE lock = %s AND status = 'todo'", (lock,))
        conn.execute("DELETE FROM procrastinate_jobs WHERE lock = %s", (lock,))

    with pytest.raises(RuntimeError), pool.connection() as conn:  # rolled back: no job row, no queue job
        rolled = jobs.create_job(conn, org.id, triggered_by=admin.id, source_document_ids=[docs["devoluciones.md"]])
        tasks.defer_generation(conn, org.id, rolled)
        raise RuntimeError("the caller's transaction fails")
    with pool.connection() as conn:
        assert queue.open_job_status(conn, jobs.queue_lock(rolled)) is None
        assert jobs.get_job(conn, org.id, rolled) is None


def test_a_command_is_cleared_once_it_ran_and_a_newer_one_stays(pool, studio, new_job):
    org = studio[0]
    job_id = new_job()
    with pool.connection() as conn:
        for status in ("extracting", "structuring", "awaiting_structure_review"):
            jobs.set_status(conn, org.id, job_id, status)
        jobs.set_command(conn, org.id, job_id, {"decision": "approve"}, status="generating")
        with pytest.raises(jobs.JobStateError) as refused:  # one decision at a time
            jobs.set_command(conn, org.id, job_id, {"decision": "reject"}, status="generating")
        assert decisions._job_state_refusal(refused.value, "en").startswith("The previous change is still")
        assert jobs.runnable(jobs.get_job(conn, org.id, job_id))
        jobs.clear_command(conn, org.id, job_id, {"decision": "other"})
        assert jobs.get_job(conn, org.id, job_id).command == {"decision": "approve"}
        jobs.clear_command(conn, org.id, job_id, {"decision": "approve"})
        assert jobs.get_job(conn, org.id, job_id).command is None


def test_module_progress_counts_each_module_once(pool, studio, new_job):
    org = studio[0]
    job_id = new_job()
    with pool.connection() as conn:
        jobs.set_progress(conn, org.id, job_id, {"total": 3, "done": []})
        jobs.mark_module_done(conn, org.id, job_id, 0, "Uno")
        jobs.mark_module_done(conn, org.id, job_id, 2, "Tres")
        progress = jobs.mark_module_done(conn, org.id, job_id, 0, "Uno otra vez")  # a crash re-ran it
    assert progress["completed"] == 2 and progress["total"] == 3 and progress["current"] == "Uno otra vez"
