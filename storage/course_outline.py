"""A course's outline for retrieval: the documents it draws on, its modules with their lesson titles (the
course's "index page"), and its lessons' texts. Every query filters by org_id."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import psycopg
from psycopg.rows import class_row


@dataclass(frozen=True)
class ModuleNode:
    id: UUID
    position: int
    title: str
    summary: str
    lesson_titles: list[str]


@dataclass(frozen=True)
class LessonText:
    id: UUID
    module_id: UUID
    module_title: str
    module_position: int
    position: int
    title: str
    content_md: str


def course_document_ids(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> list[UUID]:
    """The documents a course draws on: linked sources, its source document, its lessons' chunks."""
    rows = conn.execute(
        """SELECT document_id FROM course_documents WHERE org_id = %(org_id)s AND course_id = %(course)s
           UNION SELECT source_document_id FROM courses
                 WHERE org_id = %(org_id)s AND id = %(course)s AND source_document_id IS NOT NULL
           UNION SELECT c.document_id FROM lessons l JOIN modules m ON m.id = l.module_id
                 JOIN document_chunks c ON c.id = ANY(l.source_chunk_ids)
                 WHERE m.org_id = %(org_id)s AND m.course_id = %(course)s AND c.org_id = %(org_id)s""",
        {"org_id": org_id, "course": course_id},
    ).fetchall()
    return [row[0] for row in rows]


def course_tree(conn: psycopg.Connection, org_id: UUID, course_id: UUID) -> list[ModuleNode]:
    """The course's "index page": modules in order with their summaries and lesson titles."""
    with conn.cursor(row_factory=class_row(ModuleNode)) as cur:
        return cur.execute(
            """SELECT m.id, m.position, m.title, m.summary,
                      coalesce(array_agg(l.title ORDER BY l.position) FILTER (WHERE l.id IS NOT NULL),
                               '{}') AS lesson_titles
               FROM modules m LEFT JOIN lessons l ON l.module_id = m.id
               WHERE m.org_id = %(org_id)s AND m.course_id = %(course)s
               GROUP BY m.id ORDER BY m.position""",
            {"org_id": org_id, "course": course_id},
        ).fetchall()


_LESSON_SELECT = """
    SELECT l.id, l.module_id, m.title AS module_title, m.position AS module_position, l.position,
           l.title, l.content_md
    FROM lessons l JOIN modules m ON m.id = l.module_id"""


def module_lessons(conn: psycopg.Connection, org_id: UUID, module_ids: list[UUID]) -> list[LessonText]:
    with conn.cursor(row_factory=class_row(LessonText)) as cur:
        return cur.execute(
            f"{_LESSON_SELECT} WHERE l.org_id = %(org_id)s AND l.module_id = ANY(%(ids)s)"
            " ORDER BY m.position, l.position",
            {"org_id": org_id, "ids": module_ids},
        ).fetchall()


def get_lesson(conn: psycopg.Connection, org_id: UUID, lesson_id: UUID) -> LessonText | None:
    with conn.cursor(row_factory=class_row(LessonText)) as cur:
        return cur.execute(
            f"{_LESSON_SELECT} WHERE l.org_id = %(org_id)s AND l.id = %(id)s", {"org_id": org_id, "id": lesson_id}
        ).fetchone()
