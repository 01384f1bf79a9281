"""Offline `generate --approve-all` on every demo document publishes a verifiable course and manual."""
from __future__ import annotations

import json
import re
from uuid import UUID

import pytest
from langgraph.runtime import Runtime

from agents.content.__main__ import main
from agents.content.context import ContentContext
from agents.content.exercises import verify_exercise
from agents.content.publish import publish
from agents.content.service import graph_state
from agents.llm import get_llm
from seeds.loader import DOCUMENTS
from storage import catalog, documents, jobs, manuals, users

DEMO_DOCUMENTS = sorted(p for p in DOCUMENTS.iterdir() if p.suffix in (".md", ".pdf", ".docx"))
SIX_TYPES = {"test", "true_false", "fill_blank", "order_steps", "practical_case", "dialogue"}


def _norm(text: str) -> str:
    import unicodedata
    folded = "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))
    return re.sub(r"\s+", " ", folded).strip(" .")


def _answer_in_source(exercise, full_text: str) -> bool:
    """An independent check of the answer against the document's stored full text."""
    content, source = exercise.content, _norm(full_text)
    if exercise.type == "true_false":
        quoted = re.findall(r"«([^»]+)»", exercise.explanation)
        if content["answer"]:
            return _norm(content["statement"]) in source
        return _norm(content["statement"]) not in source and all(_norm(q) in source for q in quoted) and quoted
    if exercise.type == "fill_blank":
        return _norm(content["text"].replace("___", content["answers"][0])) in source
    if exercise.type == "test":
        masked = re.search(r"«([^»]*___[^»]*)»", exercise.prompt).group(1)
        right = _norm(masked.replace("___", content["options"][content["answer"]])) in source
        wrong = [_norm(masked.replace("___", o)) in source
                 for i, o in enumerate(content["options"]) if i != content["answer"]]
        return right and not any(wrong)
    if exercise.type == "order_steps":
        positions = [source.find(_norm(step)) for step in content["steps"]]
        return all(p >= 0 for p in positions) and positions == sorted(positions)
    if exercise.type == "practical_case":
        return all(_norm(point) in source for point in content["rubric"])
    correct = [o["text"] for node in content["nodes"].values() for o in node["options"] if o["correct"]]
    return bool(correct) and all(_norm(text) in source for text in correct)


@pytest.fixture(scope="module")
def acme(seeded_pool):
    with seeded_pool.connection() as conn:
        org = users.get_org_by_slug(conn, "acme")
    return org


@pytest.mark.parametrize("path", DEMO_DOCUMENTS, ids=lambda p: p.name)
def test_generate_publishes_a_verifiable_course(seeded_pool, acme, path, capsys):
    code = main(["generate", str(path), "--org", "acme", "--by", "admin@acme.test", "--approve-all", "--json"])
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert code == 0, summary
    assert set(summary) == {"job_id", "status", "course_id", "manual_id", "modules", "lessons",
                            "exercises_by_type", "review_score"}
    assert summary["status"] == "published"
    assert summary["modules"] >= 3
    assert set(summary["exercises_by_type"]) == SIX_TYPES
    assert 0 <= summary["review_score"] <= 1

    org_id, job_id = acme.id, UUID(summary["job_id"])
    with seeded_pool.connection() as conn:
        job = jobs.get_job(conn, org_id, job_id)
        doc_id = job.source_document_ids[0]
        full_text = documents.get_full_text(conn, org_id, doc_id)
        doc_chunks = {c.id for c in documents.document_chunks(conn, org_id, doc_id)}
        outline = catalog.get_course_outline(conn, org_id, UUID(summary["course_id"]))
        manual = manuals.get_manual(conn, org_id, UUID(summary["manual_id"]))
        lesson_chunks = dict(conn.execute("SELECT id, source_chunk_ids FROM lessons WHERE org_id = %s",
                                          (org_id,)).fetchall())

    assert job.review_report["checks"]["answers_verified"] == 1.0 and "issues" in job.review_report
    assert outline.course.status == "published" and len(outline.modules) == summary["modules"]
    for module in outline.modules:
        for lesson in module.lessons:
            assert lesson.citations, lesson.title
            assert re.search(r"\[(Fuente|Source): ", lesson.content_md), lesson.title
            assert set(lesson_chunks[lesson.id]) and set(lesson_chunks[lesson.id]) <= doc_chunks
            for exercise in lesson.exercises:
                assert exercise.source_chunk_ids and set(exercise.source_chunk_ids) <= doc_chunks
                assert _answer_in_source(exercise, full_text), (exercise.type, exercise.content)
                assert verify_exercise({"type": exercise.type, "content": exercise.content,
                                        "prompt": exercise.prompt, "explanation": exercise.explanation},
                                       full_text) is None
    exercises = [e for m in outline.modules for l in m.lessons for e in l.exercises]
    applied = [e for e in exercises if e.bloom_level in ("apply", "analyze", "evaluate", "create")]
    assert len(applied) * 2 >= len(exercises)
    assert manual.toc and ("## Índice" in manual.content_md or "## Contents" in manual.content_md)
    assert all(entry["heading"] in manual.content_md for entry in manual.toc)


def test_a_second_publish_of_the_same_job_does_nothing(seeded_pool, acme, capsys):
    path = next(p for p in DEMO_DOCUMENTS if p.name == "returns_policy.md")
    main(["generate", str(path), "--org", "acme", "--by", "admin@acme.test", "--approve-all", "--json"])
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    state, _ = graph_state(summary["job_id"])
    with seeded_pool.connection() as conn:
        before = conn.execute("SELECT count(*) FROM courses WHERE org_id = %s", (acme.id,)).fetchone()[0]
    again = publish(state, Runtime(context=ContentContext(seeded_pool, get_llm())))
    with seeded_pool.connection() as conn:
        after = conn.execute("SELECT count(*) FROM courses WHERE org_id = %s", (acme.id,)).fetchone()[0]
        manuals_for_job = conn.execute("SELECT count(*) FROM manuals WHERE generation_job_id = %s",
                                       (UUID(summary["job_id"]),)).fetchone()[0]
    assert again["result_course_id"] == summary["course_id"] and again["result_manual_id"] == summary["manual_id"]
    assert after == before and manuals_for_job == 1


def test_generate_without_approval_stops_at_the_structure_checkpoint(seeded_pool, acme, capsys):
    path = next(p for p in DEMO_DOCUMENTS if p.name == "returns_policy.md")
    code = main(["generate", str(path), "--org", "acme", "--by", "admin@acme.test", "--json"])
    out = capsys.readouterr()
    summary = json.loads(out.out.strip().splitlines()[-1])
    assert code == 0 and summary["status"] == "awaiting_structure_review" and summary["course_id"] is None
    assert f"resume {summary['job_id']}" in out.err and "--approve" in out.err
    code = main(["resume", summary["job_id"], "--org", "acme", "--by", "admin@acme.test", "--approve", "--json"])
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert code == 0 and summary["status"] == "awaiting_final_review" and summary["modules"] >= 3
    code = main(["generate", "/nonexistent.md", "--org", "acme", "--by", "admin@acme.test"])
    assert code == 2 and capsys.readouterr().err.count("\n") == 1
