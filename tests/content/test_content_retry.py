"""A node that fails fails the job with a one-line error (spec 004 §6.1); retry resumes at that node."""
from __future__ import annotations

import pytest

from agents.content import authoring, service
from storage import jobs


def test_a_failed_node_is_retried_from_its_checkpoint(pool, studio, monkeypatch):
    org, admin, docs = studio
    job_id = service.start_job(pool, admin, [docs["returns_en.md"]])
    service.run_job(pool, org.id, job_id)
    service.review_structure(pool, admin, job_id, "approve")

    def broken_manual(*args, **kwargs):
        raise RuntimeError("disk full\nsecond line")
    with monkeypatch.context() as patch:
        patch.setattr(authoring, "write_manual", broken_manual)
        job = service.run_job(pool, org.id, job_id)
    assert job.status == "failed" and job.error == "[generate_manual] RuntimeError: disk full"
    with pool.connection() as conn:
        events = jobs.list_events(conn, org.id, job_id)
    assert events[-1].event_type == "error" and events[-1].data["step"] == "generate_manual"
    generated = sum(e.event_type == "progress" and e.data["phase"] == "started" for e in events)
    with pytest.raises(service.ContentServiceError):
        service.review_final(pool, admin, job_id, "approve")

    service.retry_job(pool, admin, job_id)
    job = service.run_job(pool, org.id, job_id)
    assert job.status == "awaiting_final_review" and job.error is None
    with pool.connection() as conn:
        events = jobs.list_events(conn, org.id, job_id)
    assert sum(e.event_type == "progress" and e.data["phase"] == "started" for e in events) == generated
    assert service.job_view(pool, admin, job_id).state["generated_manual"]["toc"]
