"""The quiz-quality report as a gate, and the model path over long sources: a critical issue blocks
publishing until waived (the waiver is audit-logged); themes see every chunk of a source past 60k
characters (map over batches, then reduce); the reviewer checks every module against its own sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.content import decisions, service
from agents.content.sections import clean_text
from agents.ingestion.pipeline import ingest_file
from storage import audit, documents
from tests.content.model_replies import scripted_author

PUBLIC = Path(__file__).resolve().parents[2] / "seeds" / "public"


def _at_final(deps, org, admin, document_ids):
    job_id = service.start_job(deps, admin, document_ids)
    assert service.run_job(deps, org.id, job_id).status == "awaiting_structure_review"
    decisions.review_structure(deps, admin, job_id, "approve")
    assert service.run_job(deps, org.id, job_id).status == "awaiting_final_review"
    return job_id


def test_a_critical_issue_blocks_publishing_until_the_admin_waives_it(pool, app_deps, studio):
    org, admin, docs = studio
    job_id = _at_final(app_deps, org, admin, [docs["devoluciones.md"]])
    state = service.job_view(app_deps, admin, job_id).state
    index = next(i for i, e in enumerate(state["generated_modules"][0]["exercises"]) if e["type"] == "true_false")
    wrong = {"statement": "Las devoluciones se aceptan durante 99 días sin ticket.", "answer": True}
    decisions.edit_content(app_deps, admin, job_id, f"module.0.exercise.{index}", "content", wrong)
    job = service.run_job(app_deps, org.id, job_id)
    assert job.status == "awaiting_final_review"
    criticals = decisions.open_criticals(job)
    assert criticals and criticals[0]["exercise_index"] == index  # the report followed the edit
    assert job.review_report["overall_score"] < 1.0
    with pytest.raises(service.ContentServiceError, match="crítico"):
        decisions.review_final(app_deps, admin, job_id, "approve")
    assert service.run_job(app_deps, org.id, job_id).status == "awaiting_final_review"  # nothing changed
    decisions.review_final(app_deps, admin, job_id, "approve", waive_reason="the legal team confirmed 99 days")
    job = service.run_job(app_deps, org.id, job_id)
    assert job.status == "published" and job.result_course_id
    with pool.connection() as conn:
        entry = audit.list_entries(conn, org.id, action="content.waive_critical_issues", entity_id=job_id)[0]
    assert entry.actor_id == admin.id and entry.after == {"reason": "the legal team confirmed 99 days"}
    assert entry.before["issues"][0]["description"] == criticals[0]["description"]


def test_long_sources_reach_theme_extraction_whole_and_every_module_is_reviewed(pool, app_deps, studio, fake_openai):
    org, admin, _ = studio
    doc_ids = [
        ingest_file(pool, org.id, PUBLIC / name, uploaded_by=admin.id).document_id
        for name in ("tts_travel_guide.md", "tts_leave_types.md")
    ]
    with pool.connection() as conn:
        chunks = [c for d in doc_ids for c in documents.document_chunks(conn, org.id, d)]
    assert sum(len(c.content) for c in chunks) > 60_000
    fake_openai.responder = scripted_author(themes=3)
    job_id = _at_final(app_deps, org, admin, doc_ids)

    def user_text(request):
        return "\n".join(m["content"] for m in request["messages"] if m["role"] == "user")

    def system_text(request):
        return "\n".join(m["content"] for m in request["messages"] if m["role"] == "system")

    requests = fake_openai.chat_requests
    theme_calls = [user_text(r) for r in requests if "key themes" in system_text(r)]
    assert len(theme_calls) >= 2  # mapped in batches, none cut
    seen = "\n".join(theme_calls)
    missing = [c.content[:80] for c in chunks if clean_text(c.content)[:60] not in seen]  # as the pipeline reads it
    assert not missing, missing[:3]
    assert any("merge the themes" in system_text(r) for r in requests)  # then reduced
    state = service.job_view(app_deps, admin, job_id).state
    reviews = [user_text(r) for r in requests if "Generated content to review:" in user_text(r)]
    modules = state["generated_modules"]
    assert reviews and len(reviews) % len(modules) == 0  # each review pass: one call per module, its own sources
    for start in range(0, len(reviews), len(modules)):
        for module, prompt in zip(modules, reviews[start : start + len(modules)]):
            assert module["module_spec"]["title"] in prompt
