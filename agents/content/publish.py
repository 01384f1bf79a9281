"""The publish node (spec 004 §8): course, modules, lessons, exercises and manual in ONE transaction.

Idempotent: the job row is locked first, and a job that already has its results publishes nothing
again (a crash after the commit but before the checkpoint replays this node harmlessly).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

from langgraph.runtime import Runtime

from agents.content.context import ContentContext
from agents.content.nodes import ContentError, node_error_wrapper
from agents.content.state import AdminReview, GenerationState
from core.inputs import distinct_uuids
from storage import audit, jobs, manuals
from storage import courses as course_store
from storage import exercises as exercise_store
from storage import lessons as lesson_store


def _free_title(conn, org_id: UUID, title: str) -> str:
    taken = {course.title for course in course_store.list_courses(conn, org_id)}
    candidate, n = title, 2
    while candidate in taken:
        candidate, n = f"{title} ({n})", n + 1
    return candidate


def _write_course(conn, org_id: UUID, state: GenerationState) -> UUID:
    outline, language = state["course_outline"], state["source_metadata"].get("language", "es")
    doc_ids = distinct_uuids(state["source_document_ids"])
    course_id = course_store.create_course(
        conn,
        org_id,
        title=_free_title(conn, org_id, outline["title"]),
        description=outline.get("description", ""),
        outcome=outline.get("outcome", ""),
        language=language,
        source_document_id=doc_ids[0],
        created_by=state.get("triggered_by"),
        generation_job_id=state["job_id"],
        status="published",
    )
    for doc_id in doc_ids:
        course_store.link_course_document(conn, org_id, course_id, doc_id)
    for position, module in enumerate(sorted(state["generated_modules"], key=lambda m: m["index"]), 1):
        spec = module["module_spec"]
        module_id = lesson_store.add_module(
            conn,
            org_id,
            course_id,
            title=spec["title"],
            summary=spec.get("summary", ""),
            position=position,
            bloom_level=spec.get("bloom_level"),
            source_chunk_ids=distinct_uuids(spec.get("chunk_ids")),
        )
        write_module_content(conn, org_id, module_id, module["lessons"], module["exercises"])
    return course_id


def write_module_content(
    conn, org_id: UUID, module_id: UUID, lessons: Sequence[Mapping[str, Any]], exercises: Sequence[Mapping[str, Any]]
) -> None:
    """A written module's lessons, then its exercises in its practice lesson (its last lesson when it has
    none): the publisher's layout, also used when a stale module is regenerated."""
    lesson_ids = []
    for position, lesson in enumerate(lessons, 1):
        lesson_ids.append(
            (
                lesson["content_type"],
                lesson_store.add_lesson(
                    conn,
                    org_id,
                    module_id,
                    title=lesson["title"],
                    content_type=lesson["content_type"],
                    content_md=lesson["content"],
                    citations=lesson.get("citations") or [],
                    source_chunk_ids=distinct_uuids(lesson.get("source_chunk_ids")),
                    position=position,
                ),
            )
        )
    practice = next((lid for kind, lid in lesson_ids if kind == "exercise"), lesson_ids[-1][1])
    for position, exercise in enumerate(exercises, 1):
        exercise_store.add_exercise(
            conn,
            org_id,
            practice,
            type=exercise["type"],
            prompt=exercise["prompt"],
            content=exercise["content"],
            bloom_level=exercise["bloom_level"],
            explanation=exercise.get("explanation", ""),
            position=position,
            source_chunk_ids=distinct_uuids(exercise.get("source_chunk_ids")),
        )


@node_error_wrapper("publish")
def publish(state: GenerationState, runtime: Runtime[ContentContext]) -> dict:
    ctx = runtime.context
    org_id, job_id = state["org_id"], state["job_id"]
    report: Mapping[str, Any] = state.get("review_report") or {}
    final: AdminReview = state.get("admin_review_final") or {}
    criticals = [i for i in report.get("issues") or [] if i["severity"] == "critical"]
    waived = set((final.get("edits") or {}).get("waived") or [])
    if any(i["description"] not in waived for i in criticals):  # enforced here, not only in the page
        raise ContentError("critical quality issues are open and not waived")
    ctx.step(state, "publishing", "publishing")
    with ctx.pool.connection() as conn, conn.transaction():
        job = jobs.get_job(conn, org_id, job_id, lock=True)
        if job is None:
            raise ContentError("the generation job was deleted / se borró el trabajo de generación")
        if job.result_course_id or job.result_manual_id:  # published already: nothing to do twice
            return {
                "result_course_id": job.result_course_id,
                "result_manual_id": job.result_manual_id,
            }
        course_id = _write_course(conn, org_id, state) if state.get("output_type") != "manual_only" else None
        manual_id = None
        manual = state.get("generated_manual")
        if manual:
            manual_id = manuals.create_manual(
                conn,
                org_id,
                title=manual["title"],
                content_md=manual["content_md"],
                toc=manual["toc"],
                source_document_ids=distinct_uuids(state["source_document_ids"]),
                language=state["source_metadata"].get("language", "es"),
                course_id=course_id,
                generation_job_id=job_id,
                sections=manual.get("sections") or [],
            )
        jobs.set_result(conn, org_id, job_id, course_id=course_id, manual_id=manual_id)
        jobs.set_status(conn, org_id, job_id, "published")
        # by the admin whose approval the worker carried out
        approver = audit.last_actor(conn, org_id, action="content.review_final", entity_id=job_id)
        audit.record(
            conn,
            org_id,
            actor_id=approver,
            action="content.publish",
            entity_type="course" if course_id else "generation_job",
            entity_id=course_id or job_id,
            before=None,
            after={"modules": len(state.get("generated_modules") or []), "manual": manual_id is not None},
        )
        jobs.add_event(
            conn,
            org_id,
            job_id,
            "completed",
            {
                "course_id": str(course_id) if course_id else None,
                "manual_id": str(manual_id) if manual_id else None,
            },
        )
    return {
        "result_course_id": course_id,
        "result_manual_id": manual_id,
    }
