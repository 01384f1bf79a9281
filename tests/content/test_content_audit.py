"""Every write of the content studio is in the audit log (issue 32): the upload, the generation start, both
review decisions and the publication, each by the admin who made it, read as words in the admin's language;
and the audit page filters by person and by action."""

from __future__ import annotations

import re

from agents.content import decisions, service
from agents.ingestion.uploads import queue_uploads
from agents.insights import operations
from storage import audit
from tests.conftest import make_deps

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def test_upload_generation_reviews_and_publication_are_audited_in_order(pool, studio):
    org, admin, docs = studio
    deps = make_deps(pool)
    queue_uploads(admin, [("turnos.md", b"# Turnos\n\nCada turno empieza con el parte.\n")], pool=pool)
    job_id = service.start_job(deps, admin, list(docs.values()))
    assert service.run_job(deps, org.id, job_id).status == "awaiting_structure_review"
    decisions.review_structure(deps, admin, job_id, "approve")
    assert service.run_job(deps, org.id, job_id).status == "awaiting_final_review"
    decisions.review_final(deps, admin, job_id, "approve", notes="Buen curso", accept_template_modules=True)
    job = service.run_job(deps, org.id, job_id)
    assert job.status == "published"

    with pool.connection() as conn:
        entries = list(reversed(audit.list_entries(conn, org.id, lang="es")))
    actions = [e.action for e in entries]
    for action in (
        "content.upload",
        "content.start_job",
        "content.review_structure",
        "content.review_final",
        "content.publish",
    ):
        assert action in actions, f"{action} missing from {actions}"
    assert (
        actions.index("content.start_job")
        < actions.index("content.review_structure")
        < actions.index("content.review_final")
        < actions.index("content.publish")
    )
    assert all(e.actor_id == admin.id for e in entries if e.action.startswith("content.")), (
        "the publication is the approving admin's, though a worker carried it out"
    )
    published = next(e for e in entries if e.action == "content.publish")
    assert published.entity_type == "course" and published.entity_id == str(job.result_course_id)

    rows = operations.audit_entries(deps, admin)
    by_action = {r["action"]: r for r in rows}
    assert by_action["content.upload"]["entity_name"] == "turnos.md"
    final = by_action["content.review_final"]
    assert "decisión: aprobado" in final["after"] and "nota: Buen curso" in final["after"]
    assert "estado:" in final["after"] and "Publicando" in final["after"]
    assert "resultado: curso y manual" in by_action["content.start_job"]["after"]
    for row in rows:
        assert not SNAKE.search(row["before"] + " " + row["after"]), row  # no codes or keys as stored

    assert {r["action"] for r in operations.matching_entries(rows, people=[admin.full_name])} >= set(by_action)
    assert operations.matching_entries(rows, people=["Nobody Here"]) == []
    only = operations.matching_entries(rows, actions=["content.publish"], people=[admin.full_name])
    assert [r["action"] for r in only] == ["content.publish"]
