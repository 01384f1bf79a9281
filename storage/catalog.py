"""Courses and their parts: the write API used by the demo seeds and by content publishing.

Functions take the connection first, are scoped by org_id, return ids or small dataclasses and
never commit. Exercise ``content`` follows the shared per-type contract (validated here, so a
malformed payload never reaches a learner):
  test {"options": [str], "answer": int} · true_false {"statement": str, "answer": bool} ·
  fill_blank {"text": "..___..", "answers": [str]} · order_steps {"steps": [str]} ·
  practical_case {"scenario": str, "rubric": [str], "model_answer": str} ·
  dialogue {"nodes": {id: {"speaker", "text", "options": [{"text", "next", "correct", "feedback"}]}},
            "start": id}
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from storage.markup import product_text

EXERCISE_TYPES = ("test", "true_false", "fill_blank", "order_steps", "practical_case", "dialogue")
BLOOM_LEVELS = ("remember", "understand", "apply", "analyze", "evaluate", "create")
LESSON_TYPES = ("theory", "example", "exercise", "summary")


class CatalogError(ValueError):
    """Invalid course content; the message is one line."""


def validate_exercise_content(kind: str, content: dict[str, Any]) -> None:
    """Raise CatalogError unless ``content`` matches the shared contract for ``kind``."""
    def need(ok: bool, what: str) -> None:
        if not ok:
            raise CatalogError(f"{kind} exercise content: {what}")

    need(kind in EXERCISE_TYPES, f"unknown type (expected one of {', '.join(EXERCISE_TYPES)})")
    need(isinstance(content, dict), "must be an object")
    if kind == "test":
        options = content.get("options")
        need(isinstance(options, list) and len(options) >= 2 and all(isinstance(o, str) for o in options),
             "needs at least two string options")
        answer = content.get("answer")
        need(isinstance(answer, int) and not isinstance(answer, bool) and 0 <= answer < len(options),
             "answer must be the index of an option")
    elif kind == "true_false":
        need(isinstance(content.get("statement"), str) and content["statement"].strip(), "needs a statement")
        need(isinstance(content.get("answer"), bool), "answer must be true or false")
    elif kind == "fill_blank":
        need(isinstance(content.get("text"), str) and "___" in content["text"], "text needs a ___ blank")
        answers = content.get("answers")
        need(isinstance(answers, list) and answers and all(isinstance(a, str) and a.strip() for a in answers),
             "needs accepted answers")
    elif kind == "order_steps":
        steps = content.get("steps")
        need(isinstance(steps, list) and len(steps) >= 2 and all(isinstance(s, str) for s in steps),
             "needs at least two steps in the correct order")
    elif kind == "practical_case":
        need(isinstance(content.get("scenario"), str) and content["scenario"].strip(), "needs a scenario")
        rubric = content.get("rubric")
        need(isinstance(rubric, list) and rubric and all(isinstance(r, str) for r in rubric), "needs a rubric")
        need(isinstance(content.get("model_answer"), str), "needs a model_answer")
    elif kind == "dialogue":
        nodes, start = content.get("nodes"), content.get("start")
        need(isinstance(nodes, dict) and start in nodes, "start must name a node")
        for node_id, node in nodes.items():
            need(isinstance(node, dict) and {"speaker", "text", "options"} <= node.keys(),
                 f"node {node_id} needs speaker, text and options")
            for option in node["options"]:
                need({"text", "next", "correct", "feedback"} <= option.keys(),
                     f"node {node_id} options need text, next, correct and feedback")
                need(option["next"] is None or option["next"] in nodes,
                     f"node {node_id} points at unknown node {option['next']}")


def create_course(conn: psycopg.Connection, org_id: UUID, *, title: str, description: str = "",
                  outcome: str = "", language: str = "es", source_document_id: UUID | None = None,
                  created_by: UUID | None = None, generation_job_id: UUID | None = None,
                  status: str = "draft") -> UUID:
    row = conn.execute(
        """INSERT INTO courses (org_id, title, description, outcome, language, source_document_id,
                                created_by, generation_job_id, status, published_at)
           VALUES (%(org_id)s, %(title)s, %(description)s, %(outcome)s, %(language)s, %(source)s,
                   %(created_by)s, %(job)s, %(status)s,
                   CASE WHEN %(status)s = 'published' THEN now() END)
           RETURNING id""",
        {"org_id": org_id, "title": title, "description": description, "outcome": outcome,
         "language": language, "source": source_document_id, "created_by": created_by,
         "job": generation_job_id, "status": status}).fetchone()
    return row[0]


def set_course_status(conn: psycopg.Connection, org_id: UUID, course_id: UUID, status: str) -> bool:
    """draft | published | archived; publishing stamps published_at once."""
    cur = conn.execute(
        """UPDATE courses SET status = %(status)s,
               published_at = CASE WHEN %(status)s = 'published' THEN coalesce(published_at, now())
                                   ELSE published_at END
           WHERE org_id = %(org_id)s AND id = %(id)s""",
        {"status": status, "org_id": org_id, "id": course_id})
    return cur.rowcount == 1


def _next_position(conn: psycopg.Connection, sql: str, params: dict) -> int:
    return conn.execute(sql, params).fetchone()[0]


def _inserted_id(cur: psycopg.Cursor, parent: str) -> UUID:
    """The id an INSERT ... SELECT returned; none means the parent is not in this organisation."""
    row = cur.fetchone()
    if row is None:
        raise CatalogError(f"{parent} not found in this organisation")
    return row[0]


def add_module(conn: psycopg.Connection, org_id: UUID, course_id: UUID, *, title: str, summary: str = "",
               position: int | None = None, bloom_level: str | None = None, skill_id: UUID | None = None,
               source_chunk_ids: list[UUID] = (), version: int = 1) -> UUID:
    """Append a module to the course (or place it at ``position``)."""
    params = {"org_id": org_id, "course_id": course_id}
    if position is None:
        position = _next_position(conn, "SELECT coalesce(max(position), 0) + 1 FROM modules"
                                         " WHERE org_id = %(org_id)s AND course_id = %(course_id)s", params)
    return _inserted_id(conn.execute(
        """INSERT INTO modules (org_id, course_id, position, title, summary, bloom_level, skill_id,
                                source_chunk_ids, version)
           SELECT %(org_id)s, id, %(position)s, %(title)s, %(summary)s, %(bloom)s, %(skill_id)s,
                  %(chunks)s, %(version)s
           FROM courses WHERE org_id = %(org_id)s AND id = %(course_id)s
           RETURNING id""",
        {**params, "position": position, "title": title, "summary": summary, "bloom": bloom_level,
         "skill_id": skill_id, "chunks": list(source_chunk_ids), "version": version}), "course")


def add_lesson(conn: psycopg.Connection, org_id: UUID, module_id: UUID, *, title: str, content_type: str,
               content_md: str = "", citations: list[dict] = (), source_chunk_ids: list[UUID] = (),
               position: int | None = None) -> UUID:
    """Append a lesson (theory | example | exercise | summary) to the module.

    ``citations``: [{"document": title, "section": heading, "page": n, "chunk_id": id?}, ...].
    """
    if content_type not in LESSON_TYPES:
        raise CatalogError(f"lesson type must be one of {', '.join(LESSON_TYPES)}")
    params = {"org_id": org_id, "module_id": module_id}
    if position is None:
        position = _next_position(conn, "SELECT coalesce(max(position), 0) + 1 FROM lessons"
                                         " WHERE org_id = %(org_id)s AND module_id = %(module_id)s", params)
    return _inserted_id(conn.execute(
        """INSERT INTO lessons (org_id, module_id, position, title, content_type, content_md, citations,
                                source_chunk_ids)
           SELECT %(org_id)s, id, %(position)s, %(title)s, %(type)s, %(md)s, %(citations)s, %(chunks)s
           FROM modules WHERE org_id = %(org_id)s AND id = %(module_id)s
           RETURNING id""",
        {**params, "position": position, "title": product_text(title), "type": content_type,
         "md": product_text(content_md),
         "citations": Jsonb([{k: str(v) if isinstance(v, UUID) else v for k, v in c.items()}
                             for c in citations]),
         "chunks": list(source_chunk_ids)}), "module")


def add_exercise(conn: psycopg.Connection, org_id: UUID, lesson_id: UUID, *, type: str, prompt: str,
                 content: dict[str, Any], bloom_level: str, explanation: str = "",
                 source_chunk_ids: list[UUID] = (), position: int | None = None) -> UUID:
    """Append an exercise to the lesson; ``content`` must match the shared contract for ``type``."""
    validate_exercise_content(type, content)
    if bloom_level not in BLOOM_LEVELS:
        raise CatalogError(f"bloom_level must be one of {', '.join(BLOOM_LEVELS)}")
    params = {"org_id": org_id, "lesson_id": lesson_id}
    if position is None:
        position = _next_position(conn, "SELECT coalesce(max(position), 0) + 1 FROM exercises"
                                         " WHERE org_id = %(org_id)s AND lesson_id = %(lesson_id)s", params)
    return _inserted_id(conn.execute(
        """INSERT INTO exercises (org_id, lesson_id, position, type, bloom_level, prompt, content,
                                  explanation, source_chunk_ids)
           SELECT %(org_id)s, id, %(position)s, %(type)s, %(bloom)s, %(prompt)s, %(content)s,
                  %(explanation)s, %(chunks)s
           FROM lessons WHERE org_id = %(org_id)s AND id = %(lesson_id)s
           RETURNING id""",
        {**params, "position": position, "type": type, "bloom": bloom_level, "prompt": product_text(prompt),
         "content": Jsonb(content), "explanation": product_text(explanation),
         "chunks": list(source_chunk_ids)}), "lesson")


def link_course_document(conn: psycopg.Connection, org_id: UUID, course_id: UUID, document_id: UUID) -> None:
    conn.execute(
        """INSERT INTO course_documents (course_id, document_id, org_id)
           SELECT c.id, d.id, c.org_id FROM courses c JOIN documents d ON d.org_id = c.org_id
           WHERE c.org_id = %(org_id)s AND c.id = %(course_id)s AND d.id = %(document_id)s
           ON CONFLICT DO NOTHING""",
        {"org_id": org_id, "course_id": course_id, "document_id": document_id})


def link_course_skill(conn: psycopg.Connection, org_id: UUID, course_id: UUID, skill_id: UUID,
                      target_level: str = "medium") -> None:
    conn.execute(
        """INSERT INTO course_skills (course_id, skill_id, org_id, target_level)
           SELECT c.id, s.id, c.org_id, %(level)s FROM courses c JOIN skills s ON s.org_id = c.org_id
           WHERE c.org_id = %(org_id)s AND c.id = %(course_id)s AND s.id = %(skill_id)s
           ON CONFLICT (course_id, skill_id) DO UPDATE SET target_level = EXCLUDED.target_level""",
        {"org_id": org_id, "course_id": course_id, "skill_id": skill_id, "level": target_level})


# ---- reads -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Course:
    id: UUID
    title: str
    description: str
    outcome: str
    status: str
    language: str
    source_document_id: UUID | None


@dataclass(frozen=True)
class Exercise:
    id: UUID
    lesson_id: UUID
    position: int
    type: str
    bloom_level: str
    prompt: str
    content: dict
    explanation: str
    source_chunk_ids: list[UUID]


@dataclass
class LessonOutline:
    id: UUID
    position: int
    title: str
    content_type: str
    content_md: str
    citations: list[dict]
    exercises: list[Exercise] = field(default_factory=list)


@dataclass
class ModuleOutline:
    id: UUID
    position: int
    title: str
    summary: str
    skill_id: UUID | None
    lessons: list[LessonOutline] = field(default_factory=list)


@dataclass
class CourseOutline:
    course: Course
    modules: list[ModuleOutline]


_COURSE_COLUMNS = "id, title, description, outcome, status, language, source_document_id"


def get_course(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> Course | None:
    with conn.cursor(row_factory=class_row(Course)) as cur:
        return cur.execute(f"SELECT {_COURSE_COLUMNS} FROM courses WHERE org_id = %(org_id)s AND id = %(id)s",
                           {"org_id": org_id, "id": course_id}).fetchone()


def list_courses(conn: psycopg.Connection, org_id: UUID, *, status: str | None = None) -> list[Course]:
    with conn.cursor(row_factory=class_row(Course)) as cur:
        return cur.execute(
            f"""SELECT {_COURSE_COLUMNS} FROM courses WHERE org_id = %(org_id)s
                AND (%(status)s::text IS NULL OR status = %(status)s) ORDER BY title""",
            {"org_id": org_id, "status": status}).fetchall()


def get_course_outline(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> CourseOutline | None:
    """The course with its modules, lessons and exercises, in order."""
    course = get_course(conn, org_id, course_id)
    if course is None:
        return None
    params = {"org_id": org_id, "course_id": course_id}
    modules = {row[0]: ModuleOutline(*row) for row in conn.execute(
        """SELECT id, position, title, summary, skill_id FROM modules
           WHERE org_id = %(org_id)s AND course_id = %(course_id)s ORDER BY position""", params)}
    lessons: dict[UUID, LessonOutline] = {}
    for module_id, *row in conn.execute(
            """SELECT l.module_id, l.id, l.position, l.title, l.content_type, l.content_md, l.citations
               FROM lessons l JOIN modules m ON m.id = l.module_id
               WHERE l.org_id = %(org_id)s AND m.course_id = %(course_id)s ORDER BY m.position, l.position""",
            params):
        lesson = LessonOutline(*row)
        lessons[lesson.id] = lesson
        modules[module_id].lessons.append(lesson)
    with conn.cursor(row_factory=class_row(Exercise)) as cur:
        for exercise in cur.execute(
                """SELECT e.id, e.lesson_id, e.position, e.type, e.bloom_level, e.prompt, e.content,
                          e.explanation, e.source_chunk_ids
                   FROM exercises e JOIN lessons l ON l.id = e.lesson_id JOIN modules m ON m.id = l.module_id
                   WHERE e.org_id = %(org_id)s AND m.course_id = %(course_id)s ORDER BY e.position""",
                params):
            lessons[exercise.lesson_id].exercises.append(exercise)
    return CourseOutline(course, list(modules.values()))


def course_org_id(conn: psycopg.Connection, course_id: UUID) -> UUID | None:
    """The organisation a course belongs to (for operator commands given only a course id)."""
    row = conn.execute("SELECT org_id FROM courses WHERE id = %(id)s", {"id": course_id}).fetchone()
    return row[0] if row else None
