"""A published course as data (``python -m agents.content show COURSE_ID --json``): modules -> lessons
(kind, title, Markdown, citations) -> exercises (type, content, Bloom level, source chunks and the
quiz-quality findings, recomputed against the chunks each exercise cites)."""

from __future__ import annotations

from uuid import UUID

from psycopg_pool import ConnectionPool

from agents.content.review import _source_text, exercise_findings
from agents.content.sources import load_sections
from storage import course_outline
from storage import lessons as lesson_store


def course_json(pool: ConnectionPool, org_id: UUID, course_id: UUID) -> dict | None:
    with pool.connection() as conn:
        outline = lesson_store.get_course_outline(conn, org_id, course_id)
        document_ids = course_outline.course_document_ids(conn, org_id, course_id) if outline else []
    if outline is None:
        return None
    source, chunk_text = _source_text(load_sections(pool, org_id, list(document_ids)))
    modules = []
    for module in outline.modules:
        lessons = []
        for lesson in module.lessons:
            exercises = []
            for exercise in lesson.exercises:
                data = {
                    "type": exercise.type,
                    "prompt": exercise.prompt,
                    "content": exercise.content,
                    "explanation": exercise.explanation,
                    "bloom_level": exercise.bloom_level,
                    "source_chunk_ids": [str(c) for c in exercise.source_chunk_ids],
                }
                cited = "\n\n".join(chunk_text.get(c, "") for c in data["source_chunk_ids"])
                data["quality"] = [
                    {"severity": severity, "code": code, **values}
                    for severity, code, values in exercise_findings(data, cited, source)
                ]
                exercises.append(data)
            lessons.append(
                {
                    "kind": lesson.content_type,
                    "title": lesson.title,
                    "markdown": lesson.content_md,
                    "citations": lesson.citations,
                    "exercises": exercises,
                }
            )
        modules.append({"title": module.title, "summary": module.summary, "lessons": lessons})
    course = outline.course
    return {
        "course_id": str(course.id),
        "title": course.title,
        "description": course.description,
        "outcome": course.outcome,
        "status": course.status,
        "language": course.language,
        "modules": modules,
    }
